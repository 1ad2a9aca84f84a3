/* test_cupti_store.c - what CUPTI gives, in the results database: schema version 2 made
 * from an empty file and migrated from version 1 alike (old rows kept), a point's kernel
 * attributes, launches, metrics (NULL with a reason) and timeline stored in its
 * transaction, and read back by show (a compact line each) and export (JSON). */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"

/* Every schema object as "type name sql" lines, in name order (malloc'd). */
static char *schema_text(sqlite3 *db)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT type, name, sql FROM sqlite_schema"
                                            " ORDER BY name", -1, &s, NULL), SQLITE_OK);
    while (sqlite3_step(s) == SQLITE_ROW)
        fprintf(out, "%s %s %s\n", sqlite3_column_text(s, 0), sqlite3_column_text(s, 1),
                sqlite3_column_text(s, 2) ? (const char *)sqlite3_column_text(s, 2) : "");
    sqlite3_finalize(s);
    fclose(out);
    return text;
}

/* Makes path a version-1 database: schema.sql's first section, with a run, a point and
 * a metric row as dmbench 1 could have written them. */
static void make_version_1(const char *path)
{
    char file[512], *sql = malloc(1 << 20);
    snprintf(file, sizeof file, "%s/results/store/schema.sql", DM_SOURCE_DIR);
    FILE *fp = fopen(file, "r");
    assert_non_null(fp);
    size_t n = fread(sql, 1, (1 << 20) - 1, fp);
    fclose(fp);
    sql[n] = '\0';
    char *v1 = strstr(sql, "-- ==== version 1");
    char *v2 = strstr(sql, "-- ==== version 2");
    assert_non_null(v1);
    assert_non_null(v2);
    *v2 = '\0';
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_exec(db, v1, NULL, NULL, NULL) != SQLITE_OK)
        fail_msg("version 1 schema: %s", sqlite3_errmsg(db));
    assert_int_equal(sqlite3_exec(db,
                                  "INSERT INTO schema_version VALUES (1, '2026-01-01');"
                                  "PRAGMA user_version = 1;"
                                  "INSERT INTO runs (id, started_at, status) VALUES"
                                  " (1, '2026-01-01', 'complete');"
                                  "INSERT INTO points (id, run_id, idx, variant, problem_key,"
                                  " params, status) VALUES (1, 1, 0, 'kernel', 'n=1', 'n=1',"
                                  " 'ok');"
                                  "INSERT INTO metrics (point_id, kernel, launch_index,"
                                  " metric, value) VALUES (1, 'k', 0, 'achieved_occupancy',"
                                  " 50);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    free(sql);
}

static void test_version_1_migrates_to_the_fresh_schema(void **state)
{
    afx *f = *state;
    dm_err err = {0};
    char fresh_path[160];
    dm_store *fresh = NULL;
    make_version_1(f->path);
    assert_int_equal(afx_open_store(f), 0);
    sqlite3 *db = store_db(f->st);
    assert_int_equal(afx_int(f->st, "PRAGMA user_version"), store_schema_version());
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM schema_version"),
                     store_schema_version());
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM metrics WHERE value = 50 AND unit IS"
                                    " NULL"), 1);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM points"), 1);
    snprintf(fresh_path, sizeof fresh_path, "%s/fresh.sqlite", f->dir);
    if (store_open(fresh_path, &fresh, &err))
        fail_msg("%s", err.msg);
    char *migrated = schema_text(db), *made = schema_text(store_db(fresh));
    assert_string_equal(migrated, made);
    assert_non_null(strstr(made, "table timelines"));
    assert_non_null(strstr(made, "view v_occupancy"));
    free(migrated);
    free(made);
    store_close(fresh);
}

/* ---- a point with everything CUPTI gives ---- */

static const cupti_metric_list two_metrics = {
    .n = 2,
    .m = {{.name = "sm__warps_active.avg.pct_of_peak_sustained_active",
           .short_name = "achieved_occupancy", .unit = "%"},
          {.name = "dram__bytes_read.sum", .short_name = "dram_read_bytes", .unit = "bytes"}},
};

/* Stores a kernel point of the toy workload with two launches (the second's DRAM bytes
 * unknown), one kernel's attributes and three activities on two streams. */
static int64_t put_cupti_point(dm_store *st)
{
    dm_err err = {0};
    int64_t run = 0, id = 0;
    dm_run_info info = {.sweep_name = "toy", .workload = "toy", .sm_clock_mhz_start = NAN,
                        .mem_clock_mhz_start = NAN};
    if (store_run_begin(st, &info, &run, &err))
        fail_msg("%s", err.msg);
    dm_point pt = {.workload = &toy, .variant = &toy_variants[1], .nparams = 1};
    pt.specs[0] = &toy_dataset_params[0];
    pt.values[0] = (dm_value){.type = DM_P_INT, .i = 1024};
    dm_kernel_attrs attrs = {.kernel = "toy_kernel", .block_threads = 256,
                             .regs_per_thread = 32, .max_threads_per_block = 1024,
                             .blocks_per_sm = 8, .predicted_occupancy = 100};
    dm_launch launches[2] = {
        {.kernel = "toy_kernel", .grid = {264, 1, 1}, .block = {256, 1, 1}},
        {.kernel = "toy_kernel", .grid = {264, 1, 1}, .block = {256, 1, 1}},
    };
    double values[4] = {40, 2048, 60, NAN};
    dm_activity acts[3] = {
        {.kind = DM_ACT_KERNEL, .name = "toy_kernel", .stream = 7, .start_ns = 0,
         .end_ns = 100, .grid = {264, 1, 1}, .block = {256, 1, 1}},
        {.kind = DM_ACT_KERNEL, .name = "toy_kernel", .stream = 8, .start_ns = 50,
         .end_ns = 150, .grid = {264, 1, 1}, .block = {256, 1, 1}},
        {.kind = DM_ACT_MEMCPY, .name = "memcpy DtoH", .stream = 7, .start_ns = 150,
         .end_ns = 200, .bytes = 4096},
    };
    dm_cupti_point cp = {.attrs = &attrs, .nattrs = 1, .profiled = 1,
                         .metrics = &two_metrics, .launches = launches, .nlaunches = 2,
                         .values = values, .metrics_reason = "", .traced = 1, .acts = acts,
                         .nacts = 3, .streams = 2, .span_ns = 200, .overlap_ns = 50};
    dm_point_result r = {.run_id = run, .index = 0, .point = &pt, .status = "ok",
                         .verify = "match", .cupti = &cp};
    if (store_point(st, &r, &id, &err) || store_run_end(st, run, "complete", &err))
        fail_msg("%s", err.msg);
    return id;
}

static void test_point_stores_attrs_launches_metrics_and_timeline(void **state)
{
    afx *f = *state;
    assert_int_equal(afx_open_store(f), 0);
    put_cupti_point(f->st);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM kernel_attrs WHERE regs_per_thread = 32"
                                    " AND predicted_occupancy = 100"), 1);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM launches WHERE grid_x = 264 AND"
                                    " block_x = 256"), 2);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM metrics"), 4);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM metrics WHERE value IS NULL AND"
                                    " launch_index = 1 AND metric = 'dram_read_bytes' AND"
                                    " reason = 'CUPTI gave no value for this launch'"), 1);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM metrics WHERE unit = 'bytes'"), 2);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM activities WHERE kind = 'memcpy' AND"
                                    " bytes = 4096 AND grid_x IS NULL"), 1);
    assert_int_equal(afx_int(f->st, "SELECT overlap_ns FROM timelines"), 50);
    assert_int_equal(afx_int(f->st, "SELECT round(overlap * 100) FROM timelines"), 25);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM v_occupancy WHERE"
                                    " achieved_occupancy = 40 AND predicted_occupancy = 100"
                                    " AND block_threads = 256"), 1);
}

static void test_counters_unavailable_store_null_with_the_reason(void **state)
{
    afx *f = *state;
    dm_err err = {0};
    int64_t run = 0;
    assert_int_equal(afx_open_store(f), 0);
    dm_run_info info = {.sweep_name = "toy", .sm_clock_mhz_start = NAN,
                        .mem_clock_mhz_start = NAN};
    assert_int_equal(store_run_begin(f->st, &info, &run, &err), 0);
    dm_point pt = {.workload = &toy, .variant = &toy_variants[1]};
    dm_launch launch = {.kernel = "toy_kernel", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    double values[2] = {NAN, NAN};
    dm_cupti_point cp = {.profiled = 1, .metrics = &two_metrics, .launches = &launch,
                         .nlaunches = 1, .values = values,
                         .metrics_reason = "disabled by DMBENCH_CUPTI_DISABLE", .traced = 1,
                         .trace_reason = "cuptiActivityEnable: CUPTI_ERROR_X"};
    dm_point_result r = {.run_id = run, .point = &pt, .status = "ok", .cupti = &cp};
    assert_int_equal(store_point(f->st, &r, NULL, &err), 0);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM metrics WHERE value IS NULL AND reason ="
                                    " 'disabled by DMBENCH_CUPTI_DISABLE'"), 2);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM timelines WHERE overlap IS NULL AND"
                                    " reason LIKE 'cuptiActivityEnable%'"), 1);
}

/* The text show or export writes for the newest run (malloc'd). */
static char *read_back(dm_store *st, int json)
{
    char *text = NULL;
    size_t len = 0;
    dm_err err = {0};
    FILE *out = open_memstream(&text, &len);
    int rc = json ? store_export(st, 0, DM_EXPORT_JSON, out, &err)
                  : store_show_run(st, 0, out, &err);
    fclose(out);
    if (rc)
        fail_msg("%s", err.msg);
    return text;
}

static void test_show_and_export_read_them_back(void **state)
{
    afx *f = *state;
    assert_int_equal(afx_open_store(f), 0);
    put_cupti_point(f->st);
    char *shown = read_back(f->st, 0);
    if (!strstr(shown, "metrics: 2 launches (% as means, others summed): achieved_occupancy "
                       "50.0%, dram_read_bytes 2.0 KiB; NULL: CUPTI gave no value for this "
                       "launch\n"))
        fail_msg("no metrics line in:\n%s", shown);
    if (!strstr(shown, "timeline: 3 activities on 2 streams, span 200 ns, overlap 25.0% "
                       "(50.0 ns)\n"))
        fail_msg("no timeline line in:\n%s", shown);
    free(shown);
    char *json = read_back(f->st, 1);
    assert_non_null(strstr(json, "\"metrics\": [{\"kernel\": \"toy_kernel\", \"launch_index\":"
                                 " 0, \"metric\": \"achieved_occupancy\", \"unit\": \"%\","
                                 " \"value\": 40, \"reason\": null}"));
    assert_non_null(strstr(json, "\"timeline\": {\"activities\": 3, \"streams\": 2,"
                                 " \"span_ns\": 200, \"overlap_ns\": 50, \"overlap\": 0.25,"
                                 " \"reason\": null}"));
    assert_non_null(strstr(json, "\"kernel_attrs\": [{\"kernel\": \"toy_kernel\""));
    assert_non_null(strstr(json, "\"name\": \"memcpy DtoH\""));
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_version_1_migrates_to_the_fresh_schema,
                                        afx_setup_empty, afx_teardown),
        cmocka_unit_test_setup_teardown(test_point_stores_attrs_launches_metrics_and_timeline,
                                        afx_setup_empty, afx_teardown),
        cmocka_unit_test_setup_teardown(test_counters_unavailable_store_null_with_the_reason,
                                        afx_setup_empty, afx_teardown),
        cmocka_unit_test_setup_teardown(test_show_and_export_read_them_back, afx_setup_empty,
                                        afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
