/* store_export.c - the results database read back for tools (`dmbench export`): a run's
 * points as RFC 4180 CSV (a row a point, a column a parameter, the facts in one field),
 * or as JSON with the fingerprint, typed parameters, raw samples, what CUPTI gave and the
 * facts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "json.h"
#include "store_int.h"

/* Every point of a run, one row each; the column groups are cut out by name for JSON
 * (see json_point), and params are written between the head and the rest in CSV. */
static const char *const export_sql =
    "SELECT p.run_id, p.id AS point_id, p.idx, p.variant, p.status, p.reason,"
    " p.problem_key, p.params AS params_text, p.started_at, p.ended_at,"
    " d.name AS dataset, d.params AS dataset_params, d.path AS dataset_path,"
    " d.content_hash AS dataset_hash, d.size_bytes AS dataset_bytes,"
    " s.n AS n_samples, s.min, s.q1, s.median, s.mean, s.q3, s.max, s.stdev, s.noise,"
    " s.stop_reason, s.mode AS measure_mode, s.batch, s.warmup_seconds, s.elapsed,"
    " s.clock_source, s.sm_mhz_before, s.sm_mhz_after, s.n_throttled, s.throttle_reasons,"
    " p.bytes_per_run, p.ops_per_run, p.ops_unit, ps.gb_per_s, ps.ops_per_s,"
    " v.outcome AS verification, v.detail AS verification_detail,"
    " sp.baseline_median, sp.speedup"
    " FROM points p"
    " LEFT JOIN datasets d ON d.id = p.dataset_id"
    " LEFT JOIN point_stats s ON s.point_id = p.id"
    " LEFT JOIN verifications v ON v.point_id = p.id"
    " LEFT JOIN v_point_summary ps ON ps.point_id = p.id"
    " LEFT JOIN v_speedup sp ON sp.point_id = p.id"
    " WHERE p.run_id = ?1 ORDER BY p.idx";

/* The columns of export_sql before the parameters in CSV (run_id .. reason). */
#define EXPORT_HEAD_COLUMNS 6

/* Writes a CSV field, quoted (RFC 4180) when it holds a comma, quote or line break. */
static void csv_text(FILE *out, const char *v)
{
    if (!strpbrk(v, ",\"\r\n")) {
        fputs(v, out);
        return;
    }
    fputc('"', out);
    for (; *v; v++) {
        if (*v == '"')
            fputc('"', out);
        fputc(*v, out);
    }
    fputc('"', out);
}

static void csv_column(FILE *out, sqlite3_stmt *s, int i)
{
    char num[40];
    switch (sqlite3_column_type(s, i)) {
    case SQLITE_NULL:
        return;
    case SQLITE_INTEGER:
        fprintf(out, "%lld", (long long)sqlite3_column_int64(s, i));
        return;
    case SQLITE_FLOAT:
        if (isfinite(sqlite3_column_double(s, i))) {
            dm_format_double(sqlite3_column_double(s, i), num, sizeof num);
            fputs(num, out);
        }
        return;
    default:
        csv_text(out, (const char *)sqlite3_column_text(s, i));
    }
}

static void json_column(FILE *out, sqlite3_stmt *s, int i)
{
    switch (sqlite3_column_type(s, i)) {
    case SQLITE_NULL: fputs("null", out); break;
    case SQLITE_INTEGER: fprintf(out, "%lld", (long long)sqlite3_column_int64(s, i)); break;
    case SQLITE_FLOAT: json_write_number(out, sqlite3_column_double(s, i)); break;
    default: json_write_string(out, (const char *)sqlite3_column_text(s, i));
    }
}

/* Writes columns [from, to] of s as "name": value members, comma-separated. */
static void json_members(FILE *out, sqlite3_stmt *s, int from, int to)
{
    for (int i = from; i <= to; i++) {
        fprintf(out, "%s", i > from ? ", " : "");
        json_write_string(out, sqlite3_column_name(s, i));
        fputs(": ", out);
        json_column(out, s, i);
    }
}

/* Writes "key": {columns first..last} of s, or "key": null when column first is NULL. */
static void json_group(FILE *out, sqlite3_stmt *s, const char *key, const char *first,
                       const char *last)
{
    fprintf(out, ", \"%s\": ", key);
    if (store_col_null(s, first)) {
        fputs("null", out);
        return;
    }
    fputc('{', out);
    json_members(out, s, store_col(s, first), store_col(s, last));
    fputc('}', out);
}

/* The parameter names used by a run's points, in order of first appearance. */
typedef struct name_list {
    char **names;
    int n;
} name_list;

static void name_list_free(name_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
}

/* Fills l with the run's parameter names. Returns 0 or DM_ERUNTIME. */
static int export_param_names(dm_store *st, int64_t id, name_list *l, dm_err *err)
{
    sqlite3_stmt *s = store_read_prepare(st, "SELECT pp.name FROM point_params pp"
                                       " JOIN points p ON p.id = pp.point_id"
                                       " WHERE p.run_id = ?1"
                                       " GROUP BY pp.name ORDER BY min(pp.rowid)", id);
    if (!s)
        return store_fail(st, err, "listing the parameters of run %lld", (long long)id);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        char **grown = realloc(l->names, (size_t)(l->n + 1) * sizeof *grown);
        if (grown)
            l->names = grown;
        if (!grown || !(l->names[l->n] = strdup((const char *)sqlite3_column_text(s, 0)))) {
            sqlite3_finalize(s);
            return dm_err_set(err, DM_ERUNTIME, "out of memory listing parameters");
        }
        l->n++;
    }
    return store_read_end(st, s, rc, "listing the parameters", err);
}

/* Writes the CSV header: the head columns of p, the parameter names (prefixed "param."
 * where one equals a column's name), then p's other columns, then "facts". */
static void csv_header(FILE *out, sqlite3_stmt *p, const name_list *names)
{
    int ncol = sqlite3_column_count(p);
    for (int i = 0; i < ncol; i++) {
        if (i == EXPORT_HEAD_COLUMNS)
            for (int k = 0; k < names->n; k++) {
                int clash = 0;
                for (int j = 0; j < ncol && !clash; j++)
                    clash = strcmp(names->names[k], sqlite3_column_name(p, j)) == 0;
                fputs(clash ? ",param." : ",", out);
                csv_text(out, names->names[k]);
            }
        if (i)
            fputc(',', out);
        csv_text(out, sqlite3_column_name(p, i));
    }
    fputs(",facts\r\n", out);
}

/* Writes the CSV row of p's point, its parameters looked up with pv (point id ?1,
 * name ?2), its facts read with fq into one field. Returns 0 or DM_ERUNTIME. */
static int csv_row(dm_store *st, FILE *out, sqlite3_stmt *p, sqlite3_stmt *pv,
                   sqlite3_stmt *fq, const name_list *names, dm_err *err)
{
    int ncol = sqlite3_column_count(p);
    for (int i = 0; i < ncol; i++) {
        for (int k = 0; i == EXPORT_HEAD_COLUMNS && k < names->n; k++) {
            fputc(',', out);
            sqlite3_reset(pv);
            if (sqlite3_bind_int64(pv, 1, store_col_int(p, "point_id")) != SQLITE_OK ||
                sqlite3_bind_text(pv, 2, names->names[k], -1, SQLITE_STATIC) != SQLITE_OK)
                return store_fail(st, err, "reading parameter %s", names->names[k]);
            int rc = sqlite3_step(pv);
            if (rc == SQLITE_ROW)
                csv_text(out, (const char *)sqlite3_column_text(pv, 0));
            else if (rc != SQLITE_DONE)
                return store_fail(st, err, "reading parameter %s", names->names[k]);
        }
        if (i)
            fputc(',', out);
        csv_column(out, p, i);
    }
    char facts[STORE_FACTS_TEXT];
    if (store_facts_text(st, fq, store_col_int(p, "point_id"), "; ", facts, sizeof facts, err) != 0)
        return DM_ERUNTIME;
    fputc(',', out);
    csv_text(out, facts);
    fputs("\r\n", out);
    sqlite3_reset(pv);
    return 0;
}

/* Writes the header and one row per point of run id. Returns 0 or DM_ERUNTIME. */
static int export_csv(dm_store *st, int64_t id, FILE *out, dm_err *err)
{
    name_list names = { 0 };
    sqlite3_stmt *p = NULL, *pv = NULL, *fq = NULL;
    int rc = export_param_names(st, id, &names, err);
    if (rc != 0)
        goto out;
    p = store_read_prepare(st, export_sql, id);
    if (p)
        pv = store_read_prepare(st, "SELECT value_text FROM point_params"
                              " WHERE point_id = ?1 AND name = ?2", 0);
    if (pv)
        fq = store_facts_prepare(st);
    if (!p || !pv || !fq) {
        rc = store_fail(st, err, "exporting run %lld", (long long)id);
        goto out;
    }
    csv_header(out, p, &names);
    while ((rc = sqlite3_step(p)) == SQLITE_ROW)
        if (csv_row(st, out, p, pv, fq, &names, err) != 0)
            break;
    /* SQLITE_ROW here: a row's writer failed and said why in err. */
    rc = rc == SQLITE_DONE  ? 0
         : rc == SQLITE_ROW ? DM_ERUNTIME
                            : store_fail(st, err, "exporting the points of run %lld", (long long)id);
out:
    sqlite3_finalize(fq);
    sqlite3_finalize(pv);
    sqlite3_finalize(p);
    name_list_free(&names);
    return rc;
}

/* Writes the run's fingerprint and notes as the "run" member. Returns 0 or DM_ERUNTIME. */
static int json_run(dm_store *st, int64_t id, FILE *out, dm_err *err)
{
    sqlite3_stmt *s = store_read_prepare(st, "SELECT * FROM runs WHERE id = ?1", id);
    if (!s || sqlite3_step(s) != SQLITE_ROW) {
        int rc = store_fail(st, err, "reading run %lld", (long long)id);
        sqlite3_finalize(s);
        return rc;
    }
    fputs("{\n  \"run\": {\n", out);
    for (int i = 0; i < sqlite3_column_count(s); i++) {
        fputs("    ", out);
        json_write_string(out, sqlite3_column_name(s, i));
        fputs(": ", out);
        json_column(out, s, i);
        fputs(",\n", out);
    }
    sqlite3_finalize(s);
    fputs("    \"notes\": {", out);
    s = store_read_prepare(st, "SELECT key, value FROM run_notes WHERE run_id = ?1 ORDER BY key", id);
    if (!s)
        return store_fail(st, err, "reading the notes of run %lld", (long long)id);
    int rc, n = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        fputs(n++ ? ", " : "", out);
        json_write_string(out, (const char *)sqlite3_column_text(s, 0));
        fputs(": ", out);
        json_column(out, s, 1);
    }
    fputs("}\n  },\n", out);
    return store_read_end(st, s, rc, "reading the notes", err);
}

/* Writes the typed parameters of point_id as a JSON object, read with pp. Returns 0 or
 * DM_ERUNTIME. */
static int json_params(dm_store *st, FILE *out, sqlite3_stmt *pp, int64_t point_id,
                       dm_err *err)
{
    int rc, n = 0;
    sqlite3_reset(pp);
    if (sqlite3_bind_int64(pp, 1, point_id) != SQLITE_OK)
        return store_fail(st, err, "reading the parameters of point %lld", (long long)point_id);
    fputc('{', out);
    while ((rc = sqlite3_step(pp)) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(pp, 1);
        const char *text = (const char *)sqlite3_column_text(pp, 2);
        fputs(n++ ? ", " : "", out);
        json_write_string(out, (const char *)sqlite3_column_text(pp, 0));
        fputs(": ", out);
        if (strcmp(type, "int") == 0)
            fprintf(out, "%lld", strtoll(text, NULL, 10));
        else if (strcmp(type, "real") == 0)
            json_write_number(out, sqlite3_column_double(pp, 3));
        else
            json_write_string(out, text);
    }
    fputc('}', out);
    if (rc != SQLITE_DONE)
        return store_fail(st, err, "reading the parameters of point %lld", (long long)point_id);
    return 0;
}

/* Writes the samples of point_id as a JSON array of seconds, read with sm. Returns 0 or
 * DM_ERUNTIME. */
static int json_samples(dm_store *st, FILE *out, sqlite3_stmt *sm, int64_t point_id,
                        dm_err *err)
{
    int rc, n = 0;
    sqlite3_reset(sm);
    if (sqlite3_bind_int64(sm, 1, point_id) != SQLITE_OK)
        return store_fail(st, err, "reading the samples of point %lld", (long long)point_id);
    fputc('[', out);
    while ((rc = sqlite3_step(sm)) == SQLITE_ROW) {
        fputs(n++ ? ", " : "", out);
        json_column(out, sm, 0);
    }
    fputc(']', out);
    if (rc != SQLITE_DONE)
        return store_fail(st, err, "reading the samples of point %lld", (long long)point_id);
    return 0;
}

/* What hangs off a point: what CUPTI gave, then its facts, one query per JSON member:
 * each row an object of its columns, "timeline" a single object or null. */
static const struct {
    const char *key;
    const char *sql;
    int single;
} json_hung[] = {
    {"kernel_attrs", "SELECT kernel, block_threads, dynamic_smem, regs_per_thread, static_smem,"
     " local_bytes_per_thread, max_threads_per_block, predicted_blocks_per_sm,"
     " predicted_occupancy FROM kernel_attrs WHERE point_id = ?1 ORDER BY rowid", 0},
    {"launches", "SELECT launch_index, kernel, grid_x, grid_y, grid_z, block_x, block_y,"
     " block_z, dynamic_smem FROM launches WHERE point_id = ?1 ORDER BY launch_index", 0},
    {"metrics", "SELECT kernel, launch_index, metric, unit, value, reason FROM metrics"
     " WHERE point_id = ?1 ORDER BY launch_index, rowid", 0},
    {"timeline", "SELECT activities, streams, span_ns, overlap_ns, overlap, reason"
     " FROM timelines WHERE point_id = ?1", 1},
    {"activities", "SELECT idx, kind, name, stream, start_ns, end_ns, bytes, grid_x, grid_y,"
     " grid_z, block_x, block_y, block_z FROM activities WHERE point_id = ?1 ORDER BY idx", 0},
    {"facts", "SELECT grp AS \"group\", name, value, unit FROM point_facts WHERE point_id = ?1"
     " ORDER BY idx", 0},
};
#define JSON_HUNG_N (sizeof json_hung / sizeof json_hung[0])

/* Writes `, "key": [rows]` (or the one row, or null, for single) of q bound to
 * point_id. Returns 0 or DM_ERUNTIME. */
static int json_rows(dm_store *st, FILE *out, sqlite3_stmt *q, const char *key, int single,
                     int64_t point_id, dm_err *err)
{
    int rc, n = 0;
    sqlite3_reset(q);
    if (sqlite3_bind_int64(q, 1, point_id) != SQLITE_OK)
        return store_fail(st, err, "reading %s of point %lld", key, (long long)point_id);
    fprintf(out, ", \"%s\": %s", key, single ? "" : "[");
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && !(single && n)) {
        fputs(n++ ? ", {" : "{", out);
        json_members(out, q, 0, sqlite3_column_count(q) - 1);
        fputc('}', out);
    }
    if (single && n == 0)
        fputs("null", out);
    if (!single)
        fputc(']', out);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return store_fail(st, err, "reading %s of point %lld", key, (long long)point_id);
    return 0;
}

/* Writes the point of export_sql's row p: its own columns, "params", the dataset, "stats"
 * (null when not timed), throughput, verification and speedup, "samples", what CUPTI
 * gave and its facts (read with the json_hung queries cq). Returns 0 or DM_ERUNTIME. */
static int json_point(dm_store *st, FILE *out, sqlite3_stmt *p, sqlite3_stmt *pp,
                      sqlite3_stmt *sm, sqlite3_stmt *const *cq, dm_err *err)
{
    int64_t point_id = store_col_int(p, "point_id");
    fputc('{', out);
    json_members(out, p, 0, store_col(p, "ended_at"));
    fputs(", \"params\": ", out);
    if (json_params(st, out, pp, point_id, err) != 0)
        return DM_ERUNTIME;
    fputs(", ", out);
    json_members(out, p, store_col(p, "dataset"), store_col(p, "dataset_bytes"));
    json_group(out, p, "stats", "n_samples", "throttle_reasons");
    fputs(", ", out);
    json_members(out, p, store_col(p, "bytes_per_run"), store_col(p, "speedup"));
    fputs(", \"samples\": ", out);
    if (json_samples(st, out, sm, point_id, err) != 0)
        return DM_ERUNTIME;
    for (size_t i = 0; i < JSON_HUNG_N; i++)
        if (json_rows(st, out, cq[i], json_hung[i].key, json_hung[i].single, point_id,
                      err) != 0)
            return DM_ERUNTIME;
    fputc('}', out);
    return 0;
}

/* Writes {"run": {...}, "points": [...]}. Returns 0 or DM_ERUNTIME. */
static int export_json(dm_store *st, int64_t id, FILE *out, dm_err *err)
{
    sqlite3_stmt *p = NULL, *pp = NULL, *sm = NULL, *cq[JSON_HUNG_N] = {0};
    int rc = json_run(st, id, out, err);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < JSON_HUNG_N; i++)
        if (!(cq[i] = store_read_prepare(st, json_hung[i].sql, 0))) {
            rc = store_fail(st, err, "exporting run %lld", (long long)id);
            goto out;
        }
    if (!(p = store_read_prepare(st, export_sql, id)) ||
        !(pp = store_read_prepare(st, "SELECT name, type, value_text, value_num FROM point_params"
                                 " WHERE point_id = ?1 ORDER BY rowid", 0)) ||
        !(sm = store_read_prepare(st, "SELECT seconds FROM samples WHERE point_id = ?1"
                                " ORDER BY idx", 0))) {
        rc = store_fail(st, err, "exporting run %lld", (long long)id);
        goto out;
    }
    fputs("  \"points\": [", out);
    int n = 0;
    while ((rc = sqlite3_step(p)) == SQLITE_ROW) {
        fputs(n++ ? ",\n    " : "\n    ", out);
        if (json_point(st, out, p, pp, sm, cq, err) != 0)
            break;
    }
    fputs(n ? "\n  ]\n}\n" : "]\n}\n", out);
    /* SQLITE_ROW here: a row's writer failed and said why in err. */
    rc = rc == SQLITE_DONE  ? 0
         : rc == SQLITE_ROW ? DM_ERUNTIME
                            : store_fail(st, err, "exporting the points of run %lld", (long long)id);
out:
    for (size_t i = 0; i < JSON_HUNG_N; i++)
        sqlite3_finalize(cq[i]);
    sqlite3_finalize(sm);
    sqlite3_finalize(pp);
    sqlite3_finalize(p);
    return rc;
}

int store_export(dm_store *st, int64_t run_id, dm_export_format fmt, FILE *out, dm_err *err)
{
    int64_t id = 0;
    int rc = store_resolve_run(st, run_id, &id, err);
    if (rc == 0)
        rc = fmt == DM_EXPORT_JSON ? export_json(st, id, out, err)
                                   : export_csv(st, id, out, err);
    return rc != 0 ? rc : store_check_output(st, out, err);
}
