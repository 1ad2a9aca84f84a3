/* rules_variants.c - the variants of association-rule evaluation (Cano, Luna & Ventura 2013) and
 * the workload's table. cpu is the stack interpreter on one thread (the paper's "CPU");
 * cpu-mt runs it across (rule, block of instances) items on every core (its "4 CPUs").
 * Both give, per rule, the coverage, the contingency table, every token's support and
 * the five measures. serial and concurrent are the paper's GPU model (Sect. 5: coverage,
 * reduction and fitness kernels, rl_gpu.cu), its stages one after another on one stream
 * or antecedents, consequents and fitness on streams of their own (Fig. 3). multigpu
 * splits the instances across the run's GPUs, either pipeline on each (its "2 GPUs"). */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fits.h"
#include "rules/rl_bitmap.h"
#include "rules/rl_gpu.h"
#include "rules/rl_gpu_eval.h"
#include "registry.h"
#include "rules/rl_gpu_multi.h"
#include "tuned.h"

extern const dm_study rules_study; /* rules_study.c */

/* ---- cpu, cpu-mt ------------------------------------------------------------------ */

static int rl_cpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        void **state, dm_err *err)
{
    (void)ex;
    return rl_evaluation_open(ds, pt, 1, (rl_eval_point **)state, err);
}

static int rl_cpu_mt_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    (void)ex;
    return rl_evaluation_open(ds, pt, (int)dm_point_int(pt, "threads"),
                              (rl_eval_point **)state, err);
}

static int rl_cpu_run(void *state, dm_err *err)
{
    return rl_evaluation_run(state, err);
}

static int rl_cpu_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    rl_eval_point *e = state;
    *out = &e->out;
    return 0;
}

static void rl_cpu_teardown(void *state)
{
    rl_evaluation_free(state);
}

/* ---- serial, concurrent, bitmap ---------------------------------------------------- */

/* Refuses a per_thread the coverage kernel is not built for. */
static int rl_per_thread_refused(const dm_point *pt, char *why, size_t n)
{
    int64_t k = dm_point_int(pt, "per_thread");
    if (k != 1 && k != 2 && k != 4 && k != 32) {
        snprintf(why, n, "per_thread %" PRId64 ": the coverage kernel takes 1, 2, 4 or 32 "
                 "instances a thread", k);
        return 1;
    }
    return 0;
}

/* Refuses a block that is not whole warps (the coverage kernel's ballots need them) or
 * that the device or the kernels' registers do not allow, and a per_thread the coverage
 * kernel is not built for. */
static int rl_gpu_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    return rl_per_thread_refused(pt, why, n) ||
           dm_point_block_refused(pt, dev, rl_gpu_max_block(), why, n);
}

/* bitmap: a block of whole warps that the device and the rules kernel allow. */
static int rl_bitmap_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    return dm_point_block_refused(pt, dev, rl_bm_max_block(), why, n);
}

/* multigpu: a per_thread the coverage kernel is not built for, whatever the pipeline, and
 * what the variant of its pipeline refuses. */
static int rl_multigpu_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    if (strcmp(dm_point_str(pt, "pipeline"), "bitmap") != 0)
        return rl_gpu_supports(pt, dev, why, n);
    return rl_per_thread_refused(pt, why, n) || rl_bitmap_supports(pt, dev, why, n);
}

/* serial, concurrent, bitmap: the point's rule set and its evaluation on the whole table. */
typedef struct rl_gpu_state {
    rl_ruleset rs;
    rl_gpu_eval *g;
} rl_gpu_state;

static void rl_gpu_teardown(void *state)
{
    rl_gpu_state *s = state;
    rl_gpu_free(s->g);
    rl_ruleset_free(&s->rs);
    free(s);
}

static int rl_gpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        const char *pipeline, void **state, dm_err *err)
{
    rl_gpu_state *s = calloc(1, sizeof *s);
    *state = NULL;
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    rl_gpu_opts o;
    rl_gpu_opts_of(pt, pipeline, &o);
    int rc = rl_point_rules(ds->data, pt, &s->rs, err);
    if (!rc)
        rc = rl_gpu_open(ds->data, &s->rs, &o, ex->stream, &s->g, err);
    if (rc) {
        rl_gpu_teardown(s);
        return rc;
    }
    *state = s;
    return 0;
}

static int rl_serial_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    return rl_gpu_setup(ex, ds, pt, "serial", state, err);
}

static int rl_concurrent_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                               void **state, dm_err *err)
{
    return rl_gpu_setup(ex, ds, pt, "concurrent", state, err);
}

static int rl_bitmap_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    return rl_gpu_setup(ex, ds, pt, "bitmap", state, err);
}

static int rl_gpu_variant_run(void *state, dm_err *err)
{
    return rl_gpu_run(((rl_gpu_state *)state)->g, err);
}

static int rl_gpu_variant_output(void *state, const void **out, dm_err *err)
{
    return rl_gpu_output(((rl_gpu_state *)state)->g, (const rl_answer **)out, err);
}

/* ---- multigpu ---------------------------------------------------------------------- */

static int rl_multigpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                             void **state, dm_err *err)
{
    rl_gpu_opts o;
    rl_gpu_opts_of(pt, dm_point_str(pt, "pipeline"), &o);
    return rl_gpu_multi_open(ds->data, pt, ex, (int)dm_point_int(pt, "gpus"), &o,
                             (rl_gpu_multi **)state, err);
}

/* The point of the one-GPU variant that multigpu's pt runs on each GPU (its pipeline), in
 * vp: that variant's defaults, pt's values of what they share, and the instances of pt's
 * largest slice. */
static void rl_pipeline_point(const dm_point *pt, dm_point *vp)
{
    const dm_variant *v = registry_variant(pt->workload, dm_point_str(pt, "pipeline"), NULL);
    /* every pipeline is a variant of rules, whose defaults parse (test_registry) */
    int rc = v ? registry_point_defaults(pt->workload, v, vp, NULL) : DM_EINPUT;
    assert(rc == 0);
    (void)rc;
    for (int i = 0; i < vp->nparams; i++) {
        const dm_value *own = dm_point_get(pt, vp->specs[i]->name);
        if (own && strcmp(vp->specs[i]->name, "block") != 0)
            vp->values[i] = *own;
    }
    const int64_t gpus = dm_point_int(pt, "gpus"), n = dm_point_int(pt, "instances");
    dm_point_set_int(vp, "instances", (n + gpus - 1) / gpus);
}

/* At expansion: an open block (0) becomes the block chosen on dev for the pipeline's
 * variant at a slice's instances (tuned_lookup: this card's store, then the shipped
 * table), else that variant's default; the rule noted in the point. */
static void rl_multigpu_resolve(dm_point *pt, const dm_device *dev)
{
    char how[DM_HOW_MAX];
    dm_point vp;
    int64_t block;
    if (dm_point_int(pt, "block") != 0)
        return;
    rl_pipeline_point(pt, &vp);
    block = dm_point_int(&vp, "block");
    snprintf(how, sizeof how, "%s's default: no tuning of it for a slice on this card or "
             "its architecture", vp.variant->name);
    if (dev)
        tuned_lookup(&vp, NULL, dev, "block", &block, how, sizeof how);
    dm_point_set_int(pt, "block", block);
    dm_point_note_choice(pt, "block", "%lld, %s's block at %lld instances: %s",
                         (long long)block, vp.variant->name,
                         (long long)dm_point_int(&vp, "instances"), how);
}

static int rl_multigpu_run(void *state, dm_err *err)
{
    return rl_gpu_multi_run(state, err);
}

static int rl_multigpu_output(void *state, const void **out, dm_err *err)
{
    return rl_gpu_multi_output(state, (const rl_answer **)out, err);
}

static void rl_multigpu_teardown(void *state)
{
    rl_gpu_multi_free(state);
}

/* ---- the table ------------------------------------------------------------------ */

static const char *const rl_generators[] = {"synthetic", "poker", NULL};

/* Every dataset parameter describes the generators' tables: a point on a file has none
 * of them (registry_point_on_file), its table's shape being what was loaded. */
static const dm_param_spec rl_dataset_params[] = {
    {.name = "instances", .type = DM_P_INT, .def = "1025010", .allowed = "1..100000000",
     .help = "rows generated (1,025,010: the paper's Poker set)", .generated = 1,
     .tune = DM_TUNE_SIZE },
    {.name = "attributes", .type = DM_P_INT, .def = "10", .allowed = "1..1000",
     .help = "synthetic: numeric columns uniform in [0, 1) (poker has its own 10 and the "
             "class)", .generated = 1},
    {.name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0..",
     .help = "seed of the generator", .generated = 1, .tune = DM_TUNE_ANY },
    {0},
};

static const dm_param_spec rl_problem_params[] = {
    {.name = "rules", .type = DM_P_INT, .def = "25", .allowed = "1..100000",
     .help = "rules generated (rules_file -)", .tune = DM_TUNE_SIZE },
    {.name = "symbols", .type = DM_P_INT, .def = "58", .allowed = "2..1000",
     .help = "RPN tokens of each generated rule, antecedent and consequent (58: the "
             "paper's Table 4, GPops over instances x rules)"},
    {.name = "rule_seed", .type = DM_P_INT, .def = "1", .allowed = "0..",
     .help = "seed of the rule generator"},
    {.name = "rules_file", .type = DM_P_ENUM, .def = "-",
     .help = "-: generate the rules; else a rules file (one a line, IF ... THEN ...), its "
             "rules evaluated"},
    {0},
};

static const dm_param_spec rl_cpu_mt_params[] = {
    {.name = "threads", .type = DM_P_INT, .def = "0", .allowed = "0..4096",
     .help = "threads (0: every online core)"},
    {0},
};

/* The paper's pipelines' coverage shape, at default def_. */
#define RL_PER_THREAD_PARAM(def_)                                                         \
    {.name = "per_thread", .type = DM_P_INT, .def = def_, .allowed = "1..32",             \
     .help = "instances each coverage thread interprets a token for: 1 (the paper's "     \
             "thread per instance), 2 or 4 (a token decoded once for them), or 32 (the "  \
             "bits of one word, an operator one instruction on it)"}

/* The GPU variants' threads per block and coverage's shape. */
static const dm_param_spec rl_gpu_params[] = {
    {.name = "block", .type = DM_P_INT, .def = "256", .allowed = "32..1024",
     .help = "threads per block of the kernels, a multiple of 32 (the paper chose 256 of "
             "128, 256 and 512 by occupancy)"},
    RL_PER_THREAD_PARAM("4"),
    {0},
};

/* The bitmap evaluation's chunk of instances. */
#define RL_CHUNK_PARAM                                                                    \
    {.name = "chunk", .type = DM_P_INT, .def = "0", .allowed = "0..100000000",            \
     .help = "instances whose conditions' bitmaps are made and used before the next "     \
             "ones', rounded up to 8,192 (0: all, unless their bitmaps would take more "     \
             "than a quarter of the GPU's memory)"}

static const dm_param_spec rl_bitmap_params[] = {
    {.name = "block", .type = DM_P_INT, .def = "256", .allowed = "32..1024",
     .help = "threads per block of the rules kernel, a multiple of 32: a warp a rule"},
    RL_CHUNK_PARAM,
    {0},
};

static const dm_param_spec rl_multigpu_params[] = {
    {.name = "gpus", .type = DM_P_INT, .def = "1", .allowed = "1..16",
     .help = "GPUs the instances are split across, a contiguous slice each: the first of "
             "the run's (run --devices)"},
    {.name = "block", .type = DM_P_INT, .def = "0", .allowed = "0..1024",
     .help = "threads per block of the pipeline's kernels, a multiple of 32 (0: the block "
             "chosen on this card for the pipeline's variant at a slice's instances, "
             "per-card store then shipped, else that variant's default)"},
    /* 32: the fastest of the paper's pipelines on one GPU (docs/rules-gpu.md) */
    RL_PER_THREAD_PARAM("32"),
    /* bitmap: the fastest evaluation on one GPU (docs/records/rules-bitmap.md) */
    {.name = "pipeline", .type = DM_P_ENUM, .def = "bitmap",
     .allowed = "serial|concurrent|bitmap",
     .help = "each GPU's evaluation, as the variant of that name runs it (per_thread: "
             "serial and concurrent; chunk: bitmap); bitmap, the fastest on one GPU"},
    RL_CHUNK_PARAM,
    {0},
};

static const dm_mine_option rl_mine_options[] = {
    {.flag = "rules", .param = "rules_file", .metavar = "FILE",
     .help = "evaluate the rules of FILE (one a line, IF a1 <= 3.5 THEN class = 1)"},
    {.flag = "generate", .param = "rules", .metavar = "N",
     .help = "generate N rules (without --rules)"},
    {.flag = "seed", .param = "rule_seed", .metavar = "S",
     .help = "seed of the generated rules"},
    {0},
};

static const dm_variant rl_variants[] = {
    {.name = "cpu", .description = "the RPN stack interpreter, one thread (the paper's CPU)",
     .needs_gpu = 0, .setup = rl_cpu_setup, .run = rl_cpu_run, .output = rl_cpu_output,
     .teardown = rl_cpu_teardown},
    {.name = "cpu-mt",
     .description = "the interpreter across rules and blocks of instances on all cores",
     .needs_gpu = 0, .params = rl_cpu_mt_params, .setup = rl_cpu_mt_setup,
     .run = rl_cpu_run, .output = rl_cpu_output, .teardown = rl_cpu_teardown},
    {.name = "serial",
     .description = "coverage, reduction and fitness kernels one after another on one "
                    "stream, copies waited for (the paper's serial GPU model)",
     .needs_gpu = 1, .params = rl_gpu_params, .supports = rl_gpu_supports,
     .setup = rl_serial_setup, .run = rl_gpu_variant_run, .output = rl_gpu_variant_output,
     .teardown = rl_gpu_teardown},
    {.name = "concurrent",
     .description = "antecedents, consequents and fitness in streams of their own, "
                    "asynchronous copies from pinned memory (the paper's Fig. 3)",
     .needs_gpu = 1, .params = rl_gpu_params, .supports = rl_gpu_supports,
     .setup = rl_concurrent_setup, .run = rl_gpu_variant_run, .output = rl_gpu_variant_output,
     .teardown = rl_gpu_teardown},
    {.name = "bitmap",
     .description = "each distinct condition evaluated once into a bitmap, then the rules as "
                    "word-wide logic on them and popcounts (docs/rules-gpu.md)",
     .needs_gpu = 1, .params = rl_bitmap_params, .supports = rl_bitmap_supports,
     .setup = rl_bitmap_setup, .run = rl_gpu_variant_run, .output = rl_gpu_variant_output,
     .teardown = rl_gpu_teardown},
    {.name = "multigpu",
     .description = "the instances split across the run's GPUs, a slice each, their partial "
                    "contingency tables summed on the host (the paper's 2 GPUs)",
     .needs_gpu = 1, .multi_gpu = 1, .params = rl_multigpu_params,
     .supports = rl_multigpu_supports, .resolve = rl_multigpu_resolve, .setup = rl_multigpu_setup, .run = rl_multigpu_run,
     .output = rl_multigpu_output, .teardown = rl_multigpu_teardown},
    {0},
};

const dm_workload rules_workload = {
    .name = "rules",
    .description = "association-rule evaluation: RPN rules' coverage, contingency tables "
                   "and measures over a table (Cano, Luna & Ventura 2013)",
    .generators = rl_generators,
    .dataset_params = rl_dataset_params,
    .problem_params = rl_problem_params,
    .dataset_open = rl_dataset_open,
    .dataset_close = rl_dataset_close,
    .reference = rl_reference,
    .reference_free = rl_reference_free,
    .compare = rl_compare,
    .work = rl_work,
    .write_result = rl_write_result,
    .facts = rl_facts,
    .variants = rl_variants,
    .tuned = dm_tuned_table,
    .fits = dm_crossover_fit_table,
    .study = &rules_study,
    .mine_options = rl_mine_options,
};
