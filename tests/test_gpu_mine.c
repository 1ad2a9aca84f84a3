/* test_gpu_mine.c - `dmbench mine` on the GPU: every GPU variant of tdm writes the same
 * CSV as the cpu variant on the same point; episodes' preelim says its counts are upper
 * bounds; and the GPU's limits and index are input errors. Exits 77 (skip) without a
 * GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "cli_fixture.h"
#include "registry.h"

/* The problems mined: a length off a multiple of 16 (the padded tail), and level 3. */
static const char *const problems[] = {
    "-p length=100003 -p level=2 -p seed=5",
    "-p length=30011 -p level=3 -p seed=6",
};

static void every_gpu_variant_writes_the_cpu_variants_csv(void **state)
{
    fixture *f = *state;
    dm_err err = {0};
    const dm_workload *w = registry_workload("tdm", &err);
    char cpu_csv[192], csv[192];
    int mined = 0;
    assert_non_null(w);
    snprintf(cpu_csv, sizeof cpu_csv, "%s/cpu.csv", f->dir);
    snprintf(csv, sizeof csv, "%s/gpu.csv", f->dir);
    for (size_t p = 0; p < sizeof problems / sizeof *problems; p++) {
        assert_int_equal(dmbench(f, "mine tdm -v cpu %s --out %s", problems[p], cpu_csv), 0);
        char *want = strdup(slurp(cpu_csv));
        assert_non_null(want);
        for (const dm_variant *v = w->variants; v->name; v++) {
            if (!v->needs_gpu)
                continue;
            /* a switch point of its own, so the test needs no stored crossover fit: level
             * 2's 650 episodes run the kernel below it, level 3's 15600 the one above */
            const char *extra = registry_param(w, v, "switch_at") ? "-p switch_at=1000" : "";
            int rc = dmbench(f, "mine tdm -v %s %s %s --out %s", v->name, problems[p], extra,
                             csv);
            if (rc != 0)
                fail_msg("mine tdm -v %s %s: exit %d: %s", v->name, problems[p], rc,
                         slurp(f->errf));
            if (strcmp(slurp(csv), want) != 0)
                fail_msg("mine tdm -v %s %s: its CSV differs from the cpu variant's", v->name,
                         problems[p]);
            mined++;
        }
        free(want);
    }
    fprintf(stderr, "%d GPU mining runs matched the cpu variant's CSV\n", mined);
    assert_true(mined > 0);
}

/* preelim counts the relaxed problem: its CSV starts with "# upper bounds: ..." and
 * stderr says so, verified or not; beyond that line, the cpu variant's relaxed counts. */
static void preelim_says_its_counts_are_upper_bounds(void **state)
{
    fixture *f = *state;
    char cpu_csv[192], csv[192];
    snprintf(cpu_csv, sizeof cpu_csv, "%s/cpu.csv", f->dir);
    snprintf(csv, sizeof csv, "%s/preelim.csv", f->dir);
    assert_int_equal(dmbench(f, "mine episodes -v cpu -p seconds=5 -p level=2 -p relax=1 "
                                "--out %s", cpu_csv), 0);
    char *want = strdup(slurp(cpu_csv));
    assert_non_null(want);
    assert_true(strncmp(want, "# upper bounds: ", 16) == 0);
    const char *const verify[] = { "", "--no-verify" };
    for (int k = 0; k < 2; k++) {
        assert_int_equal(dmbench(f, "mine episodes -v preelim -p seconds=5 -p level=2 %s "
                                    "--out %s", verify[k], csv), 0);
        assert_string_equal(slurp(csv), want);
        assert_non_null(strstr(slurp(f->errf), "not exact (the CSV says so in its first "
                                               "line): upper bounds: "));
    }
    free(want);
}

static void gpu_limits_and_index_are_input_errors(void **state)
{
    fixture *f = *state;
    int n = 0;
    assert_int_equal(cudaGetDeviceCount(&n), cudaSuccess);
    assert_int_equal(dmbench(f, "mine tdm -v thread-tex -p length=1000 -p block=4096"), 2);
    assert_non_null(strstr(slurp(f->errf), "does not run this point: block 4096 exceeds the "
                                           "device's"));
    char want[128];
    snprintf(want, sizeof want, "device %d: there %s %d GPU%s (0..%d)", n, n == 1 ? "is" : "are",
             n, n == 1 ? "" : "s", n - 1);
    assert_int_equal(dmbench(f, "mine tdm -v thread-tex -p length=1000 --device %d", n), 2);
    assert_non_null(strstr(slurp(f->errf), want));
    assert_string_equal(slurp(f->out), "");
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_mine: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(every_gpu_variant_writes_the_cpu_variants_csv, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(preelim_says_its_counts_are_upper_bounds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(gpu_limits_and_index_are_input_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
