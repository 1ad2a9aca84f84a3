/* episodes.c - the variants of frequent episode mining in spike trains (Cao et al.) and
 * the workload's table. cpu is Algorithm 1 over the point's episodes on one thread (the
 * papers' serial baseline); cpu-mt counts them across every core (the papers' CPU
 * column). The GPU variants (PTPE, MTPE, hybrid, PreElim, two-pass, multi-GPU) come next
 * (issue 12). */
#include <stdlib.h>

#include "episodes/ep_workload.h"
#include "fits.h"
#include "tuned.h"

extern const dm_study episodes_study;

/* ---- cpu, cpu-mt ------------------------------------------------------------------- */

typedef struct ep_cpu_state {
    const ep_stream *s;
    ep_count_ctx ctx;   /* mt 0 for cpu: one thread, no pool */
    int mine;           /* support > 0: run mines, with spec */
    ep_mine_spec spec;
    ep_mine_result m;   /* the point's episodes and counts, or what the mining found */
    ep_result out;
} ep_cpu_state;

static void ep_cpu_teardown(void *state)
{
    ep_cpu_state *s = state;
    if (!s)
        return;
    ep_mine_result_free(&s->m);
    free(s);
}

/* The point's episodes and room for their counts, or its mining spec. */
static int ep_cpu_prepare(const dm_dataset *ds, const dm_point *pt, int mt, void **state,
                          dm_err *err)
{
    const ep_data *d = ds->data;
    ep_cpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    s->s = &d->s;
    s->ctx = (ep_count_ctx){.s = &d->s, .iv = ep_point_interval(pt), .mt = mt,
                            .threads = mt ? (int)dm_point_int(pt, "threads") : 1};
    s->mine = dm_point_int(pt, "support") > 0;
    if (s->mine) {
        if (ep_point_mine_spec(pt, &s->spec, err) != 0)
            goto fail;
    } else {
        if (ep_candidates(&d->s, pt, &s->m.eps, &s->m.n, err) != 0)
            goto fail;
        if (!(s->m.counts = calloc((size_t)(s->m.n ? s->m.n : 1), sizeof *s->m.counts))) {
            dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for the counts");
            goto fail;
        }
    }
    s->out = ep_result_of(&d->s, &s->m);
    *state = s;
    return 0;
fail:
    ep_cpu_teardown(s);
    return err->code;
}

static int ep_cpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        void **state, dm_err *err)
{
    (void)ex;
    return ep_cpu_prepare(ds, pt, 0, state, err);
}

static int ep_cpu_mt_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    (void)ex;
    return ep_cpu_prepare(ds, pt, 1, state, err);
}

/* Counts the point's episodes, or mines (the candidates' generation is then timed with
 * the counting, as it is part of the mining). */
static int ep_cpu_run(void *state, dm_err *err)
{
    ep_cpu_state *s = state;
    if (!s->mine)
        return ep_count_cb(&s->ctx, s->m.eps, s->m.n, s->m.counts, err);
    ep_mine_result_free(&s->m);
    int rc = ep_mine(s->s, &s->spec, ep_count_cb, &s->ctx, &s->m, err);
    s->out = ep_result_of(s->s, &s->m);
    return rc;
}

static int ep_cpu_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    ep_cpu_state *s = state;
    *out = &s->out;
    return 0;
}

/* ---- the table ------------------------------------------------------------------ */

static const char *const ep_generators[] = { "sym26", NULL };

static const dm_param_spec ep_dataset_params[] = {
    { .name = "seconds", .type = DM_P_REAL, .def = "60", .allowed = "1..100000",
      .help = "sym26: seconds of recording" },
    { .name = "basal_hz", .type = DM_P_REAL, .def = "20", .allowed = "1..1000",
      .help = "sym26: basal firing rate of each neuron, Hz" },
    { .name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0..",
      .help = "sym26: seed of the generator" },
    { 0 },
};

static const dm_param_spec ep_problem_params[] = {
    { .name = "level", .type = DM_P_INT, .def = "2", .allowed = "1..16",
      .help = "episode length N: every serial episode of N event types is counted" },
    { .name = "count", .type = DM_P_INT, .def = "0", .allowed = "0..16777216",
      .help = "count only the first episodes of the level, in type order (0: all)" },
    { .name = "gap_lo_ms", .type = DM_P_REAL, .def = "4", .allowed = "0..",
      .help = "each link's gap interval: lower end, ms" },
    { .name = "gap_hi_ms", .type = DM_P_REAL, .def = "6", .allowed = "0..",
      .help = "each link's gap interval: upper end, ms" },
    { .name = "interval", .type = DM_P_ENUM, .def = "open-closed",
      .allowed = "open-closed|closed",
      .help = "open-closed: lo < gap <= hi (the papers'); closed: lo <= gap <= hi" },
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

/* Refuses an ill-posed problem (ep_point_check). */
static int ep_cpu_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    (void)dev;
    return ep_point_check(pt, why, n);
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
      .run = ep_cpu_run, .output = ep_cpu_output, .teardown = ep_cpu_teardown },
    { .name = "cpu-mt", .description = "Algorithm 1 across episodes on all cores (pthreads)",
      .needs_gpu = 0, .params = ep_cpu_mt_params, .supports = ep_cpu_supports,
      .setup = ep_cpu_mt_setup, .run = ep_cpu_run, .output = ep_cpu_output,
      .teardown = ep_cpu_teardown },
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
    .variants = ep_variants,
    .tuned = dm_tuned_table,
    .fits = dm_crossover_fit_table,
    .study = &episodes_study,
    .mine_options = ep_mine_options,
};
