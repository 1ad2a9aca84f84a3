/* test_measure_cpu.c - the measurement engine on a CPU variant that counts its calls and
 * spins for a set time: the warm-up, each stopping rule, hot batching and its one-time
 * re-estimate, the statistics, and errors from the variant. Needs no GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"

/* The variant's state: how often run() was called and how long each call spins. */
typedef struct spinner {
    long calls;
    double first_spin; /* seconds the first call spins (a first-launch cost) */
    double spin;       /* seconds every later call spins */
    long fail_at;      /* the call that fails (0: none) */
} spinner;

static int spinner_run(void *state, dm_err *err)
{
    spinner *k = state;
    k->calls++;
    if (k->calls == k->fail_at)
        return dm_err_set(err, DM_ERUNTIME, "spinner: call %ld failed", k->calls);
    double spin = k->calls == 1 ? k->first_spin : k->spin;
    double t = dm_now();
    while (dm_now() - t < spin)
        ;
    return 0;
}

static const dm_variant spinner_variant = {.name = "spinner", .run = spinner_run};
static const dm_variant gpu_variant = {.name = "gpu", .needs_gpu = 1, .run = spinner_run};

static int setup(void **state)
{
    dm_exec ex = {.device = NULL, .stream = NULL};
    dm_measure_ctx *c;
    dm_err err = {0};
    if (measure_ctx_create(&ex, &c, &err))
        return -1;
    *state = c;
    return 0;
}

static int teardown(void **state)
{
    measure_ctx_free(*state);
    return 0;
}

/* The relative standard deviation's rule, which may stop from two samples on (the
 * median's needs six): the tests of sampling itself stop at their min_samples. */
static dm_measure_opts opts(dm_mode mode, int min_samples, double max_noise, double max_time,
                            int max_samples)
{
    dm_measure_opts o = {.mode = mode, .min_samples = min_samples, .max_noise = max_noise,
                         .max_time = max_time, .max_samples = max_samples,
                         .criterion = DM_CRIT_STDREL};
    return o;
}

/* Checks what every successful CPU measurement must satisfy: host clock, no SM clock,
 * the host core's clock read before and after (a positive rate, whatever the machine's
 * load), one batch size, and statistics that are those of the samples. */
static void check_consistent(const dm_measurement *m)
{
    assert_non_null(m->samples);
    assert_true(m->n > 0);
    assert_non_null(m->stop_reason);
    assert_string_equal(m->clock_source, "host");
    assert_true(isnan(m->sm_mhz_before) && isnan(m->sm_mhz_after));
    assert_true(isfinite(m->host_mhz_before) && m->host_mhz_before > 0);
    assert_true(isfinite(m->host_mhz_after) && m->host_mhz_after > 0);
    assert_int_equal(m->n_throttled, 0);
    assert_string_equal(m->throttle_reasons, "");
    assert_true(m->elapsed > 0);
    double *x = malloc(m->n * sizeof *x);
    assert_non_null(x);
    for (size_t i = 0; i < m->n; i++) {
        assert_int_equal(m->samples[i].batch, m->batch);
        assert_int_equal(m->samples[i].throttled, 0);
        assert_true(isnan(m->samples[i].sm_mhz));
        x[i] = m->samples[i].seconds;
    }
    dm_stats s;
    assert_int_equal(stats_compute(x, m->n, &s), DM_OK);
    size_t outliers = 0;
    for (size_t i = 0; i < m->n; i++) {
        assert_int_equal(m->samples[i].outlier,
                         x[i] > s.median + m->outlier_k * 1.4826 * s.mad);
        outliers += (size_t)m->samples[i].outlier;
    }
    assert_int_equal(m->n_outliers, outliers);
    assert_true(m->outlier_k > 0);
    free(x);
    assert_int_equal(m->stats.n, m->n);
    assert_memory_equal(&m->stats, &s, sizeof s);
    assert_true(m->stats.min <= m->stats.q1 && m->stats.q1 <= m->stats.median &&
                m->stats.median <= m->stats.q3 && m->stats.q3 <= m->stats.max);
}

static void host_context_has_no_sm_clock(void **state)
{
    dm_measure_ctx *c = *state;
    assert_string_equal(measure_clock_source(c), "host");
    assert_true(isnan(measure_sm_clock(c)));
}

static void cold_warms_up_once_then_stops_at_min_samples(void **state)
{
    spinner k = {.first_spin = 2e-3};
    dm_measure_opts o = opts(DM_MODE_COLD, 7, HUGE_VAL, 60.0, 1000);
    dm_measurement m;
    dm_err err = {0};
    assert_int_equal(measure_point(*state, &spinner_variant, &k, &o, &m, &err), DM_OK);
    check_consistent(&m);
    /* the first call (the slow one) was the timed warm-up, and the only extra call */
    assert_true(m.warmup_seconds >= 2e-3);
    assert_int_equal(m.n, 7);
    assert_int_equal(k.calls, 1 + 7);
    assert_string_equal(m.stop_reason, "noise");
    assert_int_equal(m.mode, DM_MODE_COLD);
    assert_int_equal(m.batch, 1);
    measure_free(&m);
    assert_null(m.samples);
}

static void unreachable_noise_stops_on_max_samples(void **state)
{
    spinner k = {0};
    dm_measure_opts o = opts(DM_MODE_COLD, 5, -1.0, 60.0, 25);
    dm_measurement m;
    dm_err err = {0};
    assert_int_equal(measure_point(*state, &spinner_variant, &k, &o, &m, &err), DM_OK);
    check_consistent(&m);
    assert_int_equal(m.n, 25);
    assert_int_equal(k.calls, 26);
    assert_string_equal(m.stop_reason, "max_samples");
    measure_free(&m);
}

static void unreachable_noise_stops_on_max_time(void **state)
{
    spinner k = {.spin = 1e-4};
    dm_measure_opts o = opts(DM_MODE_COLD, 5, -1.0, 0.05, 100000000);
    dm_measurement m;
    dm_err err = {0};
    assert_int_equal(measure_point(*state, &spinner_variant, &k, &o, &m, &err), DM_OK);
    check_consistent(&m);
    assert_string_equal(m.stop_reason, "max_time");
    assert_true(m.elapsed >= 0.05);
    assert_int_equal(k.calls, (long)m.n + 1);
    for (size_t i = 0; i < m.n; i++)
        assert_true(m.samples[i].seconds >= 0.999 * 1e-4);
    measure_free(&m);
}

static void hot_batches_fast_runs_after_a_slow_first_call(void **state)
{
    /* The warm-up's 2 ms asks for batches of one; the first batch shows a run is far
     * faster, so the batch is sized again from it and that batch is discarded. */
    spinner k = {.first_spin = 2e-3};
    dm_measure_opts o = opts(DM_MODE_HOT, 5, HUGE_VAL, 60.0, 1000);
    dm_measurement m;
    dm_err err = {0};
    assert_int_equal(measure_point(*state, &spinner_variant, &k, &o, &m, &err), DM_OK);
    check_consistent(&m);
    assert_int_equal(m.mode, DM_MODE_HOT);
    assert_true(m.batch > 1 && m.batch <= 10000);
    assert_int_equal(m.n, 5);
    assert_int_equal(k.calls, 1 + 1 + 5 * (long)m.batch);
    measure_free(&m);
}

static void hot_samples_are_per_execution_times(void **state)
{
    spinner k = {.first_spin = 5e-5, .spin = 5e-5};
    dm_measure_opts o = opts(DM_MODE_HOT, 4, HUGE_VAL, 60.0, 1000);
    dm_measurement m;
    dm_err err = {0};
    assert_int_equal(measure_point(*state, &spinner_variant, &k, &o, &m, &err), DM_OK);
    check_consistent(&m);
    assert_int_equal(m.n, 4);
    assert_true(m.batch >= 1 && m.batch <= 20);
    assert_true(k.calls >= 1 + 4 * (long)m.batch);
    for (size_t i = 0; i < m.n; i++)
        assert_true(m.samples[i].seconds >= 0.999 * 5e-5);
    measure_free(&m);
}

/* Every fifth call spins four times as long: the median's rule stops on noise all the
 * same, and those calls are the outliers. */
typedef struct jolting {
    long calls;
} jolting;

static int jolting_run(void *state, dm_err *err)
{
    (void)err;
    jolting *k = state;
    double spin = ++k->calls % 5 == 0 ? 8e-4 : 2e-4, t = dm_now();
    while (dm_now() - t < spin)
        ;
    return 0;
}

static void median_rule_stops_through_outliers_and_names_them(void **state)
{
    static const dm_variant jolting_variant = {.name = "jolting", .run = jolting_run};
    jolting k = {0};
    dm_measure_opts o = opts(DM_MODE_COLD, 10, 0.02, 60.0, 100000);
    o.criterion = DM_CRIT_MEDIAN;
    o.outlier_k = 0; /* the default */
    dm_measurement m;
    dm_err err = {0};
    assert_int_equal(measure_point(*state, &jolting_variant, &k, &o, &m, &err), DM_OK);
    check_consistent(&m);
    assert_string_equal(m.stop_reason, "noise");
    assert_string_equal(m.criterion, "median");
    assert_true(m.criterion_value <= 0.02);
    assert_true(m.outlier_k == DM_OUTLIER_K_DEFAULT);
    assert_true(m.stats.noise > 0.2); /* the relative standard deviation would not stop */
    size_t slow = 0;
    for (size_t i = 0; i < m.n; i++)
        slow += m.samples[i].seconds > 6e-4;
    assert_true(slow > 0 && m.n_outliers >= slow);
    measure_free(&m);
}

static void variant_error_is_returned_and_samples_freed(void **state)
{
    dm_measure_opts o = opts(DM_MODE_COLD, 10, HUGE_VAL, 60.0, 1000);
    dm_measurement m;
    dm_err err = {0};
    spinner during = {.fail_at = 4};
    assert_int_equal(measure_point(*state, &spinner_variant, &during, &o, &m, &err),
                     DM_ERUNTIME);
    assert_non_null(strstr(err.msg, "call 4 failed"));
    assert_null(m.samples);
    assert_int_equal(m.n, 0);

    spinner warmup = {.fail_at = 1};
    o.mode = DM_MODE_HOT;
    assert_int_equal(measure_point(*state, &spinner_variant, &warmup, &o, &m, &err),
                     DM_ERUNTIME);
    assert_non_null(strstr(err.msg, "call 1 failed"));
    assert_null(m.samples);
}

static void gpu_variant_without_a_gpu_is_refused(void **state)
{
    spinner k = {0};
    dm_measure_opts o = opts(DM_MODE_COLD, 10, HUGE_VAL, 60.0, 1000);
    dm_measurement m;
    dm_err err = {0};
    assert_int_equal(measure_point(*state, &gpu_variant, &k, &o, &m, &err), DM_ENOGPU);
    assert_int_equal(k.calls, 0);
    assert_null(m.samples);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_context_has_no_sm_clock),
        cmocka_unit_test(cold_warms_up_once_then_stops_at_min_samples),
        cmocka_unit_test(unreachable_noise_stops_on_max_samples),
        cmocka_unit_test(unreachable_noise_stops_on_max_time),
        cmocka_unit_test(hot_batches_fast_runs_after_a_slow_first_call),
        cmocka_unit_test(hot_samples_are_per_execution_times),
        cmocka_unit_test(median_rule_stops_through_outliers_and_names_them),
        cmocka_unit_test(variant_error_is_returned_and_samples_freed),
        cmocka_unit_test(gpu_variant_without_a_gpu_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
