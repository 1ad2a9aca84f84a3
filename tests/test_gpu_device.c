/* test_gpu_device.c - what device_query reports for every GPU, checked against the CUDA
 * runtime asked another way (cudaDeviceGetAttribute one property at a time, the PCI bus
 * id looked back up, the free memory), the limits' order, a UUID as nvidia-smi prints it,
 * the versions, a query past the last GPU failing by name, the code arch_choose says a
 * GPU runs of this build against the code the driver loads, and `dmbench devices`
 * listing them all, as text and JSON. Exits 77 (skip) without a GPU; test_device.c,
 * test_arch.c and test_cli_nogpu.c check the machine without one. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "arch.h"
#include "cli_fixture.h"
#include "device.h"
#include "gpu_probe.h"
#include "version.h"

/* cudaDeviceGetAttribute's answer for attribute a of GPU i. */
static int attr(enum cudaDeviceAttr a, int i)
{
    int v = -1;
    dm_err err = {0};
    if (DM_CUDA(&err, cudaDeviceGetAttribute(&v, a, i)))
        fail_msg("%s", err.msg);
    return v;
}

/* 1 when u is "GPU-" and 8-4-4-4-12 lower-case hex digits. */
static int is_uuid(const char *u)
{
    static const int groups[] = {8, 4, 4, 4, 12};
    if (strncmp(u, "GPU-", 4) != 0)
        return 0;
    u += 4;
    for (int g = 0; g < 5; g++) {
        for (int k = 0; k < groups[g]; k++, u++)
            if (!isxdigit((unsigned char)*u) || isupper((unsigned char)*u))
                return 0;
        if (*u++ != (g < 4 ? '-' : '\0'))
            return 0;
    }
    return 1;
}

static void test_count_matches_the_runtime_and_gives_no_reason(void **state)
{
    (void)state;
    int n = -1, want = 0;
    char why[512] = "";
    assert_int_equal(cudaGetDeviceCount(&want), cudaSuccess);
    assert_int_equal(device_count(&n, why, sizeof why), 0);
    assert_int_equal(n, want);
    assert_true(n >= 1);
    assert_string_equal(why, "");
}

static void test_query_agrees_with_the_runtime(void **state)
{
    (void)state;
    int n = 0;
    char why[512];
    device_count(&n, why, sizeof why);
    for (int i = 0; i < n; i++) {
        dm_device d;
        dm_err err = {0};
        if (device_query(i, &d, &err))
            fail_msg("GPU %d: %s", i, err.msg);
        assert_int_equal(d.index, i);
        assert_true(strlen(d.name) > 0);
        assert_int_equal(d.sms, attr(cudaDevAttrMultiProcessorCount, i));
        assert_int_equal(d.cc_major, attr(cudaDevAttrComputeCapabilityMajor, i));
        assert_int_equal(d.cc_minor, attr(cudaDevAttrComputeCapabilityMinor, i));
        assert_int_equal(d.max_threads_per_block, attr(cudaDevAttrMaxThreadsPerBlock, i));
        assert_int_equal(d.max_threads_per_sm, attr(cudaDevAttrMaxThreadsPerMultiProcessor, i));
        assert_int_equal(d.warp_size, attr(cudaDevAttrWarpSize, i));
        assert_int_equal(d.l2_bytes, attr(cudaDevAttrL2CacheSize, i));
        assert_int_equal(d.regs_per_block, attr(cudaDevAttrMaxRegistersPerBlock, i));
        assert_int_equal(d.regs_per_sm, attr(cudaDevAttrMaxRegistersPerMultiprocessor, i));
        assert_int_equal(d.max_blocks_per_sm, attr(cudaDevAttrMaxBlocksPerMultiprocessor, i));
        assert_int_equal(d.smem_per_block, attr(cudaDevAttrMaxSharedMemoryPerBlock, i));
        assert_int_equal(d.smem_per_block_optin, attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, i));
        assert_int_equal(d.smem_per_sm, attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, i));
        assert_int_equal(d.mem_bus_bits, attr(cudaDevAttrGlobalMemoryBusWidth, i));
        /* the limits in their order, and what sweeps divide by is never 0 */
        assert_true(d.warp_size == 32);
        assert_true(d.max_threads_per_block <= d.max_threads_per_sm);
        assert_true(d.smem_per_block <= d.smem_per_block_optin);
        assert_true(d.smem_per_block_optin <= d.smem_per_sm);
        assert_true(d.sm_clock_khz > 0 && d.mem_clock_khz > 0);
        /* the memory the device has holds what is free on it now */
        size_t free_bytes = 0, total = 0;
        assert_int_equal(cudaSetDevice(i), cudaSuccess);
        assert_int_equal(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
        assert_true(d.mem_bytes >= (int64_t)free_bytes && free_bytes > 0);
        /* the PCI bus id finds this GPU again, and the UUID is nvidia-smi's shape */
        int found = -1;
        assert_int_equal(cudaDeviceGetByPCIBusId(&found, d.pci_bus_id), cudaSuccess);
        assert_int_equal(found, i);
        if (!is_uuid(d.uuid))
            fail_msg("GPU %d: uuid '%s' is not GPU-8-4-4-4-12 lower-case hex", i, d.uuid);
        /* this binary's runtime, under a driver of its major version or newer (minor
         * version compatibility lets a 13.1 runtime run on a 13.0 driver) */
        assert_int_equal(d.runtime_version, CUDART_VERSION);
        assert_true(d.driver_version / 1000 >= d.runtime_version / 1000);
        /* the names sweep constraints use read the same fields */
        double v = 0;
        assert_int_equal(device_prop(&d, "cc", &v), 0);
        assert_true(v == d.cc_major * 10 + d.cc_minor);
        assert_int_equal(device_prop(&d, "sm_clock_mhz", &v), 0);
        assert_true(v == d.sm_clock_khz / 1000.0);
    }
}

static void test_every_gpu_has_its_own_uuid(void **state)
{
    (void)state;
    int n = 0;
    char why[512];
    device_count(&n, why, sizeof why);
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            dm_device a, b;
            dm_err err = {0};
            assert_int_equal(device_query(i, &a, &err), 0);
            assert_int_equal(device_query(j, &b, &err), 0);
            assert_string_not_equal(a.uuid, b.uuid);
            assert_string_not_equal(a.pci_bus_id, b.pci_bus_id);
        }
    }
}

static void test_query_past_the_last_gpu_fails_naming_it(void **state)
{
    (void)state;
    int n = 0;
    char why[512], want[32];
    dm_device d;
    dm_err err = {0};
    device_count(&n, why, sizeof why);
    assert_int_equal(device_query(n, &d, &err), DM_ERUNTIME);
    snprintf(want, sizeof want, "GPU %d: ", n);
    assert_int_equal(strncmp(err.msg, want, strlen(want)), 0);
    assert_non_null(strstr(err.msg, "cudaErrorInvalidDevice"));
}

/* What arch_choose works out from this build's architectures is what the driver loads:
 * the SASS named, the GPU's own SASS JIT-compiled from the PTX named, or nothing. */
static void test_driver_loads_the_code_arch_choose_names(void **state)
{
    (void)state;
    int n = 0, before = -1, after = -1;
    char why[512];
    device_count(&n, why, sizeof why);
    assert_int_equal(cudaGetDevice(&before), cudaSuccess);
    for (int i = 0; i < n; i++) {
        dm_device d;
        dm_arch_choice c;
        dm_err err = {0};
        int binary = 0, ptx = 0;
        assert_int_equal(device_query(i, &d, &err), 0);
        if (arch_choose(dm_cuda_archs, d.cc_major, d.cc_minor, &c, &err))
            fail_msg("%s", err.msg);
        int rc = gpu_probe_code(i, &binary, &ptx, &err);
        if (c.code == DM_ARCH_NONE) {
            assert_int_equal(rc, DM_ERUNTIME);
            assert_non_null(strstr(err.msg, "cudaErrorNoKernelImageForDevice"));
            continue;
        }
        if (rc)
            fail_msg("GPU %d: %s", i, err.msg);
        if (c.code == DM_ARCH_SASS)
            assert_int_equal(binary, c.arch);
        else {
            assert_int_equal(binary, d.cc_major * 10 + d.cc_minor);
            assert_int_equal(ptx, c.arch);
        }
    }
    /* the current device is left as it was */
    assert_int_equal(cudaGetDevice(&after), cudaSuccess);
    assert_int_equal(after, before);
}

/* `dmbench devices`, as text and JSON, lists every GPU with what device_query says and
 * the code it runs. */
static void test_devices_command_lists_every_gpu(void **state)
{
    fixture *f = *state;
    int n = 0;
    char why[512], want[512], text[1 << 16];
    device_count(&n, why, sizeof why);
    assert_int_equal(dmbench(f, "devices"), 0);
    snprintf(text, sizeof text, "%s", slurp(f->out));
    assert_int_equal(dmbench(f, "devices --json"), 0);
    const char *json = slurp(f->out);
    for (int i = 0; i < n; i++) {
        dm_device d;
        dm_err err = {0};
        assert_int_equal(device_query(i, &d, &err), 0);
        const char *at;
        snprintf(want, sizeof want, "GPU %d: %s\n  uuid                %s\n", i, d.name, d.uuid);
        if (!(at = strstr(text, want)))
            fail_msg("devices does not list '%s' in:\n%s", want, text);
        snprintf(want, sizeof want, "  compute capability  %d.%d\n  SMs                 %d\n",
                 d.cc_major, d.cc_minor, d.sms);
        assert_non_null(strstr(at, want));
        snprintf(want, sizeof want, "{\"index\": %d, \"name\": \"%s\", \"uuid\": \"%s\"", i,
                 d.name, d.uuid);
        if (!(at = strstr(json, want)))
            fail_msg("devices --json does not list '%s' in:\n%s", want, json);
        snprintf(want, sizeof want, "\"cc\": \"%d.%d\", \"sms\": %d, \"mem_bytes\": %lld,",
                 d.cc_major, d.cc_minor, d.sms, (long long)d.mem_bytes);
        assert_non_null(strstr(at, want));
        dm_arch_choice c;
        char line[256], name[32];
        assert_int_equal(arch_choose(dm_cuda_archs, d.cc_major, d.cc_minor, &c, &err), 0);
        arch_describe(&c, dm_cuda_archs, d.cc_major, d.cc_minor, line, sizeof line);
        arch_name(&c, name, sizeof name);
        snprintf(want, sizeof want, "  kernels             %s\n  driver loads        ", line);
        if (!strstr(text, want))
            fail_msg("devices does not say '%s' in:\n%s", want, text);
        snprintf(want, sizeof want, "\"kernels\": {\"code\": \"%s\", \"arch\": %s%s%s, ",
                 arch_code_name(c.code), c.arch ? "\"" : "", c.arch ? name : "null",
                 c.arch ? "\"" : "");
        if (!strstr(at, want))
            fail_msg("devices --json does not say '%s' in:\n%s", want, json);
    }
    assert_int_equal(strncmp(json, "{\"devices\": [", 13), 0);
    assert_non_null(strstr(json, "\n  ], \"no_gpu_reason\": null}\n"));
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_device: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_matches_the_runtime_and_gives_no_reason),
        cmocka_unit_test(test_query_agrees_with_the_runtime),
        cmocka_unit_test(test_every_gpu_has_its_own_uuid),
        cmocka_unit_test(test_query_past_the_last_gpu_fails_naming_it),
        cmocka_unit_test(test_driver_loads_the_code_arch_choose_names),
        cmocka_unit_test_setup_teardown(test_devices_command_lists_every_gpu, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
