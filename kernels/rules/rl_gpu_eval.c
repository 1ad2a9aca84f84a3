/* rl_gpu_eval.c - the rules workload's GPU pipeline on one GPU: the table (or one GPU's
 * slice of it) uploaded once, then per run and per chunk of the rule set the rules into
 * constant memory, the coverage, reduction and fitness kernels (rl_gpu.cu) and the
 * results back, serially on one stream or concurrently on three (the paper's Fig. 3),
 * with CUDA events around each stage for Table 6's times; the answer assembled on the
 * host in the CPU reference's form. */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "rules/rl_bitmap_eval.h"
#include "rules/rl_gpu.h"
#include "rules/rl_gpu_eval.h"

/* Events a chunk records. Serial: RL_EV_SERIAL of them on the one stream, a stage
 * between each two. Concurrent: RL_EV_SIDE a side (begin, rules in, covered, reduced,
 * supports out) and then the fitness stream's three (begin, fitness done, fitness out). */
#define RL_EV_SERIAL 6
#define RL_EV_SIDE 5
#define RL_EV_FIT (RL_SIDES * RL_EV_SIDE)
#define RL_EV_CHUNK (RL_EV_FIT + 3)

struct rl_gpu_eval {
    rl_answer out; /* first: what output() gives */
    rl_bm_eval *bm; /* the bitmap evaluation, which then does everything */
    const rl_ruleset *rs; /* the caller's */
    rl_gpu_plan plan;
    int concurrent;
    cudaStream_t stream;          /* the engine's: everything when serial, else fitness */
    cudaStream_t side[RL_SIDES];  /* concurrent: antecedents, consequents */
    rl_gpu_launch la;
    double *d_table;
    uint32_t *d_bits[RL_SIDES];
    unsigned long long *d_sup[RL_SIDES];
    rl_rule_result *d_fit;
    /* Host copies, pinned when concurrent: the plan's tokens and starts, what comes back. */
    rl_token *h_tok[RL_SIDES];
    int32_t *h_start[RL_SIDES];
    unsigned long long *h_sup[RL_SIDES];
    rl_rule_result *h_fit;
    int64_t *tok_support;
    cudaEvent_t begin, end;
    cudaEvent_t *ev; /* RL_EV_CHUNK a chunk */
    int nev;
    rl_stages stages;
};

/* Host memory of n bytes: pinned when g runs concurrently (asynchronous copies need it).
 * Returns 0, or DM_ERUNTIME. */
static int rl_host_alloc(const rl_gpu_eval *g, size_t n, void **p, dm_err *err)
{
    *p = NULL;
    if (g->concurrent)
        return DM_CUDA(err, cudaMallocHost(p, n ? n : 1)) ? DM_ERUNTIME : 0;
    if (!(*p = malloc(n ? n : 1)))
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    return 0;
}

static void rl_host_free(const rl_gpu_eval *g, void *p)
{
    if (g->concurrent && p)
        DM_CUDA_WARN(cudaFreeHost(p));
    else if (!g->concurrent)
        free(p);
}

void rl_gpu_free(rl_gpu_eval *g)
{
    if (!g)
        return;
    rl_bm_free(g->bm);
    /* The engine's stream joins the others at the end of a run: once it is done, no copy
     * reads or writes the host buffers freed below. */
    DM_CUDA_WARN(cudaStreamSynchronize(g->stream));
    for (int k = 0; k < g->nev; k++)
        DM_CUDA_WARN(cudaEventDestroy(g->ev[k]));
    free(g->ev);
    if (g->begin)
        DM_CUDA_WARN(cudaEventDestroy(g->begin));
    if (g->end)
        DM_CUDA_WARN(cudaEventDestroy(g->end));
    dm_gpu_free(g->stream, g->d_table);
    dm_gpu_free(g->stream, g->d_fit);
    for (int s = 0; s < RL_SIDES; s++) {
        dm_gpu_free(g->stream, g->d_bits[s]);
        dm_gpu_free(g->stream, g->d_sup[s]);
        rl_host_free(g, g->h_tok[s]);
        rl_host_free(g, g->h_start[s]);
        rl_host_free(g, g->h_sup[s]);
        if (g->side[s])
            DM_CUDA_WARN(cudaStreamDestroy(g->side[s]));
    }
    rl_host_free(g, g->h_fit);
    free(g->tok_support);
    rl_gpu_plan_free(&g->plan);
    free(g);
}

int rl_gpu_put_table(const rl_table *t, int64_t pitch, void *stream, double **d, dm_err *err)
{
    size_t n = (size_t)t->ncols * (size_t)pitch;
    double *h = calloc(n, sizeof *h);
    if (!h)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory for the table's upload");
    for (int c = 0; c < t->ncols; c++) {
        double *col = h + (size_t)c * (size_t)pitch;
        for (int64_t i = 0; i < t->n; i++)
            col[i] = t->cols[c].kind == RL_NUMERIC ? t->cols[c].num[i] : t->cols[c].code[i];
    }
    int rc = dm_gpu_alloc(stream, n * sizeof *h, (void **)d, err) ||
                     DM_CUDA(err, cudaMemcpyAsync(*d, h, n * sizeof *h, cudaMemcpyHostToDevice,
                                                  (cudaStream_t)stream)) ||
                     DM_CUDA(err, cudaStreamSynchronize((cudaStream_t)stream))
                 ? DM_ERUNTIME
                 : 0;
    free(h);
    return rc;
}

/* The device and host buffers, the streams and the events. Returns 0, or DM_ERUNTIME. */
static int rl_gpu_buffers(rl_gpu_eval *g, dm_err *err)
{
    const rl_gpu_plan *p = &g->plan;
    const int nrules = g->rs->nrules;
    int most[RL_SIDES] = {0, 0};
    for (int c = 0; c < p->nchunks; c++)
        for (int s = 0; s < RL_SIDES; s++)
            most[s] = p->chunks[c].ntok[s] > most[s] ? p->chunks[c].ntok[s] : most[s];
    for (int s = 0; s < RL_SIDES; s++) {
        size_t starts = (size_t)(nrules + p->nchunks) * sizeof *g->h_start[s];
        if (dm_gpu_alloc(g->stream, (size_t)most[s] * (size_t)g->la.row * sizeof(uint32_t),
                         (void **)&g->d_bits[s], err) ||
            dm_gpu_alloc(g->stream, (size_t)p->ntok[s] * sizeof *g->d_sup[s],
                         (void **)&g->d_sup[s], err) ||
            rl_host_alloc(g, (size_t)p->ntok[s] * sizeof *g->h_tok[s], (void **)&g->h_tok[s],
                          err) ||
            rl_host_alloc(g, starts, (void **)&g->h_start[s], err) ||
            rl_host_alloc(g, (size_t)p->ntok[s] * sizeof *g->h_sup[s], (void **)&g->h_sup[s],
                          err))
            return DM_ERUNTIME;
        memcpy(g->h_tok[s], p->tok[s], (size_t)p->ntok[s] * sizeof *g->h_tok[s]);
        memcpy(g->h_start[s], p->start[s], starts);
        if (g->concurrent &&
            DM_CUDA(err, cudaStreamCreateWithFlags(&g->side[s], cudaStreamNonBlocking)))
            return DM_ERUNTIME;
    }
    if (dm_gpu_alloc(g->stream, (size_t)nrules * sizeof *g->d_fit, (void **)&g->d_fit, err) ||
        rl_host_alloc(g, (size_t)nrules * sizeof *g->h_fit, (void **)&g->h_fit, err))
        return DM_ERUNTIME;
    if (!(g->tok_support = calloc((size_t)g->rs->ntok, sizeof *g->tok_support)) ||
        !(g->ev = calloc((size_t)p->nchunks * RL_EV_CHUNK, sizeof *g->ev)))
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    if (DM_CUDA(err, cudaEventCreate(&g->begin)) || DM_CUDA(err, cudaEventCreate(&g->end)))
        return DM_ERUNTIME;
    for (; g->nev < p->nchunks * RL_EV_CHUNK; g->nev++)
        if (DM_CUDA(err, cudaEventCreate(&g->ev[g->nev])))
            return DM_ERUNTIME;
    return 0;
}

void rl_gpu_opts_of(const dm_point *pt, const char *pipeline, rl_gpu_opts *o)
{
    *o = (rl_gpu_opts){.concurrent = strcmp(pipeline, "concurrent") == 0,
                       .bitmap = strcmp(pipeline, "bitmap") == 0,
                       .block = (int)dm_point_int(pt, "block")};
    if (o->bitmap)
        o->chunk = dm_point_int(pt, "chunk");
    else
        o->per_thread = (int)dm_point_int(pt, "per_thread");
}

int rl_gpu_open(const rl_table *t, const rl_ruleset *rs, const rl_gpu_opts *o, void *stream,
                rl_gpu_eval **out, dm_err *err)
{
    rl_gpu_eval *g = calloc(1, sizeof *g);
    *out = NULL;
    if (!g)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    g->concurrent = o->concurrent;
    g->stream = (cudaStream_t)stream;
    g->rs = rs;
    if (o->bitmap) {
        int rc = rl_bm_open(t, rs, o->block, o->chunk, stream, &g->bm, err);
        if (rc) {
            rl_gpu_free(g);
            return rc;
        }
        *out = g;
        return 0;
    }
    int rc = rl_ruleset_check(rs, t, NULL, err);
    if (!rc)
        rc = rl_gpu_plan_make(rs, &g->plan, err);
    if (rc) {
        rl_gpu_free(g);
        return rc;
    }
    const int64_t words = (t->n + 31) / 32;
    g->la = (rl_gpu_launch){.n = t->n, .pitch = (t->n + 31) / 32 * 32, .words = words,
                            .row = (words + 31) / 32 * 32, .block = o->block,
                            .per_thread = o->per_thread};
    if (rl_gpu_put_table(t, g->la.pitch, g->stream, &g->d_table, err) ||
        rl_gpu_buffers(g, err)) {
        rl_gpu_free(g);
        return DM_ERUNTIME;
    }
    int depth = 0;
    for (int c = 0; c < g->plan.nchunks; c++)
        depth = g->plan.chunks[c].depth > depth ? g->plan.chunks[c].depth : depth;
    if (rl_gpu_allow(&g->la, depth, err)) {
        rl_gpu_free(g);
        return DM_ERUNTIME;
    }
    g->la.table = g->d_table;
    g->out.t = t;
    g->out.rs = rs;
    g->stages.chunks = g->plan.nchunks;
    *out = g;
    return 0;
}

/* ---- runs -------------------------------------------------------------------------- */

/* Enqueues chunk c's side on stream st: its rules into constant memory, between events
 * e[0] and e[1]; coverage, until e[2]; reduction, until e[3]. */
static int rl_side_kernels(rl_gpu_eval *g, int c, int s, cudaStream_t st, const cudaEvent_t *e,
                           dm_err *err)
{
    const rl_gpu_chunk *ch = &g->plan.chunks[c];
    rl_gpu_launch la = g->la;
    la.stream = st;
    return DM_CUDA(err, cudaEventRecord(e[0], st)) ||
                   rl_gpu_put_rules(s, g->h_tok[s] + ch->tok0[s], ch->ntok[s],
                                    g->h_start[s] + ch->r0 + c, ch->nrules, st, err) ||
                   DM_CUDA(err, cudaEventRecord(e[1], st)) ||
                   rl_gpu_coverage(&la, s, ch->nrules, ch->depth, g->d_bits[s], err) ||
                   DM_CUDA(err, cudaEventRecord(e[2], st)) ||
                   rl_gpu_reduction(&la, ch->ntok[s], g->d_bits[s], g->d_sup[s] + ch->tok0[s],
                                    err) ||
                   DM_CUDA(err, cudaEventRecord(e[3], st))
               ? DM_ERUNTIME
               : 0;
}

/* Enqueues the copy of chunk c's supports of side s back, on st. */
static int rl_side_back(rl_gpu_eval *g, int c, int s, cudaStream_t st, dm_err *err)
{
    const rl_gpu_chunk *ch = &g->plan.chunks[c];
    return DM_CUDA(err, cudaMemcpyAsync(g->h_sup[s] + ch->tok0[s], g->d_sup[s] + ch->tok0[s],
                                        (size_t)ch->ntok[s] * sizeof *g->h_sup[s],
                                        cudaMemcpyDeviceToHost, st))
               ? DM_ERUNTIME
               : 0;
}

/* Enqueues chunk c's fitness on st. */
static int rl_chunk_fitness(rl_gpu_eval *g, int c, cudaStream_t st, dm_err *err)
{
    const rl_gpu_chunk *ch = &g->plan.chunks[c];
    rl_gpu_launch la = g->la;
    la.stream = st;
    return rl_gpu_fitness(&la, ch->nrules, g->d_bits[RL_SIDE_A], g->d_bits[RL_SIDE_C],
                          g->d_fit + ch->r0, err);
}

/* Enqueues the copy of chunk c's fitness back on st. */
static int rl_fitness_back(rl_gpu_eval *g, int c, cudaStream_t st, dm_err *err)
{
    const rl_gpu_chunk *ch = &g->plan.chunks[c];
    return DM_CUDA(err, cudaMemcpyAsync(g->h_fit + ch->r0, g->d_fit + ch->r0,
                                        (size_t)ch->nrules * sizeof *g->h_fit,
                                        cudaMemcpyDeviceToHost, st))
               ? DM_ERUNTIME
               : 0;
}

/* One stream, stage after stage, each copy waited for; events e[0..RL_EV_SERIAL) of each
 * chunk: begin, rules in, covered (both sides), reduced, fitness done, results out. */
static int rl_run_serial(rl_gpu_eval *g, dm_err *err)
{
    cudaStream_t st = g->stream;
    for (int c = 0; c < g->plan.nchunks; c++) {
        const cudaEvent_t *e = g->ev + (size_t)c * RL_EV_CHUNK;
        const rl_gpu_chunk *ch = &g->plan.chunks[c];
        rl_gpu_launch la = g->la;
        la.stream = st;
        if (DM_CUDA(err, cudaEventRecord(e[0], st)))
            return DM_ERUNTIME;
        for (int s = 0; s < RL_SIDES; s++)
            if (rl_gpu_put_rules(s, g->h_tok[s] + ch->tok0[s], ch->ntok[s],
                                 g->h_start[s] + ch->r0 + c, ch->nrules, st, err))
                return DM_ERUNTIME;
        if (DM_CUDA(err, cudaStreamSynchronize(st)) || DM_CUDA(err, cudaEventRecord(e[1], st)))
            return DM_ERUNTIME;
        for (int s = 0; s < RL_SIDES; s++)
            if (rl_gpu_coverage(&la, s, ch->nrules, ch->depth, g->d_bits[s], err))
                return DM_ERUNTIME;
        if (DM_CUDA(err, cudaEventRecord(e[2], st)))
            return DM_ERUNTIME;
        for (int s = 0; s < RL_SIDES; s++)
            if (rl_gpu_reduction(&la, ch->ntok[s], g->d_bits[s], g->d_sup[s] + ch->tok0[s], err))
                return DM_ERUNTIME;
        if (DM_CUDA(err, cudaEventRecord(e[3], st)) || rl_chunk_fitness(g, c, st, err) ||
            DM_CUDA(err, cudaEventRecord(e[4], st)) || rl_side_back(g, c, RL_SIDE_A, st, err) ||
            rl_side_back(g, c, RL_SIDE_C, st, err) || rl_fitness_back(g, c, st, err) ||
            DM_CUDA(err, cudaStreamSynchronize(st)) || DM_CUDA(err, cudaEventRecord(e[5], st)))
            return DM_ERUNTIME;
    }
    return 0;
}

/* Antecedents and consequents each in its stream (rl_side_kernels, then their supports
 * back, until e[4] of the side), the fitness kernel in the engine's once both sides are
 * covered, overlapping their reductions (e[RL_EV_FIT ..]: begin, done, copied back). A
 * chunk's rules go into constant memory once the last chunk's fitness has read its bits
 * and starts. */
static int rl_run_concurrent(rl_gpu_eval *g, dm_err *err)
{
    for (int s = 0; s < RL_SIDES; s++)
        if (DM_CUDA(err, cudaStreamWaitEvent(g->side[s], g->begin, 0)))
            return DM_ERUNTIME;
    for (int c = 0; c < g->plan.nchunks; c++) {
        const cudaEvent_t *e = g->ev + (size_t)c * RL_EV_CHUNK;
        for (int s = 0; s < RL_SIDES; s++) {
            const cudaEvent_t *es = e + s * RL_EV_SIDE;
            if ((c > 0 && DM_CUDA(err, cudaStreamWaitEvent(g->side[s],
                                                            (e - RL_EV_CHUNK)[RL_EV_FIT + 1], 0))) ||
                rl_side_kernels(g, c, s, g->side[s], es, err) ||
                rl_side_back(g, c, s, g->side[s], err) ||
                DM_CUDA(err, cudaEventRecord(es[4], g->side[s])))
                return DM_ERUNTIME;
        }
        const cudaEvent_t *ef = e + RL_EV_FIT;
        if (DM_CUDA(err, cudaStreamWaitEvent(g->stream, e[2], 0)) ||
            DM_CUDA(err, cudaStreamWaitEvent(g->stream, e[RL_EV_SIDE + 2], 0)) ||
            DM_CUDA(err, cudaEventRecord(ef[0], g->stream)) ||
            rl_chunk_fitness(g, c, g->stream, err) ||
            DM_CUDA(err, cudaEventRecord(ef[1], g->stream)) ||
            rl_fitness_back(g, c, g->stream, err) ||
            DM_CUDA(err, cudaEventRecord(ef[2], g->stream)))
            return DM_ERUNTIME;
    }
    /* Join: the engine's stream waits for both sides' last copies. */
    const cudaEvent_t *last = g->ev + (size_t)(g->plan.nchunks - 1) * RL_EV_CHUNK;
    for (int s = 0; s < RL_SIDES; s++)
        if (DM_CUDA(err, cudaStreamWaitEvent(g->stream, last[s * RL_EV_SIDE + 4], 0)))
            return DM_ERUNTIME;
    return 0;
}

int rl_gpu_run(rl_gpu_eval *g, dm_err *err)
{
    if (g->bm)
        return rl_bm_run(g->bm, err);
    if (DM_CUDA(err, cudaEventRecord(g->begin, g->stream)) ||
        (g->concurrent ? rl_run_concurrent(g, err) : rl_run_serial(g, err)) ||
        DM_CUDA(err, cudaEventRecord(g->end, g->stream)))
        return DM_ERUNTIME;
    return 0;
}

/* ---- the answer -------------------------------------------------------------------- */

/* Adds the time from event a to event b to *sum. Returns 0, or DM_ERUNTIME. */
static int rl_add_time(cudaEvent_t a, cudaEvent_t b, double *sum, dm_err *err)
{
    float ms;
    if (DM_CUDA(err, cudaEventElapsedTime(&ms, a, b)))
        return DM_ERUNTIME;
    *sum += (double)ms * 1e-3;
    return 0;
}

/* The last run's stages from its events. */
static int rl_stage_times(rl_gpu_eval *g, dm_err *err)
{
    /* A stage between two of a chunk's events: (stage, from, to). */
    static const int serial[][3] = {{RL_STAGE_COPY_IN, 0, 1},   {RL_STAGE_COVERAGE, 1, 2},
                                    {RL_STAGE_REDUCTION, 2, 3}, {RL_STAGE_FITNESS, 3, 4},
                                    {RL_STAGE_COPY_OUT, 4, 5}};
    static const int concurrent[][3] = {
        {RL_STAGE_COPY_IN, 0, 1},    {RL_STAGE_COVERAGE, 1, 2},
        {RL_STAGE_REDUCTION, 2, 3},  {RL_STAGE_COPY_OUT, 3, 4},
        {RL_STAGE_COPY_IN, 5, 6},    {RL_STAGE_COVERAGE, 6, 7},
        {RL_STAGE_REDUCTION, 7, 8},  {RL_STAGE_COPY_OUT, 8, 9},
        {RL_STAGE_FITNESS, 10, 11},  {RL_STAGE_COPY_OUT, 11, 12}};
    const int (*pairs)[3] = g->concurrent ? concurrent : serial;
    const int npairs = g->concurrent ? 10 : 5;
    memset(g->stages.s, 0, sizeof g->stages.s);
    g->stages.total_s = 0;
    for (int c = 0; c < g->plan.nchunks; c++) {
        const cudaEvent_t *e = g->ev + (size_t)c * RL_EV_CHUNK;
        for (int k = 0; k < npairs; k++)
            if (rl_add_time(e[pairs[k][1]], e[pairs[k][2]], &g->stages.s[pairs[k][0]], err))
                return DM_ERUNTIME;
    }
    return rl_add_time(g->begin, g->end, &g->stages.total_s, err);
}

int rl_gpu_wait(rl_gpu_eval *g, const rl_answer **out, dm_err *err)
{
    if (g->bm)
        return rl_bm_wait(g->bm, out, err);
    if (DM_CUDA(err, cudaStreamSynchronize(g->stream)))
        return DM_ERUNTIME;
    rl_result *res = &g->out.res;
    const rl_ruleset *rs = g->rs;
    *res = (rl_result){.n = g->la.n, .nrules = rs->nrules, .rule = g->h_fit, .ntok = rs->ntok,
                       .tok_support = g->tok_support};
    for (int r = 0; r < rs->nrules; r++) {
        const rl_rule *rule = &rs->rules[r];
        for (int j = 0; j < rule->nante; j++)
            g->tok_support[rule->ante + j] =
                (int64_t)g->h_sup[RL_SIDE_A][g->plan.first[RL_SIDE_A][r] + j];
        for (int j = 0; j < rule->ncons; j++)
            g->tok_support[rule->cons + j] =
                (int64_t)g->h_sup[RL_SIDE_C][g->plan.first[RL_SIDE_C][r] + j];
        res->gpops += (int64_t)(rule->nante + rule->ncons) * res->n;
    }
    g->out.stages = NULL;
    *out = &g->out;
    return 0;
}

int rl_gpu_output(rl_gpu_eval *g, const rl_answer **out, dm_err *err)
{
    if (g->bm)
        return rl_bm_output(g->bm, out, err);
    if (rl_gpu_wait(g, out, err) || rl_stage_times(g, err))
        return DM_ERUNTIME;
    g->out.stages = &g->stages;
    return 0;
}
