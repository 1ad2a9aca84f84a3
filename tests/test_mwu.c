/* test_mwu.c - the Mann-Whitney U test against values worked out by hand: U by counting
 * pairs, p from the normal approximation with continuity correction,
 * z = (|U - nx ny / 2| - 1/2) / sqrt(nx ny (n + 1) / 12), p = erfc(z / sqrt 2). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "mwu.h"

static void u_counts_pairs_with_ties_as_halves(void **st)
{
    (void)st;
    const double x[] = { 1, 2, 3 }, y[] = { 2, 4 };
    dm_mwu r;
    assert_int_equal(mwu_test(x, 3, y, 2, &r), 0);
    /* pairs x > y: (3,2); ties: (2,2) counts 1/2 -> U = 1.5 */
    assert_true(fabs(r.u - 1.5) < 1e-12);
    assert_true(fabs(r.cles - 1.5 / 6) < 1e-12);
}

static void separated_sets_are_significant(void **st)
{
    (void)st;
    double x[20], y[20];
    for (int i = 0; i < 20; i++) {
        x[i] = 1.0 + i * 0.001;
        y[i] = 2.0 + i * 0.001;
    }
    dm_mwu r;
    assert_int_equal(mwu_test(x, 20, y, 20, &r), 0);
    assert_true(r.u == 0);
    /* z = (200 - 0.5) / sqrt(400 * 41 / 12) = 5.39649, p = erfc(z / sqrt 2) = 6.79562e-08 */
    assert_true(fabs(r.z + 5.39649) < 1e-5);
    assert_true(fabs(r.p - 6.79562e-08) / 6.79562e-08 < 1e-5);
    assert_true(r.z < 0);
}

static void interleaved_sets_are_not(void **st)
{
    (void)st;
    const double x[] = { 1, 3, 5, 7, 9, 11, 13, 15 }, y[] = { 2, 4, 6, 8, 10, 12, 14, 16 };
    dm_mwu r;
    assert_int_equal(mwu_test(x, 8, y, 8, &r), 0);
    /* U = 28 against a mean of 32: z = 3.5 / sqrt(64 * 17 / 12) = 0.367574, p = 0.713191 */
    assert_true(r.u == 28);
    assert_true(fabs(r.p - 0.713191) < 1e-6);
}

static void ties_shrink_the_variance(void **st)
{
    (void)st;
    const double x[] = { 1, 2, 2, 3 }, y[] = { 2, 3, 3, 4 };
    dm_mwu r;
    assert_int_equal(mwu_test(x, 4, y, 4, &r), 0);
    /* U = 3; tie groups {2,2,2} and {3,3,3} give sum(t^3 - t) = 48, so the variance is
     * 16/12 * (9 - 48/56) = 10.857143; z = 4.5 / sqrt(10.857143) = 1.365698, p = 0.172034 */
    assert_true(r.u == 3);
    assert_true(fabs(r.z + 1.365698) < 1e-6);
    assert_true(fabs(r.p - 0.172034) < 1e-6);
}

static void all_equal_values_give_p_one(void **st)
{
    (void)st;
    const double x[] = { 5, 5, 5 }, y[] = { 5, 5 };
    dm_mwu r;
    assert_int_equal(mwu_test(x, 3, y, 2, &r), 0);
    assert_true(r.p == 1);
    assert_true(r.cles == 0.5);
}

static void empty_sets_are_refused(void **st)
{
    (void)st;
    const double x[] = { 1 };
    dm_mwu r;
    assert_int_equal(mwu_test(x, 1, x, 0, &r), -1);
    assert_int_equal(mwu_test(x, 0, x, 1, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(u_counts_pairs_with_ties_as_halves),
        cmocka_unit_test(separated_sets_are_significant),
        cmocka_unit_test(interleaved_sets_are_not),
        cmocka_unit_test(ties_shrink_the_variance),
        cmocka_unit_test(all_equal_values_give_p_one),
        cmocka_unit_test(empty_sets_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
