/* test_coloc_study.c - the coloc study's twelve rules judged on fabricated medians: the
 * points of the real coloc sweeps (expanded for an H100-like device), timed by a model
 * shaped like the paper's findings, with tweaks that make each rule give every verdict it
 * can; the H100 medians of docs/records/coloc-h100.md; and those read back from a results
 * database by the claims engine. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store_fixture.h"
#include "characterize.h"
#include "study_fixture.h"

#define CARD SFX_H100

static const dm_study *study(void)
{
    const dm_workload *w = registry_workload("coloc", &(dm_err){ 0 });
    assert_non_null(w);
    return w->study;
}

/* ---- models ------------------------------------------------------------------------ */

/* Shaped like the paper's findings, so that every claim holds: cpu takes 20 s on the
 * Seattle data, else 10 s per 250,000 instances times the clumpiness; a GPU variant its
 * speedup less: on the Seattle data CG 100x and CH 20x; at clumpiness 20 CG 35x and CH
 * 5x; below, speedups that grow with the instances (G's faster) to 40x (CG), 30x (CH),
 * 25x (MG) and 20x (MH) at 2,000,000. */
static double paper_model(const char *sweep, const char *variant, const char *params)
{
    static const struct {
        const char *v;
        double seattle, c20, c1, grow;
    } sp[] = {
        { "MG", 90, 30, 25, 0.3 }, { "MH", 20, 5, 20, 0.2 },
        { "CG", 100, 35, 40, 0.3 }, { "CH", 20, 5, 30, 0.2 },
    };
    double n = study_param(params, "instances"), c = study_param(params, "clumpiness");
    int seattle = !strcmp(sweep, "coloc-table2");
    double cpu = seattle ? 20.0 : 10.0 * n / 250000 * c;
    if (!strcmp(variant, "cpu"))
        return cpu;
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
        if (!strcmp(sp[i].v, variant))
            return cpu / (seattle ? sp[i].seattle
                          : c >= 20 ? sp[i].c20
                                    : sp[i].c1 * pow(n / 2e6, sp[i].grow));
    return NAN;
}

/* The H100 medians of docs/records/coloc-h100.md ("Measured on the GPU", 2026-11-25): the
 * Table 2 sweep at every threshold and the Fig. 6(a) sweep at 2,000,000 instances, nothing
 * else. */
static double h100_model(const char *sweep, const char *variant, const char *params)
{
    static const char *const v[7] = { "cpu", "cpu-mt", "MG", "MH", "CG", "CH", "none" };
    static const double seattle[7][7] = { /* theta 0.3 to 0.9 */
        { 20.59, 2.02, 114.6e-3, 110.7e-3, 103.9e-3, 101.6e-3, 332.5e-3 },
        { 1.138, 189.2e-3, 23.9e-3, 24.3e-3, 18.9e-3, 19.5e-3, 37.6e-3 },
        { 223.8e-3, 91.9e-3, 10.0e-3, 10.3e-3, 7.21e-3, 7.50e-3, 17.4e-3 },
        { 203.0e-3, 74.3e-3, 6.58e-3, 6.64e-3, 4.04e-3, 4.14e-3, 14.4e-3 },
        { 94.0e-3, 63.8e-3, 5.18e-3, 5.01e-3, 2.57e-3, 2.54e-3, 12.5e-3 },
        { 79.8e-3, 60.7e-3, 4.44e-3, 4.48e-3, 1.95e-3, 1.96e-3, 12.8e-3 },
        { 57.7e-3, 59.1e-3, 4.55e-3, 4.56e-3, 1.92e-3, 1.93e-3, 13.0e-3 },
    };
    static const double synthetic_2m[7] = { 11.40, 1.79, 23.7e-3, 25.5e-3, 15.3e-3, 17.1e-3,
                                            11.6e-3 };
    int k = 0;
    while (k < 7 && strcmp(v[k], variant))
        k++;
    assert_true(k < 7);
    if (!strcmp(sweep, "coloc-table2"))
        return seattle[lround(study_param(params, "prevalence") * 10) - 3][k];
    if (!strcmp(sweep, "coloc-fig6a") && study_param(params, "instances") == 2000000)
        return synthetic_2m[k];
    return NAN;
}

/* ---- the fixture: the study's sweeps on CARD, judged there --------------------------- */

static dm_claim_result judge(sfx *f, const char *id)
{
    return sfx_judge(f, "H100", id);
}

static void expect(sfx *f, const char *id, dm_verdict want)
{
    sfx_expect(f, "H100", id, want);
}

static int setup(void **state)
{
    *state = sfx_open("coloc", paper_model);
    return *state ? 0 : -1;
}

/* ---- the paper's shape, and each rule's verdicts -------------------------------------- */

static void paper_shaped_medians_hold_every_claim(void **state)
{
    sfx_expect_all(*state, "H100", DM_HOLDS, 12);
    assert_true(12 <= CHZ_MAX_CLAIMS);
}

static void c1_over_30x_on_millions(void **state)
{
    sfx *f = *state;
    dm_claim_result r = judge(f, "C1");
    assert_non_null(strstr(r.evidence, "2,000,000 instances at clumpiness 1: cpu 80 s; MG 3.2 "
                                       "s, 25.0x; MH 4 s, 20.0x; CG 2 s, 40.0x; CH 2.667 s, "
                                       "30.0x. Rule: holds when the fastest of the paper's "
                                       "four GPU variants (here CG)"));
    sfx_tw(f, NULL, "CG", "instances=2000000", 1.5); /* 26.7x, still the fastest */
    sfx_tw(f, NULL, "CH", "instances=2000000", 1.5);
    r = judge(f, "C1");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "this one ran cpu 0.426x as fast (80 s against 34.1 s), "
                                       "and its fastest GPU variant took 3 s where the "
                                       "paper's, CG, took 0.9 s"));
    sfx_tw(f, NULL, "MG", "instances=2000000", NAN);
    r = judge(f, "C1");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_string_equal(r.evidence, "no ok point of MG at 2,000,000 instances at clumpiness 1 "
                                    "(instances=2000000,clumpiness=1,distance=10,prevalence=0.5) "
                                    "on a card named like \"H100\" in complete runs of "
                                    "coloc-fig6a.");
}

static void c2_speedups_grow_with_the_instances(void **state)
{
    sfx *f = *state;
    sfx_tw(f, NULL, "CH", "instances=2000000,clumpiness=1", 1.6); /* 18.75x after 19.8x */
    dm_claim_result r = judge(f, "C2");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "; CH 505.2 ms and 4.267 s, 19.8x then 18.8x."));
    assert_non_null(strstr(r.hardware, "from 250,000 instances at clumpiness 1 to 2,000,000 "
                                       "instances at clumpiness 1 cpu's time grew 8x, CG's "
                                       "4.29x and CH's 8.44x, on " CARD));
    sfx_tw(f, NULL, "CG", "instances=2000000,clumpiness=1", 3);
    expect(f, "C2", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "coloc-fig6a", "cpu", "instances=250000", NAN);
    expect(f, "C2", DM_UNMEASURED);
}

static void c3_g_overtakes_h_from_500k(void **state)
{
    sfx *f = *state;
    sfx_tw(f, NULL, "CH", "instances=500000", 2); /* ahead at 2M, but by less than at 500k */
    dm_claim_result r = judge(f, "C3");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "CH/CG goes from 2.32 at 500,000 instances to 1.33"));
    assert_non_null(strstr(r.hardware, "Besides the card: this H hashes the whole prefix"));
    sfx_untweak(f);
    sfx_tw(f, NULL, "CH", "instances=2000000", 0.5);
    expect(f, "C3", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, NULL, "CG", "instances=500000", NAN);
    expect(f, "C3", DM_UNMEASURED);
}

static void c4_g_persistently_ahead_at_clumpiness_20(void **state)
{
    sfx *f = *state;
    dm_claim_result r = judge(f, "C4");
    assert_non_null(strstr(r.evidence, "50,000 instances at clumpiness 20: CG 1.143 s, CH 8 s, "
                                       "CH/CG 7.00. 100,000"));
    sfx_tw(f, "coloc-fig6b", "CH", "instances=100000", 0.1);
    r = judge(f, "C4");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "CG is not 5 % faster than CH at 100,000 instances at "
                                       "clumpiness 20, on " CARD " (compute capability 9.0, "
                                       "132 SMs) against the paper's Quadro K6000"));
    sfx_tw(f, "coloc-fig6b", "CH", "clumpiness=20", 0.1);
    expect(f, "C4", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "coloc-fig6b", "CG", "instances=150000", NAN);
    expect(f, "C4", DM_UNMEASURED);
    /* Fig. 6(c)'s point at 250,000 does not stand in for Fig. 6(b)'s */
    sfx_untweak(f);
    sfx_tw(f, "coloc-fig6b", "CG", "instances=250000", NAN);
    expect(f, "C4", DM_UNMEASURED);
}

static void c5_clumpiness_helps_g_and_hurts_h(void **state)
{
    sfx *f = *state;
    sfx_tw(f, "coloc-fig6c", "CH", "clumpiness=20", 0.1); /* 50x at 20 against 19.8x at 1 */
    dm_claim_result r = judge(f, "C5");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "250,000 instances at clumpiness 1, then 250,000 "
                                       "instances at clumpiness 20: cpu 10 s and 200 s; CG "
                                       "466.5 ms and 5.714 s, 21.4x then 35.0x; CH 505.2 ms "
                                       "and 4 s, 19.8x then 50.0x. Rule:"));
    assert_non_null(strstr(r.hardware, "at clumpiness 20 cpu's time grew 20x, CG's 12.2x and "
                                       "CH's 7.92x"));
    sfx_tw(f, "coloc-fig6c", "CG", "clumpiness=20", 3);
    expect(f, "C5", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "coloc-fig6c", "cpu", "clumpiness=20", NAN);
    expect(f, "C5", DM_UNMEASURED);
}

static void c6_c7_c12_speedups_against_the_papers(void **state)
{
    sfx *f = *state;
    dm_claim_result r = judge(f, "C12");
    assert_non_null(strstr(r.evidence, "Seattle at theta 0.3: cpu 20 s (the paper's 347.4 s); "
                                       "MH 1 s, 20.0x (the paper's 26.8 s, 13x); CG 200 ms, "
                                       "100.0x (the paper's 5.5 s, 63.2x); CH 1 s, 20.0x (the "
                                       "paper's 27.4 s, 12.7x)."));
    sfx_tw(f, NULL, "CG", "prevalence=0.3", 2); /* 50x < 63.2x */
    r = judge(f, "C12");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "against the paper's machine (a Xeon E5-2687W v4 core, "
                                       "a Quadro K6000 (2880 cores, 12 GB)), this one ran cpu "
                                       "17.4x as fast (20 s against 347.4 s), MH 26.8x as fast "
                                       "(1 s against 26.8 s), CG 13.8x as fast (400 ms against "
                                       "5.5 s), CH 27.4x as fast (1 s against 27.4 s)"));
    sfx_tw(f, "coloc-table2", "MH", "", 2);
    sfx_tw(f, "coloc-table2", "CH", "", 2);
    expect(f, "C12", DM_BREAKS);
    sfx_tw(f, NULL, "cpu", "prevalence=0.3", NAN);
    expect(f, "C12", DM_UNMEASURED);

    sfx_untweak(f);
    sfx_tw(f, NULL, "CG", "instances=2000000", 1.1); /* 36.4x < 37.9x */
    expect(f, "C6", DM_PARTLY);
    sfx_tw(f, NULL, "MH", "instances=2000000", 2);
    sfx_tw(f, NULL, "CH", "instances=2000000", 2);
    expect(f, "C6", DM_BREAKS);
    sfx_tw(f, NULL, "CH", "instances=2000000", NAN);
    expect(f, "C6", DM_UNMEASURED);

    sfx_untweak(f);
    sfx_tw(f, NULL, "CG", "clumpiness=20", 2); /* 17.5x < 29.4x */
    expect(f, "C7", DM_PARTLY);
    sfx_tw(f, NULL, "MH", "clumpiness=20", 2);
    sfx_tw(f, NULL, "CH", "clumpiness=20", 2);
    expect(f, "C7", DM_BREAKS);
    sfx_tw(f, NULL, "cpu", "clumpiness=20", NAN);
    expect(f, "C7", DM_UNMEASURED);
}

/* Table 1's clumpiness-20 row is read from the newer of the Fig. 6(b) and 6(c) runs. */
static void c7_c9_read_the_newest_run_of_either_figure(void **state)
{
    sfx *f = *state;
    sfx_tw(f, "coloc-fig6b", "CH", "instances=250000,clumpiness=20", 0.1);
    expect(f, "C9", DM_HOLDS); /* fig6c's run is the newer */
    snprintf(f->started[2], sizeof f->started[2], "2026-11-29T12:00:00Z");
    dm_claim_result r = judge(f, "C9");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.evidence, "CH/CG 0.70. Rule: holds when CG is at least 5 % faster "
                                       "than CH (the paper's CH took 97 s against CG's 13.9 s, "
                                       "6.98x)."));
    assert_non_null(strstr(r.hardware, "against the paper's times, CG 2.43x as fast (5.714 s "
                                       "against 13.9 s), CH 24.2x as fast (4 s against 97 s)."));
    assert_non_null(strstr(r.hardware, "Besides the card"));
    sfx_tw(f, NULL, "CG", "clumpiness=20", NAN);
    r = judge(f, "C9");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "in complete runs of coloc-fig6b or coloc-fig6c."));
}

static void c8_cell_aggregates_beat_multiresolution(void **state)
{
    sfx *f = *state;
    dm_claim_result r = judge(f, "C8");
    assert_non_null(strstr(r.evidence, "The paper's MH took 1.9 s against CH's 1.2 s (1.58x)"));
    sfx_tw(f, NULL, "MH", "instances=2000000", 0.6);
    r = judge(f, "C8");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "CH is not 5 % faster than MH at 2,000,000 instances at "
                                       "clumpiness 1, on"));
    /* MG has no time in the paper's table */
    assert_non_null(strstr(r.hardware, "; against the paper's times, CH 0.45x as fast (2.667 s "
                                       "against 1.2 s), MH 0.792x as fast (2.4 s against 1.9 s), "
                                       "CG 0.45x as fast (2 s against 0.9 s)."));
    assert_null(strstr(r.hardware, "MG "));
    assert_null(strstr(r.hardware, "Besides the card"));
    sfx_tw(f, NULL, "MG", "instances=2000000", 0.6);
    expect(f, "C8", DM_BREAKS);
    sfx_tw(f, NULL, "MG", "instances=2000000", NAN);
    expect(f, "C8", DM_UNMEASURED);
}

static void c10_c11_g_over_h_on_seattle(void **state)
{
    sfx *f = *state;
    sfx_tw(f, NULL, "CH", "prevalence=0.3", 0.1);
    expect(f, "C10", DM_PARTLY);
    expect(f, "C11", DM_BREAKS);
    sfx_tw(f, NULL, "CH", "", 0.1);
    expect(f, "C10", DM_BREAKS);
    sfx_tw(f, NULL, "CG", "prevalence=0.9", NAN);
    expect(f, "C10", DM_UNMEASURED);
    expect(f, "C11", DM_BREAKS);
    sfx_tw(f, NULL, "CG", "prevalence=0.3", NAN);
    expect(f, "C11", DM_UNMEASURED);
}

static void no_card_no_claim(void **state)
{
    sfx *f = *state;
    for (const dm_claim *cl = study()->claims; cl->id; cl++) {
        dm_claim_result r = sfx_judge(f, "A100", cl->id);
        assert_int_equal(r.verdict, DM_UNMEASURED);
        assert_non_null(strstr(r.evidence, "on a card named like \"A100\""));
    }
}

/* ---- the H100's medians --------------------------------------------------------------- */

/* On the H100 (Table 2's sweep and Fig. 6(a)'s 2M point): the speedups hold, G is not
 * ahead of H on the Seattle data (C10, C11), the rest is not measured yet. */
#define H100_VERDICTS "HUUUUHUHUBBH"

static void the_h100_medians(void **state)
{
    sfx *f = *state;
    char got[16];
    f->model = h100_model;
    sfx_verdicts(f, "H100", got);
    assert_string_equal(got, H100_VERDICTS);
    dm_claim_result r = judge(f, "C11");
    assert_non_null(strstr(r.evidence, "Seattle at theta 0.3: CG 103.9 ms, CH 101.6 ms, CH/CG "
                                       "0.98."));
    assert_non_null(strstr(r.hardware, "CG 52.9x as fast (103.9 ms against 5.5 s), CH 270x as "
                                       "fast (101.6 ms against 27.4 s)."));
    r = judge(f, "C12");
    assert_non_null(strstr(r.evidence, "CG 103.9 ms, 198.2x (the paper's 5.5 s, 63.2x)"));
}

static void the_engine_reads_them_from_a_database(void **state)
{
    sfx *f = *state;
    afx db;
    assert_int_equal(afx_open(&db), 0);
    f->model = h100_model;
    sfx_plant(f, &db);
    chz_ctx c = { .st = { db.st }, .nst = 1, .card = "H100",
                  .sweep = study()->claim_sweeps[0] };
    dm_claim_result res[CHZ_MAX_CLAIMS];
    int counts[DM_NVERDICTS], i = 0;
    char got[16];
    dm_err err = { 0 };
    assert_int_equal(chz_check(&c, study(), res, counts, &err), 0);
    for (const dm_claim *cl = study()->claims; cl->id; cl++, i++)
        got[i] = "HPBU"[res[i].verdict];
    got[i] = '\0';
    assert_string_equal(got, H100_VERDICTS);
    assert_int_equal(counts[DM_BREAKS], 2);
    assert_int_equal(afx_close(&db), 0);
}

/* Tables 1 and 2 beside the measured: each approach's total time and speedup over cpu at
 * the table's setting; none for the filter and refinement times. */
static void tables_1_and_2_beside_the_measured(void **state)
{
    sfx *f = *state;
    /* paper_model: Seattle cpu 20 s, CG 100x; clumpiness 1 at 2M cpu 80 s, CH 30x; at
     * clumpiness 20 and 250k cpu 200 s, MH 5x */
    static const struct {
        const char *target, *row, *column;
        double want;
        const char *how;
    } cases[] = {
        { "colocation-table2", "approach=CPU Baseline", "Total Time", 20,
          "cpu, Seattle at theta 0.3" },
        { "colocation-table2", "approach=GPU-Filter:C, Refine:G", "Total Time", 0.2,
          "CG, Seattle at theta 0.3" },
        { "colocation-table2", "approach=GPU-Filter:C, Refine:G", "Speedup", 100,
          "cpu over CG, Seattle at theta 0.3" },
        { "colocation-table1", "clumpiness=1;approach=GPU-Filter:C, Refine:H", "Speedup", 30,
          "cpu over CH, 2,000,000 instances at clumpiness 1" },
        { "colocation-table1", "clumpiness=20;approach=GPU-Filter:M, Refine:H", "Total Time",
          40, "MH, 250,000 instances at clumpiness 20" },
        { "colocation-table2", "approach=GPU-Filter:C, Refine:G", "Filter Time", NAN, "" },
        { "colocation-table2", "approach=GPU-Filter:X, Refine:G", "Total Time", NAN, "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        sfx_expect_measured(f, cases[i].target, cases[i].row, cases[i].column, cases[i].want,
                            cases[i].how);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, sfx_teardown)
    const struct CMUnitTest tests[] = {
        T(paper_shaped_medians_hold_every_claim),
        T(c1_over_30x_on_millions),
        T(c2_speedups_grow_with_the_instances),
        T(c3_g_overtakes_h_from_500k),
        T(c4_g_persistently_ahead_at_clumpiness_20),
        T(c5_clumpiness_helps_g_and_hurts_h),
        T(c6_c7_c12_speedups_against_the_papers),
        T(c7_c9_read_the_newest_run_of_either_figure),
        T(c8_cell_aggregates_beat_multiresolution),
        T(c10_c11_g_over_h_on_seattle),
        T(no_card_no_claim),
        T(the_h100_medians),
        T(the_engine_reads_them_from_a_database),
        T(tables_1_and_2_beside_the_measured),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
