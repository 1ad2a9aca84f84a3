/* test_cli_nogpu.c - the commands that need a GPU, on a machine without one (made so on
 * any machine by CUDA_VISIBLE_DEVICES=-1, which the dmbench they run inherits): `devices`
 * says why, as text and as JSON, and exits 0; `calibrate` fails (exit 1) with the same
 * reason and writes no database; and both refuse bad options (exit 2, one line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "cli_fixture.h"

/* What `dmbench devices` gives as the reason there is no GPU, in buf. */
static const char *no_gpu_reason(fixture *f, char *buf, size_t n)
{
    assert_int_equal(dmbench(f, "devices"), 0);
    const char *out = slurp(f->out);
    assert_int_equal(strncmp(out, "no GPU: ", 8), 0);
    assert_int_equal(count_lines(out), 1);
    snprintf(buf, n, "%.*s", (int)strlen(out) - 9, out + 8);
    return buf;
}

static void test_devices_says_why_there_is_no_gpu(void **state)
{
    fixture *f = *state;
    char why[512], want[700];
    no_gpu_reason(f, why, sizeof why);
    assert_non_null(strstr(why, "(cudaGetDeviceCount: cudaError"));
    assert_string_equal(slurp(f->errf), "");
    /* the JSON form: no devices and the same reason */
    assert_int_equal(dmbench(f, "devices --json"), 0);
    snprintf(want, sizeof want, "{\"devices\": [], \"no_gpu_reason\": \"%s\"}\n", why);
    assert_string_equal(slurp(f->out), want);
}

static void test_devices_refuses_bad_options(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "devices --bogus"), 2);
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    assert_non_null(strstr(slurp(f->errf), "dmbench devices: error: unknown option '--bogus'"));
    assert_int_equal(dmbench(f, "devices 0"), 2);
    assert_non_null(strstr(slurp(f->errf), "unexpected argument '0'"));
    assert_int_equal(dmbench(f, "devices --help"), 0);
    assert_non_null(strstr(slurp(f->out), "usage: dmbench devices"));
}

static void test_calibrate_needs_a_gpu_and_writes_nothing(void **state)
{
    fixture *f = *state;
    char why[512], want[700];
    struct stat sb;
    no_gpu_reason(f, why, sizeof why);
    snprintf(want, sizeof want, "dmbench: error: calibration needs a GPU: %s\n", why);
    assert_int_equal(dmbench(f, "calibrate --db %s --quiet", f->db), 1);
    assert_string_equal(slurp(f->errf), want);
    assert_string_equal(slurp(f->out), "");
    assert_int_equal(dmbench(f, "calibrate membw --db %s", f->db), 1);
    assert_string_equal(slurp(f->errf), want);
    assert_int_equal(stat(f->db, &sb), -1);
}

static void test_calibrate_refuses_bad_options_before_looking_for_a_gpu(void **state)
{
    fixture *f = *state;
    const struct {
        const char *args, *says;
    } cases[] = {
        {"--mib 0", "--mib 0: expected an integer in 1..65536"},
        {"--mib 65537", "--mib 65537: expected an integer in 1..65536"},
        {"--mib 12x", "--mib 12x: expected an integer in 1..65536"},
        {"--device -1", "--device -1: expected an integer in 0..1024"},
        {"--db", "option --db needs a value"},
        {"--bogus", "unknown option '--bogus'"},
        {"tdm", "workload 'tdm' has no calibration"},
        {"membw now", "unexpected argument 'now'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(dmbench(f, "calibrate %s", cases[i].args), 2);
        const char *err = slurp(f->errf);
        assert_int_equal(count_lines(err), 1);
        if (strncmp(err, "dmbench calibrate: error: ", 26) != 0 || !strstr(err, cases[i].says))
            fail_msg("calibrate %s said: %s", cases[i].args, err);
    }
    assert_int_equal(dmbench(f, "calibrate nosuch"), 2);
    assert_non_null(strstr(slurp(f->errf), "dmbench: error: unknown workload 'nosuch'"));
    assert_int_equal(dmbench(f, "calibrate --help"), 0);
    assert_non_null(strstr(slurp(f->out), "usage: dmbench calibrate"));
}

int main(void)
{
    /* Before any CUDA: the dmbench each test runs sees no GPU, whatever the machine has. */
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_devices_says_why_there_is_no_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_devices_refuses_bad_options, setup, teardown),
        cmocka_unit_test_setup_teardown(test_calibrate_needs_a_gpu_and_writes_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_calibrate_refuses_bad_options_before_looking_for_a_gpu, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
