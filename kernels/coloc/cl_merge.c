/* cl_merge.c - shrinking the fine set before mining, exactly: each feature's points that
 * no miner can tell apart folded into one weighted instance. Sites: points at one place.
 * Twins: points with the same neighbours among the other features' points (same-feature
 * points never share a row, so those are all a row instance can see of a point). Each
 * class keeps its first point as its instance, so the set stays in cl_inst_fine's order
 * and its instances are points of the data. */
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_index.h"
#include "rng.h"

/* Keeps the instances i of s with rep[i] == i, each weighing its class's points (rep[i],
 * at most i, is the kept instance of i's class), in their order, and rebuilds the cell
 * lists. Returns 0, or -1 without memory. */
static int cl_inst_keep(cl_inst *s, const uint32_t *rep)
{
    uint32_t *id = malloc(((size_t)s->n + 1) * sizeof *id);
    uint32_t *weight = calloc((size_t)s->n + 1, sizeof *weight);
    if (!id || !weight) {
        free(id);
        free(weight);
        return -1;
    }
    uint32_t m = 0, start[CL_MAX_FEATURES + 1] = {0};
    for (int f = 0; f < s->nfeat; f++) {
        for (uint32_t i = s->start[f]; i < s->start[f + 1]; i++) {
            if (rep[i] == i) {
                id[i] = m;
                s->x[m] = s->x[i];
                s->y[m] = s->y[i];
                s->col[m] = s->col[i];
                s->row[m] = s->row[i];
                m++;
            }
            weight[id[rep[i]]] += s->weight ? s->weight[i] : 1;
        }
        start[f + 1] = m;
    }
    free(id);
    free(s->weight);
    free(s->cell_start);
    free(s->cell_items);
    s->weight = weight;
    s->cell_start = s->cell_items = NULL;
    s->n = m;
    memcpy(s->start, start, sizeof start);
    return cl_inst_cells(s);
}

/* ---- sites ------------------------------------------------------------------------------ */

/* A point while its place is compared: the place, and its index. */
typedef struct cl_placed {
    double x, y;
    uint32_t i;
} cl_placed;

/* By x, then y, then index. */
static int cl_placed_cmp(const void *a, const void *b)
{
    const cl_placed *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

/* rep[i]: the first point of i's feature at i's place (they share a cell, so each run of
 * one feature's points in one cell is sorted by place). Returns 0, or -1 without memory. */
static int cl_sites_of(const cl_inst *s, uint32_t *rep)
{
    cl_placed *p = malloc(((size_t)s->n + 1) * sizeof *p);
    if (!p)
        return -1;
    for (int f = 0; f < s->nfeat; f++)
        for (uint32_t lo = s->start[f], hi; lo < s->start[f + 1]; lo = hi) {
            for (hi = lo + 1; hi < s->start[f + 1] && s->col[hi] == s->col[lo] &&
                              s->row[hi] == s->row[lo];
                 hi++)
                ;
            for (uint32_t i = lo; i < hi; i++)
                p[i] = (cl_placed){s->x[i], s->y[i], i};
            qsort(p + lo, hi - lo, sizeof *p, cl_placed_cmp);
            for (uint32_t j = lo, first = lo; j < hi; j++) {
                if (p[j].x != p[first].x || p[j].y != p[first].y)
                    first = j;
                rep[p[j].i] = p[first].i;
            }
        }
    free(p);
    return 0;
}

/* ---- twins ------------------------------------------------------------------------------ */

/* The neighbour lists of a set, made a chunk of instances at a time: off[i] .. off[i+1]-1
 * of ids hold instance i's neighbours of other features, ascending, hash[i] their hash. */
typedef struct cl_nbrs {
    const cl_inst *s;
    uint32_t chunk; /* instances a chunk */
    uint64_t *off, *hash;
    uint32_t *ids;  /* NULL while counting */
} cl_nbrs;

/* Counts (ids NULL: into off[i + 1]) or writes instance i's neighbours of other features,
 * from the 3 x 3 cells around it (f: its feature). */
static void cl_nbrs_one(cl_nbrs *nb, uint32_t i, int f)
{
    const cl_inst *s = nb->s;
    uint64_t n = 0, h = 0x9e3779b97f4a7c15ULL;
    uint32_t *out = nb->ids ? nb->ids + nb->off[i] : NULL;
    for (int32_t r = s->row[i] - 1; r <= s->row[i] + 1; r++)
        for (int32_t c = s->col[i] - 1; c <= s->col[i] + 1; c++) {
            if (r < 0 || c < 0 || r >= s->grid.nrows || c >= s->grid.ncols)
                continue;
            size_t cell = (size_t)r * s->grid.ncols + c;
            for (uint32_t j = s->cell_start[cell]; j < s->cell_start[cell + 1]; j++) {
                uint32_t b = s->cell_items[j];
                if ((b < s->start[f] || b >= s->start[f + 1]) && cl_inst_near(s, i, b)) {
                    if (out)
                        out[n] = b;
                    n++;
                }
            }
        }
    if (!out) {
        nb->off[i + 1] = n;
        return;
    }
    qsort(out, n, sizeof *out, cl_cmp_u32);
    for (uint64_t j = 0; j < n; j++) { /* splitmix64 over the ids in turn */
        uint64_t state = h ^ out[j];
        h = dm_splitmix64(&state);
    }
    nb->hash[i] = h;
}

static void cl_nbrs_chunk(void *ctx, int chunk)
{
    cl_nbrs *nb = ctx;
    const cl_inst *s = nb->s;
    uint32_t lo = (uint32_t)chunk * nb->chunk;
    uint32_t hi = s->n - lo < nb->chunk ? s->n : lo + nb->chunk;
    int f = 0;
    for (uint32_t i = lo; i < hi; i++) {
        while (i >= s->start[f + 1])
            f++;
        cl_nbrs_one(nb, i, f);
    }
}

/* An instance while its neighbours are compared: their hash, number and list. */
typedef struct cl_twin {
    uint64_t hash, len;
    const uint32_t *ids;
    uint32_t i;
} cl_twin;

/* By hash, number and list of neighbours, then index. */
static int cl_twin_cmp(const void *a, const void *b)
{
    const cl_twin *p = a, *q = b;
    if (p->hash != q->hash)
        return p->hash < q->hash ? -1 : 1;
    if (p->len != q->len)
        return p->len < q->len ? -1 : 1;
    int c = memcmp(p->ids, q->ids, p->len * sizeof *p->ids);
    return c ? c : (p->i > q->i) - (p->i < q->i);
}

/* Whether p and q have the same neighbours. */
static int cl_twins(const cl_twin *p, const cl_twin *q)
{
    return p->hash == q->hash && p->len == q->len &&
           !memcmp(p->ids, q->ids, p->len * sizeof *p->ids);
}

/* rep[i]: the first point of i's feature with i's neighbours, the lists made on threads
 * threads. Returns 0, or -1 without memory. */
static int cl_twins_of(const cl_inst *s, int threads, uint32_t *rep)
{
    cl_nbrs nb = {.s = s, .chunk = 4096};
    int nchunks = (int)((s->n + nb.chunk - 1) / nb.chunk), rc = -1;
    nb.off = calloc((size_t)s->n + 1, sizeof *nb.off);
    nb.hash = malloc(((size_t)s->n + 1) * sizeof *nb.hash);
    cl_twin *tw = malloc(((size_t)s->n + 1) * sizeof *tw);
    if (!nb.off || !nb.hash || !tw)
        goto out;
    cl_par_for(threads, nchunks, cl_nbrs_chunk, &nb);
    for (uint32_t i = 0; i < s->n; i++)
        nb.off[i + 1] += nb.off[i];
    if (!(nb.ids = malloc((nb.off[s->n] + 1) * sizeof *nb.ids)))
        goto out;
    cl_par_for(threads, nchunks, cl_nbrs_chunk, &nb);
    for (uint32_t i = 0; i < s->n; i++)
        tw[i] = (cl_twin){nb.hash[i], nb.off[i + 1] - nb.off[i], nb.ids + nb.off[i], i};
    for (int f = 0; f < s->nfeat; f++) {
        uint32_t lo = s->start[f], hi = s->start[f + 1];
        qsort(tw + lo, hi - lo, sizeof *tw, cl_twin_cmp);
        for (uint32_t j = lo, first = lo; j < hi; j++) {
            if (!cl_twins(&tw[j], &tw[first]))
                first = j;
            rep[tw[j].i] = tw[first].i;
        }
    }
    rc = 0;
out:
    free(nb.off);
    free(nb.hash);
    free(nb.ids);
    free(tw);
    return rc;
}

int cl_inst_merge(cl_inst *s, cl_merge how, int threads, dm_err *err)
{
    if (how == CL_MERGE_NONE)
        return 0;
    uint32_t *rep = malloc(((size_t)s->n + 1) * sizeof *rep);
    int rc = !rep || cl_sites_of(s, rep) || cl_inst_keep(s, rep);
    if (!rc && how == CL_MERGE_TWINS) /* on the sites: fewer lists, the same classes */
        rc = cl_twins_of(s, threads ? threads : cl_par_cores(), rep) || cl_inst_keep(s, rep);
    free(rep);
    return rc ? dm_err_set(err, DM_ERUNTIME, "out of memory merging %u instances", s->n) : 0;
}
