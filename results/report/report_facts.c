/* report_facts.c - the report's facts of a run's points (point_facts: what each point's
 * workload said of its last timed execution, per mining level say), folded under the
 * run's points: a row per point and group, a column per fact name in the order the run
 * first gave each. Any workload's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "report_int.h"

/* The names of a run's facts, in order of first appearance (at most REPORT_MAX_COLS less
 * the idx, variant and group columns; the rest are not shown). */
typedef struct facts_cols {
    int n;
    char name[REPORT_MAX_COLS - 3][32];
} facts_cols;

static int facts_fail(const dm_report_ctx *c, long long run, dm_err *err)
{
    return dm_err_set(err, DM_ERUNTIME, "%s: reading the facts of run %lld: %s",
                      store_path(c->st), run, sqlite3_errmsg(store_db(c->st)));
}

/* s prepared and bound to run; NULL on failure. */
static sqlite3_stmt *facts_query(const dm_report_ctx *c, const char *sql, long long run)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(store_db(c->st), sql, -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(s, 1, run) != SQLITE_OK) {
        sqlite3_finalize(s);
        return NULL;
    }
    return s;
}

/* The run's fact names into cols. Returns 0 or DM_ERUNTIME. */
static int facts_names(const dm_report_ctx *c, long long run, facts_cols *cols, dm_err *err)
{
    sqlite3_stmt *s = facts_query(
        c, "SELECT f.name FROM point_facts f JOIN points p ON p.id = f.point_id"
           " WHERE p.run_id = ?1 GROUP BY f.name ORDER BY min(p.idx * 1000000 + f.idx)", run);
    if (!s)
        return facts_fail(c, run, err);
    int rc;
    cols->n = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (cols->n < (int)(sizeof cols->name / sizeof *cols->name))
            snprintf(cols->name[cols->n++], sizeof cols->name[0], "%s",
                     (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : facts_fail(c, run, err);
}

/* A fact's value as a cell: counts with every digit, the rest to 4 digits. */
static void facts_cell(double v, int count, char *buf, size_t n)
{
    if (count && v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

/* One row of the table: the point at idx, variant, group, cells (NULL: none). */
static void facts_row(dm_report_doc *d, const facts_cols *cols, long long idx,
                      const char *variant, const char *group, char (*cells)[32],
                      const int *have)
{
    const char *row[REPORT_MAX_COLS];
    char at[24];
    snprintf(at, sizeof at, "%lld", idx);
    row[0] = at;
    row[1] = variant;
    row[2] = group;
    for (int k = 0; k < cols->n; k++)
        row[3 + k] = have[k] ? cells[k] : NULL;
    report_table_row(d, row);
}

int report_facts(const dm_report_ctx *c, long long run, dm_err *err)
{
    facts_cols cols;
    if (facts_names(c, run, &cols, err))
        return DM_ERUNTIME;
    if (cols.n == 0)
        return 0;
    sqlite3_stmt *s = facts_query(
        c, "SELECT p.idx, p.variant, f.grp, f.name, f.value, f.unit,"
           " (SELECT count(DISTINCT point_id) FROM point_facts WHERE point_id IN"
           "  (SELECT id FROM points WHERE run_id = ?1))"
           " FROM point_facts f JOIN points p ON p.id = f.point_id"
           " WHERE p.run_id = ?1 ORDER BY p.idx, f.idx", run);
    if (!s)
        return facts_fail(c, run, err);
    const char *head[REPORT_MAX_COLS] = { "idx", "variant", "group" };
    for (int k = 0; k < cols.n; k++)
        head[3 + k] = cols.name[k];
    char cells[REPORT_MAX_COLS - 3][32], group[64] = "", variant[64] = "";
    int have[REPORT_MAX_COLS - 3] = { 0 }, rc, rows = 0;
    long long idx = -1;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        long long at = sqlite3_column_int64(s, 0);
        const char *grp = (const char *)sqlite3_column_text(s, 2);
        if (rows++ == 0) {
            char summary[128];
            snprintf(summary, sizeof summary, "Facts of the points of run %lld (%lld)", run,
                     (long long)sqlite3_column_int64(s, 6));
            report_details_begin(c->doc, summary);
            report_para(c->doc, "What each point's workload reported of its last timed "
                        "execution, a row per group (times in seconds).");
            report_table_begin(c->doc, 3 + cols.n, head);
        } else if (at != idx || strcmp(grp, group) != 0) {
            facts_row(c->doc, &cols, idx, variant, group, cells, have);
            memset(have, 0, sizeof have);
        }
        idx = at;
        snprintf(variant, sizeof variant, "%s", (const char *)sqlite3_column_text(s, 1));
        snprintf(group, sizeof group, "%s", grp);
        const char *name = (const char *)sqlite3_column_text(s, 3);
        for (int k = 0; k < cols.n; k++)
            if (strcmp(cols.name[k], name) == 0 && sqlite3_column_type(s, 4) != SQLITE_NULL) {
                facts_cell(sqlite3_column_double(s, 4), sqlite3_column_type(s, 5) == SQLITE_NULL,
                           cells[k], sizeof cells[k]);
                have[k] = 1;
            }
    }
    if (rows) {
        facts_row(c->doc, &cols, idx, variant, group, cells, have);
        report_table_end(c->doc);
        report_details_end(c->doc);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : facts_fail(c, run, err);
}
