/* cl_gpu_mine.c - the colocation miner on the GPU (the paper's section 3), driven from the
 * host: Apriori candidates level by level on the host (cl_apriori.c, as cl_mine), each
 * candidate's bound by filter M (grid search over the coarse set) or C (cell aggregates)
 * and its instance table by grid search (G) or prefix hash join (H) on the device, in
 * two runs (count, prefix sum, write), the participation bitmaps summed on the device and
 * the ratios made on the host from those integer sums, as cl_mine makes them. Tables are
 * made a slice of their input at a time and kept on the device while they fit, else in
 * host memory (the paper's section 5), read back a slice at a time. */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "coloc/cl_gpu.h"
#include "coloc/cl_index.h"

/* An instance table of rows of k ids, sorted: on the device, or in host memory when the
 * device had no room for it. */
typedef struct clg_table {
    int k;
    uint64_t rows;
    uint32_t *dev, *host;
} clg_table;

/* A prevalent pattern of the level being mined, and its tables (fine; coarse for filter
 * M) when the next level reads them. */
typedef struct clg_pat {
    uint64_t mask;
    clg_feats feat;
    uint64_t rows, coarse_rows;
    clg_table fine, coarse;
    int need_fine, need_coarse;
} clg_pat;

/* An instance set: on the host (its counts and starts), on the device, its bitmap. */
typedef struct clg_side {
    cl_inst h;
    clg_set d;
    double *x, *y;
    uint32_t *weight, *cell_start, *cell_items, *bits;
    int32_t *col, *row;
    size_t words;
} clg_side;

struct cl_gpu {
    cl_gpu_opts o;
    cudaStream_t st;
    clg_side fine, coarse;
    uint64_t *cell_mask;       /* device: the fine set's features of each cell (filter C) */
    uint64_t *counts, *offsets; /* device: slice + 1 each */
    void *temp;                /* device: the prefix sum's */
    size_t temp_bytes;
    unsigned long long *sums;  /* device: CL_MAX_FEATURES sums, then the groups' count */
    unsigned long long h_sums[CL_MAX_FEATURES + 1];
    uint32_t *in, *out;        /* device: slices of host tables, read and written */
    uint64_t in_cap, out_cap;  /* their room, ids */
    unsigned long long *hash;  /* device: the prefix hash of the H join */
    uint64_t hash_cap;
    cudaEvent_t ev[2];
    uint64_t budget, held;     /* bytes of tables the device may hold, and holds */
};

/* ---- device memory ------------------------------------------------------------------ */

static int clg_sync(cl_gpu *g, dm_err *err)
{
    return DM_CUDA(err, cudaStreamSynchronize(g->st)) ? DM_ERUNTIME : 0;
}

/* *dev gets n bytes of the device holding host's (NULL: uninitialised). */
static int clg_upload(cl_gpu *g, const void *host, size_t n, void **dev, dm_err *err)
{
    if (dm_gpu_alloc(g->st, n ? n : 1, dev, err))
        return DM_ERUNTIME;
    if (host && n && DM_CUDA(err, cudaMemcpyAsync(*dev, host, n, cudaMemcpyHostToDevice, g->st)))
        return DM_ERUNTIME;
    return 0;
}

/* Makes *buf (room *cap items of size bytes) hold at least n items. */
static int clg_grow(cl_gpu *g, void **buf, uint64_t *cap, uint64_t n, size_t size, dm_err *err)
{
    if (*buf && n <= *cap)
        return 0;
    dm_gpu_free(g->st, *buf);
    *buf = NULL;
    *cap = n > *cap * 2 ? n : *cap * 2;
    return clg_upload(g, NULL, (size_t)(*cap * size), buf, err);
}

/* The device copy of s into side (its host copy kept there). */
static int clg_side_upload(cl_gpu *g, clg_side *side, dm_err *err)
{
    const cl_inst *s = &side->h;
    size_t n = s->n, ncells = (size_t)s->grid.ncols * (size_t)s->grid.nrows;
    side->words = n / 32 + 1;
    if ((!s->coarse && (clg_upload(g, s->x, n * sizeof *s->x, (void **)&side->x, err) ||
                        clg_upload(g, s->y, n * sizeof *s->y, (void **)&side->y, err))) ||
        (s->coarse &&
         clg_upload(g, s->weight, n * sizeof *s->weight, (void **)&side->weight, err)) ||
        clg_upload(g, s->col, n * sizeof *s->col, (void **)&side->col, err) ||
        clg_upload(g, s->row, n * sizeof *s->row, (void **)&side->row, err) ||
        clg_upload(g, s->cell_start, (ncells + 1) * sizeof *s->cell_start,
                   (void **)&side->cell_start, err) ||
        clg_upload(g, s->cell_items, n * sizeof *s->cell_items, (void **)&side->cell_items,
                   err) ||
        clg_upload(g, NULL, side->words * sizeof *side->bits, (void **)&side->bits, err))
        return DM_ERUNTIME;
    side->d = (clg_set){.coarse = s->coarse, .ncols = s->grid.ncols, .nrows = s->grid.nrows,
                        .d2 = s->d2, .n = s->n, .x = side->x, .y = side->y,
                        .weight = side->weight, .col = side->col, .row = side->row,
                        .cell_start = side->cell_start, .cell_items = side->cell_items};
    memcpy(side->d.start, s->start, sizeof s->start);
    return 0;
}

static void clg_side_free(cl_gpu *g, clg_side *side)
{
    void *bufs[] = {side->x, side->y, side->weight, side->col, side->row, side->cell_start,
                    side->cell_items, side->bits};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        dm_gpu_free(g->st, bufs[i]);
    cl_inst_free(&side->h);
}

/* ---- tables ------------------------------------------------------------------------- */

/* Room for t's rows (t->k and t->rows set): on the device while the tables held there
 * stay within the budget, else in host memory. */
static int clg_table_alloc(cl_gpu *g, clg_table *t, dm_err *err)
{
    uint64_t bytes = t->rows * (uint64_t)t->k * sizeof(uint32_t);
    if (g->held + bytes <= g->budget) {
        if (clg_upload(g, NULL, (size_t)bytes, (void **)&t->dev, err))
            return DM_ERUNTIME;
        g->held += bytes;
        return 0;
    }
    if (!(t->host = malloc((size_t)bytes + 1)))
        return dm_err_set(err, DM_ERUNTIME, "out of host memory for an instance table of "
                          "%llu rows", (unsigned long long)t->rows);
    return 0;
}

static void clg_table_free(cl_gpu *g, clg_table *t)
{
    if (t->dev)
        g->held -= t->rows * (uint64_t)t->k * sizeof(uint32_t);
    dm_gpu_free(g->st, t->dev);
    free(t->host);
    t->dev = t->host = NULL;
}

/* The work of one pattern's table on side: size 2 (feat.k = 2) from the instances of its
 * first feature; above, the rows of t1 (its subset without its last feature) extended by
 * grid search, or, with t2 (without its second-to-last, on the device), by the join. */
typedef struct clg_work {
    clg_side *side;
    const clg_feats *feat;
    const clg_table *t1, *t2;
} clg_work;

static uint64_t clg_work_rows(const clg_work *w)
{
    const uint32_t *start = w->side->h.start;
    return w->feat->k == 2 ? start[w->feat->f[0] + 1] - start[w->feat->f[0]] : w->t1->rows;
}

/* The prefix hash of w->t2 into g->hash, its slots into a->slots. */
static int clg_hash_prepare(cl_gpu *g, const clg_work *w, clg_pass *a, dm_err *err)
{
    const clg_table *t2 = w->t2;
    unsigned long long *groups = g->sums + CL_MAX_FEATURES;
    if (DM_CUDA(err, cudaMemsetAsync(groups, 0, sizeof *groups, g->st)) ||
        clg_hash_groups(t2->dev, t2->rows, t2->k, groups, g->o.block, g->st, err) ||
        DM_CUDA(err, cudaMemcpyAsync(&g->h_sums[CL_MAX_FEATURES], groups, sizeof *groups,
                                     cudaMemcpyDeviceToHost, g->st)) ||
        clg_sync(g, err))
        return DM_ERUNTIME;
    uint64_t slots = 2;
    while (slots < 2 * g->h_sums[CL_MAX_FEATURES])
        slots *= 2;
    if (clg_grow(g, (void **)&g->hash, &g->hash_cap, slots, sizeof *g->hash, err) ||
        DM_CUDA(err, cudaMemsetAsync(g->hash, 0xff, slots * sizeof *g->hash, g->st)) ||
        clg_hash_build(t2->dev, t2->rows, t2->k, g->hash, slots, g->o.block, g->st, err))
        return DM_ERUNTIME;
    a->t2 = t2->dev;
    a->rows2 = t2->rows;
    a->hash = g->hash;
    a->slots = slots;
    return 0;
}

/* Counts the rows of input rows lo .. lo + a->n - 1 of w (a set up but for its input) into
 * g->counts, their prefix sum into g->offsets, the slice's rows into *rows (synchronises).
 * Unless a->bits is NULL, their ids are marked there. */
static int clg_slice_count(cl_gpu *g, const clg_work *w, clg_pass *a, uint64_t lo,
                           uint64_t *rows, dm_err *err)
{
    const int k = w->feat->k - 1;
    if (k == 1) {
        a->first = w->side->h.start[w->feat->f[0]] + (uint32_t)lo;
    } else if (w->t1->dev) {
        a->in = w->t1->dev + lo * (uint64_t)k;
    } else {
        if (clg_grow(g, (void **)&g->in, &g->in_cap, a->n * (uint64_t)k, sizeof *g->in, err) ||
            DM_CUDA(err, cudaMemcpyAsync(g->in, w->t1->host + lo * (uint64_t)k,
                                         a->n * (uint64_t)k * sizeof *g->in,
                                         cudaMemcpyHostToDevice, g->st)))
            return DM_ERUNTIME;
        a->in = g->in;
    }
    if (DM_CUDA(err, cudaMemsetAsync(g->counts + a->n, 0, sizeof *g->counts, g->st)) ||
        (a->t2 ? clg_hash_count(a, err) : clg_grid_count(a, err)) ||
        clg_scan(g->counts, g->offsets, a->n + 1, g->temp, g->temp_bytes, g->st, err) ||
        DM_CUDA(err, cudaMemcpyAsync(rows, g->offsets + a->n, sizeof *rows,
                                     cudaMemcpyDeviceToHost, g->st)) ||
        clg_sync(g, err))
        return DM_ERUNTIME;
    return 0;
}

/* The pass over w's input a slice at a time. out NULL: the counting run, the rows into
 * *rows and the participation into the side's bitmap (cleared first). Else the writing
 * run into out (out->rows, from the counting run, says how many): each slice counted
 * again, then written, into the device table or through g->out into the host one. */
static int clg_pass_run(cl_gpu *g, const clg_work *w, clg_table *out, uint64_t *rows,
                        dm_err *err)
{
    const int k1 = w->feat->k;
    const uint32_t *start = w->side->h.start;
    clg_pass a = {.s = w->side->d, .k = k1 - 1, .blo = start[w->feat->f[k1 - 1]],
                  .bhi = start[w->feat->f[k1 - 1] + 1], .counts = g->counts,
                  .bits = out ? NULL : w->side->bits, .offsets = g->offsets,
                  .block = g->o.block, .stream = g->st};
    if (!out && DM_CUDA(err, cudaMemsetAsync(w->side->bits, 0,
                                             w->side->words * sizeof *w->side->bits, g->st)))
        return DM_ERUNTIME;
    if (w->t2 && clg_hash_prepare(g, w, &a, err))
        return DM_ERUNTIME;
    const uint64_t total = clg_work_rows(w);
    uint64_t at = 0;
    for (uint64_t lo = 0; lo < total; lo += a.n) {
        a.n = total - lo < g->o.slice ? total - lo : g->o.slice;
        uint64_t got;
        if (clg_slice_count(g, w, &a, lo, &got, err))
            return DM_ERUNTIME;
        if (out && got) {
            const uint64_t ids = got * (uint64_t)k1;
            if (out->dev) {
                a.out = out->dev + at * (uint64_t)k1;
            } else if (clg_grow(g, (void **)&g->out, &g->out_cap, ids, sizeof *g->out, err)) {
                return DM_ERUNTIME;
            } else {
                a.out = g->out;
            }
            if ((a.t2 ? clg_hash_write(&a, err) : clg_grid_write(&a, err)) ||
                (out->host && DM_CUDA(err, cudaMemcpyAsync(out->host + at * (uint64_t)k1, g->out,
                                                           ids * sizeof *g->out,
                                                           cudaMemcpyDeviceToHost, g->st))))
                return DM_ERUNTIME;
        }
        at += got;
    }
    if (out && at != out->rows)
        return dm_err_set(err, DM_ERUNTIME, "an instance table wrote %llu rows where %llu "
                          "were counted", (unsigned long long)at,
                          (unsigned long long)out->rows);
    *rows = at;
    return out ? clg_sync(g, err) : 0;
}

/* The minimum over f's features of the sums g->sums (f.k of them, enqueued) over their
 * instances (h->total), into *pi: the ratios as cl_ratio makes them on the CPU, from the
 * same integers (synchronises). */
static int clg_min_ratio(cl_gpu *g, const cl_inst *h, const clg_feats *f, double *pi,
                         dm_err *err)
{
    if (DM_CUDA(err, cudaMemcpyAsync(g->h_sums, g->sums, (size_t)f->k * sizeof *g->sums,
                                     cudaMemcpyDeviceToHost, g->st)) ||
        clg_sync(g, err))
        return DM_ERUNTIME;
    *pi = 1;
    for (int m = 0; m < f->k; m++) {
        double ratio = cl_ratio(g->h_sums[m], h->total[f->f[m]]);
        if (ratio < *pi)
            *pi = ratio;
    }
    return 0;
}

/* The counting run of w: its rows into *rows, and its PI (fine set) or multi-resolution
 * bound (coarse set) into *pi, from the bitmap's sums, as cl_table_count makes it. */
static int clg_count(cl_gpu *g, const clg_work *w, uint64_t *rows, double *pi, dm_err *err)
{
    const clg_feats *f = w->feat;
    if (clg_pass_run(g, w, NULL, rows, err) ||
        DM_CUDA(err, cudaMemsetAsync(g->sums, 0, (size_t)f->k * sizeof *g->sums, g->st)) ||
        clg_bits_sum(&w->side->d, w->side->bits, f, g->sums, g->o.block, g->st, err))
        return DM_ERUNTIME;
    return clg_min_ratio(g, &w->side->h, f, pi, err);
}

/* ---- levels --------------------------------------------------------------------------- */

static clg_feats clg_feats_of(uint64_t mask)
{
    clg_feats f;
    f.k = cl_mask_features(mask, f.f);
    return f;
}

/* The pattern of arr[0..n-1] with this mask, or NULL. */
static clg_pat *clg_find(clg_pat *arr, int n, uint64_t mask)
{
    for (int i = 0; i < n; i++)
        if (arr[i].mask == mask)
            return &arr[i];
    return NULL;
}

/* The work of the size-k1 pattern f on side (coarse: the coarse tables) with its subsets'
 * tables from par[0..npar-1]: t1 without its last feature; with the H refinement, t2
 * without its second-to-last when that table is on the device (else grid search). */
static clg_work clg_work_of(cl_gpu *g, int coarse, const clg_feats *f, clg_pat *par, int npar)
{
    clg_work w = {.side = coarse ? &g->coarse : &g->fine, .feat = f};
    if (f->k == 2)
        return w;
    uint64_t mask = 0;
    for (int m = 0; m < f->k; m++)
        mask |= 1ULL << f->f[m];
    const clg_pat *p1 = clg_find(par, npar, mask & ~(1ULL << f->f[f->k - 1]));
    w.t1 = coarse ? &p1->coarse : &p1->fine;
    if (!coarse && g->o.refine == CL_REFINE_HASH) {
        const clg_pat *p2 = clg_find(par, npar, mask & ~(1ULL << f->f[f->k - 2]));
        w.t2 = p2->fine.dev ? &p2->fine : NULL;
    }
    return w;
}

static void clg_time_begin(cl_gpu *g)
{
    DM_CUDA_WARN(cudaEventRecord(g->ev[0], g->st));
}

/* Adds the seconds since clg_time_begin to *acc (synchronises). */
static int clg_time_end(cl_gpu *g, double *acc, dm_err *err)
{
    float ms = 0;
    if (DM_CUDA(err, cudaEventRecord(g->ev[1], g->st)) ||
        DM_CUDA(err, cudaEventSynchronize(g->ev[1])) ||
        DM_CUDA(err, cudaEventElapsedTime(&ms, g->ev[0], g->ev[1])))
        return DM_ERUNTIME;
    *acc += ms / 1e3;
    return 0;
}

/* Filter C's bound on the pattern f into *bound, from the device's integer sums, as
 * cl_cellagg_bound makes it. */
static int clg_cellagg_bound(cl_gpu *g, const clg_feats *f, double *bound, dm_err *err)
{
    if (DM_CUDA(err, cudaMemsetAsync(g->sums, 0, (size_t)f->k * sizeof *g->sums, g->st)) ||
        clg_cellagg_sum(&g->coarse.d, g->cell_mask, f, g->sums, g->o.block, g->st, err))
        return DM_ERUNTIME;
    return clg_min_ratio(g, &g->coarse.h, f, bound, err);
}

/* The filter's bound on each candidate cc[0..n-1] of size k1 (subsets par[0..npar-1],
 * their coarse tables written for filter M), and whether it is pruned; M's coarse rows
 * into crows[i]. */
static int clg_filter_level(cl_gpu *g, clg_pat *par, int npar, cl_candidate *cc,
                            uint64_t *crows, int n, cl_level *lv, dm_err *err)
{
    int rc = 0;
    clg_time_begin(g);
    for (int i = 0; i < n && rc == 0 && g->o.filter != CL_FILTER_NONE; i++) {
        cl_candidate *c = &cc[i];
        clg_feats f = clg_feats_of(c->mask);
        if (g->o.filter == CL_FILTER_MULTIRES) {
            clg_work w = clg_work_of(g, 1, &f, par, npar);
            rc = clg_count(g, &w, &crows[i], &c->bound, err);
        } else {
            rc = clg_cellagg_bound(g, &f, &c->bound, err);
        }
        c->pruned = c->bound < g->o.prevalence;
        lv->pruned += c->pruned;
    }
    return rc ? rc : clg_time_end(g, &lv->filter_s, err);
}

/* Counts each kept candidate cc[0..n-1] of size k1 (its subsets' tables in par): its PI
 * and rows, and whether it is prevalent; the prevalent ones into next[*nnext] with the
 * coarse rows crows[i]. */
static int clg_refine_level(cl_gpu *g, clg_pat *par, int npar, cl_candidate *cc,
                            const uint64_t *crows, int n, clg_pat *next, int *nnext,
                            cl_level *lv, dm_err *err)
{
    clg_time_begin(g);
    for (int i = 0; i < n; i++) {
        cl_candidate *c = &cc[i];
        if (c->pruned)
            continue;
        clg_feats f = clg_feats_of(c->mask);
        clg_work w = clg_work_of(g, 0, &f, par, npar);
        if (clg_count(g, &w, &c->rows, &c->pi, err))
            return DM_ERUNTIME;
        c->prevalent = c->pi >= g->o.prevalence;
        lv->prevalent += c->prevalent;
        if (c->prevalent)
            next[(*nnext)++] = (clg_pat){.mask = c->mask, .feat = f, .rows = c->rows,
                                         .coarse_rows = crows[i]};
    }
    return clg_time_end(g, &lv->refine_s, err);
}

/* Marks the patterns of next[0..nnext-1] whose tables the candidates cands[0..n-1] of the
 * next size read (coarse: all of them, for filter M; fine: those kept, cc, and with H
 * the subset without the second-to-last feature too), then writes those tables from
 * their own subsets' in par, timing it into *acc. */
static int clg_write_tables(cl_gpu *g, int coarse, const uint64_t *cands,
                            const cl_candidate *cc, int n, clg_pat *par, int npar,
                            clg_pat *next, int nnext, double *acc, dm_err *err)
{
    for (int i = 0; i < n; i++) {
        if (!coarse && cc[i].pruned)
            continue;
        clg_feats f = clg_feats_of(cands[i]);
        int hash = !coarse && g->o.refine == CL_REFINE_HASH;
        for (int drop = f.k - 1; drop >= f.k - 1 - hash; drop--) {
            clg_pat *p = clg_find(next, nnext, cands[i] & ~(1ULL << f.f[drop]));
            *(coarse ? &p->need_coarse : &p->need_fine) = 1;
        }
    }
    clg_time_begin(g);
    for (int j = 0; j < nnext; j++) {
        clg_pat *p = &next[j];
        if (!(coarse ? p->need_coarse : p->need_fine))
            continue;
        clg_table *t = coarse ? &p->coarse : &p->fine;
        *t = (clg_table){.k = p->feat.k, .rows = coarse ? p->coarse_rows : p->rows};
        clg_work w = clg_work_of(g, coarse, &p->feat, par, npar);
        uint64_t rows;
        if (clg_table_alloc(g, t, err) || clg_pass_run(g, &w, t, &rows, err))
            return DM_ERUNTIME;
    }
    return clg_time_end(g, acc, err);
}

static void clg_pats_free(cl_gpu *g, clg_pat *p, int n)
{
    for (int i = 0; p && i < n; i++) {
        clg_table_free(g, &p[i].fine);
        clg_table_free(g, &p[i].coarse);
    }
    free(p);
}

/* The masks of p[0..n-1] into a new array (NULL without memory). */
static uint64_t *clg_masks(const clg_pat *p, int n)
{
    uint64_t *m = malloc(((size_t)n + 1) * sizeof *m);
    for (int i = 0; m && i < n; i++)
        m[i] = p[i].mask;
    return m;
}

/* The size-(k1+1) candidates from the prevalent patterns pats[0..npats-1] of size k1 into
 * *cands: their count, or -1 without memory. */
static int clg_candidates(const clg_pat *pats, int npats, int k1, uint64_t **cands)
{
    uint64_t *masks = clg_masks(pats, npats);
    int n = masks ? cl_apriori(masks, npats, k1, cands) : -1;
    free(masks);
    return n;
}

/* Opens the level of candidates cands[0..n-1] of size k1 (subsets par) and filters them:
 * *base is the first's index in out, *crows their coarse rows. */
static int clg_next_level(cl_gpu *g, cl_result *out, int64_t *cap, clg_pat *par, int npar,
                          const uint64_t *cands, int n, int k1, int64_t *base,
                          uint64_t **crows, dm_err *err)
{
    *crows = calloc((size_t)n + 1, sizeof **crows);
    if (!*crows || (*base = cl_result_open_level(out, cap, cands, n, k1)) < 0)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    return clg_filter_level(g, par, npar, out->cand + *base, *crows, n,
                            &out->levels[out->nlevels - 1], err);
}

int cl_gpu_mine(cl_gpu *g, cl_result *out, dm_err *err)
{
    memset(out, 0, sizeof *out);
    const int nfeat = g->fine.h.nfeat;
    int64_t cap = 0, base = 0;
    int nprev = nfeat, rc = 0;
    clg_pat *prev = calloc((size_t)nfeat, sizeof *prev), *next = NULL;
    uint64_t *cands = NULL, *crows = NULL;
    if (!prev)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    for (int f = 0; f < nfeat; f++)
        prev[f] = (clg_pat){.mask = 1ULL << f, .feat = {.k = 1, .f = {f}}};
    int ncand = clg_candidates(prev, nprev, 1, &cands);
    if (ncand < 0)
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    else if (ncand > 0)
        rc = clg_next_level(g, out, &cap, prev, nprev, cands, ncand, 2, &base, &crows, err);
    for (int k1 = 2; ncand > 0 && rc == 0; k1++) {
        cl_level *lv = &out->levels[out->nlevels - 1];
        int nnext = 0, nc = 0;
        int64_t next_base = 0;
        uint64_t *next_crows = NULL, *next_cands = NULL;
        if (!(next = calloc((size_t)ncand, sizeof *next))) {
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
            break;
        }
        rc = clg_refine_level(g, prev, nprev, out->cand + base, crows, ncand, next, &nnext,
                              lv, err);
        if (rc == 0 && (nc = clg_candidates(next, nnext, k1, &next_cands)) < 0)
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
        if (rc == 0 && nc > 0 && g->o.filter == CL_FILTER_MULTIRES)
            rc = clg_write_tables(g, 1, next_cands, NULL, nc, prev, nprev, next, nnext,
                                  &lv->filter_s, err);
        if (rc == 0 && nc > 0)
            rc = clg_next_level(g, out, &cap, next, nnext, next_cands, nc, k1 + 1, &next_base,
                                &next_crows, err);
        if (rc == 0 && nc > 0)
            rc = clg_write_tables(g, 0, next_cands, out->cand + next_base, nc, prev, nprev, next,
                                  nnext, &lv->refine_s, err);
        clg_pats_free(g, prev, nprev);
        free(cands);
        free(crows);
        prev = next;
        nprev = nnext;
        next = NULL;
        cands = next_cands;
        crows = next_crows;
        ncand = nc;
        base = next_base;
    }
    clg_pats_free(g, prev, nprev);
    free(cands);
    free(crows);
    if (rc) {
        DM_CUDA_WARN(cudaStreamSynchronize(g->st));
        cl_result_free(out);
    }
    return rc;
}

/* ---- opening and closing ---------------------------------------------------------------- */

/* Options out of range: DM_EINPUT naming the first. */
static int clg_check_opts(const cl_gpu_opts *o, dm_err *err)
{
    if (!(o->prevalence >= 0 && o->prevalence <= 1))
        return dm_err_set(err, DM_EINPUT, "prevalence %g is not in [0, 1]", o->prevalence);
    if (o->filter < CL_FILTER_NONE || o->filter > CL_FILTER_CELLAGG)
        return dm_err_set(err, DM_EINPUT, "unknown filter %d", (int)o->filter);
    if (o->refine != CL_REFINE_GRID && o->refine != CL_REFINE_HASH)
        return dm_err_set(err, DM_EINPUT, "unknown refinement %d", (int)o->refine);
    if (o->block < 32 || o->block > 1024 || o->block % 32)
        return dm_err_set(err, DM_EINPUT, "block %d is not a multiple of 32 in 32..1024",
                          o->block);
    if (o->slice < 1 || o->slice > (1ULL << 30))
        return dm_err_set(err, DM_EINPUT, "slice %llu is not in 1..2^30",
                          (unsigned long long)o->slice);
    return 0;
}

int cl_gpu_open(const cl_points *p, const cl_gpu_opts *o, cl_gpu **gp, dm_err *err)
{
    *gp = NULL;
    cl_grid grid;
    int rc = clg_check_opts(o, err);
    if (rc || (rc = cl_grid_make(p, o->distance, &grid, err)))
        return rc; /* before any CUDA call: refused options cost nothing */
    cl_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    g->o = *o;
    g->st = (cudaStream_t)o->stream;
    if ((rc = cl_inst_fine(p, &grid, o->distance, &g->fine.h, err)) ||
        (o->filter != CL_FILTER_NONE && (rc = cl_inst_coarse(&g->fine.h, &g->coarse.h, err))))
        goto fail;
    size_t ncells = (size_t)grid.ncols * (size_t)grid.nrows;
    rc = DM_ERUNTIME;
    if (DM_CUDA(err, cudaEventCreate(&g->ev[0])) || DM_CUDA(err, cudaEventCreate(&g->ev[1])) ||
        clg_side_upload(g, &g->fine, err) ||
        (o->filter != CL_FILTER_NONE && clg_side_upload(g, &g->coarse, err)) ||
        (o->filter == CL_FILTER_CELLAGG &&
         clg_upload(g, g->fine.h.cell_mask, ncells * sizeof *g->fine.h.cell_mask,
                    (void **)&g->cell_mask, err)) ||
        clg_upload(g, NULL, (o->slice + 1) * sizeof *g->counts, (void **)&g->counts, err) ||
        clg_upload(g, NULL, (o->slice + 1) * sizeof *g->offsets, (void **)&g->offsets, err) ||
        clg_upload(g, NULL, (CL_MAX_FEATURES + 1) * sizeof *g->sums, (void **)&g->sums, err) ||
        clg_scan_bytes(o->slice + 1, &g->temp_bytes, err) ||
        clg_upload(g, NULL, g->temp_bytes, &g->temp, err) || clg_sync(g, err))
        goto fail;
    size_t free_b = 0, total_b = 0;
    if (DM_CUDA(err, cudaMemGetInfo(&free_b, &total_b)))
        goto fail;
    g->budget = o->device_mb ? o->device_mb << 20 : free_b - free_b / 8;
    *gp = g;
    return 0;
fail:
    cl_gpu_close(g);
    return rc;
}

void cl_gpu_close(cl_gpu *g)
{
    if (!g)
        return;
    clg_side_free(g, &g->fine);
    clg_side_free(g, &g->coarse);
    void *bufs[] = {g->cell_mask, g->counts, g->offsets, g->temp, g->sums, g->in, g->out,
                    g->hash};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        dm_gpu_free(g->st, bufs[i]);
    if (g->ev[0]) /* CUDA was used */
        DM_CUDA_WARN(cudaStreamSynchronize(g->st));
    for (int i = 0; i < 2; i++)
        if (g->ev[i])
            DM_CUDA_WARN(cudaEventDestroy(g->ev[i]));
    free(g);
}
