/* test_crossover_fits.c - stored crossover fits as a workload's compiled-in header and
 * back: `dmbench crossover --header` keeps the better form of the newest fit per card and
 * key (a variant pair in either order is one key), with the card's compute capability,
 * leaves runs without a GPU out, carries what each group of a fit measured, and writes
 * each workload's fits into its own variants/<w>/fits.h only; a workload's table in the
 * header's form is looked up for the same card, else the architecture family, else
 * none; the fitted crossover at a group value, and the switch point where a group's
 * measurement overrides it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "store_fixture.h"
#include "cli_fixture.h"
#include "crossover.h"
#include "crossover_lookup.h"
#include "registry.h"

#define H100 "NVIDIA H100 80GB HBM3"
#define A100 "NVIDIA A100-SXM4-40GB"

/* Stores both forms of a fit of workload over count grouped by level, as `crossover
 * --store` does, the better one with coefficient a. */
static void store_fit_of(dm_store *st, const char *workload, const char *card, const char *va,
                         const char *vb, const char *better_form, double a, double b, double r2,
                         int n, const char *below)
{
    char sql[1024];
    for (int k = 0; k < 2; k++) {
        const char *form = k ? "a*N + b" : "a/N + b";
        int better = strcmp(form, better_form) == 0;
        char below_sql[64];
        snprintf(below_sql, sizeof below_sql, below ? "'%s'" : "NULL", below);
        snprintf(sql, sizeof sql,
                 "INSERT INTO crossover_fits (created_at, card, workload, variant_a, variant_b,"
                 " axis, grp, form, a, b, r2, n, better, below) VALUES ('2026-11-22', '%s',"
                 " '%s', '%s', '%s', 'count', 'level', '%s', %.17g, %.17g, %.17g, %d, %d, %s)",
                 card, workload, va, vb, form, better ? a : a + 1, b, r2, n, better, below_sql);
        assert_int_equal(sqlite3_exec(store_db(st), sql, NULL, NULL, NULL), SQLITE_OK);
    }
}

/* The same, of tdm. */
static void store_fit(dm_store *st, const char *card, const char *va, const char *vb,
                      const char *better_form, double a, double b, double r2, int n,
                      const char *below)
{
    store_fit_of(st, "tdm", card, va, vb, better_form, a, b, r2, n, below);
}

/* Plants: an H100 fit replaced by a newer one stored with the pair the other way round,
 * an A100 fit, a fit from a run without a GPU, and one on a card with no runs. */
static void plant_fits(afx *f)
{
    afx_run(f, H100, 9, 0);
    afx_run(f, A100, 8, 0);
    store_fit(f->st, H100, "block-tex", "thread-tex", "a/N + b", 111, 1, 0.9, 4, "block-tex");
    store_fit(f->st, A100, "block-tex", "thread-tex", "a*N + b", -2.5, 10000, 0.875, 3,
              "block-tex");
    store_fit(f->st, "", "block-tex", "thread-tex", "a/N + b", 7, 7, 0.5, 3, NULL);
    store_fit(f->st, H100, "thread-tex", "block-tex", "a/N + b", 3, 4000, 0.5, 4, NULL);
    store_fit(f->st, "Card Without Runs", "block-tex", "thread-tex", "a/N + b", 5, 6, 1, 3,
              "thread-tex");
}

/* The header of workload's stored fits, with *rows the fits in it. */
static char *header_of(afx *f, const char *workload, int *rows)
{
    char *text = NULL;
    size_t len = 0;
    dm_err err = { 0 };
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(crossover_write_header(f->st, workload, "fixture.sqlite", out, rows, &err),
                     0);
    fclose(out);
    return text;
}

static void header_keeps_the_newest_better_fit_per_card(void **state)
{
    afx *f = *state;
    int n;
    plant_fits(f);
    char *text = header_of(f, "tdm", &n);
    assert_int_equal(n, 3);
    assert_non_null(strstr(text, " * fixture.sqlite: the fits of tdm.\n"));
    assert_non_null(strstr(text, "#include \"crossover_lookup.h\"\n"));
    assert_non_null(strstr(text, "static const dm_crossover_fit dm_crossover_fit_table[] = {\n"));
    assert_non_null(strstr(text, "\n    { \"" A100 "\", \"8.0\", \"block-tex\", "
                                 "\"thread-tex\", \"count\", \"level\", \"a*N + b\", -2.5, "
                                 "10000, 0.875, 3, \"block-tex\", NULL, 0 },\n"));
    assert_non_null(strstr(text, "\n    { \"Card Without Runs\", \"\", \"block-tex\", "
                                 "\"thread-tex\", \"count\", \"level\", \"a/N + b\", 5, 6, 1, "
                                 "3, \"thread-tex\", NULL, 0 },\n"));
    /* the H100's newer fit, its pair the other way round, replaces the older */
    assert_non_null(strstr(text, "\n    { \"" H100 "\", \"9.0\", \"thread-tex\", "
                                 "\"block-tex\", \"count\", \"level\", \"a/N + b\", 3, 4000, "
                                 "0.5, 4, NULL, NULL, 0 },\n"));
    assert_null(strstr(text, "111"));
    assert_null(strstr(text, "{ \"\","));  /* no GPU: no card to look up */
    int rows = 0;
    for (const char *p = text; (p = strstr(p, "\n    { \"")); p++)
        rows++;
    assert_int_equal(rows, 3);
    assert_non_null(strstr(text, "    { 0 },\n};\n"));
    assert_null(strstr(text, "none stored yet"));
    free(text);
}

static void header_holds_only_its_workloads_fits(void **state)
{
    afx *f = *state;
    int n;
    plant_fits(f);
    store_fit_of(f->st, "other", H100, "slow", "fast", "a*N + b", 7.5, 8, 0.75, 3, "fast");
    char *text = header_of(f, "other", &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(text, "\n    { \"" H100 "\", \"9.0\", \"slow\", \"fast\", "
                                 "\"count\", \"level\", \"a*N + b\", 7.5, 8, 0.75, 3, "
                                 "\"fast\", NULL, 0 },\n    { 0 },\n};\n"));
    assert_null(strstr(text, "tdm"));
    assert_null(strstr(text, "-tex"));
    free(text);
    text = header_of(f, "tdm", &n);
    assert_int_equal(n, 3);
    assert_null(strstr(text, "other"));
    assert_null(strstr(text, "slow"));
    free(text);
}

static void header_carries_each_groups_measurement(void **state)
{
    afx *f = *state;
    int n;
    plant_fits(f);
    /* groups under the H100's newest better fit (the row before its worse form) */
    int64_t id = afx_int(f->st, "SELECT max(id) FROM crossover_fits WHERE better = 1 AND"
                                " card = '" H100 "'");
    char sql[512];
    snprintf(sql, sizeof sql, "INSERT INTO crossover_groups VALUES (%lld, 4, NULL, 16, 32768,"
             " 'thread-tex'), (%lld, 3, 1500.5, 16, 32768, 'thread-tex')", (long long)id,
             (long long)id);
    assert_int_equal(sqlite3_exec(store_db(f->st), sql, NULL, NULL, NULL), SQLITE_OK);
    char *text = header_of(f, "tdm", &n);
    assert_int_equal(n, 3);
    /* the array, in group order, before the table; the fit's entry points to it */
    const char *array = strstr(text, "static const dm_crossover_measured dm_crossover_measured_2[]"
                                     " = {\n    { 3, 1500.5, 16, 32768, \"thread-tex\" },\n"
                                     "    { 4, NAN, 16, 32768, \"thread-tex\" },\n};\n\n");
    assert_non_null(array);
    assert_true(array < strstr(text, "dm_crossover_fit_table[]"));
    assert_non_null(strstr(text, "\"a/N + b\", 3, 4000, 0.5, 4, NULL, "
                                 "dm_crossover_measured_2, 2 },\n"));
    assert_null(strstr(text, "dm_crossover_measured_0"));
    free(text);
}

static void header_of_no_fits_says_so(void **state)
{
    afx *f = *state;
    int n;
    plant_fits(f);
    char *text = header_of(f, "none", &n);
    assert_int_equal(n, 0);
    assert_non_null(strstr(text, "none stored yet"));
    assert_non_null(strstr(text, "= {\n    /* none"));
    assert_non_null(strstr(text, "    { 0 },\n};\n"));
    free(text);
}

/* The planted fits of tdm as the header writes them, compiled in. */
static const dm_crossover_fit table[] = {
    { "Card Without Runs", "", "block-tex", "thread-tex", "count", "level", "a/N + b", 5, 6, 1, 3, "thread-tex", NULL, 0 },
    { "NVIDIA A100-SXM4-40GB", "8.0", "block-tex", "thread-tex", "count", "level", "a*N + b", -2.5, 10000, 0.875, 3, "block-tex", NULL, 0 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-tex", "block-tex", "count", "level", "a/N + b", 3, 4000, 0.5, 4, NULL, NULL, 0 },
    { 0 },
};

static void lookup_falls_back_from_card_to_family(void **st)
{
    (void)st;
    const dm_workload w = { .name = "w", .fits = table };
    dm_device h100 = { .cc_major = 9 }, h200 = h100, a30 = { .cc_major = 8 },
              v100 = { .cc_major = 7 };
    strcpy(h100.name, H100);
    strcpy(h200.name, "NVIDIA H200");
    strcpy(a30.name, "NVIDIA A30");
    strcpy(v100.name, "Tesla V100");
    const dm_crossover_fit *fit;
    char how[DM_HOW_MAX];
    assert_true(crossover_lookup(&w, &h100, "block-tex", "thread-tex", "count", "level", &fit,
                                 how, sizeof how));
    assert_ptr_equal(fit, &table[2]); /* the pair in either order */
    assert_string_equal(how, "fit of this card (shipped)");
    assert_true(crossover_lookup(&w, &h200, "thread-tex", "block-tex", "count", "level", &fit,
                                 how, sizeof how));
    assert_ptr_equal(fit, &table[2]);
    assert_string_equal(how, "fit of " H100 ", the same architecture 9.0 (shipped)");
    assert_true(crossover_lookup(&w, &a30, "block-tex", "thread-tex", "count", "level", &fit,
                                 how, sizeof how));
    assert_ptr_equal(fit, &table[1]);
    assert_false(crossover_lookup(&w, &v100, "block-tex", "thread-tex", "count", "level", &fit,
                                  how, sizeof how));
    assert_false(crossover_lookup(&w, &h100, "block-tex", "packed", "count", "level", &fit,
                                  how, sizeof how));
    assert_false(crossover_lookup(&w, &h100, "block-tex", "thread-tex", "length", "level", &fit,
                                  how, sizeof how));
    /* the same card wins over an earlier entry of its family */
    const dm_crossover_fit two[] = { table[1], table[2], { 0 } };
    const dm_workload w2 = { .name = "w2", .fits = two };
    dm_device a100 = { .cc_major = 8 };
    strcpy(a100.name, A100);
    assert_true(crossover_lookup(&w2, &a100, "block-tex", "thread-tex", "count", "level", &fit,
                                 how, sizeof how));
    assert_ptr_equal(fit, &two[0]);
}

static void lookup_reads_only_the_workloads_own_fits(void **st)
{
    (void)st;
    static const dm_crossover_fit a100_only[] = { { "NVIDIA A100-SXM4-40GB", "8.0", "block-tex",
                                                    "thread-tex", "count", "level", "a*N + b",
                                                    1, 2, 1, 3, NULL, NULL, 0 },
                                                  { 0 } };
    static const dm_crossover_fit empty[] = { { 0 } };
    const dm_workload with = { .name = "with", .fits = table },
                      other = { .name = "other", .fits = a100_only },
                      bare = { .name = "bare", .fits = empty }, none = { .name = "none" };
    dm_device h200 = { .cc_major = 9 };
    strcpy(h200.name, "NVIDIA H200");
    const dm_crossover_fit *fit = NULL;
    char how[DM_HOW_MAX];
    /* the same device and key: the family's fit in one workload, none in the others */
    assert_true(crossover_lookup(&with, &h200, "block-tex", "thread-tex", "count", "level",
                                 &fit, how, sizeof how));
    assert_ptr_equal(fit, &table[2]);
    assert_string_equal(how, "fit of " H100 ", the same architecture 9.0 (shipped)");
    assert_false(crossover_lookup(&other, &h200, "block-tex", "thread-tex", "count", "level",
                                  &fit, how, sizeof how));
    assert_false(crossover_lookup(&bare, &h200, "block-tex", "thread-tex", "count", "level",
                                  &fit, how, sizeof how));
    assert_false(crossover_lookup(&none, &h200, "block-tex", "thread-tex", "count", "level",
                                  &fit, how, sizeof how));
}

static void fit_is_evaluated_in_its_form(void **st)
{
    (void)st;
    assert_true(crossover_fit_at(&table[2], 4) == 3.0 / 4 + 4000);
    assert_true(crossover_fit_at(&table[1], 4) == -2.5 * 4 + 10000);
}

static void switch_point_follows_what_its_group_measured(void **st)
{
    (void)st;
    /* a/N + b = 40000/N - 2000 with mtpe faster below: 18000 at 2, 8000 at 4, 6000 at 5 */
    static const dm_crossover_measured groups[] = {
        { 2, NAN, 16, 32768, "mtpe" }, /* mtpe faster all along: at least 32768 */
        { 3, 12000.5, 16, 32768, "mtpe" },
        { 4, NAN, 16, 32768, "mtpe" },
        { 4, 7000, 16, 32768, "mtpe" }, /* a second row of group 4: the first speaks */
        { 5, NAN, 1000, 32768, "ptpe" }, /* ptpe faster all along: at most 1000 */
        { 6, NAN, 16, 1000, "mtpe" },    /* the fit (4667) already past the range */
    };
    const dm_crossover_fit fit = { "card", "9.0", "mtpe", "ptpe", "count", "level", "a/N + b",
                                   40000, -2000, 1, 4, "mtpe", groups, 6 },
                           no_below = { "card", "9.0", "mtpe", "ptpe", "count", "level",
                                        "a/N + b", 40000, -2000, 1, 4, NULL, groups, 6 },
                           bare = { "card", "9.0", "mtpe", "ptpe", "count", "level",
                                    "a/N + b", 40000, -2000, 1, 4, "mtpe", NULL, 0 };
    assert_true(crossover_switch_at(&fit, 2) == 32768);
    assert_true(crossover_switch_at(&fit, 3) == 12000.5);
    assert_true(crossover_switch_at(&fit, 4) == 32768);
    assert_true(crossover_switch_at(&fit, 5) == 1000);
    assert_true(crossover_switch_at(&fit, 6) == 40000.0 / 6 - 2000);
    assert_true(crossover_switch_at(&fit, 8) == 3000); /* not measured: the fit */
    /* without a side below, a range says nothing; a crossing still does */
    assert_true(crossover_switch_at(&no_below, 2) == 18000);
    assert_true(crossover_switch_at(&no_below, 3) == 12000.5);
    assert_true(crossover_switch_at(&bare, 4) == 8000);
}

static void command_writes_each_workloads_header_file(void **state)
{
    fixture *f = *state;
    dm_store *st;
    dm_err err = { 0 };
    char path[256];
    fake_variants(f->dir, "fits.h");
    assert_int_equal(store_open(f->db, &st, &err), 0);
    store_fit(st, H100, "block-tex", "thread-tex", "a/N + b", 120000, 2500, 0.99, 4,
              "block-tex");
    store_close(st);
    assert_int_equal(dmbench(f, "crossover --header --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "wrote the 1 stored crossover fit of tdm in"));
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        snprintf(path, sizeof path, "%s/variants/%s/fits.h", f->dir, (*w)->name);
        const char *text = slurp(path);
        if (strcmp((*w)->name, "tdm") == 0) {
            assert_non_null(strstr(text, "{ \"" H100 "\", \"\", \"block-tex\", \"thread-tex\", "
                                         "\"count\", \"level\", \"a/N + b\", 120000, 2500, "
                                         "0.99, 4, \"block-tex\", NULL, 0 },"));
            assert_non_null(strstr(text, "the fits of tdm."));
        } else {
            assert_string_equal(text, "untouched\n"); /* no fits of its own: left alone */
        }
    }
    /* without --header the workload and variants are needed */
    assert_int_equal(dmbench(f, "crossover --db %s", f->db), 2);
    assert_non_null(strstr(slurp(f->errf), "expected a workload and two variants"));
    /* a variants folder without the workload's fits.h: the user's setting is wrong */
    snprintf(path, sizeof path, "%s/none", f->dir);
    assert_int_equal(setenv("DMBENCH_VARIANTS", path, 1), 0);
    assert_int_equal(dmbench(f, "crossover --header --db %s", f->db), 2);
    assert_non_null(strstr(slurp(f->errf), "tdm/fits.h: no such file (DMBENCH_VARIANTS="));
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    /* a database without fits: nothing written */
    snprintf(path, sizeof path, "%s/empty.sqlite", f->dir);
    assert_int_equal(store_open(path, &st, &err), 0);
    store_close(st);
    assert_int_equal(dmbench(f, "crossover --header --db %s", path), 0);
    assert_non_null(strstr(slurp(f->out), "holds no crossover fits of a GPU run: no fits.h "
                                          "written"));
    unsetenv("DMBENCH_VARIANTS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(header_keeps_the_newest_better_fit_per_card, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(header_holds_only_its_workloads_fits, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(header_carries_each_groups_measurement, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(header_of_no_fits_says_so, afx_setup, afx_teardown),
        cmocka_unit_test(lookup_falls_back_from_card_to_family),
        cmocka_unit_test(lookup_reads_only_the_workloads_own_fits),
        cmocka_unit_test(fit_is_evaluated_in_its_form),
        cmocka_unit_test(switch_point_follows_what_its_group_measured),
        cmocka_unit_test_setup_teardown(command_writes_each_workloads_header_file, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
