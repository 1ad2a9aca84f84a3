/* samples.c - raw samples of a point, read back from the database, and how a time is
 * printed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "samples.h"

int samples_load(dm_store *st, int64_t point_id, double **x, size_t *n, dm_err *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;
    *x = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db, "SELECT seconds FROM samples WHERE point_id = ?1 ORDER BY idx",
                           -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, point_id);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            double *grown = realloc(*x, cap * sizeof *grown);
            if (!grown) {
                sqlite3_finalize(q);
                free(*x);
                *x = NULL;
                return dm_err_set(err, DM_ERUNTIME, "out of memory reading samples");
            }
            *x = grown;
        }
        (*x)[(*n)++] = sqlite3_column_double(q, 0);
    }
    if (rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(q);
    return 0;
fail:
    dm_err_set(err, DM_ERUNTIME, "reading the samples of point %lld: %s", (long long)point_id,
               sqlite3_errmsg(db));
    sqlite3_finalize(q);
    free(*x);
    *x = NULL;
    *n = 0;
    return DM_ERUNTIME;
}

void samples_fmt_seconds(double sec, char *buf, size_t n)
{
    static const struct { double scale; const char *unit; } units[] = {
        { 1e-9, "ns" }, { 1e-6, "us" }, { 1e-3, "ms" }, { 1, "s" },
    };
    if (isnan(sec)) {
        snprintf(buf, n, "-");
        return;
    }
    /* Rounded first, so 999.7 us is shown as 1.00 ms rather than 1000 us. */
    double r = sec;
    if (sec > 0) {
        double step = pow(10, floor(log10(sec)) - 2);
        r = round(sec / step) * step;
    }
    int u = 0;
    while (u < 3 && r >= units[u + 1].scale * (1 - 1e-9))
        u++;
    double v = r / units[u].scale;
    snprintf(buf, n, "%.*f %s", v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2, v, units[u].unit);
}
