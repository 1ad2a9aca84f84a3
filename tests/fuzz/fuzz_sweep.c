/* fuzz_sweep.c - libFuzzer target: the sweep parser (YAML through libfyaml, axes, ranges,
 * constraints, measure and metrics blocks) and the expansion of what it accepts, over a
 * stand-in registry of one workload with integer, real and enumerated parameters, so no
 * kernel is linked. Every input must parse and expand or fail with a one-line message. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_loader.h"
#include "sweep.h"

static const char *const fz_generators[] = {"random", "planted", NULL};
static const dm_param_spec fz_dataset_params[] = {
    {.name = "n", .type = DM_P_INT, .def = "64", .allowed = "1..4096"},
    {.name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0.."},
    {0},
};
static const dm_param_spec fz_problem_params[] = {
    {.name = "op", .type = DM_P_ENUM, .def = "copy", .allowed = "copy|scale|triad"},
    {.name = "rate", .type = DM_P_REAL, .def = "0.5", .allowed = "0..1"},
    {0},
};
static const dm_param_spec fz_kernel_params[] = {
    {.name = "block", .type = DM_P_INT, .def = "256", .allowed = "1..1024"},
    {0},
};
static const dm_variant fz_variants[] = {
    {.name = "cpu"},
    {.name = "kernel", .needs_gpu = 1, .params = fz_kernel_params},
    {0},
};
static const dm_workload fz_workload = {
    .name = "fuzz",
    .generators = fz_generators,
    .dataset_params = fz_dataset_params,
    .problem_params = fz_problem_params,
    .variants = fz_variants,
};
const dm_workload *const dm_registered_workloads[] = {&fz_workload, NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    char *text = malloc(n + 1);
    if (!text)
        return 0;
    memcpy(text, data, n);
    text[n] = '\0';
    dm_sweep *s = NULL;
    dm_err err = {0};
    int rc = sweep_parse_string(text, "fuzz.yaml", &s, &err);
    fuzz_check(rc, &err);
    if (rc == 0) {
        dm_expansion e = {0};
        dm_err xerr = {0};
        int xrc = sweep_expand(s, NULL, &e, &xerr);
        fuzz_check(xrc, &xerr);
        if (xrc == 0)
            sweep_expansion_free(&e);
        sweep_free(s);
    }
    free(text);
    return 0;
}
