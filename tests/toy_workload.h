/* toy_workload.h - a workload filled in by hand (no registry, no functions) for the
 * store and show tests: dataset parameter n, problem parameter op, and a cpu and a
 * kernel variant with an int and a real parameter. */
#ifndef DM_TEST_TOY_WORKLOAD_H
#define DM_TEST_TOY_WORKLOAD_H

#include "dm.h"

static const dm_param_spec toy_dataset_params[] = {
    { .name = "n", .type = DM_P_INT, .def = "1024" },
    { 0 },
};
static const dm_param_spec toy_problem_params[] = {
    { .name = "op", .type = DM_P_ENUM, .def = "copy", .allowed = "copy|triad" },
    { 0 },
};
static const dm_param_spec toy_kernel_params[] = {
    { .name = "block", .type = DM_P_INT, .def = "256" },
    { .name = "scale", .type = DM_P_REAL, .def = "0.5" },
    { 0 },
};
static const dm_variant toy_variants[] = {
    { .name = "cpu" },
    { .name = "kernel", .needs_gpu = 1, .params = toy_kernel_params },
    { 0 },
};
static const dm_workload toy = {
    .name = "toy",
    .dataset_params = toy_dataset_params,
    .problem_params = toy_problem_params,
    .variants = toy_variants,
};

#endif
