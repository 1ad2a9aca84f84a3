/* test_stats.c - summary statistics on vectors with known answers: odd and even counts
 * (R type 7 quartiles), a single sample, constant data, and an empty vector. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"

/* cmocka 1.1 compares only floats within a tolerance */
#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void odd_count_has_exact_quartiles_and_spread(void **st)
{
    (void)st;
    const double x[] = {3, 1, 2, 5, 4};
    dm_stats s;
    assert_int_equal(stats_compute(x, 5, &s), DM_OK);
    assert_int_equal(s.n, 5);
    assert_true(s.min == 1 && s.q1 == 2 && s.median == 3 && s.q3 == 4 && s.max == 5);
    assert_true(s.mean == 3);
    assert_near(s.stdev, sqrt(2.5), 1e-15);
    assert_near(s.noise, sqrt(2.5) / 3, 1e-15);
}

static void even_count_interpolates_between_order_statistics(void **st)
{
    (void)st;
    const double x[] = {4, 1, 3, 2};
    dm_stats s;
    assert_int_equal(stats_compute(x, 4, &s), DM_OK);
    assert_true(s.min == 1 && s.max == 4);
    assert_true(s.q1 == 1.75 && s.median == 2.5 && s.q3 == 3.25);
    assert_true(s.mean == 2.5);
    assert_near(s.stdev, sqrt(5.0 / 3.0), 1e-15);

    const double y[] = {60, 10, 50, 20, 40, 30};
    assert_int_equal(stats_compute(y, 6, &s), DM_OK);
    assert_true(s.q1 == 22.5 && s.median == 35 && s.q3 == 47.5);
}

static void single_sample_has_no_spread(void **st)
{
    (void)st;
    const double x[] = {7.25};
    dm_stats s;
    assert_int_equal(stats_compute(x, 1, &s), DM_OK);
    assert_int_equal(s.n, 1);
    assert_true(s.min == 7.25 && s.q1 == 7.25 && s.median == 7.25 && s.q3 == 7.25 &&
                s.max == 7.25 && s.mean == 7.25);
    assert_true(s.stdev == 0 && s.noise == 0);
}

static void constant_data_has_zero_noise(void **st)
{
    (void)st;
    const double x[] = {1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3};
    dm_stats s;
    assert_int_equal(stats_compute(x, 7, &s), DM_OK);
    assert_true(s.mean == 1e-3 && s.median == 1e-3);
    assert_true(s.stdev == 0 && s.noise == 0);
}

static void input_is_left_unsorted(void **st)
{
    (void)st;
    double x[] = {9, 8, 7};
    dm_stats s;
    assert_int_equal(stats_compute(x, 3, &s), DM_OK);
    assert_true(x[0] == 9 && x[1] == 8 && x[2] == 7);
    assert_true(s.min == 7 && s.max == 9);
}

static void empty_input_is_an_error(void **st)
{
    (void)st;
    const double x[] = {1};
    dm_stats s;
    assert_int_equal(stats_compute(x, 0, &s), DM_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(odd_count_has_exact_quartiles_and_spread),
        cmocka_unit_test(even_count_interpolates_between_order_statistics),
        cmocka_unit_test(single_sample_has_no_spread),
        cmocka_unit_test(constant_data_has_zero_noise),
        cmocka_unit_test(input_is_left_unsorted),
        cmocka_unit_test(empty_input_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
