/* study_fixture.h - a workload's study judged on fabricated medians (sfx): the points of
 * its claim sweeps, expanded for an H100-like device, each sweep run on a card of its own
 * (some again with overrides) and timed by a model with tweaks; the rules' view of them
 * (dm_study_data); and the same medians planted as runs in a results database. Static
 * functions, included by one test file each, after cmocka.h and store_fixture.h. */
#ifndef DM_TEST_STUDY_FIXTURE_H
#define DM_TEST_STUDY_FIXTURE_H

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "study.h"
#include "sweep.h"

#define SFX_H100 "NVIDIA H100 80GB HBM3"
#define SFX_MAX_SWEEPS 10 /* runs: the claim sweeps and their reruns */
#define SFX_MAX_TWEAKS 16

/* The time of a variant's point of sweep with parameters params, in seconds; NAN: the
 * point was not measured. */
typedef double (*sfx_model)(const char *sweep, const char *variant, const char *params);

/* A change to the model: the times of variant at the points of sweep (NULL: every sweep)
 * whose parameters match where, times scale (NAN: not measured). */
typedef struct sfx_tweak {
    const char *sweep, *variant, *where;
    double scale;
} sfx_tweak;

typedef struct sfx {
    const dm_study *study;
    const char *workload;
    int n;                              /* the runs: the study's claim sweeps, in its order,
                                           then the reruns (sfx_rerun) */
    const char *sweep[SFX_MAX_SWEEPS];
    dm_sweep *s[SFX_MAX_SWEEPS];
    dm_expansion e[SFX_MAX_SWEEPS];
    char started[SFX_MAX_SWEEPS][32];   /* each run's start: the later, the newer */
    const char *card[SFX_MAX_SWEEPS];   /* the card each run was on (SFX_H100) */
    int gpus;                           /* the most GPUs a point ran on (INT_MAX) */
    sfx_model model;
    sfx_tweak tw[SFX_MAX_TWEAKS];
    int ntw;
} sfx;

static inline void sfx_close(sfx *f)
{
    for (int k = 0; k < f->n; k++) {
        sweep_expansion_free(&f->e[k]);
        sweep_free(f->s[k]);
    }
    free(f);
}

/* Loads sweep with overrides (NULL-terminated `-a` arguments; NULL: none) as run f->n and
 * expands it for an H100-like device; 0, or -1 with the reason on stderr. */
static inline int sfx_load(sfx *f, const char *sweep, const char *const *overrides)
{
    static const dm_device h100 = { .max_threads_per_block = 1024,
                                    .smem_per_block_optin = 232448, .sms = 132,
                                    .warp_size = 32 };
    int k = f->n, rc;
    char path[512];
    dm_err err = { 0 };
    if (k == SFX_MAX_SWEEPS) {
        fprintf(stderr, "%s: more than %d runs\n", f->workload, SFX_MAX_SWEEPS);
        return -1;
    }
    f->sweep[k] = sweep;
    snprintf(path, sizeof path, "%s/sweeps/%s.yaml", DM_SOURCE_DIR, sweep);
    rc = sweep_load(path, &f->s[k], &err);
    for (const char *const *a = overrides; rc == 0 && a && *a; a++)
        rc = sweep_override(f->s[k], *a, &err);
    if (rc || sweep_expand(f->s[k], &h100, &f->e[k], &err)) {
        fprintf(stderr, "%s\n", err.msg);
        sweep_free(f->s[k]);
        return -1;
    }
    return 0;
}

/* Loads and expands workload's claim sweeps into a new fixture timed by model: sweep k on
 * SFX_H100, its run started on 2026-11-(20 + k). Returns it, or NULL with the reason on
 * stderr. */
static inline sfx *sfx_open(const char *workload, sfx_model model)
{
    dm_err err = { 0 };
    const dm_workload *w = registry_workload(workload, &err);
    sfx *f = calloc(1, sizeof *f);
    if (!f || !w || !w->study || !w->study->claim_sweeps) {
        fprintf(stderr, "%s: %s\n", workload, err.msg[0] ? err.msg : "no claim sweeps");
        free(f);
        return NULL;
    }
    f->study = w->study;
    f->workload = workload;
    f->model = model;
    f->gpus = INT_MAX;
    for (; f->study->claim_sweeps[f->n]; f->n++) {
        int k = f->n;
        if (sfx_load(f, f->study->claim_sweeps[k], NULL)) {
            sfx_close(f);
            return NULL;
        }
        snprintf(f->started[k], sizeof f->started[k], "2026-11-%02dT12:00:00Z", 20 + k);
        f->card[k] = SFX_H100;
    }
    return f;
}

/* The index of sweep among f's, or -1. */
static inline int sfx_sweep(const sfx *f, const char *sweep)
{
    for (int k = 0; k < f->n; k++)
        if (!strcmp(f->sweep[k], sweep))
            return k;
    return -1;
}

/* Adds a run of sweep k with overrides (NULL-terminated `-a` arguments) on its card,
 * started an hour after it; returns the run's index, or -1 with the reason on stderr. */
static inline int sfx_rerun(sfx *f, int k, const char *const *overrides)
{
    int run = f->n;
    if (sfx_load(f, f->sweep[k], overrides))
        return -1;
    char day[sizeof f->started[k]]; /* copied out: run's text and k's are of one array */
    memcpy(day, f->started[k], sizeof day);
    snprintf(f->started[run], sizeof f->started[run], "%.11s13:00:00Z", day);
    f->card[run] = f->card[k];
    f->n++;
    return run;
}

/* The parameters of run k's point i into params; 0 when it was not run (pruned, or on
 * more GPUs than f->gpus). */
static inline int sfx_point(const sfx *f, int k, size_t i, char *params, size_t n)
{
    const dm_sweep_point *sp = &f->e[k].points[i];
    dm_point_format(&sp->point, params, n);
    return !sp->pruned && !(study_param(params, "gpus") > f->gpus);
}

/* The model's time of a point, tweaked. */
static inline double sfx_time(const sfx *f, const char *sweep, const char *variant,
                              const char *params)
{
    double t = f->model(sweep, variant, params);
    for (int i = 0; i < f->ntw; i++)
        if ((!f->tw[i].sweep || !strcmp(f->tw[i].sweep, sweep)) &&
            !strcmp(f->tw[i].variant, variant) && study_params_match(params, f->tw[i].where))
            t *= f->tw[i].scale;
    return t;
}

/* dm_study_data's median over the fixture: the fastest matching point of sweep's runs on
 * cards whose names contain card. */
static int sfx_median(void *ctx, const char *card, const char *sweep, const char *variant,
                      const char *where, dm_median *out, dm_err *err)
{
    const sfx *f = ctx;
    (void)err;
    memset(out, 0, sizeof *out);
    for (int k = 0; k < f->n; k++) {
        if (strcmp(f->sweep[k], sweep) || !strstr(f->card[k], card))
            continue;
        for (size_t i = 0; i < f->e[k].n; i++) {
            const dm_point *pt = &f->e[k].points[i].point;
            char params[512];
            if (!sfx_point(f, k, i, params, sizeof params) ||
                strcmp(pt->variant->name, variant) || !study_params_match(params, where))
                continue;
            double t = sfx_time(f, sweep, variant, params);
            if (isnan(t) || (out->found && t >= out->median))
                continue;
            *out = (dm_median){ .found = 1, .median = t, .sm_mhz = NAN, .mem_bus_bits = NAN,
                                .mem_gbps = NAN, .l2_bytes = 50 << 20, .sms = 132 };
            snprintf(out->params, sizeof out->params, "%s", params);
            snprintf(out->gpu, sizeof out->gpu, "%s", f->card[k]);
            snprintf(out->cc, sizeof out->cc, "9.0");
            snprintf(out->started, sizeof out->started, "%s", f->started[k]);
        }
    }
    return 0;
}

static int sfx_other_card(void *ctx, const char *sweep, const char *exclude, char *out,
                          size_t n, dm_err *err)
{
    (void)ctx, (void)sweep, (void)exclude, (void)n, (void)err;
    out[0] = '\0';
    return 0;
}

/* Claim id judged on the fixture's medians on card; checks that it wrote evidence, and a
 * hardware note exactly when it (partly) breaks. */
static inline dm_claim_result sfx_judge(sfx *f, const char *card, const char *id)
{
    const dm_claim *cl = study_claim(f->study, id);
    dm_study_data d = { .card = card, .sweep = f->sweep[0], .ctx = f, .median = sfx_median,
                        .other_card = sfx_other_card };
    dm_claim_result r;
    dm_err err = { 0 };
    assert_non_null(cl);
    memset(&r, 0, sizeof r);
    assert_int_equal(cl->judge(&d, &r, &err), 0);
    assert_true(r.evidence[0] != '\0');
    assert_true((r.verdict == DM_BREAKS || r.verdict == DM_PARTLY) == (r.hardware[0] != '\0'));
    return r;
}

static inline void sfx_expect(sfx *f, const char *card, const char *id, dm_verdict want)
{
    dm_claim_result r = sfx_judge(f, card, id);
    if (r.verdict != want)
        fail_msg("%s: %s, expected %s. Evidence: %s", id, study_verdict_name(r.verdict),
                 study_verdict_name(want), r.evidence);
}

/* cmocka's teardown of a group or test whose state is an sfx. */
/* Checks target's counterpart of a published value (row, column) on the fixture's
 * medians on the H100 (dm_target.measured): want within 1e-9 (NAN: none), measured as
 * how. */
static inline void sfx_expect_measured(sfx *f, const char *target, const char *row,
                                       const char *column, double want, const char *how)
{
    const dm_target *t = NULL;
    for (const dm_target *k = f->study->targets; k->name; k++)
        if (!strcmp(k->name, target))
            t = k;
    assert_non_null(t);
    assert_non_null(t->measured);
    dm_study_data d = { .card = SFX_H100, .sweep = t->sweep, .ctx = f, .median = sfx_median,
                        .other_card = sfx_other_card };
    double v;
    char got[256];
    dm_err err = { 0 };
    assert_int_equal(t->measured(&d, row, column, &v, got, sizeof got, &err), 0);
    if (isnan(want) ? !isnan(v) : !(fabs(v - want) <= 1e-9 * want))
        fail_msg("%s %s: %.10g, expected %.10g", row, column, v, want);
    if (strcmp(got, how))
        fail_msg("%s %s: measured as '%s', expected '%s'", row, column, got, how);
}

static inline int sfx_teardown(void **state)
{
    sfx_close(*state);
    return 0;
}

/* Checks that each of the study's claims, n of them, gives want on card. */
static inline void sfx_expect_all(sfx *f, const char *card, dm_verdict want, int n)
{
    int seen = 0;
    for (const dm_claim *cl = f->study->claims; cl->id; cl++, seen++)
        sfx_expect(f, card, cl->id, want);
    assert_int_equal(seen, n);
}

/* "HPBU" letters of every claim's verdict on card into out. */
static inline void sfx_verdicts(sfx *f, const char *card, char *out)
{
    int i = 0;
    for (const dm_claim *cl = f->study->claims; cl->id; cl++)
        out[i++] = "HPBU"[sfx_judge(f, card, cl->id).verdict];
    out[i] = '\0';
}

/* Scales variant's times at the points of sweep (NULL: all) matching where. */
static inline void sfx_tw(sfx *f, const char *sweep, const char *variant, const char *where,
                          double scale)
{
    assert_true(f->ntw < SFX_MAX_TWEAKS);
    f->tw[f->ntw++] = (sfx_tweak){ sweep, variant, where, scale };
}

static inline void sfx_untweak(sfx *f)
{
    f->ntw = 0;
}

/* Stores the fixture's medians of run k in db: a complete run of its sweep on its card
 * holding the points the model times, five samples around each median. */
static inline void sfx_plant_run(const sfx *f, afx *db, int k)
{
    dm_device dev = { .cc_major = 9, .cc_minor = 0, .sms = 132, .l2_bytes = 50 << 20 };
    snprintf(dev.name, sizeof dev.name, "%s", f->card[k]);
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = { .device = &dev, .workload = f->workload, .sweep_name = f->sweep[k],
                         .sweep_text = "fixture", .measure = &mo,
                         .sm_clock_mhz_start = 1980, .mem_clock_mhz_start = 2619 };
    int64_t run = 0;
    dm_err err = { 0 };
    assert_int_equal(store_run_begin(db->st, &info, &run, &err), 0);
    for (size_t i = 0; i < f->e[k].n; i++) {
        const dm_point *pt = &f->e[k].points[i].point;
        char params[512];
        double t, x[5];
        if (!sfx_point(f, k, i, params, sizeof params) ||
            isnan(t = sfx_time(f, f->sweep[k], pt->variant->name, params)))
            continue;
        afx_samples(x, 5, t, 0.001);
        afx_store_point(db, run, (int64_t)i, pt, x, 5);
    }
    assert_int_equal(store_run_end(db->st, run, "complete", &err), 0);
}

/* Stores every run of the fixture in db (sfx_plant_run). */
static inline void sfx_plant(const sfx *f, afx *db)
{
    for (int k = 0; k < f->n; k++)
        sfx_plant_run(f, db, k);
}

#endif
