/* characterize.c - the queries the claim checks share (a median by variant, level and
 * block on a card; another card in the stores), the run of a claim table's checks, the
 * CUPTI lines under each claim, and the markdown writer over them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "characterize.h"

const char *chz_verdict_name(chz_verdict v)
{
    return v == CHZ_HOLDS ? "holds" : v == CHZ_BREAKS ? "does not hold" : "not measurable here";
}

const char *chz_sweep(const chz_ctx *c)
{
    return c->sweep ? c->sweep : CHZ_TDM_SWEEP;
}

static double column_or_nan(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

/* chz_median over one store: fills out when this store's latest matching run is newer
 * (by start time) than what out already holds. */
static int median_in(dm_store *st, const char *card, const char *sweep, const char *variant,
                     int level, int block, chz_point *out, char *started, dm_err *err)
{
    static const char sql[] =
        "SELECT s.median, b.value_num, r.sm_clock_mhz_start, r.mem_clock_mhz_start,"
        " r.gpu_l2_bytes, r.gpu_sms, r.gpu_name, r.gpu_cc, r.started_at"
        " FROM points p JOIN runs r ON r.id = p.run_id"
        " JOIN point_stats s ON s.point_id = p.id"
        " JOIN point_params lv ON lv.point_id = p.id AND lv.name = 'level'"
        " JOIN point_params b ON b.point_id = p.id AND b.name = 'block'"
        " WHERE r.sweep_name = ?1 AND r.status = 'complete' AND instr(r.gpu_name, ?2) > 0"
        " AND p.variant = ?3 AND p.status = 'ok' AND s.median > 0 AND lv.value_num = ?4"
        " AND (?5 < 0 OR b.value_num = ?5)"
        " ORDER BY r.started_at DESC, r.id DESC, s.median ASC LIMIT 1";
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "characterize query: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, card, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, variant, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, level);
    sqlite3_bind_int(q, 5, block);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const char *when = (const char *)sqlite3_column_text(q, 8);
        if (!out->found || (when && strcmp(when, started) > 0)) {
            out->found = 1;
            out->median = sqlite3_column_double(q, 0);
            out->block = sqlite3_column_int(q, 1);
            out->sm_mhz = column_or_nan(q, 2);
            out->mem_mhz = column_or_nan(q, 3);
            out->l2_bytes = column_or_nan(q, 4);
            out->sms = sqlite3_column_int(q, 5);
            snprintf(out->gpu, sizeof out->gpu, "%s", (const char *)sqlite3_column_text(q, 6));
            const char *cc = (const char *)sqlite3_column_text(q, 7);
            snprintf(out->cc, sizeof out->cc, "%s", cc ? cc : "");
            snprintf(started, 64, "%s", when ? when : "");
            snprintf(out->started, sizeof out->started, "%s", started);
        }
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return dm_err_set(err, DM_ERUNTIME, "characterize query: %s", sqlite3_errmsg(db));
    return 0;
}

int chz_median(const chz_ctx *c, const char *card, const char *sweep, const char *variant,
               int level, int block, chz_point *out, dm_err *err)
{
    char started[64] = "";
    memset(out, 0, sizeof *out);
    for (int i = 0; i < c->nst; i++)
        if (median_in(c->st[i], card, sweep, variant, level, block, out, started, err))
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
            snprintf(other, n, "%s", (const char *)sqlite3_column_text(q, 0));
        sqlite3_finalize(q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return dm_err_set(err, DM_ERUNTIME, "characterize query: %s", sqlite3_errmsg(db));
    }
    return 0;
}

/* Appends to buf "CUPTI, metric (unit) ...: variant L1 v L2 v ...; ...\n" from the newest
 * complete run of the sweep on the card that has values of the metric, if any store has
 * one; sets *shown. Returns 0 or DM_ERUNTIME. */
static int metric_line(const chz_ctx *c, const char *metric, char *buf, size_t n, int *shown,
                       dm_err *err)
{
    static const char sql[] =
        "WITH run AS (SELECT r.id, r.started_at, r.gpu_name FROM runs r"
        "  WHERE r.sweep_name = ?1 AND r.status = 'complete' AND instr(r.gpu_name, ?2) > 0"
        "  AND EXISTS (SELECT 1 FROM metrics m JOIN points p ON p.id = m.point_id"
        "   WHERE p.run_id = r.id AND m.metric = ?3 AND m.value IS NOT NULL)"
        "  ORDER BY r.started_at DESC LIMIT 1),"
        " lvl AS (SELECT p.id, p.variant, l.value_num AS level, s.median FROM points p"
        "  JOIN run ON run.id = p.run_id JOIN point_stats s ON s.point_id = p.id"
        "  JOIN point_params l ON l.point_id = p.id AND l.name = 'level' WHERE p.status = 'ok')"
        " SELECT b.variant, b.level, avg(m.value), max(m.unit), run.started_at, run.gpu_name"
        " FROM lvl b JOIN run JOIN metrics m ON m.point_id = b.id AND m.metric = ?3"
        " WHERE m.value IS NOT NULL AND b.median = (SELECT min(o.median) FROM lvl o"
        "  WHERE o.variant = b.variant AND o.level = b.level)"
        " GROUP BY b.variant, b.level ORDER BY b.variant, b.level";
    for (int i = 0; i < c->nst; i++) {
        sqlite3 *db = store_db(c->st[i]);
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
            return dm_err_set(err, DM_ERUNTIME, "characterize metric query: %s", sqlite3_errmsg(db));
        sqlite3_bind_text(q, 1, chz_sweep(c), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, c->card, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, metric, -1, SQLITE_STATIC);
        int rc, rows = 0;
        char last[64] = "";
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            const char *variant = (const char *)sqlite3_column_text(q, 0);
            const char *unit = (const char *)sqlite3_column_text(q, 3);
            if (rows++ == 0)
                dm_append(buf, n, "CUPTI, %s (%s, mean over the launches of each variant's "
                                   "fastest block; %s run of %s started %s):", metric,
                           unit ? unit : "", (const char *)sqlite3_column_text(q, 5),
                           chz_sweep(c), (const char *)sqlite3_column_text(q, 4));
            if (strcmp(last, variant)) {
                dm_append(buf, n, "%s %s", last[0] ? ";" : "", variant);
                snprintf(last, sizeof last, "%s", variant);
            }
            dm_append(buf, n, " L%d %.4g", sqlite3_column_int(q, 1), sqlite3_column_double(q, 2));
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

int chz_metric_lines(const chz_ctx *c, const chz_claim *cl, char *buf, size_t n, dm_err *err)
{
    int shown = 0;
    buf[0] = '\0';
    for (const char *const *m = cl->shorts; m && *m; m++)
        if (metric_line(c, *m, buf, n, &shown, err))
            return err->code;
    if (!shown)
        dm_append(buf, n, "CUPTI: %s would back this; not collected (no run of %s on this "
                           "card was made with --metrics).\n", cl->metric, chz_sweep(c));
    return 0;
}

int chz_check(const chz_ctx *c, const chz_claim *table, chz_result res[CHZ_MAX_CLAIMS],
              int counts[3], dm_err *err)
{
    int k = 0;
    counts[0] = counts[1] = counts[2] = 0;
    for (const chz_claim *cl = table; cl->id && k < CHZ_MAX_CLAIMS; cl++, k++) {
        memset(&res[k], 0, sizeof res[k]);
        if (cl->check(c, &res[k], err))
            return err->code;
        counts[res[k].verdict]++;
    }
    return 0;
}

int chz_write(const chz_ctx *c, const chz_claim *table, const char *title,
              const char *preamble, FILE *out, int counts[3], dm_err *err)
{
    chz_result res[CHZ_MAX_CLAIMS];
    char lines[CHZ_METRIC_TEXT];
    int k = 0;
    if (chz_check(c, table, res, counts, err))
        return err->code;
    fprintf(out, "## %s\n\n%s\n", title, preamble);
    fprintf(out, "| claim | paper | verdict |\n|---|---|---|\n");
    for (const chz_claim *cl = table; cl->id && k < CHZ_MAX_CLAIMS; cl++, k++)
        fprintf(out, "| %s: %s | line %d | %s |\n", cl->id, cl->title, cl->line,
                chz_verdict_name(res[k].verdict));
    k = 0;
    for (const chz_claim *cl = table; cl->id && k < CHZ_MAX_CLAIMS; cl++, k++) {
        fprintf(out, "\n### %s: %s - %s\n\n", cl->id, cl->title, chz_verdict_name(res[k].verdict));
        fprintf(out, "Paper (heading line %d), line %d: \"%s\"\n\n", cl->line, cl->quote_line,
                cl->wording);
        fprintf(out, "Measured: %s\n", res[k].evidence);
        if (res[k].hardware[0])
            fprintf(out, "\nWhat changed in the hardware: %s\n", res[k].hardware);
        if (chz_metric_lines(c, cl, lines, sizeof lines, err))
            return err->code;
        for (const char *line = lines; *line;) {
            size_t len = strcspn(line, "\n");
            fprintf(out, "\n%.*s\n", (int)len, line);
            line += len + (line[len] == '\n');
        }
    }
    return 0;
}
