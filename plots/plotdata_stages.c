/* plotdata_stages.c - the data of the stage-times plot (the rules paper's Table 6, serial
 * against concurrent): for each traced point, the time of each stage of its one traced
 * execution (a kernel, or a copy direction: its activities' durations summed), the sum
 * of the stages, and the wall time from the first start to the last end, which falls
 * below the sum where stages overlap. One block per stage, then the sum, then the wall;
 * one row per point in each, so that gnuplot draws them as clustered histograms. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "plotdata_int.h"

typedef struct st_point {
    int64_t id;
    char variant[64], params[512];
    int64_t span_ns, activities;
    char label[640];
} st_point;

typedef struct st_stage {
    char name[256];
    size_t slot; /* where its times are in st_plot.ns: the order stages were found in */
} st_stage;

/* The plot's points and stages (s in the order they are drawn); ns[p * nstages + slot]
 * and count[p * nstages + slot] hold point p's time in the stage of that slot and its
 * number of activities. */
typedef struct st_plot {
    st_point *p;
    size_t np;
    st_stage *s;
    size_t nstages;
    int64_t *ns, *count;
} st_plot;

static void st_free(st_plot *sp)
{
    free(sp->p);
    free(sp->s);
    free(sp->ns);
    free(sp->count);
}

/* Why no point is traced: no timelines at all, or traces that all failed. Returns
 * DM_EINPUT (or DM_ERUNTIME when SQLite fails). */
static int no_traces(pd_ctx *c, dm_err *err)
{
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    int rc;
    if (sqlite3_prepare_v2(db, "SELECT count(*), count(t.overlap), max(t.reason) FROM timelines t"
                               " JOIN points p ON p.id = t.point_id"
                               " WHERE p.run_id = ?1 AND p.status = 'ok'", -1, &q, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(q, 1, c->run.id) != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW)
        rc = dm_err_set(err, DM_ERUNTIME, "reading timelines: %s", sqlite3_errmsg(db));
    else if (sqlite3_column_int(q, 0) == 0)
        rc = dm_err_set(err, DM_EINPUT, "run %lld has no stream timelines, so no stage times "
                        "(run it with --timeline)", (long long)c->run.id);
    else if (sqlite3_column_int(q, 1) == 0)
        rc = dm_err_set(err, DM_EINPUT, "every trace of run %lld failed (%s), so no stage times",
                        (long long)c->run.id, (const char *)sqlite3_column_text(q, 2));
    else
        rc = dm_err_set(err, DM_EINPUT, "no traced ok point of run %lld passes --where and "
                        "--variants", (long long)c->run.id);
    sqlite3_finalize(q);
    return rc;
}

static int wanted_variant(const pd_ctx *c, const char *variant)
{
    return !c->o->variant_a || !strcmp(variant, c->o->variant_a) ||
           (c->o->variant_b && !strcmp(variant, c->o->variant_b));
}

/* The run's traced ok points that pass --where and --variants, in point order. */
static int read_points(pd_ctx *c, st_plot *sp, dm_err *err)
{
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;
    if (sqlite3_prepare_v2(db, "SELECT p.id, p.variant, p.params, t.span_ns, t.activities"
                               " FROM points p JOIN timelines t ON t.point_id = p.id"
                               " WHERE p.run_id = ?1 AND p.status = 'ok' AND t.overlap IS NOT NULL"
                               " ORDER BY p.idx", -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, c->run.id);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *variant = (const char *)sqlite3_column_text(q, 1);
        const char *params = (const char *)sqlite3_column_text(q, 2);
        if (!pd_passes(c, params) || !wanted_variant(c, variant))
            continue;
        if (sp->np == cap) {
            cap = cap ? 2 * cap : 16;
            st_point *grown = realloc(sp->p, cap * sizeof *grown);
            if (!grown) {
                sqlite3_finalize(q);
                return dm_err_set(err, DM_ERUNTIME, "out of memory reading traced points");
            }
            sp->p = grown;
        }
        st_point *p = &sp->p[sp->np++];
        p->id = sqlite3_column_int64(q, 0);
        snprintf(p->variant, sizeof p->variant, "%s", variant);
        snprintf(p->params, sizeof p->params, "%s", params);
        p->span_ns = sqlite3_column_int64(q, 3);
        p->activities = sqlite3_column_int64(q, 4);
    }
    if (rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(q);
    return sp->np ? 0 : no_traces(c, err);
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "reading traced points: %s", sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return rc;
}

/* The slot of stage name. A new stage goes in at position *at of sp->s; *at becomes the
 * stage's position. SIZE_MAX when out of memory. */
static size_t stage_slot(st_plot *sp, size_t *cap, const char *name, size_t *at)
{
    for (size_t i = 0; i < sp->nstages; i++)
        if (!strcmp(sp->s[i].name, name)) {
            *at = i;
            return sp->s[i].slot;
        }
    if (sp->nstages == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 8;
        st_stage *grown = realloc(sp->s, grown_cap * sizeof *grown);
        if (!grown)
            return SIZE_MAX;
        sp->s = grown;
        *cap = grown_cap;
    }
    memmove(&sp->s[*at + 1], &sp->s[*at], (sp->nstages - *at) * sizeof *sp->s);
    st_stage *s = &sp->s[*at];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->slot = sp->nstages;
    return sp->nstages++;
}

typedef struct st_cell {
    size_t point, slot;
    int64_t ns, count;
} st_cell;

/* Sums each point's activities per stage into sp->ns and sp->count, and orders the
 * stages: a point's stages by their first start, a stage new to the plot right after
 * the point's stage before it (first when none is), so that stages keep the order of
 * the pipeline over points that run only part of it. Returns 0, or DM_ERUNTIME. */
static int read_stages(pd_ctx *c, st_plot *sp, dm_err *err)
{
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    st_cell *cells = NULL;
    size_t ncells = 0, cells_cap = 0, stages_cap = 0;
    int rc;
    if (sqlite3_prepare_v2(db, "SELECT name, sum(end_ns - start_ns), count(*) FROM activities"
                               " WHERE point_id = ?1 GROUP BY name ORDER BY min(start_ns), name",
                           -1, &q, NULL) != SQLITE_OK)
        goto fail;
    for (size_t i = 0; i < sp->np; i++) {
        size_t at = 0;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, sp->p[i].id);
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            size_t slot = stage_slot(sp, &stages_cap, (const char *)sqlite3_column_text(q, 0), &at);
            if (slot == SIZE_MAX)
                goto oom;
            at++;
            if (ncells == cells_cap) {
                size_t grown_cap = cells_cap ? 2 * cells_cap : 32;
                st_cell *grown = realloc(cells, grown_cap * sizeof *grown);
                if (!grown)
                    goto oom;
                cells = grown;
                cells_cap = grown_cap;
            }
            cells[ncells++] = (st_cell){ .point = i, .slot = slot,
                                         .ns = sqlite3_column_int64(q, 1),
                                         .count = sqlite3_column_int64(q, 2) };
        }
        if (rc != SQLITE_DONE)
            goto fail;
    }
    sqlite3_finalize(q);
    q = NULL;
    sp->ns = calloc(sp->np * sp->nstages + 1, sizeof *sp->ns);
    sp->count = calloc(sp->np * sp->nstages + 1, sizeof *sp->count);
    if (!sp->ns || !sp->count)
        goto oom;
    for (size_t i = 0; i < ncells; i++) {
        sp->ns[cells[i].point * sp->nstages + cells[i].slot] = cells[i].ns;
        sp->count[cells[i].point * sp->nstages + cells[i].slot] = cells[i].count;
    }
    free(cells);
    return 0;
oom:
    rc = dm_err_set(err, DM_ERUNTIME, "out of memory reading activities");
    free(cells);
    sqlite3_finalize(q);
    return rc;
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "reading activities: %s", sqlite3_errmsg(db));
    free(cells);
    sqlite3_finalize(q);
    return rc;
}

/* Titles each point by its variant and the parameters that vary over the plot, and
 * puts those that do not in the subtitle. */
static int label_points(pd_ctx *c, st_plot *sp, dm_plot_meta *m, dm_err *err)
{
    const char **keys = malloc(sp->np * sizeof *keys);
    char constants[512];
    if (!keys)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    for (size_t i = 0; i < sp->np; i++)
        keys[i] = sp->p[i].params;
    pd_constants(keys, sp->np, constants, sizeof constants);
    free(keys);
    for (size_t i = 0; i < sp->np; i++) {
        pd_title(sp->p[i].variant, sp->p[i].params, constants, sp->p[i].label,
                 sizeof sp->p[i].label);
        for (char *q = sp->p[i].label; *q; q++)
            *q = *q == '"' ? '\'' : *q;
    }
    pd_subtitle(c, m, constants);
    return 0;
}

/* One block: its title, then per point "index seconds activities label" (NaN and 0
 * where the point has no such stage). */
static void write_block(FILE *out, const st_plot *sp, const char *title, const int64_t *ns,
                        const int64_t *count, size_t stride, int first)
{
    fputs(first ? "\n" : "\n\n", out);
    pd_block_title(out, title);
    for (size_t i = 0; i < sp->np; i++) {
        if (count[i * stride])
            fprintf(out, "%zu %.9g %lld \"%s\"\n", i, (double)ns[i * stride] / 1e9,
                    (long long)count[i * stride], sp->p[i].label);
        else
            fprintf(out, "%zu NaN 0 \"%s\"\n", i, sp->p[i].label);
    }
}

int pd_export_stages(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    st_plot sp = { 0 };
    int64_t *sum = NULL;
    int rc;
    if ((rc = read_points(c, &sp, err)) || (rc = read_stages(c, &sp, err)) ||
        (rc = label_points(c, &sp, m, err)))
        goto done;
    if (!sp.nstages) {
        rc = dm_err_set(err, DM_EINPUT, "the traced points of run %lld have no activities",
                        (long long)c->run.id);
        goto done;
    }
    /* per point: the sum of its stages and their activities, its wall time and the
     * activities the trace counted */
    if (!(sum = calloc(4 * sp.np, sizeof *sum))) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory");
        goto done;
    }
    int64_t *acts = sum + sp.np, *wall = sum + 2 * sp.np, *traced = sum + 3 * sp.np;
    for (size_t i = 0; i < sp.np; i++) {
        for (size_t s = 0; s < sp.nstages; s++) {
            sum[i] += sp.ns[i * sp.nstages + s];
            acts[i] += sp.count[i * sp.nstages + s];
        }
        wall[i] = sp.p[i].span_ns;
        traced[i] = sp.p[i].activities;
    }
    pd_set_title(c, m, "Time per stage of one execution, their sum and the wall time");
    size_t used = strlen(m->subtitle);
    snprintf(m->subtitle + used, sizeof m->subtitle - used, "%straced by the CUPTI Activity "
             "API, one execution per point in a pass of its own", used ? "; " : "");
    snprintf(m->xlabel, sizeof m->xlabel, "traced point (variant and the parameters that vary)");
    snprintf(m->ylabel, sizeof m->ylabel, "time in one execution (wall: first start to last end)");
    snprintf(m->yformat, sizeof m->yformat, "%%.1s %%cs");
    m->series = (int)sp.nstages + 2;
    m->rows = m->series * (int)sp.np;
    pd_header(c, m, "point seconds activities label", out);
    for (size_t s = 0; s < sp.nstages; s++)
        fprintf(out, "# series %zu: %s\n", s, sp.s[s].name);
    fprintf(out, "# series %zu: sum of stages\n# series %zu: wall (first start to last end)\n",
            sp.nstages, sp.nstages + 1);
    for (size_t s = 0; s < sp.nstages; s++)
        write_block(out, &sp, sp.s[s].name, sp.ns + sp.s[s].slot, sp.count + sp.s[s].slot,
                    sp.nstages, s == 0);
    write_block(out, &sp, "sum of stages", sum, acts, 1, 0);
    write_block(out, &sp, "wall (first start to last end)", wall, traced, 1, 0);
done:
    free(sum);
    st_free(&sp);
    return rc;
}
