/* report_runs.c - the report's runs section: a table of the runs, then each run's
 * fingerprint (GPU, clocks, versions, commit, command line) and, folded, every point
 * (a column per parameter that varies, the constants said once; median and noise,
 * throughput and speedup where known), then, folded too, the points' facts
 * (report_facts.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "report_int.h"
#include "samples.h"

/* Sets err from SQLite's message about what and returns DM_ERUNTIME. */
static int runs_fail(const dm_report_ctx *c, const char *what, long long run, dm_err *err)
{
    return dm_err_set(err, DM_ERUNTIME, "%s: %s of run %lld: %s", store_path(c->st), what, run,
                      sqlite3_errmsg(store_db(c->st)));
}

/* Column i of s as text; NULL when SQL NULL. */
static const char *text(sqlite3_stmt *s, int i)
{
    return (const char *)sqlite3_column_text(s, i);
}

static int null(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL;
}

/* Column i, a real, in buf with fmt; "-" when NULL. */
static const char *real_or_dash(sqlite3_stmt *s, int i, const char *fmt, double scale,
                                char *buf, size_t n)
{
    if (null(s, i))
        return "-";
    snprintf(buf, n, fmt, sqlite3_column_double(s, i) * scale);
    return buf;
}

/* bytes in GiB or MiB. */
static void fmt_bytes(double b, char *buf, size_t n)
{
    if (b >= 1 << 30)
        snprintf(buf, n, "%.1f GiB", b / (1 << 30));
    else
        snprintf(buf, n, "%.1f MiB", b / (1 << 20));
}

static void fmt_cuda_version(sqlite3_stmt *s, int i, char *buf, size_t n)
{
    long long v = sqlite3_column_int64(s, i);
    if (null(s, i))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%lld.%lld", v / 1000, v % 1000 / 10);
}

#define RUN_COLS                                                                         \
    "r.id, r.sweep_name, r.workload, r.gpu_name, r.started_at, r.status,"                \
    " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'ok'),"        \
    " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'failed'),"    \
    " r.ended_at, r.host, r.gpu_cc, r.gpu_sms, r.gpu_l2_bytes, r.gpu_mem_bytes,"         \
    " r.gpu_uuid, r.gpu_pci_bus_id, r.no_gpu_reason, r.sm_clock_mhz_start,"              \
    " r.mem_clock_mhz_start, r.clock_source, r.driver_version, r.runtime_version,"       \
    " r.dmbench_version, r.git_commit, r.git_dirty, r.build_flags, r.argv, r.sweep_path," \
    " r.baseline, r.measure_mode, r.min_samples, r.max_samples, r.max_noise, r.max_time," \
    " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'skipped'),"   \
    " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'pruned')"
enum {
    R_ID, R_SWEEP, R_WORKLOAD, R_GPU, R_STARTED, R_STATUS, R_OK, R_FAILED, R_ENDED, R_HOST,
    R_CC, R_SMS, R_L2, R_MEM, R_UUID, R_PCI, R_NOGPU, R_SMCLK, R_MEMCLK, R_CLKSRC,
    R_DRIVER, R_RUNTIME, R_VERSION, R_COMMIT, R_DIRTY, R_BUILD, R_ARGV, R_SWEEP_PATH,
    R_BASELINE, R_MODE, R_MIN_SAMPLES, R_MAX_SAMPLES, R_MAX_NOISE, R_MAX_TIME, R_SKIPPED,
    R_PRUNED,
};

/* One row of the fingerprint table, when value is not NULL or empty. */
static void field(dm_report_doc *d, const char *name, const char *value)
{
    if (value && value[0])
        report_table_row(d, (const char *[]){ name, value });
}

/* The fingerprint of run row r as a two-column table. */
static void fingerprint(dm_report_doc *d, sqlite3_stmt *r)
{
    char gpu[512], l2[32], mem[32], clocks[256], versions[256], commit[128], measure[256];
    gpu[0] = clocks[0] = '\0';
    if (!null(r, R_GPU)) {
        fmt_bytes(sqlite3_column_double(r, R_L2), l2, sizeof l2);
        fmt_bytes(sqlite3_column_double(r, R_MEM), mem, sizeof mem);
        snprintf(gpu, sizeof gpu, "%s, cc %s, %lld SMs, L2 %s, memory %s%s%s%s%s",
                 text(r, R_GPU), null(r, R_CC) ? "?" : text(r, R_CC),
                 (long long)sqlite3_column_int64(r, R_SMS), l2, mem,
                 null(r, R_UUID) ? "" : ", ", null(r, R_UUID) ? "" : text(r, R_UUID),
                 null(r, R_PCI) ? "" : ", PCI ", null(r, R_PCI) ? "" : text(r, R_PCI));
    }
    if (!null(r, R_SMCLK) || !null(r, R_MEMCLK)) {
        char sm[32], mc[32];
        snprintf(clocks, sizeof clocks, "SM %s MHz, memory %s MHz at start%s%s",
                 real_or_dash(r, R_SMCLK, "%.0f", 1, sm, sizeof sm),
                 real_or_dash(r, R_MEMCLK, "%.0f", 1, mc, sizeof mc),
                 null(r, R_CLKSRC) ? "" : "; read by ", null(r, R_CLKSRC) ? "" : text(r, R_CLKSRC));
    }
    char drv[48], rt[48];
    fmt_cuda_version(r, R_DRIVER, drv, sizeof drv);
    fmt_cuda_version(r, R_RUNTIME, rt, sizeof rt);
    snprintf(versions, sizeof versions, "driver %s, runtime %s, dmbench %s", drv, rt,
             null(r, R_VERSION) ? "-" : text(r, R_VERSION));
    snprintf(commit, sizeof commit, "%s%s", null(r, R_COMMIT) ? "-" : text(r, R_COMMIT),
             sqlite3_column_int(r, R_DIRTY) ? " (dirty)" : "");
    measure[0] = '\0';
    if (!null(r, R_MODE))
        snprintf(measure, sizeof measure, "%s; %lld to %lld samples, stopping at %.2f%% noise"
                 " or after %g s", text(r, R_MODE), (long long)sqlite3_column_int64(r, R_MIN_SAMPLES),
                 (long long)sqlite3_column_int64(r, R_MAX_SAMPLES),
                 sqlite3_column_double(r, R_MAX_NOISE) * 100, sqlite3_column_double(r, R_MAX_TIME));

    report_table_begin(d, 2, (const char *[]){ "field", "value" });
    field(d, "status", text(r, R_STATUS));
    field(d, "started", text(r, R_STARTED));
    field(d, "ended", text(r, R_ENDED));
    field(d, "host", text(r, R_HOST));
    field(d, "GPU", gpu);
    field(d, "no GPU", text(r, R_NOGPU));
    field(d, "clocks", clocks);
    field(d, "versions", versions);
    field(d, "commit", commit);
    field(d, "build", text(r, R_BUILD));
    field(d, "command", text(r, R_ARGV));
    field(d, "sweep file", text(r, R_SWEEP_PATH));
    field(d, "baseline", text(r, R_BASELINE));
    field(d, "measurement", measure);
    report_table_end(d);
}

/* The header of run id's table of points into head (n of them): idx, variant, a column
 * per axis of ax that varies, then the statistics, with GB/s, speedup and the values
 * chosen for the card where the run has them. */
static int points_head(const report_axes *ax, int gbs, int has_baseline, int chosen,
                       const char **head)
{
    int n = 0;
    head[n++] = "idx";
    head[n++] = "variant";
    for (int k = 0; k < ax->n; k++)
        if (ax->varies[k])
            head[n++] = ax->name[k];
    static const char *const stats[] = { "status", "samples", "median", "noise", "stopped on",
                                         "outliers" };
    for (size_t i = 0; i < sizeof stats / sizeof *stats; i++)
        head[n++] = stats[i];
    if (gbs)
        head[n++] = "GB/s";
    if (has_baseline)
        head[n++] = "speedup";
    head[n++] = "verification";
    if (chosen) /* values chosen for the card, and the rule that chose each */
        head[n++] = "chosen for the card";
    return n;
}

/* The folded table of run id's points (ok, failed and skipped), a column per parameter
 * that varies, the others said once above it. Returns 0 or DM_ERUNTIME. */
static int points(const dm_report_ctx *c, long long id, int has_baseline, dm_err *err)
{
    report_axes ax;
    sqlite3_stmt *s = NULL;
    if (report_axes_read(c->st, id, &ax, err))
        return err->code;
    if (sqlite3_prepare_v2(
            store_db(c->st),
            "SELECT s.idx, s.variant, s.reason, s.status, s.n, s.median,"
            " CASE WHEN s.criterion IS NULL THEN s.noise ELSE s.criterion_value END, s.gb_per_s,"
            " sp.speedup, s.verification,"
            " (SELECT count(gb_per_s) FROM v_point_summary WHERE run_id = ?1),"
            " s.n_outliers, s.stop_reason,"
            " (SELECT chosen FROM points WHERE id = s.point_id),"
            " (SELECT count(chosen) FROM points WHERE run_id = ?1)"
            " FROM v_point_summary s LEFT JOIN v_speedup sp ON sp.point_id = s.point_id"
            " WHERE s.run_id = ?1 AND s.status IN ('ok', 'failed', 'skipped') ORDER BY s.idx",
            -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(s, 1, id) != SQLITE_OK) {
        sqlite3_finalize(s);
        report_axes_free(&ax);
        return runs_fail(c, "reading the points", id, err);
    }
    int rc, rows = 0, gbs = 0, chosen = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (rows++ == 0) {
            const char *head[REPORT_MAX_COLS];
            char summary[128], constants[2048];
            gbs = sqlite3_column_int64(s, 10) > 0;
            chosen = sqlite3_column_int64(s, 14) > 0;
            snprintf(summary, sizeof summary, "Every point of run %lld (%zu)", id, ax.npoints);
            report_details_begin(c->doc, summary);
            report_axes_constants(&ax, NULL, constants, sizeof constants);
            if (constants[0])
                report_para(c->doc, "The same in every point: %s.", constants);
            report_table_begin(c->doc, points_head(&ax, gbs, has_baseline, chosen, head), head);
        }
        char idx[24], ns[24], median[24], noise[24], gb[24], sp[24], outl[24], status[512];
        const char *cells[REPORT_MAX_COLS];
        int64_t at = sqlite3_column_int64(s, 0);
        int n = 0;
        snprintf(idx, sizeof idx, "%lld", (long long)at);
        samples_fmt_seconds(null(s, 5) ? NAN : sqlite3_column_double(s, 5), median, sizeof median);
        snprintf(status, sizeof status, "%s%s%s", text(s, 3), null(s, 2) ? "" : ": ",
                 null(s, 2) ? "" : text(s, 2));
        cells[n++] = idx;
        cells[n++] = text(s, 1);
        for (int k = 0; k < ax.n; k++)
            if (ax.varies[k])
                cells[n++] = report_axes_value(&ax, at, k);
        cells[n++] = status;
        cells[n++] = real_or_dash(s, 4, "%.0f", 1, ns, sizeof ns);
        cells[n++] = median;
        cells[n++] = real_or_dash(s, 6, "%.2f%%", 100, noise, sizeof noise);
        cells[n++] = null(s, 12) ? "-" : text(s, 12);
        cells[n++] = real_or_dash(s, 11, "%.0f", 1, outl, sizeof outl);
        if (gbs)
            cells[n++] = real_or_dash(s, 7, "%.1f", 1, gb, sizeof gb);
        if (has_baseline)
            cells[n++] = real_or_dash(s, 8, "%.2fx", 1, sp, sizeof sp);
        cells[n++] = null(s, 9) ? "-" : text(s, 9);
        if (chosen)
            cells[n++] = null(s, 13) ? "-" : text(s, 13);
        report_table_row(c->doc, cells);
    }
    if (rows) {
        report_table_end(c->doc);
        report_details_end(c->doc);
    } else if (rc == SQLITE_DONE) {
        report_para(c->doc, "No points measured.");
    }
    sqlite3_finalize(s);
    report_axes_free(&ax);
    return rc == SQLITE_DONE ? 0 : runs_fail(c, "reading the points", id, err);
}

/* One run's subsection. Returns 0 or DM_ERUNTIME. */
static int run_detail(const dm_report_ctx *c, sqlite3_stmt *r, dm_err *err)
{
    char title[512], anchor[32];
    long long id = sqlite3_column_int64(r, R_ID);
    snprintf(title, sizeof title, "Run %lld: %s (%s)", id,
             null(r, R_SWEEP) ? "-" : text(r, R_SWEEP), null(r, R_WORKLOAD) ? "-" : text(r, R_WORKLOAD));
    snprintf(anchor, sizeof anchor, "run-%lld", id);
    report_heading(c->doc, 3, anchor, title);
    fingerprint(c->doc, r);
    long long pruned = sqlite3_column_int64(r, R_PRUNED);
    if (pruned)
        report_para(c->doc, "%lld point%s pruned by constraints (not listed).", pruned,
                    pruned == 1 ? "" : "s");
    int rc = points(c, id, !null(r, R_BASELINE), err);
    return rc ? rc : report_facts(c, id, err);
}

int report_runs(const dm_report_ctx *c, dm_err *err)
{
    static const char *const head[] = { "run", "sweep", "workload", "card", "started (UTC)",
                                        "status", "points ok", "points failed",
                                        "points skipped" };
    sqlite3_stmt *r = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(store_db(c->st), "SELECT " RUN_COLS " FROM runs r WHERE r.id = ?1",
                           -1, &r, NULL) != SQLITE_OK)
        return runs_fail(c, "reading the fingerprint", 0, err);
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        if (pass == 0)
            report_table_begin(c->doc, 9, head);
        for (size_t i = 0; i < c->nruns && rc == 0; i++) {
            sqlite3_reset(r);
            if (sqlite3_bind_int64(r, 1, c->runs[i]) != SQLITE_OK ||
                sqlite3_step(r) != SQLITE_ROW) {
                rc = runs_fail(c, "reading the fingerprint", (long long)c->runs[i], err);
                break;
            }
            char ok[24], failed[24], skipped[24];
            snprintf(ok, sizeof ok, "%lld", (long long)sqlite3_column_int64(r, R_OK));
            snprintf(failed, sizeof failed, "%lld", (long long)sqlite3_column_int64(r, R_FAILED));
            snprintf(skipped, sizeof skipped, "%lld", (long long)sqlite3_column_int64(r, R_SKIPPED));
            if (pass == 0)
                report_table_row(c->doc, (const char *[]){ text(r, R_ID), text(r, R_SWEEP),
                                                           text(r, R_WORKLOAD),
                                                           null(r, R_GPU) ? "no GPU" : text(r, R_GPU),
                                                           text(r, R_STARTED), text(r, R_STATUS),
                                                           ok, failed, skipped });
            else
                rc = run_detail(c, r, err);
        }
        if (pass == 0 && rc == 0)
            report_table_end(c->doc);
    }
    sqlite3_finalize(r);
    return rc;
}
