/* test_gpu_membw.c - every GPU variant of membw against the CPU reference, bit for bit,
 * across sizes, block sizes, grids and both ops; the scalar (unaligned) kernel path; and
 * the plain cudaMemcpy loop. memcpy refusing triad is the only refusal expected. Exits 77
 * (skip) without a GPU. */
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
#include "gpu_fixture.h"
#include "membw/membw.h"
#include "point_set.h"
#include "registry.h"

extern const dm_workload membw_workload;

/* memcpy only copies. */
static const check_skip memcpy_triad[] = {
    {"memcpy", "op=triad", "memcpy only copies"},
    {0},
};

static void test_gpu_variants_match_reference(void **state)
{
    gpu_fixture *f = *state;
    check_cases c;
    check_begin(&c, memcpy_triad);
    const int64_t sizes[] = {1, 3, 1000, 1 << 20};
    const int blocks[] = {32, 128, 1024};
    const int per_sm[] = {0, 2};
    const char *ops[] = {"copy", "triad"};
    dm_err err = {0};
    for (size_t si = 0; si < 4; si++) {
        dm_point pt;
        dm_dataset ds;
        dm_data_source src = {.generator = "random"};
        const dm_variant *cpu = registry_variant(&membw_workload, "cpu", &err);
        assert_int_equal(registry_point_defaults(&membw_workload, cpu, &pt, &err), 0);
        set_int(&pt, "n", sizes[si]);
        assert_int_equal(membw_workload.dataset_open(&src, &pt, &ds, &err), 0);
        for (size_t oi = 0; oi < 2; oi++) {
            void *ref;
            set_str(&pt, "op", ops[oi]);
            assert_int_equal(membw_workload.reference(&ds, &pt, &ref, &err), 0);
            for (const dm_variant *v = membw_workload.variants; v->name; v++) {
                if (!v->needs_gpu)
                    continue;
                dm_point vp;
                assert_int_equal(registry_point_defaults(&membw_workload, v, &vp, &err), 0);
                set_int(&vp, "n", sizes[si]);
                set_str(&vp, "op", ops[oi]);
                if (!v->params) {
                    check_variant(&c, &f->ex, &membw_workload, v, &vp, &ds, ref);
                    continue;
                }
                for (size_t bi = 0; bi < 3; bi++) {
                    for (size_t gi = 0; gi < 2; gi++) {
                        set_int(&vp, "block", blocks[bi]);
                        set_int(&vp, "blocks_per_sm", per_sm[gi]);
                        check_variant(&c, &f->ex, &membw_workload, v, &vp, &ds, ref);
                    }
                }
            }
            membw_workload.reference_free(ref);
        }
        membw_workload.dataset_close(&ds);
    }
    check_end(&c, __func__);
}

/* Arrays offset by one float are not 16-byte aligned: the launcher must take the
 * scalar kernel and still match. */
static void test_unaligned_arrays_take_the_scalar_path(void **state)
{
    gpu_fixture *f = *state;
    const int64_t n = 1001;
    size_t bytes = (size_t)(n + 1) * sizeof(float);
    float *host = malloc(3 * bytes), *want = malloc(bytes), *got = malloc(bytes);
    float *dev = NULL, *out = NULL;
    dm_err err = {0};
    assert_non_null(host);
    assert_non_null(want);
    assert_non_null(got);
    membw_generate(9, n + 1, host, host + n + 1, host + 2 * (n + 1));
    membw_data d = {.n = n, .a = host + 1, .b = host + n + 2, .c = host + 2 * n + 3};
    assert_int_equal(DM_CUDA(&err, cudaMalloc((void **)&dev, 3 * bytes)), 0);
    assert_int_equal(DM_CUDA(&err, cudaMalloc((void **)&out, bytes)), 0);
    assert_int_equal(DM_CUDA(&err, cudaMemcpyAsync(dev, host, 3 * bytes,
                                                   cudaMemcpyHostToDevice, f->stream)),
                     0);
    for (int op = MEMBW_COPY; op <= MEMBW_TRIAD; op++) {
        membw_cpu((membw_op)op, &d, want);
        assert_int_equal(DM_CUDA(&err, cudaMemsetAsync(out, 0xFF, bytes, f->stream)), 0);
        if (membw_launch((membw_op)op, dev + 1, dev + n + 2, dev + 2 * n + 3, out + 1, n, 128,
                         0, f->stream, &err))
            fail_msg("launch: %s", err.msg);
        assert_int_equal(DM_CUDA(&err, cudaMemcpyAsync(got, out + 1, (size_t)n * sizeof(float),
                                                       cudaMemcpyDeviceToHost, f->stream)),
                         0);
        assert_int_equal(DM_CUDA(&err, cudaStreamSynchronize(f->stream)), 0);
        assert_memory_equal(got, want, (size_t)n * sizeof(float));
    }
    cudaFree(dev);
    cudaFree(out);
    free(host);
    free(want);
    free(got);
}

static void test_plain_memcpy_reports_bandwidth(void **state)
{
    (void)state;
    double gbps = 0;
    dm_err err = {0};
    if (membw_plain_memcpy(64 << 20, 10, &gbps, &err))
        fail_msg("%s", err.msg);
    assert_true(gbps > 1.0);
    assert_int_equal(membw_plain_memcpy(0, 10, &gbps, &err), DM_EINPUT);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_membw: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_variants_match_reference),
        cmocka_unit_test(test_unaligned_arrays_take_the_scalar_path),
        cmocka_unit_test(test_plain_memcpy_reports_bandwidth),
    };
    gpu_test_filter();
    return cmocka_run_group_tests(tests, setup, teardown);
}
