/* scaling.c - several GPUs against the fastest one GPU of the same run (scaling.h): the
 * run's verified points read once, the one-GPU ones told by the registry (a variant that
 * needs a GPU), each multi-GPU point matched with the fastest of them on its problem and
 * with its own variant at gpus=1. */
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
    int one_gpu;           /* a GPU variant's point on one GPU */
} scaling_point;

/* ",params," with gpus=g written gpus=1, into out (of size n): the parameters of the
 * same variant's point on one GPU, between commas (scaling_same). */
static void scaling_on_one(const char *params, int64_t gpus, char *out, size_t n)
{
    char find[48];
    char *wrapped = malloc(strlen(params) + 3);
    snprintf(find, sizeof find, ",gpus=%lld,", (long long)gpus);
    out[0] = '\0';
    if (!wrapped)
        return;
    sprintf(wrapped, ",%s,", params);
    const char *at = strstr(wrapped, find);
    if (at)
        snprintf(out, n, "%.*s,gpus=1,%s", (int)(at - wrapped), wrapped, at + strlen(find));
    free(wrapped);
}

/* 1 when params (as stored) are wrapped (",params,"). */
static int scaling_same(const char *params, const char *wrapped)
{
    const size_t n = strlen(params);
    return strlen(wrapped) == n + 2 && strncmp(wrapped + 1, params, n) == 0;
}

/* The run's verified points into *pts, *n of them. Returns 0 or DM_ERUNTIME. */
static int scaling_read(dm_store *st, int64_t run, scaling_point **pts, size_t *n,
                        dm_err *err)
{
    static const char *const sql =
        "SELECT p.id, p.idx, p.variant, p.params, p.problem_key, s.median,"
        " (SELECT g.value_num FROM point_params g WHERE g.point_id = p.id AND"
        "  g.name = 'gpus'), r.workload"
        " FROM points p JOIN runs r ON r.id = p.run_id"
        " JOIN point_stats s ON s.point_id = p.id"
        " JOIN verifications v ON v.point_id = p.id AND v.outcome = 'match'"
        " WHERE p.run_id = (CASE WHEN ?1 = 0 THEN (SELECT max(id) FROM runs) ELSE ?1 END)"
        " AND p.status = 'ok' AND s.median IS NOT NULL ORDER BY p.idx";
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
        const char *workload = (const char *)sqlite3_column_text(q, 7);
        const dm_workload *w = workload ? registry_workload(workload, NULL) : NULL;
        p->id = sqlite3_column_int64(q, 0);
        p->idx = sqlite3_column_int64(q, 1);
        snprintf(p->variant, sizeof p->variant, "%s", sqlite3_column_text(q, 2));
        snprintf(p->params, sizeof p->params, "%s", sqlite3_column_text(q, 3));
        snprintf(p->key, sizeof p->key, "%s", sqlite3_column_text(q, 4));
        p->median = sqlite3_column_double(q, 5);
        p->gpus = sqlite3_column_type(q, 6) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, 6);
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
    char one[1024];
    *rows = NULL;
    *n = 0;
    if (scaling_read(st, run, &pts, &npts, err))
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
                           .median = p->median, .best_median = NAN, .own_median = NAN};
        snprintf(r->variant, sizeof r->variant, "%s", p->variant);
        snprintf(r->params, sizeof r->params, "%s", p->params);
        scaling_on_one(p->params, p->gpus, one, sizeof one);
        for (size_t j = 0; j < npts; j++) {
            const scaling_point *b = &pts[j];
            if (!b->one_gpu || strcmp(b->key, p->key) != 0)
                continue;
            if (isnan(r->best_median) || b->median < r->best_median) {
                r->best_median = b->median;
                snprintf(r->best_variant, sizeof r->best_variant, "%s", b->variant);
                snprintf(r->best_params, sizeof r->best_params, "%s", b->params);
            }
            if (strcmp(b->variant, p->variant) == 0 && scaling_same(b->params, one))
                r->own_median = b->median;
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
