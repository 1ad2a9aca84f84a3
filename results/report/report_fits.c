/* report_fits.c - the report's crossover fits section: the newest stored fit of each form
 * per card, workload, variant pair, axis and group (table crossover_fits), the better form
 * marked, and the crossovers behind each fit recomputed with crossover_compute. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "crossover.h"
#include "report_int.h"

/* One stored fit; the text columns of its key, then its numbers as printed. */
typedef struct fit_row {
    char card[128], workload[64], variant_a[64], variant_b[64], axis[64], grp[64];
    char form[16], created[32];
    char a[24], b[24], se_a[24], se_b[24], r2[24], n[16];
    int better;
} fit_row;

/* Columns by name: a column added to crossover_fits later does not move these. */
static const char fits_sql[] =
    "SELECT card, workload, variant_a, variant_b, axis, grp, form, created_at, a, b, se_a,"
    " se_b, r2, n, better FROM crossover_fits f WHERE id = (SELECT g.id FROM crossover_fits g"
    " WHERE g.card = f.card AND g.workload = f.workload AND g.variant_a = f.variant_a AND"
    " g.variant_b = f.variant_b AND g.axis = f.axis AND g.grp = f.grp AND g.form = f.form"
    " ORDER BY g.created_at DESC, g.id DESC LIMIT 1)" /* the newest; merged ones too */
    " ORDER BY card, workload, variant_a, variant_b, axis, grp, form DESC"; /* a/N first */
enum { F_CARD, F_WORKLOAD, F_VA, F_VB, F_AXIS, F_GRP, F_FORM, F_CREATED, F_A, F_B, F_SE_A,
       F_SE_B, F_R2, F_N, F_BETTER };

/* Sets err from SQLite's message about what; returns DM_ERUNTIME. */
static int fits_fail(const dm_report_ctx *c, const char *what, dm_err *err)
{
    return dm_err_set(err, DM_ERUNTIME, "%s: %s: %s", store_path(c->st), what,
                      sqlite3_errmsg(store_db(c->st)));
}

/* Column i of q as text into buf ("" when NULL). */
static void col_text(sqlite3_stmt *q, int i, char *buf, size_t n)
{
    const char *t = (const char *)sqlite3_column_text(q, i);
    snprintf(buf, n, "%s", t ? t : "");
}

/* Column i of q, a real, with fmt into buf; "-" when NULL. */
static void col_real(sqlite3_stmt *q, int i, const char *fmt, char *buf, size_t n)
{
    if (sqlite3_column_type(q, i) == SQLITE_NULL)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, fmt, sqlite3_column_double(q, i));
}

/* The newest fit of each form per key into *rows (malloc'd), and how many older ones
 * the table holds in *older. Returns 0 or DM_ERUNTIME. */
static int read_fits(const dm_report_ctx *c, fit_row **rows, size_t *n, long long *older,
                     dm_err *err)
{
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;
    *rows = NULL;
    *n = 0;
    *older = 0;
    if (sqlite3_prepare_v2(db, fits_sql, -1, &q, NULL) != SQLITE_OK)
        return fits_fail(c, "reading the crossover fits", err);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            fit_row *grown = realloc(*rows, cap * sizeof *grown);
            if (!grown) {
                rc = dm_err_set(err, DM_ERUNTIME, "out of memory reading the crossover fits");
                goto fail;
            }
            *rows = grown;
        }
        fit_row *r = &(*rows)[(*n)++];
        col_text(q, F_CARD, r->card, sizeof r->card);
        col_text(q, F_WORKLOAD, r->workload, sizeof r->workload);
        col_text(q, F_VA, r->variant_a, sizeof r->variant_a);
        col_text(q, F_VB, r->variant_b, sizeof r->variant_b);
        col_text(q, F_AXIS, r->axis, sizeof r->axis);
        col_text(q, F_GRP, r->grp, sizeof r->grp);
        col_text(q, F_FORM, r->form, sizeof r->form);
        col_text(q, F_CREATED, r->created, sizeof r->created);
        col_real(q, F_A, "%.6g", r->a, sizeof r->a);
        col_real(q, F_B, "%.6g", r->b, sizeof r->b);
        col_real(q, F_SE_A, "%.3g", r->se_a, sizeof r->se_a);
        col_real(q, F_SE_B, "%.3g", r->se_b, sizeof r->se_b);
        col_real(q, F_R2, "%.6f", r->r2, sizeof r->r2);
        snprintf(r->n, sizeof r->n, "%d", sqlite3_column_int(q, F_N));
        r->better = sqlite3_column_int(q, F_BETTER);
    }
    if (rc != SQLITE_DONE) {
        rc = fits_fail(c, "reading the crossover fits", err);
        goto fail;
    }
    sqlite3_finalize(q);
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM crossover_fits", -1, &q, NULL) != SQLITE_OK ||
        sqlite3_step(q) != SQLITE_ROW) {
        rc = fits_fail(c, "counting the crossover fits", err);
        goto fail;
    }
    *older = sqlite3_column_int64(q, 0) - (long long)*n;
    sqlite3_finalize(q);
    return 0;
fail:
    sqlite3_finalize(q);
    free(*rows);
    *rows = NULL;
    *n = 0;
    return rc;
}

/* Whether a and b are fits of the same card, workload, variants, axis and group. */
static int same_key(const fit_row *a, const fit_row *b)
{
    return !strcmp(a->card, b->card) && !strcmp(a->workload, b->workload) &&
           !strcmp(a->variant_a, b->variant_a) && !strcmp(a->variant_b, b->variant_b) &&
           !strcmp(a->axis, b->axis) && !strcmp(a->grp, b->grp);
}

static const char *card_name(const char *card)
{
    return card[0] ? card : "no GPU";
}

/* Whether one of the report's runs is a run of f's workload on f's card: 1, 0, or
 * DM_ERUNTIME. */
static int reported(const dm_report_ctx *c, const fit_row *f, dm_err *err)
{
    sqlite3_stmt *q = NULL;
    int found = 0, rc = SQLITE_DONE;
    if (sqlite3_prepare_v2(store_db(c->st), "SELECT 1 FROM runs WHERE id = ?1 AND workload = ?2"
                           " AND coalesce(gpu_name, '') = ?3", -1, &q, NULL) != SQLITE_OK)
        return fits_fail(c, "reading the runs of a fit", err);
    sqlite3_bind_text(q, 2, f->workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, f->card, -1, SQLITE_STATIC);
    for (size_t i = 0; i < c->nruns && !found; i++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, c->runs[i]);
        rc = sqlite3_step(q);
        found = rc == SQLITE_ROW;
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            break;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fits_fail(c, "reading the runs of a fit", err);
    return found;
}

/* The crossovers behind the fit of key f, recomputed, as a table of group -> crossover.
 * Returns 0 (a fit whose points are gone is a note) or crossover_compute's error. */
static int crossovers(const dm_report_ctx *c, const fit_row *f, dm_err *err)
{
    /* dmbench crossover's defaults, so that the table repeats its output */
    dm_crossover_opts o = { .workload = f->workload, .variant_a = f->variant_a,
                            .variant_b = f->variant_b, .axis = f->axis, .group = f->grp,
                            .card = f->card, .resamples = 1000, .level = 0.95, .seed = 1 };
    dm_crossover_result r = { 0 };
    char title[512];
    snprintf(title, sizeof title, "%s: %s vs %s over %s by %s on %s", f->workload, f->variant_a,
             f->variant_b, f->axis, f->grp, card_name(f->card));
    report_heading(c->doc, 3, NULL, title);
    int rc = reported(c, f, err);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        report_para(c->doc, "Not recomputed: none of the report's runs is a run of %s on %s.",
                    f->workload, card_name(f->card));
        return 0;
    }
    if ((rc = crossover_compute(c->st, &o, &r, err)) == DM_EINPUT) {
        report_para(c->doc, "Not recomputed: %s.", err->msg);
        err->code = 0;
        err->msg[0] = '\0';
        return 0;
    }
    if (rc)
        return rc;
    char at[sizeof f->axis + 32];
    snprintf(at, sizeof at, "%s at the crossover", f->axis);
    report_table_begin(c->doc, 5, (const char *[]){ f->grp, "problem", at, "95% interval",
                                                    "faster below" });
    for (size_t i = 0; i < r.n; i++) {
        const dm_crossover_group *g = &r.g[i];
        char grp[32], x[32], ci[64];
        snprintf(grp, sizeof grp, "%g", g->group);
        snprintf(x, sizeof x, "%.6g", g->x);
        snprintf(ci, sizeof ci, "[%.6g, %.6g]", g->lo, g->hi);
        int crossed = isfinite(g->x);
        const char *none = g->npoints ? "no crossover in range" : "not measured for both variants";
        report_table_row(c->doc, (const char *[]){
            grp, g->problem, crossed ? x : none, crossed && isfinite(g->lo) ? ci : NULL,
            crossed ? (g->a_faster_below ? f->variant_a : f->variant_b) : NULL });
    }
    report_table_end(c->doc);
    crossover_free(&r);
    return 0;
}

int report_fits(const dm_report_ctx *c, dm_err *err)
{
    fit_row *rows = NULL;
    size_t n = 0;
    long long older = 0;
    int rc = read_fits(c, &rows, &n, &older, err);
    if (rc)
        return rc;
    if (n == 0) {
        report_para(c->doc, "No crossover fits are stored in this database; dmbench crossover "
                    "WORKLOAD A B --axis X --group G --store fits and stores them.");
        goto done;
    }
    report_para(c->doc, "The crossover of two variants fitted against the group axis by "
                "dmbench crossover --store, as a/N + b and as a*N + b; only the newest fit of "
                "each form per card, workload, variant pair, axis and group is shown (%lld "
                "older fit%s left out), and the form with the higher R^2 is marked better. "
                "Under it, the crossovers it is fitted from, recomputed from the points of "
                "every run of the workload on the card in the database (1000 bootstrap "
                "replicates, seed 1) when the report covers one of those runs.",
                older, older == 1 ? "" : "s");
    report_table_begin(c->doc, 14, (const char *[]){ "card", "workload", "variants", "axis",
                                                     "group", "form", "a", "SE a", "b", "SE b",
                                                     "R^2", "crossovers", "better", "stored" });
    for (size_t i = 0; i < n; i++) {
        const fit_row *f = &rows[i];
        char variants[160];
        snprintf(variants, sizeof variants, "%s vs %s", f->variant_a, f->variant_b);
        report_table_row(c->doc, (const char *[]){ card_name(f->card), f->workload, variants,
                                                   f->axis, f->grp, f->form, f->a, f->se_a,
                                                   f->b, f->se_b, f->r2, f->n,
                                                   f->better ? "yes" : "no", f->created });
    }
    report_table_end(c->doc);
    for (size_t i = 0; i < n && rc == 0; i++)
        if (i == 0 || !same_key(&rows[i - 1], &rows[i]))
            rc = crossovers(c, &rows[i], err);
done:
    free(rows);
    return rc;
}
