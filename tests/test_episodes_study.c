/* test_episodes_study.c - the episodes study's eleven rules judged on fabricated medians:
 * the points of the real episodes sweeps (the multi-GPU one also with the 2.5x stream's
 * parameters, as it was run), timed by a model shaped like the papers' findings, with
 * tweaks that make each rule give every verdict it can; the H200 medians of the multi-GPU
 * runs of docs/records/episodes-multigpu-h200-2026-11-26.md; and those read back from a
 * results database by the claims engine, each stream's points from its own run of the one
 * sweep. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "characterize.h"
#include "study_fixture.h"

#define CARD "NVIDIA H200"

/* The 2.5x stream's run of the multi-GPU sweep (setup: the last), beside Sym26's. */
static const char *const LARGE[] = { "neurons=64", "seconds=100", "support=[120,200,400]",
                                     NULL };

/* ---- models ------------------------------------------------------------------------ */

/* Shaped like the papers' findings, so that every claim holds.
 * Counting: PTPE walks the stream, 20 ms whatever the episodes; MTPE takes 2 us an episode
 * and level (so it crosses PTPE at 10,000 / level episodes); hybrid the faster of the two;
 * PreElim half of PTPE. Mining at support S: hybrid 3 / S s; two-pass half of it; PTPE
 * alone 1 + S / 60 times hybrid, MTPE alone 1 + 60 / S times (K = N; more with fewer
 * machines); cpu-mt 10 times hybrid. Several GPUs: one GPU with PTPE or hybrid 6 / S s,
 * two-pass 2.5 times faster; G GPUs 0.8 G (lo / S)^2 times faster (lo the stream's
 * lowest support), 0.9 at least, two-pass 1.1 times faster than PTPE on them; cpu-mt 16
 * times two-pass on one GPU. */
static double paper_model(const char *sweep, const char *variant, const char *params)
{
    double level = study_param(params, "level"), count = study_param(params, "count");
    double s = study_param(params, "support"), slow = study_param(params, "machines") > 0;
    if (!strcmp(sweep, "episodes-multigpu")) {
        double one = 6 / s, g = study_param(params, "gpus");
        double lo = study_param(params, "neurons") == 64 ? 120 : 30;
        double x = g == 1 ? 1 : fmax(0.9, 0.8 * g * (lo / s) * (lo / s));
        if (!strcmp(variant, "cpu-mt"))
            return 16 * one / 2.5;
        if (study_params_match(params, "counting=twopass"))
            return one / x / (g == 1 ? 2.5 : 1.1);
        return one / x;
    }
    if (s > 0) {
        double hybrid = 3 / s;
        if (!strcmp(variant, "hybrid"))
            return hybrid;
        if (!strcmp(variant, "twopass"))
            return hybrid / 2;
        if (!strcmp(variant, "ptpe"))
            return hybrid * (1 + s / 60);
        if (!strcmp(variant, "mtpe"))
            return hybrid * (1 + 60 / s) * (slow ? 2 : 1);
        return 10 * hybrid * (strcmp(variant, "cpu-mt") ? 1.2 : 1);
    }
    double mtpe = 2e-6 * (count > 0 ? count : pow(26, level)) * level * (slow ? 2 : 1);
    if (!strcmp(variant, "ptpe"))
        return 20e-3;
    if (!strcmp(variant, "mtpe"))
        return mtpe;
    if (!strcmp(variant, "hybrid"))
        return fmin(20e-3, mtpe);
    if (!strcmp(variant, "preelim"))
        return 10e-3;
    return 50 * fmin(20e-3, mtpe); /* cpu-mt */
}

/* The medians of the multi-GPU runs on four H200s, 2026-11-26 (ms, as the databases
 * results/episodes-multigpu-{sym26,large}-h200x4-2026-11-26.sqlite hold them to four
 * digits; docs/records/episodes-multigpu-h200-2026-11-26.md rounds them): cpu-mt, then
 * PTPE, hybrid and two-pass on 1, 2 and 4 GPUs, per support; nothing else was measured. */
static const struct {
    int neurons, support;
    double cpu, t[3][3];
} H200[] = {
    { 26, 30, 336.5, { { 322.4, 286.7, 262 }, { 168.8, 91.29, 55.76 }, { 480.7, 453.4, 424.4 } } },
    { 26, 40, 215.9, { { 316.3, 283.4, 261.7 }, { 113, 64.76, 39.12 }, { 466.7, 445.6, 418.2 } } },
    { 26, 60, 154.9, { { 303.6, 275.2, 254.3 }, { 67.03, 40.84, 27.75 }, { 465.1, 426.3, 410.5 } } },
    { 26, 100, 88.23, { { 293.8, 259.9, 244 }, { 35.65, 23, 17.69 }, { 439, 401.8, 384.9 } } },
    { 26, 200, 26.67, { { 216, 194.7, 186.5 }, { 10.5, 8.343, 7.571 }, { 331.7, 310.4, 300.3 } } },
    { 64, 120, 647.5, { { 587.3, 540.1, 491.4 }, { 264.4, 162.4, 77.58 }, { 865.3, 794.8, 744.5 } } },
    { 64, 200, 203.5, { { 500.4, 481.4, 433.4 }, { 64.07, 39.85, 25.86 }, { 740.1, 709.3, 661.3 } } },
    { 64, 400, 51.86, { { 412.4, 385.6, 356.8 }, { 13.35, 10.9, 9.59 }, { 625.8, 588, 549 } } },
};

static double h200_model(const char *sweep, const char *variant, const char *params)
{
    static const char *const counting[3] = { "counting=ptpe", "counting=hybrid",
                                             "counting=twopass" };
    if (strcmp(sweep, "episodes-multigpu"))
        return NAN;
    for (size_t i = 0; i < sizeof H200 / sizeof H200[0]; i++) {
        if (study_param(params, "neurons") != H200[i].neurons ||
            study_param(params, "support") != H200[i].support)
            continue;
        if (!strcmp(variant, "cpu-mt"))
            return H200[i].cpu * 1e-3;
        int g = (int)study_param(params, "gpus");
        for (int c = 0; c < 3; c++)
            if (strstr(params, counting[c]) && g <= 4)
                return H200[i].t[c][g == 4 ? 2 : g - 1] * 1e-3;
    }
    return NAN;
}

static int setup(void **state)
{
    sfx *f = sfx_open("episodes", paper_model);
    if (!f)
        return -1;
    for (int k = 0; k < f->n; k++)
        f->card[k] = CARD;
    if (sfx_rerun(f, 0, LARGE) < 0) {
        sfx_close(f);
        return -1;
    }
    f->gpus = 4;
    *state = f;
    return 0;
}

/* ---- the papers' shape, and each rule's verdicts --------------------------------------- */

static void paper_shaped_medians_hold_every_claim(void **state)
{
    sfx_expect_all(*state, "H200", DM_HOLDS, 11);
    assert_true(11 <= CHZ_MAX_CLAIMS);
}

static void c1_preelim_is_faster_than_the_count(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C1");
    assert_non_null(strstr(r.evidence, "Sym26, every link [0, 6] ms, each kernel at its faster "
                                       "way of reading: level 2: PreElim 10 ms, PTPE 20 ms, "
                                       "PTPE/PreElim 2.00; level 3:"));
    sfx_tw(f, "episodes-preelim", "preelim", "level=2", 3);
    r = sfx_judge(f, "H200", "C1");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "PreElim is not 5 % faster than PTPE's machine at every "
                                       "level on " CARD " (compute capability 9.0, 132 SMs, "
                                       "against the papers' 30): the paper's hybrid needed 17 "
                                       "registers"));
    sfx_tw(f, "episodes-preelim", "preelim", "", 3);
    sfx_expect(f, "H200", "C1", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "episodes-preelim", "ptpe", "level=6", NAN);
    r = sfx_judge(f, "H200", "C1");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_string_equal(r.evidence, "no ok point of ptpe with relax=1 at level 6 "
                                    "(neurons=26,seconds=60,level=6) on a card named like "
                                    "\"H200\" in complete runs of episodes-preelim.");
}

static void c2_neither_kernel_for_all_levels(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C2");
    assert_non_null(strstr(r.evidence, "level 1: PTPE 20 ms, MTPE 0.052 ms, PTPE/MTPE 384.62;"));
    assert_non_null(strstr(r.evidence, "level 6: PTPE 20 ms, MTPE 240 ms, PTPE/MTPE 0.08."));
    sfx_tw(f, "episodes-levels", "mtpe", "", 1000);
    r = sfx_judge(f, "H200", "C2");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "MTPE is not 5 % faster than PTPE at any level from 1 to "
                                       "6 on " CARD));
    sfx_untweak(f);
    sfx_tw(f, "episodes-levels", "ptpe", "", 1000);
    r = sfx_judge(f, "H200", "C2");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "PTPE is not 5 % faster than MTPE at any level"));
    /* MTPE with one machine a segment does not stand in for the papers' K = N */
    sfx_untweak(f);
    sfx_tw(f, "episodes-levels", "mtpe", "level=4,machines=0", NAN);
    r = sfx_judge(f, "H200", "C2");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of mtpe with machines=0 at level 4"));
}

static void c3_ptpe_and_mtpe_cross_at_every_level(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C3");
    assert_non_null(strstr(r.evidence, "Sym26, 16 to 32768 episodes by powers of two: level 3: "
                                       "PTPE/MTPE 208.33 at 16, MTPE/PTPE 9.83 at 32768, PTPE "
                                       "faster from 4096 on (the paper's crossover 415);"));
    assert_non_null(strstr(r.evidence, "MTPE/PTPE 26.21 at 32768, PTPE faster from 2048 on (the "
                                       "paper's crossover 60)."));
    sfx_tw(f, "episodes-table1", "ptpe", "level=3", 100);
    r = sfx_judge(f, "H200", "C3");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "PTPE faster nowhere up to 32768 (the paper's crossover "
                                       "415)"));
    assert_non_null(strstr(r.hardware, "no crossover between 16 and 32768 episodes at level 3 "
                                       "on " CARD));
    sfx_tw(f, "episodes-table1", "ptpe", "", 100);
    r = sfx_judge(f, "H200", "C3");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "at level 3, 4, 5, 6, 7, 8 on"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-table1", "mtpe", "level=8,count=32768", NAN);
    r = sfx_judge(f, "H200", "C3");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of mtpe at level 8 at 32768 episodes "
                                       "(neurons=26,seconds=60,level=8,count=32768)"));
}

static void c4_hybrid_is_as_fast_as_the_faster_kernel(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C4");
    assert_non_null(strstr(r.evidence, "hybrid within 5 % of the faster kernel, or faster, at "
                                       "60 of 60 (level, count) pairs; at most 52.08x faster "
                                       "than PTPE and 26.21x than MTPE."));
    sfx_tw(f, "episodes-hybrid", "hybrid", "level=8", 2);
    r = sfx_judge(f, "H200", "C4");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "Sym26, levels 3 to 8 at 64 to 32768 episodes: level 8 "
                                       "at 64 episodes, hybrid 2.048 ms (switch_at "));
    assert_non_null(strstr(r.evidence, "PTPE 20 ms, MTPE 1.024 ms, 2.00x the faster; level 8 at "
                                       "128 episodes"));
    assert_non_null(strstr(r.evidence, " and 4 more; hybrid within 5 % of the faster kernel, or "
                                       "faster, at 50 of 60"));
    assert_non_null(strstr(r.hardware, "hybrid picks PTPE above its switch point, resolved for "
                                       CARD));
    sfx_tw(f, "episodes-hybrid", "hybrid", "level=7", 2);
    sfx_tw(f, "episodes-hybrid", "hybrid", "level=6", 2);
    sfx_expect(f, "H200", "C4", DM_PARTLY); /* 30 of 60 */
    sfx_tw(f, "episodes-hybrid", "hybrid", "level=5", 2);
    sfx_expect(f, "H200", "C4", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "episodes-hybrid", "hybrid", "level=5,count=1024", NAN);
    sfx_expect(f, "H200", "C4", DM_UNMEASURED);
}

static void c5_hybrid_gains_against_support(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C5");
    assert_non_null(strstr(r.evidence, "Sym26 mined to level 8 (hybrid from episodes-mining, "
                                       "PTPE and MTPE alone with K = N from "
                                       "episodes-mining-machines): support 30: hybrid 100 ms, "
                                       "PTPE 150 ms (1.50x hybrid's), MTPE 300 ms (3.00x);"));
    assert_non_null(strstr(r.evidence, "Its largest gains: 4.33x over PTPE, 3.00x over MTPE"));
    sfx_tw(f, "episodes-mining-machines", "ptpe", "support=30", 3); /* 4.5x at 30, 4.33x at 200 */
    r = sfx_judge(f, "H200", "C5");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_string_equal(r.hardware, "PTPE is not left further behind at high support than at "
                                    "low; on " CARD " (compute capability 9.0, 132 SMs, "
                                    "against the papers' 30).");
    sfx_tw(f, "episodes-mining-machines", "mtpe", "support=200", 3); /* 3.9x at 200, 3x at 30 */
    r = sfx_judge(f, "H200", "C5");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "MTPE is as close to hybrid at support 30 as at 200"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-mining", "hybrid", "support=100", NAN);
    r = sfx_judge(f, "H200", "C5");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of hybrid at Sym26 at support 100 "
                                       "(neurons=26,seconds=60,level=8,support=100)"));
}

static void c6_two_pass_beats_hybrid_on_every_stream(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C6");
    assert_non_null(strstr(r.evidence, "Sym26 (episodes-mining), two-pass over hybrid: 2.00x at "
                                       "30 (50 ms against 100 ms),"));
    assert_non_null(strstr(r.evidence, "; the recording sim-64-size20 (episodes-mining-sim64), "
                                       "two-pass over hybrid: 2.00x at 100"));
    assert_non_null(strstr(r.evidence, "Measured 2.00x to 2.00x, the paper's 1.2x to 2.8x."));
    sfx_tw(f, "episodes-mining-sim64", "twopass", "", 4);
    r = sfx_judge(f, "H200", "C6");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "(compute capability 1.3) read from device memory with "
                                       "no cache"));
    sfx_tw(f, NULL, "twopass", "", 4);
    sfx_expect(f, "H200", "C6", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "episodes-mining-large", "twopass", "support=400", NAN);
    r = sfx_judge(f, "H200", "C6");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "at the 2.5x stream (64 neurons, 100 s) at support 400 "
                                       "(neurons=64,seconds=100,level=8,support=400)"));
}

static void c7_gpu_about_15_times_the_cpu(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C7");
    assert_non_null(strstr(r.evidence, "support 30: cpu-mt 1 s, two-pass 50 ms, 20.0x;"));
    sfx_tw(f, "episodes-mining", "cpu-mt", "", 0.5); /* 10x */
    r = sfx_judge(f, "H200", "C7");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "the largest speedup is 10.0x, at support 30: cpu-mt "
                                       "counts on every core of the host that ran " CARD));
    assert_non_null(strstr(r.hardware, "Core 2 Quad with four threads (line 407)"));
    sfx_tw(f, "episodes-mining", "cpu-mt", "support=200", 0.1); /* 1x */
    sfx_expect(f, "H200", "C7", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "episodes-mining", "cpu-mt", "support=60", NAN);
    sfx_expect(f, "H200", "C7", DM_UNMEASURED);
}

static void c8_several_gpus_gain_at_low_support(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C8");
    assert_non_null(strstr(r.evidence, "Sym26, 4 GPUs over one: ptpe 3.20x / 1.80x / 0.90x / "
                                       "0.90x / 0.90x, hybrid 3.20x"));
    assert_non_null(strstr(r.evidence, "twopass 1.41x / 0.79x / 0.40x / 0.40x / 0.40x at support "
                                       "30 / 40 / 60 / 100 / 200; the 2.5x stream (64 neurons, "
                                       "100 s), 4 GPUs over one: ptpe 3.20x / 1.15x / 0.90x"));
    sfx_tw(f, "episodes-multigpu", "multigpu", "neurons=64,gpus=4,counting=ptpe", 3);
    r = sfx_judge(f, "H200", "C8");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "PTPE (and two-pass, whose second pass is PTPE) walks"));
    assert_null(strstr(r.hardware, "with hybrid"));
    sfx_tw(f, "episodes-multigpu", "multigpu", "gpus=4", 3);
    r = sfx_judge(f, "H200", "C8");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "; with hybrid a level's candidates are split evenly"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-multigpu", "multigpu", "neurons=26,support=200,gpus=1,counting=hybrid", NAN);
    r = sfx_judge(f, "H200", "C8");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of multigpu with gpus=1,counting=hybrid at "
                                       "Sym26 at support 200"));
    /* on two GPUs the journal's 2.5-fold on eight is 0.625x: two-pass's 0.70x holds */
    sfx_untweak(f);
    f->gpus = 2;
    r = sfx_judge(f, "H200", "C8");
    assert_int_equal(r.verdict, DM_HOLDS);
    assert_non_null(strstr(r.evidence, "Sym26, 2 GPUs over one: ptpe 1.60x /"));
    assert_non_null(strstr(r.evidence, "twopass 0.70x /"));
}

static void c9_several_gpus_lose_at_high_support(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C9");
    assert_non_null(strstr(r.evidence, "Rule: holds when at the highest support of each stream "
                                       "(200 and 400) G GPUs are at least 5 % slower"));
    sfx_tw(f, "episodes-multigpu", "multigpu", "support=200,gpus=4,counting=hybrid", 0.5);
    r = sfx_judge(f, "H200", "C9");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "saved more than they cost at the highest supports in 1 "
                                       "of the 6 cases"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-multigpu", "multigpu", "support=200,gpus=4", 0.2);
    sfx_tw(f, "episodes-multigpu", "multigpu", "support=400,gpus=4", 0.2);
    r = sfx_judge(f, "H200", "C9");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "in 6 of the 6 cases"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-multigpu", "multigpu", "neurons=64,support=400,gpus=4,counting=ptpe", NAN);
    sfx_expect(f, "H200", "C9", DM_UNMEASURED);
}

static void c10_two_pass_gains_less_on_several_gpus(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C10");
    assert_non_null(strstr(r.evidence, "Sym26, two-pass over PTPE on one GPU against 4: 2.50x "
                                       "against 1.10x at 30,"));
    assert_non_null(strstr(r.evidence, "Two-pass at least 5 % faster than PTPE on one GPU at 8 "
                                       "of 8 settings, its gain on G GPUs at least 5 % below one "
                                       "GPU's at 8."));
    sfx_tw(f, "episodes-multigpu", "multigpu", "gpus=4,counting=twopass", 1 / 3.0); /* 3.3x on 4 */
    r = sfx_judge(f, "H200", "C10");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "where its gain does not shrink on more GPUs"));
    assert_null(strstr(r.hardware, "PreElim pass"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-multigpu", "multigpu", "gpus=1,counting=twopass", 3); /* 0.83x on one */
    r = sfx_judge(f, "H200", "C10");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "two-pass's PreElim pass walks the stream a thread per "
                                       "candidate as PTPE does, so where it eliminates too little "
                                       "it costs more than it spares; where its gain"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-multigpu", "multigpu", "neurons=64,support=120,gpus=4,counting=twopass", NAN);
    r = sfx_judge(f, "H200", "C10");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "with gpus=4,counting=twopass at the 2.5x stream (64 "
                                       "neurons, 100 s) at support 120 "
                                       "(neurons=64,seconds=100,level=8,support=120)"));
}

static void c11_gpus_over_the_cpu(void **state)
{
    sfx *f = *state;
    dm_claim_result r = sfx_judge(f, "H200", "C11");
    assert_non_null(strstr(r.evidence, "Sym26 at support 30: cpu-mt 1.28 s; one GPU 80 ms "
                                       "(twopass), 16.0x; 4 GPUs 56.82 ms (twopass), 22.5x, 1.41 "
                                       "times one GPU's;"));
    sfx_tw(f, "episodes-multigpu", "cpu-mt", "", 0.5); /* 8x on one GPU */
    r = sfx_judge(f, "H200", "C11");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "Core 2 Quad with four threads (line 1045)"));
    sfx_untweak(f);
    sfx_tw(f, "episodes-multigpu", "multigpu", "gpus=4", 2); /* no faster than one GPU */
    sfx_expect(f, "H200", "C11", DM_BREAKS);
    sfx_untweak(f);
    sfx_tw(f, "episodes-multigpu", "cpu-mt", "neurons=64,support=120", NAN);
    sfx_expect(f, "H200", "C11", DM_UNMEASURED);
    /* on eight GPUs the journal's 35-fold is the factor too */
    sfx_untweak(f);
    f->gpus = 8;
    r = sfx_judge(f, "H200", "C11");
    assert_int_equal(r.verdict, DM_HOLDS);
    assert_non_null(strstr(r.evidence, "8 GPUs 28.41 ms (twopass), 45.1x"));
    sfx_tw(f, "episodes-multigpu", "multigpu", "gpus=8", 1.6); /* 28.2x */
    sfx_expect(f, "H200", "C11", DM_PARTLY);
}

static void the_multigpu_claims_need_more_than_one_gpu(void **state)
{
    sfx *f = *state;
    static const char *const ids[] = { "C8", "C9", "C10", "C11" };
    f->gpus = 1;
    for (int i = 0; i < 4; i++) {
        dm_claim_result r = sfx_judge(f, "H200", ids[i]);
        assert_int_equal(r.verdict, DM_UNMEASURED);
        assert_string_equal(r.evidence, "no ok point of multigpu on more than one GPU at Sym26 "
                                        "at support 30 (neurons=26,seconds=60,level=8,"
                                        "support=30) on a card named like \"H200\" in complete "
                                        "runs of episodes-multigpu.");
    }
}

static void no_card_no_claim(void **state)
{
    sfx *f = *state;
    dm_study_data d = { .card = "A100", .ctx = f, .median = sfx_median,
                        .other_card = sfx_other_card };
    for (const dm_claim *cl = f->study->claims; cl->id; cl++) {
        dm_claim_result r;
        memset(&r, 0, sizeof r);
        assert_int_equal(cl->judge(&d, &r, &(dm_err){ 0 }), 0);
        assert_int_equal(r.verdict, DM_UNMEASURED);
        assert_non_null(strstr(r.evidence, "on a card named like \"A100\""));
        assert_string_equal(r.hardware, "");
    }
}

/* ---- the H200s' medians ------------------------------------------------------------------- */

/* On four H200s (the multi-GPU sweep alone): hybrid gains on four GPUs, PTPE and two-pass
 * do not (C8), nothing is slower on four (C9), two-pass loses to PTPE (C10), the GPUs beat
 * the 64 cores by less than the papers' factors (C11); the rest is not measured. */
#define H200_VERDICTS "UUUUUUUPBPP"

static void the_h200_medians(void **state)
{
    sfx *f = *state;
    char got[16];
    f->model = h200_model;
    sfx_verdicts(f, "H200", got);
    assert_string_equal(got, H200_VERDICTS);
    dm_claim_result r = sfx_judge(f, "H200", "C11");
    assert_non_null(strstr(r.evidence, "Sym26 at support 30: cpu-mt 336.5 ms; one GPU 168.8 ms "
                                       "(hybrid), 2.0x; 4 GPUs 55.76 ms (hybrid), 6.0x, 3.03 "
                                       "times one GPU's; the 2.5x stream (64 neurons, 100 s) at "
                                       "support 120: cpu-mt 647.5 ms; one GPU 264.4 ms (hybrid), "
                                       "2.4x; 4 GPUs 77.58 ms (hybrid), 8.3x, 3.41 times one "
                                       "GPU's."));
    r = sfx_judge(f, "H200", "C8");
    assert_non_null(strstr(r.evidence, "hybrid 3.41x / 2.48x / 1.39x"));
    assert_non_null(strstr(r.hardware, "on " CARD " (compute capability 9.0, 132 SMs, against "
                                       "the papers' 30) PTPE (and two-pass, whose second pass "
                                       "is PTPE) walks"));
    assert_null(strstr(r.hardware, "with hybrid"));
}

/* Stores the H200 medians as the two runs of the multi-GPU sweep on CARD, Sym26's and the
 * 2.5x stream's (when large), on four GPUs. */
static void plant_h200_runs(sfx *f, afx *db, int large)
{
    f->model = h200_model;
    sfx_plant_run(f, db, 0);
    if (large)
        sfx_plant_run(f, db, f->n - 1);
}

/* chz_check's verdicts on db for CARD, as "HPBU" letters. */
static void engine_verdicts(const sfx *f, afx *db, char *out)
{
    chz_ctx c = { .st = { db->st }, .nst = 1, .card = "H200",
                  .sweep = f->study->claim_sweeps[0] };
    dm_claim_result res[CHZ_MAX_CLAIMS];
    int counts[DM_NVERDICTS], i = 0;
    dm_err err = { 0 };
    assert_int_equal(chz_check(&c, f->study, res, counts, &err), 0);
    for (const dm_claim *cl = f->study->claims; cl->id; cl++, i++)
        out[i] = "HPBU"[res[i].verdict];
    out[i] = '\0';
}

static void the_engine_reads_them_from_a_database(void **state)
{
    sfx *f = *state;
    afx db;
    char got[16];
    assert_int_equal(afx_open(&db), 0);
    plant_h200_runs(f, &db, 1);
    engine_verdicts(f, &db, got);
    assert_string_equal(got, H200_VERDICTS);
    assert_int_equal(afx_close(&db), 0);
}

/* The large stream's points are its run's, not Sym26's: without that run the multi-GPU
 * claims name the point they miss. */
static void the_engine_reads_each_stream_from_its_run(void **state)
{
    sfx *f = *state;
    afx db;
    char got[16];
    assert_int_equal(afx_open(&db), 0);
    plant_h200_runs(f, &db, 0);
    engine_verdicts(f, &db, got);
    assert_string_equal(got, "UUUUUUUUUUU");
    chz_ctx c = { .st = { db.st }, .nst = 1, .card = "H200", .sweep = "episodes-multigpu" };
    dm_claim_result r;
    dm_err err = { 0 };
    assert_int_equal(chz_judge(&c, study_claim(f->study, "C11"), &r, &err), 0);
    assert_string_equal(r.evidence, "no ok point of multigpu on more than one GPU at the 2.5x "
                                    "stream (64 neurons, 100 s) at support 120 (neurons=64,"
                                    "seconds=100,level=8,support=120) on a card named like "
                                    "\"H200\" in complete runs of episodes-multigpu.");
    assert_int_equal(afx_close(&db), 0);
}

/* A claim's CUPTI lines come from the sweeps its rule read (C1: episodes-preelim), not
 * from the sweep the claims are characterized from; a rule that read nothing names that
 * one. */
static void the_counters_are_the_read_sweeps(void **state)
{
    sfx *f = *state;
    afx db;
    assert_int_equal(afx_open(&db), 0);
    const int k = sfx_sweep(f, "episodes-preelim");
    assert_true(k >= 0);
    sfx_plant_run(f, &db, k);
    assert_int_equal(sqlite3_exec(store_db(db.st),
        "INSERT INTO metrics (point_id, kernel, launch_index, metric, value, unit)"
        " SELECT id, 'k', 0, 'local_load_sectors', 0, 'sectors' FROM points", NULL, NULL,
        NULL), SQLITE_OK);
    chz_ctx c = { .st = { db.st }, .nst = 1, .card = "H200", .sweep = "episodes-mining" };
    char buf[CHZ_METRIC_TEXT];
    dm_claim_result r;
    dm_err err = { 0 };
    assert_int_equal(chz_judge(&c, study_claim(f->study, "C1"), &r, &err), 0);
    assert_int_equal(r.verdict, DM_HOLDS);
    assert_string_equal(r.sweeps, "episodes-preelim");
    assert_int_equal(chz_metric_lines(&c, f->study, study_claim(f->study, "C1"), &r, buf,
                                      sizeof buf, &err), 0);
    assert_non_null(strstr(buf, "CUPTI, local_load_sectors (sectors, "));
    assert_non_null(strstr(buf, " run of episodes-preelim started "));
    assert_non_null(strstr(buf, "ptpe level 2 0 level 3 0"));
    assert_int_equal(chz_judge(&c, study_claim(f->study, "C6"), &r, &err), 0);
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_string_equal(r.sweeps, "");
    assert_int_equal(chz_metric_lines(&c, f->study, study_claim(f->study, "C6"), &r, buf,
                                      sizeof buf, &err), 0);
    assert_non_null(strstr(buf, "(no run of episodes-mining on this card was made with "
                                "--metrics).\n"));
    snprintf(r.sweeps, sizeof r.sweeps, "episodes-mining,episodes-mining-sim64,"
             "episodes-mining-large");
    assert_int_equal(chz_metric_lines(&c, f->study, study_claim(f->study, "C6"), &r, buf,
                                      sizeof buf, &err), 0);
    assert_non_null(strstr(buf, "(no run of episodes-mining, episodes-mining-sim64 or "
                                "episodes-mining-large on this card was made with "
                                "--metrics).\n"));
    assert_int_equal(afx_close(&db), 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, sfx_teardown)
    const struct CMUnitTest tests[] = {
        T(paper_shaped_medians_hold_every_claim),
        T(c1_preelim_is_faster_than_the_count),
        T(c2_neither_kernel_for_all_levels),
        T(c3_ptpe_and_mtpe_cross_at_every_level),
        T(c4_hybrid_is_as_fast_as_the_faster_kernel),
        T(c5_hybrid_gains_against_support),
        T(c6_two_pass_beats_hybrid_on_every_stream),
        T(c7_gpu_about_15_times_the_cpu),
        T(c8_several_gpus_gain_at_low_support),
        T(c9_several_gpus_lose_at_high_support),
        T(c10_two_pass_gains_less_on_several_gpus),
        T(c11_gpus_over_the_cpu),
        T(the_multigpu_claims_need_more_than_one_gpu),
        T(the_counters_are_the_read_sweeps),
        T(no_card_no_claim),
        T(the_h200_medians),
        T(the_engine_reads_them_from_a_database),
        T(the_engine_reads_each_stream_from_its_run),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
