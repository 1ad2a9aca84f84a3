/* scaling.c - several GPUs against the fastest one GPU of the same run (scaling.h): the
 * run's verified points read once, the one-GPU ones told by the registry (a variant that
 * needs a GPU; the run's workload looked up once), each multi-GPU point matched with the
 * fastest of them on its problem and, by its stored parameters, with its own variant at
 * gpus=1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "registry.h"
#include "scaling.h"

/* A verified point of the run, as read. */
typedef struct scaling_point {
    int64_t id, idx, gpus; /* gpus 0: no such parameter */
    char variant[64], params[1024], key[2048];
    double median;
    double own_median;     /* on more than one GPU: its variant's twin at gpus=1, or NAN */
    int one_gpu;           /* a GPU variant's point on one GPU */
} scaling_point;

/* The run (0: the newest) and its workload. Returns 0 (*id 0 when there is no such run),
 * or DM_ERUNTIME. */
static int scaling_run(dm_store *st, int64_t run, int64_t *id, const dm_workload **w,
                       dm_err *err)
{
    static const char *const sql =
        "SELECT id, workload FROM runs"
        " WHERE id = (CASE WHEN ?1 = 0 THEN (SELECT max(id) FROM runs) ELSE ?1 END)";
    sqlite3_stmt *q = NULL;
    *id = 0;
    *w = NULL;
    if (sqlite3_prepare_v2(store_db(st), sql, -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, run);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const char *workload = (const char *)sqlite3_column_text(q, 1);
        *id = sqlite3_column_int64(q, 0);
        *w = workload ? registry_workload(workload, NULL) : NULL;
    } else if (rc != SQLITE_DONE) {
        goto fail;
    }
    sqlite3_finalize(q);
    return 0;
fail:
    sqlite3_finalize(q);
    return dm_err_set(err, DM_ERUNTIME, "reading run %lld for its scaling: %s",
                      (long long)run, sqlite3_errmsg(store_db(st)));
}

/* The run's verified points into *pts, *n of them; a point whose variant the registry
 * knows as needing a GPU is one-GPU when its gpus is absent or 1. A point on more than
 * one GPU gets the median of its twin: the verified point of the same variant and
 * problem at gpus=1 whose every other parameter, read from point_params, has its value
 * (the last in the sweep when several), so that the match depends on neither the order
 * nor the text of the params column. Returns 0 or DM_ERUNTIME. */
static int scaling_read(dm_store *st, int64_t run, const dm_workload *w, scaling_point **pts,
                        size_t *n, dm_err *err)
{
    static const char *const sql =
        "SELECT p.id, p.idx, p.variant, p.params, p.problem_key, s.median, g.value_num,"
        " CASE WHEN g.value_num > 1 THEN"
        "  (SELECT bs.median FROM points b"
        "   JOIN point_stats bs ON bs.point_id = b.id"
        "   JOIN verifications bv ON bv.point_id = b.id AND bv.outcome = 'match'"
        "   JOIN point_params bg ON bg.point_id = b.id AND bg.name = 'gpus'"
        "    AND bg.value_num = 1"
        "   WHERE b.run_id = p.run_id AND b.problem_key = p.problem_key"
        "    AND b.variant = p.variant AND b.status = 'ok' AND bs.median IS NOT NULL"
        "    AND (SELECT count(*) FROM point_params WHERE point_id = b.id) ="
        "        (SELECT count(*) FROM point_params WHERE point_id = p.id)"
        "    AND NOT EXISTS (SELECT 1 FROM point_params x"
        "     WHERE x.point_id = p.id AND x.name <> 'gpus' AND NOT EXISTS"
        "      (SELECT 1 FROM point_params y WHERE y.point_id = b.id AND y.name = x.name"
        "       AND y.value_num IS x.value_num"
        "       AND (x.value_num IS NOT NULL OR y.value_text = x.value_text)))"
        "   ORDER BY b.idx DESC LIMIT 1)"
        " END"
        " FROM points p"
        " JOIN point_stats s ON s.point_id = p.id"
        " JOIN verifications v ON v.point_id = p.id AND v.outcome = 'match'"
        " LEFT JOIN point_params g ON g.point_id = p.id AND g.name = 'gpus'"
        " WHERE p.run_id = ?1 AND p.status = 'ok' AND s.median IS NOT NULL ORDER BY p.idx";
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;
    *pts = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(store_db(st), sql, -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            scaling_point *grown = realloc(*pts, (cap = cap ? 2 * cap : 64) * sizeof *grown);
            if (!grown)
                goto fail;
            *pts = grown;
        }
        scaling_point *p = &(*pts)[(*n)++];
        p->id = sqlite3_column_int64(q, 0);
        p->idx = sqlite3_column_int64(q, 1);
        snprintf(p->variant, sizeof p->variant, "%s", sqlite3_column_text(q, 2));
        snprintf(p->params, sizeof p->params, "%s", sqlite3_column_text(q, 3));
        snprintf(p->key, sizeof p->key, "%s", sqlite3_column_text(q, 4));
        p->median = sqlite3_column_double(q, 5);
        p->gpus = sqlite3_column_type(q, 6) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, 6);
        p->own_median = sqlite3_column_type(q, 7) == SQLITE_NULL ? NAN
                                                                 : sqlite3_column_double(q, 7);
        const dm_variant *v = w ? registry_variant(w, p->variant, NULL) : NULL;
        p->one_gpu = v && v->needs_gpu && p->gpus <= 1;
    }
    if (rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(q);
    return 0;
fail:
    sqlite3_finalize(q);
    free(*pts);
    *pts = NULL;
    return dm_err_set(err, DM_ERUNTIME, "reading run %lld's points for their scaling: %s",
                      (long long)run, sqlite3_errmsg(store_db(st)));
}

int scaling_rows(dm_store *st, int64_t run, scaling_row **rows, size_t *n, dm_err *err)
{
    scaling_point *pts;
    size_t npts, m = 0;
    int64_t id;
    const dm_workload *w;
    *rows = NULL;
    *n = 0;
    if (scaling_run(st, run, &id, &w, err))
        return err->code;
    if (id == 0)
        return 0;
    if (scaling_read(st, id, w, &pts, &npts, err))
        return err->code;
    for (size_t i = 0; i < npts; i++)
        m += pts[i].gpus > 1;
    if (m && !(*rows = calloc(m, sizeof **rows))) {
        free(pts);
        return dm_err_set(err, DM_ERUNTIME, "out of memory for %zu scaling rows", m);
    }
    for (size_t i = 0; i < npts; i++) {
        const scaling_point *p = &pts[i];
        if (p->gpus <= 1)
            continue;
        scaling_row *r = &(*rows)[(*n)++];
        *r = (scaling_row){.point_id = p->id, .idx = p->idx, .gpus = p->gpus,
                           .median = p->median, .best_median = NAN,
                           .own_median = p->own_median};
        snprintf(r->variant, sizeof r->variant, "%s", p->variant);
        snprintf(r->params, sizeof r->params, "%s", p->params);
        for (size_t j = 0; j < npts; j++) {
            const scaling_point *b = &pts[j];
            if (!b->one_gpu || strcmp(b->key, p->key) != 0)
                continue;
            if (isnan(r->best_median) || b->median < r->best_median) {
                r->best_median = b->median;
                snprintf(r->best_variant, sizeof r->best_variant, "%s", b->variant);
                snprintf(r->best_params, sizeof r->best_params, "%s", b->params);
            }
        }
    }
    free(pts);
    return 0;
}

void scaling_print(const scaling_row *rows, size_t n, FILE *out)
{
    if (n == 0)
        return;
    fprintf(out, "\nseveral GPUs against the fastest verified one-GPU point of the same problem "
            "in this run (own 1 GPU: the same variant at gpus=1):\n");
    fprintf(out, "  %5s  %-12s %4s  %11s  %9s  %-24s  %11s  %9s\n", "idx", "variant", "gpus",
            "median", "speedup", "fastest one GPU", "its median", "own 1 GPU");
    for (size_t i = 0; i < n; i++) {
        const scaling_row *r = &rows[i];
        char speedup[32] = "-", best[32] = "-", own[32] = "-";
        if (!isnan(r->best_median)) {
            snprintf(speedup, sizeof speedup, "%.2fx", r->best_median / r->median);
            snprintf(best, sizeof best, "%.4g ms", r->best_median * 1e3);
        }
        if (!isnan(r->own_median))
            snprintf(own, sizeof own, "%.2fx", r->own_median / r->median);
        fprintf(out, "  %5lld  %-12s %4lld  %8.4g ms  %9s  %-24s  %11s  %9s\n",
                (long long)r->idx, r->variant, (long long)r->gpus, r->median * 1e3, speedup,
                r->best_variant[0] ? r->best_variant : "none in the run", best, own);
    }
}
