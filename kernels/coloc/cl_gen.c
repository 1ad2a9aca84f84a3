/* cl_gen.c - synthetic colocation data after Huang et al., as Sainju & Jiang describe it:
 * maximal patterns on disjoint features planted in neighbourhoods, several row instances
 * overlaid per neighbourhood (the clumpiness), and noise features spread uniformly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/coloc.h"
#include "rng.h"

/* The layout. Features 0 .. patterns * max_size - 1 are the patterns' (pattern p owns
 * p * max_size .. (p+1) * max_size - 1), the noise features come after; names are "1",
 * "2", ... Every feature gets instances / nfeat points; the noise features share the
 * remainder (the first ones one more), which is dropped without noise features. Pattern p's rows =
 * instances / nfeat row instances are planted clumpiness at a time: each group picks a
 * neighbourhood, a square of side 0.7 d at a uniform place in the area, and each of its
 * row instances puts one point of every feature of p uniformly in the square. The square's
 * diagonal, 0.99 d, keeps all its points neighbours, so a group of c row instances makes
 * c^max_size rows of the maximal pattern and every planted pattern has PI 1. Noise points
 * are uniform over the area. The bounding box is the area, (0, 0, area, area). Draws come
 * in that order from one xoshiro256** stream seeded with g->seed. */

void cl_gen_defaults(cl_gen_params *g)
{
    *g = (cl_gen_params){.area = 10000, .distance = 10, .max_size = 5, .patterns = 2,
                         .noise_features = 2, .instances = 250000, .clumpiness = 1, .seed = 1};
}

/* Checks g. Returns 0, or DM_EINPUT naming the parameter out of range. */
static int cl_gen_check(const cl_gen_params *g, dm_err *err)
{
    if (!(g->area > 0) || !isfinite(g->area))
        return dm_err_set(err, DM_EINPUT, "area %g is not a positive number", g->area);
    if (!(g->distance > 0) || !(g->distance <= g->area))
        return dm_err_set(err, DM_EINPUT, "distance %g is not in (0, area %g]", g->distance,
                          g->area);
    if (g->max_size < 2 || g->patterns < 0 || g->noise_features < 0)
        return dm_err_set(err, DM_EINPUT,
                          "max_size %d (at least 2), patterns %d, noise features %d (at least 0)",
                          g->max_size, g->patterns, g->noise_features);
    int64_t nfeat = (int64_t)g->patterns * g->max_size + g->noise_features;
    if (nfeat < 1 || nfeat > CL_MAX_FEATURES)
        return dm_err_set(err, DM_EINPUT,
                          "%lld features (patterns x max_size + noise), expected 1 to %d",
                          (long long)nfeat, CL_MAX_FEATURES);
    if (g->instances < nfeat || g->instances > INT32_MAX)
        return dm_err_set(err, DM_EINPUT, "%u instances, expected %lld (one per feature) to %d",
                          g->instances, (long long)nfeat, INT32_MAX);
    if (g->clumpiness < 1)
        return dm_err_set(err, DM_EINPUT, "clumpiness %u, expected at least 1", g->clumpiness);
    return 0;
}

int cl_generate(const cl_gen_params *g, cl_points *p, cl_planted *planted, dm_err *err)
{
    memset(p, 0, sizeof *p);
    int rc = cl_gen_check(g, err);
    if (rc)
        return rc;
    int pf = g->patterns * g->max_size, nfeat = pf + g->noise_features;
    uint32_t rows = g->instances / (uint32_t)nfeat, rem = g->instances % (uint32_t)nfeat;
    p->nfeat = nfeat;
    for (int f = 0; f < nfeat; f++) {
        uint32_t extra = 0, i = (uint32_t)(f - pf), nn = (uint32_t)g->noise_features;
        if (f >= pf)
            extra = rem / nn + (i < rem % nn);
        p->start[f + 1] = p->start[f] + rows + extra;
    }
    p->n = p->start[nfeat];
    p->names = malloc((size_t)nfeat * sizeof *p->names);
    p->x = malloc((size_t)p->n * sizeof *p->x);
    p->y = malloc((size_t)p->n * sizeof *p->y);
    if (!p->names || !p->x || !p->y) {
        cl_points_free(p);
        return dm_err_set(err, DM_ERUNTIME, "out of memory for %u points", g->instances);
    }
    for (int f = 0; f < nfeat; f++)
        snprintf(p->names[f], CL_NAME_MAX, "%d", f + 1);
    p->minx = p->miny = 0;
    p->maxx = p->maxy = g->area;
    dm_rng rng = dm_rng_seed(g->seed);
    double side = 0.7 * g->distance;
    for (int pat = 0; pat < g->patterns; pat++) {
        uint32_t *at = p->start + pat * g->max_size; /* each feature's first point */
        for (uint32_t done = 0; done < rows;) {
            double ox = dm_rng_unit(&rng) * (g->area - side);
            double oy = dm_rng_unit(&rng) * (g->area - side);
            uint32_t group = rows - done < g->clumpiness ? rows - done : g->clumpiness;
            for (uint32_t r = 0; r < group; r++, done++)
                for (int m = 0; m < g->max_size; m++) {
                    uint32_t i = at[m] + done;
                    p->x[i] = ox + dm_rng_unit(&rng) * side;
                    p->y[i] = oy + dm_rng_unit(&rng) * side;
                }
        }
    }
    for (uint32_t i = p->start[pf]; i < p->n; i++) {
        p->x[i] = dm_rng_unit(&rng) * g->area;
        p->y[i] = dm_rng_unit(&rng) * g->area;
    }
    if (planted) {
        memset(planted, 0, sizeof *planted);
        planted->n = g->patterns;
        for (int pat = 0; pat < g->patterns; pat++)
            for (int m = 0; m < g->max_size; m++)
                planted->mask[pat] |= 1ULL << (pat * g->max_size + m);
    }
    return 0;
}
