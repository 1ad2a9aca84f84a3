/* coloc_variants.c - the variants of spatial colocation mining (Sainju & Jiang 2017, after Huang,
 * Shekhar & Xiong 2004) and the workload's table. cpu is the paper's CPU baseline,
 * Huang et al.'s algorithm on one thread: the multi-resolution filter (M), instance
 * tables from the grid for size 2 and by sort-merge joins above. cpu-mt is the same miner
 * across all cores with the cell-aggregate filter (C) by default, the faster of the two
 * on the synthetic sets. The GPU variants are the paper's (section 3, cl_gpu.h): filter
 * M or C, then refinement G (grid search) or H (prefix hash join): MG, MH, CG, CH; G is
 * the issue's `none`, no filter and grid search (a name of the same kind: the filter's
 * letter, none here, then the refinement's). */
#include <stdlib.h>

#include "coloc/cl_gpu.h"
#include "coloc/cl_workload.h"
#include "card_choices.h"
#include "fits.h"
#include "tuned.h"

extern const dm_study coloc_study;

typedef struct cl_state {
    cl_mine_opts o;
    cl_answer a;
} cl_state;

static void cl_cpu_teardown(void *state)
{
    cl_state *s = state;
    if (!s)
        return;
    cl_result_free(&s->a.r);
    free(s);
}

/* The state of a CPU variant mining ds with filter on threads threads (0: all cores). */
static int cl_cpu_prepare(const dm_dataset *ds, const dm_point *pt, cl_filter filter,
                          int threads, void **state, dm_err *err)
{
    cl_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "coloc: out of memory");
    s->a.p = ds->data;
    s->o = cl_point_opts(pt, filter, threads);
    *state = s;
    return 0;
}

static int cl_cpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        void **state, dm_err *err)
{
    (void)ex;
    return cl_cpu_prepare(ds, pt, CL_FILTER_MULTIRES, 1, state, err);
}

static int cl_cpu_mt_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    (void)ex;
    cl_filter filter;
    if (cl_filter_named(dm_point_str(pt, "filter"), &filter))
        return dm_err_set(err, DM_EINPUT, "filter=%s: expected one of C|M|none",
                          dm_point_str(pt, "filter"));
    return cl_cpu_prepare(ds, pt, filter, (int)dm_point_int(pt, "threads"), state, err);
}

/* Mines every prevalent pattern: the grid, the instance sets, then level by level. */
static int cl_cpu_run(void *state, dm_err *err)
{
    cl_state *s = state;
    cl_result_free(&s->a.r);
    return cl_mine(s->a.p, &s->o, &s->a.r, err);
}

static int cl_cpu_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    *out = &((cl_state *)state)->a;
    return 0;
}

/* ---- the GPU variants: MG, MH, CG, CH, G -------------------------------------------- */

typedef struct cl_gpu_state {
    cl_gpu *g;
    cl_answer a;
} cl_gpu_state;

static void cl_gpu_teardown(void *state)
{
    cl_gpu_state *s = state;
    if (!s)
        return;
    cl_gpu_close(s->g);
    cl_result_free(&s->a.r);
    free(s);
}

/* The grid and instance sets of ds on the device, for mining with filter and refine. */
static int cl_gpu_prepare(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                          cl_filter filter, cl_refine refine, void **state, dm_err *err)
{
    cl_merge merge;
    if (cl_merge_named(dm_point_str(pt, "merge"), &merge))
        return dm_err_set(err, DM_EINPUT, "merge=%s: expected one of none|sites|twins",
                          dm_point_str(pt, "merge"));
    cl_gpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "coloc: out of memory");
    s->a.p = ds->data;
    const cl_gpu_opts o = {.distance = dm_point_real(pt, "distance"),
                           .prevalence = dm_point_real(pt, "prevalence"),
                           .filter = filter, .refine = refine,
                           .block = (int)dm_point_int(pt, "block"),
                           .slice = (uint64_t)dm_point_int(pt, "slice"),
                           .device_mb = (uint64_t)dm_point_int(pt, "device_mb"),
                           .merge = merge,
                           .stream = ex->stream};
    int rc = cl_gpu_open(s->a.p, &o, &s->g, err);
    if (rc) {
        free(s);
        return rc;
    }
    *state = s;
    return 0;
}

#define CL_GPU_SETUP(name, filter, refine)                                                 \
    static int name(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,           \
                    void **state, dm_err *err)                                             \
    {                                                                                      \
        return cl_gpu_prepare(ex, ds, pt, filter, refine, state, err);                     \
    }
CL_GPU_SETUP(cl_mg_setup, CL_FILTER_MULTIRES, CL_REFINE_GRID)
CL_GPU_SETUP(cl_mh_setup, CL_FILTER_MULTIRES, CL_REFINE_HASH)
CL_GPU_SETUP(cl_cg_setup, CL_FILTER_CELLAGG, CL_REFINE_GRID)
CL_GPU_SETUP(cl_ch_setup, CL_FILTER_CELLAGG, CL_REFINE_HASH)
CL_GPU_SETUP(cl_g_setup, CL_FILTER_NONE, CL_REFINE_GRID)

/* Mines every prevalent pattern, synchronously (each level's candidates are made on the
 * host from the last level's answers). */
static int cl_gpu_run(void *state, dm_err *err)
{
    cl_gpu_state *s = state;
    cl_result_free(&s->a.r);
    return cl_gpu_mine(s->g, &s->a.r, err);
}

static int cl_gpu_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    *out = &((cl_gpu_state *)state)->a;
    return 0;
}

/* Refuses a block that is not whole warps or more than the device launches. */
static int cl_gpu_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    return dm_point_block_refused(pt, dev, 0, why, n);
}

/* ---- the table ------------------------------------------------------------------ */

static const char *const cl_generators[] = { "synthetic", NULL };

/* Every dataset parameter describes the generator's data: a point on a file (the Seattle
 * crimes, say) has none of them (registry_point_on_file). */
static const dm_param_spec cl_dataset_params[] = {
    { .name = "instances", .type = DM_P_INT, .def = "250000", .allowed = "100..100000000",
      .help = "synthetic: points in all (each feature instances / features of them)",
      .generated = 1, .tune = DM_TUNE_SIZE },
    { .name = "clumpiness", .type = DM_P_INT, .def = "1", .allowed = "1..1000",
      .help = "synthetic: row instances of a pattern overlaid in one neighbourhood",
      .generated = 1 },
    { .name = "area", .type = DM_P_REAL, .def = "10000", .allowed = "100..1000000",
      .help = "synthetic: side of the square study area (patterns are planted in "
              "squares of 0.7 x the paper's d = 10)", .generated = 1 },
    { .name = "max_size", .type = DM_P_INT, .def = "5", .allowed = "2..16",
      .help = "synthetic: features of each maximal pattern", .generated = 1 },
    { .name = "patterns", .type = DM_P_INT, .def = "2", .allowed = "1..32",
      .help = "synthetic: maximal patterns, on disjoint features (patterns x max_size + "
              "noise_features is at most 64)", .generated = 1 },
    { .name = "noise_features", .type = DM_P_INT, .def = "2", .allowed = "0..62",
      .help = "synthetic: features in no pattern, spread uniformly", .generated = 1 },
    { .name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0..4294967295",
      .help = "synthetic: seed of the generator", .generated = 1, .tune = DM_TUNE_ANY },
    { 0 },
};

static const dm_param_spec cl_problem_params[] = {
    { .name = "distance", .type = DM_P_REAL, .def = "10", .allowed = "0.001..1000000",
      .help = "d: two instances are neighbours when their distance is at most d" },
    { .name = "prevalence", .type = DM_P_REAL, .def = "0.3", .allowed = "0..1",
      .help = "theta: a pattern is prevalent when its participation index is at least "
              "theta" },
    { 0 },
};

static const dm_param_spec cl_cpu_mt_params[] = {
    { .name = "threads", .type = DM_P_INT, .def = "0", .allowed = "0..4096",
      .help = "threads (0: every online core)" },
    { .name = "filter", .type = DM_P_ENUM, .def = "C", .allowed = "C|M|none",
      .help = "the upper bound that prunes candidates before their instance tables: C "
              "cell aggregates, M multi-resolution (Huang et al.), none" },
    { 0 },
};

static const dm_param_spec cl_gpu_params[] = {
    { .name = "block", .type = DM_P_INT, .def = "256", .allowed = "32..1024",
      .help = "threads per block of every kernel (a multiple of 32)" },
    { .name = "slice", .type = DM_P_INT, .def = "4194304", .allowed = "1..1073741824",
      .help = "rows of a table's input (size 2: instances) one launch takes; a table is "
              "made a slice at a time" },
    { .name = "device_mb", .type = DM_P_INT, .def = "0", .allowed = "0..16777216",
      .help = "MiB of instance tables kept on the device, the rest in host memory, read "
              "back a slice at a time (0: the free memory at setup, less 1/8)" },
    { .name = "merge", .type = DM_P_ENUM, .def = "none", .allowed = "none|sites|twins",
      .help = "each feature's points folded into one weighted instance before mining, "
              "exactly (not in the paper, which keeps every point: none): sites, those at "
              "one place; twins, those with the same neighbours of other features" },
    { 0 },
};

static const dm_mine_option cl_mine_options[] = {
    { .flag = "distance", .param = "distance", .metavar = "D",
      .help = "neighbourhood distance d (default 10)" },
    { .flag = "prevalence", .param = "prevalence", .metavar = "P",
      .help = "prevalence threshold theta, 0 to 1 (default 0.3)" },
    { 0 },
};

static const dm_variant cl_variants[] = {
    { .name = "cpu", .description = "Huang et al.'s baseline: filter M, grid and sort-merge "
                                    "instance tables, one thread",
      .needs_gpu = 0, .setup = cl_cpu_setup, .run = cl_cpu_run, .output = cl_cpu_output,
      .teardown = cl_cpu_teardown },
    { .name = "cpu-mt", .description = "the same miner across all cores, filter C by "
                                       "default",
      .needs_gpu = 0, .params = cl_cpu_mt_params, .setup = cl_cpu_mt_setup,
      .run = cl_cpu_run, .output = cl_cpu_output, .teardown = cl_cpu_teardown },
#define CL_GPU_VARIANT(name_, desc, setup_)                                                \
    { .name = name_, .description = desc, .needs_gpu = 1, .params = cl_gpu_params,          \
      .supports = cl_gpu_supports, .setup = setup_, .run = cl_gpu_run,                     \
      .output = cl_gpu_output, .teardown = cl_gpu_teardown }
    CL_GPU_VARIANT("MG", "GPU: multi-resolution filter, grid search refinement", cl_mg_setup),
    CL_GPU_VARIANT("MH", "GPU: multi-resolution filter, prefix hash join refinement",
                   cl_mh_setup),
    CL_GPU_VARIANT("CG", "GPU: cell-aggregate filter, grid search refinement", cl_cg_setup),
    CL_GPU_VARIANT("CH", "GPU: cell-aggregate filter, prefix hash join refinement",
                   cl_ch_setup),
    CL_GPU_VARIANT("none", "GPU: no filter, grid search refinement",
                   cl_g_setup),
    { 0 },
};

/* `dmbench tune --card`: every kernel's block on the synthetic set and on the Seattle
 * data (docs/coloc.md). */
static const char *const cl_tune_sweeps[] = { "coloc-tune-synthetic", "coloc-tune-seattle",
                                              NULL };
static const dm_card_tuning coloc_card_tuning = { cl_tune_sweeps, NULL };

const dm_workload coloc_workload = {
    .name = "coloc",
    .description = "spatial colocation mining: prevalent patterns of point features and "
                   "their participation indexes (Sainju & Jiang, after Huang et al.)",
    .generators = cl_generators,
    .dataset_params = cl_dataset_params,
    .problem_params = cl_problem_params,
    .dataset_open = cl_dataset_open,
    .dataset_close = cl_dataset_close,
    .reference = cl_reference,
    .reference_free = cl_reference_free,
    .compare = cl_compare,
    .write_result = cl_write_result,
    .facts = cl_facts,
    .variants = cl_variants,
    .tuned = dm_tuned_table,
    .fits = dm_crossover_fit_table,
    .study = &coloc_study,
    .mine_options = cl_mine_options,
    .card_tuning = &coloc_card_tuning,
};
