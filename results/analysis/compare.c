/* compare.c - run against run: matching points, the test on their raw samples, the
 * verdict and the table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "compare.h"
#include "mwu.h"
#include "samples.h"

dm_verdict compare_verdict(double median_a, double median_b, double p, int capped_a,
                           int capped_b, const dm_compare_opts *o)
{
    if (!(p < o->alpha) || !(median_a > 0))
        return DM_SAME;
    double ratio = median_b / median_a;
    int changed = ratio > 1 + o->threshold || ratio < 1 - o->threshold;
    if (changed && (capped_a || capped_b) && !o->allow_capped)
        return DM_CAPPED;
    if (ratio > 1 + o->threshold)
        return DM_SLOWER;
    if (ratio < 1 - o->threshold)
        return DM_FASTER;
    return DM_SAME;
}

/* 1 when the stop reason in column i of q is a limit (sampling stopped before the noise
 * target); points stored without one count as not capped. */
static int stopped_capped(sqlite3_stmt *q, int i)
{
    const unsigned char *why = sqlite3_column_text(q, i);
    return why && strcmp((const char *)why, "noise") != 0;
}

/* The run's id (the newest when id is 0) and its card in card. */
static int find_run(dm_store *st, int64_t id, int64_t *out, char *card, size_t n, dm_err *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    const char *sql = id ? "SELECT id, coalesce(gpu_name, 'no GPU') FROM runs WHERE id = ?1"
                         : "SELECT id, coalesce(gpu_name, 'no GPU') FROM runs ORDER BY id DESC LIMIT 1";
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "looking up run %lld: %s", (long long)id,
                          sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(q, 0);
        snprintf(card, n, "%s", (const char *)sqlite3_column_text(q, 1));
        rc = 0;
    } else {
        rc = rc == SQLITE_DONE ? dm_err_set(err, DM_EINPUT, "no run %lld in %s", (long long)id,
                                            store_path(st))
                               : dm_err_set(err, DM_ERUNTIME, "looking up run %lld: %s",
                                            (long long)id, sqlite3_errmsg(db));
    }
    sqlite3_finalize(q);
    return rc;
}

/* ok points of run `one` with no ok point of the same variant and parameters in `other`. */
static int count_unmatched(dm_store *st, int64_t one, int64_t other, size_t *n, dm_err *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM points p WHERE p.run_id = ?1 AND p.status = 'ok'"
                           " AND NOT EXISTS (SELECT 1 FROM points o WHERE o.run_id = ?2"
                           " AND o.variant = p.variant AND o.params = p.params AND o.status = 'ok')",
                           -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "counting unmatched points: %s", sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, one);
    sqlite3_bind_int64(q, 2, other);
    int rc = sqlite3_step(q) == SQLITE_ROW ? 0 : DM_ERUNTIME;
    *n = rc ? 0 : (size_t)sqlite3_column_int64(q, 0);
    if (rc)
        dm_err_set(err, rc, "counting unmatched points: %s", sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return rc;
}

/* Tests one matched pair and prints its row. */
static int compare_pair(dm_store *st, sqlite3_stmt *q, const dm_compare_opts *o, FILE *out,
                        dm_compare_summary *sum, dm_err *err)
{
    double *xa = NULL, *xb = NULL;
    size_t na, nb;
    int rc;
    if ((rc = samples_load(st, sqlite3_column_int64(q, 0), &xa, &na, err)) ||
        (rc = samples_load(st, sqlite3_column_int64(q, 1), &xb, &nb, err)))
        goto done;
    double ma = sqlite3_column_double(q, 4), mb = sqlite3_column_double(q, 5);
    dm_mwu t = { .p = 1, .cles = 0.5 };
    if (na && nb && mwu_test(xb, nb, xa, na, &t) != 0) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory testing samples");
        goto done;
    }
    dm_verdict v = compare_verdict(ma, mb, t.p, stopped_capped(q, 6), stopped_capped(q, 7), o);
    static const char *const names[] = { "same", "faster", "SLOWER",
                                         "capped (a side stopped on a limit)" };
    sum->matched++;
    sum->same += v == DM_SAME;
    sum->faster += v == DM_FASTER;
    sum->slower += v == DM_SLOWER;
    sum->capped += v == DM_CAPPED;
    char a[32], b[32];
    samples_fmt_seconds(ma, a, sizeof a);
    samples_fmt_seconds(mb, b, sizeof b);
    fprintf(out, "%-12s %-48s %10s %10s %7.3f %9.2g %6.2f  %s\n",
            (const char *)sqlite3_column_text(q, 2), (const char *)sqlite3_column_text(q, 3),
            a, b, mb / ma, t.p, t.cles, names[v]);
done:
    free(xa);
    free(xb);
    return rc;
}

int compare_runs(dm_store *st, int64_t a, int64_t b, const dm_compare_opts *o, FILE *out,
                 dm_compare_summary *sum, dm_err *err)
{
    char card_a[256], card_b[256];
    int rc;
    memset(sum, 0, sizeof *sum);
    if ((rc = find_run(st, a, &a, card_a, sizeof card_a, err)) ||
        (rc = find_run(st, b, &b, card_b, sizeof card_b, err)))
        return rc;
    fprintf(out, "run %lld (%s) -> run %lld (%s); Mann-Whitney U at alpha %.3g, threshold %.3g%%\n",
            (long long)a, card_a, (long long)b, card_b, o->alpha, o->threshold * 100);
    if (strcmp(card_a, card_b) != 0)
        fprintf(out, "note: the runs were measured on different cards\n");
    fprintf(out, "%-12s %-48s %10s %10s %7s %9s %6s  %s\n", "variant", "params", "median A",
            "median B", "B/A", "p", "P(B>A)", "verdict");

    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT pa.id, pb.id, pa.variant, pa.params, sa.median, sb.median,"
                           " sa.stop_reason, sb.stop_reason"
                           " FROM points pa JOIN points pb ON pb.run_id = ?2"
                           "  AND pb.variant = pa.variant AND pb.params = pa.params AND pb.status = 'ok'"
                           " JOIN point_stats sa ON sa.point_id = pa.id"
                           " JOIN point_stats sb ON sb.point_id = pb.id"
                           " WHERE pa.run_id = ?1 AND pa.status = 'ok' ORDER BY pa.idx",
                           -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "matching points: %s", sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, a);
    sqlite3_bind_int64(q, 2, b);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        if ((rc = compare_pair(st, q, o, out, sum, err)) != 0)
            break;
    if (rc != 0 && rc != SQLITE_DONE && err->code == 0)
        dm_err_set(err, DM_ERUNTIME, "matching points: %s", sqlite3_errmsg(db));
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return err->code ? err->code : DM_ERUNTIME;
    if ((rc = count_unmatched(st, a, b, &sum->only_a, err)) ||
        (rc = count_unmatched(st, b, a, &sum->only_b, err)))
        return rc;
    fprintf(out, "%zu matched: %zu faster, %zu slower, %zu same", sum->matched, sum->faster,
            sum->slower, sum->same);
    if (sum->capped)
        fprintf(out, ", %zu changed but not called (a side stopped on its time or sample "
                "limit before its noise target; --allow-capped calls them)", sum->capped);
    fprintf(out, "; %zu only in run %lld, %zu only in run %lld\n", sum->only_a, (long long)a,
            sum->only_b, (long long)b);
    return 0;
}
