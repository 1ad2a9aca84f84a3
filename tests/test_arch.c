/* test_arch.c - which of the binary's GPU code a card runs (arch.h), for stand-in compute
 * capabilities from Turing to a card after Blackwell: SASS of its own architecture or an
 * earlier minor, PTX JIT-compiled, or none with the rebuild to do; the arch-specific and
 * family suffixes; lists it cannot read; and this build's own list. Only Hopper cards are
 * lent for GPU runs, so the other cards' answers are checked here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch.h"
#include "version.h"

/* The default lists of CMakeLists.txt: on x86-64, and on aarch64. */
#define X86_ARCHS "75-real,80-real,86-real,89-real,90-real,100-real,103-real,120"
#define ARM_ARCHS                                                                          \
    "75-real,80-real,86-real,87-real,89-real,90-real,100-real,103-real,110-real,120,121-real"

/* Fails unless a card of compute capability major.minor, under a binary built for archs,
 * is described as want. */
static void expect(const char *archs, int major, int minor, const char *want)
{
    dm_arch_choice c;
    dm_err err = {0};
    char got[256];
    if (arch_choose(archs, major, minor, &c, &err) != 0)
        fail_msg("%s on %d.%d: %s", archs, major, minor, err.msg);
    arch_describe(&c, archs, major, minor, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("%s on %d.%d: '%s', not '%s'", archs, major, minor, got, want);
}

static void test_each_card_of_the_default_list_runs_its_own_sass(void **state)
{
    (void)state;
    expect(X86_ARCHS, 7, 5, "SASS sm_75 (exact)");   /* T4, RTX 20 */
    expect(X86_ARCHS, 8, 0, "SASS sm_80 (exact)");   /* A100 */
    expect(X86_ARCHS, 8, 6, "SASS sm_86 (exact)");   /* A10, RTX 30 */
    expect(X86_ARCHS, 8, 9, "SASS sm_89 (exact)");   /* L4, RTX 40 */
    expect(X86_ARCHS, 9, 0, "SASS sm_90 (exact)");   /* H100, H200 */
    expect(X86_ARCHS, 10, 0, "SASS sm_100 (exact)"); /* B200 */
    expect(X86_ARCHS, 10, 3, "SASS sm_103 (exact)"); /* B300 */
    expect(X86_ARCHS, 12, 0, "SASS sm_120 (exact)"); /* RTX 50, RTX PRO 6000 */
    expect(ARM_ARCHS, 8, 7, "SASS sm_87 (exact)");   /* Jetson Orin */
    expect(ARM_ARCHS, 11, 0, "SASS sm_110 (exact)"); /* Jetson Thor */
    expect(ARM_ARCHS, 12, 1, "SASS sm_121 (exact)"); /* DGX Spark */
}

static void test_a_later_minor_runs_the_sass_of_an_earlier_one(void **state)
{
    (void)state;
    expect(X86_ARCHS, 8, 7, "SASS sm_86 (runs on 8.7)");
    expect(X86_ARCHS, 8, 8, "SASS sm_86 (runs on 8.8)");
    expect(X86_ARCHS, 12, 1, "SASS sm_120 (runs on 12.1)");
    /* the newest that runs, not the first */
    expect("80-real,86-real", 8, 9, "SASS sm_86 (runs on 8.9)");
    /* SASS before PTX, even PTX of the card's own architecture */
    expect("80-real,86-virtual", 8, 6, "SASS sm_80 (runs on 8.6)");
}

static void test_a_later_card_jit_compiles_the_newest_ptx(void **state)
{
    (void)state;
    expect(X86_ARCHS, 13, 0, "PTX compute_120, JIT-compiled at first launch");
    expect("90", 10, 0, "PTX compute_90, JIT-compiled at first launch");
    expect("80-virtual,90-virtual", 12, 0, "PTX compute_90, JIT-compiled at first launch");
    expect("80-virtual,90-virtual", 8, 9, "PTX compute_80, JIT-compiled at first launch");
}

static void test_no_code_names_what_was_built_and_the_rebuild(void **state)
{
    (void)state;
    expect("90", 8, 0,
           "none: built for sm_90, compute_90; rebuild with -DCMAKE_CUDA_ARCHITECTURES=80");
    expect("80-virtual", 7, 5,
           "none: built for compute_80; rebuild with -DCMAKE_CUDA_ARCHITECTURES=75");
    /* SASS never crosses a major, either way */
    expect("80-real", 9, 0, "none: built for sm_80; rebuild with -DCMAKE_CUDA_ARCHITECTURES=90");
    /* Thor is no x86-64 card: the list of an x86-64 build has neither its SASS nor PTX
     * old enough for it */
    expect(X86_ARCHS, 11, 0,
           "none: built for sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_103, sm_120, "
           "compute_120; rebuild with -DCMAKE_CUDA_ARCHITECTURES=110");
    expect("90", 6, 1,
           "none: built for sm_90, compute_90; rebuild with -DCMAKE_CUDA_ARCHITECTURES=61");
}

static void test_arch_specific_code_runs_on_its_card_and_family_code_on_the_family(void **state)
{
    (void)state;
    expect("90a-real", 9, 0, "SASS sm_90a (exact)");
    expect("100a-real", 10, 3,
           "none: built for sm_100a; rebuild with -DCMAKE_CUDA_ARCHITECTURES=103");
    expect("100f-real", 10, 3, "SASS sm_100f (runs on 10.3)");
    expect("100a-virtual", 10, 3,
           "none: built for compute_100a; rebuild with -DCMAKE_CUDA_ARCHITECTURES=103");
    expect("100f-virtual", 10, 3, "PTX compute_100f, JIT-compiled at first launch");
    expect("100f-virtual", 12, 0,
           "none: built for compute_100f; rebuild with -DCMAKE_CUDA_ARCHITECTURES=120");
    expect("100-virtual", 12, 0, "PTX compute_100, JIT-compiled at first launch");
}

static void test_choice_fields_and_names(void **state)
{
    (void)state;
    dm_arch_choice c;
    char name[32];
    assert_int_equal(arch_choose(X86_ARCHS, 8, 7, &c, NULL), 0);
    assert_int_equal(c.code, DM_ARCH_SASS);
    assert_int_equal(c.arch, 86);
    assert_int_equal(c.exact, 0);
    arch_name(&c, name, sizeof name);
    assert_string_equal(name, "sm_86");
    assert_string_equal(arch_code_name(c.code), "sass");
    assert_int_equal(arch_choose(X86_ARCHS, 13, 0, &c, NULL), 0);
    assert_int_equal(c.code, DM_ARCH_PTX);
    arch_name(&c, name, sizeof name);
    assert_string_equal(name, "compute_120");
    assert_string_equal(arch_code_name(c.code), "ptx");
    assert_int_equal(arch_choose("90a-real", 8, 0, &c, NULL), 0);
    assert_int_equal(c.code, DM_ARCH_NONE);
    assert_int_equal(c.arch, 0);
    arch_name(&c, name, sizeof name);
    assert_string_equal(name, "");
    assert_string_equal(arch_code_name(c.code), "none");
}

static void test_lists_it_cannot_read_are_refused_naming_the_entry(void **state)
{
    (void)state;
    static const struct {
        const char *archs, *entry;
    } bad[] = {
        {"native", "'native'"},        {"all", "'all'"},           {"90,", "''"},
        {"80-real,,90", "''"},         {"90-fake", "'90-fake'"},   {"1200", "'1200'"},
        {"9", "'9'"},                  {"90b-real", "'90b-real'"}, {" 90", "' 90'"},
        {"", "''"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dm_arch_choice c;
        dm_err err = {0};
        if (arch_choose(bad[i].archs, 9, 0, &c, &err) != DM_EINPUT)
            fail_msg("'%s' was read", bad[i].archs);
        if (!strstr(err.msg, bad[i].entry) || !strstr(err.msg, "NN[a|f][-real|-virtual]"))
            fail_msg("'%s': %s", bad[i].archs, err.msg);
    }
}

/* The list this binary was built with reads, whatever CMAKE_CUDA_ARCHITECTURES says. */
static void test_this_builds_list_reads(void **state)
{
    (void)state;
    dm_arch_choice c;
    dm_err err = {0};
    if (arch_choose(dm_cuda_archs, 9, 0, &c, &err) != 0)
        fail_msg("dm_cuda_archs '%s': %s", dm_cuda_archs, err.msg);
    assert_non_null(strstr(dm_build_flags, dm_cuda_archs));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_card_of_the_default_list_runs_its_own_sass),
        cmocka_unit_test(test_a_later_minor_runs_the_sass_of_an_earlier_one),
        cmocka_unit_test(test_a_later_card_jit_compiles_the_newest_ptx),
        cmocka_unit_test(test_no_code_names_what_was_built_and_the_rebuild),
        cmocka_unit_test(test_arch_specific_code_runs_on_its_card_and_family_code_on_the_family),
        cmocka_unit_test(test_choice_fields_and_names),
        cmocka_unit_test(test_lists_it_cannot_read_are_refused_naming_the_entry),
        cmocka_unit_test(test_this_builds_list_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
