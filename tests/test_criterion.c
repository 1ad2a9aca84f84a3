/* test_criterion.c - the noise stopping rule on synthetic sample streams with a fake
 * elapsed time: each way of stopping, when it may and may not stop, and the running
 * noise against a two-pass computation. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"

/* cmocka 1.1 compares only floats within a tolerance */
#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static dm_measure_opts opts(int min_samples, double max_noise, double max_time,
                            int max_samples)
{
    dm_measure_opts o = {.mode = DM_MODE_COLD, .min_samples = min_samples,
                         .max_noise = max_noise, .max_time = max_time,
                         .max_samples = max_samples};
    return o;
}

/* Feeds x[i % nx] until the rule stops (elapsed advancing by dt per sample) or limit
 * samples; returns the sample count at the stop, 0 when it never stopped. */
static size_t feed(dm_criterion *c, const double *x, size_t nx, double dt, size_t limit,
                   const char **reason)
{
    for (size_t i = 0; i < limit; i++) {
        criterion_noise_add(c, x[i % nx]);
        if (criterion_noise_done(c, dt * (double)(i + 1), reason))
            return c->n;
    }
    return 0;
}

static void init_copies_the_options(void **st)
{
    (void)st;
    dm_measure_opts o = opts(12, 0.01, 3.5, 777);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    assert_int_equal(c.min_samples, 12);
    assert_true(c.max_noise == 0.01 && c.max_time == 3.5);
    assert_int_equal(c.max_samples, 777);
    assert_int_equal(c.n, 0);
}

static void constant_stream_stops_at_min_samples_on_noise(void **st)
{
    (void)st;
    dm_measure_opts o = opts(10, 0.005, 100.0, 1000);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    const double x[] = {1e-3};
    const char *reason = NULL;
    assert_int_equal(feed(&c, x, 1, 0.001, 1000, &reason), 10);
    assert_string_equal(reason, "noise");
    assert_true(criterion_noise_value(&c) == 0.0);
}

static void noisy_stream_stops_on_max_time_below_min_samples(void **st)
{
    (void)st;
    dm_measure_opts o = opts(10, 0.005, 1.0, 1000);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    const double x[] = {1.0, 2.0};
    const char *reason = NULL;
    /* elapsed is 0.125 * n: it reaches max_time at the eighth sample */
    assert_int_equal(feed(&c, x, 2, 0.125, 1000, &reason), 8);
    assert_string_equal(reason, "max_time");
}

static void noisy_stream_stops_on_max_samples(void **st)
{
    (void)st;
    dm_measure_opts o = opts(10, 0.005, 100.0, 50);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    const double x[] = {1.0, 2.0, 1.5};
    const char *reason = NULL;
    assert_int_equal(feed(&c, x, 3, 0.0, 1000, &reason), 50);
    assert_string_equal(reason, "max_samples");
}

static void never_stops_without_a_sample(void **st)
{
    (void)st;
    dm_measure_opts o = opts(0, 1.0, 0.0, 0);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    const char *reason = NULL;
    assert_int_equal(criterion_noise_done(&c, 1e9, &reason), 0);
    assert_null(reason);
}

static void one_sample_is_not_enough_to_judge_noise(void **st)
{
    (void)st;
    dm_measure_opts o = opts(1, 0.5, 100.0, 1000);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    const char *reason = NULL;
    criterion_noise_add(&c, 2.0);
    assert_true(isnan(criterion_noise_value(&c)));
    assert_int_equal(criterion_noise_done(&c, 0.0, &reason), 0);
    criterion_noise_add(&c, 2.0);
    assert_int_equal(criterion_noise_done(&c, 0.0, &reason), 1);
    assert_string_equal(reason, "noise");
}

static void noise_takes_precedence_over_the_limits(void **st)
{
    (void)st;
    dm_measure_opts o = opts(3, 0.01, 1.0, 3);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    const double x[] = {5.0};
    const char *reason = NULL;
    for (int i = 0; i < 3; i++)
        criterion_noise_add(&c, x[0]);
    assert_int_equal(criterion_noise_done(&c, 2.0, &reason), 1);
    assert_string_equal(reason, "noise");
}

static void running_noise_equals_two_pass_noise(void **st)
{
    (void)st;
    enum { N = 5000 };
    static double x[N];
    unsigned long long s = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        double u = (double)(s >> 11) / 9007199254740992.0;
        x[i] = 1e-3 * (1.0 + 0.2 * u) + (i % 97 == 0 ? 5e-4 : 0.0);
    }
    dm_measure_opts o = opts(10, 0.005, 100.0, N);
    dm_criterion c;
    criterion_noise_init(&c, &o);
    for (int i = 0; i < N; i++) {
        criterion_noise_add(&c, x[i]);
        int n = i + 1;
        if (n != 2 && n != 17 && n != 500 && n != N)
            continue;
        double mean = 0, ss = 0;
        for (int j = 0; j < n; j++)
            mean += x[j];
        mean /= n;
        for (int j = 0; j < n; j++)
            ss += (x[j] - mean) * (x[j] - mean);
        double noise = sqrt(ss / (n - 1)) / mean;
        assert_near(criterion_noise_value(&c), noise, 1e-12);
        dm_stats sts;
        assert_int_equal(stats_compute(x, (size_t)n, &sts), DM_OK);
        assert_near(sts.noise, noise, 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_copies_the_options),
        cmocka_unit_test(constant_stream_stops_at_min_samples_on_noise),
        cmocka_unit_test(noisy_stream_stops_on_max_time_below_min_samples),
        cmocka_unit_test(noisy_stream_stops_on_max_samples),
        cmocka_unit_test(never_stops_without_a_sample),
        cmocka_unit_test(one_sample_is_not_enough_to_judge_noise),
        cmocka_unit_test(noise_takes_precedence_over_the_limits),
        cmocka_unit_test(running_noise_equals_two_pass_noise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
