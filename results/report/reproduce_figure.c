/* reproduce_figure.c - a figure of medians as the table behind it (a row per value of
 * the row axis, a column per variant and value of the column axis, and of any other
 * parameter whose values would otherwise share a cell; the fastest last), then the
 * paper's claims about it, each judged on the same runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "reproduce.h"

#define MAX_COLS 64
#define MAX_ROWS 128
#define TABLE_COLS (REPORT_MAX_COLS - 1) /* data columns per table beside the row axis */

/* The run's grid of medians (seconds; NAN where the point is not ok). */
typedef struct grid {
    char col_name[MAX_COLS][96];
    double rows[MAX_ROWS];
    double med[MAX_ROWS][MAX_COLS];
    int ncols, nrows;
} grid;

/* The index of text in names (appending it when new and there is room), or -1. */
static int col_index(grid *g, const char *text)
{
    for (int i = 0; i < g->ncols; i++)
        if (strcmp(g->col_name[i], text) == 0)
            return i;
    if (g->ncols == MAX_COLS)
        return -1;
    snprintf(g->col_name[g->ncols], sizeof g->col_name[0], "%s", text);
    return g->ncols++;
}

/* The index of row value v (rows kept sorted, v inserted when new), or -1. */
static int row_index(grid *g, double v)
{
    int i = 0;
    while (i < g->nrows && g->rows[i] < v)
        i++;
    if (i < g->nrows && g->rows[i] == v)
        return i;
    if (g->nrows == MAX_ROWS)
        return -1;
    memmove(&g->rows[i + 1], &g->rows[i], (size_t)(g->nrows - i) * sizeof g->rows[0]);
    memmove(&g->med[i + 1], &g->med[i], (size_t)(g->nrows - i) * sizeof g->med[0]);
    for (int k = 0; k < MAX_COLS; k++)
        g->med[i][k] = NAN;
    g->rows[i] = v;
    g->nrows++;
    return i;
}

/* Reads run's points into g: columns in the sweep's order of variants, then col_axis,
 * then the points' order. A parameter that differs between points of one variant at the
 * same row and column value (a third axis: gpus and counting beside the support) names
 * the column too, "NAME VALUE" in the order of the names. Returns 0 or DM_ERUNTIME. */
static int read_grid(dm_store *st, const dm_target *t, int64_t run, grid *g, dm_err *err)
{
    static const char sql[] =
        "WITH pt AS (SELECT p.id, p.variant, r.value_num AS rv, c.value_text AS cv"
        "  FROM points p JOIN point_params r ON r.point_id = p.id AND r.name = ?2"
        "  JOIN point_params c ON c.point_id = p.id AND c.name = ?3 WHERE p.run_id = ?1),"
        " apart AS (SELECT DISTINCT a.variant, x.name FROM pt a"
        "  JOIN pt b ON b.variant = a.variant AND b.rv = a.rv AND b.cv = a.cv AND b.id <> a.id"
        "  JOIN point_params x ON x.point_id = a.id"
        "  JOIN point_params y ON y.point_id = b.id AND y.name = x.name"
        "  AND y.value_text <> x.value_text)"
        " SELECT p.variant, c.value_text, r.value_num, s.median, p.status,"
        " (SELECT group_concat(e, ' ') FROM (SELECT x.name || ' ' || x.value_text AS e"
        "   FROM point_params x JOIN apart ON apart.variant = p.variant AND apart.name = x.name"
        "   WHERE x.point_id = p.id ORDER BY x.name))"
        " FROM points p"
        " JOIN point_params r ON r.point_id = p.id AND r.name = ?2"
        " JOIN point_params c ON c.point_id = p.id AND c.name = ?3"
        " LEFT JOIN point_stats s ON s.point_id = p.id"
        " WHERE p.run_id = ?1"
        " ORDER BY (SELECT min(idx) FROM points o WHERE o.run_id = ?1 AND o.variant = p.variant),"
        " c.value_num, p.idx";
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    memset(g, 0, sizeof *g);
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(st), sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, t->row_axis, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, t->col_axis, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char name[96];
        const unsigned char *apart = sqlite3_column_text(q, 5);
        snprintf(name, sizeof name, "%s %s %s%s%s", (const char *)sqlite3_column_text(q, 0),
                 t->col_axis, (const char *)sqlite3_column_text(q, 1), apart ? " " : "",
                 apart ? (const char *)apart : "");
        int ci = col_index(g, name), ri = row_index(g, sqlite3_column_double(q, 2));
        const char *status = (const char *)sqlite3_column_text(q, 4);
        if (ci >= 0 && ri >= 0 && strcmp(status, "ok") == 0 &&
            sqlite3_column_type(q, 3) != SQLITE_NULL)
            g->med[ri][ci] = sqlite3_column_double(q, 3);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(st), sqlite3_errmsg(db));
    return 0;
}

/* The grid as tables of at most TABLE_COLS data columns, each ending with the fastest
 * row value of every column. */
static void write_grid(const grid *g, const dm_target *t, dm_report_doc *d)
{
    for (int c0 = 0; c0 < g->ncols; c0 += TABLE_COLS) {
        int nc = g->ncols - c0 < TABLE_COLS ? g->ncols - c0 : TABLE_COLS;
        const char *head[REPORT_MAX_COLS] = { t->row_axis };
        for (int k = 0; k < nc; k++)
            head[1 + k] = g->col_name[c0 + k];
        report_table_begin(d, nc + 1, head);
        char text[REPORT_MAX_COLS][48];
        const char *cells[REPORT_MAX_COLS];
        for (int r = 0; r < g->nrows; r++) {
            snprintf(text[0], sizeof text[0], "%g", g->rows[r]);
            cells[0] = text[0];
            for (int k = 0; k < nc; k++) {
                double m = g->med[r][c0 + k];
                snprintf(text[1 + k], sizeof text[0], "%.4g", m * 1e3);
                cells[1 + k] = isnan(m) ? NULL : text[1 + k];
            }
            report_table_row(d, cells);
        }
        cells[0] = "fastest";
        for (int k = 0; k < nc; k++) {
            int best = -1;
            for (int r = 0; r < g->nrows; r++)
                if (!isnan(g->med[r][c0 + k]) && (best < 0 || g->med[r][c0 + k] < g->med[best][c0 + k]))
                    best = r;
            snprintf(text[1 + k], sizeof text[0], "%.4g at %g", best < 0 ? NAN : g->med[best][c0 + k] * 1e3,
                     best < 0 ? NAN : g->rows[best]);
            cells[1 + k] = best < 0 ? NULL : text[1 + k];
        }
        report_table_row(d, cells);
        report_table_end(d);
    }
}

/* Judges t's claims (its study's) on the stores of c for the run's card and writes them
 * (report_claims). Returns 0 or a rule's error. */
static int write_claims(const chz_ctx *c, const repro_target *rt, const chz_run *run,
                        dm_report_doc *d, dm_err *err)
{
    chz_ctx cc = *c;
    cc.card = run->gpu;
    cc.sweep = rt->t->sweep;
    dm_claim_result res[CHZ_MAX_CLAIMS];
    const dm_claim *cls[CHZ_MAX_CLAIMS];
    int n = 0;
    for (const char *const *id = rt->t->claims; id && *id && n < CHZ_MAX_CLAIMS; id++) {
        if (!(cls[n] = study_claim(rt->study, *id)))
            return dm_err_set(err, DM_ERUNTIME, "reproduce %s: no claim %s", rt->t->name, *id);
        if (chz_judge(&cc, cls[n], &res[n], err))
            return err->code;
        n++;
    }
    return n ? report_claims(d, 4, &cc, rt->study, cls, res, n, err) : 0;
}

int repro_write_figure(const chz_ctx *c, const dm_pub_table *pub, const repro_target *rt,
                       const chz_run *run, dm_report_doc *d, dm_err *err)
{
    const dm_target *t = rt->t;
    grid *g = malloc(sizeof *g);
    if (!g)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    int rc = read_grid(c->st[run->store], t, run->id, g, err);
    if (rc == 0) {
        if (t->table && t->measured) {
            chz_ctx cc = *c;
            cc.card = run->gpu;
            cc.sweep = t->sweep;
            dm_study_data sd;
            chz_data(&cc, &sd);
            report_para(d, "Published: %s as the paper prints it, on its cards, each value "
                           "beside its counterpart measured on this card (the newest complete "
                           "run that has it); then the measured grid: the median time in ms "
                           "of each point (a dash where the point was pruned or failed), by "
                           "%s; the paper's claims about it are judged below on these "
                           "medians.",
                        t->table, t->row_axis);
            rc = repro_write_beside(pub, t, &sd, d, err);
        } else if (t->table) {
            report_para(d, "Published: %s as the paper prints it, on its cards; then "
                           "measured, on this card: the median time in ms of each point (a "
                           "dash where the point was pruned or failed), by %s; the paper's "
                           "claims about it are judged below on these medians.",
                        t->table, t->row_axis);
            repro_write_published(pub, t, 0, d);
        } else {
            report_para(d, "Published: %s is a plot; the paper prints no numbers for it, so "
                           "there is no published column. Measured: the median time in ms "
                           "of each point (a dash where the point was pruned or failed), by "
                           "%s; the paper's claims about the figure are judged below on "
                           "these medians.",
                        t->item, t->row_axis);
        }
        if (rc == 0) {
            write_grid(g, t, d);
            rc = write_claims(c, rt, run, d, err);
        }
    }
    free(g);
    return rc;
}
