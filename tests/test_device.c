/* test_device.c - the device module where there is no GPU (made so on any machine by
 * CUDA_VISIBLE_DEVICES=-1 before CUDA starts): device_count degrades to 0 GPUs with the
 * reason, device_query and the SM clock fail naming the CUDA call; and what needs no GPU:
 * the property names sweep constraints use and the names of throttle reasons. The GPU
 * branch is test_gpu_device.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"
#include "gpuclock.h"

/* 1 when why starts with one of the reasons device_count gives for no GPU: no device
 * (a machine with a driver) or no driver. */
static int is_no_gpu_reason(const char *why)
{
    static const char *const reasons[] = {"no CUDA-capable device",
                                          "CUDA driver not found or older than the runtime"};
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (strncmp(why, reasons[i], strlen(reasons[i])) == 0)
            return 1;
    return 0;
}

static void test_count_is_zero_with_the_reason(void **state)
{
    (void)state;
    int n = -1;
    char why[512] = "";
    assert_int_equal(device_count(&n, why, sizeof why), 0);
    assert_int_equal(n, 0);
    if (!is_no_gpu_reason(why) || !strstr(why, "(cudaGetDeviceCount: cudaError"))
        fail_msg("no GPU, but the reason is '%s'", why);
    /* asked again, the same answer: the failed call left no error behind */
    char again[512] = "";
    assert_int_equal(device_count(&n, again, sizeof again), 0);
    assert_int_equal(n, 0);
    assert_string_equal(again, why);
}

static void test_query_fails_naming_the_gpu_and_the_call(void **state)
{
    (void)state;
    dm_device d;
    dm_err err = {0};
    assert_int_equal(device_query(0, &d, &err), DM_ERUNTIME);
    assert_int_equal(err.code, DM_ERUNTIME);
    assert_int_equal(strncmp(err.msg, "GPU 0: ", 7), 0);
    assert_non_null(strstr(err.msg, "cudaGetDeviceProperties(&p, index): cudaError"));
}

static void test_clock_cannot_open_without_a_gpu(void **state)
{
    (void)state;
    dm_device d = {.index = 0};
    dm_gpuclock *g = NULL;
    dm_err err = {0};
    /* NVML does not know a device CUDA cannot see, and the probe cannot allocate */
    assert_int_equal(gpuclock_open(&d, NULL, 1, &g, &err), DM_ERUNTIME);
    assert_null(g);
    assert_non_null(strstr(err.msg, "cudaMalloc("));
}

static const dm_device filled = {
    .sms = 132,
    .mem_bytes = 85899345920LL,
    .l2_bytes = 52428800,
    .max_threads_per_block = 1024,
    .max_threads_per_sm = 2048,
    .warp_size = 32,
    .regs_per_block = 65536,
    .regs_per_sm = 65536,
    .max_blocks_per_sm = 32,
    .mem_bus_bits = 5120,
    .smem_per_block = 49152,
    .smem_per_block_optin = 232448,
    .smem_per_sm = 233472,
    .cc_major = 9,
    .cc_minor = 0,
    .sm_clock_khz = 1980000,
    .mem_clock_khz = 2619000,
};

static void test_prop_returns_each_name(void **state)
{
    (void)state;
    struct {
        const char *name;
        double want;
    } cases[] = {
        {"max_threads", 1024},       {"sms", 132},
        {"l2_bytes", 52428800},      {"mem_bytes", 85899345920.0},
        {"smem_per_block", 49152},   {"smem_per_block_optin", 232448},
        {"smem_per_sm", 233472},     {"max_threads_per_sm", 2048},
        {"warp_size", 32},           {"regs_per_block", 65536},
        {"cc", 90},                  {"cc_major", 9},
        {"cc_minor", 0},             {"sm_clock_mhz", 1980},
        {"mem_clock_mhz", 2619},     {"regs_per_sm", 65536},
        {"max_blocks_per_sm", 32},   {"mem_bus_bits", 5120},
    };
    size_t ncases = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < ncases; i++) {
        double v = -1;
        assert_int_equal(device_prop(&filled, cases[i].name, &v), 0);
        assert_true(v == cases[i].want);
    }
    /* device_prop_names lists exactly these names */
    size_t listed = 0;
    for (const char *const *p = device_prop_names(); *p; p++, listed++) {
        size_t i = 0;
        while (i < ncases && strcmp(cases[i].name, *p) != 0)
            i++;
        assert_true(i < ncases);
    }
    assert_int_equal(listed, ncases);
}

static void test_prop_rejects_unknown_names(void **state)
{
    (void)state;
    double v = 42;
    assert_int_equal(device_prop(&filled, "max_thread", &v), -1);
    assert_int_equal(device_prop(&filled, "", &v), -1);
    assert_int_equal(device_prop(&filled, "device.sms", &v), -1);
    assert_true(v == 42);
}

static void test_reason_names_follow_the_mask(void **state)
{
    (void)state;
    char buf[128] = "x";
    gpuclock_reason_names(0, buf, sizeof buf);
    assert_string_equal(buf, "");
    gpuclock_reason_names(GPUCLOCK_HW_THERMAL | GPUCLOCK_SW_POWER_CAP, buf, sizeof buf);
    assert_string_equal(buf, "sw_power_cap,hw_thermal");
    gpuclock_reason_names(GPUCLOCK_THROTTLE_MASK, buf, sizeof buf);
    assert_string_equal(buf, "sw_power_cap,hw_slowdown,sw_thermal,hw_thermal,hw_power_brake");
    /* idling (0x1) is not a throttle reason and has no name here */
    gpuclock_reason_names(0x1ULL | GPUCLOCK_HW_POWER_BRAKE, buf, sizeof buf);
    assert_string_equal(buf, "hw_power_brake");
    /* a short buffer stays terminated */
    char small[8];
    gpuclock_reason_names(GPUCLOCK_THROTTLE_MASK, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_equal(strncmp(small, "sw_powe", 7), 0);
}

int main(void)
{
    /* Before CUDA starts: no GPU is visible, whatever the machine has. */
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_is_zero_with_the_reason),
        cmocka_unit_test(test_query_fails_naming_the_gpu_and_the_call),
        cmocka_unit_test(test_clock_cannot_open_without_a_gpu),
        cmocka_unit_test(test_prop_returns_each_name),
        cmocka_unit_test(test_prop_rejects_unknown_names),
        cmocka_unit_test(test_reason_names_follow_the_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
