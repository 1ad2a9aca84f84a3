/* cl_gpu_mine.c - the colocation miner on the GPU (the paper's section 3), driven from the
 * host: Apriori candidates level by level on the host (cl_apriori.c, as cl_mine), each
 * candidate's bound by filter M (grid search over the coarse set) or C (cell aggregates)
 * and its instance table by grid search (G) or prefix hash join (H) on the device, in
 * two runs (count, prefix sum, write), the participation bitmaps summed on the device and
 * the ratios made on the host from those integer sums, as cl_mine makes them. A level's
 * candidates are enqueued over CLG_LANES streams and their sums read back at once. Tables are
 * made a slice of their input at a time and kept on the device while they fit, else in
 * host memory (the paper's section 5), read back a slice at a time. The passes are
 * cl_gpu_pass.c, the device's memory, copies and waits cl_gpu_dev.c. */
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_gpu_int.h"

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

/* The filter's bound on each candidate cc[0..n-1] (subsets par[0..npar-1], their coarse
 * tables written for filter M), and whether it is pruned; M's coarse rows into crows[i].
 * Costs and time into lv, the candidates' level. */
static int clg_filter_level(cl_gpu *g, clg_pat *par, int npar, cl_candidate *cc,
                            uint64_t *crows, int n, cl_level *lv, dm_err *err)
{
    if (g->o.filter == CL_FILTER_NONE)
        return 0;
    const int k1 = lv->size;
    g->cost = &lv->dev;
    clg_time_begin(g);
    int rc = clg_level_slots(g, n, k1, err);
    if (rc == 0 && g->o.filter == CL_FILTER_CELLAGG)
        rc = clg_cellagg_level(g, cc, n, k1, err);
    if (rc == 0 && g->o.filter == CL_FILTER_MULTIRES) {
        rc = clg_lanes_fork(g, err);
        for (int i = 0; i < n && rc == 0; i++) {
            clg_feats f = clg_feats_of(cc[i].mask);
            clg_work w = clg_work_of(g, 1, &f, par, npar);
            rc = clg_count(g, &w, i, NULL, err);
        }
        if (rc == 0)
            rc = clg_lanes_join(g, err);
    }
    if (rc || clg_level_read(g, n, k1, err))
        return DM_ERUNTIME;
    for (int i = 0; i < n; i++) {
        cl_candidate *c = &cc[i];
        clg_feats f = clg_feats_of(c->mask);
        c->bound = clg_slot_ratio(g, &g->coarse.h, &f, i);
        if (g->o.filter == CL_FILTER_MULTIRES)
            crows[i] = clg_slot_rows(g, k1, i);
        c->pruned = c->bound < g->o.prevalence;
        lv->pruned += c->pruned;
    }
    return clg_time_end(g, &lv->filter_s, err);
}

/* Counts each kept candidate cc[0..n-1] (its subsets' tables in par): its PI and rows,
 * and whether it is prevalent; the prevalent ones into next[*nnext] with the coarse rows
 * crows[i]. Costs and time into lv, the candidates' level. */
static int clg_refine_level(cl_gpu *g, clg_pat *par, int npar, cl_candidate *cc,
                            const uint64_t *crows, int n, clg_pat *next, int *nnext,
                            cl_level *lv, dm_err *err)
{
    const int k1 = lv->size;
    g->cost = &lv->dev;
    clg_time_begin(g);
    /* Each kept candidate's counts per input row kept for its writing run, where they
     * all fit four slices (else counted again there); size 2 counts every pair at once
     * and keeps none. */
    uint64_t *at = calloc((size_t)n + 1, sizeof *at), kept = 0;
    if (!at)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    for (int i = 0; i < n && k1 > 2; i++) {
        at[i] = kept;
        if (!cc[i].pruned) {
            clg_feats f = clg_feats_of(cc[i].mask);
            clg_work w = clg_work_of(g, 0, &f, par, npar);
            kept += clg_work_rows(&w) + 1;
        }
    }
    const int keep = k1 > 2 && kept <= 4 * g->o.slice;
    int rc = clg_level_slots(g, n, k1, err);
    if (rc == 0 && keep)
        rc = clg_grow(g, (void **)&g->kept, &g->kept_cap, kept, sizeof *g->kept, err);
    if (rc == 0 && k1 == 2) {
        rc = clg_pairs_level(g, cc, n, err); /* every pair in one pass */
    } else if (rc == 0) {
        rc = clg_lanes_fork(g, err);
        for (int i = 0; i < n && rc == 0; i++) {
            if (cc[i].pruned)
                continue;
            clg_feats f = clg_feats_of(cc[i].mask);
            clg_work w = clg_work_of(g, 0, &f, par, npar);
            rc = clg_count(g, &w, i, keep ? g->kept + at[i] : NULL, err);
        }
        if (rc == 0)
            rc = clg_lanes_join(g, err);
    }
    if (rc || clg_level_read(g, n, k1, err)) {
        free(at);
        return DM_ERUNTIME;
    }
    for (int i = 0; i < n; i++) {
        cl_candidate *c = &cc[i];
        if (c->pruned)
            continue;
        clg_feats f = clg_feats_of(c->mask);
        c->pi = clg_slot_ratio(g, &g->fine.h, &f, i);
        c->rows = clg_slot_points(g, k1, i);
        lv->rows += c->rows;
        c->prevalent = c->pi >= g->o.prevalence;
        lv->prevalent += c->prevalent;
        if (c->prevalent)
            next[(*nnext)++] = (clg_pat){.mask = c->mask, .feat = f,
                                         .rows = clg_slot_rows(g, k1, i),
                                         .coarse_rows = crows[i],
                                         .kept = keep ? g->kept + at[i] : NULL};
    }
    free(at);
    return clg_time_end(g, &lv->refine_s, err);
}

/* Marks the patterns of next[0..nnext-1] (of lv's size) whose tables the candidates
 * cands[0..n-1] of the next size read (coarse: all of them, for filter M; fine: those
 * kept, cc, and with H the subset without the second-to-last feature too), then writes
 * those tables from their own subsets' in par, its costs into lv and its time into lv's
 * filter_s (coarse) or refine_s. */
static int clg_write_tables(cl_gpu *g, int coarse, const uint64_t *cands,
                            const cl_candidate *cc, int n, clg_pat *par, int npar,
                            clg_pat *next, int nnext, cl_level *lv, dm_err *err)
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
    g->cost = &lv->dev;
    clg_time_begin(g);
    uint64_t most = 0; /* the input rows of the largest table a lane may write */
    for (int j = 0; j < nnext; j++) {
        clg_pat *p = &next[j];
        if (!(coarse ? p->need_coarse : p->need_fine))
            continue;
        clg_work w = clg_work_of(g, coarse, &p->feat, par, npar);
        const uint64_t rows = clg_work_rows(&w);
        if (rows <= g->o.slice && rows > most)
            most = rows;
    }
    if (clg_tables_alloc(g, next, nnext, coarse, err) || clg_lanes_room(g, most, err) ||
        clg_lanes_fork(g, err))
        return DM_ERUNTIME;
    for (int j = 0; j < nnext; j++) {
        clg_pat *p = &next[j];
        if (!(coarse ? p->need_coarse : p->need_fine))
            continue;
        clg_work w = clg_work_of(g, coarse, &p->feat, par, npar);
        if (clg_write(g, &w, coarse ? &p->coarse : &p->fine, coarse ? NULL : p->kept, err))
            return DM_ERUNTIME;
    }
    if (clg_lanes_join(g, err))
        return DM_ERUNTIME;
    return clg_time_end(g, coarse ? &lv->filter_s : &lv->refine_s, err);
}

static void clg_pats_free(cl_gpu *g, clg_pat *p, int n)
{
    for (int i = 0; p && i < n; i++) {
        clg_table_free(g, &p[i].fine);
        clg_table_free(g, &p[i].coarse);
    }
    free(p);
}

/* The size-(k1+1) candidates from the prevalent patterns pats[0..npats-1] of size k1 into
 * *cands, their level opened in out (cl_next_candidates, *base the first's index): their
 * count, or -1 without memory. */
static int clg_candidates(cl_result *out, int64_t *cap, const clg_pat *pats, int npats,
                          int k1, uint64_t **cands, int64_t *base)
{
    uint64_t *masks = malloc(((size_t)npats + 1) * sizeof *masks);
    if (!masks)
        return -1;
    for (int i = 0; i < npats; i++)
        masks[i] = pats[i].mask;
    int n = cl_next_candidates(out, cap, masks, npats, k1, cands, base);
    free(masks);
    return n;
}

/* Filters the n candidates of the level just opened in out, from index base (subsets
 * par): *crows gets their coarse rows. */
static int clg_next_level(cl_gpu *g, cl_result *out, clg_pat *par, int npar, int n,
                          int64_t base, uint64_t **crows, dm_err *err)
{
    if (!(*crows = calloc((size_t)n + 1, sizeof **crows)))
        return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    return clg_filter_level(g, par, npar, out->cand + base, *crows, n,
                            &out->levels[out->nlevels - 1], err);
}

int cl_gpu_mine(cl_gpu *g, cl_result *out, dm_err *err)
{
    const double t0 = dm_now();
    memset(out, 0, sizeof *out);
    out->on_device = 1;
    out->instances = g->fine.h.n;
    out->merge_s = g->merge_s;
    const int nfeat = g->fine.h.nfeat;
    int64_t cap = 0, base = 0;
    int nprev = nfeat, rc = 0;
    clg_pat *prev = calloc((size_t)nfeat, sizeof *prev), *next = NULL;
    uint64_t *cands = NULL, *crows = NULL;
    if (!prev)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    for (int f = 0; f < nfeat; f++)
        prev[f] = (clg_pat){.mask = 1ULL << f, .feat = {.k = 1, .f = {f}}};
    int ncand = clg_candidates(out, &cap, prev, nprev, 1, &cands, &base);
    if (ncand < 0)
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    else if (ncand > 0)
        rc = clg_next_level(g, out, prev, nprev, ncand, base, &crows, err);
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
        if (rc == 0 &&
            (nc = clg_candidates(out, &cap, next, nnext, k1, &next_cands, &next_base)) < 0)
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
        if (rc == 0 && nc > 0 && g->o.filter == CL_FILTER_MULTIRES)
            rc = clg_write_tables(g, 1, next_cands, NULL, nc, prev, nprev, next, nnext, lv,
                                  err);
        if (rc == 0 && nc > 0)
            rc = clg_next_level(g, out, next, nnext, nc, next_base, &next_crows, err);
        if (rc == 0 && nc > 0)
            rc = clg_write_tables(g, 0, next_cands, out->cand + next_base, nc, prev, nprev, next,
                                  nnext, lv, err);
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
    g->cost = &g->idle;
    if (rc) {
        DM_CUDA_WARN(cudaStreamSynchronize(g->st));
        cl_result_free(out);
    } else {
        out->wall_s = dm_now() - t0;
    }
    return rc;
}
