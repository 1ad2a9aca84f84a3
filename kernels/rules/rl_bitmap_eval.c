/* rl_bitmap_eval.c - a rule set's bitmap evaluation on one GPU (rl_bitmap.h): the table
 * (or one GPU's slice of it) uploaded once; per run the plan and the zeroed sums into
 * device memory in one copy, then chunk after chunk of instances the conditions' bitmaps
 * and the rules over them, the fitness from the sums, the supports and fitness back in
 * one copy, with CUDA events around each stage. Chunks fitted to the L2 cache did not pay on an H100 at 10^6
 * instances (docs/records/rules-bitmap.md): by default every instance is one chunk. */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "rules/rl_bitmap_eval.h"
#include "rules/rl_gpu.h"

/* The arrays of a run in one device buffer, in this order (PUT: the emissions, each
 * condition's bitmap's start in a chunk's for its index; OFF: each condition token's
 * bitmap's start in a chunk's, from cl; SUM: each token's support, then each rule's
 * n(AC), which the kernels add to; FIT: each rule's fitness). The plan's arrays and the
 * sums, zeros, are copied in from one pinned buffer; the sums and fitness come back into
 * another, a copy each way a run. */
enum { RL_BM_A_SEG, RL_BM_A_THR, RL_BM_A_PUT, RL_BM_A_RULE, RL_BM_A_CODE, RL_BM_A_OFF,
       RL_BM_A_SUM, RL_BM_A_FIT, RL_BM_ARRAYS };

struct rl_bm_eval {
    rl_answer out; /* first: what output() gives */
    const rl_ruleset *rs;
    rl_bm_plan plan;
    cudaStream_t stream;
    int64_t n, pitch, words;
    int64_t width;  /* words of a chunk, a multiple of 256 */
    int64_t chunks;
    int warps;      /* of a rules kernel's block */
    int ahead;      /* conditions a warp of it asks for ahead */
    double *d_table;
    uint32_t *d_bm;
    uint32_t *d_planes; /* the conditions kernel's ranks' bits, a chunk's */
    /* d_arr[k]: array k in d_buf; h_arr[k]: in h_in (up to SUM's end, in_bytes) or h_out
     * (SUM and FIT, out_bytes). */
    char *d_buf, *h_in, *h_out;
    size_t in_bytes, out_bytes;
    void *h_arr[RL_BM_ARRAYS], *d_arr[RL_BM_ARRAYS];
    int64_t *tok_support;
    cudaEvent_t *ev; /* begin, plan in, per chunk (conditions, rules), fitness, end */
    int nev;
    rl_stages stages;
};

void rl_bm_free(rl_bm_eval *g)
{
    if (!g)
        return;
    DM_CUDA_WARN(cudaStreamSynchronize(g->stream));
    for (int k = 0; k < g->nev; k++)
        DM_CUDA_WARN(cudaEventDestroy(g->ev[k]));
    free(g->ev);
    dm_gpu_free(g->stream, g->d_table);
    dm_gpu_free(g->stream, g->d_bm);
    dm_gpu_free(g->stream, g->d_planes);
    dm_gpu_free(g->stream, g->d_buf);
    if (g->h_in)
        DM_CUDA_WARN(cudaFreeHost(g->h_in));
    if (g->h_out)
        DM_CUDA_WARN(cudaFreeHost(g->h_out));
    free(g->tok_support);
    rl_bm_plan_free(&g->plan);
    free(g);
}

/* A chunk's words: chunk instances (0: every instance, unless their bitmaps would take
 * more than a quarter of the device's memory with the ranks' planes, then as many as that
 * holds), rounded up to
 * 256 words (a warp's run in the rules kernel), at most the table's. Returns 0, or
 * DM_ERUNTIME. */
static int rl_bm_width(rl_bm_eval *g, int64_t chunk, dm_err *err)
{
    const int64_t all = (g->words + 255) / 256 * 256;
    int64_t w = (chunk + 31) / 32;
    if (chunk == 0) {
        size_t free_b, total;
        if (DM_CUDA(err, cudaMemGetInfo(&free_b, &total)))
            return DM_ERUNTIME;
        /* A word's bitmaps, and its planes in each segment. */
        const int64_t per = g->plan.nconds + (int64_t)RL_BM_BITS * g->plan.nsegs;
        w = (int64_t)(total / 4 / 4) / (per ? per : 1);
        w = w > all ? all : w;
    }
    /* A bitmap's start, condition x width words, must fit 32 bits. */
    const int64_t most =
        (int64_t)UINT32_MAX / (g->plan.nconds ? g->plan.nconds : 1) / 256 * 256;
    w = (w + 255) / 256 * 256;
    w = w > most ? most : w;
    g->width = w < 256 ? 256 : w > all ? all : w;
    g->chunks = (g->words + g->width - 1) / g->width;
    return 0;
}

/* The run's arrays in pinned memory and on the device, and the bitmaps. Returns 0, or
 * DM_ERUNTIME. */
static int rl_bm_buffers(rl_bm_eval *g, dm_err *err)
{
    const rl_bm_plan *p = &g->plan;
    const void *src[RL_BM_ARRAYS] = {p->seg, p->thr, NULL, p->rule, p->code, NULL};
    const size_t bytes[RL_BM_ARRAYS] = {
        (size_t)p->nsegs * sizeof *p->seg, (size_t)p->nthr * sizeof *p->thr,
        (size_t)p->nconds * sizeof(rl_bm_put), (size_t)p->nrules * sizeof *p->rule,
        (size_t)p->ntok, (size_t)p->ncl * sizeof(uint32_t),
        (size_t)(p->ntok + p->nrules) * sizeof(unsigned long long),
        (size_t)p->nrules * sizeof(rl_rule_result)};
    size_t at[RL_BM_ARRAYS + 1] = {0};
    for (int k = 0; k < RL_BM_ARRAYS; k++) /* each array 16-byte aligned */
        at[k + 1] = at[k] + (bytes[k] + 15) / 16 * 16;
    g->in_bytes = at[RL_BM_A_FIT];
    g->out_bytes = at[RL_BM_ARRAYS] - at[RL_BM_A_SUM];
    if (DM_CUDA(err, cudaMallocHost((void **)&g->h_in, g->in_bytes)) ||
        DM_CUDA(err, cudaMallocHost((void **)&g->h_out, g->out_bytes)) ||
        dm_gpu_alloc(g->stream, at[RL_BM_ARRAYS], (void **)&g->d_buf, err))
        return DM_ERUNTIME;
    for (int k = 0; k < RL_BM_ARRAYS; k++) {
        g->h_arr[k] = k < RL_BM_A_SUM ? g->h_in + at[k] : g->h_out + (at[k] - at[RL_BM_A_SUM]);
        g->d_arr[k] = g->d_buf + at[k];
        if (src[k])
            memcpy(g->h_arr[k], src[k], bytes[k]);
    }
    memset(g->h_in + at[RL_BM_A_SUM], 0, g->in_bytes - at[RL_BM_A_SUM]);
    rl_bm_put *put = g->h_arr[RL_BM_A_PUT];
    for (int k = 0; k < p->nconds; k++)
        put[k] = (rl_bm_put){(uint32_t)p->emit[k].cond * (uint32_t)g->width, p->emit[k].code};
    uint32_t *off = g->h_arr[RL_BM_A_OFF];
    for (int64_t k = 0; k < p->ncl; k++)
        off[k] = (uint32_t)p->cl[k] * (uint32_t)g->width;
    if (dm_gpu_alloc(g->stream, (size_t)p->nconds * (size_t)g->width * sizeof *g->d_bm,
                     (void **)&g->d_bm, err) ||
        dm_gpu_alloc(g->stream,
                     (size_t)p->nsegs * RL_BM_BITS * (size_t)g->width * sizeof *g->d_planes,
                     (void **)&g->d_planes, err))
        return DM_ERUNTIME;
    if (!(g->tok_support = calloc((size_t)g->rs->ntok, sizeof *g->tok_support)) ||
        !(g->ev = calloc((size_t)(4 + 2 * g->chunks), sizeof *g->ev)))
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    for (; g->nev < 4 + 2 * g->chunks; g->nev++)
        if (DM_CUDA(err, cudaEventCreate(&g->ev[g->nev])))
            return DM_ERUNTIME;
    return 0;
}

/* What the rules kernel reads, on the device. */
static rl_bm_rules_args rl_bm_args(const rl_bm_eval *g)
{
    const rl_bm_plan *p = &g->plan;
    unsigned long long *sum = g->d_arr[RL_BM_A_SUM];
    return (rl_bm_rules_args){.rule = g->d_arr[RL_BM_A_RULE], .code = g->d_arr[RL_BM_A_CODE],
                              .off = g->d_arr[RL_BM_A_OFF], .nrules = p->nrules,
                              .depth = p->depth, .ahead = g->ahead, .sup = sum,
                              .nac = sum + p->ntok};
}

/* Fits block's warps of the rules kernel with their stacks and the conditions' words
 * they ask for ahead into a block's shared memory: two conditions ahead where they fit,
 * else one. Returns 0, or DM_ERUNTIME with err's code DM_ENOMEM (the point is skipped)
 * when it cannot. */
static int rl_bm_fit_block(rl_bm_eval *g, int block, dm_err *err)
{
    int limit, smem = 0;
    if (rl_bm_smem_limit(&limit, err))
        return DM_ERUNTIME;
    for (g->ahead = 2; g->ahead >= 1; g->ahead--) {
        const rl_bm_rules_args a = rl_bm_args(g);
        if ((smem = block / 32 * rl_bm_warp_smem(&a)) <= limit)
            break;
    }
    if (g->ahead < 1) {
        dm_err_set(err, DM_ENOMEM,
                   "bitmap at block %d keeps %d bytes of stacks and conditions' words "
                   "(expressions %d deep) in a block's shared memory; the GPU allows %d",
                   block, smem, g->plan.depth, limit);
        return DM_ERUNTIME;
    }
    g->warps = block / 32;
    const rl_bm_rules_args a = rl_bm_args(g);
    return rl_bm_allow(&a, g->warps, err);
}

int rl_bm_open(const rl_table *t, const rl_ruleset *rs, int block, int64_t chunk, void *stream,
               rl_bm_eval **out, dm_err *err)
{
    rl_bm_eval *g = calloc(1, sizeof *g);
    *out = NULL;
    if (!g)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    g->stream = (cudaStream_t)stream;
    g->rs = rs;
    g->n = t->n;
    g->words = (t->n + 31) / 32;
    g->pitch = g->words * 32;
    int rc = rl_ruleset_check(rs, t, NULL, err);
    if (!rc)
        rc = rl_bm_plan_make(rs, &g->plan, err);
    if (!rc && (rl_bm_width(g, chunk, err) ||
                rl_gpu_put_table(t, g->pitch, stream, &g->d_table, err) ||
                rl_bm_buffers(g, err) || rl_bm_fit_block(g, block, err)))
        rc = DM_ERUNTIME;
    if (rc) {
        rl_bm_free(g);
        return rc;
    }
    g->out.t = t;
    g->out.rs = rs;
    g->stages.chunks = (int)g->chunks;
    *out = g;
    return 0;
}

int rl_bm_run(rl_bm_eval *g, dm_err *err)
{
    const rl_bm_plan *p = &g->plan;
    cudaStream_t st = g->stream;
    cudaEvent_t *e = g->ev;
    if (DM_CUDA(err, cudaEventRecord(e[0], st)))
        return DM_ERUNTIME;
    if (DM_CUDA(err, cudaMemcpyAsync(g->d_buf, g->h_in, g->in_bytes, cudaMemcpyHostToDevice,
                                     st)) ||
        DM_CUDA(err, cudaEventRecord(e[1], st)))
        return DM_ERUNTIME;
    const rl_bm_rules_args a = rl_bm_args(g);
    for (int64_t c = 0; c < g->chunks; c++) {
        const int64_t w0 = c * g->width;
        if (rl_bm_conditions(g->d_table, g->pitch, g->n, w0, g->width, p->nsegs,
                             g->d_arr[RL_BM_A_SEG], g->d_arr[RL_BM_A_THR],
                             g->d_arr[RL_BM_A_PUT], g->d_planes, g->d_bm, st, err) ||
            DM_CUDA(err, cudaEventRecord(e[2 + 2 * c], st)) ||
            rl_bm_rules(&a, g->d_bm, g->n, w0, g->width, g->warps, st, err) ||
            DM_CUDA(err, cudaEventRecord(e[3 + 2 * c], st)))
            return DM_ERUNTIME;
    }
    const int64_t last = 2 + 2 * g->chunks;
    if (rl_bm_fitness(&a, g->n, g->d_arr[RL_BM_A_FIT], st, err) ||
        DM_CUDA(err, cudaEventRecord(e[last], st)) ||
        DM_CUDA(err, cudaMemcpyAsync(g->h_out, g->d_arr[RL_BM_A_SUM], g->out_bytes,
                                     cudaMemcpyDeviceToHost, st)) ||
        DM_CUDA(err, cudaEventRecord(e[last + 1], st)))
        return DM_ERUNTIME;
    return 0;
}

/* Adds the time from event a to event b to *sum. Returns 0, or DM_ERUNTIME. */
static int rl_bm_add(cudaEvent_t a, cudaEvent_t b, double *sum, dm_err *err)
{
    float ms;
    if (DM_CUDA(err, cudaEventElapsedTime(&ms, a, b)))
        return DM_ERUNTIME;
    *sum += (double)ms * 1e-3;
    return 0;
}

int rl_bm_wait(rl_bm_eval *g, const rl_answer **out, dm_err *err)
{
    if (DM_CUDA(err, cudaStreamSynchronize(g->stream)))
        return DM_ERUNTIME;
    const rl_ruleset *rs = g->rs;
    rl_result *res = &g->out.res;
    *res = (rl_result){.n = g->n, .nrules = rs->nrules, .rule = g->h_arr[RL_BM_A_FIT],
                       .ntok = rs->ntok, .tok_support = g->tok_support};
    const unsigned long long *sums = g->h_arr[RL_BM_A_SUM];
    for (int r = 0; r < rs->nrules; r++) {
        const rl_rule *u = &rs->rules[r];
        const int64_t k0 = g->plan.rule[r].tok0;
        const unsigned long long *sup = sums + k0;
        const int32_t *orig = g->plan.orig + k0;
        for (int j = 0; j < u->nante; j++)
            g->tok_support[u->ante + orig[j]] = (int64_t)sup[j];
        for (int j = 0; j < u->ncons; j++)
            g->tok_support[u->cons + orig[u->nante + j]] = (int64_t)sup[u->nante + j];
        res->gpops += (int64_t)(u->nante + u->ncons) * res->n;
    }
    g->out.stages = NULL;
    *out = &g->out;
    return 0;
}

int rl_bm_output(rl_bm_eval *g, const rl_answer **out, dm_err *err)
{
    if (rl_bm_wait(g, out, err))
        return DM_ERUNTIME;
    rl_stages *s = &g->stages;
    const cudaEvent_t *e = g->ev;
    const int64_t last = 2 + 2 * g->chunks;
    memset(s->s, 0, sizeof s->s);
    s->total_s = 0;
    if (rl_bm_add(e[0], e[1], &s->s[RL_STAGE_COPY_IN], err) ||
        rl_bm_add(e[last], e[last + 1], &s->s[RL_STAGE_COPY_OUT], err) ||
        rl_bm_add(e[last - 1], e[last], &s->s[RL_STAGE_FITNESS], err) ||
        rl_bm_add(e[0], e[last + 1], &s->total_s, err))
        return DM_ERUNTIME;
    for (int64_t c = 0; c < g->chunks; c++)
        if (rl_bm_add(e[1 + 2 * c], e[2 + 2 * c], &s->s[RL_STAGE_COVERAGE], err) ||
            rl_bm_add(e[2 + 2 * c], e[3 + 2 * c], &s->s[RL_STAGE_REDUCTION], err))
            return DM_ERUNTIME;
    g->out.stages = s;
    return 0;
}
