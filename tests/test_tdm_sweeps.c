/* test_tdm_sweeps.c - the tdm sweep files (one per figure of the paper, the
 * performance benchmark, the crossovers, the hybrid and the thread kernels' mask tables)
 * parse, and expand on an H100-like device to the point counts their comments state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"

static void test_tdm_sweeps_expand_as_documented(void **state)
{
    (void)state;
    const struct {
        const char *file;
        size_t points, pruned;
    } sweeps[] = {
        {"tdm-perf.yaml", 50, 0}, {"tdm-fig6.yaml", 144, 0}, {"tdm-fig7.yaml", 105, 6},
        {"tdm-fig8.yaml", 63, 0}, {"tdm-fig9.yaml", 396, 0}, {"tdm-crossover.yaml", 110, 10},
        {"tdm-hybrid.yaml", 165, 65}, /* no crossover fit for this card: hybrid pruned */
        {"tdm-thread-table.yaml", 126, 28}, /* constant: level 1 only */
        {"tdm-packed-crossover.yaml", 720, 270}, /* packed at 3 blocks, level 3 to 256 */
    };
    const dm_device h100 = {.max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                            .sms = 132, .warp_size = 32};
    for (size_t i = 0; i < sizeof sweeps / sizeof sweeps[0]; i++) {
        char path[1024];
        dm_sweep *s;
        dm_expansion e;
        dm_err err = {0};
        snprintf(path, sizeof path, "%s/sweeps/%s", DM_SOURCE_DIR, sweeps[i].file);
        if (sweep_load(path, &s, &err))
            fail_msg("%s", err.msg);
        assert_string_equal(sweep_workload(s)->name, "tdm");
        if (sweep_expand(s, &h100, &e, &err))
            fail_msg("%s: %s", sweeps[i].file, err.msg);
        if (e.n != sweeps[i].points || e.n_pruned != sweeps[i].pruned)
            fail_msg("%s: %zu points, %zu pruned; the file says %zu and %zu", sweeps[i].file,
                     e.n, e.n_pruned, sweeps[i].points, sweeps[i].pruned);
        /* ten repetitions at least, as the paper took */
        assert_true(sweep_measure(s)->min_samples >= 10);
        sweep_expansion_free(&e);
        sweep_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tdm_sweeps_expand_as_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
