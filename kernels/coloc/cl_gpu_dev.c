/* cl_gpu_dev.c - the GPU colocation miner's device side: memory (stream-ordered, from
 * dm_gpu_alloc; pinned host memory for what comes back), copies, waits and CUDA events,
 * each call counted and timed by the host's clock into the level being mined
 * (cl_dev_costs); the instance sets uploaded, the tables' room (one block a level and
 * kind), opening and closing. */
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_gpu_int.h"

/* ---- counted calls ------------------------------------------------------------------ */

int clg_alloc(cl_gpu *g, size_t n, void **dev, dm_err *err)
{
    double t0 = dm_now();
    int rc = dm_gpu_alloc(g->st, n ? n : 1, dev, err) ? DM_ERUNTIME : 0;
    g->cost->alloc_s += dm_now() - t0;
    g->cost->allocs++;
    return rc;
}

int clg_copy(cl_gpu *g, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
             dm_err *err)
{
    double t0 = dm_now();
    int rc = DM_CUDA(err, cudaMemcpyAsync(dst, src, n, kind, g->st)) ? DM_ERUNTIME : 0;
    g->cost->copy_s += dm_now() - t0;
    g->cost->copies++;
    g->cost->copy_bytes += n;
    return rc;
}

int clg_sync(cl_gpu *g, dm_err *err)
{
    double t0 = dm_now();
    int rc = DM_CUDA(err, cudaStreamSynchronize(g->st)) ? DM_ERUNTIME : 0;
    g->cost->wait_s += dm_now() - t0;
    g->cost->waits++;
    return rc;
}

void clg_time_begin(cl_gpu *g)
{
    DM_CUDA_WARN(cudaEventRecord(g->ev[0], g->st));
}

int clg_time_end(cl_gpu *g, double *acc, dm_err *err)
{
    float ms = 0;
    if (DM_CUDA(err, cudaEventRecord(g->ev[1], g->st)))
        return DM_ERUNTIME;
    double t0 = dm_now();
    int rc = DM_CUDA(err, cudaEventSynchronize(g->ev[1])) ? DM_ERUNTIME : 0;
    g->cost->wait_s += dm_now() - t0;
    g->cost->waits++;
    if (rc || DM_CUDA(err, cudaEventElapsedTime(&ms, g->ev[0], g->ev[1])))
        return DM_ERUNTIME;
    *acc += ms / 1e3;
    return 0;
}

int clg_upload(cl_gpu *g, const void *host, size_t n, void **dev, dm_err *err)
{
    if (clg_alloc(g, n, dev, err))
        return DM_ERUNTIME;
    return host && n ? clg_copy(g, *dev, host, n, cudaMemcpyHostToDevice, err) : 0;
}

/* The room *cap should grow to for n items: n, or twice *cap when that is more. */
static uint64_t clg_room(uint64_t cap, uint64_t n)
{
    return n > cap * 2 ? n : cap * 2;
}

int clg_grow(cl_gpu *g, void **buf, uint64_t *cap, uint64_t n, size_t size, dm_err *err)
{
    if (*buf && n <= *cap)
        return 0;
    dm_gpu_free(g->st, *buf);
    *buf = NULL;
    *cap = clg_room(*cap, n);
    return clg_alloc(g, (size_t)(*cap * size), buf, err);
}

int clg_host_grow(cl_gpu *g, void **buf, uint64_t *cap, uint64_t n, size_t size, dm_err *err)
{
    if (*buf && n <= *cap)
        return 0;
    double t0 = dm_now();
    int rc = *buf && DM_CUDA(err, cudaFreeHost(*buf)) ? DM_ERUNTIME : 0;
    *buf = NULL;
    *cap = clg_room(*cap, n);
    if (rc == 0 && DM_CUDA(err, cudaHostAlloc(buf, (size_t)(*cap * size), cudaHostAllocDefault)))
        rc = DM_ERUNTIME;
    g->cost->alloc_s += dm_now() - t0;
    g->cost->allocs++;
    return rc;
}

/* ---- instance sets and tables ----------------------------------------------------------- */

/* The device copy of side->h into side (its host copy kept there). */
static int clg_side_upload(cl_gpu *g, clg_side *side, dm_err *err)
{
    const cl_inst *s = &side->h;
    size_t n = s->n, ncells = (size_t)s->grid.ncols * (size_t)s->grid.nrows;
    side->words = n / 32 + 1;
    if ((!s->coarse && (clg_upload(g, s->x, n * sizeof *s->x, (void **)&side->x, err) ||
                        clg_upload(g, s->y, n * sizeof *s->y, (void **)&side->y, err))) ||
        (s->weight &&
         clg_upload(g, s->weight, n * sizeof *s->weight, (void **)&side->weight, err)) ||
        clg_upload(g, s->col, n * sizeof *s->col, (void **)&side->col, err) ||
        clg_upload(g, s->row, n * sizeof *s->row, (void **)&side->row, err) ||
        clg_upload(g, s->cell_start, (ncells + 1) * sizeof *s->cell_start,
                   (void **)&side->cell_start, err) ||
        clg_upload(g, s->cell_items, n * sizeof *s->cell_items, (void **)&side->cell_items,
                   err))
        return DM_ERUNTIME;
    for (int l = 0; l < CLG_LANES; l++)
        if (clg_upload(g, NULL, side->words * sizeof *side->bits[l], (void **)&side->bits[l],
                       err))
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
                    side->cell_items};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        dm_gpu_free(g->st, bufs[i]);
    for (int l = 0; l < CLG_LANES; l++)
        dm_gpu_free(g->st, side->bits[l]);
    cl_inst_free(&side->h);
}

/* The bytes of t's rows. */
static uint64_t clg_table_bytes(const clg_table *t)
{
    return t->rows * (uint64_t)t->k * sizeof(uint32_t);
}

/* The room a table of bytes takes in its level's block: 256-byte aligned, and never
 * none, so a device table's pointer is never NULL. */
static uint64_t clg_block_room(uint64_t bytes)
{
    return ((bytes ? bytes : 1) + 255) / 256 * 256;
}

/* The table of kind coarse of p, when the next level reads it. */
static clg_table *clg_needed(clg_pat *p, int coarse)
{
    if (!(coarse ? p->need_coarse : p->need_fine))
        return NULL;
    return coarse ? &p->coarse : &p->fine;
}

int clg_tables_alloc(cl_gpu *g, clg_pat *p, int n, int coarse, dm_err *err)
{
    uint64_t block_bytes = 0, held = g->held;
    for (int j = 0; j < n; j++) { /* where each goes, as the budget allows in turn */
        clg_table *t = clg_needed(&p[j], coarse);
        if (!t)
            continue;
        *t = (clg_table){.k = p[j].feat.k, .rows = coarse ? p[j].coarse_rows : p[j].rows};
        if (held + clg_table_bytes(t) <= g->budget) {
            held += clg_table_bytes(t);
            block_bytes += clg_block_room(clg_table_bytes(t));
        }
    }
    char *block = NULL;
    if (block_bytes && clg_alloc(g, (size_t)block_bytes, (void **)&block, err))
        return DM_ERUNTIME;
    uint64_t at = 0;
    for (int j = 0; j < n; j++) {
        clg_table *t = clg_needed(&p[j], coarse);
        if (!t)
            continue;
        const uint64_t bytes = clg_table_bytes(t);
        if (g->held + bytes <= g->budget) {
            t->dev = (uint32_t *)(block + at);
            t->own = at == 0 ? block : NULL; /* the first frees the block */
            at += clg_block_room(bytes);
            g->held += bytes;
        } else if (!(t->host = malloc((size_t)bytes + 1))) {
            if (at == 0) /* no table owns the block yet */
                dm_gpu_free(g->st, block);
            return dm_err_set(err, DM_ERUNTIME, "out of host memory for an instance table "
                              "of %llu rows", (unsigned long long)t->rows);
        }
    }
    return 0;
}

void clg_table_free(cl_gpu *g, clg_table *t)
{
    if (t->dev)
        g->held -= clg_table_bytes(t);
    dm_gpu_free(g->st, t->own);
    free(t->host);
    t->dev = t->host = NULL;
    t->own = NULL;
}

/* ---- opening and closing ---------------------------------------------------------------- */

/* Filter C's quadruplet masks, from the fine set's cell masks (ncells of them): a cell's,
 * its right, lower and lower-right neighbours' (the grid's padding column and row keep
 * those of an occupied cell inside the grid; past the grid's end, none). */
static int clg_quad_upload(cl_gpu *g, size_t ncells, dm_err *err)
{
    const uint64_t *m = g->fine.h.cell_mask;
    const size_t w = (size_t)g->fine.h.grid.ncols;
    uint64_t *quad = malloc(ncells * sizeof *quad);
    if (!quad)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for filter C's quadruplets");
    for (size_t q = 0; q < ncells; q++)
        quad[q] = m[q] | (q + 1 < ncells ? m[q + 1] : 0) | (q + w < ncells ? m[q + w] : 0) |
                  (q + w + 1 < ncells ? m[q + w + 1] : 0);
    int rc = clg_upload(g, quad, ncells * sizeof *quad, (void **)&g->quad_mask, err);
    /* a copy from pageable memory has taken its bytes when it returns */
    free(quad);
    return rc;
}

int clg_scratch_grow(cl_gpu *g, clg_scratch *s, uint64_t n, dm_err *err)
{
    uint64_t cap = s->cap; /* counts and offsets grow alike */
    if (clg_grow(g, (void **)&s->counts, &cap, n + 1, sizeof *s->counts, err) ||
        clg_grow(g, (void **)&s->offsets, &s->cap, n + 1, sizeof *s->offsets, err) ||
        clg_scan_bytes(s->cap, &s->temp_bytes, err) ||
        clg_grow(g, &s->temp, &s->temp_cap, s->temp_bytes, 1, err))
        return DM_ERUNTIME;
    return 0;
}

/* Lanes 1 .. CLG_LANES - 1: streams that wait for no other, and their join events. */
static int clg_lanes_open(cl_gpu *g, dm_err *err)
{
    for (int l = 1; l < CLG_LANES; l++)
        if (DM_CUDA(err, cudaStreamCreateWithFlags(&g->lane[l], cudaStreamNonBlocking)) ||
            DM_CUDA(err, cudaEventCreateWithFlags(&g->join[l], cudaEventDisableTiming)))
            return DM_ERUNTIME;
    return 0;
}

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
    if (o->merge < CL_MERGE_NONE || o->merge > CL_MERGE_TWINS)
        return dm_err_set(err, DM_EINPUT, "unknown merge %d", (int)o->merge);
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
    g->cost = &g->idle;
    if ((rc = cl_inst_fine(p, &grid, o->distance, &g->fine.h, err)) ||
        (o->filter != CL_FILTER_NONE && (rc = cl_inst_coarse(&g->fine.h, &g->coarse.h, err))))
        goto fail;
    const double t0 = dm_now();
    if ((rc = cl_inst_merge(&g->fine.h, o->merge, 0, err)))
        goto fail;
    g->merge_s = dm_now() - t0;
    size_t ncells = (size_t)grid.ncols * (size_t)grid.nrows;
    rc = DM_ERUNTIME;
    g->lane[0] = g->st;
    if (DM_CUDA(err, cudaEventCreate(&g->ev[0])) || DM_CUDA(err, cudaEventCreate(&g->ev[1])) ||
        DM_CUDA(err, cudaEventCreateWithFlags(&g->fork, cudaEventDisableTiming)) ||
        clg_lanes_open(g, err) ||
        DM_CUDA(err, cudaHostAlloc((void **)&g->h, sizeof *g->h, cudaHostAllocDefault)) ||
        clg_side_upload(g, &g->fine, err) ||
        (o->filter != CL_FILTER_NONE && clg_side_upload(g, &g->coarse, err)) ||
        (o->filter == CL_FILTER_CELLAGG && clg_quad_upload(g, ncells, err)) ||
        clg_scratch_grow(g, &g->scratch[0], o->slice, err) ||
        clg_upload(g, NULL, sizeof *g->groups, (void **)&g->groups, err) ||
        clg_sync(g, err))
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
    void *bufs[] = {g->quad_mask, g->groups, g->slots, g->in, g->out, g->hash, g->masks,
                    g->nbr};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        dm_gpu_free(g->st, bufs[i]);
    for (int l = 0; l < CLG_LANES; l++) {
        clg_scratch *s = &g->scratch[l];
        dm_gpu_free(g->st, s->counts);
        dm_gpu_free(g->st, s->offsets);
        dm_gpu_free(g->st, s->temp);
    }
    if (g->ev[0]) /* CUDA was used */
        DM_CUDA_WARN(cudaStreamSynchronize(g->st));
    for (int l = 1; l < CLG_LANES; l++) {
        if (g->lane[l])
            DM_CUDA_WARN(cudaStreamDestroy(g->lane[l]));
        if (g->join[l])
            DM_CUDA_WARN(cudaEventDestroy(g->join[l]));
    }
    if (g->fork)
        DM_CUDA_WARN(cudaEventDestroy(g->fork));
    void *pinned[] = {g->h, g->h_slots, g->h_masks};
    for (size_t i = 0; i < sizeof pinned / sizeof *pinned; i++)
        if (pinned[i])
            DM_CUDA_WARN(cudaFreeHost(pinned[i]));
    for (int i = 0; i < 2; i++)
        if (g->ev[i])
            DM_CUDA_WARN(cudaEventDestroy(g->ev[i]));
    free(g);
}
