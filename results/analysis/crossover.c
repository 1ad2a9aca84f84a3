/* crossover.c - median curves of two variants from the database, their crossing by
 * interpolation, a bootstrap of the raw samples for its interval, and the fits of
 * crossover against group with GSL. */
#define _GNU_SOURCE /* strverscmp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <sqlite3.h>

#include "crossover.h"
#include "samples.h"

/* The best (lowest-median) point of one variant at one (problem, x): problem is the
 * point's problem key without the axis, so copy and triad, say, are separate curves. */
typedef struct cpoint {
    int variant; /* 0: a, 1: b */
    double group, x, median;
    int64_t id;
    char problem[256];
} cpoint;

static int cpoint_cmp(const void *p, const void *q)
{
    const cpoint *a = p, *b = q;
    int c;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if ((c = strverscmp(a->problem, b->problem)))
        return c;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->variant != b->variant)
        return a->variant - b->variant;
    return (a->median > b->median) - (a->median < b->median);
}

/* The card to look at: o->card, else the newest run's ("" for runs without a GPU). */
static int pick_card(dm_store *st, const dm_crossover_opts *o, char *card, size_t n, dm_err *err)
{
    if (o->card) {
        snprintf(card, n, "%s", o->card);
        return 0;
    }
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT coalesce(gpu_name, '') FROM runs WHERE workload = ?1"
                               " ORDER BY id DESC LIMIT 1", -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "finding the card: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, o->workload, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        snprintf(card, n, "%s", (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW)
        return dm_err_set(err, DM_EINPUT, "no runs of workload %s in %s", o->workload,
                          store_path(st));
    return 0;
}

/* The best point of each variant at each (group, x), sorted by group, x, variant. */
static int read_points(dm_store *st, const dm_crossover_opts *o, const char *card, cpoint **out,
                       size_t *n, dm_err *err)
{
    static const char sql[] =
        "SELECT p.id, p.variant = ?3, coalesce(g.value_num, 0), x.value_num, s.median,"
        " p.problem_key"
        " FROM points p JOIN runs r ON r.id = p.run_id"
        " JOIN point_params x ON x.point_id = p.id AND x.name = ?4"
        " LEFT JOIN point_params g ON g.point_id = p.id AND g.name = ?5"
        " JOIN point_stats s ON s.point_id = p.id"
        " WHERE r.workload = ?1 AND coalesce(r.gpu_name, '') = ?6 AND p.status = 'ok'"
        " AND p.variant IN (?2, ?3) AND s.median > 0 AND x.value_num IS NOT NULL"
        " AND (?5 IS NULL OR g.value_num IS NOT NULL)";
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q;
    size_t cap = 0, k = 0;
    cpoint *v = NULL;
    int rc;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "reading points: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, o->workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, o->variant_a, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, o->variant_b, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, o->axis, -1, SQLITE_STATIC);
    if (o->group)
        sqlite3_bind_text(q, 5, o->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, card, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (k == cap) {
            cap = cap ? 2 * cap : 64;
            cpoint *grown = realloc(v, cap * sizeof *grown);
            if (!grown) {
                free(v);
                sqlite3_finalize(q);
                return dm_err_set(err, DM_ERUNTIME, "out of memory reading points");
            }
            v = grown;
        }
        v[k++] = (cpoint){ .id = sqlite3_column_int64(q, 0), .variant = sqlite3_column_int(q, 1),
                           .group = sqlite3_column_double(q, 2), .x = sqlite3_column_double(q, 3),
                           .median = sqlite3_column_double(q, 4) };
        dm_params_without((const char *)sqlite3_column_text(q, 5), o->axis, v[k - 1].problem,
                          sizeof v[k - 1].problem);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        free(v);
        return dm_err_set(err, DM_ERUNTIME, "reading points: %s", sqlite3_errmsg(db));
    }
    if (k)
        qsort(v, k, sizeof *v, cpoint_cmp);
    /* keep the first (fastest) of each (group, x, variant) */
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (m == 0 || v[m - 1].group != v[i].group || strcmp(v[m - 1].problem, v[i].problem) ||
            v[m - 1].x != v[i].x || v[m - 1].variant != v[i].variant)
            v[m++] = v[i];
    *out = v;
    *n = m;
    return 0;
}

/* The first crossing of curves a and b over x[0..n): 1 with *at and *a_below (a faster
 * before it) and the number of sign changes in *count, or 0 when none. */
static int first_crossing(const double *x, const double *a, const double *b, int n, double *at,
                          int *a_below, int *count)
{
    int found = 0;
    *count = 0;
    for (int i = 0; i + 1 < n; i++) {
        double d0 = a[i] - b[i], d1 = a[i + 1] - b[i + 1];
        if (!((d0 < 0 && d1 >= 0) || (d0 > 0 && d1 <= 0)))
            continue;
        ++*count;
        if (!found) {
            *at = x[i] + (x[i + 1] - x[i]) * d0 / (d0 - d1);
            *a_below = d0 < 0;
            found = 1;
        }
    }
    return found;
}

/* Median of a bootstrap resample of s[0..n), using buf[0..n) as scratch. */
static double resampled_median(const gsl_rng *rng, const double *s, size_t n, double *buf)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = s[gsl_rng_uniform_int(rng, n)];
    gsl_sort(buf, 1, n);
    return gsl_stats_median_from_sorted_data(buf, 1, n);
}

/* The bootstrap interval of one group's crossing: curves from resampled medians. */
static int bootstrap(dm_store *st, const dm_crossover_opts *o, const cpoint *const *pa,
                     const cpoint *const *pb, const double *x, int np, dm_crossover_group *g,
                     dm_err *err)
{
    double **s = calloc(2 * (size_t)np, sizeof *s), *buf = NULL, *cross = NULL;
    double *ma = malloc((size_t)np * sizeof *ma), *mb = malloc((size_t)np * sizeof *mb);
    size_t *ns = calloc(2 * (size_t)np, sizeof *ns), most = 0;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = 0, found = 0;
    if (!s || !ma || !mb || !ns || !rng || !(cross = malloc((size_t)o->resamples * sizeof *cross))) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the bootstrap");
        goto done;
    }
    gsl_rng_set(rng, o->seed);
    for (int i = 0; i < 2 * np && rc == 0; i++) {
        rc = samples_load(st, (i < np ? pa[i] : pb[i - np])->id, &s[i], &ns[i], err);
        most = ns[i] > most ? ns[i] : most;
    }
    if (rc || !(buf = malloc((most ? most : 1) * sizeof *buf))) {
        rc = rc ? rc : dm_err_set(err, DM_ERUNTIME, "out of memory for the bootstrap");
        goto done;
    }
    for (int r = 0; r < o->resamples; r++) {
        for (int i = 0; i < np; i++) {
            ma[i] = ns[i] ? resampled_median(rng, s[i], ns[i], buf) : pa[i]->median;
            mb[i] = ns[np + i] ? resampled_median(rng, s[np + i], ns[np + i], buf) : pb[i]->median;
        }
        int below, count;
        double at;
        if (first_crossing(x, ma, mb, np, &at, &below, &count))
            cross[found++] = at;
    }
    g->found = (double)found / o->resamples;
    if (found) {
        gsl_sort(cross, 1, (size_t)found);
        g->lo = gsl_stats_quantile_from_sorted_data(cross, 1, (size_t)found, (1 - o->level) / 2);
        g->hi = gsl_stats_quantile_from_sorted_data(cross, 1, (size_t)found, (1 + o->level) / 2);
    }
done:
    for (int i = 0; s && i < 2 * np; i++)
        free(s[i]);
    free(s);
    free(ns);
    free(buf);
    free(cross);
    free(ma);
    free(mb);
    gsl_rng_free(rng);
    return rc;
}

/* Fills g from the points of one group, v[0..n) sorted by x then variant. */
static int group_crossover(dm_store *st, const dm_crossover_opts *o, const cpoint *v, size_t n,
                           dm_crossover_group *g, dm_err *err)
{
    const cpoint **pa = malloc(n * sizeof *pa), **pb = malloc(n * sizeof *pb);
    double *x = malloc(n * sizeof *x), *ma = malloc(n * sizeof *ma), *mb = malloc(n * sizeof *mb);
    int np = 0, rc = 0;
    *g = (dm_crossover_group){ .group = v[0].group, .x = NAN, .lo = NAN, .hi = NAN,
                               .a_faster_below = -1, .axis_lo = NAN, .axis_hi = NAN };
    snprintf(g->problem, sizeof g->problem, "%s", v[0].problem);
    if (!pa || !pb || !x || !ma || !mb) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory");
        goto done;
    }
    for (size_t i = 0; i + 1 < n; i++)
        if (v[i].x == v[i + 1].x && v[i].variant == 0 && v[i + 1].variant == 1) {
            pa[np] = &v[i];
            pb[np] = &v[i + 1];
            x[np] = v[i].x;
            ma[np] = v[i].median;
            mb[np] = v[i + 1].median;
            np++;
        }
    g->npoints = np;
    if (np > 0) {
        g->axis_lo = x[0];
        g->axis_hi = x[np - 1];
    }
    if (first_crossing(x, ma, mb, np, &g->x, &g->a_faster_below, &g->crossings))
        rc = bootstrap(st, o, pa, pb, x, np, g, err);
    else /* one side all along, but where the medians are equal */
        for (int i = 0; i < np && g->a_faster_below < 0; i++)
            if (ma[i] != mb[i])
                g->a_faster_below = ma[i] < mb[i];
done:
    free(pa);
    free(pb);
    free(x);
    free(ma);
    free(mb);
    return rc;
}

int crossover_fit(const double *x, const double *y, int n, int inverse, dm_fit *f)
{
    memset(f, 0, sizeof *f);
    f->form = inverse ? "a/N + b" : "a*N + b";
    if (n < 2)
        return -1;
    double *g = malloc((size_t)n * sizeof *g);
    if (!g)
        return -1;
    for (int i = 0; i < n; i++)
        g[i] = inverse ? 1 / x[i] : x[i];
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(g, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    free(g);
    double mean = gsl_stats_mean(y, 1, (size_t)n), sstot = 0;
    for (int i = 0; i < n; i++)
        sstot += (y[i] - mean) * (y[i] - mean);
    /* two points: the line through both, which says nothing of its errors or fit */
    int judged = n > 2;
    *f = (dm_fit){ .form = f->form, .a = c1, .b = c0, .se_a = judged ? sqrt(cov11) : NAN,
                   .se_b = judged ? sqrt(cov00) : NAN,
                   .r2 = judged && sstot > 0 ? 1 - sumsq / sstot : NAN, .n = n };
    return 0;
}

/* Sets r->below: the variant faster below the crossover when every group that crosses
 * (those the fits are made of) agrees, else "". A group without a crossover has no side
 * below one: that one variant wins all its range does not speak for the others. */
static void below_variant(dm_crossover_result *r, const dm_crossover_opts *o)
{
    int side = -1;
    for (size_t i = 0; i < r->n; i++) {
        if (!isfinite(r->g[i].x))
            continue;
        if (side >= 0 && r->g[i].a_faster_below != side) {
            r->below[0] = '\0';
            return;
        }
        side = r->g[i].a_faster_below;
    }
    if (side >= 0)
        snprintf(r->below, sizeof r->below, "%s", side ? o->variant_a : o->variant_b);
}

int crossover_compute(dm_store *st, const dm_crossover_opts *o, dm_crossover_result *r,
                      dm_err *err)
{
    cpoint *v = NULL;
    size_t nv = 0;
    int rc;
    memset(r, 0, sizeof *r);
    r->better = -1;
    if ((rc = pick_card(st, o, r->card, sizeof r->card, err)) ||
        (rc = read_points(st, o, r->card, &v, &nv, err)))
        return rc;
    if (nv == 0) {
        return dm_err_set(err, DM_EINPUT, "no ok points of %s or %s (workload %s) with '%s' on %s",
                          o->variant_a, o->variant_b, o->workload, o->axis,
                          r->card[0] ? r->card : "a machine without GPU");
    }
    for (size_t i = 0; i < nv && rc == 0;) {
        size_t j = i;
        while (j < nv && v[j].group == v[i].group && !strcmp(v[j].problem, v[i].problem))
            j++;
        dm_crossover_group *grown = realloc(r->g, (r->n + 1) * sizeof *grown);
        if (!grown) {
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory");
            break;
        }
        r->g = grown;
        rc = group_crossover(st, o, v + i, j - i, &r->g[r->n++], err);
        i = j;
    }
    free(v);
    if (rc) {
        crossover_free(r);
        return rc;
    }
    below_variant(r, o);
    double gx[r->n + 1], gy[r->n + 1];
    int k = 0;
    for (size_t i = 0; i < r->n; i++)
        if (isfinite(r->g[i].x) && r->g[i].group != 0) {
            gx[k] = r->g[i].group;
            gy[k++] = r->g[i].x;
        }
    if (o->group && crossover_fit(gx, gy, k, 1, &r->fit[0]) == 0 &&
        crossover_fit(gx, gy, k, 0, &r->fit[1]) == 0)
        r->better = r->fit[1].r2 > r->fit[0].r2; /* equal or unknown R^2: a/N + b */
    return 0;
}

/* Inserts r's groups that crossed or had one side faster all along under fit fit_id.
 * Returns SQLITE_OK, or the failing SQLite code (the caller's transaction rolls back). */
static int store_groups(sqlite3 *db, const dm_crossover_opts *o, const dm_crossover_result *r,
                        sqlite3_int64 fit_id)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO crossover_groups (fit_id, grp_value, x,"
                                " axis_lo, axis_hi, faster) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                                -1, &q, NULL);
    for (size_t i = 0; i < r->n && rc == SQLITE_OK; i++) {
        const dm_crossover_group *g = &r->g[i];
        if (g->a_faster_below < 0)
            continue;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, fit_id);
        sqlite3_bind_double(q, 2, g->group);
        if (isfinite(g->x))
            sqlite3_bind_double(q, 3, g->x);
        else
            sqlite3_bind_null(q, 3);
        sqlite3_bind_double(q, 4, g->axis_lo);
        sqlite3_bind_double(q, 5, g->axis_hi);
        sqlite3_bind_text(q, 6, g->a_faster_below ? o->variant_a : o->variant_b, -1,
                          SQLITE_STATIC);
        rc = sqlite3_step(q) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    }
    sqlite3_finalize(q);
    return rc;
}

int crossover_store(dm_store *st, const dm_crossover_opts *o, const dm_crossover_result *r,
                    dm_err *err)
{
    static const char sql[] =
        "INSERT INTO crossover_fits (created_at, card, workload, variant_a, variant_b, axis,"
        " grp, form, a, b, se_a, se_b, r2, n, better, below) VALUES"
        " (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
        " ?11, ?12, ?13, ?14, ?15)";
    if (r->better < 0)
        return dm_err_set(err, DM_EINPUT, "no fit to store: it needs --group and crossovers in "
                          "2 groups or more");
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    sqlite3_int64 better_id = 0;
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);
    for (int i = 0; i < 2 && rc == SQLITE_OK; i++) {
        const dm_fit *f = &r->fit[i];
        const char *text[] = { r->card, o->workload, o->variant_a, o->variant_b, o->axis,
                               o->group, f->form };
        sqlite3_reset(q);
        for (int k = 0; k < 7; k++)
            sqlite3_bind_text(q, k + 1, text[k], -1, SQLITE_STATIC);
        const double num[] = { f->a, f->b, f->se_a, f->se_b, f->r2 };
        for (int k = 0; k < 5; k++)
            if (isfinite(num[k]))
                sqlite3_bind_double(q, k + 8, num[k]);
            else
                sqlite3_bind_null(q, k + 8);
        sqlite3_bind_int(q, 13, f->n);
        sqlite3_bind_int(q, 14, i == r->better);
        if (r->below[0])
            sqlite3_bind_text(q, 15, r->below, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(q, 15);
        rc = sqlite3_step(q) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        if (i == r->better)
            better_id = sqlite3_last_insert_rowid(db);
    }
    sqlite3_finalize(q);
    if (rc == SQLITE_OK)
        rc = store_groups(db, o, r, better_id);
    if (rc == SQLITE_OK && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    dm_err_set(err, DM_ERUNTIME, "%s: storing the crossover fits: %s", store_path(st),
               sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return DM_ERUNTIME;
}

void crossover_free(dm_crossover_result *r)
{
    free(r->g);
    memset(r, 0, sizeof *r);
}

void crossover_print(const dm_crossover_result *r, const dm_crossover_opts *o, FILE *out)
{
    fprintf(out, "%s vs %s over %s on %s (workload %s; %d bootstrap replicates, %.0f%% interval)\n",
            o->variant_a, o->variant_b, o->axis, r->card[0] ? r->card : "no GPU", o->workload,
            o->resamples, o->level * 100);
    fprintf(out, "%-40s %7s %12s %25s %9s  %s\n", "problem", "points", "crossover", "interval",
            "found", "faster below");
    for (size_t i = 0; i < r->n; i++) {
        const dm_crossover_group *g = &r->g[i];
        if (!isfinite(g->x)) {
            if (g->a_faster_below < 0)
                fprintf(out, "%-40s %7d %12s  %s\n", g->problem, g->npoints, "-",
                        g->npoints ? "no crossover in range, equal medians"
                                   : "not measured for both variants");
            else
                fprintf(out, "%-40s %7d %12s  no crossover in range: %s faster at every %s "
                        "from %.6g to %.6g\n", g->problem, g->npoints, "-",
                        g->a_faster_below ? o->variant_a : o->variant_b, o->axis, g->axis_lo,
                        g->axis_hi);
            continue;
        }
        fprintf(out, "%-40s %7d %12.6g   [%10.6g, %10.6g] %8.0f%%  %s%s\n", g->problem, g->npoints,
                g->x, g->lo, g->hi, g->found * 100,
                g->a_faster_below ? o->variant_a : o->variant_b,
                g->crossings > 1 ? " (the curves cross more than once)" : "");
    }
    size_t crossed = 0;
    for (size_t i = 0; i < r->n; i++)
        crossed += isfinite(r->g[i].x) != 0;
    if (r->below[0])
        fprintf(out, "faster below the crossover: %s, in every group that crosses\n", r->below);
    else if (crossed)
        fprintf(out, "faster below the crossover: not the same variant in every group that "
                "crosses\n");
    if (!o->group)
        return;
    if (r->better < 0) {
        fprintf(out, "fit: needs crossovers in 2 groups or more\n");
        return;
    }
    for (int i = 0; i < 2; i++) {
        const dm_fit *f = &r->fit[i];
        if (f->n == 2)
            fprintf(out, "fit %-8s a = %.6g, b = %.6g, through both crossovers (2 groups: no "
                    "standard errors or R^2)%s\n", f->form, f->a, f->b,
                    i == r->better ? "  <- kept (the forms cannot be told apart)" : "");
        else
            fprintf(out, "fit %-8s a = %.6g +- %.3g, b = %.6g +- %.3g, R^2 = %.6f%s\n", f->form,
                    f->a, f->se_a, f->b, f->se_b, f->r2, i == r->better ? "  <- fits better" : "");
    }
}
