/* test_episodes_study.c - the episodes study's eleven rules judged on fabricated medians:
 * the points of the real episodes sweeps (the multi-GPU one also with the 2.5x stream's
 * parameters, as it was run), timed by a model shaped like the papers' findings, with
 * tweaks that make each rule give every verdict it can; the H200 medians of the multi-GPU
 * runs of docs/episodes.md; and those read back from a results database by the claims
 * engine, each stream's points from its own run of the one sweep. */
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
#include "registry.h"
#include "sweep.h"

#define CARD "NVIDIA H200"

/* The fixture's runs: each sweep of the claims once, the multi-GPU one twice (Sym26, then
 * the 2.5x stream: `-a neurons=64 -a seconds=100 -a 'support=[120,200,400]'`). */
#define NRUNS 10
static const char *const SWEEPS[NRUNS] = {
    "episodes-multigpu", "episodes-multigpu", "episodes-mining", "episodes-mining-large",
    "episodes-mining-sim64", "episodes-mining-machines", "episodes-hybrid", "episodes-table1",
    "episodes-levels", "episodes-preelim",
};
#define LARGE_RUN 1
static const char *const LARGE[] = { "neurons=64", "seconds=100", "support=[120,200,400]",
                                     NULL };

/* The time of a variant's point of sweep with parameters params, in seconds; NAN: the
 * point was not measured. */
typedef double (*model_fn)(const char *sweep, const char *variant, const char *params);

/* A change to the model: the times of variant at the points of sweep (NULL: every sweep)
 * whose parameters match where, times scale (NAN: not measured). */
typedef struct tweak {
    const char *sweep, *variant, *where;
    double scale;
} tweak;

typedef struct fixture {
    dm_sweep *s[NRUNS];
    dm_expansion e[NRUNS];
    model_fn model;
    int gpus; /* the most GPUs a multigpu point was run on */
    tweak tw[16];
    int ntw;
} fixture;

static const dm_study *study(void)
{
    const dm_workload *w = registry_workload("episodes", &(dm_err){ 0 });
    assert_non_null(w);
    return w->study;
}

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
 * digits; docs/episodes.md rounds them): cpu-mt, then PTPE, hybrid and two-pass on 1, 2 and
 * 4 GPUs, per support; nothing else was measured. */
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

/* ---- the rules' view of the fixture -------------------------------------------------- */

static double time_of(const fixture *f, const char *sweep, const char *variant,
                      const char *params)
{
    double t = f->model(sweep, variant, params);
    for (int i = 0; i < f->ntw; i++)
        if ((!f->tw[i].sweep || !strcmp(f->tw[i].sweep, sweep)) &&
            !strcmp(f->tw[i].variant, variant) && study_params_match(params, f->tw[i].where))
            t *= f->tw[i].scale;
    return t;
}

/* The parameters of run k's point i into params; 0 when it was not run (pruned, or on
 * more GPUs than the fixture's). */
static int point_of(const fixture *f, int k, size_t i, char *params, size_t n)
{
    const dm_sweep_point *sp = &f->e[k].points[i];
    dm_point_format(&sp->point, params, n);
    return !sp->pruned && !(study_param(params, "gpus") > f->gpus);
}

/* dm_study_data's median over the fixture's points on CARD. */
static int fake_median(void *ctx, const char *card, const char *sweep, const char *variant,
                       const char *where, dm_median *out, dm_err *err)
{
    const fixture *f = ctx;
    (void)err;
    memset(out, 0, sizeof *out);
    for (int k = 0; k < NRUNS && strstr(CARD, card); k++) {
        if (strcmp(SWEEPS[k], sweep))
            continue;
        for (size_t i = 0; i < f->e[k].n; i++) {
            char params[512];
            if (!point_of(f, k, i, params, sizeof params) ||
                strcmp(f->e[k].points[i].point.variant->name, variant) ||
                !study_params_match(params, where))
                continue;
            double t = time_of(f, sweep, variant, params);
            if (isnan(t) || (out->found && t >= out->median))
                continue;
            *out = (dm_median){ .found = 1, .median = t, .sm_mhz = NAN, .mem_bus_bits = NAN,
                                .mem_gbps = NAN, .l2_bytes = 60 << 20, .sms = 132 };
            snprintf(out->params, sizeof out->params, "%s", params);
            snprintf(out->gpu, sizeof out->gpu, CARD);
            snprintf(out->cc, sizeof out->cc, "9.0");
            snprintf(out->started, sizeof out->started, "2026-11-26T0%d:00:00Z", k);
        }
    }
    return 0;
}

static int fake_other_card(void *ctx, const char *sweep, const char *exclude, char *out,
                           size_t n, dm_err *err)
{
    (void)ctx, (void)sweep, (void)exclude, (void)n, (void)err;
    out[0] = '\0';
    return 0;
}

/* Claim id judged on the fixture; checks that it wrote evidence, and a hardware note
 * exactly when it (partly) breaks. */
static dm_claim_result judge(fixture *f, const char *id)
{
    const dm_claim *cl = study_claim(study(), id);
    dm_study_data d = { .card = "H200", .sweep = "episodes-multigpu", .ctx = f,
                        .median = fake_median, .other_card = fake_other_card };
    dm_claim_result r;
    dm_err err = { 0 };
    assert_non_null(cl);
    memset(&r, 0, sizeof r);
    assert_int_equal(cl->judge(&d, &r, &err), 0);
    assert_true(r.evidence[0] != '\0');
    assert_true((r.verdict == DM_BREAKS || r.verdict == DM_PARTLY) == (r.hardware[0] != '\0'));
    return r;
}

static void expect(fixture *f, const char *id, dm_verdict want)
{
    dm_claim_result r = judge(f, id);
    if (r.verdict != want)
        fail_msg("%s: %s, expected %s. Evidence: %s", id, study_verdict_name(r.verdict),
                 study_verdict_name(want), r.evidence);
}

/* Scales variant's times at the points of sweep (NULL: all) matching where. */
static void tw(fixture *f, const char *sweep, const char *variant, const char *where,
               double scale)
{
    assert_true(f->ntw < (int)(sizeof f->tw / sizeof f->tw[0]));
    f->tw[f->ntw++] = (tweak){ sweep, variant, where, scale };
}

static void untweak(fixture *f)
{
    f->ntw = 0;
}

static int setup(void **state)
{
    static const dm_device h200 = { .max_threads_per_block = 1024,
                                    .smem_per_block_optin = 232448, .sms = 132,
                                    .warp_size = 32 };
    fixture *f = calloc(1, sizeof *f);
    dm_err err = { 0 };
    if (!f)
        return -1;
    for (int k = 0; k < NRUNS; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/sweeps/%s.yaml", DM_SOURCE_DIR, SWEEPS[k]);
        int rc = sweep_load(path, &f->s[k], &err);
        for (const char *const *a = LARGE; rc == 0 && k == LARGE_RUN && *a; a++)
            rc = sweep_override(f->s[k], *a, &err);
        if (rc || sweep_expand(f->s[k], &h200, &f->e[k], &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return -1;
        }
    }
    f->model = paper_model;
    f->gpus = 4;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    for (int k = 0; k < NRUNS; k++) {
        sweep_expansion_free(&f->e[k]);
        sweep_free(f->s[k]);
    }
    free(f);
    return 0;
}

/* ---- the papers' shape, and each rule's verdicts --------------------------------------- */

static void paper_shaped_medians_hold_every_claim(void **state)
{
    fixture *f = *state;
    int n = 0;
    for (const dm_claim *cl = study()->claims; cl->id; cl++, n++)
        expect(f, cl->id, DM_HOLDS);
    assert_int_equal(n, 11);
    assert_true(n <= CHZ_MAX_CLAIMS);
}

static void c1_preelim_is_faster_than_the_count(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C1");
    assert_non_null(strstr(r.evidence, "Sym26, every link [0, 6] ms, each kernel at its faster "
                                       "way of reading: level 2: PreElim 10 ms, PTPE 20 ms, "
                                       "PTPE/PreElim 2.00; level 3:"));
    tw(f, "episodes-preelim", "preelim", "level=2", 3);
    r = judge(f, "C1");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "PreElim is not 5 % faster than PTPE's machine at every "
                                       "level on " CARD " (compute capability 9.0, 132 SMs, "
                                       "against the papers' 30): the paper's hybrid needed 17 "
                                       "registers"));
    tw(f, "episodes-preelim", "preelim", "", 3);
    expect(f, "C1", DM_BREAKS);
    untweak(f);
    tw(f, "episodes-preelim", "ptpe", "level=6", NAN);
    r = judge(f, "C1");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_string_equal(r.evidence, "no ok point of ptpe with relax=1 at level 6 "
                                    "(neurons=26,seconds=60,level=6) on a card named like "
                                    "\"H200\" in complete runs of episodes-preelim.");
}

static void c2_neither_kernel_for_all_levels(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C2");
    assert_non_null(strstr(r.evidence, "level 1: PTPE 20 ms, MTPE 0.052 ms, PTPE/MTPE 384.62;"));
    assert_non_null(strstr(r.evidence, "level 6: PTPE 20 ms, MTPE 240 ms, PTPE/MTPE 0.08."));
    tw(f, "episodes-levels", "mtpe", "", 1000);
    r = judge(f, "C2");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "MTPE is not 5 % faster than PTPE at any level from 1 to "
                                       "6 on " CARD));
    untweak(f);
    tw(f, "episodes-levels", "ptpe", "", 1000);
    r = judge(f, "C2");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "PTPE is not 5 % faster than MTPE at any level"));
    /* MTPE with one machine a segment does not stand in for the papers' K = N */
    untweak(f);
    tw(f, "episodes-levels", "mtpe", "level=4,machines=0", NAN);
    r = judge(f, "C2");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of mtpe with machines=0 at level 4"));
}

static void c3_ptpe_and_mtpe_cross_at_every_level(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C3");
    assert_non_null(strstr(r.evidence, "Sym26, 16 to 32768 episodes by powers of two: level 3: "
                                       "PTPE/MTPE 208.33 at 16, MTPE/PTPE 9.83 at 32768, PTPE "
                                       "faster from 4096 on (the paper's crossover 415);"));
    assert_non_null(strstr(r.evidence, "MTPE/PTPE 26.21 at 32768, PTPE faster from 2048 on (the "
                                       "paper's crossover 60)."));
    tw(f, "episodes-table1", "ptpe", "level=3", 100);
    r = judge(f, "C3");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "PTPE faster nowhere up to 32768 (the paper's crossover "
                                       "415)"));
    assert_non_null(strstr(r.hardware, "no crossover between 16 and 32768 episodes at level 3 "
                                       "on " CARD));
    tw(f, "episodes-table1", "ptpe", "", 100);
    r = judge(f, "C3");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "at level 3, 4, 5, 6, 7, 8 on"));
    untweak(f);
    tw(f, "episodes-table1", "mtpe", "level=8,count=32768", NAN);
    r = judge(f, "C3");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of mtpe at level 8 at 32768 episodes "
                                       "(neurons=26,seconds=60,level=8,count=32768)"));
}

static void c4_hybrid_is_as_fast_as_the_faster_kernel(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C4");
    assert_non_null(strstr(r.evidence, "hybrid within 5 % of the faster kernel, or faster, at "
                                       "60 of 60 (level, count) pairs; at most 52.08x faster "
                                       "than PTPE and 26.21x than MTPE."));
    tw(f, "episodes-hybrid", "hybrid", "level=8", 2);
    r = judge(f, "C4");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.evidence, "Sym26, levels 3 to 8 at 64 to 32768 episodes: level 8 "
                                       "at 64 episodes, hybrid 2.048 ms (switch_at "));
    assert_non_null(strstr(r.evidence, "PTPE 20 ms, MTPE 1.024 ms, 2.00x the faster; level 8 at "
                                       "128 episodes"));
    assert_non_null(strstr(r.evidence, " and 4 more; hybrid within 5 % of the faster kernel, or "
                                       "faster, at 50 of 60"));
    assert_non_null(strstr(r.hardware, "hybrid picks PTPE above its switch point, resolved for "
                                       CARD));
    tw(f, "episodes-hybrid", "hybrid", "level=7", 2);
    tw(f, "episodes-hybrid", "hybrid", "level=6", 2);
    expect(f, "C4", DM_PARTLY); /* 30 of 60 */
    tw(f, "episodes-hybrid", "hybrid", "level=5", 2);
    expect(f, "C4", DM_BREAKS);
    untweak(f);
    tw(f, "episodes-hybrid", "hybrid", "level=5,count=1024", NAN);
    expect(f, "C4", DM_UNMEASURED);
}

static void c5_hybrid_gains_against_support(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C5");
    assert_non_null(strstr(r.evidence, "Sym26 mined to level 8 (hybrid from episodes-mining, "
                                       "PTPE and MTPE alone with K = N from "
                                       "episodes-mining-machines): support 30: hybrid 100 ms, "
                                       "PTPE 150 ms (1.50x hybrid's), MTPE 300 ms (3.00x);"));
    assert_non_null(strstr(r.evidence, "Its largest gains: 4.33x over PTPE, 3.00x over MTPE"));
    tw(f, "episodes-mining-machines", "ptpe", "support=30", 3); /* 4.5x at 30, 4.33x at 200 */
    r = judge(f, "C5");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_string_equal(r.hardware, "PTPE is not left further behind at high support than at "
                                    "low; on " CARD " (compute capability 9.0, 132 SMs, "
                                    "against the papers' 30).");
    tw(f, "episodes-mining-machines", "mtpe", "support=200", 3); /* 3.9x at 200, 3x at 30 */
    r = judge(f, "C5");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "MTPE is as close to hybrid at support 30 as at 200"));
    untweak(f);
    tw(f, "episodes-mining", "hybrid", "support=100", NAN);
    r = judge(f, "C5");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of hybrid at Sym26 at support 100 "
                                       "(neurons=26,seconds=60,level=8,support=100)"));
}

static void c6_two_pass_beats_hybrid_on_every_stream(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C6");
    assert_non_null(strstr(r.evidence, "Sym26 (episodes-mining), two-pass over hybrid: 2.00x at "
                                       "30 (50 ms against 100 ms),"));
    assert_non_null(strstr(r.evidence, "; the recording sim-64-size20 (episodes-mining-sim64), "
                                       "two-pass over hybrid: 2.00x at 100"));
    assert_non_null(strstr(r.evidence, "Measured 2.00x to 2.00x, the paper's 1.2x to 2.8x."));
    tw(f, "episodes-mining-sim64", "twopass", "", 4);
    r = judge(f, "C6");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "(compute capability 1.3) read from device memory with "
                                       "no cache"));
    tw(f, NULL, "twopass", "", 4);
    expect(f, "C6", DM_BREAKS);
    untweak(f);
    tw(f, "episodes-mining-large", "twopass", "support=400", NAN);
    r = judge(f, "C6");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "at the 2.5x stream (64 neurons, 100 s) at support 400 "
                                       "(neurons=64,seconds=100,level=8,support=400)"));
}

static void c7_gpu_about_15_times_the_cpu(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C7");
    assert_non_null(strstr(r.evidence, "support 30: cpu-mt 1 s, two-pass 50 ms, 20.0x;"));
    tw(f, "episodes-mining", "cpu-mt", "", 0.5); /* 10x */
    r = judge(f, "C7");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "the largest speedup is 10.0x, at support 30: cpu-mt "
                                       "counts on every core of the host that ran " CARD));
    assert_non_null(strstr(r.hardware, "Core 2 Quad with four threads (line 407)"));
    tw(f, "episodes-mining", "cpu-mt", "support=200", 0.1); /* 1x */
    expect(f, "C7", DM_BREAKS);
    untweak(f);
    tw(f, "episodes-mining", "cpu-mt", "support=60", NAN);
    expect(f, "C7", DM_UNMEASURED);
}

static void c8_several_gpus_gain_at_low_support(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C8");
    assert_non_null(strstr(r.evidence, "Sym26, 4 GPUs over one: ptpe 3.20x / 1.80x / 0.90x / "
                                       "0.90x / 0.90x, hybrid 3.20x"));
    assert_non_null(strstr(r.evidence, "twopass 1.41x / 0.79x / 0.40x / 0.40x / 0.40x at support "
                                       "30 / 40 / 60 / 100 / 200; the 2.5x stream (64 neurons, "
                                       "100 s), 4 GPUs over one: ptpe 3.20x / 1.15x / 0.90x"));
    tw(f, "episodes-multigpu", "multigpu", "neurons=64,gpus=4,counting=ptpe", 3);
    r = judge(f, "C8");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "PTPE (and two-pass, whose second pass is PTPE) walks"));
    assert_null(strstr(r.hardware, "with hybrid"));
    tw(f, "episodes-multigpu", "multigpu", "gpus=4", 3);
    r = judge(f, "C8");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "; with hybrid a level's candidates are split evenly"));
    untweak(f);
    tw(f, "episodes-multigpu", "multigpu", "neurons=26,support=200,gpus=1,counting=hybrid", NAN);
    r = judge(f, "C8");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "no ok point of multigpu with gpus=1,counting=hybrid at "
                                       "Sym26 at support 200"));
    /* on two GPUs the journal's 2.5-fold on eight is 0.625x: two-pass's 0.70x holds */
    untweak(f);
    f->gpus = 2;
    r = judge(f, "C8");
    assert_int_equal(r.verdict, DM_HOLDS);
    assert_non_null(strstr(r.evidence, "Sym26, 2 GPUs over one: ptpe 1.60x /"));
    assert_non_null(strstr(r.evidence, "twopass 0.70x /"));
}

static void c9_several_gpus_lose_at_high_support(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C9");
    assert_non_null(strstr(r.evidence, "Rule: holds when at the highest support of each stream "
                                       "(200 and 400) G GPUs are at least 5 % slower"));
    tw(f, "episodes-multigpu", "multigpu", "support=200,gpus=4,counting=hybrid", 0.5);
    r = judge(f, "C9");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "saved more than they cost at the highest supports in 1 "
                                       "of the 6 cases"));
    untweak(f);
    tw(f, "episodes-multigpu", "multigpu", "support=200,gpus=4", 0.2);
    tw(f, "episodes-multigpu", "multigpu", "support=400,gpus=4", 0.2);
    r = judge(f, "C9");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "in 6 of the 6 cases"));
    untweak(f);
    tw(f, "episodes-multigpu", "multigpu", "neurons=64,support=400,gpus=4,counting=ptpe", NAN);
    expect(f, "C9", DM_UNMEASURED);
}

static void c10_two_pass_gains_less_on_several_gpus(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C10");
    assert_non_null(strstr(r.evidence, "Sym26, two-pass over PTPE on one GPU against 4: 2.50x "
                                       "against 1.10x at 30,"));
    assert_non_null(strstr(r.evidence, "Two-pass at least 5 % faster than PTPE on one GPU at 8 "
                                       "of 8 settings, its gain on G GPUs at least 5 % below one "
                                       "GPU's at 8."));
    tw(f, "episodes-multigpu", "multigpu", "gpus=4,counting=twopass", 1 / 3.0); /* 3.3x on 4 */
    r = judge(f, "C10");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "where its gain does not shrink on more GPUs"));
    assert_null(strstr(r.hardware, "PreElim pass"));
    untweak(f);
    tw(f, "episodes-multigpu", "multigpu", "gpus=1,counting=twopass", 3); /* 0.83x on one */
    r = judge(f, "C10");
    assert_int_equal(r.verdict, DM_BREAKS);
    assert_non_null(strstr(r.hardware, "two-pass's PreElim pass walks the stream a thread per "
                                       "candidate as PTPE does, so where it eliminates too little "
                                       "it costs more than it spares; where its gain"));
    untweak(f);
    tw(f, "episodes-multigpu", "multigpu", "neurons=64,support=120,gpus=4,counting=twopass", NAN);
    r = judge(f, "C10");
    assert_int_equal(r.verdict, DM_UNMEASURED);
    assert_non_null(strstr(r.evidence, "with gpus=4,counting=twopass at the 2.5x stream (64 "
                                       "neurons, 100 s) at support 120 "
                                       "(neurons=64,seconds=100,level=8,support=120)"));
}

static void c11_gpus_over_the_cpu(void **state)
{
    fixture *f = *state;
    dm_claim_result r = judge(f, "C11");
    assert_non_null(strstr(r.evidence, "Sym26 at support 30: cpu-mt 1.28 s; one GPU 80 ms "
                                       "(twopass), 16.0x; 4 GPUs 56.82 ms (twopass), 22.5x, 1.41 "
                                       "times one GPU's;"));
    tw(f, "episodes-multigpu", "cpu-mt", "", 0.5); /* 8x on one GPU */
    r = judge(f, "C11");
    assert_int_equal(r.verdict, DM_PARTLY);
    assert_non_null(strstr(r.hardware, "Core 2 Quad with four threads (line 1045)"));
    untweak(f);
    tw(f, "episodes-multigpu", "multigpu", "gpus=4", 2); /* no faster than one GPU */
    expect(f, "C11", DM_BREAKS);
    untweak(f);
    tw(f, "episodes-multigpu", "cpu-mt", "neurons=64,support=120", NAN);
    expect(f, "C11", DM_UNMEASURED);
    /* on eight GPUs the journal's 35-fold is the factor too */
    untweak(f);
    f->gpus = 8;
    r = judge(f, "C11");
    assert_int_equal(r.verdict, DM_HOLDS);
    assert_non_null(strstr(r.evidence, "8 GPUs 28.41 ms (twopass), 45.1x"));
    tw(f, "episodes-multigpu", "multigpu", "gpus=8", 1.6); /* 28.2x */
    expect(f, "C11", DM_PARTLY);
}

static void the_multigpu_claims_need_more_than_one_gpu(void **state)
{
    fixture *f = *state;
    static const char *const ids[] = { "C8", "C9", "C10", "C11" };
    f->gpus = 1;
    for (int i = 0; i < 4; i++) {
        dm_claim_result r = judge(f, ids[i]);
        assert_int_equal(r.verdict, DM_UNMEASURED);
        assert_string_equal(r.evidence, "no ok point of multigpu on more than one GPU at Sym26 "
                                        "at support 30 (neurons=26,seconds=60,level=8,"
                                        "support=30) on a card named like \"H200\" in complete "
                                        "runs of episodes-multigpu.");
    }
}

static void no_card_no_claim(void **state)
{
    fixture *f = *state;
    dm_study_data d = { .card = "A100", .ctx = f, .median = fake_median,
                        .other_card = fake_other_card };
    for (const dm_claim *cl = study()->claims; cl->id; cl++) {
        dm_claim_result r;
        memset(&r, 0, sizeof r);
        assert_int_equal(cl->judge(&d, &r, &(dm_err){ 0 }), 0);
        assert_int_equal(r.verdict, DM_UNMEASURED);
        assert_non_null(strstr(r.evidence, "on a card named like \"A100\""));
        assert_string_equal(r.hardware, "");
    }
}

/* ---- the H200s' medians ------------------------------------------------------------------- */

/* "HPBU" letters of every claim's verdict on the fixture. */
static void verdicts(fixture *f, char *out)
{
    int i = 0;
    for (const dm_claim *cl = study()->claims; cl->id; cl++)
        out[i++] = "HPBU"[judge(f, cl->id).verdict];
    out[i] = '\0';
}

/* On four H200s (the multi-GPU sweep alone): hybrid gains on four GPUs, PTPE and two-pass
 * do not (C8), nothing is slower on four (C9), two-pass loses to PTPE (C10), the GPUs beat
 * the 64 cores by less than the papers' factors (C11); the rest is not measured. */
#define H200_VERDICTS "UUUUUUUPBPP"

static void the_h200_medians(void **state)
{
    fixture *f = *state;
    char got[16];
    f->model = h200_model;
    verdicts(f, got);
    assert_string_equal(got, H200_VERDICTS);
    dm_claim_result r = judge(f, "C11");
    assert_non_null(strstr(r.evidence, "Sym26 at support 30: cpu-mt 336.5 ms; one GPU 168.8 ms "
                                       "(hybrid), 2.0x; 4 GPUs 55.76 ms (hybrid), 6.0x, 3.03 "
                                       "times one GPU's; the 2.5x stream (64 neurons, 100 s) at "
                                       "support 120: cpu-mt 647.5 ms; one GPU 264.4 ms (hybrid), "
                                       "2.4x; 4 GPUs 77.58 ms (hybrid), 8.3x, 3.41 times one "
                                       "GPU's."));
    r = judge(f, "C8");
    assert_non_null(strstr(r.evidence, "hybrid 3.41x / 2.48x / 1.39x"));
    assert_non_null(strstr(r.hardware, "on " CARD " (compute capability 9.0, 132 SMs, against "
                                       "the papers' 30) PTPE (and two-pass, whose second pass "
                                       "is PTPE) walks"));
    assert_null(strstr(r.hardware, "with hybrid"));
}

/* Stores the H200 medians as the two runs of the multi-GPU sweep on CARD, Sym26's and the
 * 2.5x stream's (when large), on four GPUs. */
static void plant_h200_runs(fixture *f, afx *db, int large)
{
    for (int k = 0; k <= large; k++) {
        dm_device dev = { .cc_major = 9, .cc_minor = 0, .sms = 132, .l2_bytes = 60 << 20 };
        snprintf(dev.name, sizeof dev.name, CARD);
        dm_measure_opts mo;
        sweep_measure_defaults(&mo);
        dm_run_info info = { .device = &dev, .workload = "episodes", .sweep_name = SWEEPS[k],
                             .sweep_text = "fixture", .measure = &mo,
                             .sm_clock_mhz_start = 1980, .mem_clock_mhz_start = 3201 };
        int64_t run = 0;
        dm_err err = { 0 };
        assert_int_equal(store_run_begin(db->st, &info, &run, &err), 0);
        for (size_t i = 0; i < f->e[k].n; i++) {
            char params[512];
            double t, x[5];
            if (!point_of(f, k, i, params, sizeof params) ||
                isnan(t = h200_model(SWEEPS[k], f->e[k].points[i].point.variant->name, params)))
                continue;
            afx_samples(x, 5, t, 0.001);
            afx_store_point(db, run, (int64_t)i, &f->e[k].points[i].point, x, 5);
        }
        assert_int_equal(store_run_end(db->st, run, "complete", &err), 0);
    }
}

/* chz_check's verdicts on db for CARD, as "HPBU" letters. */
static void engine_verdicts(afx *db, char *out)
{
    chz_ctx c = { .st = { db->st }, .nst = 1, .card = "H200",
                  .sweep = study()->claim_sweeps[0] };
    dm_claim_result res[CHZ_MAX_CLAIMS];
    int counts[DM_NVERDICTS], i = 0;
    dm_err err = { 0 };
    assert_int_equal(chz_check(&c, study(), res, counts, &err), 0);
    for (const dm_claim *cl = study()->claims; cl->id; cl++, i++)
        out[i] = "HPBU"[res[i].verdict];
    out[i] = '\0';
}

static void the_engine_reads_them_from_a_database(void **state)
{
    fixture *f = *state;
    afx db;
    char got[16];
    assert_int_equal(afx_open(&db), 0);
    plant_h200_runs(f, &db, 1);
    engine_verdicts(&db, got);
    assert_string_equal(got, H200_VERDICTS);
    assert_int_equal(afx_close(&db), 0);
}

/* The large stream's points are its run's, not Sym26's: without that run the multi-GPU
 * claims name the point they miss. */
static void the_engine_reads_each_stream_from_its_run(void **state)
{
    fixture *f = *state;
    afx db;
    char got[16];
    assert_int_equal(afx_open(&db), 0);
    plant_h200_runs(f, &db, 0);
    engine_verdicts(&db, got);
    assert_string_equal(got, "UUUUUUUUUUU");
    chz_ctx c = { .st = { db.st }, .nst = 1, .card = "H200", .sweep = "episodes-multigpu" };
    dm_claim_result r;
    dm_err err = { 0 };
    assert_int_equal(chz_judge(&c, study_claim(study(), "C11"), &r, &err), 0);
    assert_string_equal(r.evidence, "no ok point of multigpu on more than one GPU at the 2.5x "
                                    "stream (64 neurons, 100 s) at support 120 (neurons=64,"
                                    "seconds=100,level=8,support=120) on a card named like "
                                    "\"H200\" in complete runs of episodes-multigpu.");
    assert_int_equal(afx_close(&db), 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
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
        T(no_card_no_claim),
        T(the_h200_medians),
        T(the_engine_reads_them_from_a_database),
        T(the_engine_reads_each_stream_from_its_run),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
