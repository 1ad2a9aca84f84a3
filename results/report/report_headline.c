/* report_headline.c - what a run's headline says it found: the fastest verified variant
 * of each problem (the points' problem key, as v_speedup compares them) with its median,
 * its speedup over the run's baseline (v_speedup's) and its noise (ci95 and rsd, as
 * `dmbench show` prints them); and the points that were not measured, grouped by why.
 * A run of many problems gets a line per winning variant, its table folded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "report_int.h"
#include "samples.h"

/* More problems than this: the per-problem table is folded under a line per winner. */
#define HEADLINE_PROBLEMS 6
/* More reasons than this for points not measured: the rest are counted, not named. */
#define HEADLINE_REASONS 4

typedef struct fastest {
    int64_t idx;
    char variant[64];
    double median, speedup, ci95, rsd; /* NAN when unknown */
} fastest;

static double real_or_nan(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

static int headline_fail(const dm_report_ctx *c, const char *what, int64_t run, dm_err *err)
{
    return dm_err_set(err, DM_ERUNTIME, "%s: %s of run %lld: %s", store_path(c->st), what,
                      (long long)run, sqlite3_errmsg(store_db(c->st)));
}

/* The fastest ok, verified point of each problem of run, in the order of the problems'
 * first points, into *rows (malloc'd, *n of them); the first one's problem key in key.
 * Returns 0 or DM_ERUNTIME. */
static int read_fastest(const dm_report_ctx *c, int64_t run, fastest **rows, size_t *n,
                        char *key, size_t keylen, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    size_t cap = 0;
    int rc;
    *rows = NULL;
    *n = 0;
    key[0] = '\0';
    if (sqlite3_prepare_v2(store_db(c->st),
            "SELECT idx, variant, median, speedup, ci95, rsd, problem_key FROM"
            " (SELECT s.idx, s.variant, s.median, sp.speedup, " STORE_SQL_CI95 " AS ci95,"
            "  s.noise AS rsd, s.problem_key,"
            "  row_number() OVER (PARTITION BY s.problem_key ORDER BY s.median, s.idx) AS rank,"
            "  min(s.idx) OVER (PARTITION BY s.problem_key) AS first"
            "  FROM v_point_summary s LEFT JOIN v_speedup sp ON sp.point_id = s.point_id"
            "  WHERE s.run_id = ?1 AND s.status = 'ok' AND s.verification = 'match'"
            "  AND s.median > 0)"
            " WHERE rank = 1 ORDER BY first", -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(s, 1, run) != SQLITE_OK)
        goto fail;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            fastest *grown = realloc(*rows, cap * sizeof *grown);
            if (!grown) {
                sqlite3_finalize(s);
                free(*rows);
                *rows = NULL;
                return dm_err_set(err, DM_ERUNTIME, "out of memory reading run %lld",
                                  (long long)run);
            }
            *rows = grown;
        }
        fastest *f = &(*rows)[(*n)++];
        f->idx = sqlite3_column_int64(s, 0);
        snprintf(f->variant, sizeof f->variant, "%s", (const char *)sqlite3_column_text(s, 1));
        f->median = real_or_nan(s, 2);
        f->speedup = real_or_nan(s, 3);
        f->ci95 = real_or_nan(s, 4);
        f->rsd = real_or_nan(s, 5);
        if (*n == 1)
            snprintf(key, keylen, "%s", (const char *)sqlite3_column_text(s, 6));
    }
    if (rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(s);
    return 0;
fail:
    sqlite3_finalize(s);
    free(*rows);
    *rows = NULL;
    return headline_fail(c, "ranking the variants", run, err);
}

/* "x" with fmt, or "-" for NAN. */
static const char *num(double x, const char *fmt, double scale, char *buf, size_t n)
{
    if (isnan(x))
        return "-";
    snprintf(buf, n, fmt, x * scale);
    return buf;
}

/* One line per variant that is fastest somewhere: in how many problems, and its range of
 * speedups there. */
static void winners(const dm_report_ctx *c, const fastest *rows, size_t n, const char *baseline)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = 0, wins = 0;
        while (strcmp(rows[j].variant, rows[i].variant)) /* counted at its first win */
            j++;
        if (j < i)
            continue;
        double lo = INFINITY, hi = -INFINITY;
        for (j = i; j < n; j++)
            if (!strcmp(rows[j].variant, rows[i].variant)) {
                wins++;
                lo = isnan(rows[j].speedup) ? lo : fmin(lo, rows[j].speedup);
                hi = isnan(rows[j].speedup) ? hi : fmax(hi, rows[j].speedup);
            }
        char range[160] = "", from[32], to[32];
        snprintf(from, sizeof from, "%.2fx", lo);
        snprintf(to, sizeof to, "%.2fx", hi);
        if (baseline && lo <= hi) /* one figure where both print alike */
            snprintf(range, sizeof range, ", %s%s%s over %s", from, strcmp(from, to) ? " to " : "",
                     strcmp(from, to) ? to : "", baseline);
        report_para(c->doc, "%s: fastest in %zu of %zu problems%s.", rows[i].variant, wins, n,
                    range);
    }
}

/* The table of rows: a column per problem axis of ax that varies, then the fastest
 * variant, its median, speedup and noise. */
static void fastest_table(const dm_report_ctx *c, const report_axes *ax, const char *key,
                          const fastest *rows, size_t n, const char *baseline)
{
    const char *head[REPORT_MAX_COLS];
    int axes[REPORT_MAX_AXES], naxes = 0, ncols = 0;
    char speedup[128];
    for (int k = 0; k < ax->n; k++)
        if (ax->varies[k] && report_axes_in_key(ax, k, key)) {
            axes[naxes++] = k;
            head[ncols++] = ax->name[k];
        }
    head[ncols++] = "fastest";
    head[ncols++] = "median";
    if (baseline) {
        snprintf(speedup, sizeof speedup, "speedup over %s", baseline);
        head[ncols++] = speedup;
    }
    head[ncols++] = "ci95";
    head[ncols++] = "rsd";
    report_table_begin(c->doc, ncols, head);
    for (size_t i = 0; i < n; i++) {
        const char *cells[REPORT_MAX_COLS];
        char median[24], sp[24], ci[24], rsd[24];
        int m = 0;
        for (int a = 0; a < naxes; a++)
            cells[m++] = report_axes_value(ax, rows[i].idx, axes[a]);
        samples_fmt_seconds(rows[i].median, median, sizeof median);
        cells[m++] = rows[i].variant;
        cells[m++] = median;
        if (baseline)
            cells[m++] = num(rows[i].speedup, "%.2fx", 1, sp, sizeof sp);
        cells[m++] = num(rows[i].ci95, "%.2f%%", 100, ci, sizeof ci);
        cells[m++] = num(rows[i].rsd, "%.2f%%", 100, rsd, sizeof rsd);
        report_table_row(c->doc, cells);
    }
    report_table_end(c->doc);
}

int report_fastest(const dm_report_ctx *c, int64_t run, const char *baseline, dm_err *err)
{
    fastest *rows;
    size_t n;
    char key[DM_KEY_MAX];
    report_axes ax;
    if (read_fastest(c, run, &rows, &n, key, sizeof key, err))
        return err->code;
    if (n == 0) {
        report_para(c->doc, "No point was measured and verified: nothing to rank.");
        free(rows);
        return 0;
    }
    if (report_axes_read(c->st, run, &ax, err)) {
        free(rows);
        return err->code;
    }
    if (n == 1) {
        char problem[2048];
        report_axes_constants(&ax, key, problem, sizeof problem);
        report_para(c->doc, "The fastest verified variant of the one problem (%s):",
                    problem[0] ? problem : "no parameters");
        fastest_table(c, &ax, key, rows, n, baseline);
    } else if (n <= HEADLINE_PROBLEMS) {
        report_para(c->doc, "The fastest verified variant of each of its %zu problems:", n);
        fastest_table(c, &ax, key, rows, n, baseline);
    } else {
        char summary[96];
        winners(c, rows, n, baseline);
        snprintf(summary, sizeof summary, "The fastest verified variant of each of its %zu "
                 "problems", n);
        report_details_begin(c->doc, summary);
        fastest_table(c, &ax, key, rows, n, baseline);
        report_details_end(c->doc);
    }
    report_axes_free(&ax);
    free(rows);
    return 0;
}

int report_unmeasured(const dm_report_ctx *c, int64_t run, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    int rc, groups = 0;
    long long more = 0;
    if (sqlite3_prepare_v2(store_db(c->st),
            "SELECT status, reason, count(*), min(idx), max(idx) FROM points"
            " WHERE run_id = ?1 AND status IN ('failed', 'skipped') GROUP BY status, reason"
            " ORDER BY count(*) DESC, status, reason", -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(s, 1, run) != SQLITE_OK) {
        sqlite3_finalize(s);
        return headline_fail(c, "reading the points not measured", run, err);
    }
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        long long count = sqlite3_column_int64(s, 2), lo = sqlite3_column_int64(s, 3),
                  hi = sqlite3_column_int64(s, 4);
        const char *reason = (const char *)sqlite3_column_text(s, 1);
        if (groups++ == HEADLINE_REASONS) {
            more = count;
            continue;
        }
        if (groups > HEADLINE_REASONS) {
            more += count;
            continue;
        }
        char where[64];
        snprintf(where, sizeof where, lo == hi ? "idx %lld" : "idx %lld to %lld", lo, hi);
        report_para(c->doc, "%lld point%s %s (%s): %s.", count, count == 1 ? "" : "s",
                    (const char *)sqlite3_column_text(s, 0), where,
                    reason ? reason : "no reason recorded");
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return headline_fail(c, "reading the points not measured", run, err);
    if (more)
        report_para(c->doc, "%lld more not measured for %d other reasons (every point is in "
                    "the run's table).", more, groups - HEADLINE_REASONS);
    return 0;
}
