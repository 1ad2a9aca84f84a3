/* test_rules_sweeps.c - the rules sweep files (sweeps/rules-*.yaml: Tables 4, 5 and 6 and
 * the multi-GPU and bitmap sweeps) each parse and expand on an H100-like device to the point count
 * their comments state, none pruned, and every one of them is listed here; the multi-GPU
 * sweep crosses multigpu's GPU counts and pipelines with every instance count. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"

static const struct {
    const char *file;
    size_t points;
} sweeps[] = {
    {"rules-table4.yaml", 672},
    {"rules-table5-abalone.yaml", 32},
    {"rules-table5-house-16h.yaml", 32},
    {"rules-table5-kddcup.yaml", 32},
    {"rules-table5-magic.yaml", 32},
    {"rules-table5-page-blocks.yaml", 32},
    {"rules-table5-poker.yaml", 32},
    {"rules-table5-shuttle.yaml", 32},
    {"rules-table5-spambase.yaml", 32},
    {"rules-table5-thyroid.yaml", 32},
    {"rules-table5-wdbc.yaml", 32},
    {"rules-table6.yaml", 12},
    {"rules-multigpu.yaml", 240},
    {"rules-interpreter.yaml", 24},
    {"rules-bitmap.yaml", 12},
    {"rules-bitmap-table4.yaml", 96},
    {"rules-bitmap-multigpu.yaml", 8},
    {"rules-multigpu-large.yaml", 5},
};
#define NSWEEPS (sizeof sweeps / sizeof *sweeps)

static const dm_device h100 = {.max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                               .sms = 132, .warp_size = 32};

/* Loads and expands sweeps/file on h100. */
static void expand(const char *file, dm_sweep **s, dm_expansion *e)
{
    char path[1024];
    dm_err err = {0};
    snprintf(path, sizeof path, "%s/sweeps/%s", DM_SOURCE_DIR, file);
    if (sweep_load(path, s, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(sweep_workload(*s)->name, "rules");
    if (sweep_expand(*s, &h100, e, &err))
        fail_msg("%s: %s", file, err.msg);
}

static void every_rules_sweep_expands_as_documented(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSWEEPS; i++) {
        dm_sweep *s;
        dm_expansion e;
        expand(sweeps[i].file, &s, &e);
        if (e.n != sweeps[i].points || e.n_pruned != 0)
            fail_msg("%s: %zu points, %zu pruned; the file says %zu, none pruned",
                     sweeps[i].file, e.n, e.n_pruned, sweeps[i].points);
        sweep_expansion_free(&e);
        sweep_free(s);
    }
    /* and no rules sweep is missing from the list */
    DIR *d = opendir(DM_SOURCE_DIR "/sweeps");
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        size_t i = 0;
        if (strncmp(de->d_name, "rules-", 6) != 0)
            continue;
        while (i < NSWEEPS && strcmp(sweeps[i].file, de->d_name) != 0)
            i++;
        if (i == NSWEEPS)
            fail_msg("sweeps/%s is not listed in test_rules_sweeps.c", de->d_name);
    }
    closedir(d);
}

/* rules-multigpu: cpu-mt and serial once per instance count and rule count, multigpu at 1,
 * 2, 4 and 8 GPUs with each pipeline; serial the baseline. */
static void the_multigpu_sweep_crosses_gpus_and_pipelines(void **state)
{
    (void)state;
    dm_sweep *s;
    dm_expansion e;
    int cpu_mt = 0, serial = 0, multi[9][2] = {{0}};
    expand("rules-multigpu.yaml", &s, &e);
    assert_string_equal(sweep_baseline(s)->name, "serial");
    for (size_t i = 0; i < e.n; i++) {
        const dm_point *pt = &e.points[i].point;
        const char *v = pt->variant->name;
        if (strcmp(v, "cpu-mt") == 0) {
            cpu_mt++;
            continue;
        }
        if (strcmp(v, "serial") == 0) {
            serial++;
            continue;
        }
        assert_string_equal(v, "multigpu");
        assert_int_equal(pt->variant->multi_gpu, 1);
        assert_int_equal(dm_point_int(pt, "block"), 256);
        const int64_t gpus = dm_point_int(pt, "gpus");
        assert_true(gpus == 1 || gpus == 2 || gpus == 4 || gpus == 8);
        multi[gpus][strcmp(dm_point_str(pt, "pipeline"), "concurrent") == 0]++;
    }
    assert_int_equal(cpu_mt, 24);
    assert_int_equal(serial, 24);
    for (int g = 1; g <= 8; g *= 2)
        for (int p = 0; p < 2; p++)
            assert_int_equal(multi[g][p], 24);
    sweep_expansion_free(&e);
    sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_rules_sweep_expands_as_documented),
        cmocka_unit_test(the_multigpu_sweep_crosses_gpus_and_pipelines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
