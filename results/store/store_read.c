/* store_read.c - the results database read back for people (`dmbench show`: the runs,
 * one run's fingerprint and its table of points, with a line of metrics and of timeline
 * where CUPTI gave them and the workload's facts), and the readers' helpers it shares
 * with store_export.c (for tools). Writing is store.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "measure.h"
#include "samples.h"
#include "store_int.h"

/* ---- the readers' helpers: statements, column access, the run ---- */

/* sql prepared with ?1 bound to id (when sql has a parameter); NULL on failure, with
 * the message left on the connection. */
sqlite3_stmt *store_read_prepare(dm_store *st, const char *sql, int64_t id)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK)
        return NULL;
    if (sqlite3_bind_parameter_count(s) > 0 && sqlite3_bind_int64(s, 1, id) != SQLITE_OK) {
        sqlite3_finalize(s);
        return NULL;
    }
    return s;
}

/* Ends a read loop: 0 when the last step was SQLITE_DONE, else DM_ERUNTIME with err
 * saying what was being read. Finalizes s either way. */
int store_read_end(dm_store *st, sqlite3_stmt *s, int rc, const char *what, dm_err *err)
{
    int ret = rc == SQLITE_DONE ? 0 : store_fail(st, err, "%s", what);
    sqlite3_finalize(s);
    return ret;
}

/* The index of the result column called name; the queries here name every column they
 * read, so a miss is a programming error caught by the tests. */
int store_col(sqlite3_stmt *s, const char *name)
{
    for (int i = 0; i < sqlite3_column_count(s); i++)
        if (strcmp(sqlite3_column_name(s, i), name) == 0)
            return i;
    fprintf(stderr, "store_read: no column '%s'\n", name);
    abort();
}

const char *store_col_text(sqlite3_stmt *s, const char *name)
{
    return (const char *)sqlite3_column_text(s, store_col(s, name));
}

double store_col_real(sqlite3_stmt *s, const char *name)
{
    int i = store_col(s, name);
    return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

int store_col_null(sqlite3_stmt *s, const char *name)
{
    return sqlite3_column_type(s, store_col(s, name)) == SQLITE_NULL;
}

long long store_col_int(sqlite3_stmt *s, const char *name)
{
    return sqlite3_column_int64(s, store_col(s, name));
}

/* The run to read: run_id when it exists, the newest for 0. Returns 0 with *id,
 * DM_EINPUT ("no run N in PATH", "no runs in PATH") or DM_ERUNTIME. */
int store_resolve_run(dm_store *st, int64_t run_id, int64_t *id, dm_err *err)
{
    sqlite3_stmt *s = store_read_prepare(
        st, run_id ? "SELECT id FROM runs WHERE id = ?1" : "SELECT max(id) FROM runs", run_id);
    int rc = s ? sqlite3_step(s) : SQLITE_ERROR;
    if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) {
        *id = sqlite3_column_int64(s, 0);
        rc = 0;
    } else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
        rc = run_id ? dm_err_set(err, DM_EINPUT, "no run %lld in %s", (long long)run_id,
                                 store_path(st))
                    : dm_err_set(err, DM_EINPUT, "no runs in %s", store_path(st));
    } else {
        rc = store_fail(st, err, "looking up run %lld", (long long)run_id);
    }
    sqlite3_finalize(s);
    return rc;
}

/* Returns 0, or DM_ERUNTIME when writing to out failed. */
int store_check_output(dm_store *st, FILE *out, dm_err *err)
{
    if (fflush(out) != 0 || ferror(out))
        return dm_err_set(err, DM_ERUNTIME, "%s: writing the output: %s", store_path(st),
                          strerror(errno));
    return 0;
}

/* ---- formatting numbers ---- */

/* x with 3 significant digits ("2890", "819", "20.5", "0.00205"), or "-" when NaN. */
static void fmt_sig3(double x, char *buf, size_t n)
{
    if (isnan(x))
        snprintf(buf, n, "-");
    else if (fabs(x) >= 1)
        snprintf(buf, n, "%.*f", fabs(x) >= 99.95 ? 0 : fabs(x) >= 9.995 ? 1 : 2, x);
    else
        snprintf(buf, n, "%.3g", x);
}

/* fmt applied to x, or "-" when x is NaN. */
static void fmt_or_dash(char *buf, size_t n, const char *fmt, double x)
{
    if (isnan(x))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, fmt, x);
}

/* Bytes in binary units ("50.0 MiB"). */
static void fmt_bytes(double b, char *buf, size_t n)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int u = 0;
    while (u < 4 && b >= 1024) {
        b /= 1024;
        u++;
    }
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

/* ---- show: the list of runs ---- */

/* A run's status as shown: 'running' whose process on this host is gone reads
 * 'interrupted' (the next writing dmbench records it so). */
#define STORE_READ_STATUS                                                                  \
    "CASE WHEN r.status = 'running' AND dm_process_gone(r.host, r.pid) THEN 'interrupted'" \
    " ELSE r.status END"

/* Writes nothing when there are no runs: `dmbench show` then says so once. */
int store_show_runs(dm_store *st, FILE *out, dm_err *err)
{
    static const char *const sql =
        "SELECT r.id, r.started_at, " STORE_READ_STATUS " AS status, r.workload,"
        " r.sweep_name || coalesce(' ' || r.shard_index || '/' || r.shard_count, '')"
        " AS sweep_name, r.gpu_name,"
        " (SELECT count(*) FROM points p WHERE p.run_id = r.id) AS stored,"
        " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'ok') AS ok,"
        " (SELECT max(length(sweep_name || coalesce(' ' || shard_index || '/' || shard_count,"
        " ''))) FROM runs) AS sweep_w,"
        " (SELECT max(length(workload)) FROM runs) AS workload_w"
        " FROM runs r ORDER BY r.id";
    sqlite3_stmt *s = store_read_prepare(st, sql, 0);
    if (!s)
        return store_fail(st, err, "listing the runs");
    int rc, rows = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int sweep_w = (int)store_col_int(s, "sweep_w"), workload_w = (int)store_col_int(s, "workload_w");
        sweep_w = sweep_w < 5 ? 5 : sweep_w;
        workload_w = workload_w < 8 ? 8 : workload_w;
        if (rows++ == 0)
            fprintf(out, "%5s  %-24s  %-11s  %6s  %6s  %-*s  %-*s  %s\n", "run", "started",
                    "status", "points", "ok", workload_w, "workload", sweep_w, "sweep", "gpu");
        const char *gpu = store_col_text(s, "gpu_name");
        const char *workload = store_col_text(s, "workload"), *sweep = store_col_text(s, "sweep_name");
        fprintf(out, "%5lld  %-24s  %-11s  %6lld  %6lld  %-*s  %-*s  %s\n", store_col_int(s, "id"),
                store_col_text(s, "started_at"), store_col_text(s, "status"), store_col_int(s, "stored"),
                store_col_int(s, "ok"), workload_w,
                workload ? workload : "-", sweep_w, sweep ? sweep : "-", gpu ? gpu : "no GPU");
    }
    if ((rc = store_read_end(st, s, rc, "listing the runs", err)) != 0)
        return rc;
    return store_check_output(st, out, err);
}

/* ---- show: one run ---- */

/* Prints "  label      text" when text is not NULL or empty. */
static void show_line(FILE *out, const char *label, const char *text)
{
    if (text && text[0])
        fprintf(out, "  %-10s %s\n", label, text);
}

/* CUDA's version encoding (13000) as "13.0". */
static void fmt_cuda_version(long long v, char *buf, size_t n)
{
    snprintf(buf, n, "%lld.%lld", v / 1000, v % 1000 / 10);
}

/* Prints the fingerprint lines of the run row r. */
static void show_fingerprint(sqlite3_stmt *r, FILE *out)
{
    char line[2048];
    const char *status = store_col_text(r, "shown_status");
    fprintf(out, "run %lld: %s%s\n", store_col_int(r, "id"), status,
            strcmp(status, store_col_text(r, "status")) != 0 ? " (its process is gone)" : "");
    show_line(out, "started", store_col_text(r, "started_at"));
    show_line(out, "ended", store_col_text(r, "ended_at"));
    line[0] = '\0';
    if (!store_col_null(r, "sweep_name"))
        dm_append(line, sizeof line, "%s", store_col_text(r, "sweep_name"));
    if (!store_col_null(r, "sweep_path"))
        dm_append(line, sizeof line, " (%s)", store_col_text(r, "sweep_path"));
    show_line(out, "sweep", line);
    line[0] = '\0';
    if (!store_col_null(r, "workload"))
        dm_append(line, sizeof line, "%s", store_col_text(r, "workload"));
    if (!store_col_null(r, "baseline"))
        dm_append(line, sizeof line, ", speedups against %s", store_col_text(r, "baseline"));
    show_line(out, "workload", line);
    show_line(out, "command", store_col_text(r, "argv"));
    show_line(out, "host", store_col_text(r, "host"));

    line[0] = '\0';
    if (!store_col_null(r, "gpu_name")) {
        char l2[32], mem[32];
        fmt_bytes(store_col_real(r, "gpu_l2_bytes"), l2, sizeof l2);
        fmt_bytes(store_col_real(r, "gpu_mem_bytes"), mem, sizeof mem);
        dm_append(line, sizeof line, "%s, cc %s, %lld SMs, L2 %s, memory %s",
               store_col_text(r, "gpu_name"), store_col_text(r, "gpu_cc") ? store_col_text(r, "gpu_cc") : "?",
               store_col_int(r, "gpu_sms"), l2, mem);
    }
    show_line(out, "gpu", line);
    line[0] = '\0';
    if (!store_col_null(r, "gpu_uuid"))
        dm_append(line, sizeof line, "%s", store_col_text(r, "gpu_uuid"));
    if (!store_col_null(r, "gpu_pci_bus_id"))
        dm_append(line, sizeof line, "%sPCI %s", line[0] ? ", " : "", store_col_text(r, "gpu_pci_bus_id"));
    show_line(out, "", line);
    if (!store_col_null(r, "no_gpu_reason"))
        show_line(out, "no gpu", store_col_text(r, "no_gpu_reason"));

    line[0] = '\0';
    if (!store_col_null(r, "sm_clock_mhz_start"))
        dm_append(line, sizeof line, "SM %.0f MHz", store_col_real(r, "sm_clock_mhz_start"));
    if (!store_col_null(r, "mem_clock_mhz_start"))
        dm_append(line, sizeof line, "%smemory %.0f MHz", line[0] ? ", " : "",
               store_col_real(r, "mem_clock_mhz_start"));
    if (line[0])
        dm_append(line, sizeof line, " at start");
    if (!store_col_null(r, "clock_source"))
        dm_append(line, sizeof line, "%sread by %s", line[0] ? "; " : "", store_col_text(r, "clock_source"));
    show_line(out, "clocks", line);

    line[0] = '\0';
    char v[32];
    if (!store_col_null(r, "driver_version")) {
        fmt_cuda_version(store_col_int(r, "driver_version"), v, sizeof v);
        dm_append(line, sizeof line, "driver %s, ", v);
    }
    if (!store_col_null(r, "runtime_version")) {
        fmt_cuda_version(store_col_int(r, "runtime_version"), v, sizeof v);
        dm_append(line, sizeof line, "runtime %s, ", v);
    }
    if (!store_col_null(r, "dmbench_version"))
        dm_append(line, sizeof line, "dmbench %s", store_col_text(r, "dmbench_version"));
    show_line(out, "versions", line);
    line[0] = '\0';
    if (!store_col_null(r, "git_commit"))
        dm_append(line, sizeof line, "%s%s", store_col_text(r, "git_commit"),
               store_col_int(r, "git_dirty") ? " (dirty)" : "");
    show_line(out, "commit", line);
    show_line(out, "build", store_col_text(r, "build_flags"));

    line[0] = '\0';
    if (!store_col_null(r, "measure_mode"))
        dm_append(line, sizeof line, "%s; %lld to %lld samples, stopping at %s %.2f%% "
               "(criterion %s) or after %g s", store_col_text(r, "measure_mode"),
               store_col_int(r, "min_samples"), store_col_int(r, "max_samples"),
               criterion_figure(store_col_null(r, "criterion") ? NULL : store_col_text(r, "criterion")),
               store_col_real(r, "max_noise") * 100,
               store_col_null(r, "criterion") ? "stdrel" : store_col_text(r, "criterion"),
               store_col_real(r, "max_time"));
    if (!store_col_null(r, "outlier_k"))
        dm_append(line, sizeof line, "; outliers above median + %g robust sd",
                  store_col_real(r, "outlier_k"));
    show_line(out, "measure", line);
}

/* Prints the run's point counts (from run row r) and notes. Returns 0 or DM_ERUNTIME. */
static int show_counts_notes(dm_store *st, sqlite3_stmt *r, int64_t id, FILE *out, dm_err *err)
{
    char line[512] = "";
    dm_append(line, sizeof line, "%lld in the sweep, %lld planned", store_col_int(r, "points_total"),
              store_col_int(r, "points_planned"));
    if (!store_col_null(r, "shard_count"))
        dm_append(line, sizeof line, " in shard %lld/%lld", store_col_int(r, "shard_index"),
                  store_col_int(r, "shard_count"));
    dm_append(line, sizeof line, "; stored:");
    sqlite3_stmt *s = store_read_prepare(st, "SELECT status, count(*) FROM points WHERE run_id = ?1"
                                       " GROUP BY status ORDER BY status", id);
    if (!s)
        return store_fail(st, err, "counting the points of run %lld", (long long)id);
    int rc, any = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        dm_append(line, sizeof line, "%s %lld %s", any++ ? "," : "", sqlite3_column_int64(s, 1),
               sqlite3_column_text(s, 0));
    if ((rc = store_read_end(st, s, rc, "counting the points", err)) != 0)
        return rc;
    if (!any)
        dm_append(line, sizeof line, " none");
    show_line(out, "points", line);

    /* How the measured points stopped: on the criterion's figure, or on a limit first. */
    const char *figure = criterion_figure(store_col_null(r, "criterion") ? NULL
                                                                   : store_col_text(r, "criterion"));
    s = store_read_prepare(st, "SELECT stop_reason, count(*), sum(n_outliers > 0) FROM point_stats"
                         " WHERE point_id IN (SELECT id FROM points WHERE run_id = ?1)"
                         " GROUP BY stop_reason ORDER BY count(*) DESC", id);
    if (!s)
        return store_fail(st, err, "reading how the points of run %lld stopped", (long long)id);
    line[0] = '\0';
    long long measured = 0, with_outliers = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        long long k = sqlite3_column_int64(s, 1);
        measured += k;
        with_outliers += sqlite3_column_int64(s, 2);
        const char *why = (const char *)sqlite3_column_text(s, 0);
        dm_append(line, sizeof line, "%s%lld on %s", line[0] ? ", " : "", k,
                  !why ? "-" : strcmp(why, "noise") == 0 ? figure : why);
    }
    if ((rc = store_read_end(st, s, rc, "reading how the points stopped", err)) != 0)
        return rc;
    if (measured) {
        dm_append(line, sizeof line, "; %lld of %lld with outliers", with_outliers, measured);
        show_line(out, "stopped", line);
    }

    /* What the harness cost beyond the samples: wall time less sampled time, per point
     * measured (warm-up, verification, datasets, the database all count). */
    s = store_read_prepare(st,
                     "SELECT (julianday(r.ended_at) - julianday(r.started_at)) * 86400,"
                     " (SELECT sum(m.seconds * m.batch) FROM samples m JOIN points p"
                     "   ON p.id = m.point_id WHERE p.run_id = r.id),"
                     " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'ok')"
                     " FROM runs r WHERE r.id = ?1", id);
    if (!s)
        return store_fail(st, err, "timing run %lld", (long long)id);
    if ((rc = sqlite3_step(s)) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL &&
        sqlite3_column_int64(s, 2) > 0) {
        double wall = sqlite3_column_double(s, 0), sampled = sqlite3_column_double(s, 1);
        long long n = sqlite3_column_int64(s, 2);
        snprintf(line, sizeof line, "wall %.2f s, samples %.2f s; %.2f ms per measured point beyond its samples",
                 wall, sampled, (wall - sampled) / (double)n * 1e3);
        show_line(out, "time", line);
        rc = SQLITE_DONE;
    }
    if ((rc = store_read_end(st, s, rc == SQLITE_ROW ? SQLITE_DONE : rc, "timing the run", err)) != 0)
        return rc;

    /* A point's own wall time, start to end (its dataset, reference, samples and all):
     * the median of the sorted times, and the longest. */
    s = store_read_prepare(st,
                     "SELECT (julianday(ended_at) - julianday(started_at)) * 86400 AS t,"
                     " count(*) OVER () FROM points WHERE run_id = ?1 AND status = 'ok'"
                     " AND ended_at IS NOT NULL ORDER BY t", id);
    if (!s)
        return store_fail(st, err, "timing the points of run %lld", (long long)id);
    double mid = 0, longest = 0;
    for (long long i = 0; (rc = sqlite3_step(s)) == SQLITE_ROW; i++) {
        long long n = sqlite3_column_int64(s, 1);
        longest = sqlite3_column_double(s, 0);
        if (i == (n - 1) / 2 || i == n / 2)
            mid += longest / (n % 2 ? 1 : 2);
    }
    if ((rc = store_read_end(st, s, rc, "timing the points", err)) != 0)
        return rc;
    if (longest > 0) {
        snprintf(line, sizeof line, "a point's wall time: median %.1f ms, longest %.1f ms",
                 mid * 1e3, longest * 1e3);
        show_line(out, "", line);
    }

    s = store_read_prepare(st, "SELECT key, value FROM run_notes WHERE run_id = ?1 ORDER BY key", id);
    if (!s)
        return store_fail(st, err, "reading the notes of run %lld", (long long)id);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(s, 1);
        snprintf(line, sizeof line, "%s = %s", sqlite3_column_text(s, 0), v ? v : "");
        show_line(out, "note", line);
    }
    return store_read_end(st, s, rc, "reading the notes", err);
}

/* Prints "label: text" under a table row, indenting text's further lines with it. */
static void show_note(FILE *out, const char *label, const char *text)
{
    fprintf(out, "%7s%s: ", "", label);
    for (; *text; text++) {
        fputc(*text, out);
        if (*text == '\n')
            fprintf(out, "%*s", 9 + (int)strlen(label), "");
    }
    fputc('\n', out);
}

/* Appends metric value v in its unit to buf: percentages and rates as given, bytes in
 * binary units, ns as a time, counts with 3 significant digits. */
static void append_metric(char *buf, size_t n, const char *unit, double v)
{
    char text[32];
    if (isnan(v))
        snprintf(text, sizeof text, "-");
    else if (unit && strcmp(unit, "%") == 0)
        snprintf(text, sizeof text, "%.1f%%", v);
    else if (unit && strcmp(unit, "bytes") == 0)
        fmt_bytes(v, text, sizeof text);
    else if (unit && strcmp(unit, "ns") == 0)
        samples_fmt_seconds(v * 1e-9, text, sizeof text);
    else
        fmt_sig3(v, text, sizeof text);
    dm_append(buf, n, "%s", text);
}

/* Prints the point's compact metrics line (per metric over its launches: percentages as
 * means, everything else summed) and its timeline line, when it has them; m and t are
 * the queries below, bound to the point here. Returns 0 or DM_ERUNTIME. */
static int show_cupti(dm_store *st, sqlite3_stmt *m, sqlite3_stmt *t, int64_t point_id,
                      FILE *out, dm_err *err)
{
    char line[2048] = "", reason[1024] = "";
    int rc, metrics = 0;
    sqlite3_reset(m);
    sqlite3_reset(t);
    if (sqlite3_bind_int64(m, 1, point_id) != SQLITE_OK ||
        sqlite3_bind_int64(t, 1, point_id) != SQLITE_OK)
        return store_fail(st, err, "reading the metrics of point %lld", (long long)point_id);
    while ((rc = sqlite3_step(m)) == SQLITE_ROW) {
        const char *unit = store_col_text(m, "unit");
        int mean = unit && strcmp(unit, "%") == 0;
        if (metrics++ == 0)
            dm_append(line, sizeof line, "%lld launch%s%s: ", store_col_int(m, "launches"),
                   store_col_int(m, "launches") == 1 ? "" : "es",
                   store_col_int(m, "launches") > 1 ? " (% as means, others summed)" : "");
        else
            dm_append(line, sizeof line, ", ");
        dm_append(line, sizeof line, "%s ", store_col_text(m, "metric"));
        append_metric(line, sizeof line, unit,
                      store_col_int(m, "known") ? store_col_real(m, mean ? "mean" : "total") : NAN);
        if (!reason[0] && store_col_text(m, "reason"))
            snprintf(reason, sizeof reason, "%s", store_col_text(m, "reason"));
    }
    if (rc != SQLITE_DONE)
        return store_fail(st, err, "reading the metrics of point %lld", (long long)point_id);
    if (metrics) {
        if (reason[0])
            dm_append(line, sizeof line, "; NULL: %s", reason);
        show_note(out, "metrics", line);
    }
    if ((rc = sqlite3_step(t)) == SQLITE_ROW) {
        char span[24], ov[24];
        line[0] = '\0';
        if (!store_col_null(t, "overlap")) {
            samples_fmt_seconds(store_col_real(t, "span_ns") * 1e-9, span, sizeof span);
            samples_fmt_seconds(store_col_real(t, "overlap_ns") * 1e-9, ov, sizeof ov);
            dm_append(line, sizeof line, "%lld activities on %lld stream%s, span %s, overlap ",
                   store_col_int(t, "activities"), store_col_int(t, "streams"),
                   store_col_int(t, "streams") == 1 ? "" : "s", span);
            if (store_col_int(t, "overlap_ns") > 0)
                dm_append(line, sizeof line, "%.1f%% (%s)", store_col_real(t, "overlap") * 100, ov);
            else
                dm_append(line, sizeof line, "none");
        }
        if (store_col_text(t, "reason"))
            dm_append(line, sizeof line, "%s%s", line[0] ? "; " : "", store_col_text(t, "reason"));
        show_note(out, "timeline", line);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE)
        return store_fail(st, err, "reading the timeline of point %lld", (long long)point_id);
    return 0;
}

/* A note under a point whose outliers are many (SHOW_MANY_OUTLIERS of its samples or
 * more), with what may explain them: throttled samples, the SM clock and the host core's
 * before and after. */
#define SHOW_MANY_OUTLIERS 0.05

static void show_outliers(sqlite3_stmt *s, FILE *out)
{
    long long k = store_col_int(s, "n_outliers"), n = store_col_int(s, "n");
    if (store_col_null(s, "n_outliers") || k < 3 || (double)k < SHOW_MANY_OUTLIERS * (double)n)
        return;
    char line[512];
    snprintf(line, sizeof line, "%lld of %lld samples above median + %g robust sd; ", k, n,
             store_col_real(s, "outlier_k"));
    if (store_col_int(s, "n_throttled") > 0)
        dm_append(line, sizeof line, "%lld samples throttled (%s)", store_col_int(s, "n_throttled"),
                  store_col_null(s, "throttle_reasons") ? "-" : store_col_text(s, "throttle_reasons"));
    else
        dm_append(line, sizeof line, "no sample throttled");
    if (!store_col_null(s, "sm_mhz_before") && !store_col_null(s, "sm_mhz_after"))
        dm_append(line, sizeof line, ", SM clock %.0f -> %.0f MHz",
                  store_col_real(s, "sm_mhz_before"), store_col_real(s, "sm_mhz_after"));
    if (store_col_real(s, "host_mhz_before") > 0 && store_col_real(s, "host_mhz_after") > 0)
        dm_append(line, sizeof line, ", host core %.0f -> %.0f MHz",
                  store_col_real(s, "host_mhz_before"), store_col_real(s, "host_mhz_after"));
    dm_append(line, sizeof line, "; a neighbour on the card or the host may be the cause");
    show_note(out, "outliers", line);
}

/* The table of the run's points, with each point's metrics, timeline and facts read by
 * mq, tq and fq. Returns 0 or DM_ERUNTIME. */
static int show_point_rows(dm_store *st, int64_t id, int has_baseline, sqlite3_stmt *mq,
                           sqlite3_stmt *tq, sqlite3_stmt *fq, FILE *out, dm_err *err)
{
    sqlite3_stmt *s = store_read_prepare(
        st,
        "SELECT s.point_id, s.idx, s.variant, s.params, s.status, s.reason, s.n, s.median,"
        " s.noise AS rsd, s.criterion, " STORE_SQL_CI95 " AS ci95,"
        " s.min,"
        " s.max, s.gb_per_s, s.ops_per_s, sp.speedup, s.verification, s.verification_detail,"
        " s.stop_reason, s.n_outliers, ps.outlier_k, ps.n_throttled, ps.throttle_reasons,"
        " ps.sm_mhz_before, ps.sm_mhz_after, ps.host_mhz_before, ps.host_mhz_after,"
        " (SELECT chosen FROM points WHERE id = s.point_id) AS chosen,"
        " (SELECT max(length(variant)) FROM points WHERE run_id = ?1) AS variant_w,"
        " (SELECT max(length(params)) FROM points WHERE run_id = ?1) AS params_w,"
        " (SELECT count(gb_per_s) FROM v_point_summary WHERE run_id = ?1) AS with_gbs,"
        " (SELECT max(ops_unit) FROM v_point_summary WHERE run_id = ?1"
        "  AND ops_per_s IS NOT NULL) AS ops_unit"
        " FROM v_point_summary s LEFT JOIN v_speedup sp ON sp.point_id = s.point_id"
        " LEFT JOIN point_stats ps ON ps.point_id = s.point_id"
        " WHERE s.run_id = ?1 AND s.status IN ('ok', 'failed') ORDER BY s.idx",
        id);
    if (!s)
        return store_fail(st, err, "reading the points of run %lld", (long long)id);
    int rc, rows = 0, vw = 0, pw = 0, gbs = 0, opsw = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (rows++ == 0) {
            vw = (int)store_col_int(s, "variant_w");
            pw = (int)store_col_int(s, "params_w");
            vw = vw < 7 ? 7 : vw;
            pw = pw < 6 ? 6 : pw;
            gbs = store_col_int(s, "with_gbs") > 0;
            char ops_head[64] = "";
            if (!store_col_null(s, "ops_unit"))
                snprintf(ops_head, sizeof ops_head, "%s/s", store_col_text(s, "ops_unit"));
            opsw = ops_head[0] ? (int)strlen(ops_head) : 0;
            opsw = opsw && opsw < 9 ? 9 : opsw;
            fprintf(out, "\n%5s  %-*s  %-*s  %-7s  %6s  %9s  %7s  %7s  %-7s  %5s  %9s  %9s",
                    "idx", vw, "variant", pw, "params", "status", "n", "median", "ci95", "rsd",
                    "stop", "outl", "min", "max");
            if (gbs)
                fprintf(out, "  %8s", "GB/s");
            if (opsw)
                fprintf(out, "  %*s", opsw, ops_head);
            if (has_baseline)
                fprintf(out, "  %8s", "speedup");
            fprintf(out, "  %s\n", "verify");
        }
        char n[24], median[24], ci95[24], rsd[24], mn[24], mx[24], gb[24], ops[24], sp[24],
            outl[24];
        snprintf(n, sizeof n, store_col_null(s, "n") ? "-" : "%lld", store_col_int(s, "n"));
        snprintf(outl, sizeof outl, store_col_null(s, "n_outliers") ? "-" : "%lld",
                 store_col_int(s, "n_outliers"));
        const char *stop = store_col_null(s, "stop_reason") ? "-" : store_col_text(s, "stop_reason");
        stop = strcmp(stop, "max_time") == 0 ? "time" : strcmp(stop, "max_samples") == 0 ? "samples" : stop;
        if (strcmp(stop, "noise") == 0) /* the figure it stopped on */
            stop = criterion_figure(store_col_null(s, "criterion") ? NULL : store_col_text(s, "criterion"));
        samples_fmt_seconds(store_col_real(s, "median"), median, sizeof median);
        fmt_or_dash(ci95, sizeof ci95, "%.2f%%", store_col_real(s, "ci95") * 100);
        fmt_or_dash(rsd, sizeof rsd, "%.2f%%", store_col_real(s, "rsd") * 100);
        samples_fmt_seconds(store_col_real(s, "min"), mn, sizeof mn);
        samples_fmt_seconds(store_col_real(s, "max"), mx, sizeof mx);
        fmt_sig3(store_col_real(s, "gb_per_s"), gb, sizeof gb);
        fmt_or_dash(ops, sizeof ops, "%.3g", store_col_real(s, "ops_per_s"));
        fmt_or_dash(sp, sizeof sp, "%.2fx", store_col_real(s, "speedup"));
        const char *verify = store_col_text(s, "verification");
        fprintf(out, "%5lld  %-*s  %-*s  %-7s  %6s  %9s  %7s  %7s  %-7s  %5s  %9s  %9s",
                store_col_int(s, "idx"), vw, store_col_text(s, "variant"), pw, store_col_text(s, "params"),
                store_col_text(s, "status"), n, median, ci95, rsd, stop, outl, mn, mx);
        if (gbs)
            fprintf(out, "  %8s", gb);
        if (opsw)
            fprintf(out, "  %*s", opsw, ops);
        if (has_baseline)
            fprintf(out, "  %8s", sp);
        fprintf(out, "  %s\n", verify ? verify : "-");

        const char *reason = store_col_text(s, "reason");
        if (reason && strcmp(store_col_text(s, "status"), "ok") != 0)
            show_note(out, "reason", reason);
        const char *detail = store_col_text(s, "verification_detail");
        if (detail && (!reason || !strstr(reason, detail)))
            show_note(out, "verification", detail);
        if (!store_col_null(s, "chosen"))
            show_note(out, "chosen", store_col_text(s, "chosen"));
        show_outliers(s, out);
        char facts[STORE_FACTS_TEXT];
        if (show_cupti(st, mq, tq, store_col_int(s, "point_id"), out, err) != 0 ||
            store_facts_text(st, fq, store_col_int(s, "point_id"), "\n", facts, sizeof facts,
                             err) != 0) {
            sqlite3_finalize(s);
            return DM_ERUNTIME;
        }
        if (facts[0])
            show_note(out, "facts", facts);
    }
    if (rows == 0 && rc == SQLITE_DONE)
        fprintf(out, "\nno points measured\n");
    if ((rc = store_read_end(st, s, rc, "reading the points", err)) != 0)
        return rc;
    /* Points that never ran are told by reason, not one row each. */
    s = store_read_prepare(st, "SELECT status, reason, count(*), min(idx) FROM points"
                         " WHERE run_id = ?1 AND status IN ('skipped', 'pruned')"
                         " GROUP BY status, reason ORDER BY min(idx)", id);
    if (!s)
        return store_fail(st, err, "reading the skipped points of run %lld", (long long)id);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        fprintf(out, "%s %lld point%s (from idx %lld): %s\n", sqlite3_column_text(s, 0),
                sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 2) == 1 ? "" : "s",
                sqlite3_column_int64(s, 3),
                sqlite3_column_text(s, 1) ? (const char *)sqlite3_column_text(s, 1) : "-");
    return store_read_end(st, s, rc, "reading the skipped points", err);
}

/* Prints the table of the run's points. Returns 0 or DM_ERUNTIME. */
static int show_points(dm_store *st, int64_t id, int has_baseline, FILE *out, dm_err *err)
{
    sqlite3_stmt *mq = store_read_prepare(
        st,
        "SELECT metric, unit, count(value) AS known, sum(value) AS total, avg(value) AS mean,"
        " min(reason) AS reason,"
        " (SELECT count(*) FROM launches WHERE point_id = ?1) AS launches"
        " FROM metrics WHERE point_id = ?1 GROUP BY metric ORDER BY min(rowid)", 0);
    sqlite3_stmt *tq = store_read_prepare(
        st, "SELECT activities, streams, span_ns, overlap_ns, overlap, reason FROM timelines"
            " WHERE point_id = ?1", 0);
    sqlite3_stmt *fq = store_facts_prepare(st);
    int rc = !mq || !tq || !fq
                 ? store_fail(st, err, "reading the metrics and facts of run %lld", (long long)id)
                 : show_point_rows(st, id, has_baseline, mq, tq, fq, out, err);
    sqlite3_finalize(mq);
    sqlite3_finalize(tq);
    sqlite3_finalize(fq);
    return rc;
}

int store_show_run(dm_store *st, int64_t run_id, FILE *out, dm_err *err)
{
    int64_t id = 0;
    int rc = store_resolve_run(st, run_id, &id, err);
    if (rc != 0)
        return rc;
    sqlite3_stmt *r = store_read_prepare(st, "SELECT r.*, " STORE_READ_STATUS " AS shown_status"
                                       " FROM runs r WHERE r.id = ?1", id);
    if (!r || sqlite3_step(r) != SQLITE_ROW) {
        rc = store_fail(st, err, "reading run %lld", (long long)id);
        sqlite3_finalize(r);
        return rc;
    }
    show_fingerprint(r, out);
    if ((rc = show_counts_notes(st, r, id, out, err)) == 0 &&
        (rc = show_points(st, id, !store_col_null(r, "baseline"), out, err)) == 0)
        rc = store_check_output(st, out, err);
    sqlite3_finalize(r);
    return rc;
}
