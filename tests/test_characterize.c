/* test_characterize.c - tdm's study judged on planted fixture databases: medians shaped
 * like the paper's cards (every claim holds), like a modern card (C3, C6 and C8 break, C7
 * cannot be tested at equal clocks), with points or cards missing (not measurable), and
 * the shapes that tell C2's "exponentially", C3's levels and C8's bandwidth apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include "cli_fixture.h"
#include "store_fixture.h"
#include "characterize.h"
#include "report.h"
#include "tdm_fixture.h"

/* The context of the claims on card, reading the study's default sweep. */
static chz_ctx ctx_of(afx *f, const char *card)
{
    return (chz_ctx){ .st = { f->st }, .nst = 1, .card = card,
                      .sweep = fx_study()->claim_sweeps[0] };
}

/* Checks every claim on card (chz_check) and compares the verdicts with want ("HPBU":
 * holds, partly holds, breaks, unmeasured, one letter per claim). */
static void expect(afx *f, const char *card, const char *want)
{
    chz_ctx c = ctx_of(f, card);
    dm_claim_result res[CHZ_MAX_CLAIMS];
    char got[CHZ_MAX_CLAIMS + 1] = "";
    int counts[DM_NVERDICTS], i = 0;
    dm_err err = { 0 };
    assert_int_equal(chz_check(&c, fx_study(), res, counts, &err), 0);
    for (const dm_claim *cl = fx_study()->claims; cl->id; cl++, i++) {
        assert_true(res[i].evidence[0] != '\0');
        /* a hardware note says where the claim breaks, so only (partial) breaks have one */
        assert_true((res[i].verdict == DM_BREAKS || res[i].verdict == DM_PARTLY) ==
                    (res[i].hardware[0] != '\0'));
        got[i] = "HPBU"[res[i].verdict];
    }
    assert_string_equal(got, want);
    assert_int_equal(counts[DM_HOLDS] + counts[DM_PARTLY] + counts[DM_BREAKS] +
                     counts[DM_UNMEASURED], i);
}

/* Claim id judged on card. */
static dm_claim_result judge(afx *f, const char *card, const char *id)
{
    chz_ctx c = ctx_of(f, card);
    const dm_claim *cl = study_claim(fx_study(), id);
    dm_claim_result r;
    dm_err err = { 0 };
    assert_non_null(cl);
    assert_int_equal(chz_judge(&c, cl, &r, &err), 0);
    return r;
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

static void test_flat_medians_break_c1_to_c6(void **state)
{
    afx *f = *state;
    fx_card(f, "flat", 1500, 1000, flat_card, 1.0, 1.0, 3);
    expect(f, "flat", "BBBBBBUU"); /* one card: C7 and C8 compare cards */
}

/* paper_card, but thread-shared falls by less than a third from block 16 (each
 * doubling's drop half the one before): a fall, but not the steep one of the paper. */
static double modest_fall_card(int v, int level, int block, double clk, double mem)
{
    return v == 1 ? clk * 3.0 * (1 + 0.4 * 16.0 / block) : paper_card(v, level, block, clk, mem);
}

/* paper_card, but thread-shared drops by two thirds all at once at block 512. */
static double late_cliff_card(int v, int level, int block, double clk, double mem)
{
    return v == 1 ? clk * (block >= 512 ? 2.0 : 6.0) : paper_card(v, level, block, clk, mem);
}

static void test_c2_a_modest_or_late_fall_is_not_exponential(void **state)
{
    afx *f = *state;
    fx_card(f, "modest", 1500, 1000, modest_fall_card, 1.0, 1.0, 3);
    fx_card(f, "cliff", 1500, 1000, late_cliff_card, 1.0, 1.0, 3);
    dm_claim_result r = judge(f, "modest", "C2");
    assert_int_equal(r.verdict, DM_PARTLY);
    /* the measured shape: each doubling's drop and its ratio to the one before */
    assert_non_null(strstr(r.evidence, "16 to 32 0.6 ms, 32 to 64 0.3 ms (x0.50), 64 to 128 "
                                       "0.15 ms (x0.50)"));
    assert_non_null(strstr(r.evidence, "(28 % faster)"));
    assert_non_null(strstr(r.hardware, "falls by 28 % at most from block 16"));
    r = judge(f, "cliff", "C2");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "(67 % faster)"));
    assert_non_null(strstr(r.evidence, "128 to 256 0 ms, 256 to 512 4 ms."));
    assert_non_null(strstr(r.hardware, "not as a decay"));
    /* the paper's steep, front-loaded fall holds */
    fx_card(f, "steep", 1500, 1000, paper_card, 1.0, 1.0, 3);
    assert_int_equal(judge(f, "steep", "C2").verdict, DM_HOLDS);
}

/* modern_card, but at level 3 the block-parallel time falls to block 128 and rises
 * from there to 512, still below block 16's. */
static double level3_rises_card(int v, int level, int block, double clk, double mem)
{
    if (v < 2 || level < 3)
        return modern_card(v, level, block, clk, mem);
    return (v == 2 ? 1.0 : 1.5) * (16.0 / block + 0.5 * sqrt(block / 512.0));
}

static void test_c3_is_judged_per_level(void **state)
{
    afx *f = *state;
    fx_card(f, "mixed", 1980, 3200, level3_rises_card, 1.0, 1.0, 3);
    dm_claim_result r = judge(f, "mixed", "C3");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "block-tex level 3: 1.088 ms at block 16, fastest 0.375 "
                                       "ms at 128, 0.531"));
    assert_non_null(strstr(r.evidence, " ms at 512 (+42 % from the fastest)"));
    assert_non_null(strstr(r.evidence, "Levels that hold: 3."));
    assert_non_null(strstr(r.hardware, "at levels 1 and 2 the block-parallel time"));
    assert_non_null(strstr(r.hardware, "compute capability 9.0, 132 SMs"));
    fx_card(f, "paper", 1500, 1000, paper_card, 1.0, 1.0, 3);
    assert_int_equal(judge(f, "paper", "C3").verdict, DM_HOLDS);
    fx_card(f, "modern", 1980, 3200, modern_card, 1.0, 1.0, 3);
    r = judge(f, "modern", "C3");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.evidence, "Levels that hold: none."));
    assert_non_null(strstr(r.evidence, "block-tex level 1: 0.105 ms at block 16, fastest at 512 "
                                       "(0.008125 ms)."));
}

static void test_c8_reads_the_bandwidth_not_the_memory_clock(void **state)
{
    afx *f = *state;
    /* equal memory clocks, a 6144-bit bus against 5120: 1.2x the bandwidth, 1.2x faster */
    fx_card(f, "wide", 1500, 3200, paper_card, 1.0, 1.0, 3);
    fx_card(f, "narrow", 1500, 3200, paper_card, 1.0, 1.2, 3);
    fx_bus(f, "wide", "6144");
    dm_claim_result r = judge(f, "wide", "C8");
    assert_int_equal(r.verdict, DM_HOLDS);
    assert_non_null(strstr(r.evidence, "4915 GB/s (6144-bit bus) on wide, 4096 GB/s (5120-bit "
                                       "bus) on narrow. Bandwidth ratio 1.200, time ratio 1.200"));
    afx_close(f);
    assert_int_equal(afx_open(f), 0);
    /* clocks 1.222x and buses 1.2x apart: 1.467x the bandwidth; 1.15x faster is not half of
     * that advantage, though it is more than half of the clock's */
    fx_card(f, "H200", 1980, 3201, paper_card, 1.0, 1.0, 3);
    fx_card(f, "H100", 1980, 2619, paper_card, 1.0, 1.15, 3);
    fx_bus(f, "H200", "6144");
    r = judge(f, "H200", "C8");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.evidence, "Bandwidth ratio 1.467, time ratio 1.150"));
    /* a run that did not note its bus */
    fx_bus(f, "H100", NULL);
    r = judge(f, "H200", "C8");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "The run of H100 did not note its memory clock and bus "
                                       "width"));
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
    chz_ctx c = ctx_of(f, "H200");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int counts[DM_NVERDICTS];
    dm_err err = { 0 };
    assert_int_equal(report_characterize_write(out, &c, fx_study(), "title", "pre", counts,
                                               &err), 0);
    fclose(out);
    assert_int_equal(counts[DM_HOLDS], 4);
    assert_int_equal(counts[DM_PARTLY], 0);
    assert_int_equal(counts[DM_BREAKS], 3);
    assert_int_equal(counts[DM_UNMEASURED], 1);
    assert_int_equal(strncmp(buf, "## title\n\npre\n| claim |", 21), 0);
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
    chz_ctx c = ctx_of(f, "H200");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int counts[DM_NVERDICTS];
    dm_err err = { 0 };
    assert_int_equal(report_characterize_write(out, &c, fx_study(), "title", "pre", counts,
                                               &err), 0);
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

/* The claim of tdm's study with id. */
static const dm_claim *claim(const char *id)
{
    const dm_claim *cl = study_claim(fx_study(), id);
    assert_non_null(cl);
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
    chz_ctx c = ctx_of(f, "H200");
    char buf[CHZ_METRIC_TEXT];
    dm_err err = { 0 };
    /* C8 compares with another card, which is not there: its rule read no median, so its
     * lines come from the runs of the sweep characterized */
    dm_claim_result r = judge(f, "H200", "C8");
    assert_string_equal(r.sweeps, "");
    assert_int_equal(chz_metric_lines(&c, fx_study(), claim("C8"), &r, buf, sizeof buf, &err), 0);
    assert_int_equal(strncmp(buf, "CUPTI, dram_read_bytes (byte, ", 30), 0);
    assert_non_null(strstr(buf, "thread-tex L1 1000 L2 2000 L3 3000.\n"));
    assert_ptr_equal(strchr(buf, '\n'), buf + strlen(buf) - 1);
    r = judge(f, "H200", "C7");
    assert_int_equal(chz_metric_lines(&c, fx_study(), claim("C7"), &r, buf, sizeof buf, &err), 0);
    assert_int_equal(strncmp(buf, "CUPTI: ", 7), 0);
    assert_non_null(strstr(buf, "would back this; not collected (no run of tdm-fig7 on this "
                                "card was made with --metrics).\n"));
    assert_ptr_equal(strchr(buf, '\n'), buf + strlen(buf) - 1);
}

static void test_the_command_judges_any_workload_with_claims(void **state)
{
    afx *f = *state;
    const char *out;
    char args[256];
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    fx_card(f, "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    snprintf(args, sizeof args, "characterize tdm --db %s --card H200", f->path);
    assert_int_equal(dmbench_output(args, &out), 0);
    assert_non_null(strstr(out, "## tdm: the paper's eight characterizations on the H200\n"));
    assert_non_null(strstr(out, "Card: H200 (compute capability 9.0, 132 SMs), run of tdm-fig7 "
                                "started "));
    assert_non_null(strstr(out, "\"best\" is the fastest block of those measured"));
    assert_non_null(strstr(out, "### C8: Block-Level Algorithms are Affected by Memory "
                                "Bandwidth - does not hold"));
    assert_non_null(strstr(out, "characterize: 4 hold, 0 partly hold, 3 do not hold, 1 not "
                                "measurable here\n"));
    /* a workload without claims, and one that is not there: one line, exit 2 */
    assert_int_equal(dmbench_output("characterize membw", &out), 2);
    assert_non_null(strstr(out, "workload membw has no published claims to judge (workloads "
                                "with claims: tdm (Archuleta et al., IPDPS 2009; sweeps "
                                "tdm-fig7, tdm-fig6, tdm-fig9); episodes (Cao et al., CF "
                                "2010, Cao et al., journal version; sweeps episodes-multigpu, "
                                "episodes-mining, episodes-mining-large, episodes-mining-sim64, "
                                "episodes-mining-machines, episodes-hybrid, episodes-table1, "
                                "episodes-levels, episodes-preelim); rules (Cano, Luna & "
                                "Ventura, Springer 2013; sweeps rules-table4, rules-multigpu, "
                                "rules-table6, rules-interpreter, rules-table5-shuttle, "
                                "rules-table5-kddcup, rules-table5-poker); coloc (Sainju & "
                                "Jiang, SSTD 2017; sweeps coloc-table2, coloc-fig6a, "
                                "coloc-fig6b, coloc-fig6c))"));
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
    assert_int_equal(dmbench_output("characterize tdmx", &out), 2);
    assert_non_null(strstr(out, "unknown workload 'tdmx'"));
    assert_int_equal(dmbench_output("characterize", &out), 2);
    /* a sweep with no GPU run in the database */
    snprintf(args, sizeof args, "characterize tdm --db %s --sweep tdm-fig9", f->path);
    assert_int_equal(dmbench_output(args, &out), 2);
    assert_non_null(strstr(out, "no complete GPU run of tdm-fig9 in the databases"));
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
        cmocka_unit_test_setup_teardown(test_flat_medians_break_c1_to_c6, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_c2_a_modest_or_late_fall_is_not_exponential,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_c3_is_judged_per_level, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_c8_reads_the_bandwidth_not_the_memory_clock,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_missing_level_and_card_are_not_measurable,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_write_counts_verdicts_and_quotes_the_paper,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_metric_lines_are_one_line_per_collected_metric,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_the_command_judges_any_workload_with_claims,
                                        afx_setup, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
