/* plotdata_crossover.c - the data of the crossover plot: where two variants' median
 * curves cross over an axis, for each value of a group axis (results/crossover.c, with
 * its bootstrap interval), and the a/N + b and a*N + b fits sampled as curves. */
#define _GNU_SOURCE /* strverscmp */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "crossover.h"
#include "plotdata_int.h"

#define PD_FIT_SAMPLES 100

/* The run's two variants (with ok points) when o names none. */
static int pick_variants(pd_ctx *c, char *a, char *b, size_t n, dm_err *err)
{
    if (c->o->variant_a && !c->o->variant_b)
        return dm_err_set(err, DM_EINPUT, "crossover: --variants %s names one variant; "
                          "expected two, A,B", c->o->variant_a);
    if (c->o->variant_a && c->o->variant_b) {
        snprintf(a, n, "%s", c->o->variant_a);
        snprintf(b, n, "%s", c->o->variant_b);
        return 0;
    }
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    char names[512] = "";
    int count = 0, rc;
    if (sqlite3_prepare_v2(db, "SELECT DISTINCT variant FROM points WHERE run_id = ?1 AND"
                               " status = 'ok' ORDER BY variant", -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "reading variants: %s", sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, c->run.id);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(q, 0);
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", count ? ", " : "", v);
        snprintf(count == 0 ? a : b, n, "%s", v);
        count++;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return dm_err_set(err, DM_ERUNTIME, "reading variants: %s", sqlite3_errmsg(db));
    if (count != 2)
        return dm_err_set(err, DM_EINPUT, "crossover: run %lld has %d variants with ok points "
                          "(%s); --variants A,B names two", (long long)c->run.id, count,
                          count ? names : "none");
    return 0;
}

static int group_cmp(const void *p, const void *q)
{
    const dm_crossover_group *a = p, *b = q;
    int c = strverscmp(a->problem, b->problem);
    if (c)
        return c;
    return (a->group > b->group) - (a->group < b->group);
}

/* Keeps the groups of r that crossed and pass the --where filters, by problem then group;
 * returns how many. */
static size_t keep_crossings(const pd_ctx *c, dm_crossover_result *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++)
        if (isfinite(r->g[i].x) && pd_passes(c, r->g[i].problem))
            r->g[k++] = r->g[i];
    if (k)
        qsort(r->g, k, sizeof *r->g, group_cmp);
    return k;
}

/* Writes the fitted curve f over [lo, hi] as one block (geometric steps on a log axis). */
static void write_fit(FILE *out, const dm_fit *f, int inverse, double lo, double hi, int logx,
                      const char *title)
{
    fputs("\n\n", out);
    pd_block_title(out, title);
    for (int i = 0; i < PD_FIT_SAMPLES; i++) {
        double t = (double)i / (PD_FIT_SAMPLES - 1);
        double g = logx ? lo * pow(hi / lo, t) : lo + (hi - lo) * t;
        fprintf(out, "%.9g %.9g\n", g, f->a * (inverse ? 1 / g : g) + f->b);
    }
}

int pd_export_crossover(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    const char *group = c->o->group;
    char a[64], b[64];
    int rc;
    if (!group)
        return dm_err_set(err, DM_EINPUT, "crossover: --group names the axis that groups the "
                          "crossovers (e.g. the episode level)");
    if ((rc = pd_check_numeric(c, "--group", group, err)) ||
        (rc = pick_variants(c, a, b, sizeof a, err)))
        return rc;
    /* the defaults of `dmbench crossover` */
    dm_crossover_opts co = { .workload = c->run.workload, .variant_a = a, .variant_b = b,
                             .axis = c->axis, .group = group, .card = c->run.card,
                             .resamples = 1000, .level = 0.95, .seed = 1 };
    dm_crossover_result r;
    if ((rc = crossover_compute(c->st, &co, &r, err)))
        return rc;
    size_t n = keep_crossings(c, &r);
    if (n == 0) {
        rc = dm_err_set(err, DM_EINPUT, "crossover: %s and %s do not cross over %s on %s "
                        "(workload %s): nothing to plot", a, b, c->axis,
                        c->run.card[0] ? c->run.card : "no GPU", c->run.workload);
        goto done;
    }

    char what[256], columns[160], constants[512], title[640];
    snprintf(what, sizeof what, "Crossover of %s and %s over %s, by %s", a, b, c->axis, group);
    pd_set_title(c, m, what);
    pd_param_label(c, group, m->xlabel, sizeof m->xlabel);
    snprintf(m->ylabel, sizeof m->ylabel, "%s at equal medians (bars: 95%% bootstrap)",
             c->axis);
    const char **keys = malloc(n * sizeof *keys);
    if (!keys) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory");
        goto done;
    }
    double glo = INFINITY, ghi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    int pow2 = 1, e;
    for (size_t i = 0; i < n; i++) {
        keys[i] = r.g[i].problem;
        glo = fmin(glo, r.g[i].group);
        ghi = fmax(ghi, r.g[i].group);
        ylo = fmin(ylo, r.g[i].x);
        yhi = fmax(yhi, r.g[i].x);
        pow2 &= r.g[i].group > 0 && frexp(r.g[i].group, &e) == 0.5;
    }
    pd_constants(keys, n, constants, sizeof constants);
    free(keys);
    snprintf(m->subtitle, sizeof m->subtitle, "points of every %s run on the card",
             c->run.workload);
    pd_subtitle(c, m, constants);
    pd_scale(glo, ghi, pow2, &m->logx, m->xformat, sizeof m->xformat);
    pd_scale(ylo, yhi, 0, &m->logy, m->yformat, sizeof m->yformat);
    m->rows = (int)n;
    m->series = 1;
    for (size_t i = 1; i < n; i++)
        m->series += strcmp(r.g[i].problem, r.g[i - 1].problem) != 0;
    m->fits = r.better >= 0 && glo < ghi ? 2 : 0;
    m->rows += m->fits * PD_FIT_SAMPLES;

    snprintf(columns, sizeof columns, "%s %s lo hi found (fits: %s %s)", group, c->axis, group,
             c->axis);
    pd_header(c, m, columns, out);
    for (size_t i = 0; i < n; i++) {
        if (i && !strcmp(r.g[i].problem, r.g[i - 1].problem))
            continue;
        pd_title("crossover", r.g[i].problem, constants, title, sizeof title);
        if (i)
            fputs("\n\n", out);
        else
            fputc('\n', out);
        pd_block_title(out, title);
        for (size_t j = i; j < n && !strcmp(r.g[j].problem, r.g[i].problem); j++) {
            const dm_crossover_group *g = &r.g[j];
            fprintf(out, "%.9g %.9g %.9g %.9g %.4f\n", g->group, g->x,
                    isfinite(g->lo) ? g->lo : g->x, isfinite(g->hi) ? g->hi : g->x, g->found);
        }
    }
    for (int i = 0; i < m->fits; i++) {
        const dm_fit *f = &r.fit[i];
        snprintf(title, sizeof title, "fit %s = a%s%s + b: a = %.6g, b = %.6g, R^2 = %.4f%s",
                 c->axis, i == 0 ? "/" : "*", group, f->a, f->b, f->r2,
                 i == r.better ? " (better)" : "");
        write_fit(out, f, i == 0, glo, ghi, m->logx, title);
    }
done:
    crossover_free(&r);
    return rc;
}
