/* store_facts.c - a point's facts (point_facts: what its workload said of its last timed
 * execution, per mining level say) read back as text, for `dmbench show` (a line per
 * group) and `dmbench export`'s CSV (one field). Any workload's: groups and names as
 * stored, in the order it gave them; counts with every digit, the rest to 6 digits. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store_int.h"

sqlite3_stmt *store_facts_prepare(dm_store *st)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(st->db, "SELECT grp, name, value, unit FROM point_facts"
                                   " WHERE point_id = ?1 ORDER BY idx", -1, &q, NULL) != SQLITE_OK)
        return NULL;
    return q;
}

int store_facts_text(dm_store *st, sqlite3_stmt *q, int64_t point_id, const char *sep,
                     char *buf, size_t n, dm_err *err)
{
    char group[64] = "";
    int rc, nfacts = 0;
    buf[0] = '\0';
    sqlite3_reset(q);
    if (sqlite3_bind_int64(q, 1, point_id) != SQLITE_OK)
        return store_fail(st, err, "reading the facts of point %lld", (long long)point_id);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *grp = (const char *)sqlite3_column_text(q, 0);
        const char *unit = (const char *)sqlite3_column_text(q, 3);
        int first = nfacts++ == 0 || strcmp(grp, group) != 0;
        if (first) {
            snprintf(group, sizeof group, "%s", grp);
            dm_append(buf, n, "%s%s:", nfacts > 1 ? sep : "", grp);
        }
        dm_append(buf, n, "%s %s ", first ? "" : ",", (const char *)sqlite3_column_text(q, 1));
        double v = sqlite3_column_double(q, 2);
        if (sqlite3_column_type(q, 2) == SQLITE_NULL)
            dm_append(buf, n, "-");
        else if (!unit && v == floor(v) && fabs(v) < 1e15) /* a count: every digit */
            dm_append(buf, n, "%.0f", v);
        else
            dm_append(buf, n, "%.6g", v);
        if (unit)
            dm_append(buf, n, " %s", unit);
    }
    if (rc != SQLITE_DONE)
        return store_fail(st, err, "reading the facts of point %lld", (long long)point_id);
    return 0;
}
