/* test_episodes_sweeps.c - the multi-GPU mining sweeps parse and expand on an H100-like
 * device as their comments say: the journal's (Figs. 13-16), multigpu at every support,
 * number of GPUs and way of counting, each mining the problem of a cpu-mt point of the
 * same run (so speedups over the baseline compute within it), the one-GPU points never
 * pruned; the large one, prefix and multigpu by prefix on 1 to 8 GPUs, one problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"

static void multigpu_sweep_crosses_gpus_counting_and_support(void **state)
{
    (void)state;
    const dm_device h100 = {.max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                            .smem_per_sm = 233472, .sms = 132, .warp_size = 32};
    static const int64_t supports[] = {30, 40, 60, 100, 200}, gpus[] = {1, 2, 4, 8};
    static const char *const countings[] = {"ptpe", "hybrid", "twopass"};
    char path[1024], key[1024], base[5][1024];
    dm_sweep *s;
    dm_expansion e;
    dm_err err = {0};
    int seen[5][4][3] = {{{0}}}, cpu = 0;
    snprintf(path, sizeof path, "%s/sweeps/episodes-multigpu.yaml", DM_SOURCE_DIR);
    if (sweep_load(path, &s, &err) || sweep_expand(s, &h100, &e, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(sweep_workload(s)->name, "episodes");
    assert_string_equal(sweep_baseline(s)->name, "cpu-mt");
    assert_int_equal(e.n, 5 + 5 * 4 * 3);
    for (size_t i = 0; i < e.n; i++) {
        const dm_point *pt = &e.points[i].point;
        size_t k = 0;
        while (k < 5 && supports[k] != dm_point_int(pt, "support"))
            k++;
        assert_true(k < 5);
        assert_int_equal(dm_point_int(pt, "level"), 8);
        dm_point_problem_key(pt, key, sizeof key);
        if (strcmp(pt->variant->name, "cpu-mt") == 0) {
            snprintf(base[k], sizeof base[k], "%s", key);
            cpu++;
            continue;
        }
        assert_string_equal(pt->variant->name, "multigpu");
        assert_string_equal(key, base[k]); /* cpu-mt's points come first */
        size_t g = 0, c = 0;
        while (g < 4 && gpus[g] != dm_point_int(pt, "gpus"))
            g++;
        while (c < 3 && strcmp(countings[c], dm_point_str(pt, "counting")) != 0)
            c++;
        assert_true(g < 4 && c < 3);
        seen[k][g][c]++;
        if (g == 0 && e.points[i].pruned)
            fail_msg("a one-GPU point pruned: %s", e.points[i].reason);
    }
    assert_int_equal(cpu, 5);
    for (int k = 0; k < 5; k++)
        for (int g = 0; g < 4; g++)
            for (int c = 0; c < 3; c++)
                assert_int_equal(seen[k][g][c], 1);
    sweep_expansion_free(&e);
    sweep_free(s);
}

/* episodes-multigpu-large: prefix, then multigpu by prefix at 1, 2, 4 and 8 GPUs, all on
 * prefix's problem (so the fastest one GPU is in the run), none pruned. */
static void large_sweep_sets_prefix_beside_multigpu_by_prefix(void **state)
{
    (void)state;
    const dm_device h100 = {.max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                            .smem_per_sm = 233472, .sms = 132, .warp_size = 32};
    char path[1024], key[1024], base[1024];
    dm_sweep *s;
    dm_expansion e;
    dm_err err = {0};
    snprintf(path, sizeof path, "%s/sweeps/episodes-multigpu-large.yaml", DM_SOURCE_DIR);
    if (sweep_load(path, &s, &err) || sweep_expand(s, &h100, &e, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(sweep_baseline(s)->name, "prefix");
    assert_int_equal(e.n, 5);
    assert_int_equal(e.n_pruned, 0);
    for (size_t i = 0; i < e.n; i++) {
        const dm_point *pt = &e.points[i].point;
        dm_point_problem_key(pt, key, sizeof key);
        if (i == 0) {
            assert_string_equal(pt->variant->name, "prefix");
            snprintf(base, sizeof base, "%s", key);
            continue;
        }
        assert_string_equal(pt->variant->name, "multigpu");
        assert_string_equal(dm_point_str(pt, "counting"), "prefix");
        assert_int_equal(dm_point_int(pt, "gpus"), (int64_t)1 << (i - 1));
        assert_string_equal(key, base);
    }
    sweep_expansion_free(&e);
    sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(multigpu_sweep_crosses_gpus_counting_and_support),
        cmocka_unit_test(large_sweep_sets_prefix_beside_multigpu_by_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
