/* test_device.c - device enumeration without a GPU and the property names sweep
 * constraints use (device_prop on a filled dm_device). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"

static void test_count_never_fails_and_explains_zero(void **state)
{
    (void)state;
    int n = -1;
    char why[512] = "";
    assert_int_equal(device_count(&n, why, sizeof why), 0);
    assert_true(n >= 0);
    if (n == 0) {
        assert_true(strlen(why) > 0);
        assert_non_null(strstr(why, "cudaGetDeviceCount"));
    }
}

static void test_query_fills_what_count_reports(void **state)
{
    (void)state;
    int n;
    char why[512];
    device_count(&n, why, sizeof why);
    if (n == 0)
        skip();
    dm_device d;
    dm_err err = {0};
    assert_int_equal(device_query(0, &d, &err), 0);
    assert_true(d.sms > 0);
    assert_true(d.max_threads_per_block >= 32);
    assert_int_equal(strncmp(d.uuid, "GPU-", 4), 0);
    assert_int_equal(strlen(d.uuid), 40);
    assert_int_not_equal(device_query(n, &d, &err), 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_never_fails_and_explains_zero),
        cmocka_unit_test(test_query_fills_what_count_reports),
        cmocka_unit_test(test_prop_returns_each_name),
        cmocka_unit_test(test_prop_rejects_unknown_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
