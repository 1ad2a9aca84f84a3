/* test_criterion.c - the stopping rule on synthetic sample streams with a fake elapsed
 * time: each way of stopping, when it may and may not stop, the running noise against a
 * two-pass computation; the median's confidence interval (its rank against the binomial,
 * selection against sorting) and how each criterion fares with rare slow samples; the
 * statistics' MAD and outliers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"
#include "rng.h"

/* cmocka 1.1 compares only floats within a tolerance */
#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* The relative standard deviation's rule (the tests below up to the median's). */
static dm_measure_opts opts(int min_samples, double max_noise, double max_time,
                            int max_samples)
{
    dm_measure_opts o = {.mode = DM_MODE_COLD, .min_samples = min_samples,
                         .max_noise = max_noise, .max_time = max_time,
                         .max_samples = max_samples, .criterion = DM_CRIT_STDREL};
    return o;
}

/* Feeds x[i % nx] until the rule stops (elapsed advancing by dt per sample) or limit
 * samples; returns the sample count at the stop, 0 when it never stopped. */
static size_t feed(dm_criterion *c, const double *x, size_t nx, double dt, size_t limit,
                   const char **reason)
{
    for (size_t i = 0; i < limit; i++) {
        criterion_add(c, x[i % nx]);
        if (criterion_done(c, dt * (double)(i + 1), reason))
            return c->n;
    }
    return 0;
}

static void init_copies_the_options(void **st)
{
    (void)st;
    dm_measure_opts o = opts(12, 0.01, 3.5, 777);
    dm_criterion c;
    criterion_init(&c, &o);
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
    criterion_init(&c, &o);
    const double x[] = {1e-3};
    const char *reason = NULL;
    assert_int_equal(feed(&c, x, 1, 0.001, 1000, &reason), 10);
    assert_string_equal(reason, "noise");
    assert_true(criterion_value(&c) == 0.0);
}

static void noisy_stream_stops_on_max_time_below_min_samples(void **st)
{
    (void)st;
    dm_measure_opts o = opts(10, 0.005, 1.0, 1000);
    dm_criterion c;
    criterion_init(&c, &o);
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
    criterion_init(&c, &o);
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
    criterion_init(&c, &o);
    const char *reason = NULL;
    assert_int_equal(criterion_done(&c, 1e9, &reason), 0);
    assert_null(reason);
}

static void one_sample_is_not_enough_to_judge_noise(void **st)
{
    (void)st;
    dm_measure_opts o = opts(1, 0.5, 100.0, 1000);
    dm_criterion c;
    criterion_init(&c, &o);
    const char *reason = NULL;
    criterion_add(&c, 2.0);
    assert_true(isnan(criterion_value(&c)));
    assert_int_equal(criterion_done(&c, 0.0, &reason), 0);
    criterion_add(&c, 2.0);
    assert_int_equal(criterion_done(&c, 0.0, &reason), 1);
    assert_string_equal(reason, "noise");
}

static void noise_takes_precedence_over_the_limits(void **st)
{
    (void)st;
    dm_measure_opts o = opts(3, 0.01, 1.0, 3);
    dm_criterion c;
    criterion_init(&c, &o);
    const double x[] = {5.0};
    const char *reason = NULL;
    for (int i = 0; i < 3; i++)
        criterion_add(&c, x[0]);
    assert_int_equal(criterion_done(&c, 2.0, &reason), 1);
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
    criterion_init(&c, &o);
    for (int i = 0; i < N; i++) {
        criterion_add(&c, x[i]);
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
        assert_near(criterion_value(&c), noise, 1e-12);
        dm_stats sts;
        assert_int_equal(stats_compute(x, (size_t)n, &sts), DM_OK);
        assert_near(sts.noise, noise, 1e-12);
    }
}

/* log P(X = i) for X ~ B(n, 1/2). */
static double log_binom_half(size_t n, size_t i)
{
    return lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
           (double)n * log(2.0);
}

/* P(X <= j) for X ~ B(n, 1/2), summed in log space (no underflow at any n here). */
static double binom_half_cdf(size_t n, size_t j)
{
    double sum = 0;
    for (size_t i = 0; i <= j; i++)
        sum += exp(log_binom_half(n, i));
    return sum;
}

static void median_rank_is_the_widest_95_percent_interval(void **st)
{
    (void)st;
    for (size_t n = 1; n < 6; n++)
        assert_int_equal(median_ci_rank(n), 0);
    /* Exact up to 1000: [x_(k), x_(n+1-k)] covers at least 95 %, k + 1 would not. */
    for (size_t n = 6; n <= 1000; n++) {
        size_t k = median_ci_rank(n);
        assert_true(k >= 1);
        assert_true(1 - 2 * binom_half_cdf(n, k - 1) >= 0.95 - 1e-12);
        assert_true(1 - 2 * binom_half_cdf(n, k) < 0.95);
    }
    /* Beyond, the normal approximation: within one rank of the exact one. */
    const size_t big[] = {1001, 1777, 5000, 20000};
    for (size_t b = 0; b < sizeof big / sizeof *big; b++) {
        size_t n = big[b], exact = 1;
        while (binom_half_cdf(n, exact) <= 0.025)
            exact++;
        size_t k = median_ci_rank(n);
        assert_true(k + 1 >= exact && k <= exact + 1);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void selection_and_interval_agree_with_sorting(void **st)
{
    (void)st;
    dm_rng r = dm_rng_seed(7);
    enum { MAXN = 300 };
    double x[MAXN], a[MAXN], sorted[MAXN], work[MAXN];
    for (int trial = 0; trial < 2000; trial++) {
        size_t n = 1 + dm_rng_below(&r, MAXN);
        uint32_t values = 1 + dm_rng_below(&r, 50); /* few values: many ties */
        for (size_t i = 0; i < n; i++)
            x[i] = 1e-3 * (1 + dm_rng_below(&r, values));
        memcpy(sorted, x, n * sizeof *x);
        qsort(sorted, n, sizeof *sorted, cmp_double);
        size_t k = dm_rng_below(&r, (uint32_t)n);
        memcpy(a, x, n * sizeof *x);
        assert_true(median_select(a, n, k) == sorted[k]);
        for (size_t i = 0; i < n; i++)
            assert_true(i <= k ? a[i] <= sorted[k] : a[i] >= sorted[k]);
        size_t rank = median_ci_rank(n);
        double got = median_ci_halfwidth(x, n, work);
        if (!rank) {
            assert_true(isnan(got));
            continue;
        }
        double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        double want = (sorted[n - rank] - sorted[rank - 1]) / 2 / median;
        assert_true(got == want);
        dm_stats sts;
        assert_int_equal(stats_compute(x, n, &sts), DM_OK);
        assert_true(sts.median_lo == sorted[rank - 1] && sts.median_hi == sorted[n - rank]);
    }
}

/* 1 ms samples with 0.2 % jitter, every 7th 1.2-1.7 times slower: the relative
 * standard deviation stays far above 0.5 % and never stops on noise, the median's interval
 * closes within a few dozen samples. */
static void rare_slow_samples_stop_only_the_median_rule(void **st)
{
    (void)st;
    enum { N = 20000 };
    static double x[N];
    dm_rng r = dm_rng_seed(3);
    for (int i = 0; i < N; i++)
        x[i] = 1e-3 * (1 + 0.002 * dm_rng_unit(&r)) *
               (i % 7 == 3 ? 1.2 + 0.5 * dm_rng_unit(&r) : 1);
    const char *reason = NULL;
    dm_measure_opts o = opts(10, 0.005, 1e9, N);
    dm_criterion c;
    criterion_init(&c, &o);
    assert_int_equal(feed(&c, x, N, 0, N, &reason), N);
    assert_string_equal(reason, "max_samples");
    assert_true(criterion_value(&c) > 0.05);
    criterion_free(&c);
    o.criterion = DM_CRIT_MEDIAN;
    criterion_init(&c, &o);
    size_t n = feed(&c, x, N, 0, N, &reason);
    assert_string_equal(reason, "noise");
    assert_true(n >= 10 && n <= 40);
    assert_true(criterion_value(&c) <= 0.005);
    criterion_free(&c);
}

static void median_rule_needs_six_samples_and_min_samples(void **st)
{
    (void)st;
    dm_measure_opts o = opts(3, 0.5, 1e9, 1000);
    o.criterion = DM_CRIT_MEDIAN;
    dm_criterion c;
    criterion_init(&c, &o);
    const double x[] = {2.0};
    const char *reason = NULL;
    assert_int_equal(feed(&c, x, 1, 0, 1000, &reason), 6); /* constant, but 5 say nothing */
    assert_true(criterion_value(&c) == 0.0);
    criterion_free(&c);
    o.min_samples = 9;
    criterion_init(&c, &o);
    assert_int_equal(feed(&c, x, 1, 0, 1000, &reason), 9);
    criterion_free(&c);
}

/* Past 4096 samples the rule judges every 1/64 more: it still stops, at most that late. */
static void median_rule_judges_long_streams_in_steps(void **st)
{
    (void)st;
    enum { N = 60000 };
    static double x[N];
    dm_rng r = dm_rng_seed(11);
    for (int i = 0; i < N; i++)
        x[i] = 1.0 + dm_rng_unit(&r); /* uniform on [1, 2): the interval shrinks as 1/sqrt(n) */
    dm_measure_opts o = opts(10, 0.004, 1e9, N);
    o.criterion = DM_CRIT_MEDIAN;
    dm_criterion c;
    criterion_init(&c, &o);
    const char *reason = NULL;
    size_t n = feed(&c, x, N, 0, N, &reason);
    assert_string_equal(reason, "noise");
    assert_true(n > 4096 && n < N);
    static double work[N];
    assert_true(criterion_value(&c) == median_ci_halfwidth(x, n, work));
    criterion_free(&c);
}

static void mad_and_outliers(void **st)
{
    (void)st;
    /* median 5, |x - 5| = 4 3 1 0 0 1 2 95 -> MAD 1.5; threshold 5 + 3.5 x 1.4826 x 1.5 */
    const double x[] = {1, 2, 4, 5, 5, 6, 7, 100};
    dm_stats sts;
    int flag[8];
    assert_int_equal(stats_compute(x, 8, &sts), DM_OK);
    assert_true(sts.median == 5 && sts.mad == 1.5);
    assert_int_equal(stats_outliers(x, 8, &sts, 3.5, flag), 1);
    assert_int_equal(flag[7], 1);
    assert_int_equal(flag[6], 0);
    assert_int_equal(stats_outliers(x, 8, &sts, 0.5, flag), 2); /* above 6.11: 7 and 100 */
    assert_int_equal(flag[5], 0);
    /* a MAD of 0: whatever exceeds the median */
    const double y[] = {3, 3, 3, 3, 3.5};
    assert_int_equal(stats_compute(y, 5, &sts), DM_OK);
    assert_true(sts.mad == 0);
    assert_int_equal(stats_outliers(y, 5, &sts, 3.5, flag), 1);
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
        cmocka_unit_test(median_rank_is_the_widest_95_percent_interval),
        cmocka_unit_test(selection_and_interval_agree_with_sorting),
        cmocka_unit_test(rare_slow_samples_stop_only_the_median_rule),
        cmocka_unit_test(median_rule_needs_six_samples_and_min_samples),
        cmocka_unit_test(median_rule_judges_long_streams_in_steps),
        cmocka_unit_test(mad_and_outliers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
