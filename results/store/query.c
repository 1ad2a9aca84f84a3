/* query.c - read queries over points and their statistics. */
#include <math.h>
#include <stdio.h>

#include <sqlite3.h>

#include "query.h"

int query_best_gbps(dm_store *st, int64_t run_id, const char *variant, const char *key_part,
                    double *gbps, char *params, size_t params_len, int64_t *n, dm_err *err)
{
    static const char sql[] =
        "SELECT p.bytes_per_run / s.median / 1e9, p.params, s.n FROM points p"
        " JOIN point_stats s ON s.point_id = p.id"
        " WHERE p.run_id = ?1 AND p.variant = ?2 AND p.status = 'ok'"
        " AND instr(p.problem_key, ?3) > 0 AND p.bytes_per_run > 0 AND s.median > 0"
        " ORDER BY 1 DESC LIMIT 1";
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    *gbps = NAN;
    if (params && params_len)
        params[0] = '\0';
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "bandwidth query: %s", sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, run_id);
    sqlite3_bind_text(q, 2, variant, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, key_part, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *gbps = sqlite3_column_double(q, 0);
        if (params && params_len)
            snprintf(params, params_len, "%s", (const char *)sqlite3_column_text(q, 1));
        if (n)
            *n = sqlite3_column_int64(q, 2);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return dm_err_set(err, DM_ERUNTIME, "bandwidth query: %s", sqlite3_errmsg(db));
    return 0;
}
