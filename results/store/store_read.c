/* store_read.c - the results database read back, for people (`dmbench show`: the runs,
 * one run's fingerprint and its table of points, with a line of metrics and of timeline
 * where CUPTI gave them and the workload's facts) and for tools (`dmbench export`: a run
 * as RFC 4180 CSV, or as JSON with the raw samples, metrics, timelines and facts).
 * Writing is store.c. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "json.h"
#include "measure.h"
#include "samples.h"
#include "store_int.h"

/* ---- errors and column access ---- */

/* Sets err to "PATH: what: SQLite's message" and returns DM_ERUNTIME. */
static int read_fail(dm_store *st, dm_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int read_fail(dm_store *st, dm_err *err, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dm_err_set(err, DM_ERUNTIME, "%s: %s: %s", store_path(st), what,
                      sqlite3_errmsg(store_db(st)));
}

/* sql prepared with ?1 bound to id (when sql has a parameter); NULL on failure, with
 * the message left on the connection. */
static sqlite3_stmt *read_prepare(dm_store *st, const char *sql, int64_t id)
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
static int read_end(dm_store *st, sqlite3_stmt *s, int rc, const char *what, dm_err *err)
{
    int ret = rc == SQLITE_DONE ? 0 : read_fail(st, err, "%s", what);
    sqlite3_finalize(s);
    return ret;
}

/* The index of the result column called name; the queries here name every column they
 * read, so a miss is a programming error caught by the tests. */
static int col(sqlite3_stmt *s, const char *name)
{
    for (int i = 0; i < sqlite3_column_count(s); i++)
        if (strcmp(sqlite3_column_name(s, i), name) == 0)
            return i;
    fprintf(stderr, "store_read: no column '%s'\n", name);
    abort();
}

static const char *col_text(sqlite3_stmt *s, const char *name)
{
    return (const char *)sqlite3_column_text(s, col(s, name));
}

static double col_real(sqlite3_stmt *s, const char *name)
{
    int i = col(s, name);
    return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

static int col_null(sqlite3_stmt *s, const char *name)
{
    return sqlite3_column_type(s, col(s, name)) == SQLITE_NULL;
}

static long long col_int(sqlite3_stmt *s, const char *name)
{
    return sqlite3_column_int64(s, col(s, name));
}

/* The run to read: run_id when it exists, the newest for 0. Returns 0 with *id,
 * DM_EINPUT ("no run N in PATH", "no runs in PATH") or DM_ERUNTIME. */
static int resolve_run(dm_store *st, int64_t run_id, int64_t *id, dm_err *err)
{
    sqlite3_stmt *s = read_prepare(
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
        rc = read_fail(st, err, "looking up run %lld", (long long)run_id);
    }
    sqlite3_finalize(s);
    return rc;
}

/* Returns 0, or DM_ERUNTIME when writing to out failed. */
static int check_output(dm_store *st, FILE *out, dm_err *err)
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
    sqlite3_stmt *s = read_prepare(st, sql, 0);
    if (!s)
        return read_fail(st, err, "listing the runs");
    int rc, rows = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int sweep_w = (int)col_int(s, "sweep_w"), workload_w = (int)col_int(s, "workload_w");
        sweep_w = sweep_w < 5 ? 5 : sweep_w;
        workload_w = workload_w < 8 ? 8 : workload_w;
        if (rows++ == 0)
            fprintf(out, "%5s  %-24s  %-11s  %6s  %6s  %-*s  %-*s  %s\n", "run", "started",
                    "status", "points", "ok", workload_w, "workload", sweep_w, "sweep", "gpu");
        const char *gpu = col_text(s, "gpu_name");
        const char *workload = col_text(s, "workload"), *sweep = col_text(s, "sweep_name");
        fprintf(out, "%5lld  %-24s  %-11s  %6lld  %6lld  %-*s  %-*s  %s\n", col_int(s, "id"),
                col_text(s, "started_at"), col_text(s, "status"), col_int(s, "stored"),
                col_int(s, "ok"), workload_w,
                workload ? workload : "-", sweep_w, sweep ? sweep : "-", gpu ? gpu : "no GPU");
    }
    if ((rc = read_end(st, s, rc, "listing the runs", err)) != 0)
        return rc;
    return check_output(st, out, err);
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
    const char *status = col_text(r, "shown_status");
    fprintf(out, "run %lld: %s%s\n", col_int(r, "id"), status,
            strcmp(status, col_text(r, "status")) != 0 ? " (its process is gone)" : "");
    show_line(out, "started", col_text(r, "started_at"));
    show_line(out, "ended", col_text(r, "ended_at"));
    line[0] = '\0';
    if (!col_null(r, "sweep_name"))
        dm_append(line, sizeof line, "%s", col_text(r, "sweep_name"));
    if (!col_null(r, "sweep_path"))
        dm_append(line, sizeof line, " (%s)", col_text(r, "sweep_path"));
    show_line(out, "sweep", line);
    line[0] = '\0';
    if (!col_null(r, "workload"))
        dm_append(line, sizeof line, "%s", col_text(r, "workload"));
    if (!col_null(r, "baseline"))
        dm_append(line, sizeof line, ", speedups against %s", col_text(r, "baseline"));
    show_line(out, "workload", line);
    show_line(out, "command", col_text(r, "argv"));
    show_line(out, "host", col_text(r, "host"));

    line[0] = '\0';
    if (!col_null(r, "gpu_name")) {
        char l2[32], mem[32];
        fmt_bytes(col_real(r, "gpu_l2_bytes"), l2, sizeof l2);
        fmt_bytes(col_real(r, "gpu_mem_bytes"), mem, sizeof mem);
        dm_append(line, sizeof line, "%s, cc %s, %lld SMs, L2 %s, memory %s",
               col_text(r, "gpu_name"), col_text(r, "gpu_cc") ? col_text(r, "gpu_cc") : "?",
               col_int(r, "gpu_sms"), l2, mem);
    }
    show_line(out, "gpu", line);
    line[0] = '\0';
    if (!col_null(r, "gpu_uuid"))
        dm_append(line, sizeof line, "%s", col_text(r, "gpu_uuid"));
    if (!col_null(r, "gpu_pci_bus_id"))
        dm_append(line, sizeof line, "%sPCI %s", line[0] ? ", " : "", col_text(r, "gpu_pci_bus_id"));
    show_line(out, "", line);
    if (!col_null(r, "no_gpu_reason"))
        show_line(out, "no gpu", col_text(r, "no_gpu_reason"));

    line[0] = '\0';
    if (!col_null(r, "sm_clock_mhz_start"))
        dm_append(line, sizeof line, "SM %.0f MHz", col_real(r, "sm_clock_mhz_start"));
    if (!col_null(r, "mem_clock_mhz_start"))
        dm_append(line, sizeof line, "%smemory %.0f MHz", line[0] ? ", " : "",
               col_real(r, "mem_clock_mhz_start"));
    if (line[0])
        dm_append(line, sizeof line, " at start");
    if (!col_null(r, "clock_source"))
        dm_append(line, sizeof line, "%sread by %s", line[0] ? "; " : "", col_text(r, "clock_source"));
    show_line(out, "clocks", line);

    line[0] = '\0';
    char v[32];
    if (!col_null(r, "driver_version")) {
        fmt_cuda_version(col_int(r, "driver_version"), v, sizeof v);
        dm_append(line, sizeof line, "driver %s, ", v);
    }
    if (!col_null(r, "runtime_version")) {
        fmt_cuda_version(col_int(r, "runtime_version"), v, sizeof v);
        dm_append(line, sizeof line, "runtime %s, ", v);
    }
    if (!col_null(r, "dmbench_version"))
        dm_append(line, sizeof line, "dmbench %s", col_text(r, "dmbench_version"));
    show_line(out, "versions", line);
    line[0] = '\0';
    if (!col_null(r, "git_commit"))
        dm_append(line, sizeof line, "%s%s", col_text(r, "git_commit"),
               col_int(r, "git_dirty") ? " (dirty)" : "");
    show_line(out, "commit", line);
    show_line(out, "build", col_text(r, "build_flags"));

    line[0] = '\0';
    if (!col_null(r, "measure_mode"))
        dm_append(line, sizeof line, "%s; %lld to %lld samples, stopping at %s %.2f%% "
               "(criterion %s) or after %g s", col_text(r, "measure_mode"),
               col_int(r, "min_samples"), col_int(r, "max_samples"),
               criterion_figure(col_null(r, "criterion") ? NULL : col_text(r, "criterion")),
               col_real(r, "max_noise") * 100,
               col_null(r, "criterion") ? "stdrel" : col_text(r, "criterion"),
               col_real(r, "max_time"));
    if (!col_null(r, "outlier_k"))
        dm_append(line, sizeof line, "; outliers above median + %g robust sd",
                  col_real(r, "outlier_k"));
    show_line(out, "measure", line);
}

/* Prints the run's point counts (from run row r) and notes. Returns 0 or DM_ERUNTIME. */
static int show_counts_notes(dm_store *st, sqlite3_stmt *r, int64_t id, FILE *out, dm_err *err)
{
    char line[512] = "";
    dm_append(line, sizeof line, "%lld in the sweep, %lld planned", col_int(r, "points_total"),
              col_int(r, "points_planned"));
    if (!col_null(r, "shard_count"))
        dm_append(line, sizeof line, " in shard %lld/%lld", col_int(r, "shard_index"),
                  col_int(r, "shard_count"));
    dm_append(line, sizeof line, "; stored:");
    sqlite3_stmt *s = read_prepare(st, "SELECT status, count(*) FROM points WHERE run_id = ?1"
                                       " GROUP BY status ORDER BY status", id);
    if (!s)
        return read_fail(st, err, "counting the points of run %lld", (long long)id);
    int rc, any = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        dm_append(line, sizeof line, "%s %lld %s", any++ ? "," : "", sqlite3_column_int64(s, 1),
               sqlite3_column_text(s, 0));
    if ((rc = read_end(st, s, rc, "counting the points", err)) != 0)
        return rc;
    if (!any)
        dm_append(line, sizeof line, " none");
    show_line(out, "points", line);

    /* How the measured points stopped: on the criterion's figure, or on a limit first. */
    const char *figure = criterion_figure(col_null(r, "criterion") ? NULL
                                                                   : col_text(r, "criterion"));
    s = read_prepare(st, "SELECT stop_reason, count(*), sum(n_outliers > 0) FROM point_stats"
                         " WHERE point_id IN (SELECT id FROM points WHERE run_id = ?1)"
                         " GROUP BY stop_reason ORDER BY count(*) DESC", id);
    if (!s)
        return read_fail(st, err, "reading how the points of run %lld stopped", (long long)id);
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
    if ((rc = read_end(st, s, rc, "reading how the points stopped", err)) != 0)
        return rc;
    if (measured) {
        dm_append(line, sizeof line, "; %lld of %lld with outliers", with_outliers, measured);
        show_line(out, "stopped", line);
    }

    /* What the harness cost beyond the samples: wall time less sampled time, per point
     * measured (warm-up, verification, datasets, the database all count). */
    s = read_prepare(st,
                     "SELECT (julianday(r.ended_at) - julianday(r.started_at)) * 86400,"
                     " (SELECT sum(m.seconds * m.batch) FROM samples m JOIN points p"
                     "   ON p.id = m.point_id WHERE p.run_id = r.id),"
                     " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'ok')"
                     " FROM runs r WHERE r.id = ?1", id);
    if (!s)
        return read_fail(st, err, "timing run %lld", (long long)id);
    if ((rc = sqlite3_step(s)) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL &&
        sqlite3_column_int64(s, 2) > 0) {
        double wall = sqlite3_column_double(s, 0), sampled = sqlite3_column_double(s, 1);
        long long n = sqlite3_column_int64(s, 2);
        snprintf(line, sizeof line, "wall %.2f s, samples %.2f s; %.2f ms per measured point beyond its samples",
                 wall, sampled, (wall - sampled) / (double)n * 1e3);
        show_line(out, "time", line);
        rc = SQLITE_DONE;
    }
    if ((rc = read_end(st, s, rc == SQLITE_ROW ? SQLITE_DONE : rc, "timing the run", err)) != 0)
        return rc;

    /* A point's own wall time, start to end (its dataset, reference, samples and all):
     * the median of the sorted times, and the longest. */
    s = read_prepare(st,
                     "SELECT (julianday(ended_at) - julianday(started_at)) * 86400 AS t,"
                     " count(*) OVER () FROM points WHERE run_id = ?1 AND status = 'ok'"
                     " AND ended_at IS NOT NULL ORDER BY t", id);
    if (!s)
        return read_fail(st, err, "timing the points of run %lld", (long long)id);
    double mid = 0, longest = 0;
    for (long long i = 0; (rc = sqlite3_step(s)) == SQLITE_ROW; i++) {
        long long n = sqlite3_column_int64(s, 1);
        longest = sqlite3_column_double(s, 0);
        if (i == (n - 1) / 2 || i == n / 2)
            mid += longest / (n % 2 ? 1 : 2);
    }
    if ((rc = read_end(st, s, rc, "timing the points", err)) != 0)
        return rc;
    if (longest > 0) {
        snprintf(line, sizeof line, "a point's wall time: median %.1f ms, longest %.1f ms",
                 mid * 1e3, longest * 1e3);
        show_line(out, "", line);
    }

    s = read_prepare(st, "SELECT key, value FROM run_notes WHERE run_id = ?1 ORDER BY key", id);
    if (!s)
        return read_fail(st, err, "reading the notes of run %lld", (long long)id);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(s, 1);
        snprintf(line, sizeof line, "%s = %s", sqlite3_column_text(s, 0), v ? v : "");
        show_line(out, "note", line);
    }
    return read_end(st, s, rc, "reading the notes", err);
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
        return read_fail(st, err, "reading the metrics of point %lld", (long long)point_id);
    while ((rc = sqlite3_step(m)) == SQLITE_ROW) {
        const char *unit = col_text(m, "unit");
        int mean = unit && strcmp(unit, "%") == 0;
        if (metrics++ == 0)
            dm_append(line, sizeof line, "%lld launch%s%s: ", col_int(m, "launches"),
                   col_int(m, "launches") == 1 ? "" : "es",
                   col_int(m, "launches") > 1 ? " (% as means, others summed)" : "");
        else
            dm_append(line, sizeof line, ", ");
        dm_append(line, sizeof line, "%s ", col_text(m, "metric"));
        append_metric(line, sizeof line, unit,
                      col_int(m, "known") ? col_real(m, mean ? "mean" : "total") : NAN);
        if (!reason[0] && col_text(m, "reason"))
            snprintf(reason, sizeof reason, "%s", col_text(m, "reason"));
    }
    if (rc != SQLITE_DONE)
        return read_fail(st, err, "reading the metrics of point %lld", (long long)point_id);
    if (metrics) {
        if (reason[0])
            dm_append(line, sizeof line, "; NULL: %s", reason);
        show_note(out, "metrics", line);
    }
    if ((rc = sqlite3_step(t)) == SQLITE_ROW) {
        char span[24], ov[24];
        line[0] = '\0';
        if (!col_null(t, "overlap")) {
            samples_fmt_seconds(col_real(t, "span_ns") * 1e-9, span, sizeof span);
            samples_fmt_seconds(col_real(t, "overlap_ns") * 1e-9, ov, sizeof ov);
            dm_append(line, sizeof line, "%lld activities on %lld stream%s, span %s, overlap ",
                   col_int(t, "activities"), col_int(t, "streams"),
                   col_int(t, "streams") == 1 ? "" : "s", span);
            if (col_int(t, "overlap_ns") > 0)
                dm_append(line, sizeof line, "%.1f%% (%s)", col_real(t, "overlap") * 100, ov);
            else
                dm_append(line, sizeof line, "none");
        }
        if (col_text(t, "reason"))
            dm_append(line, sizeof line, "%s%s", line[0] ? "; " : "", col_text(t, "reason"));
        show_note(out, "timeline", line);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE)
        return read_fail(st, err, "reading the timeline of point %lld", (long long)point_id);
    return 0;
}

/* A note under a point whose outliers are many (SHOW_MANY_OUTLIERS of its samples or
 * more), with what may explain them: throttled samples, the SM clock and the host core's
 * before and after. */
#define SHOW_MANY_OUTLIERS 0.05

static void show_outliers(sqlite3_stmt *s, FILE *out)
{
    long long k = col_int(s, "n_outliers"), n = col_int(s, "n");
    if (col_null(s, "n_outliers") || k < 3 || (double)k < SHOW_MANY_OUTLIERS * (double)n)
        return;
    char line[512];
    snprintf(line, sizeof line, "%lld of %lld samples above median + %g robust sd; ", k, n,
             col_real(s, "outlier_k"));
    if (col_int(s, "n_throttled") > 0)
        dm_append(line, sizeof line, "%lld samples throttled (%s)", col_int(s, "n_throttled"),
                  col_null(s, "throttle_reasons") ? "-" : col_text(s, "throttle_reasons"));
    else
        dm_append(line, sizeof line, "no sample throttled");
    if (!col_null(s, "sm_mhz_before") && !col_null(s, "sm_mhz_after"))
        dm_append(line, sizeof line, ", SM clock %.0f -> %.0f MHz",
                  col_real(s, "sm_mhz_before"), col_real(s, "sm_mhz_after"));
    if (col_real(s, "host_mhz_before") > 0 && col_real(s, "host_mhz_after") > 0)
        dm_append(line, sizeof line, ", host core %.0f -> %.0f MHz",
                  col_real(s, "host_mhz_before"), col_real(s, "host_mhz_after"));
    dm_append(line, sizeof line, "; a neighbour on the card or the host may be the cause");
    show_note(out, "outliers", line);
}

/* Room for a point's facts as text (a few hundred facts). */
#define STORE_FACTS_TEXT 16384

/* The table of the run's points, with each point's metrics, timeline and facts read by
 * mq, tq and fq. Returns 0 or DM_ERUNTIME. */
static int show_point_rows(dm_store *st, int64_t id, int has_baseline, sqlite3_stmt *mq,
                           sqlite3_stmt *tq, sqlite3_stmt *fq, FILE *out, dm_err *err)
{
    sqlite3_stmt *s = read_prepare(
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
        return read_fail(st, err, "reading the points of run %lld", (long long)id);
    int rc, rows = 0, vw = 0, pw = 0, gbs = 0, opsw = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (rows++ == 0) {
            vw = (int)col_int(s, "variant_w");
            pw = (int)col_int(s, "params_w");
            vw = vw < 7 ? 7 : vw;
            pw = pw < 6 ? 6 : pw;
            gbs = col_int(s, "with_gbs") > 0;
            char ops_head[64] = "";
            if (!col_null(s, "ops_unit"))
                snprintf(ops_head, sizeof ops_head, "%s/s", col_text(s, "ops_unit"));
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
        snprintf(n, sizeof n, col_null(s, "n") ? "-" : "%lld", col_int(s, "n"));
        snprintf(outl, sizeof outl, col_null(s, "n_outliers") ? "-" : "%lld",
                 col_int(s, "n_outliers"));
        const char *stop = col_null(s, "stop_reason") ? "-" : col_text(s, "stop_reason");
        stop = strcmp(stop, "max_time") == 0 ? "time" : strcmp(stop, "max_samples") == 0 ? "samples" : stop;
        if (strcmp(stop, "noise") == 0) /* the figure it stopped on */
            stop = criterion_figure(col_null(s, "criterion") ? NULL : col_text(s, "criterion"));
        samples_fmt_seconds(col_real(s, "median"), median, sizeof median);
        fmt_or_dash(ci95, sizeof ci95, "%.2f%%", col_real(s, "ci95") * 100);
        fmt_or_dash(rsd, sizeof rsd, "%.2f%%", col_real(s, "rsd") * 100);
        samples_fmt_seconds(col_real(s, "min"), mn, sizeof mn);
        samples_fmt_seconds(col_real(s, "max"), mx, sizeof mx);
        fmt_sig3(col_real(s, "gb_per_s"), gb, sizeof gb);
        fmt_or_dash(ops, sizeof ops, "%.3g", col_real(s, "ops_per_s"));
        fmt_or_dash(sp, sizeof sp, "%.2fx", col_real(s, "speedup"));
        const char *verify = col_text(s, "verification");
        fprintf(out, "%5lld  %-*s  %-*s  %-7s  %6s  %9s  %7s  %7s  %-7s  %5s  %9s  %9s",
                col_int(s, "idx"), vw, col_text(s, "variant"), pw, col_text(s, "params"),
                col_text(s, "status"), n, median, ci95, rsd, stop, outl, mn, mx);
        if (gbs)
            fprintf(out, "  %8s", gb);
        if (opsw)
            fprintf(out, "  %*s", opsw, ops);
        if (has_baseline)
            fprintf(out, "  %8s", sp);
        fprintf(out, "  %s\n", verify ? verify : "-");

        const char *reason = col_text(s, "reason");
        if (reason && strcmp(col_text(s, "status"), "ok") != 0)
            show_note(out, "reason", reason);
        const char *detail = col_text(s, "verification_detail");
        if (detail && (!reason || !strstr(reason, detail)))
            show_note(out, "verification", detail);
        if (!col_null(s, "chosen"))
            show_note(out, "chosen", col_text(s, "chosen"));
        show_outliers(s, out);
        char facts[STORE_FACTS_TEXT];
        if (show_cupti(st, mq, tq, col_int(s, "point_id"), out, err) != 0 ||
            store_facts_text(st, fq, col_int(s, "point_id"), "\n", facts, sizeof facts,
                             err) != 0) {
            sqlite3_finalize(s);
            return DM_ERUNTIME;
        }
        if (facts[0])
            show_note(out, "facts", facts);
    }
    if (rows == 0 && rc == SQLITE_DONE)
        fprintf(out, "\nno points measured\n");
    if ((rc = read_end(st, s, rc, "reading the points", err)) != 0)
        return rc;
    /* Points that never ran are told by reason, not one row each. */
    s = read_prepare(st, "SELECT status, reason, count(*), min(idx) FROM points"
                         " WHERE run_id = ?1 AND status IN ('skipped', 'pruned')"
                         " GROUP BY status, reason ORDER BY min(idx)", id);
    if (!s)
        return read_fail(st, err, "reading the skipped points of run %lld", (long long)id);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        fprintf(out, "%s %lld point%s (from idx %lld): %s\n", sqlite3_column_text(s, 0),
                sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 2) == 1 ? "" : "s",
                sqlite3_column_int64(s, 3),
                sqlite3_column_text(s, 1) ? (const char *)sqlite3_column_text(s, 1) : "-");
    return read_end(st, s, rc, "reading the skipped points", err);
}

/* Prints the table of the run's points. Returns 0 or DM_ERUNTIME. */
static int show_points(dm_store *st, int64_t id, int has_baseline, FILE *out, dm_err *err)
{
    sqlite3_stmt *mq = read_prepare(
        st,
        "SELECT metric, unit, count(value) AS known, sum(value) AS total, avg(value) AS mean,"
        " min(reason) AS reason,"
        " (SELECT count(*) FROM launches WHERE point_id = ?1) AS launches"
        " FROM metrics WHERE point_id = ?1 GROUP BY metric ORDER BY min(rowid)", 0);
    sqlite3_stmt *tq = read_prepare(
        st, "SELECT activities, streams, span_ns, overlap_ns, overlap, reason FROM timelines"
            " WHERE point_id = ?1", 0);
    sqlite3_stmt *fq = store_facts_prepare(st);
    int rc = !mq || !tq || !fq
                 ? read_fail(st, err, "reading the metrics and facts of run %lld", (long long)id)
                 : show_point_rows(st, id, has_baseline, mq, tq, fq, out, err);
    sqlite3_finalize(mq);
    sqlite3_finalize(tq);
    sqlite3_finalize(fq);
    return rc;
}

int store_show_run(dm_store *st, int64_t run_id, FILE *out, dm_err *err)
{
    int64_t id = 0;
    int rc = resolve_run(st, run_id, &id, err);
    if (rc != 0)
        return rc;
    sqlite3_stmt *r = read_prepare(st, "SELECT r.*, " STORE_READ_STATUS " AS shown_status"
                                       " FROM runs r WHERE r.id = ?1", id);
    if (!r || sqlite3_step(r) != SQLITE_ROW) {
        rc = read_fail(st, err, "reading run %lld", (long long)id);
        sqlite3_finalize(r);
        return rc;
    }
    show_fingerprint(r, out);
    if ((rc = show_counts_notes(st, r, id, out, err)) == 0 &&
        (rc = show_points(st, id, !col_null(r, "baseline"), out, err)) == 0)
        rc = check_output(st, out, err);
    sqlite3_finalize(r);
    return rc;
}

/* ---- export ---- */

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
    if (col_null(s, first)) {
        fputs("null", out);
        return;
    }
    fputc('{', out);
    json_members(out, s, col(s, first), col(s, last));
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
    sqlite3_stmt *s = read_prepare(st, "SELECT pp.name FROM point_params pp"
                                       " JOIN points p ON p.id = pp.point_id"
                                       " WHERE p.run_id = ?1"
                                       " GROUP BY pp.name ORDER BY min(pp.rowid)", id);
    if (!s)
        return read_fail(st, err, "listing the parameters of run %lld", (long long)id);
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
    return read_end(st, s, rc, "listing the parameters", err);
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
            if (sqlite3_bind_int64(pv, 1, col_int(p, "point_id")) != SQLITE_OK ||
                sqlite3_bind_text(pv, 2, names->names[k], -1, SQLITE_STATIC) != SQLITE_OK)
                return read_fail(st, err, "reading parameter %s", names->names[k]);
            int rc = sqlite3_step(pv);
            if (rc == SQLITE_ROW)
                csv_text(out, (const char *)sqlite3_column_text(pv, 0));
            else if (rc != SQLITE_DONE)
                return read_fail(st, err, "reading parameter %s", names->names[k]);
        }
        if (i)
            fputc(',', out);
        csv_column(out, p, i);
    }
    char facts[STORE_FACTS_TEXT];
    if (store_facts_text(st, fq, col_int(p, "point_id"), "; ", facts, sizeof facts, err) != 0)
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
    p = read_prepare(st, export_sql, id);
    if (p)
        pv = read_prepare(st, "SELECT value_text FROM point_params"
                              " WHERE point_id = ?1 AND name = ?2", 0);
    if (pv)
        fq = store_facts_prepare(st);
    if (!p || !pv || !fq) {
        rc = read_fail(st, err, "exporting run %lld", (long long)id);
        goto out;
    }
    csv_header(out, p, &names);
    while ((rc = sqlite3_step(p)) == SQLITE_ROW)
        if (csv_row(st, out, p, pv, fq, &names, err) != 0)
            break;
    /* SQLITE_ROW here: a row's writer failed and said why in err. */
    rc = rc == SQLITE_DONE  ? 0
         : rc == SQLITE_ROW ? DM_ERUNTIME
                            : read_fail(st, err, "exporting the points of run %lld", (long long)id);
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
    sqlite3_stmt *s = read_prepare(st, "SELECT * FROM runs WHERE id = ?1", id);
    if (!s || sqlite3_step(s) != SQLITE_ROW) {
        int rc = read_fail(st, err, "reading run %lld", (long long)id);
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
    s = read_prepare(st, "SELECT key, value FROM run_notes WHERE run_id = ?1 ORDER BY key", id);
    if (!s)
        return read_fail(st, err, "reading the notes of run %lld", (long long)id);
    int rc, n = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        fputs(n++ ? ", " : "", out);
        json_write_string(out, (const char *)sqlite3_column_text(s, 0));
        fputs(": ", out);
        json_column(out, s, 1);
    }
    fputs("}\n  },\n", out);
    return read_end(st, s, rc, "reading the notes", err);
}

/* Writes the typed parameters of point_id as a JSON object, read with pp. Returns 0 or
 * DM_ERUNTIME. */
static int json_params(dm_store *st, FILE *out, sqlite3_stmt *pp, int64_t point_id,
                       dm_err *err)
{
    int rc, n = 0;
    sqlite3_reset(pp);
    if (sqlite3_bind_int64(pp, 1, point_id) != SQLITE_OK)
        return read_fail(st, err, "reading the parameters of point %lld", (long long)point_id);
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
        return read_fail(st, err, "reading the parameters of point %lld", (long long)point_id);
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
        return read_fail(st, err, "reading the samples of point %lld", (long long)point_id);
    fputc('[', out);
    while ((rc = sqlite3_step(sm)) == SQLITE_ROW) {
        fputs(n++ ? ", " : "", out);
        json_column(out, sm, 0);
    }
    fputc(']', out);
    if (rc != SQLITE_DONE)
        return read_fail(st, err, "reading the samples of point %lld", (long long)point_id);
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
        return read_fail(st, err, "reading %s of point %lld", key, (long long)point_id);
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
        return read_fail(st, err, "reading %s of point %lld", key, (long long)point_id);
    return 0;
}

/* Writes the point of export_sql's row p: its own columns, "params", the dataset, "stats"
 * (null when not timed), throughput, verification and speedup, "samples", what CUPTI
 * gave and its facts (read with the json_hung queries cq). Returns 0 or DM_ERUNTIME. */
static int json_point(dm_store *st, FILE *out, sqlite3_stmt *p, sqlite3_stmt *pp,
                      sqlite3_stmt *sm, sqlite3_stmt *const *cq, dm_err *err)
{
    int64_t point_id = col_int(p, "point_id");
    fputc('{', out);
    json_members(out, p, 0, col(p, "ended_at"));
    fputs(", \"params\": ", out);
    if (json_params(st, out, pp, point_id, err) != 0)
        return DM_ERUNTIME;
    fputs(", ", out);
    json_members(out, p, col(p, "dataset"), col(p, "dataset_bytes"));
    json_group(out, p, "stats", "n_samples", "throttle_reasons");
    fputs(", ", out);
    json_members(out, p, col(p, "bytes_per_run"), col(p, "speedup"));
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
        if (!(cq[i] = read_prepare(st, json_hung[i].sql, 0))) {
            rc = read_fail(st, err, "exporting run %lld", (long long)id);
            goto out;
        }
    if (!(p = read_prepare(st, export_sql, id)) ||
        !(pp = read_prepare(st, "SELECT name, type, value_text, value_num FROM point_params"
                                 " WHERE point_id = ?1 ORDER BY rowid", 0)) ||
        !(sm = read_prepare(st, "SELECT seconds FROM samples WHERE point_id = ?1"
                                " ORDER BY idx", 0))) {
        rc = read_fail(st, err, "exporting run %lld", (long long)id);
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
                            : read_fail(st, err, "exporting the points of run %lld", (long long)id);
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
    int rc = resolve_run(st, run_id, &id, err);
    if (rc == 0)
        rc = fmt == DM_EXPORT_JSON ? export_json(st, id, out, err)
                                   : export_csv(st, id, out, err);
    return rc != 0 ? rc : check_output(st, out, err);
}
