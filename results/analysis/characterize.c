/* characterize.c - the claims engine over the stores: the runs a study reads (the latest
 * complete run of a sweep on a card), the rules' two queries (a median by variant and
 * parameters; another card), the run of a study's rules, and the CUPTI lines under each
 * claim. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "characterize.h"

static double column_or_nan(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

/* Copies column i of q (NULL: "") into buf. */
static void text_col(sqlite3_stmt *q, int i, char *buf, size_t n)
{
    const unsigned char *s = sqlite3_column_text(q, i);
    snprintf(buf, n, "%s", s ? (const char *)s : "");
}

double chz_peak_gbps(double mem_clock_mhz, double bus_bits)
{
    return 2 * mem_clock_mhz * 1e6 * bus_bits / 8 / 1e9;
}

/* ---- runs ---------------------------------------------------------------------------- */

/* The columns of a run that chz_run holds, then its sweep's name. */
#define RUN_COLUMNS                                                                        \
    "SELECT id, gpu_name, no_gpu_reason, started_at, git_commit, gpu_cc, gpu_sms,"         \
    " sweep_name FROM runs"

/* Fills run from a row of RUN_COLUMNS. */
static void run_from_row(sqlite3_stmt *q, int store, chz_run *run)
{
    run->store = store;
    run->id = sqlite3_column_int64(q, 0);
    text_col(q, 1, run->gpu, sizeof run->gpu);
    text_col(q, 2, run->no_gpu, sizeof run->no_gpu);
    text_col(q, 3, run->started, sizeof run->started);
    text_col(q, 4, run->commit, sizeof run->commit);
    text_col(q, 5, run->cc, sizeof run->cc);
    run->sms = sqlite3_column_int(q, 6);
}

int chz_read_run(const chz_ctx *c, int store, int64_t id, chz_run *run, char *sweep,
                 size_t n, dm_err *err)
{
    sqlite3 *db = store_db(c->st[store]);
    sqlite3_stmt *q = NULL;
    memset(run, 0, sizeof *run);
    sweep[0] = '\0';
    if (sqlite3_prepare_v2(db, RUN_COLUMNS " WHERE id = ?1 AND status = 'complete'", -1, &q,
                           NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[store]),
                          sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        run_from_row(q, store, run);
        text_col(q, 7, sweep, n);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[store]),
                          sqlite3_errmsg(db));
    return 0;
}

int chz_latest_run(const chz_ctx *c, const char *sweep, const char *card, chz_run *run,
                   dm_err *err)
{
    static const char sql[] = RUN_COLUMNS
        " WHERE sweep_name = ?1 AND status = 'complete'"
        " AND (?2 IS NULL OR instr(gpu_name, ?2) > 0)"
        " ORDER BY started_at DESC, id DESC LIMIT 1";
    memset(run, 0, sizeof *run);
    for (int i = 0; i < c->nst; i++) {
        sqlite3 *db = store_db(c->st[i]);
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
            return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[i]),
                              sqlite3_errmsg(db));
        sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
        if (card && card[0])
            sqlite3_bind_text(q, 2, card, -1, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        char started[32];
        if (rc == SQLITE_ROW) {
            text_col(q, 3, started, sizeof started);
            if (!run->id || strcmp(started, run->started) > 0)
                run_from_row(q, i, run);
        }
        sqlite3_finalize(q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[i]),
                              sqlite3_errmsg(db));
    }
    return 0;
}

/* ---- the rules' queries ------------------------------------------------------------------ */

/* chz_median over one store: fills out when this store's latest run with a matching
 * point is newer (by start time) than what out already holds. */
static int median_in(dm_store *st, const char *card, const char *sweep, const char *variant,
                     const char *where, dm_median *out, dm_err *err)
{
    static const char sql[] =
        "SELECT s.median, p.params, r.sm_clock_mhz_start, r.gpu_l2_bytes, r.gpu_sms,"
        " r.gpu_name, r.gpu_cc, r.started_at,"
        " (SELECT value FROM run_notes n WHERE n.run_id = r.id"
        "  AND n.key = 'device.mem_clock_mhz'),"
        " (SELECT value FROM run_notes n WHERE n.run_id = r.id"
        "  AND n.key = 'device.mem_bus_bits')"
        " FROM points p JOIN runs r ON r.id = p.run_id"
        " JOIN point_stats s ON s.point_id = p.id"
        " WHERE r.sweep_name = ?1 AND r.status = 'complete'"
        " AND (CASE WHEN ?2 = '' THEN r.gpu_name IS NULL ELSE instr(r.gpu_name, ?2) > 0 END)"
        " AND p.variant = ?3 AND p.status = 'ok' AND s.median > 0"
        " ORDER BY r.started_at DESC, r.id DESC, s.median ASC";
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "characterize query: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, card, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, variant, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *params = (const char *)sqlite3_column_text(q, 1);
        if (!study_params_match(params ? params : "", where))
            continue;
        char when[32];
        text_col(q, 7, when, sizeof when);
        if (!out->found || strcmp(when, out->started) > 0) {
            out->found = 1;
            out->median = sqlite3_column_double(q, 0);
            text_col(q, 1, out->params, sizeof out->params);
            out->sm_mhz = column_or_nan(q, 2);
            out->l2_bytes = column_or_nan(q, 3);
            out->sms = sqlite3_column_int(q, 4);
            text_col(q, 5, out->gpu, sizeof out->gpu);
            text_col(q, 6, out->cc, sizeof out->cc);
            snprintf(out->started, sizeof out->started, "%s", when);
            out->mem_bus_bits = column_or_nan(q, 9);
            out->mem_gbps = chz_peak_gbps(column_or_nan(q, 8), out->mem_bus_bits);
        }
        rc = SQLITE_DONE; /* the first match is the fastest of the newest run */
        break;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return dm_err_set(err, DM_ERUNTIME, "characterize query: %s", sqlite3_errmsg(db));
    return 0;
}

int chz_median(const chz_ctx *c, const char *card, const char *sweep, const char *variant,
               const char *where, dm_median *out, dm_err *err)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < c->nst; i++)
        if (median_in(c->st[i], card, sweep, variant, where, out, err))
            return err->code;
    return 0;
}

int chz_card(const chz_ctx *c, const char *sweep, const char *exclude, char *other, size_t n,
             dm_err *err)
{
    static const char sql[] =
        "SELECT gpu_name FROM runs WHERE sweep_name = ?1 AND status = 'complete'"
        " AND gpu_name IS NOT NULL AND (?2 IS NULL OR instr(gpu_name, ?2) = 0)"
        " ORDER BY started_at DESC LIMIT 1";
    other[0] = '\0';
    for (int i = 0; i < c->nst && !other[0]; i++) {
        sqlite3 *db = store_db(c->st[i]);
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
            return dm_err_set(err, DM_ERUNTIME, "characterize query: %s", sqlite3_errmsg(db));
        sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
        if (exclude)
            sqlite3_bind_text(q, 2, exclude, -1, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        if (rc == SQLITE_ROW)
            text_col(q, 0, other, n);
        sqlite3_finalize(q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return dm_err_set(err, DM_ERUNTIME, "characterize query: %s", sqlite3_errmsg(db));
    }
    return 0;
}

/* Appends sweep to r->sweeps unless it is there or does not fit. */
static void note_sweep(dm_claim_result *r, const char *sweep)
{
    char key[sizeof r->sweeps + 2], all[sizeof r->sweeps + 2];
    snprintf(key, sizeof key, ",%s,", sweep);
    snprintf(all, sizeof all, ",%s,", r->sweeps);
    if (!strstr(all, key) && strlen(r->sweeps) + strlen(sweep) + 2 <= sizeof r->sweeps)
        dm_append(r->sweeps, sizeof r->sweeps, "%s%s", r->sweeps[0] ? "," : "", sweep);
}

static int data_median(void *ctx, const char *card, const char *sweep, const char *variant,
                       const char *where, dm_median *out, dm_err *err)
{
    const chz_ctx *c = ctx;
    if (chz_median(c, card, sweep, variant, where, out, err))
        return err->code;
    if (out->found && c->reading)
        note_sweep(c->reading, sweep);
    return 0;
}

static int data_other_card(void *ctx, const char *sweep, const char *exclude, char *out,
                           size_t n, dm_err *err)
{
    return chz_card(ctx, sweep, exclude, out, n, err);
}

void chz_data(const chz_ctx *c, dm_study_data *d)
{
    *d = (dm_study_data){ .card = c->card, .sweep = c->sweep, .ctx = (void *)c,
                          .median = data_median, .other_card = data_other_card };
}

/* ---- judging ------------------------------------------------------------------------- */

int chz_judge(const chz_ctx *c, const dm_claim *cl, dm_claim_result *r, dm_err *err)
{
    chz_ctx x = *c;
    dm_study_data d;
    x.reading = r;
    chz_data(&x, &d);
    memset(r, 0, sizeof *r);
    return cl->judge(&d, r, err);
}

int chz_check(const chz_ctx *c, const dm_study *s, dm_claim_result res[CHZ_MAX_CLAIMS],
              int counts[DM_NVERDICTS], dm_err *err)
{
    int k = 0;
    memset(counts, 0, DM_NVERDICTS * sizeof counts[0]);
    for (const dm_claim *cl = s->claims; cl && cl->id && k < CHZ_MAX_CLAIMS; cl++, k++) {
        if (chz_judge(c, cl, &res[k], err))
            return err->code;
        counts[res[k].verdict]++;
    }
    return 0;
}

/* ---- CUPTI lines --------------------------------------------------------------------- */

/* Appends to buf "CUPTI, metric (unit) ...: variant P1 v P2 v ...; ...\n" (P the study's
 * group prefix) from the newest complete run on the card, of any of sweeps (names
 * separated by commas), that has values of the metric, if any store has one; sets
 * *shown. Returns 0 or DM_ERUNTIME. */
static int metric_line(const chz_ctx *c, const dm_study *s, const char *sweeps,
                       const char *metric, char *buf, size_t n, int *shown, dm_err *err)
{
    static const char sql[] =
        "WITH run AS (SELECT r.id, r.started_at, r.gpu_name, r.sweep_name FROM runs r"
        "  WHERE instr(',' || ?1 || ',', ',' || r.sweep_name || ',') > 0"
        "  AND r.status = 'complete' AND instr(r.gpu_name, ?2) > 0"
        "  AND EXISTS (SELECT 1 FROM metrics m JOIN points p ON p.id = m.point_id"
        "   WHERE p.run_id = r.id AND m.metric = ?3 AND m.value IS NOT NULL)"
        "  ORDER BY r.started_at DESC LIMIT 1),"
        " grp AS (SELECT p.id, p.variant, g.value_num AS num, g.value_text AS val, s.median"
        "  FROM points p JOIN run ON run.id = p.run_id JOIN point_stats s ON s.point_id = p.id"
        "  JOIN point_params g ON g.point_id = p.id AND g.name = ?4 WHERE p.status = 'ok')"
        " SELECT b.variant, b.val, avg(m.value), max(m.unit), run.started_at, run.gpu_name,"
        " run.sweep_name"
        " FROM grp b JOIN run JOIN metrics m ON m.point_id = b.id AND m.metric = ?3"
        " WHERE m.value IS NOT NULL AND b.median = (SELECT min(o.median) FROM grp o"
        "  WHERE o.variant = b.variant AND o.val = b.val)"
        " GROUP BY b.variant, b.val ORDER BY b.variant, b.num, b.val";
    for (int i = 0; i < c->nst; i++) {
        sqlite3 *db = store_db(c->st[i]);
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
            return dm_err_set(err, DM_ERUNTIME, "characterize metric query: %s", sqlite3_errmsg(db));
        sqlite3_bind_text(q, 1, sweeps, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, c->card, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, metric, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 4, s->group_axis, -1, SQLITE_STATIC);
        int rc, rows = 0;
        char last[64] = "";
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            const char *variant = (const char *)sqlite3_column_text(q, 0);
            const char *unit = (const char *)sqlite3_column_text(q, 3);
            if (rows++ == 0)
                dm_append(buf, n, "CUPTI, %s (%s, mean over the launches of each variant's "
                                   "fastest %s; %s run of %s started %s):", metric,
                           unit ? unit : "", s->best_axis, (const char *)sqlite3_column_text(q, 5),
                           (const char *)sqlite3_column_text(q, 6),
                           (const char *)sqlite3_column_text(q, 4));
            if (strcmp(last, variant)) {
                dm_append(buf, n, "%s %s", last[0] ? ";" : "", variant);
                snprintf(last, sizeof last, "%s", variant);
            }
            dm_append(buf, n, " %s%s %.4g", s->group_prefix,
                      (const char *)sqlite3_column_text(q, 1), sqlite3_column_double(q, 2));
        }
        sqlite3_finalize(q);
        if (rc != SQLITE_DONE)
            return dm_err_set(err, DM_ERUNTIME, "characterize metric query: %s", sqlite3_errmsg(db));
        if (rows) {
            dm_append(buf, n, ".\n");
            *shown = 1;
            return 0;
        }
    }
    return 0;
}

int chz_metric_lines(const chz_ctx *c, const dm_study *s, const dm_claim *cl,
                     const dm_claim_result *r, char *buf, size_t n, dm_err *err)
{
    const char *sweeps = r->sweeps[0] ? r->sweeps : c->sweep;
    int shown = 0;
    buf[0] = '\0';
    for (const char *const *m = cl->shorts; m && *m; m++)
        if (metric_line(c, s, sweeps, *m, buf, n, &shown, err))
            return err->code;
    if (shown)
        return 0;
    dm_append(buf, n, "CUPTI: %s would back this; not collected (no run of", cl->metric);
    for (const char *p = sweeps; *p;) {
        const size_t len = strcspn(p, ",");
        dm_append(buf, n, "%s %.*s", p == sweeps ? "" : p[len] ? "," : " or", (int)len, p);
        p += len + (p[len] == ',');
    }
    dm_append(buf, n, " on this card was made with --metrics).\n");
    return 0;
}
