/* cl_apriori.c - what every colocation miner does between levels, on the host: the
 * Apriori candidates of the next size from the prevalent patterns of this one, and the
 * result's level of those candidates, timed by the host's clock (dm_now). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_index.h"

static int cl_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int cl_apriori(const uint64_t *prev, int nprev, int k, uint64_t **cands)
{
    uint64_t *sorted = malloc(((size_t)nprev + 1) * sizeof *sorted);
    size_t cap = 64, n = 0;
    *cands = malloc(cap * sizeof **cands);
    if (!sorted || !*cands)
        goto oom;
    memcpy(sorted, prev, (size_t)nprev * sizeof *sorted);
    qsort(sorted, (size_t)nprev, sizeof *sorted, cl_cmp_u64);
    for (int i = 0; i < nprev; i++) {
        int fa[CL_MAX_FEATURES], fb[CL_MAX_FEATURES];
        cl_mask_features(prev[i], fa);
        for (int j = i + 1; j < nprev; j++) {
            cl_mask_features(prev[j], fb);
            if (k > 1 && memcmp(fa, fb, (size_t)(k - 1) * sizeof *fa) != 0)
                break;
            uint64_t c = prev[i] | prev[j];
            int all = 1;
            for (int d = 0; d < k - 1 && all; d++) {
                uint64_t sub = c & ~(1ULL << fa[d]);
                all = bsearch(&sub, sorted, (size_t)nprev, sizeof *sorted, cl_cmp_u64) != NULL;
            }
            if (!all)
                continue;
            if (n == cap) {
                uint64_t *p = realloc(*cands, 2 * cap * sizeof *p);
                if (!p)
                    goto oom;
                *cands = p;
                cap *= 2;
            }
            (*cands)[n++] = c;
        }
    }
    free(sorted);
    return (int)n;
oom:
    free(sorted);
    free(*cands);
    *cands = NULL;
    return -1;
}

/* Appends n candidates of size k1 (masks cands) to r, undecided (bound and PI NAN), and
 * opens their level; *cap is r->cand's room, grown as needed. Returns the index of the
 * first, or -1 without memory. */
static int64_t cl_result_open_level(cl_result *r, int64_t *cap, const uint64_t *cands, int n,
                                    int k1)
{
    if (r->ncand + n > *cap) {
        int64_t c = *cap ? *cap : 256;
        while (c < r->ncand + n)
            c *= 2;
        cl_candidate *p = realloc(r->cand, (size_t)c * sizeof *p);
        if (!p)
            return -1;
        r->cand = p;
        *cap = c;
    }
    int64_t base = r->ncand;
    for (int i = 0; i < n; i++)
        r->cand[r->ncand++] =
            (cl_candidate){.mask = cands[i], .size = k1, .bound = NAN, .pi = NAN};
    r->levels[r->nlevels++] = (cl_level){.size = k1, .candidates = n};
    return base;
}

int cl_next_candidates(cl_result *r, int64_t *cap, const uint64_t *prev, int nprev, int k,
                       uint64_t **cands, int64_t *base)
{
    double t0 = dm_now();
    int n = cl_apriori(prev, nprev, k, cands);
    if (n > 0 && (*base = cl_result_open_level(r, cap, *cands, n, k + 1)) < 0) {
        free(*cands);
        *cands = NULL;
        return -1;
    }
    if (n > 0)
        r->levels[r->nlevels - 1].host_s += dm_now() - t0;
    return n;
}
