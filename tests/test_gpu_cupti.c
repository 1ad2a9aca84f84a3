/* test_gpu_cupti.c - CUPTI on a GPU through the runner: every launch of a multi-launch
 * variant gets a real value for every built-in metric (the _sass_ branch metrics
 * included); kernel attributes and the occupancy prediction are stored; two streams
 * overlap in the stored timeline and one stream does not; with the counters forced off
 * the metrics are NULL with the reason and the timings are stored as ever. Exits 77
 * (skip) without a GPU. */
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
#include <cuda_runtime_api.h>
#include <sqlite3.h>

#include "cupti_dm.h"
#include "device.h"
#include "runner.h"
#include "gpu_run_fixture.h"
#include "sweep.h"

/* 256 MiB per array: more than the L2, and halves of about 100 us, so two streams have
 * time to overlap. */
#define N_FLOATS (1 << 26)
#define N_TEXT "67108864"


/* Runs the sweep text with metrics csv (NULL: none) and timeline into the fixture's
 * database, and opens it; returns the open database. */
static dm_store *run_sweep(gpu_run_fixture *f, const char *text, const char *csv, int timeline)
{
    dm_sweep *s = NULL;
    dm_expansion e = {0};
    dm_err err = {0};
    cupti_metric_list metrics = {0};
    int passes = 0;
    if (sweep_parse_string(text, "test.yaml", &s, &err) || sweep_expand(s, &f->dev, &e, &err))
        fail_msg("sweep: %s", err.msg);
    if (csv && (cupti_metrics_parse(&metrics, csv, &err) ||
                cupti_metrics_check(CUPTI_DEFAULT_CHIP, &metrics, &passes, &err)))
        fail_msg("metrics: %s", err.msg);
    dm_sink sink;
    if (store_sink_make(f->db.path, &sink, &err))
        fail_msg("sink: %s", err.msg);
    dm_run_opts o = {.sink = &sink, .progress = DM_PROGRESS_QUIET, .argv_text = "test",
                     .sweep_key = text, .device = &f->dev, .metrics = &metrics,
                     .timeline = timeline};
    dm_run_result res;
    if (runner_run(s, &e, &o, &res, &err))
        fail_msg("run: %s", err.msg);
    assert_int_equal(res.failed, 0);
    sweep_expansion_free(&e);
    sweep_free(s);
    store_close(f->db.st);
    f->db.st = NULL;
    assert_int_equal(afx_open_store(&f->db), 0);
    return f->db.st;
}

/* A sweep of the named variants at one point each: n = N_FLOATS, the op, and a block size
 * and grid (blocks per SM) small enough for two kernels to fit on the GPU at once. */
#define SWEEP_AT(variants, op, block, per_sm)                                              \
    "workload: membw\ndataset: {generator: random}\nvariants: [" variants "]\n"            \
    "axes: {n: [" N_TEXT "], op: [" op "], block: [" block "], blocks_per_sm: [" per_sm    \
    "]}\nmeasure: {mode: cold, min_samples: 5, max_time: 0.2}\n"
#define SWEEP(variants, op) SWEEP_AT(variants, op, "256", "2")

static void test_every_launch_gets_every_metric(void **state)
{
    gpu_run_fixture *f = *state;
    char buf[2048];
    dm_store *st = run_sweep(f, SWEEP("kernel, streams-serial, streams-concurrent", "triad"),
                             "all", 0);
    assert_int_equal(afx_num(st, "SELECT count(*) FROM points WHERE status = 'ok'"), 3);
    /* One launch for kernel, two for each streams variant, each with 20 metrics. */
    assert_int_equal(afx_num(st, "SELECT count(*) FROM launches"), 5);
    assert_int_equal(afx_num(st, "SELECT count(*) FROM launches l JOIN points p"
                                 " ON p.id = l.point_id WHERE p.variant LIKE 'streams-%%'"), 4);
    assert_int_equal(afx_num(st, "SELECT count(*) FROM metrics"), 5 * 20);
    afx_text(st, "SELECT metric || ': ' || coalesce(reason, 'no reason') FROM metrics"
                 " WHERE value IS NULL LIMIT 1", buf, sizeof buf);
    if (strcmp(buf, "<none>") != 0)
        fail_msg("a metric without a value: %s", buf);
    assert_string_equal(afx_text(st, "SELECT group_concat(DISTINCT kernel) FROM launches",
                                 buf, sizeof buf), "membw_vec4");
    assert_int_equal(afx_num(st, "SELECT count(*) FROM launches WHERE block_x = 256 AND"
                                 " block_y = 1 AND grid_x = %d", 2 * f->dev.sms), 5);
    /* Triad reads b and c: the counters must see about that much from DRAM. */
    double want = 2.0 * N_FLOATS * sizeof(float);
    double got = afx_num(st, "SELECT sum(m.value) FROM metrics m JOIN points p ON p.id ="
                             " m.point_id WHERE p.variant = 'kernel' AND m.metric ="
                             " 'dram_read_bytes'");
    if (!(got > 0.8 * want && got < 1.25 * want))
        fail_msg("dram_read_bytes %.0f, expected about %.0f", got, want);
    double occ = afx_num(st, "SELECT min(value) FROM metrics WHERE metric = 'achieved_occupancy'");
    assert_true(occ > 0 && occ <= 100);
    assert_true(afx_num(st, "SELECT min(value) FROM metrics WHERE metric = 'branch_uniformity'") >
                0);
    assert_true(afx_num(st, "SELECT min(value) FROM metrics WHERE metric = 'duration'") > 0);
    /* Static attributes of the one kernel at its one shape, for every point. */
    assert_int_equal(afx_num(st, "SELECT count(*) FROM kernel_attrs WHERE kernel = 'membw_vec4'"
                                 " AND block_threads = 256 AND regs_per_thread > 0 AND"
                                 " max_threads_per_block >= 256 AND predicted_occupancy > 0"
                                 " AND predicted_occupancy <= 100"), 3);
    assert_int_equal(afx_num(st, "SELECT count(*) FROM v_occupancy"), 5);
    assert_string_equal(afx_text(st, "SELECT value FROM run_notes WHERE key ="
                                     " 'cupti.counters'", buf, sizeof buf), "available");
}

static void test_two_streams_overlap_and_one_does_not(void **state)
{
    gpu_run_fixture *f = *state;
    char buf[256];
    /* In traced executions on an H100 the second stream's kernel started 14 to 125 us
     * after the first's, so halves of 100 to 300 us (block 256, two blocks per SM) did
     * not always overlap. One block of 64 threads per SM makes each half last about
     * 0.3 ms and leaves the SMs room for both (seen: overlap 70% of the span). */
    run_sweep(f, SWEEP_AT("streams-serial, streams-concurrent", "triad", "64", "1"), NULL, 1);
    dm_store *st = run_sweep(f, "workload: membw\ndataset: {generator: random}\n"
                                "variants: [memcpy]\naxes: {n: [" N_TEXT "], op: [copy]}\n"
                                "measure: {mode: cold, min_samples: 5, max_time: 0.2}\n",
                             NULL, 1);
    const char *by_variant = "SELECT t.%s FROM timelines t JOIN points p ON p.id = t.point_id"
                             " WHERE p.variant = '%s'";
    assert_int_equal(afx_num(st, by_variant, "overlap_ns", "streams-serial"), 0);
    assert_int_equal(afx_num(st, by_variant, "streams", "streams-serial"), 1);
    assert_true(afx_num(st, by_variant, "overlap", "streams-concurrent") > 0);
    assert_int_equal(afx_num(st, by_variant, "streams", "streams-concurrent"), 2);
    assert_int_equal(afx_num(st, "SELECT count(*) FROM activities WHERE kind = 'kernel'"), 4);
    /* memcpy copies n floats device to device: one copy of that many bytes. */
    assert_int_equal(afx_num(st, "SELECT count(*) FROM activities WHERE kind = 'memcpy'"), 1);
    assert_int_equal(afx_num(st, "SELECT bytes FROM activities WHERE kind = 'memcpy'"),
                     N_FLOATS * sizeof(float));
    assert_string_equal(afx_text(st, "SELECT name FROM activities WHERE kind = 'memcpy'",
                                 buf, sizeof buf), "memcpy DtoD");
    assert_int_equal(afx_num(st, "SELECT count(*) FROM timelines WHERE reason IS NOT NULL"), 0);
}

static void test_counters_forced_off_keep_the_timings(void **state)
{
    gpu_run_fixture *f = *state;
    char buf[256];
    setenv("DMBENCH_CUPTI_DISABLE", "1", 1);
    dm_store *st = run_sweep(f, SWEEP("kernel, streams-concurrent", "triad"),
                             "occupancy,dram", 0);
    unsetenv("DMBENCH_CUPTI_DISABLE");
    assert_int_equal(afx_num(st, "SELECT count(*) FROM points WHERE status = 'ok'"), 2);
    assert_int_equal(afx_num(st, "SELECT count(*) FROM metrics"), 3 * 3);
    assert_int_equal(afx_num(st, "SELECT count(value) FROM metrics"), 0);
    assert_string_equal(afx_text(st, "SELECT DISTINCT reason FROM metrics", buf,
                                 sizeof buf), "disabled by DMBENCH_CUPTI_DISABLE");
    assert_string_equal(afx_text(st, "SELECT value FROM run_notes WHERE key ="
                                     " 'cupti.counters'", buf, sizeof buf),
                        "disabled by DMBENCH_CUPTI_DISABLE");
    assert_true(afx_num(st, "SELECT min(n) FROM point_stats") >= 5);
    assert_true(afx_num(st, "SELECT min(median) FROM point_stats") > 0);
    assert_true(afx_num(st, "SELECT count(*) FROM samples") >= 10);
    /* Kernel attributes do not need the counters. */
    assert_int_equal(afx_num(st, "SELECT count(*) FROM kernel_attrs"), 2);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_cupti: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_launch_gets_every_metric, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_streams_overlap_and_one_does_not, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_counters_forced_off_keep_the_timings, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
