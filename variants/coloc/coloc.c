/* coloc.c - the variants of spatial colocation mining (Sainju & Jiang 2017, after Huang,
 * Shekhar & Xiong 2004) and the workload's table. cpu is the paper's CPU baseline,
 * Huang et al.'s algorithm on one thread: the multi-resolution filter (M), instance
 * tables from the grid for size 2 and by sort-merge joins above. cpu-mt is the same miner
 * across all cores with the cell-aggregate filter (C) by default, the faster of the two
 * on the synthetic sets. The GPU variants (MG, MH, CG, CH, none) come next. */
#include <stdlib.h>

#include "coloc/cl_workload.h"
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

/* ---- the table ------------------------------------------------------------------ */

static const char *const cl_generators[] = { "synthetic", NULL };

static const dm_param_spec cl_dataset_params[] = {
    { .name = "instances", .type = DM_P_INT, .def = "250000", .allowed = "100..100000000",
      .help = "synthetic: points in all (each feature instances / features of them)" },
    { .name = "clumpiness", .type = DM_P_INT, .def = "1", .allowed = "1..1000",
      .help = "synthetic: row instances of a pattern overlaid in one neighbourhood" },
    { .name = "area", .type = DM_P_REAL, .def = "10000", .allowed = "100..1000000",
      .help = "synthetic: side of the square study area (patterns are planted in "
              "squares of 0.7 x the paper's d = 10)" },
    { .name = "max_size", .type = DM_P_INT, .def = "5", .allowed = "2..16",
      .help = "synthetic: features of each maximal pattern" },
    { .name = "patterns", .type = DM_P_INT, .def = "2", .allowed = "1..32",
      .help = "synthetic: maximal patterns, on disjoint features (patterns x max_size + "
              "noise_features is at most 64)" },
    { .name = "noise_features", .type = DM_P_INT, .def = "2", .allowed = "0..62",
      .help = "synthetic: features in no pattern, spread uniformly" },
    { .name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0..4294967295",
      .help = "synthetic: seed of the generator" },
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
    { 0 },
};

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
};
