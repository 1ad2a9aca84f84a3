/* test_store.c - the results database: schema version and migrations, refusing files it
 * cannot use, the run, dataset and point writers (round trips, atomicity), the resume
 * helpers, the best-bandwidth query, the speedup view, and two processes writing one
 * database at once. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "query.h"
#include "store_fixture.h"

/* A measurement of three samples around median, with q1 unknown (NaN). */
typedef struct toy_measure {
    dm_sample samples[3];
    dm_measurement m;
} toy_measure;

static void toy_measurement(toy_measure *t, double median)
{
    memset(t, 0, sizeof *t);
    t->samples[0] = (dm_sample){ .seconds = median * 0.9, .batch = 1, .throttled = 0,
                                 .sm_mhz = 1980 };
    t->samples[1] = (dm_sample){ .seconds = median, .batch = 1, .throttled = 1, .sm_mhz = NAN,
                                 .outlier = 1 };
    t->samples[2] = (dm_sample){ .seconds = median * 1.1, .batch = 1, .throttled = 0,
                                 .sm_mhz = 1965 };
    t->m.samples = t->samples;
    t->m.n = 3;
    t->m.stats = (dm_stats){ .n = 3, .min = median * 0.9, .q1 = NAN, .median = median,
                             .mean = median, .q3 = median * 1.05, .max = median * 1.1,
                             .stdev = median * 0.1, .noise = 0.1, .median_lo = NAN,
                             .median_hi = NAN, .mad = median * 0.1 };
    t->m.stop_reason = "noise";
    t->m.criterion = "median";
    t->m.criterion_value = NAN;
    t->m.outlier_k = 3.5;
    t->m.n_outliers = 1;
    t->m.mode = DM_MODE_COLD;
    t->m.batch = 1;
    t->m.warmup_seconds = 0.01;
    t->m.elapsed = 0.5;
    t->m.clock_source = "nvml";
    t->m.sm_mhz_before = 1980;
    t->m.sm_mhz_after = NAN;
    t->m.host_mhz_before = 3300;
    t->m.host_mhz_after = NAN;
    t->m.n_throttled = 1;
    snprintf(t->m.throttle_reasons, sizeof t->m.throttle_reasons, "sw_power_cap");
}

/* Stores an ok point (or a failed one when median is NaN) and returns its id. */
static int64_t toy_store(dm_store *st, int64_t run, int64_t idx, int variant, int64_t n,
                         const char *op, double median)
{
    dm_point pt;
    toy_measure t;
    dm_err err = { 0 };
    int64_t id = 0;
    afx_toy_point(&pt, variant, n, op, 128, 0.25);
    toy_measurement(&t, median);
    dm_point_result r = { .run_id = run, .index = idx, .point = &pt,
                          .status = isnan(median) ? "failed" : "ok",
                          .reason = isnan(median) ? "setup: out of memory" : NULL,
                          .verify = isnan(median) ? "not-run" : "match",
                          .m = isnan(median) ? NULL : &t.m, .started = 1.7e9, .ended = 1.7e9 + 1 };
    int rc = store_point(st, &r, &id, &err);
    if (rc != 0)
        fail_msg("store_point: %s", err.msg);
    return id;
}

/* ---- fixture: a fresh directory per test, the database in a sub/ store_open makes ---- */

static int setup(void **state)
{
    if (afx_setup_empty(state) != 0)
        return -1;
    afx *f = *state;
    snprintf(f->path, sizeof f->path, "%s/sub/test.sqlite", f->dir);
    return 0;
}

static dm_store *open_ok(afx *f)
{
    assert_int_equal(afx_open_store(f), 0);
    return f->st;
}

static int64_t begin_run(dm_store *st, const char *sweep, const char *text, const char *baseline)
{
    dm_err err = { 0 };
    int64_t id = 0;
    dm_run_info info = { .sweep_name = sweep, .sweep_text = text, .workload = "toy",
                         .baseline = baseline, .sm_clock_mhz_start = NAN,
                         .mem_clock_mhz_start = NAN };
    if (store_run_begin(st, &info, &id, &err) != 0)
        fail_msg("store_run_begin: %s", err.msg);
    return id;
}

/* ---- schema and opening ---- */

static void test_fresh_db_gets_schema_version_10(void **state)
{
    afx *f = *state;
    char buf[64];
    dm_err err = { 0 };
    int version = -1;
    dm_store *st = open_ok(f);
    assert_int_equal(store_schema_version(), 10);
    assert_int_equal(store_db_version(st, &version, &err), 0);
    assert_int_equal(version, 10);
    assert_int_equal(afx_int(st, "PRAGMA user_version"), 10);
    assert_int_equal(afx_int(st, "SELECT max(version) FROM schema_version"), 10);
    assert_string_equal(afx_text(st, "PRAGMA journal_mode", buf, sizeof buf), "wal");
    assert_int_equal(afx_int(st, "PRAGMA foreign_keys"), 1);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM sqlite_schema WHERE name IN ('runs',"
                                 "'run_notes','datasets','points','point_params','samples',"
                                 "'point_stats','verifications','metrics','v_point_summary',"
                                 "'v_speedup','crossover_fits','point_facts',"
                                 "'crossover_groups','tuned_choices')"),
                     15);
}

static void test_runs_have_a_uid_and_a_shard_and_points_a_device(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    dm_err err = { 0 };
    int64_t whole = begin_run(st, "s", "t", NULL), shard = 0;
    dm_run_info info = { .sweep_name = "s", .sweep_text = "t", .sm_clock_mhz_start = NAN,
                         .mem_clock_mhz_start = NAN, .shard = { .index = 2, .count = 5 } };
    assert_int_equal(store_run_begin(st, &info, &shard, &err), 0);
    assert_int_equal(afx_int(st, "SELECT count(DISTINCT uid) FROM runs WHERE length(uid) = 32"
                                 " AND uid NOT GLOB '*[^0-9a-f]*'"), 2);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM runs WHERE id = %lld AND shard_index IS NULL"
             " AND shard_count IS NULL", (long long)whole);
    assert_int_equal(afx_int(st, sql), 1);
    snprintf(sql, sizeof sql, "SELECT shard_index * 10 + shard_count FROM runs WHERE id = %lld",
             (long long)shard);
    assert_int_equal(afx_int(st, sql), 25);
    /* a point knows the GPU it ran on; one that ran on none, none */
    dm_point pt;
    dm_device dev = { .index = 1 };
    afx_toy_point(&pt, 0, 1024, "copy", 128, 0.25);
    dm_point_result r = { .run_id = shard, .index = 1, .point = &pt, .status = "skipped",
                          .device = &dev };
    assert_int_equal(store_point(st, &r, NULL, &err), 0);
    r.index = 6;
    r.device = NULL;
    assert_int_equal(store_point(st, &r, NULL, &err), 0);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM points WHERE idx = 1 AND device = 1"), 1);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM points WHERE idx = 6 AND device IS NULL"),
                     1);
    /* --resume finds a shard's run only for that shard */
    int64_t found = -1;
    dm_run_origin origin;
    assert_int_equal(store_run_end(st, shard, "interrupted", &err), 0);
    assert_int_equal(store_run_end(st, whole, "interrupted", &err), 0);
    assert_int_equal(store_find_resumable(st, "s", "t", info.shard, &found, &origin, &err), 0);
    assert_int_equal(found, shard);
    assert_int_equal(store_find_resumable(st, "s", "t", (dm_shard){ .index = 1, .count = 5 },
                                          &found, &origin, &err), 0);
    assert_int_equal(found, 0);
    assert_int_equal(store_find_resumable(st, "s", "t", (dm_shard){ 0 }, &found, &origin, &err),
                     0);
    assert_int_equal(found, whole);
}

static void test_reopen_is_idempotent(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    int64_t run = begin_run(st, "s", "t", NULL);
    store_close(st);
    st = open_ok(f);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM schema_version"), 10);
    assert_int_equal(afx_int(st, "PRAGMA user_version"), 10);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM runs"), 1);
    assert_int_equal(afx_int(st, "SELECT max(id) FROM runs"), run);
}

/* Makes path a version-3 database: schema.sql up to its version-4 section, with a
 * crossover fit stored as dmbench 3 wrote them (no `below`) and two runs (no uid). */
static void make_version_3(const char *path)
{
    char file[512], *sql = malloc(1 << 20);
    snprintf(file, sizeof file, "%s/results/store/schema.sql", DM_SOURCE_DIR);
    FILE *fp = fopen(file, "r");
    assert_non_null(fp);
    assert_non_null(sql);
    size_t n = fread(sql, 1, (1 << 20) - 1, fp);
    fclose(fp);
    sql[n] = '\0';
    char *v4 = strstr(sql, "-- ==== version 4");
    assert_non_null(v4);
    *v4 = '\0';
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        fail_msg("version 3 schema: %s", sqlite3_errmsg(db));
    assert_int_equal(sqlite3_exec(db,
                                  "INSERT INTO schema_version VALUES (1, '2026-01-01'),"
                                  " (2, '2026-01-02'), (3, '2026-01-03');"
                                  "PRAGMA user_version = 3;"
                                  "INSERT INTO crossover_fits (created_at, card, workload,"
                                  " variant_a, variant_b, axis, grp, form, a, b, n, better)"
                                  " VALUES ('2026-01-03', 'NVIDIA H100 80GB HBM3', 'tdm',"
                                  " 'block-tex', 'thread-tex', 'count', 'level', 'a/N + b',"
                                  " 100000, 5000, 4, 1);"
                                  "INSERT INTO runs (started_at, status) VALUES"
                                  " ('2026-01-03', 'complete'), ('2026-01-04', 'failed');",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    free(sql);
}

static void test_version_3_migrates_with_below_unknown(void **state)
{
    afx *f = *state;
    char buf[64], sub[160];
    snprintf(sub, sizeof sub, "%s/sub", f->dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    make_version_3(f->path);
    dm_store *st = open_ok(f);
    assert_int_equal(afx_int(st, "PRAGMA user_version"), 10);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM schema_version"), 10);
    /* version 10's per-card store, empty, and the points' column of chosen values */
    assert_int_equal(afx_int(st, "SELECT count(*) FROM tuned_choices"), 0);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM pragma_table_info('points')"
                                 " WHERE name = 'chosen'"), 1);
    /* version 8's table of what a fit's groups measured, empty for the old fit */
    assert_int_equal(afx_int(st, "SELECT count(*) FROM crossover_groups"), 0);
    /* version 7 gave the old runs an identity of their own each, and no shard */
    assert_int_equal(afx_int(st, "SELECT count(DISTINCT uid) FROM runs WHERE length(uid) = 32"
                                 " AND shard_count IS NULL"), 2);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM pragma_table_info('points')"
                                 " WHERE name = 'device'"), 1);
    /* version 6's columns are there, the summary view with them */
    assert_int_equal(afx_int(st, "SELECT count(*) FROM pragma_table_info('v_point_summary')"
                                 " WHERE name IN ('criterion', 'criterion_value', 'n_outliers')"),
                     3);
    /* the old fit keeps its numbers; which variant wins below it is unknown */
    assert_int_equal(afx_int(st, "SELECT count(*) FROM crossover_fits WHERE a = 100000"
                                 " AND b = 5000 AND better = 1"), 1);
    assert_string_equal(afx_text(st, "SELECT below FROM crossover_fits", buf, sizeof buf),
                        "<null>");
    /* and a new one can say it */
    assert_int_equal(sqlite3_exec(store_db(st), "UPDATE crossover_fits SET below = 'block-tex'",
                                  NULL, NULL, NULL), SQLITE_OK);
    assert_string_equal(afx_text(st, "SELECT below FROM crossover_fits", buf, sizeof buf),
                        "block-tex");
}

static void test_newer_version_is_rejected(void **state)
{
    afx *f = *state;
    sqlite3 *db;
    dm_err err = { 0 };
    store_close(open_ok(f)); /* makes sub/ */
    f->st = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 11", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(store_open(f->path, &f->st, &err), DM_EINPUT);
    assert_null(f->st);
    char want[512];
    snprintf(want, sizeof want, "%s: database schema version 11 is newer than this dmbench's "
             "%d (a later dmbench wrote it); nothing was written to it; look with: sqlite3 "
             "'%s' 'SELECT * FROM schema_version'", f->path, store_schema_version(), f->path);
    assert_string_equal(err.msg, want);
}

/* A file sqlite3_exec ran sql on. */
static void sqlite_file(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* Another application's SQLite file is refused by the writing and the reading open alike,
 * and left as it was: its one table, no dmbench schema, no WAL files. */
static void test_foreign_database_is_refused_untouched(void **state)
{
    afx *f = *state;
    dm_err err = { 0 };
    char path[160], wal[180], want[320];
    snprintf(path, sizeof path, "%s/other.db", f->dir);
    sqlite_file(path, "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    snprintf(want, sizeof want, "%s: not a dmbench results database (application id 0, "
             "user version 0, 1 schema objects); name another with --db", path);
    dm_store *st = NULL;
    assert_int_equal(store_open(path, &st, &err), DM_EINPUT);
    assert_string_equal(err.msg, want);
    assert_int_equal(store_open_readonly(path, &st, &err), DM_EINPUT);
    assert_null(st);
    /* another application id, even on an empty file */
    snprintf(path, sizeof path, "%s/tagged.db", f->dir);
    sqlite_file(path, "PRAGMA application_id = 42");
    assert_int_equal(store_open(path, &st, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "application id 0x2a"));
    snprintf(path, sizeof path, "%s/other.db", f->dir);
    snprintf(wal, sizeof wal, "%s-wal", path);
    assert_int_not_equal(access(wal, F_OK), 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT group_concat(name) FROM sqlite_schema",
                                        -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "t");
    sqlite3_finalize(q);
    sqlite3_close(db);
}

/* dmbench's databases carry its application id; one from before the id (version 3 here)
 * is still recognised by its schema, and gets the id once opened to write. */
static void test_dmbench_databases_carry_the_application_id(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    assert_int_equal(afx_int(st, "PRAGMA application_id"), STORE_APPLICATION_ID);
    store_close(st);
    f->st = NULL;
    char path[160];
    dm_err err = { 0 };
    snprintf(path, sizeof path, "%s/old.db", f->dir);
    make_version_3(path);
    assert_int_equal(store_open_readonly(path, &st, &err), 0); /* migrated on the way */
    assert_int_equal(afx_int(st, "PRAGMA application_id"), STORE_APPLICATION_ID);
    assert_int_equal(afx_int(st, "PRAGMA user_version"), store_schema_version());
    store_close(st);
    /* a current one opened to read stays read-only */
    assert_int_equal(store_open_readonly(path, &st, &err), 0);
    assert_int_not_equal(sqlite3_exec(store_db(st), "CREATE TABLE x (y)", NULL, NULL, NULL),
                         SQLITE_OK);
    store_close(st);
}

/* A path no database can be made at is the user's mistake (exit 2), said in one line. */
static void test_unusable_path_is_an_input_error(void **state)
{
    (void)state;
    dm_store *st = NULL;
    dm_err err = { 0 };
    assert_int_equal(store_open("/proc/dmbench-test.sqlite", &st, &err), DM_EINPUT);
    assert_null(st);
    assert_non_null(strstr(err.msg, "/proc/dmbench-test.sqlite: cannot open or create the "
                                    "database file ("));
    assert_null(strchr(err.msg, '\n'));
}

static void test_non_sqlite_file_is_rejected(void **state)
{
    afx *f = *state;
    dm_err err = { 0 };
    char path[160];
    snprintf(path, sizeof path, "%s/notes.txt", f->dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    for (int i = 0; i < 200; i++)
        fputs("this is a text file, not a database\n", fp);
    fclose(fp);
    assert_int_equal(store_open(path, &f->st, &err), DM_EINPUT);
    assert_null(f->st);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "not an SQLite database"));
}

/* ---- runs ---- */

static void test_run_round_trips_every_fingerprint_field(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    dm_err err = { 0 };
    char buf[256];
    dm_device dev = { .sms = 132, .cc_major = 9, .cc_minor = 0, .mem_bytes = 85520809984LL,
                      .l2_bytes = 52428800, .driver_version = 13000, .runtime_version = 13010 };
    snprintf(dev.name, sizeof dev.name, "NVIDIA H100 80GB HBM3");
    snprintf(dev.uuid, sizeof dev.uuid, "GPU-0123abcd");
    snprintf(dev.pci_bus_id, sizeof dev.pci_bus_id, "00000000:19:00.0");
    dm_measure_opts mo = { .mode = DM_MODE_HOT, .min_samples = 12, .max_noise = 0.005,
                           .max_time = 2.5, .max_samples = 9999,
                           .criterion = DM_CRIT_STDREL, .outlier_k = 5 };
    dm_run_info info = {
        .host = "gpu-01", .device = &dev, .sm_clock_mhz_start = 1980,
        .mem_clock_mhz_start = 2619, .clock_source = "nvml", .dmbench_version = "0.1.0",
        .git_commit = "abcdef012345", .git_dirty = 1, .build_flags = "RelWithDebInfo",
        .argv = "dmbench run 'sweeps/a b.yaml'", .sweep_name = "membw-default",
        .sweep_path = "sweeps/membw.yaml", .sweep_text = "workload: membw\n",
        .workload = "membw", .baseline = "cpu", .measure = &mo, .points_total = 14,
        .points_planned = 12,
    };
    int64_t run = 0;
    assert_int_equal(store_run_begin(st, &info, &run, &err), 0);
    assert_true(run > 0);
    static const struct { const char *col, *want; } want[] = {
        { "status", "running" }, { "host", "gpu-01" }, { "gpu_name", "NVIDIA H100 80GB HBM3" },
        { "gpu_uuid", "GPU-0123abcd" }, { "gpu_cc", "9.0" }, { "gpu_sms", "132" },
        { "gpu_l2_bytes", "52428800" }, { "gpu_mem_bytes", "85520809984" },
        { "gpu_pci_bus_id", "00000000:19:00.0" }, { "driver_version", "13000" },
        { "runtime_version", "13010" }, { "sm_clock_mhz_start", "1980.0" },
        { "mem_clock_mhz_start", "2619.0" }, { "clock_source", "nvml" },
        { "no_gpu_reason", "<null>" }, { "dmbench_version", "0.1.0" },
        { "git_commit", "abcdef012345" }, { "git_dirty", "1" },
        { "build_flags", "RelWithDebInfo" }, { "argv", "dmbench run 'sweeps/a b.yaml'" },
        { "sweep_name", "membw-default" }, { "sweep_path", "sweeps/membw.yaml" },
        { "sweep_text", "workload: membw\n" }, { "workload", "membw" }, { "baseline", "cpu" },
        { "measure_mode", "hot" }, { "min_samples", "12" }, { "max_noise", "0.005" },
        { "max_time", "2.5" }, { "max_samples", "9999" }, { "criterion", "stdrel" },
        { "outlier_k", "5.0" }, { "points_total", "14" },
        { "points_planned", "12" }, { "ended_at", "<null>" },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT %s FROM runs WHERE id = %lld", want[i].col,
                 (long long)run);
        afx_text(st, sql, buf, sizeof buf);
        if (strcmp(buf, want[i].want) != 0)
            fail_msg("runs.%s: got '%s', want '%s'", want[i].col, buf, want[i].want);
    }
    afx_text(st, "SELECT started_at FROM runs", buf, sizeof buf);
    assert_int_equal(strlen(buf), 24); /* 2024-05-01T12:34:56.789Z */
    assert_int_equal(buf[10], 'T');
    assert_int_equal(buf[23], 'Z');

    assert_int_equal(store_run_note(st, run, "memcpy_gbps", "2890.5", &err), 0);
    assert_int_equal(store_run_note(st, run, "memcpy_gbps", "2891.0", &err), 0);
    assert_string_equal(afx_text(st, "SELECT value FROM run_notes WHERE key = 'memcpy_gbps'", buf,
                               sizeof buf), "2891.0");
    assert_int_equal(store_run_end(st, run, "complete", &err), 0);
    assert_string_equal(afx_text(st, "SELECT status FROM runs", buf, sizeof buf), "complete");
    assert_int_equal(afx_int(st, "SELECT ended_at IS NOT NULL FROM runs"), 1);
    assert_int_equal(store_run_end(st, run + 5, "complete", &err), DM_EINPUT);
    char msg[256];
    snprintf(msg, sizeof msg, "no run %lld in %s", (long long)run + 5, f->path);
    assert_string_equal(err.msg, msg);
    assert_int_equal(store_run_end(st, run, "bogus", &err), DM_ERUNTIME);
    assert_non_null(strstr(err.msg, f->path));
    assert_non_null(strstr(err.msg, "CHECK constraint failed"));
}

static void test_run_without_gpu_keeps_the_reason(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    dm_err err = { 0 };
    char buf[128];
    int64_t run;
    dm_run_info info = { .no_gpu_reason = "no CUDA device", .sm_clock_mhz_start = NAN,
                         .mem_clock_mhz_start = NAN, .host = "" };
    assert_int_equal(store_run_begin(st, &info, &run, &err), 0);
    assert_string_equal(afx_text(st, "SELECT no_gpu_reason FROM runs", buf, sizeof buf),
                        "no CUDA device");
    assert_int_equal(afx_int(st, "SELECT count(*) FROM runs WHERE gpu_name IS NULL AND gpu_sms IS"
                                 " NULL AND sm_clock_mhz_start IS NULL AND host IS NULL AND"
                                 " measure_mode IS NULL"),
                     1);
}

/* ---- points ---- */

static void test_point_round_trip(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    dm_err err = { 0 };
    char buf[256];
    dm_dataset ds = { .name = "random", .params = "n=4096", .hash = "0123456789abcdef",
                      .size_bytes = 16384 };
    int64_t run = begin_run(st, "s", "t", NULL), ds_id = 0, id = 0;
    assert_int_equal(store_dataset(st, &ds, &ds_id, &err), 0);
    dm_point pt;
    toy_measure t;
    afx_toy_point(&pt, 1, 4096, "triad", 512, 0.25);
    toy_measurement(&t, 2e-3);
    dm_work work = { .bytes = 2e9, .ops = 4096, .ops_unit = "flop" };
    const dm_fact facts[] = { { "level 1", "candidates", 26, NULL },
                              { "level 1", "count_s", 0.5e-3, "s" } };
    dm_point_result r = { .run_id = run, .index = 7, .dataset_id = ds_id, .point = &pt,
                          .status = "ok", .verify = "match", .verify_detail = "",
                          .m = &t.m, .work = &work, .started = 1700000000.25,
                          .ended = 1700000001.5, .facts = facts, .nfacts = 2 };
    assert_int_equal(store_point(st, &r, &id, &err), 0);
    assert_true(id > 0);

    assert_string_equal(afx_text(st, "SELECT params FROM points", buf, sizeof buf),
                        "n=4096,op=triad,block=512,scale=0.25");
    assert_string_equal(afx_text(st, "SELECT problem_key FROM points", buf, sizeof buf),
                        "n=4096,op=triad");
    assert_string_equal(afx_text(st, "SELECT variant || '|' || status || '|' || idx || '|' ||"
                                     " dataset_id || '|' || started_at || '|' || ended_at"
                                     " FROM points", buf, sizeof buf),
                        "kernel|ok|7|1|2023-11-14T22:13:20.250Z|2023-11-14T22:13:21.500Z");
    assert_int_equal(afx_int(st, "SELECT reason IS NULL FROM points"), 1);
    /* long form: every parameter with its type; value_num NULL for enums */
    assert_int_equal(afx_int(st, "SELECT count(*) FROM point_params"), 4);
    assert_string_equal(afx_text(st, "SELECT group_concat(name || ':' || type || ':' || value_text"
                                     " || ':' || coalesce(value_num, 'null'), ' ')"
                                     " FROM (SELECT * FROM point_params ORDER BY rowid)",
                               buf, sizeof buf),
                        "n:int:4096:4096.0 op:enum:triad:null block:int:512:512.0"
                        " scale:real:0.25:0.25");
    /* samples, with NaN clocks as NULL */
    assert_int_equal(afx_int(st, "SELECT count(*) FROM samples"), 3);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM samples WHERE sm_mhz IS NULL"), 1);
    assert_int_equal(afx_int(st, "SELECT throttled FROM samples WHERE idx = 1"), 1);
    assert_int_equal(afx_int(st, "SELECT sum(batch) FROM samples"), 3);
    /* stats: q1 and sm_mhz_after were NaN */
    assert_int_equal(afx_int(st, "SELECT n FROM point_stats"), 3);
    assert_int_equal(afx_int(st, "SELECT q1 IS NULL AND sm_mhz_after IS NULL FROM point_stats"), 1);
    assert_int_equal(afx_int(st, "SELECT median = 2e-3 AND min = 2e-3 * 0.9 AND noise = 0.1"
                                 " AND sm_mhz_before = 1980 FROM point_stats"), 1);
    assert_int_equal(afx_int(st, "SELECT host_mhz_before = 3300 AND host_mhz_after IS NULL"
                                 " FROM point_stats"), 1);
    assert_string_equal(afx_text(st, "SELECT stop_reason || mode || batch || clock_source ||"
                                     " n_throttled || throttle_reasons FROM point_stats",
                               buf, sizeof buf),
                        "noisecold1nvml1sw_power_cap");
    /* the criterion's figure (NaN below 6 samples: NULL), the outliers */
    assert_string_equal(afx_text(st, "SELECT criterion || outlier_k || n_outliers ||"
                                     " (criterion_value IS NULL) || (median_lo IS NULL)"
                                     " FROM point_stats", buf, sizeof buf),
                        "median3.5111");
    assert_int_equal(afx_int(st, "SELECT group_concat(outlier, '') FROM samples"), 10);
    assert_string_equal(afx_text(st, "SELECT outcome FROM verifications", buf, sizeof buf),
                        "match");
    /* throughput in the summary view */
    assert_int_equal(afx_int(st, "SELECT abs(gb_per_s - 1000) < 1e-9 AND abs(ops_per_s - 2048000)"
                                 " < 1e-6 FROM v_point_summary"), 1);
    assert_string_equal(afx_text(st, "SELECT ops_unit FROM points", buf, sizeof buf), "flop");
    /* facts, in their order, a count's unit NULL */
    assert_string_equal(afx_text(st, "SELECT group_concat(grp || ':' || name || ':' || value ||"
                                     " ':' || coalesce(unit, 'null'), ' ') FROM (SELECT *"
                                     " FROM point_facts ORDER BY idx)", buf, sizeof buf),
                        "level 1:candidates:26.0:null level 1:count_s:0.0005:s");
}

static void test_failed_store_point_leaves_no_rows(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    dm_err err = { 0 };
    int64_t run = begin_run(st, "s", "t", NULL);
    toy_store(st, run, 0, 1, 1024, "copy", 1e-3);
    static const char *const count_sql =
        "SELECT (SELECT count(*) FROM points) * 1000000 + (SELECT count(*) FROM point_params)"
        " * 10000 + (SELECT count(*) FROM samples) * 100 + (SELECT count(*) FROM point_stats)"
        " * 10 + (SELECT count(*) FROM verifications)";
    int64_t before = afx_int(st, count_sql);
    assert_int_equal(before, 1040311);

    /* the same idx again: the points row itself is refused */
    dm_point pt;
    toy_measure t;
    afx_toy_point(&pt, 1, 1024, "copy", 64, 0.25);
    toy_measurement(&t, 1e-3);
    dm_point_result r = { .run_id = run, .index = 0, .point = &pt, .status = "ok",
                          .verify = "match", .m = &t.m };
    assert_int_equal(store_point(st, &r, NULL, &err), DM_ERUNTIME);
    assert_non_null(strstr(err.msg, f->path));
    assert_non_null(strstr(err.msg, "storing point 0 of run"));
    assert_non_null(strstr(err.msg, "UNIQUE constraint failed"));
    assert_int_equal(afx_int(st, count_sql), before);

    /* a new idx whose last insert (the verification) fails: all of it rolls back */
    r.index = 1;
    r.verify = "maybe";
    assert_int_equal(store_point(st, &r, NULL, &err), DM_ERUNTIME);
    assert_non_null(strstr(err.msg, "CHECK constraint failed"));
    assert_int_equal(afx_int(st, count_sql), before);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM points WHERE idx = 1"), 0);

    /* and the connection is usable afterwards */
    r.verify = "match";
    assert_int_equal(store_point(st, &r, NULL, &err), 0);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM points"), 2);
}

static void test_dataset_is_found_or_inserted(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    dm_err err = { 0 };
    dm_dataset a = { .name = "random", .params = "n=1024,seed=1", .hash = "00000000000000aa",
                     .size_bytes = 4096 };
    dm_dataset b = a, c = a;
    snprintf(b.hash, sizeof b.hash, "00000000000000bb");
    snprintf(c.name, sizeof c.name, "seattle2012.csv");
    snprintf(c.path, sizeof c.path, "../shared/datasets/coloc/seattle2012.csv");
    int64_t ia = 0, ia2 = 0, ib = 0, ic = 0;
    assert_int_equal(store_dataset(st, &a, &ia, &err), 0);
    assert_int_equal(store_dataset(st, &a, &ia2, &err), 0);
    assert_int_equal(store_dataset(st, &b, &ib, &err), 0);
    assert_int_equal(store_dataset(st, &c, &ic, &err), 0);
    assert_true(ia > 0);
    assert_int_equal(ia, ia2);
    assert_true(ib != ia && ic != ia && ic != ib);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM datasets"), 3);
    assert_int_equal(afx_int(st, "SELECT size_bytes FROM datasets WHERE content_hash ="
                                 " '00000000000000aa'"), 4096);
}

/* ---- resume ---- */

static void test_resume_helpers(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    dm_err err = { 0 };
    char sql[64], buf[64];
    int64_t found = -1;
    int done = -1;
    dm_run_origin origin;
    int64_t a = begin_run(st, "sw", "text-1", NULL);
    assert_int_equal(store_run_end(st, a, "complete", &err), 0);
    assert_int_equal(store_find_resumable(st, "sw", "text-1", (dm_shard){ 0 }, &found, &origin, &err), 0);
    assert_int_equal(found, 0); /* complete runs are not resumed */

    int64_t b = begin_run(st, "sw", "text-1", NULL);
    assert_int_equal(store_run_end(st, b, "interrupted", &err), 0);
    int64_t c = begin_run(st, "sw", "text-2", NULL);
    assert_int_equal(store_run_end(st, c, "failed", &err), 0);
    assert_int_equal(store_find_resumable(st, "sw", "text-1", (dm_shard){ 0 }, &found, &origin, &err), 0);
    assert_int_equal(found, b);
    assert_int_equal(store_find_resumable(st, "sw", "text-2", (dm_shard){ 0 }, &found, &origin, &err), 0);
    assert_int_equal(found, c);
    /* where it was measured: begin_run's runs have no GPU and no build recorded */
    assert_string_equal(origin.gpu_uuid, "");
    assert_string_equal(origin.git_commit, "");
    assert_int_equal(store_find_resumable(st, "other", "text-1", (dm_shard){ 0 }, &found, &origin, &err), 0);
    assert_int_equal(found, 0);

    toy_store(st, b, 3, 0, 1024, "copy", 1e-3);
    assert_int_equal(store_point_done(st, b, 3, &done, &err), 0);
    assert_int_equal(done, 1);
    assert_int_equal(store_point_done(st, b, 4, &done, &err), 0);
    assert_int_equal(done, 0);
    assert_int_equal(store_point_done(st, a, 3, &done, &err), 0);
    assert_int_equal(done, 0);

    assert_int_equal(store_run_reopen(st, b, &err), 0);
    snprintf(sql, sizeof sql, "SELECT status FROM runs WHERE id = %lld", (long long)b);
    assert_string_equal(afx_text(st, sql, buf, sizeof buf), "running");
    assert_int_equal(afx_int(st, "SELECT count(*) FROM runs WHERE status = 'running'"
                                 " AND ended_at IS NULL"), 1);
    assert_int_equal(store_run_reopen(st, 999, &err), DM_EINPUT);

    /* discarding removes the run and everything under it */
    assert_int_equal(store_run_discard(st, b, &err), 0);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM points"), 0);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM samples"), 0);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM point_params"), 0);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM runs"), 2);
}

/* ---- views ---- */

/* ---- queries ---- */

static void test_best_bandwidth_is_the_fastest_ok_point_of_the_variant(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    int64_t run = begin_run(st, "bw", "t", NULL), other = begin_run(st, "other", "t", NULL);
    const struct {
        int variant;
        const char *op;
        int64_t block;
        double median;
        int ok;
    } pts[] = {
        {1, "copy", 128, 2e-3, 1},  {1, "copy", 256, 1e-3, 1},   {1, "triad", 512, 5e-4, 1},
        {1, "copy", 1024, 1e-4, 0}, {0, "copy", 0, 4e-3, 1},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        dm_point pt;
        toy_measure t;
        dm_work work = { .bytes = 8e6 };
        dm_err err = { 0 };
        afx_toy_point(&pt, pts[i].variant, 4096, pts[i].op, pts[i].block, 0.25);
        toy_measurement(&t, pts[i].median);
        dm_point_result r = { .run_id = run, .index = (int64_t)i, .point = &pt,
                              .status = pts[i].ok ? "ok" : "failed",
                              .verify = pts[i].ok ? "match" : "mismatch", .m = &t.m,
                              .work = &work, .started = 1.7e9, .ended = 1.7e9 + 1 };
        assert_int_equal(store_point(st, &r, NULL, &err), 0);
    }
    double gbps = 0;
    char params[256];
    int64_t n = 0;
    dm_err err = { 0 };
    /* block 1024 failed and triad is another problem: block 256 is the best copy */
    assert_int_equal(query_best_gbps(st, run, "kernel", "op=copy", &gbps, params, sizeof params,
                                     &n, &err), 0);
    assert_true(fabs(gbps - 8.0) < 1e-9);
    assert_non_null(strstr(params, "block=256"));
    assert_int_equal(n, 3);
    assert_int_equal(query_best_gbps(st, run, "cpu", "op=copy", &gbps, NULL, 0, NULL, &err), 0);
    assert_true(fabs(gbps - 2.0) < 1e-9);
    /* nothing matches: NAN, and not an error */
    assert_int_equal(query_best_gbps(st, run, "kernel", "op=scale", &gbps, params, sizeof params,
                                     &n, &err), 0);
    assert_true(isnan(gbps));
    assert_string_equal(params, "");
    assert_int_equal(query_best_gbps(st, other, "kernel", "op=copy", &gbps, NULL, 0, NULL, &err),
                     0);
    assert_true(isnan(gbps));
}

static void test_speedup_view(void **state)
{
    afx *f = *state;
    dm_store *st = open_ok(f);
    char sql[256];
    int64_t run = begin_run(st, "s", "t", "cpu");
    int64_t cpu_a = toy_store(st, run, 0, 0, 1024, "copy", 4e-3);
    int64_t k_a = toy_store(st, run, 1, 1, 1024, "copy", 1e-3);
    int64_t k_b = toy_store(st, run, 2, 1, 2048, "copy", 2e-3);  /* no cpu point */
    toy_store(st, run, 3, 0, 1024, "triad", NAN);                /* cpu failed */
    int64_t k_c = toy_store(st, run, 4, 1, 1024, "triad", 1e-3);
    int64_t other = begin_run(st, "s", "t", NULL);
    int64_t o_k = toy_store(st, other, 0, 1, 1024, "copy", 1e-3);
    toy_store(st, other, 1, 0, 1024, "copy", 4e-3);

    snprintf(sql, sizeof sql, "SELECT round(speedup, 9) = 4 FROM v_speedup WHERE point_id = %lld",
             (long long)k_a);
    assert_int_equal(afx_int(st, sql), 1);
    snprintf(sql, sizeof sql, "SELECT speedup = 1 FROM v_speedup WHERE point_id = %lld",
             (long long)cpu_a);
    assert_int_equal(afx_int(st, sql), 1);
    int64_t nulls[] = { k_b, k_c, o_k };
    for (int i = 0; i < 3; i++) {
        snprintf(sql, sizeof sql, "SELECT speedup IS NULL FROM v_speedup WHERE point_id = %lld",
                 (long long)nulls[i]);
        assert_int_equal(afx_int(st, sql), 1);
    }
    /* only ok points appear */
    assert_int_equal(afx_int(st, "SELECT count(*) FROM v_speedup"), 6);
}

/* ---- two writers ---- */

/* One writer process: its own run of 50 points. Returns the exit status. */
static int writer(const char *path, const char *name)
{
    dm_store *st = NULL;
    dm_err err = { 0 };
    int64_t run;
    dm_run_info info = { .sweep_name = name, .sm_clock_mhz_start = NAN,
                         .mem_clock_mhz_start = NAN };
    if (store_open(path, &st, &err) != 0 || store_run_begin(st, &info, &run, &err) != 0)
        goto fail;
    for (int i = 0; i < 50; i++) {
        dm_point pt;
        toy_measure t;
        afx_toy_point(&pt, i % 2, 1024 + i, "copy", 128, 0.25);
        toy_measurement(&t, 1e-3);
        dm_point_result r = { .run_id = run, .index = i, .point = &pt, .status = "ok",
                              .verify = "match", .m = &t.m };
        if (store_point(st, &r, NULL, &err) != 0)
            goto fail;
    }
    if (store_run_end(st, run, "complete", &err) != 0)
        goto fail;
    store_close(st);
    return 0;
fail:
    fprintf(stderr, "writer %s: %s\n", name, err.msg);
    store_close(st);
    return 1;
}

static void test_two_processes_write_one_database(void **state)
{
    afx *f = *state;
    pid_t pids[2];
    static const char *const names[2] = { "writer-a", "writer-b" };
    fflush(NULL);
    for (int i = 0; i < 2; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0)
            _exit(writer(f->path, names[i]));
    }
    for (int i = 0; i < 2; i++) {
        int status = 0;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    dm_store *st = open_ok(f);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM runs WHERE status = 'complete'"), 2);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM points"), 100);
    assert_int_equal(afx_int(st, "SELECT count(DISTINCT run_id) FROM points"), 2);
    assert_int_equal(afx_int(st, "SELECT min(c) FROM (SELECT count(*) AS c FROM points"
                                 " GROUP BY run_id)"), 50);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM samples"), 300);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM schema_version"), store_schema_version());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fresh_db_gets_schema_version_10, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_runs_have_a_uid_and_a_shard_and_points_a_device,
                                        setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_version_3_migrates_with_below_unknown, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_reopen_is_idempotent, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_newer_version_is_rejected, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_non_sqlite_file_is_rejected, setup, afx_teardown),
        cmocka_unit_test(test_unusable_path_is_an_input_error),
        cmocka_unit_test_setup_teardown(test_foreign_database_is_refused_untouched, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_dmbench_databases_carry_the_application_id, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_run_round_trips_every_fingerprint_field, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_run_without_gpu_keeps_the_reason, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_point_round_trip, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_failed_store_point_leaves_no_rows, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_dataset_is_found_or_inserted, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_resume_helpers, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_best_bandwidth_is_the_fastest_ok_point_of_the_variant,
                                        setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_speedup_view, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_two_processes_write_one_database, setup, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
