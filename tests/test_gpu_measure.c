/* test_gpu_measure.c - the measurement engine on the GPU with a variant that memsets a
 * buffer: cold and hot sampling, the SM clock source (NVML or the probe kernel) and
 * its readings, and CUDA errors from the variant. Exits 77 (skip) without a GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "device.h"
#include "gpuclock.h"
#include "measure.h"

#define BUF_BYTES (16u << 20)

typedef struct gpu_fixture {
    dm_device dev;
    cudaStream_t stream;
    dm_measure_ctx *ctx;
    void *buf;
    long calls;
    long fail_at; /* the call that memsets a NULL pointer (0: none) */
} gpu_fixture;

static int memset_run(void *state, dm_err *err)
{
    gpu_fixture *f = state;
    f->calls++;
    void *dst = f->calls == f->fail_at ? NULL : f->buf;
    if (DM_CUDA(err, cudaMemsetAsync(dst, (int)(f->calls & 0xff), BUF_BYTES, f->stream)))
        return DM_ERUNTIME;
    return 0;
}

static const dm_variant memset_variant = {.name = "memset", .needs_gpu = 1,
                                          .run = memset_run};

static int setup(void **state)
{
    gpu_fixture *f = calloc(1, sizeof *f);
    dm_err err = {0};
    if (!f || device_query(0, &f->dev, &err) ||
        DM_CUDA(&err, cudaStreamCreateWithFlags(&f->stream, cudaStreamNonBlocking)) ||
        DM_CUDA(&err, cudaMalloc(&f->buf, BUF_BYTES))) {
        fprintf(stderr, "setup: %s\n", err.msg);
        free(f);
        return -1;
    }
    dm_exec ex = {.device = &f->dev, .stream = f->stream};
    if (measure_ctx_create(&ex, &f->ctx, &err)) {
        fprintf(stderr, "setup: %s\n", err.msg);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    gpu_fixture *f = *state;
    measure_ctx_free(f->ctx);
    cudaFree(f->buf);
    cudaStreamDestroy(f->stream);
    free(f);
    return 0;
}

static dm_measure_opts opts(dm_mode mode)
{
    dm_measure_opts o = {.mode = mode, .min_samples = 10, .max_noise = 0.05, .max_time = 1.0,
                         .max_samples = 2000};
    return o;
}

static int is_nvml(const gpu_fixture *f)
{
    return strcmp(measure_clock_source(f->ctx), "nvml") == 0;
}

/* What every GPU measurement must satisfy, whatever the clock source. */
static void check_gpu_measurement(const gpu_fixture *f, const dm_measurement *m)
{
    assert_true(m->n > 0);
    assert_non_null(m->stop_reason);
    assert_string_equal(m->clock_source, measure_clock_source(f->ctx));
    assert_true(isfinite(m->sm_mhz_before) && m->sm_mhz_before > 100);
    assert_true(isfinite(m->sm_mhz_after) && m->sm_mhz_after > 100);
    assert_true(m->warmup_seconds > 0 && m->elapsed > 0);
    int throttled = 0;
    for (size_t i = 0; i < m->n; i++) {
        assert_true(m->samples[i].seconds > 0);
        assert_int_equal(m->samples[i].batch, m->batch);
        assert_true(is_nvml(f) ? isfinite(m->samples[i].sm_mhz) : isnan(m->samples[i].sm_mhz));
        throttled += m->samples[i].throttled;
    }
    assert_int_equal(m->n_throttled, throttled);
    assert_true((throttled > 0) == (m->throttle_reasons[0] != '\0'));
    assert_int_equal(m->stats.n, m->n);
    assert_true(m->stats.min > 0 && m->stats.min <= m->stats.median &&
                m->stats.median <= m->stats.max);
}

static void context_reads_the_sm_clock(void **state)
{
    gpu_fixture *f = *state;
    const char *src = measure_clock_source(f->ctx);
    assert_true(strcmp(src, "nvml") == 0 || strcmp(src, "clock64") == 0);
    double mhz = measure_sm_clock(f->ctx);
    assert_true(isfinite(mhz) && mhz > 100);
}

static void probe_kernel_measures_a_plausible_clock(void **state)
{
    gpu_fixture *f = *state;
    dm_gpuclock *g;
    dm_err err = {0};
    assert_int_equal(gpuclock_open(&f->dev, f->stream, 0, &g, &err), DM_OK);
    assert_string_equal(gpuclock_source(g), "clock64");
    double mhz;
    assert_int_equal(gpuclock_read(g, &mhz, &err), DM_OK);
    unsigned long long reasons;
    assert_int_equal(gpuclock_reasons(g, &reasons), -1);
    gpuclock_close(g);
    /* between idle clocks and a little above the maximum the runtime reports */
    assert_true(mhz > 100 && mhz < 1.1 * f->dev.sm_clock_khz / 1000.0);
}

static void cold_samples_one_flushed_execution_each(void **state)
{
    gpu_fixture *f = *state;
    dm_measure_opts o = opts(DM_MODE_COLD);
    dm_measurement m;
    dm_err err = {0};
    f->calls = 0;
    assert_int_equal(measure_point(f->ctx, &memset_variant, f, &o, &m, &err), DM_OK);
    check_gpu_measurement(f, &m);
    assert_int_equal(m.mode, DM_MODE_COLD);
    assert_int_equal(m.batch, 1);
    assert_int_equal(f->calls, (long)m.n + 1);
    measure_free(&m);
}

static void hot_samples_batches(void **state)
{
    gpu_fixture *f = *state;
    dm_measure_opts o = opts(DM_MODE_HOT);
    dm_measurement m;
    dm_err err = {0};
    f->calls = 0;
    assert_int_equal(measure_point(f->ctx, &memset_variant, f, &o, &m, &err), DM_OK);
    check_gpu_measurement(f, &m);
    assert_int_equal(m.mode, DM_MODE_HOT);
    assert_true(m.batch >= 1 && m.batch <= 10000);
    assert_true(f->calls >= 1 + (long)m.n * m.batch);
    measure_free(&m);
}

static void cuda_error_from_the_variant_is_returned(void **state)
{
    gpu_fixture *f = *state;
    dm_measure_opts o = opts(DM_MODE_COLD);
    dm_measurement m;
    dm_err err = {0};
    f->calls = 0;
    f->fail_at = 3;
    int rc = measure_point(f->ctx, &memset_variant, f, &o, &m, &err);
    f->fail_at = 0;
    assert_int_equal(rc, DM_ERUNTIME);
    assert_non_null(strstr(err.msg, "cudaMemsetAsync"));
    assert_null(m.samples);
    assert_int_equal(m.n, 0);
    /* the context still measures afterwards */
    assert_int_equal(measure_point(f->ctx, &memset_variant, f, &o, &m, &err), DM_OK);
    measure_free(&m);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("no GPU: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(context_reads_the_sm_clock),
        cmocka_unit_test(probe_kernel_measures_a_plausible_clock),
        cmocka_unit_test(cold_samples_one_flushed_execution_each),
        cmocka_unit_test(hot_samples_batches),
        cmocka_unit_test(cuda_error_from_the_variant_is_returned),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
