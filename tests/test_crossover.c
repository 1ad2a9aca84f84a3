/* test_crossover.c - `dmbench crossover` on a fixture database with a planted crossover
 * at a known axis value for each level N, following f(N) = 100000/N + 5000: the
 * crossings, their bootstrap intervals, the fits and which form wins, and which variant
 * is faster below (or no one, when the levels disagree); crossovers in two groups only,
 * fitted by the line through both, with what each group measured stored under the fit;
 * and the fit on its own against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "crossover.h"

#define NS 15

static const dm_param_spec level_spec = { .name = "level", .type = DM_P_INT, .def = "1" };

/* A point of variant (0 cpu, 1 kernel) at n and level with samples around t. */
static void put(afx *f, int64_t run, int64_t idx, int variant, int64_t n, int64_t level, double t)
{
    const dm_param_spec *specs[] = { &toy_dataset_params[0], &toy_problem_params[0], &level_spec };
    dm_value vals[3] = { { .type = DM_P_INT, .i = n }, { .type = DM_P_ENUM, .s = "copy" },
                         { .type = DM_P_INT, .i = level } };
    double x[NS];
    afx_samples(x, NS, t, 0.01);
    afx_point_params(f, run, idx, variant, specs, vals, 3, x, NS);
}

/* The options of cpu against kernel over n, grouped by level. */
static dm_crossover_opts by_level(int resamples, unsigned long seed)
{
    return (dm_crossover_opts){ .workload = "toy", .variant_a = "cpu", .variant_b = "kernel",
                                .axis = "n", .group = "level", .resamples = resamples,
                                .level = 0.95, .seed = seed };
}

/* What crossover_print writes of r (malloc'd). */
static char *printed(const dm_crossover_result *r, const dm_crossover_opts *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    crossover_print(r, o, out);
    fclose(out);
    return text;
}

static void planted_crossovers_and_their_fit_are_recovered(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, "NVIDIA H100 80GB HBM3", 9, 0);
    const int levels[] = { 1, 2, 4, 8 };
    int64_t idx = 0;
    for (int l = 0; l < 4; l++) {
        /* cpu: n ns; kernel: n/2 ns + c, crossing at n* = 2c = 100000/N + 5000 */
        double cross = 100000.0 / levels[l] + 5000, c = cross / 2 * 1e-9;
        for (int64_t n = 2500; n <= 200000; n += 2500) {
            put(f, run, idx++, 0, n, levels[l], (double)n * 1e-9);
            put(f, run, idx++, 1, n, levels[l], (double)n * 0.5e-9 + c);
        }
    }
    dm_crossover_opts o = by_level(200, 7);
    dm_crossover_result r;
    dm_err err = { 0 };
    assert_int_equal(crossover_compute(f->st, &o, &r, &err), 0);
    assert_int_equal(r.n, 4);
    for (int l = 0; l < 4; l++) {
        double want = 100000.0 / levels[l] + 5000;
        assert_true(r.g[l].group == levels[l]);
        assert_int_equal(r.g[l].npoints, 80);
        assert_int_equal(r.g[l].crossings, 1);
        assert_true(fabs(r.g[l].x - want) < 1e-6 * want);
        assert_true(r.g[l].a_faster_below); /* cpu wins on small inputs */
        assert_true(r.g[l].lo <= want && want <= r.g[l].hi);
        assert_true(r.g[l].found > 0.99);
    }
    assert_string_equal(r.below, "cpu"); /* faster below the crossover at every level */
    assert_int_equal(r.better, 0);
    assert_string_equal(r.fit[0].form, "a/N + b");
    assert_true(fabs(r.fit[0].a - 100000) < 1e-3);
    assert_true(fabs(r.fit[0].b - 5000) < 1e-3);
    assert_true(r.fit[0].r2 > 0.999999);
    assert_true(r.fit[1].r2 < r.fit[0].r2);

    /* both fits are stored for the card, the better one marked */
    assert_int_equal(crossover_store(f->st, &o, &r, &err), 0);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(store_db(f->st), "SELECT card, form, a, b, n, better,"
                                        " below FROM crossover_fits ORDER BY better DESC", -1,
                                        &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "NVIDIA H100 80GB HBM3");
    assert_string_equal((const char *)sqlite3_column_text(q, 1), "a/N + b");
    assert_true(fabs(sqlite3_column_double(q, 2) - 100000) < 1e-3);
    assert_true(fabs(sqlite3_column_double(q, 3) - 5000) < 1e-3);
    assert_int_equal(sqlite3_column_int(q, 4), 4);
    assert_int_equal(sqlite3_column_int(q, 5), 1);
    assert_string_equal((const char *)sqlite3_column_text(q, 6), "cpu");
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 1), "a*N + b");
    assert_int_equal(sqlite3_column_int(q, 5), 0);
    assert_int_equal(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    crossover_free(&r);
}

static void curves_that_never_cross_say_so(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, "card", 9, 0);
    for (int64_t n = 1000; n <= 10000; n += 1000) {
        put(f, run, n, 0, n, 1, (double)n * 1e-9);
        put(f, run, n + 1, 1, n, 1, (double)n * 2e-9);
    }
    dm_crossover_opts o = { .workload = "toy", .variant_a = "cpu", .variant_b = "kernel",
                            .axis = "n", .resamples = 50, .level = 0.95, .seed = 1 };
    dm_crossover_result r;
    dm_err err = { 0 };
    assert_int_equal(crossover_compute(f->st, &o, &r, &err), 0);
    assert_int_equal(r.n, 1);
    assert_true(isnan(r.g[0].x));
    assert_int_equal(r.better, -1);
    assert_int_equal(crossover_store(f->st, &o, &r, &err), DM_EINPUT); /* no fit to store */
    /* which side wins all along, over what range */
    assert_int_equal(r.g[0].a_faster_below, 1);
    assert_true(r.g[0].axis_lo == 1000 && r.g[0].axis_hi == 10000);
    char *text = printed(&r, &o);
    assert_non_null(strstr(text, "no crossover in range: cpu faster at every n from 1000 to "
                                 "10000\n"));
    free(text);
    crossover_free(&r);

    o.variant_b = "nothing";
    o.variant_a = "nothing";
    assert_int_equal(crossover_compute(f->st, &o, &r, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "no ok points"));
}

static void below_is_unknown_when_the_groups_disagree(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, "card", 9, 0);
    /* level 1: cpu faster at small n, crossing at 5000; level 2: the other way round,
     * crossing at 6000; level 3: kernel faster at small n, crossing at 7000 */
    const double cross[] = { 5000, 6000, 7000 };
    int64_t idx = 0;
    for (int l = 0; l < 3; l++)
        for (int64_t n = 1000; n <= 10000; n += 1000) {
            double cpu = (double)n * 1e-9, kernel = (double)n * 0.5e-9 + cross[l] * 0.5e-9;
            if (l > 0) { /* mirror: the kernel wins below */
                kernel = (double)n * 1e-9;
                cpu = (double)n * 0.5e-9 + cross[l] * 0.5e-9;
            }
            put(f, run, idx++, 0, n, l + 1, cpu);
            put(f, run, idx++, 1, n, l + 1, kernel);
        }
    dm_crossover_opts o = by_level(50, 3);
    dm_crossover_result r;
    dm_err err = { 0 };
    assert_int_equal(crossover_compute(f->st, &o, &r, &err), 0);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.g[0].a_faster_below, 1);
    assert_int_equal(r.g[1].a_faster_below, 0);
    assert_string_equal(r.below, "");
    assert_int_equal(crossover_store(f->st, &o, &r, &err), 0);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(store_db(f->st), "SELECT count(*) FROM crossover_fits"
                                        " WHERE below IS NULL", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 2);
    sqlite3_finalize(q);
    char *text = printed(&r, &o);
    assert_non_null(strstr(text, "faster below the crossover: not the same variant in every "
                                 "group that crosses"));
    free(text);
    crossover_free(&r);
}

static void fits_match_hand_computed_least_squares(void **st)
{
    (void)st;
    /* y = 2x + 1 at x = 1, 2, 3 and (4, 10) off the line. By the normal equations:
     * Sxy = 11.5, Sxx = 5, slope 2.3, intercept 6.25 - 2.3 * 2.5 = 0.5; residuals
     * -0.1, -0.4, 0.3, 0.2 give SSres 0.3 against SStot 26.75 */
    const double x[] = { 1, 2, 3, 4 }, y[] = { 3, 5, 7, 10 };
    dm_fit f;
    assert_int_equal(crossover_fit(x, y, 4, 0, &f), 0);
    assert_true(fabs(f.a - 2.3) < 1e-12);
    assert_true(fabs(f.b - 0.5) < 1e-12);
    assert_true(fabs(f.r2 - (1 - 0.3 / 26.75)) < 1e-12);
    assert_true(fabs(f.se_a - sqrt(0.3 / 2 / 5)) < 1e-12); /* s^2 / Sxx, s^2 = SSres / (n-2) */
    /* two points: the line through both, with no errors or R^2 to give */
    assert_int_equal(crossover_fit(x, y, 2, 0, &f), 0);
    assert_true(fabs(f.a - 2) < 1e-12);
    assert_true(fabs(f.b - 1) < 1e-12);
    assert_int_equal(f.n, 2);
    assert_true(isnan(f.se_a) && isnan(f.se_b) && isnan(f.r2));
    /* y = 6/x + 1 at x = 1, 2 */
    const double y6[] = { 7, 4 };
    assert_int_equal(crossover_fit(x, y6, 2, 1, &f), 0);
    assert_true(fabs(f.a - 6) < 1e-12);
    assert_true(fabs(f.b - 1) < 1e-12);
    assert_int_equal(crossover_fit(x, y, 1, 0, &f), -1);
}

/* Crossovers in two groups only: both forms pass through both, a/N + b is kept, and the
 * fit can be stored; the printout says why there are no errors or R^2. */
static void two_crossing_groups_give_the_line_through_both(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, "NVIDIA H100 80GB HBM3", 9, 0);
    const double cross[] = { 400000, 100000 };
    int64_t idx = 0;
    for (int l = 0; l < 2; l++)
        for (int64_t n = 25000; n <= 1600000; n *= 2) {
            /* cpu: n ns; kernel: n/2 ns + cross/2 ns, crossing at n = cross */
            put(f, run, idx++, 0, n, l + 1, (double)n * 1e-9);
            put(f, run, idx++, 1, n, l + 1, ((double)n + cross[l]) * 0.5e-9);
        }
    /* level 3: the kernel faster throughout, no crossover */
    for (int64_t n = 25000; n <= 1600000; n *= 2) {
        put(f, run, idx++, 0, n, 3, (double)n * 2e-9);
        put(f, run, idx++, 1, n, 3, (double)n * 1e-9);
    }
    dm_crossover_opts o = by_level(50, 5);
    dm_crossover_result r;
    dm_err err = { 0 };
    assert_int_equal(crossover_compute(f->st, &o, &r, &err), 0);
    assert_int_equal(r.n, 3);
    assert_true(fabs(r.g[0].x - 400000) < 1e-6 * 400000);
    assert_true(fabs(r.g[1].x - 100000) < 1e-6 * 100000);
    assert_true(isnan(r.g[2].x));
    assert_int_equal(r.g[2].a_faster_below, 0);
    assert_true(r.g[2].axis_lo == 25000 && r.g[2].axis_hi == 1600000);
    /* cpu is faster below both crossovers; level 3, where the kernel wins throughout,
     * has no crossover and no say */
    assert_string_equal(r.below, "cpu");
    assert_int_equal(r.better, 0);
    /* a/N + b through (1, 400000) and (2, 100000): a = 600000, b = -200000 */
    assert_true(fabs(r.fit[0].a - 600000) < 1e-3);
    assert_true(fabs(r.fit[0].b + 200000) < 1e-3);
    /* a*N + b: a = -300000, b = 700000 */
    assert_true(fabs(r.fit[1].a + 300000) < 1e-3);
    assert_true(fabs(r.fit[1].b - 700000) < 1e-3);
    assert_int_equal(r.fit[0].n, 2);
    assert_true(isnan(r.fit[0].r2) && isnan(r.fit[1].r2));
    char *text = printed(&r, &o);
    assert_non_null(strstr(text, "through both crossovers (2 groups: no standard errors or "
                                 "R^2)  <- kept"));
    free(text);
    assert_int_equal(crossover_store(f->st, &o, &r, &err), 0);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(store_db(f->st), "SELECT form, r2 IS NULL, se_a IS NULL,"
                                        " n FROM crossover_fits WHERE better = 1", -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "a/N + b");
    assert_int_equal(sqlite3_column_int(q, 1), 1);
    assert_int_equal(sqlite3_column_int(q, 2), 1);
    assert_int_equal(sqlite3_column_int(q, 3), 2);
    assert_int_equal(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    /* under the better fit, what each level measured: the crossovers with the side
     * faster below, and level 3's range where the kernel was faster throughout */
    assert_int_equal(sqlite3_prepare_v2(store_db(f->st), "SELECT g.grp_value, g.x, g.axis_lo,"
                                        " g.axis_hi, g.faster FROM crossover_groups g JOIN"
                                        " crossover_fits f ON f.id = g.fit_id AND f.better = 1"
                                        " ORDER BY g.grp_value", -1, &q, NULL), SQLITE_OK);
    for (int l = 0; l < 3; l++) {
        assert_int_equal(sqlite3_step(q), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int(q, 0), l + 1);
        if (l < 2)
            assert_true(fabs(sqlite3_column_double(q, 1) - cross[l]) < 1e-6 * cross[l]);
        else
            assert_int_equal(sqlite3_column_type(q, 1), SQLITE_NULL);
        assert_true(sqlite3_column_double(q, 2) == 25000);
        assert_true(sqlite3_column_double(q, 3) == 1600000);
        assert_string_equal((const char *)sqlite3_column_text(q, 4), l < 2 ? "cpu" : "kernel");
    }
    assert_int_equal(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM crossover_groups"), 3);
    crossover_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(planted_crossovers_and_their_fit_are_recovered, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(curves_that_never_cross_say_so, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(below_is_unknown_when_the_groups_disagree, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(two_crossing_groups_give_the_line_through_both, afx_setup, afx_teardown),
        cmocka_unit_test(fits_match_hand_computed_least_squares),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
