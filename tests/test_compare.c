/* test_compare.c - `dmbench compare` verdicts on synthetic sample sets: a clearly slower
 * point, a clearly faster one, one that differs by less than the threshold, one drawn
 * from the same distribution, and points present in one run only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "store_fixture.h"
#include "compare.h"

#define NS 40

static void verdict_needs_both_significance_and_size(void **st)
{
    (void)st;
    dm_compare_opts o = { .alpha = 0.05, .threshold = 0.02 };
    assert_int_equal(compare_verdict(1.0, 1.10, 0.001, 0, 0, &o), DM_SLOWER);
    assert_int_equal(compare_verdict(1.0, 0.90, 0.001, 0, 0, &o), DM_FASTER);
    assert_int_equal(compare_verdict(1.0, 1.01, 0.001, 0, 0, &o), DM_SAME); /* under threshold */
    assert_int_equal(compare_verdict(1.0, 1.10, 0.20, 0, 0, &o), DM_SAME);  /* not significant */
    /* a side that stopped on a limit: the change is not called, unless allowed */
    assert_int_equal(compare_verdict(1.0, 1.10, 0.001, 1, 0, &o), DM_CAPPED);
    assert_int_equal(compare_verdict(1.0, 0.90, 0.001, 0, 1, &o), DM_CAPPED);
    assert_int_equal(compare_verdict(1.0, 1.01, 0.001, 1, 1, &o), DM_SAME);
    o.allow_capped = 1;
    assert_int_equal(compare_verdict(1.0, 1.10, 0.001, 1, 0, &o), DM_SLOWER);
}

static void runs_are_compared_point_by_point(void **state)
{
    afx *f = *state;
    double a[NS], b[NS];
    int64_t ra = afx_run(f, "NVIDIA H100 80GB HBM3", 9, 0);
    int64_t rb = afx_run(f, "NVIDIA H100 80GB HBM3", 9, 0);
    /* block 32: 10 % slower; block 64: 10 % faster; block 128: 1 % slower (under the
     * threshold); block 256: the same samples; block 512 in A only, 1024 in B only */
    const struct { int64_t block; double ta, tb; } pts[] = {
        { 32, 1.0e-3, 1.10e-3 }, { 64, 1.0e-3, 0.90e-3 }, { 128, 1.0e-3, 1.01e-3 },
        { 256, 1.0e-3, 1.0e-3 },
    };
    for (int i = 0; i < 4; i++) {
        afx_samples(a, NS, pts[i].ta, 0.002);
        afx_samples(b, NS, pts[i].tb, 0.002);
        afx_point(f, ra, i, 4096, "copy", pts[i].block, a, NS);
        afx_point(f, rb, i, 4096, "copy", pts[i].block, b, NS);
    }
    afx_point(f, ra, 4, 4096, "copy", 512, a, NS);
    afx_point(f, rb, 4, 4096, "copy", 1024, b, NS);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    dm_compare_opts o = { .alpha = 0.05, .threshold = 0.02 };
    dm_compare_summary sum;
    dm_err err = { 0 };
    assert_int_equal(compare_runs(f->st, ra, rb, &o, out, &sum, &err), 0);
    fclose(out);
    assert_int_equal(sum.matched, 4);
    assert_int_equal(sum.slower, 1);
    assert_int_equal(sum.faster, 1);
    assert_int_equal(sum.same, 2);
    assert_int_equal(sum.only_a, 1);
    assert_int_equal(sum.only_b, 1);
    assert_non_null(strstr(text, "block=32,scale=0.5"));
    assert_non_null(strstr(text, "SLOWER"));
    assert_non_null(strstr(text, "4 matched: 1 faster, 1 slower, 2 same"));
    free(text);

    /* the command exits 1 when a point is slower, 0 the other way round */
    char cmd[256];
    snprintf(cmd, sizeof cmd, DM_BINARY_DIR "/dmbench compare %lld %lld --db %s >/dev/null",
             (long long)ra, (long long)rb, f->path);
    assert_int_equal(WEXITSTATUS(system(cmd)), 1);
    snprintf(cmd, sizeof cmd, DM_BINARY_DIR "/dmbench compare %lld %lld --db %s --threshold 0.2 >/dev/null",
             (long long)ra, (long long)rb, f->path);
    assert_int_equal(WEXITSTATUS(system(cmd)), 0);

    /* B's slower point stopped on its time limit: not a regression unless allowed */
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE point_stats SET stop_reason = 'max_time' WHERE point_id"
             " = (SELECT id FROM points WHERE run_id = %lld AND idx = 0)", (long long)rb);
    assert_int_equal(sqlite3_exec(store_db(f->st), sql, NULL, NULL, NULL), SQLITE_OK);
    out = open_memstream(&text, &len);
    assert_int_equal(compare_runs(f->st, ra, rb, &o, out, &sum, &err), 0);
    fclose(out);
    assert_int_equal(sum.slower, 0);
    assert_int_equal(sum.capped, 1);
    assert_non_null(strstr(text, "capped (a side stopped on a limit)"));
    assert_non_null(strstr(text, "1 changed but not called"));
    free(text);
    snprintf(cmd, sizeof cmd, DM_BINARY_DIR "/dmbench compare %lld %lld --db %s >/dev/null",
             (long long)ra, (long long)rb, f->path);
    assert_int_equal(WEXITSTATUS(system(cmd)), 0);
    snprintf(cmd, sizeof cmd, DM_BINARY_DIR "/dmbench compare %lld %lld --db %s --allow-capped"
             " >/dev/null", (long long)ra, (long long)rb, f->path);
    assert_int_equal(WEXITSTATUS(system(cmd)), 1);
}

static void unknown_run_is_an_input_error(void **state)
{
    afx *f = *state;
    afx_run(f, "card", 9, 0);
    FILE *out = fopen("/dev/null", "w");
    dm_compare_opts o = { .alpha = 0.05, .threshold = 0.02 };
    dm_compare_summary sum;
    dm_err err = { 0 };
    assert_int_equal(compare_runs(f->st, 1, 7, &o, out, &sum, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "no run 7"));
    fclose(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verdict_needs_both_significance_and_size),
        cmocka_unit_test_setup_teardown(runs_are_compared_point_by_point, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(unknown_run_is_an_input_error, afx_setup, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
