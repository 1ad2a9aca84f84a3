/* plotdata_timeline.c - the data of the timeline plot: the kernels and copies that the
 * Activity API traced for one point, one row per stream, as a Gantt chart (the rules
 * paper's Fig. 8). The point is the run's traced ok point, of the --variants variant when
 * one is named, that passes --where and uses the most streams (then overlaps most). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "plotdata_int.h"

typedef struct traced {
    int64_t id, idx;
    char variant[64], params[512];
    double overlap;
} traced;

/* The traced ok point to draw (see the top of the file). */
static int pick_point(pd_ctx *c, traced *t, dm_err *err)
{
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    int rc, found = 0;
    if (sqlite3_prepare_v2(db, "SELECT p.id, p.idx, p.variant, p.params, t.overlap FROM points p"
                               " JOIN timelines t ON t.point_id = p.id WHERE p.run_id = ?1"
                               " AND p.status = 'ok' AND t.overlap IS NOT NULL"
                               " AND (?2 IS NULL OR p.variant = ?2)"
                               " ORDER BY t.streams DESC, t.overlap DESC, p.idx",
                           -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "reading traced points: %s", sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, c->run.id);
    if (c->o->variant_a)
        sqlite3_bind_text(q, 2, c->o->variant_a, -1, SQLITE_STATIC);
    while (!found && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *params = (const char *)sqlite3_column_text(q, 3);
        if (!pd_passes(c, params))
            continue;
        t->id = sqlite3_column_int64(q, 0);
        t->idx = sqlite3_column_int64(q, 1);
        snprintf(t->variant, sizeof t->variant, "%s", (const char *)sqlite3_column_text(q, 2));
        snprintf(t->params, sizeof t->params, "%s", params);
        t->overlap = sqlite3_column_double(q, 4);
        found = 1;
    }
    sqlite3_finalize(q);
    if (!found)
        return dm_err_set(err, DM_EINPUT, "run %lld has no traced ok point%s%s (run with "
                          "--timeline)", (long long)c->run.id,
                          c->o->variant_a ? " of the named variant" : "",
                          c->o->nwhere ? " that passes --where" : "");
    return 0;
}

int pd_export_timeline(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    static const char *const kinds[] = { "kernel", "memcpy" };
    traced t;
    int rc;
    if ((rc = pick_point(c, &t, err)))
        return rc;
    char what[160];
    snprintf(what, sizeof what, "Stream timeline of point %lld (%s), overlap %.1f%%",
             (long long)t.idx, t.variant, t.overlap * 100);
    pd_set_title(c, m, what);
    snprintf(m->subtitle, sizeof m->subtitle, "%s; traced by the CUPTI Activity API in a pass "
             "of its own, after timing", t.params);
    snprintf(m->xlabel, sizeof m->xlabel, "time since the first activity (us)");
    snprintf(m->ylabel, sizeof m->ylabel, "CUDA stream");

    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, "SELECT (SELECT count(DISTINCT b.stream) FROM activities b"
                               "  WHERE b.point_id = a.point_id AND b.stream < a.stream),"
                               " a.start_ns, a.end_ns, a.stream, a.name FROM activities a"
                               " WHERE a.point_id = ?1 AND a.kind = ?2 ORDER BY a.idx",
                           -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "reading activities: %s", sqlite3_errmsg(db));
    /* count the blocks first: the header says how many series there are */
    for (int k = 0; k < 2; k++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, t.id);
        sqlite3_bind_text(q, 2, kinds[k], -1, SQLITE_STATIC);
        if (sqlite3_step(q) == SQLITE_ROW)
            m->series++;
    }
    pd_header(c, m, "row start_us end_us stream", out);
    for (int k = 0; k < 2; k++) {
        int n = 0;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, t.id);
        sqlite3_bind_text(q, 2, kinds[k], -1, SQLITE_STATIC);
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            if (n++ == 0) {
                if (m->rows)
                    fputs("\n\n", out);
                pd_block_title(out, k == 0 ? "kernels" : "copies");
            }
            fprintf(out, "%d %.3f %.3f \"stream %lld\"\n", sqlite3_column_int(q, 0),
                    sqlite3_column_double(q, 1) / 1e3, sqlite3_column_double(q, 2) / 1e3,
                    (long long)sqlite3_column_int64(q, 3));
            m->rows++;
        }
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(q);
            return dm_err_set(err, DM_ERUNTIME, "reading activities: %s", sqlite3_errmsg(db));
        }
    }
    sqlite3_finalize(q);
    if (m->rows == 0)
        return dm_err_set(err, DM_EINPUT, "point %lld of run %lld has no activities",
                          (long long)t.idx, (long long)c->run.id);
    return 0;
}
