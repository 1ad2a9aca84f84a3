/* characterize.c - the queries the claim checks share (a median by variant, level and
 * block on a card; another card in the stores) and the markdown writer over a claim
 * table. */
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

void chz_append(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
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

int chz_write(const chz_ctx *c, const chz_claim *table, const char *title,
              const char *preamble, FILE *out, int counts[3], dm_err *err)
{
    counts[0] = counts[1] = counts[2] = 0;
    fprintf(out, "## %s\n\n%s\n", title, preamble);
    fprintf(out, "| claim | paper | verdict |\n|---|---|---|\n");
    chz_result res[16];
    int k = 0;
    for (const chz_claim *cl = table; cl->id && k < 16; cl++, k++) {
        memset(&res[k], 0, sizeof res[k]);
        if (cl->check(c, &res[k], err))
            return err->code;
        counts[res[k].verdict]++;
        fprintf(out, "| %s: %s | line %d | %s |\n", cl->id, cl->title, cl->line,
                chz_verdict_name(res[k].verdict));
    }
    k = 0;
    for (const chz_claim *cl = table; cl->id && k < 16; cl++, k++) {
        fprintf(out, "\n### %s: %s - %s\n\n", cl->id, cl->title, chz_verdict_name(res[k].verdict));
        fprintf(out, "Paper (heading line %d), line %d: \"%s\"\n\n", cl->line, cl->quote_line,
                cl->wording);
        fprintf(out, "Measured: %s\n", res[k].evidence);
        if (res[k].hardware[0])
            fprintf(out, "\nWhat changed in the hardware: %s\n", res[k].hardware);
        fprintf(out, "\nCUPTI: %s would back this; not collected (these runs were made without "
                     "--metrics).\n", cl->metric);
    }
    return 0;
}
