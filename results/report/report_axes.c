/* report_axes.c - a run's parameters as the axes of its tables: every parameter of the
 * run's listed points (ok, failed, skipped), in the order of the first point that has
 * it, whether it varies, and each point's value, so that a table gives a column to each
 * parameter that varies and says the others once above it. */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "report_int.h"

void report_axes_free(report_axes *a)
{
    for (size_t i = 0; i < a->npoints * (size_t)a->n; i++)
        free(a->value[i]);
    free(a->value);
    free(a->idx);
    memset(a, 0, sizeof *a);
}

/* One stored (point, parameter, value) while reading; the table is built from them. */
typedef struct cell {
    size_t point;
    int axis;
    char *value;
} cell;

/* The axis named name, added when new (-1 when REPORT_MAX_AXES are taken). */
static int axis_of(report_axes *a, const char *name)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->name[i], name) == 0)
            return i;
    if (a->n == REPORT_MAX_AXES)
        return -1;
    snprintf(a->name[a->n], sizeof a->name[a->n], "%s", name);
    return a->n++;
}

/* Builds a's table of values from cells[0..n) (taking their strings) and marks the axes
 * that vary. Returns 0 or -1 out of memory. */
static int build(report_axes *a, cell *cells, size_t n)
{
    size_t size = a->npoints * (size_t)a->n;
    a->value = calloc(size ? size : 1, sizeof *a->value);
    if (!a->value)
        return -1;
    for (size_t i = 0; i < n; i++) {
        a->value[cells[i].point * (size_t)a->n + (size_t)cells[i].axis] = cells[i].value;
        cells[i].value = NULL;
    }
    for (int k = 0; k < a->n; k++) {
        const char *first = a->value[k];
        for (size_t p = 0; p < a->npoints && !a->varies[k]; p++) {
            const char *v = a->value[p * (size_t)a->n + (size_t)k];
            a->varies[k] = !v || !first || strcmp(v, first) != 0;
        }
    }
    return 0;
}

int report_axes_read(dm_store *st, int64_t run, report_axes *a, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    cell *cells = NULL;
    size_t n = 0, cap = 0, pcap = 0;
    int rc = SQLITE_OK, oom = 0;
    memset(a, 0, sizeof *a);
    if (sqlite3_prepare_v2(store_db(st),
                           "SELECT p.idx, pp.name, pp.value_text FROM points p"
                           " LEFT JOIN point_params pp ON pp.point_id = p.id"
                           " WHERE p.run_id = ?1 AND p.status IN ('ok', 'failed', 'skipped')"
                           " ORDER BY p.idx, pp.rowid", -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(s, 1, run) != SQLITE_OK)
        goto fail;
    while (!oom && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t idx = sqlite3_column_int64(s, 0);
        if (a->npoints == 0 || a->idx[a->npoints - 1] != idx) {
            if (a->npoints == pcap) {
                pcap = pcap ? 2 * pcap : 64;
                int64_t *grown = realloc(a->idx, pcap * sizeof *grown);
                if (!(oom = !grown))
                    a->idx = grown;
            }
            if (!oom)
                a->idx[a->npoints++] = idx;
        }
        const char *name = (const char *)sqlite3_column_text(s, 1);
        int k = name ? axis_of(a, name) : -1;
        if (oom || k < 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            cell *grown = realloc(cells, cap * sizeof *grown);
            if ((oom = !grown))
                continue;
            cells = grown;
        }
        cells[n] = (cell){ .point = a->npoints - 1, .axis = k,
                           .value = strdup((const char *)sqlite3_column_text(s, 2)) };
        oom = !cells[n++].value;
    }
    if (!oom && rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(s);
    s = NULL;
    oom = oom || build(a, cells, n) != 0;
    for (size_t i = 0; i < n; i++)
        free(cells[i].value);
    free(cells);
    if (oom) {
        report_axes_free(a);
        return dm_err_set(err, DM_ERUNTIME, "out of memory reading the parameters of run %lld",
                          (long long)run);
    }
    return 0;
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "%s: reading the parameters of run %lld: %s",
                    store_path(st), (long long)run, sqlite3_errmsg(store_db(st)));
    sqlite3_finalize(s);
    for (size_t i = 0; i < n; i++)
        free(cells[i].value);
    free(cells);
    report_axes_free(a);
    return rc;
}

const char *report_axes_value(const report_axes *a, int64_t idx, int axis)
{
    size_t lo = 0, hi = a->npoints;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->idx[mid] < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->npoints && a->idx[lo] == idx ? a->value[lo * (size_t)a->n + (size_t)axis]
                                                : NULL;
}

int report_axes_in_key(const report_axes *a, int axis, const char *key)
{
    size_t len = strlen(a->name[axis]);
    for (const char *p = key; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, a->name[axis], len) == 0 && p[len] == '=')
            return 1;
    return 0;
}

void report_axes_constants(const report_axes *a, const char *key, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int k = 0; k < a->n; k++)
        if (!a->varies[k] && a->npoints && (!key || report_axes_in_key(a, k, key)))
            dm_append(buf, n, "%s%s=%s", buf[0] ? ", " : "", a->name[k], a->value[k]);
}
