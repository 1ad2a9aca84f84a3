/* test_characterize.c - the tdm claims judged on planted fixture databases: medians shaped
 * like the paper's cards (every claim holds), like a modern card (C3, C6 and C8 break, C7
 * cannot be tested at equal clocks), and with points or cards missing (not measurable). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "characterize.h"
#include "tdm_fixture.h"

/* Checks every claim on card (chz_check) and compares the verdicts with want ("HBU":
 * holds, breaks, unmeasured, one letter per claim). */
static void expect(afx *f, const char *card, const char *want)
{
    chz_ctx c = { .st = { f->st }, .nst = 1, .card = card };
    chz_result res[CHZ_MAX_CLAIMS];
    char got[CHZ_MAX_CLAIMS + 1] = "";
    int counts[3], i = 0;
    dm_err err = { 0 };
    assert_int_equal(chz_check(&c, chz_tdm_claims, res, counts, &err), 0);
    for (const chz_claim *cl = chz_tdm_claims; cl->id; cl++, i++) {
        assert_true(res[i].evidence[0] != '\0');
        assert_true((res[i].verdict == CHZ_BREAKS) == (res[i].hardware[0] != '\0'));
        got[i] = "HBU"[res[i].verdict];
    }
    assert_string_equal(got, want);
    assert_int_equal(counts[CHZ_HOLDS] + counts[CHZ_BREAKS] + counts[CHZ_UNMEASURED], i);
}

static void test_paper_shaped_medians_hold_every_claim(void **state)
{
    afx *f = *state;
    fx_card(f, "GTX 280", 1500, 1000, paper_card, 1.0, 1.0, 3);
    fx_card(f, "8800 GTS", 1000, 500, paper_card, 1.5, 2.0, 3);
    expect(f, "GTX 280", "HHHHHHHH");
}

static void test_modern_medians_break_c3_c6_c8(void **state)
{
    afx *f = *state;
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    fx_card(f, "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    expect(f, "H200", "HHBHHBUB");
}

static void test_clock_scaling_that_misses_the_ratio_breaks_c7(void **state)
{
    afx *f = *state;
    fx_card(f, "GTX 280", 1500, 1000, paper_card, 1.0, 1.0, 3);
    fx_card(f, "8800 GTS", 1000, 500, paper_card, 1.0, 2.0, 3); /* slower clock, same time */
    expect(f, "GTX 280", "HHHHHHBH");
}

static void test_flat_medians_break_c1_c2_c4_c5_c6(void **state)
{
    afx *f = *state;
    fx_card(f, "flat", 1500, 1000, flat_card, 1.0, 1.0, 3);
    expect(f, "flat", "BBHBBBUU"); /* one card: C7 and C8 compare cards */
}

static void test_missing_level_and_card_are_not_measurable(void **state)
{
    afx *f = *state;
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 2);
    expect(f, "H200", "UUUHHUUU"); /* C1-C3 need level 3 */
    expect(f, "no such card", "UUUUUUUU");
}

static void test_write_counts_verdicts_and_quotes_the_paper(void **state)
{
    afx *f = *state;
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    fx_card(f, "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    chz_ctx c = { .st = { f->st }, .nst = 1, .card = "H200" };
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int counts[3];
    dm_err err = { 0 };
    assert_int_equal(chz_write(&c, chz_tdm_claims, "title", "pre", out, counts, &err), 0);
    fclose(out);
    assert_int_equal(counts[CHZ_HOLDS], 4);
    assert_int_equal(counts[CHZ_BREAKS], 3);
    assert_int_equal(counts[CHZ_UNMEASURED], 1);
    assert_non_null(strstr(buf, "| C6: Thread-Level Parallelism is Sufficient for Large Problem "
                                "Sizes | line 283 | does not hold |"));
    assert_non_null(strstr(buf, "Paper (heading line 296), line 296: \"Algorithm 3 can be "
                                "greatly effected"));
    assert_non_null(strstr(buf, "dram__bytes_read.sum"));
    free(buf);
}

static void test_counters_of_the_run_are_shown_under_their_claims(void **state)
{
    afx *f = *state;
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    /* achieved occupancy of every H200 launch: 10 % per level */
    assert_int_equal(sqlite3_exec(store_db(f->st),
        "INSERT INTO metrics (point_id, kernel, launch_index, metric, value, unit)"
        " SELECT p.id, 'k', 0, 'achieved_occupancy', 10 * l.value_num, '%' FROM points p"
        " JOIN point_params l ON l.point_id = p.id AND l.name = 'level'", NULL, NULL, NULL),
        SQLITE_OK);
    chz_ctx c = { .st = { f->st }, .nst = 1, .card = "H200" };
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int counts[3];
    dm_err err = { 0 };
    assert_int_equal(chz_write(&c, chz_tdm_claims, "title", "pre", out, counts, &err), 0);
    fclose(out);
    assert_non_null(strstr(buf, "CUPTI, achieved_occupancy (%, mean over the launches of each "
                                "variant's fastest block; H200 run of tdm-fig7"));
    assert_non_null(strstr(buf, "thread-tex L1 10 L2 20 L3 30"));
    /* a claim whose metric was not collected still says what would back it */
    assert_non_null(strstr(buf, "CUPTI: dram__bytes_read.sum (dram_read_bytes) and "
                                "lts__t_sector_hit_rate.pct (l2_hit_rate) would back this; not "
                                "collected"));
    free(buf);
}

/* The claim with id in chz_tdm_claims. */
static const chz_claim *claim(const char *id)
{
    const chz_claim *cl = chz_tdm_claims;
    while (cl->id && strcmp(cl->id, id))
        cl++;
    assert_non_null(cl->id);
    return cl;
}

static void test_metric_lines_are_one_line_per_collected_metric(void **state)
{
    afx *f = *state;
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    /* C8 reads dram_read_bytes and l2_hit_rate: only the first is collected */
    assert_int_equal(sqlite3_exec(store_db(f->st),
        "INSERT INTO metrics (point_id, kernel, launch_index, metric, value, unit)"
        " SELECT p.id, 'k', 0, 'dram_read_bytes', 1000 * l.value_num, 'byte' FROM points p"
        " JOIN point_params l ON l.point_id = p.id AND l.name = 'level'", NULL, NULL, NULL),
        SQLITE_OK);
    chz_ctx c = { .st = { f->st }, .nst = 1, .card = "H200" };
    char buf[CHZ_METRIC_TEXT];
    dm_err err = { 0 };
    assert_int_equal(chz_metric_lines(&c, claim("C8"), buf, sizeof buf, &err), 0);
    assert_int_equal(strncmp(buf, "CUPTI, dram_read_bytes (byte, ", 30), 0);
    assert_non_null(strstr(buf, "thread-tex L1 1000 L2 2000 L3 3000.\n"));
    assert_ptr_equal(strchr(buf, '\n'), buf + strlen(buf) - 1);
    assert_int_equal(chz_metric_lines(&c, claim("C7"), buf, sizeof buf, &err), 0);
    assert_int_equal(strncmp(buf, "CUPTI: ", 7), 0);
    assert_non_null(strstr(buf, "would back this; not collected (no run of tdm-fig7 on this "
                                "card was made with --metrics).\n"));
    assert_ptr_equal(strchr(buf, '\n'), buf + strlen(buf) - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_paper_shaped_medians_hold_every_claim, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_counters_of_the_run_are_shown_under_their_claims,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_modern_medians_break_c3_c6_c8, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_clock_scaling_that_misses_the_ratio_breaks_c7,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_flat_medians_break_c1_c2_c4_c5_c6, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_missing_level_and_card_are_not_measurable,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_write_counts_verdicts_and_quotes_the_paper,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_metric_lines_are_one_line_per_collected_metric,
                                        afx_setup, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
