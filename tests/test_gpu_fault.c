/* test_gpu_fault.c - a kernel fault in the middle of a run: the runner stores the point it
 * hit as failed, says the CUDA context is lost and why, and stops with the run
 * interrupted for a new process to resume, where it used to fail every later point
 * with the same error. device_context_lost tells such a fault from errors CUDA clears (a
 * failed allocation, which says what it asked and what was free). The fault is a probe kernel given an address no allocation has,
 * launched between two points through a wrapped sink; it ends this process's context,
 * so the test that makes it runs last. Exits 77 (skip) without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "device.h"
#include "gpu_probe.h"
#include "runner.h"
#include "gpu_run_fixture.h"
#include "sweep.h"


/* Launches the clock probe with an output address no allocation has, and waits for it. */
static void fault(void)
{
    dm_err err = {0};
    assert_int_equal(gpu_probe_clock_launch(NULL, (long long *)(uintptr_t)0x10, 1000, &err), 0);
    assert_int_not_equal(cudaDeviceSynchronize(), cudaSuccess);
}

static void test_a_failed_allocation_leaves_the_context_working(void **state)
{
    (void)state;
    char why[256] = "";
    void *p = NULL;
    assert_int_equal(device_context_lost(why, sizeof why), 0);
    dm_err err = {0};
    assert_int_equal(dm_gpu_alloc(NULL, (size_t)1 << 50, &p, &err), DM_ENOMEM);
    assert_null(p);
    assert_non_null(strstr(err.msg, "out of device memory: 1073741824.0 MiB asked, "));
    assert_non_null(strstr(err.msg, " MiB free of "));
    assert_non_null(strstr(err.msg, " MiB (not allocated)")); /* refused before cudaMallocAsync */
    assert_int_equal(device_context_lost(why, sizeof why), 0);
    assert_int_equal(cudaMalloc(&p, 4096), cudaSuccess);
    assert_int_equal(cudaFree(p), cudaSuccess);
}

/* The sweep in text (named name) expanded on f's device, and a sink into f's database. */
static void sweep_and_sink(gpu_run_fixture *f, const char *text, const char *name,
                           dm_sweep **s, dm_expansion *e, dm_sink *sink)
{
    dm_err err = {0};
    if (sweep_parse_string(text, name, s, &err) || sweep_expand(*s, &f->dev, e, &err))
        fail_msg("sweep: %s", err.msg);
    if (store_sink_make(f->db.path, sink, &err))
        fail_msg("sink: %s", err.msg);
}

/* The card filled but for 512 MiB, a sweep of a point that fits (64 KiB) and one that
 * does not (four buffers of 256 MiB): the second is stored skipped, saying how much it
 * asked, and the run completes with the first. */
static void test_a_point_the_card_cannot_hold_is_skipped(void **state)
{
    gpu_run_fixture *f = *state;
    size_t free_b = 0, total_b = 0;
    void *hog = NULL;
    assert_int_equal(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
    assert_true(free_b > ((size_t)1 << 30));
    assert_int_equal(cudaMalloc(&hog, free_b - ((size_t)512 << 20)), cudaSuccess);
    static const char text[] =
        "workload: membw\ndataset: {generator: random}\nvariants: [kernel]\n"
        "axes: {n: [16384, 67108864], op: [copy], block: [256]}\n"
        "measure: {mode: hot, min_samples: 3, max_time: 0.1}\n";
    dm_sweep *s = NULL;
    dm_expansion e = {0};
    dm_sink sink;
    dm_err err = {0};
    sweep_and_sink(f, text, "full.yaml", &s, &e, &sink);
    dm_run_opts o = {.sink = &sink, .progress = DM_PROGRESS_QUIET, .argv_text = "test",
                     .sweep_key = text, .device = &f->dev};
    dm_run_result res;
    int rc = runner_run(s, &e, &o, &res, &err);
    sweep_expansion_free(&e);
    sweep_free(s);
    assert_int_equal(cudaFree(hog), cudaSuccess);
    assert_int_equal(rc, 0);
    assert_int_equal(res.ok, 1);
    assert_int_equal(res.skipped, 1);
    assert_int_equal(res.failed, 0);
    assert_int_equal(afx_open_store(&f->db), 0);
    char buf[2048];
    assert_string_equal(afx_text(f->db.st, "SELECT status FROM runs", buf, sizeof buf),
                        "complete");
    afx_text(f->db.st, "SELECT reason FROM points WHERE status = 'skipped'", buf, sizeof buf);
    assert_non_null(strstr(buf, "out of device memory: 256.0 MiB asked, "));
    assert_int_equal(afx_num(f->db.st, "SELECT count(*) FROM points WHERE status = 'ok' AND "
                                       "params LIKE '%%n=16384%%'"),
                     1);
    assert_int_equal(afx_close(&f->db), 0);
    assert_int_equal(afx_make(&f->db), 0);
}

/* The store sink, with point_done (asked before each point under --resume) launching the
 * fault before the run's second point. */
static dm_sink_ops wrapped;
static int (*store_point_done_op)(void *, int64_t, int64_t, int *, dm_err *);
static int points_asked;

static int point_done_then_fault(void *ctx, int64_t run_id, int64_t idx, int *done,
                                 dm_err *err)
{
    if (++points_asked == 2)
        fault();
    return store_point_done_op(ctx, run_id, idx, done, err);
}

static void test_a_kernel_fault_stops_the_run_for_a_new_process(void **state)
{
    gpu_run_fixture *f = *state;
    static const char text[] =
        "workload: membw\ndataset: {generator: random}\nvariants: [kernel]\n"
        "axes: {n: [4096], op: [copy], block: [64, 128, 256, 512]}\n"
        "measure: {mode: cold, min_samples: 5, max_time: 0.2}\n";
    dm_sweep *s = NULL;
    dm_expansion e = {0};
    dm_sink sink;
    dm_err err = {0};
    sweep_and_sink(f, text, "fault.yaml", &s, &e, &sink);
    wrapped = *sink.ops;
    store_point_done_op = wrapped.point_done;
    wrapped.point_done = point_done_then_fault;
    sink.ops = &wrapped;
    dm_run_opts o = {.sink = &sink, .progress = DM_PROGRESS_QUIET, .argv_text = "test",
                     .sweep_key = text, .device = &f->dev, .resume = 1};
    dm_run_result res;
    assert_int_equal(runner_run(s, &e, &o, &res, &err), 0);
    sweep_expansion_free(&e);
    sweep_free(s);

    assert_non_null(strstr(res.context_lost, "cudaErrorIllegalAddress"));
    assert_true(res.interrupted);
    assert_int_equal(res.ok, 1);
    assert_int_equal(res.failed, 1);
    assert_int_equal(afx_open_store(&f->db), 0);
    char buf[2048];
    assert_string_equal(afx_text(f->db.st, "SELECT status FROM runs", buf, sizeof buf),
                        "interrupted");
    assert_int_equal(afx_num(f->db.st, "SELECT count(*) FROM points"), 2);
    afx_text(f->db.st, "SELECT reason FROM points WHERE status = 'failed'", buf, sizeof buf);
    assert_non_null(strstr(buf, "the CUDA context is lost (cudaErrorIllegalAddress"));
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_fault: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_failed_allocation_leaves_the_context_working),
        cmocka_unit_test(test_a_point_the_card_cannot_hold_is_skipped),
        cmocka_unit_test(test_a_kernel_fault_stops_the_run_for_a_new_process), /* last */
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
