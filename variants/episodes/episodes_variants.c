/* episodes_variants.c - the variants of frequent episode mining in spike trains (Cao et al.) and
 * the workload's table. cpu is Algorithm 1 over the point's episodes on one thread (the
 * papers' serial baseline); cpu-mt counts them across every core (the papers' CPU
 * column); cpu-twopass mines as cpu-mt with PreElim's bound first, across the cores.
 * ptpe, mtpe and preelim are the papers' GPU kernels (ep_gpu.cu), hybrid picks ptpe or
 * mtpe by the number of episodes, twopass mines with PreElim's bound first; each counts a
 * level's episodes or mines level-wise (support > 0), on one GPU (ep_gpu_count.c);
 * multigpu splits each level over several (ep_multigpu.c). Beyond the papers, cpu-prefix
 * and prefix count each candidate from its prefix's occurrences (ep_prefix.h), across the
 * cores and on the GPU (ep_prefix_dev.c). */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "ep_gpu_count.h"
#include "ep_multigpu.h"
#include "ep_prefix_dev.h"
#include "card_choices.h"
#include "fits.h"
#include "tuned.h"

extern const dm_study episodes_study;

/* ---- cpu, cpu-mt, cpu-twopass, cpu-prefix, prefix ------------------------------------- */

/* How a synchronous variant counts: Algorithm 1 (on one thread or the cores), or by
 * prefix on the cores or on the GPU. */
typedef enum ep_sync_count { EP_ALG1, EP_PREFIX_CPU, EP_PREFIX_GPU } ep_sync_count;

/* What a variant counting through a callback, synchronously, holds. */
typedef struct ep_sync_state {
    const ep_stream *s;
    ep_count_ctx ctx;     /* mt 0 for cpu: one thread, no pool */
    ep_prefix_cpu prefix; /* cpu-prefix's */
    ep_prefix_dev *dev;   /* prefix's (on the GPU), else NULL */
    ep_count_fn count;    /* ep_count_cb on ctx, or ep_prefix_cb on prefix's or dev's st */
    void *count_ctx;
    int mine;             /* support > 0: run mines, with spec */
    ep_mine_spec spec;
    ep_mine_result m;     /* the point's episodes and counts, or what the mining found */
    ep_result out;
} ep_sync_state;

static void ep_sync_teardown(void *state)
{
    ep_sync_state *s = state;
    if (!s)
        return;
    ep_mine_result_free(&s->m);
    ep_prefix_cpu_close(&s->prefix);
    if (s->dev)
        ep_prefix_dev_close(s->dev);
    free(s->dev);
    free(s);
}

/* The point's episodes and room for their counts, or its mining spec (with PreElim's
 * bound across the cores first when twopass); counted as how says (mt: Algorithm 1 or
 * prefix across the cores; the GPU prefix on ex's stream; mining by prefix counts the
 * levels after the first as extensions). */
static int ep_sync_prepare(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           int mt, int twopass, ep_sync_count how, void **state,
                           dm_err *err)
{
    const ep_data *d = ds->data;
    ep_sync_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    s->s = &d->s;
    s->ctx = (ep_count_ctx){.s = &d->s, .iv = ep_point_interval(pt), .mt = mt,
                            .threads = mt ? (int)dm_point_int(pt, "threads") : 1};
    s->count = ep_count_cb;
    s->count_ctx = &s->ctx;
    if (ep_point_work(&d->s, pt, &s->mine, &s->spec, &s->m, err) != 0)
        goto fail;
    if (s->mine && twopass) {
        s->spec.bound = ep_bound_cb;
        s->spec.bound_ctx = &s->ctx;
    }
    const int64_t keep = s->mine ? s->spec.support : INT64_MAX;
    if (how == EP_PREFIX_CPU) {
        if (ep_prefix_cpu_open(&s->prefix, &d->s, s->ctx.iv, keep, s->ctx.threads, err))
            goto fail;
        s->count_ctx = s->spec.extend_ctx = &s->prefix.st;
    } else if (how == EP_PREFIX_GPU) {
        if (!(s->dev = calloc(1, sizeof *s->dev))) {
            dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
            goto fail;
        }
        if (ep_prefix_dev_open(s->dev, ex->stream, &d->s, s->ctx.iv, keep,
                               (int)dm_point_int(pt, "block"),
                               (int)dm_point_int(pt, "block_few"),
                               dm_point_int(pt, "switch_at"), err))
            goto fail;
        s->count_ctx = s->spec.extend_ctx = &s->dev->st;
    }
    if (how != EP_ALG1) {
        s->count = ep_prefix_cb;
        s->spec.extend = ep_prefix_ext_cb;
    }
    s->out = ep_result_of(&d->s, &s->m);
    *state = s;
    return 0;
fail:
    ep_sync_teardown(s);
    return err->code;
}

static int ep_cpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        void **state, dm_err *err)
{
    return ep_sync_prepare(ex, ds, pt, 0, 0, EP_ALG1, state, err);
}

static int ep_cpu_mt_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    return ep_sync_prepare(ex, ds, pt, 1, 0, EP_ALG1, state, err);
}

static int ep_cpu_twopass_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                                void **state, dm_err *err)
{
    return ep_sync_prepare(ex, ds, pt, 1, 1, EP_ALG1, state, err);
}

static int ep_cpu_prefix_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                               void **state, dm_err *err)
{
    return ep_sync_prepare(ex, ds, pt, 1, 0, EP_PREFIX_CPU, state, err);
}

static int ep_prefix_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    return ep_sync_prepare(ex, ds, pt, 0, 0, EP_PREFIX_GPU, state, err);
}

/* Counts the point's episodes, or mines (the candidates' generation is then timed with
 * the counting, as it is part of the mining). */
static int ep_sync_run(void *state, dm_err *err)
{
    ep_sync_state *s = state;
    if (!s->mine)
        return s->count(s->count_ctx, s->m.eps, s->m.n, s->m.counts, err);
    ep_mine_result_free(&s->m);
    int rc = ep_mine(s->s, &s->spec, s->count, s->count_ctx, &s->m, err);
    s->out = ep_result_of(s->s, &s->m);
    return rc;
}

static int ep_sync_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    ep_sync_state *s = state;
    *out = &s->out;
    return 0;
}

/* ---- ptpe, mtpe, hybrid, preelim, twopass ---------------------------------------------- */

/* What a single-GPU variant holds: its GPU's counter (ep_gpu_count.h), its kernel, and
 * either the point's episodes (counted by run, copied back by output) or its mining. */
typedef struct ep_gpu_state {
    ep_gpu_counter c;
    ep_gpu_fn kernel;       /* NULL: hybrid, PTPE or MTPE by the batch (Algorithm 2) */
    int mine;               /* support > 0 */
    ep_mine_spec spec;
    ep_mine_result m;       /* the point's episodes and counts, or what the mining found */
    ep_result out;
} ep_gpu_state;

static void ep_gpu_teardown(void *state)
{
    ep_gpu_state *s = state;
    if (!s)
        return;
    ep_gpu_counter_close(&s->c);
    ep_mine_result_free(&s->m);
    free(s);
}

/* Mining's callbacks: a level's candidates counted by the variant's kernel (hybrid's
 * choice for the level), or bounded by PreElim reading by type. */
static int ep_gpu_count_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                           dm_err *err)
{
    ep_gpu_state *s = ctx;
    return ep_gpu_count(&s->c, eps, n, s->kernel, counts, err);
}

static int ep_gpu_bound_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                           dm_err *err)
{
    ep_gpu_state *s = ctx;
    return ep_gpu_bound(&s->c, eps, n, counts, err);
}

/* The stream on the device, then the point's episodes (or its mining spec). kernel NULL
 * is hybrid. Returns 0, DM_EINPUT for a bad problem or an interval too narrow, or
 * DM_ERUNTIME with err set. */
static int ep_gpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        ep_gpu_fn kernel, int twopass, void **state, dm_err *err)
{
    const ep_data *d = ds->data;
    ep_gpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    s->kernel = kernel;
    if (ep_point_work(&d->s, pt, &s->mine, &s->spec, &s->m, err) ||
        ep_gpu_counter_open(&s->c, ex->device, ex->stream, &d->s, pt,
                            ep_gpu_margin(&d->s, &s->m, &s->spec, s->mine), 0, err) ||
        (!s->mine && ep_gpu_batch(&s->c, s->m.eps, s->m.n, kernel, err)) ||
        DM_CUDA(err, cudaStreamSynchronize((cudaStream_t)ex->stream)))
        goto fail;
    if (s->mine && twopass) {
        s->spec.bound = ep_gpu_bound_cb;
        s->spec.bound_ctx = s;
    }
    s->out = ep_result_of(&d->s, &s->m);
    *state = s;
    return 0;
fail:
    ep_gpu_teardown(s);
    return err->code;
}

static int ep_ptpe_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                         void **state, dm_err *err)
{
    return ep_gpu_setup(ex, ds, pt, ep_gpu_ptpe, 0, state, err);
}

static int ep_mtpe_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                         void **state, dm_err *err)
{
    return ep_gpu_setup(ex, ds, pt, ep_gpu_mtpe, 0, state, err);
}

static int ep_preelim_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                            void **state, dm_err *err)
{
    return ep_gpu_setup(ex, ds, pt, ep_gpu_preelim, 0, state, err);
}

static int ep_hybrid_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    return ep_gpu_setup(ex, ds, pt, NULL, 0, state, err);
}

static int ep_twopass_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                            void **state, dm_err *err)
{
    return ep_gpu_setup(ex, ds, pt, NULL, 1, state, err);
}

/* At expansion: an open switch point of a point counting one level becomes
 * ep_hybrid_switch_at's, so the stored point says where hybrid switches (mining takes
 * each level's own). */
static void ep_hybrid_resolve(dm_point *pt, const dm_device *dev)
{
    char how[DM_HOW_MAX];
    if (dm_point_int(pt, "switch_at") != 0 || dm_point_int(pt, "support") != 0)
        return;
    int64_t at = ep_hybrid_switch_at(pt->workload, dev, (int)dm_point_int(pt, "level"),
                                     (int)dm_point_int(pt, "block"),
                                     ep_lists_cap(ep_point_runs_needed(pt)), how, sizeof how);
    dm_point_set_int(pt, "switch_at", at);
    if (at)
        dm_point_note_choice(pt, "switch_at", "%lld, %s", (long long)at, how);
}

/* Counts the point's episodes (enqueued), or mines, synchronously: each level's
 * candidates generated on the host, (bounded by PreElim,) counted on the GPU. */
static int ep_gpu_run(void *state, dm_err *err)
{
    ep_gpu_state *s = state;
    if (!s->mine)
        return ep_gpu_run_batch(&s->c, err);
    ep_mine_result_free(&s->m);
    int rc = ep_mine(s->c.s, &s->spec, ep_gpu_count_cb, s, &s->m, err);
    s->out = ep_result_of(s->c.s, &s->m);
    return rc;
}

static int ep_gpu_output(void *state, const void **out, dm_err *err)
{
    ep_gpu_state *s = state;
    if (!s->mine && ep_gpu_fetch(&s->c, s->m.counts, err))
        return DM_ERUNTIME;
    *out = &s->out;
    return 0;
}

/* `dmbench tune --card`: the papers' Table 1 crossovers of MTPE and PTPE, by level, which
 * hybrid switches by. */
static const char *const ep_tune_sweeps[] = { "episodes-table1", NULL };
static const dm_card_crossover ep_tune_crossovers[] = { { "mtpe", "ptpe", "count", "level" },
                                                        { 0 } };
static const dm_card_tuning episodes_card_tuning = { ep_tune_sweeps, ep_tune_crossovers };

/* ---- the table ------------------------------------------------------------------ */

static const char *const ep_generators[] = { "sym26", NULL };

static const dm_param_spec ep_dataset_params[] = {
    { .name = "seconds", .type = DM_P_REAL, .def = "60", .allowed = "1..100000",
      .help = "sym26: seconds of recording", .generated = 1, .tune = DM_TUNE_SIZE },
    { .name = "basal_hz", .type = DM_P_REAL, .def = "20", .allowed = "1..1000",
      .help = "sym26: basal firing rate of each neuron, Hz", .generated = 1 },
    { .name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0..",
      .help = "sym26: seed of the generator", .generated = 1, .tune = DM_TUNE_ANY },
    { .name = "neurons", .type = DM_P_INT, .def = "26", .allowed = "12..1000",
      .help = "sym26: neurons (26 as the papers; more for larger streams of the kind)",
      .generated = 1 },
    { 0 },
};

static const dm_param_spec ep_problem_params[] = {
    { .name = "level", .type = DM_P_INT, .def = "2", .allowed = "1..16",
      .help = "episode length N: every serial episode of N event types is counted" },
    { .name = "count", .type = DM_P_INT, .def = "0", .allowed = "0..16777216",
      .help = "count only the first episodes of the level, in type order (0: all)" },
    { .name = "gap_lo_ms", .type = DM_P_REAL, .def = "4", .allowed = "0..1000000",
      .help = "each link's gap interval: lower end, ms" },
    { .name = "gap_hi_ms", .type = DM_P_REAL, .def = "6", .allowed = "0..1000000",
      .help = "each link's gap interval: upper end, ms" },
    { .name = "interval", .type = DM_P_ENUM, .def = "open-closed",
      .allowed = "open-closed|closed",
      .help = "open-closed: lo < gap <= hi (the papers'); closed: lo <= gap <= hi" },
    { .name = "relax", .type = DM_P_INT, .def = "0", .allowed = "0..1",
      .help = "1: count the relaxed problem, every link [0, hi] (PreElim's upper bound)",
      .bound = "upper bounds: each count is of the relaxed problem (every link [0, hi]), "
               "at least the exact count" },
    { .name = "support", .type = DM_P_INT, .def = "0", .allowed = "0..",
      .help = "0: count the level's episodes; > 0: mine level-wise, the episodes counted "
              "at least this often at every level up to `level`" },
    { .name = "precision", .type = DM_P_ENUM, .def = "double", .allowed = "double|float",
      .help = "double; float: times and bounds rounded to float, gaps in float arithmetic" },
    { .name = "gaps", .type = DM_P_ENUM, .def = "-",
      .help = "-: every link (gap_lo_ms, gap_hi_ms]; else LO:HI in ms, ';' between them: "
              "one for every link, or one per link" },
    { .name = "links", .type = DM_P_ENUM, .def = "per-position",
      .allowed = "per-position|any",
      .help = "mining with several gaps: link k gets gap k (per-position), or each link "
              "any of them, every combination a candidate (any: the papers' set I)" },
    { .name = "episodes", .type = DM_P_ENUM, .def = "-",
      .help = "-: the level's episodes; else an episodes file (one a line, A -> B -> C), "
              "its episodes counted" },
    { 0 },
};

static const dm_param_spec ep_cpu_mt_params[] = {
    { .name = "threads", .type = DM_P_INT, .def = "0", .allowed = "0..4096",
      .help = "threads (0: every online core)" },
    { 0 },
};

#define EP_BLOCK_PARAM                                                                     \
    { .name = "block", .type = DM_P_INT, .def = "128", .allowed = "32..1024",               \
      .help = "threads per block of the counting kernel (a multiple of 32)" }
#define EP_READ_HELP                                                                       \
    "stream: every thread reads every event, a warp in step; types: only its episode's "   \
    "types' events, from the stream split by type"
#define EP_READ_PARAM(def_)                                                                \
    { .name = "read", .type = DM_P_ENUM, .def = def_, .allowed = "stream|types",            \
      .help = EP_READ_HELP }

static const dm_param_spec ep_ptpe_params[] = {
    EP_BLOCK_PARAM,
    EP_READ_PARAM("stream"),
    { 0 },
};

static const dm_param_spec ep_preelim_params[] = {
    EP_BLOCK_PARAM,
    EP_READ_PARAM("types"),
    { 0 },
};

static const dm_param_spec ep_mtpe_params[] = {
    EP_BLOCK_PARAM,
    EP_READ_PARAM("types"),
    { .name = "segments", .type = DM_P_INT, .def = "0", .allowed = "0..65536",
      .help = "R, segments of the stream per episode (0: the smallest power of two that "
              "gives the device two threads per thread slot, at most 4096)" },
    { .name = "machines", .type = DM_P_INT, .def = "0", .allowed = "0..64",
      .help = "K, machines per segment (0: the level N, as the papers; fewer is exact "
              "too, faster on rare episodes, slower on frequent ones: docs/episodes.md)" },
    { 0 },
};

static const dm_param_spec ep_hybrid_params[] = {
    EP_BLOCK_PARAM,
    { .name = "read", .type = DM_P_ENUM, .def = "auto", .allowed = "auto|stream|types",
      .help = EP_READ_HELP "; auto: PTPE the stream, MTPE by type (each kernel's faster "
              "way on the H100, docs/episodes.md)" },
    { .name = "segments", .type = DM_P_INT, .def = "0", .allowed = "0..65536",
      .help = "MTPE's R when it runs (0: automatic, as mtpe)" },
    { .name = "machines", .type = DM_P_INT, .def = "0", .allowed = "0..64",
      .help = "MTPE's K when it runs (0: the level N)" },
    { .name = "switch_at", .type = DM_P_INT, .def = "0", .allowed = "0..",
      .help = "run PTPE above this many episodes, MTPE at or below (0: the crossover fit "
              "for the card at each level counted, else MP x B_MP x T_B); two-pass's bound "
              "runs PreElim's kernel where PTPE would run" },
    { 0 },
};

static const dm_param_spec ep_prefix_params[] = {
    { .name = "block", .type = DM_P_INT, .def = "256", .allowed = "32..1024",
      .help = "threads per block of the kernel for rounds of many steps, a block a step "
              "(a multiple of 32; 256 mined fastest on an H100, docs/episodes.md)" },
    { .name = "block_few", .type = DM_P_INT, .def = "512", .allowed = "32..1024",
      .help = "threads per block of the kernel for rounds of few steps (a multiple of 32; "
              "512 on an H100, docs/episodes.md)" },
    { .name = "switch_at", .type = DM_P_INT, .def = "0", .allowed = "0..",
      .help = "rounds of at most this many steps run the kernel for few (0: twice as "
              "many blocks of block_few as the card holds at once)" },
    { 0 },
};

static const dm_param_spec ep_multigpu_params[] = {
    { .name = "gpus", .type = DM_P_INT, .def = "1", .allowed = "1..16",
      .help = "GPUs each level's candidates are split over, the run's first ones "
              "(dmbench run --devices)" },
    EP_BLOCK_PARAM,
    { .name = "counting", .type = DM_P_ENUM, .def = "twopass",
      .allowed = "ptpe|hybrid|twopass|prefix",
      .help = "each GPU's counting: ptpe, PTPE on its slice; hybrid, PTPE or MTPE for its "
              "slice by Algorithm 2; twopass, PreElim's bound on its slice, then PTPE on its "
              "slice of the survivors (the journal's); prefix, as the prefix variant, each "
              "GPU extending the prefixes whose starts it keeps (beyond the papers)" },
    { .name = "block_few", .type = DM_P_INT, .def = "512", .allowed = "32..1024",
      .help = "counting prefix: threads per block of the kernel for rounds of few steps, "
              "as prefix's (block is then the kernel for many's; 256 is prefix's)" },
    { .name = "switch_at", .type = DM_P_INT, .def = "0", .allowed = "0..",
      .help = "counting prefix: rounds of at most this many steps run the kernel for few "
              "(0: two waves of the card); hybrid: PTPE above this many episodes (0: the "
              "card's crossover fit at each level)" },
    { 0 },
};

/* Refuses an ill-posed problem (ep_point_check). */
static int ep_cpu_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    (void)dev;
    return ep_point_check(pt, why, n);
}

/* PreElim bounds the count in double precision only: float rounds the times the exact
 * count compares, and may count an occurrence the double bound does not. */
static int ep_cpu_twopass_supports(const dm_point *pt, const dm_device *dev, char *why,
                                   size_t n)
{
    if (ep_cpu_supports(pt, dev, why, n))
        return 1;
    if (strcmp(dm_point_str(pt, "precision"), "double") != 0) {
        snprintf(why, n, "cpu-twopass bounds counts in double precision only");
        return 1;
    }
    return 0;
}

/* 0 when the lists of a block of pt's machines (level - 1 of them a thread, each of the
 * runs the point's gaps need, ep_point_runs_needed) fit the shared memory of a block of
 * dev, else 1 with why. PreElim keeps no lists. */
static int ep_gpu_lists_fit(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    if (!dev)
        return 0;
    const int64_t level = dm_point_int(pt, "level"), block = dm_point_int(pt, "block");
    const int cap = ep_lists_cap(ep_point_runs_needed(pt));
    const int64_t bytes = (level - 1) * cap * (int64_t)sizeof(ep_run);
    if (bytes * block <= dev->smem_per_block_optin)
        return 0;
    snprintf(why, n, "level %lld keeps %lld bytes of lists a thread in shared memory (%d runs "
             "a list), %lld for block %lld, more than the device's %d", (long long)level,
             (long long)bytes, cap, (long long)(bytes * block), (long long)block,
             dev->smem_per_block_optin);
    return 1;
}

/* Refuses a block the device cannot launch or that is not whole warps, float precision,
 * and what the CPU variants refuse. */
static int ep_gpu_block_supports(const dm_point *pt, const dm_device *dev, char *why,
                                 size_t n)
{
    if (ep_cpu_supports(pt, dev, why, n))
        return 1;
    if (strcmp(dm_point_str(pt, "precision"), "double") != 0) {
        snprintf(why, n, "the GPU variants count in double precision");
        return 1;
    }
    return dm_point_block_refused(pt, dev, ep_gpu_max_block(), why, n);
}

/* As ep_gpu_block_supports, and refuses a block_few that is not a multiple of 32 or more
 * than the device allows (prefix's kernels take 32 registers: no lower limit). */
static int ep_prefix_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    return ep_gpu_block_supports(pt, dev, why, n) ||
           dm_point_block_param_refused(pt, "block_few", dev, 0, why, n);
}

/* As ep_gpu_block_supports, and refuses lists that do not fit a block's shared memory. */
static int ep_gpu_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    return ep_gpu_block_supports(pt, dev, why, n) || ep_gpu_lists_fit(pt, dev, why, n);
}

/* As prefix when it counts by prefix (no lists), else as the papers' GPU variants. */
static int ep_multigpu_supports(const dm_point *pt, const dm_device *dev, char *why,
                                size_t n)
{
    if (strcmp(dm_point_str(pt, "counting"), "prefix") == 0)
        return ep_prefix_supports(pt, dev, why, n);
    return ep_gpu_supports(pt, dev, why, n);
}

/* PreElim counts the relaxed problem only, and keeps one time a node (no lists). */
static int ep_preelim_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    if (!dm_point_int(pt, "relax")) {
        snprintf(why, n, "preelim counts the relaxed problem (every link [0, hi]): set "
                 "relax=1");
        return 1;
    }
    return ep_gpu_block_supports(pt, dev, why, n);
}

static const dm_mine_option ep_mine_options[] = {
    { .flag = "episodes", .param = "episodes", .metavar = "FILE",
      .help = "count the episodes of FILE (one a line, A -> B -> C)" },
    { .flag = "gap", .param = "gaps", .repeatable = 1, .metavar = "LO:HI",
      .help = "a link's gap interval, ms: once for every link, or once per link" },
    { .flag = "interval", .param = "interval", .metavar = "KIND",
      .help = "open-closed (lo < gap <= hi, the default) or closed" },
    { .flag = "time-precision", .param = "precision", .metavar = "P",
      .help = "double (the default) or float" },
    { .flag = "support", .param = "support", .metavar = "N",
      .help = "mine level-wise: the episodes counted at least N times" },
    { .flag = "level", .param = "level", .metavar = "N",
      .help = "the level counted, or the last level mined" },
    { .flag = "links", .param = "links", .metavar = "HOW",
      .help = "mining with several --gap: per-position (the default) or any" },
    { 0 },
};

static const dm_variant ep_variants[] = {
    { .name = "cpu", .description = "Algorithm 1 over the episodes, one thread",
      .needs_gpu = 0, .supports = ep_cpu_supports, .setup = ep_cpu_setup,
      .run = ep_sync_run, .output = ep_sync_output, .teardown = ep_sync_teardown },
    { .name = "cpu-mt", .description = "Algorithm 1 across episodes on all cores (pthreads)",
      .needs_gpu = 0, .params = ep_cpu_mt_params, .supports = ep_cpu_supports,
      .setup = ep_cpu_mt_setup, .run = ep_sync_run, .output = ep_sync_output,
      .teardown = ep_sync_teardown },
    { .name = "cpu-twopass", .description = "mining: PreElim's bound then Algorithm 1 on "
                                            "the survivors, each across all cores",
      .needs_gpu = 0, .params = ep_cpu_mt_params, .supports = ep_cpu_twopass_supports,
      .setup = ep_cpu_twopass_setup, .run = ep_sync_run, .output = ep_sync_output,
      .teardown = ep_sync_teardown },
    { .name = "cpu-prefix", .description = "each episode from its prefix's occurrences "
                                           "(beyond the papers), across all cores",
      .needs_gpu = 0, .params = ep_cpu_mt_params, .supports = ep_cpu_supports,
      .setup = ep_cpu_prefix_setup, .run = ep_sync_run, .output = ep_sync_output,
      .teardown = ep_sync_teardown },
    { .name = "ptpe", .description = "a thread per episode, Algorithm 1 over the stream",
      .needs_gpu = 1, .params = ep_ptpe_params, .supports = ep_gpu_supports,
      .setup = ep_ptpe_setup, .run = ep_gpu_run, .output = ep_gpu_output,
      .teardown = ep_gpu_teardown },
    { .name = "mtpe", .description = "threads per episode: R segments x K machines, then "
                                     "the log-step merge",
      .needs_gpu = 1, .params = ep_mtpe_params, .supports = ep_gpu_supports,
      .setup = ep_mtpe_setup, .run = ep_gpu_run, .output = ep_gpu_output,
      .teardown = ep_gpu_teardown },
    { .name = "hybrid", .description = "PTPE above switch_at episodes, else MTPE "
                                       "(Algorithm 2)",
      .needs_gpu = 1, .params = ep_hybrid_params, .supports = ep_gpu_supports,
      .resolve = ep_hybrid_resolve, .setup = ep_hybrid_setup, .run = ep_gpu_run,
      .output = ep_gpu_output, .teardown = ep_gpu_teardown },
    { .name = "twopass", .description = "mining: PreElim's bound first, then hybrid on "
                                        "the survivors (Algorithm 4)",
      .needs_gpu = 1, .params = ep_hybrid_params, .supports = ep_gpu_supports,
      .resolve = ep_hybrid_resolve, .setup = ep_twopass_setup, .run = ep_gpu_run,
      .output = ep_gpu_output, .teardown = ep_gpu_teardown },
    { .name = "preelim", .description = "the relaxed count (Algorithm 3), a thread per "
                                        "episode, one time per node",
      .needs_gpu = 1, .params = ep_preelim_params, .fixed = "relax=1",
      .supports = ep_preelim_supports,
      .setup = ep_preelim_setup, .run = ep_gpu_run, .output = ep_gpu_output,
      .teardown = ep_gpu_teardown },
    { .name = "prefix", .description = "each episode from its prefix's occurrences (beyond "
                                       "the papers), a block a step",
      .needs_gpu = 1, .params = ep_prefix_params, .supports = ep_prefix_supports,
      .setup = ep_prefix_setup, .run = ep_sync_run, .output = ep_sync_output,
      .teardown = ep_sync_teardown },
    { .name = "multigpu", .description = "mining over several GPUs: each level's candidates "
                                         "split evenly, PTPE or two-pass on each GPU, or "
                                         "by their prefixes, by prefix on each GPU",
      .needs_gpu = 1, .multi_gpu = 1, .params = ep_multigpu_params,
      .supports = ep_multigpu_supports, .setup = ep_multigpu_setup, .run = ep_multigpu_run,
      .output = ep_multigpu_output, .teardown = ep_multigpu_teardown },
    { 0 },
};

const dm_workload episodes_workload = {
    .name = "episodes",
    .description = "frequent episode mining in spike trains: non-overlapped counts of "
                   "serial episodes with gap intervals (Cao et al.)",
    .generators = ep_generators,
    .dataset_params = ep_dataset_params,
    .problem_params = ep_problem_params,
    .dataset_open = ep_dataset_open,
    .dataset_close = ep_dataset_close,
    .reference = ep_reference,
    .reference_free = ep_reference_free,
    .compare = ep_compare,
    .write_result = ep_write_result,
    .facts = ep_facts,
    .work = ep_work,
    .variants = ep_variants,
    .tuned = dm_tuned_table,
    .fits = dm_crossover_fit_table,
    .study = &episodes_study,
    .mine_options = ep_mine_options,
    .card_tuning = &episodes_card_tuning,
};
