/* test_calibrate.c - a workload's calibration carried out on the CPU: membw with a
 * calibration of its cpu variant against a plain figure the test chooses is within or
 * outside the tolerance, with the figures and the verdict noted on the run; bad options
 * and a failing plain measurement are errors; and membw's own (GPU) calibration, where
 * there is no GPU (CUDA_VISIBLE_DEVICES=-1), has its points skipped and compares
 * nothing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calibrate.h"
#include "registry.h"
#include "store_fixture.h"

/* What the plain measurement gives (GB/s), or a failure when negative. */
static double plain_gbps;

static int plain(int64_t bytes, int iters, double *gbps, dm_err *err)
{
    assert_true(bytes > 0 && iters > 0);
    if (plain_gbps < 0)
        return dm_err_set(err, DM_ERUNTIME, "plain: the test says no");
    *gbps = plain_gbps;
    return 0;
}

static const char *const cpu_only[] = {"cpu", NULL};

/* membw with a calibration of its cpu variant within tolerance of plain(). */
static dm_workload cpu_calibrated(dm_calibration *c, double tolerance)
{
    *c = (dm_calibration){
        .sweep = "workload: membw\ndataset: { generator: random }\nvariants: [cpu]\n"
                 "axes: { n: %lld, op: [copy, triad] }\n"
                 "measure: { min_samples: 3, max_time: 0.05 }\n",
        .item_bytes = 4, .variants = cpu_only, .key_part = "op=copy",
        .plain_name = "the test's figure", .plain_iters = 1, .plain = plain,
        .tolerance = tolerance};
    dm_workload w = *registry_workload("membw", NULL);
    w.calibration = c;
    return w;
}

static calibrate_opts opts_for(const dm_workload *w, const afx *f)
{
    return (calibrate_opts){.w = w, .device = NULL, .db_path = f->path,
                            .bytes = 1 << 16, .progress = DM_PROGRESS_QUIET};
}

/* The value of run's note key, in buf ("<none>" when there is none). */
static const char *note_of(afx *f, int64_t run, const char *key, char *buf, size_t n)
{
    char sql[192];
    snprintf(sql, sizeof sql, "SELECT value FROM run_notes WHERE run_id = %lld AND key = '%s'",
             (long long)run, key);
    return afx_text(f->st, sql, buf, n);
}

static void test_outside_the_tolerance_is_said_and_noted(void **state)
{
    afx *f = *state;
    dm_calibration c;
    dm_workload w = cpu_calibrated(&c, 0.05);
    calibrate_opts o = opts_for(&w, f);
    calibrate_result r;
    dm_err err = {0};
    char buf[64];
    plain_gbps = 1e-6; /* no CPU copies that slowly */
    assert_int_equal(calibrate_run(&o, &r, &err), 0);
    assert_int_equal(r.failed, 0);
    assert_true(r.plain == 1e-6);
    assert_int_equal(r.n, 1);
    assert_string_equal(r.lines[0].variant, "cpu");
    assert_true(r.lines[0].gbps > 0.01);
    assert_true(r.lines[0].ratio == r.lines[0].gbps / r.plain);
    assert_false(r.lines[0].within);
    assert_false(r.ok);
    /* the best point of the copies, not the triads */
    assert_non_null(strstr(r.lines[0].params, "op=copy"));
    assert_int_equal(afx_open_store(f), 0);
    assert_string_equal(note_of(f, r.run_id, "calibration", buf, sizeof buf), "outside 5%");
    assert_string_equal(note_of(f, r.run_id, "plain_gbps", buf, sizeof buf), "0.00");
    assert_true(atof(note_of(f, r.run_id, "engine_cpu_gbps", buf, sizeof buf)) > 0.01);
}

static void test_within_the_tolerance_is_ok(void **state)
{
    afx *f = *state;
    dm_calibration c;
    dm_workload w = cpu_calibrated(&c, 1e9); /* any finite ratio is within */
    calibrate_opts o = opts_for(&w, f);
    calibrate_result r;
    dm_err err = {0};
    plain_gbps = 1.0;
    assert_int_equal(calibrate_run(&o, &r, &err), 0);
    assert_true(r.lines[0].within);
    assert_true(r.ok);
    assert_int_equal(afx_open_store(f), 0);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM run_notes WHERE key = 'calibration'"
                                    " AND value LIKE 'within %'"), 1);
}

static void test_bad_options_and_a_failing_plain_measurement_are_errors(void **state)
{
    afx *f = *state;
    dm_calibration c;
    dm_workload w = cpu_calibrated(&c, 0.05), none = *registry_workload("tdm", NULL);
    calibrate_opts o = opts_for(&none, f);
    calibrate_result r;
    dm_err err = {0};
    assert_int_equal(calibrate_run(&o, &r, &err), DM_EINPUT);
    assert_string_equal(err.msg, "workload 'tdm' has no calibration");
    o = opts_for(&w, f);
    o.bytes = 3;
    assert_int_equal(calibrate_run(&o, &r, &err), DM_EINPUT);
    assert_string_equal(err.msg, "calibration size 3 bytes is below one item");
    o.bytes = 1 << 16;
    plain_gbps = -1;
    assert_int_equal(calibrate_run(&o, &r, &err), DM_ERUNTIME);
    assert_string_equal(err.msg, "plain: the test says no");
    assert_false(r.ok);
}

static void test_without_a_gpu_the_gpu_calibration_compares_nothing(void **state)
{
    afx *f = *state;
    const dm_workload *w = registry_workload("membw", NULL);
    calibrate_opts o = opts_for(w, f);
    calibrate_result r;
    dm_err err = {0};
    assert_int_equal(calibrate_run(&o, &r, &err), 0);
    assert_true(r.failed > 0);
    assert_int_equal(r.n, 0);
    assert_false(r.ok);
}

int main(void)
{
    /* Before CUDA starts: no GPU is visible, whatever the machine has. */
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_outside_the_tolerance_is_said_and_noted,
                                        afx_setup_empty, afx_teardown),
        cmocka_unit_test_setup_teardown(test_within_the_tolerance_is_ok, afx_setup_empty,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_bad_options_and_a_failing_plain_measurement_are_errors,
                                        afx_setup_empty, afx_teardown),
        cmocka_unit_test_setup_teardown(test_without_a_gpu_the_gpu_calibration_compares_nothing,
                                        afx_setup_empty, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
