/* test_characterize.c - the tdm claims judged on planted fixture databases: medians shaped
 * like the paper's cards (every claim holds), like a modern card (C3, C6 and C8 break, C7
 * cannot be tested at equal clocks), and with points or cards missing (not measurable). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "analysis_fixture.h"
#include "characterize.h"

static const dm_param_spec tdmfx_dataset_params[] = {
    { .name = "length", .type = DM_P_INT, .def = "393019" },
    { 0 },
};
static const dm_param_spec tdmfx_problem_params[] = {
    { .name = "level", .type = DM_P_INT, .def = "1" },
    { 0 },
};
static const dm_param_spec tdmfx_kernel_params[] = {
    { .name = "block", .type = DM_P_INT, .def = "128" },
    { 0 },
};
static const dm_variant tdmfx_variants[] = {
    { .name = "thread-tex", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { .name = "thread-shared", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { .name = "block-tex", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { .name = "block-shared", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { 0 },
};
static const dm_workload tdmfx = {
    .name = "tdm",
    .dataset_params = tdmfx_dataset_params,
    .problem_params = tdmfx_problem_params,
    .variants = tdmfx_variants,
};
static const int fx_blocks[] = { 16, 32, 64, 128, 256, 512, 1024 };

/* A complete run of tdm-fig7 on card with the given clocks at start; returns its id. */
static int64_t fx_run(afx *f, const char *card, double sm_mhz, double mem_mhz)
{
    dm_device dev = { .cc_major = 9, .cc_minor = 0, .sms = 132, .l2_bytes = 50 << 20 };
    snprintf(dev.name, sizeof dev.name, "%s", card);
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = { .device = &dev, .workload = "tdm", .sweep_name = CHZ_TDM_SWEEP,
                         .sweep_text = "fixture", .measure = &mo, .sm_clock_mhz_start = sm_mhz,
                         .mem_clock_mhz_start = mem_mhz };
    int64_t id = 0;
    dm_err err = { 0 };
    assert_int_equal(store_run_begin(f->st, &info, &id, &err), 0);
    assert_int_equal(store_run_end(f->st, id, "complete", &err), 0);
    return id;
}

/* Stores an ok point of variant v at level and block whose samples centre on ms. */
static void fx_point(afx *f, int64_t run, int64_t idx, int v, int level, int block, double ms)
{
    const dm_param_spec *specs[] = { &tdmfx_dataset_params[0], &tdmfx_problem_params[0],
                                     &tdmfx_kernel_params[0] };
    dm_point pt = { .workload = &tdmfx, .variant = &tdmfx_variants[v], .nparams = 3 };
    for (int i = 0; i < 3; i++)
        pt.specs[i] = specs[i];
    pt.values[0] = (dm_value){ .type = DM_P_INT, .i = 393019 };
    pt.values[1] = (dm_value){ .type = DM_P_INT, .i = level };
    pt.values[2] = (dm_value){ .type = DM_P_INT, .i = block };
    double x[10];
    dm_sample s[10];
    afx_samples(x, 10, ms * 1e-3, 0.002);
    for (int i = 0; i < 10; i++)
        s[i] = (dm_sample){ .seconds = x[i], .batch = 1, .sm_mhz = NAN };
    dm_measurement m = { .samples = s, .n = 10, .stop_reason = "noise", .batch = 1,
                         .clock_source = "nvml", .sm_mhz_before = NAN, .sm_mhz_after = NAN };
    stats_compute(x, 10, &m.stats);
    dm_point_result r = { .run_id = run, .index = idx, .point = &pt, .status = "ok",
                          .verify = "match", .m = &m, .started = 1.7e9, .ended = 1.7e9 + 1 };
    int64_t id = 0;
    dm_err err = { 0 };
    assert_int_equal(store_point(f->st, &r, &id, &err), 0);
}

/* The time model of a fixture card: ms for variant v at level and block. */
typedef double (*fx_model)(int v, int level, int block, double clk, double mem);

/* Like the paper's GTX 280: thread-parallel constant over levels and set by the clock,
 * thread-shared falling with block size, block-parallel rising with block size, growing
 * with the level and set by memory bandwidth. */
static double paper_card(int v, int level, int block, double clk, double mem)
{
    if (v == 0)
        return 3.2 * clk;
    if (v == 1)
        return 3.0 * clk * (1 + 0.5 * 16.0 / block);
    return (v == 2 ? 1.0 : 1.5) * 0.1 * level * level * level * (1 + block / 64.0) * mem;
}

/* Like an H200: block-parallel falling with block size and deaf to memory bandwidth. */
static double modern_card(int v, int level, int block, double clk, double mem)
{
    (void)mem;
    if (v < 2)
        return paper_card(v, level, block, clk, 1);
    return (v == 2 ? 1.0 : 1.5) * 0.1 * level * level * (16.0 / block + 0.05);
}

/* A card where nothing depends on block size: thread-parallel time grows with the level,
 * thread-shared is slower than thread-tex, and block-parallel is barely faster. */
static double flat_card(int v, int level, int block, double clk, double mem)
{
    (void)block, (void)clk, (void)mem;
    return (v == 0 ? 1.0 : v == 1 ? 1.2 : v == 2 ? 0.6 : 0.9) * level;
}

/* Plants a run on card of every variant, the levels up to max_level and every block. */
static void fx_card(afx *f, const char *card, double sm_mhz, double mem_mhz, fx_model model,
                    double clk, double mem, int max_level)
{
    int64_t run = fx_run(f, card, sm_mhz, mem_mhz), idx = 0;
    for (int v = 0; v < 4; v++)
        for (int l = 1; l <= max_level; l++)
            for (int b = 0; b < 7; b++)
                fx_point(f, run, idx++, v, l, fx_blocks[b], model(v, l, fx_blocks[b], clk, mem));
}

/* Checks every claim on card and compares the verdicts with want ("HBU": holds, breaks,
 * unmeasured, one letter per claim). */
static void expect(afx *f, const char *card, const char *want)
{
    chz_ctx c = { .st = { f->st }, .nst = 1, .card = card };
    char got[16] = "";
    int i = 0;
    for (const chz_claim *cl = chz_tdm_claims; cl->id; cl++, i++) {
        chz_result r = { 0 };
        dm_err err = { 0 };
        assert_int_equal(cl->check(&c, &r, &err), 0);
        assert_true(r.evidence[0] != '\0');
        assert_true((r.verdict == CHZ_BREAKS) == (r.hardware[0] != '\0'));
        got[i] = "HBU"[r.verdict];
    }
    assert_string_equal(got, want);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
