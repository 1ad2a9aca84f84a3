/* test_cupti.c - the CUPTI module's parts that need no GPU: the traits table and sets,
 * metric names resolved and checked against a chip with the Profiler Host API (with the
 * pass count it computes), unknown names and chips refused, kernel names demangled, and
 * the overlap of a timeline. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cupti_dm.h"

/* ---- the traits table and the sets ---- */

static void test_traits_have_unique_names_and_units(void **state)
{
    (void)state;
    int n = 0;
    for (const cupti_trait *t = cupti_traits(); t->name; t++, n++) {
        assert_non_null(t->short_name);
        assert_true(t->unit && t->unit[0]);
        assert_true(t->description && t->description[0]);
        for (const cupti_trait *u = cupti_traits(); u < t; u++) {
            assert_string_not_equal(u->name, t->name);
            assert_string_not_equal(u->short_name, t->short_name);
        }
    }
    assert_int_equal(n, 20);
}

static void test_every_set_resolves(void **state)
{
    (void)state;
    dm_err err = {0};
    for (const cupti_set *s = cupti_sets(); s->name; s++) {
        cupti_metric_list l = {0};
        int want = 0;
        while (s->metrics[want])
            want++;
        if (cupti_metrics_add(&l, s->name, &err))
            fail_msg("set %s: %s", s->name, err.msg);
        assert_int_equal(l.n, want);
        for (int i = 0; i < want; i++)
            assert_string_equal(l.m[i].short_name, s->metrics[i]);
    }
}

/* ---- resolving names ---- */

static void test_sets_and_names_resolve_in_order_once(void **state)
{
    (void)state;
    dm_err err = {0};
    cupti_metric_list l = {0};
    char buf[512];
    assert_int_equal(cupti_metrics_parse(&l, " occupancy, divergence ,achieved_occupancy,"
                                             "sm__warps_active.avg.pct_of_peak_sustained_active,"
                                             "dram__bytes_read.sum", &err), 0);
    cupti_metrics_format(&l, buf, sizeof buf);
    assert_string_equal(buf, "achieved_occupancy, branch_divergent, branch_uniformity, "
                             "warp_exec_efficiency, dram_read_bytes");
    assert_string_equal(l.m[4].name, "dram__bytes_read.sum");
    assert_string_equal(l.m[4].unit, "bytes");
}

static void test_raw_perfworks_name_keeps_its_name_and_gets_a_unit(void **state)
{
    (void)state;
    dm_err err = {0};
    cupti_metric_list l = {0};
    int passes = 0;
    assert_int_equal(cupti_metrics_parse(&l, "dram__bytes.sum", &err), 0);
    assert_string_equal(l.m[0].short_name, "dram__bytes.sum");
    assert_string_equal(l.m[0].unit, "");
    if (cupti_metrics_check(CUPTI_DEFAULT_CHIP, &l, &passes, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(l.m[0].unit, "bytes");
    assert_int_equal(passes, 1);
}

static void test_unknown_names_are_refused(void **state)
{
    (void)state;
    dm_err err = {0};
    cupti_metric_list l = {0};
    assert_int_equal(cupti_metrics_parse(&l, "occupancy,occupncy", &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "unknown metric 'occupncy'; expected a set (occupancy, "
                                    "divergence, local_memory, bank_conflicts, dram, cache, "
                                    "duration, issue, all)"));
    assert_int_equal(cupti_metrics_parse(&l, "occupancy,,dram", &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "empty name"));
    assert_int_equal(cupti_metrics_parse(&l, "Dram__bytes_read.sum", &err), DM_EINPUT);
    assert_int_equal(cupti_metrics_parse(&l, "dram__bytes_read", &err), DM_EINPUT);
}

/* ---- the host API: no GPU needed ---- */

static void test_builtins_are_metrics_of_gh100_in_three_passes(void **state)
{
    (void)state;
    dm_err err = {0};
    cupti_metric_list all = {0}, occupancy = {0}, divergence = {0}, issue = {0};
    int passes = 0;
    assert_int_equal(cupti_metrics_parse(&all, "all", &err), 0);
    if (cupti_metrics_check("GH100", &all, &passes, &err))
        fail_msg("%s", err.msg);
    /* CUDA 13.0's host API schedules the 20 built-ins into 3 passes on GH100. */
    assert_int_equal(passes, 3);
    assert_int_equal(cupti_metrics_parse(&occupancy, "occupancy", &err), 0);
    assert_int_equal(cupti_metrics_check("GH100", &occupancy, &passes, &err), 0);
    assert_int_equal(passes, 1);
    assert_int_equal(cupti_metrics_parse(&divergence, "divergence", &err), 0);
    assert_int_equal(cupti_metrics_check("GH100", &divergence, &passes, &err), 0);
    assert_int_equal(passes, 2);
    assert_int_equal(cupti_metrics_parse(&issue, "issue", &err), 0);
    assert_int_equal(issue.n, 7);
    assert_int_equal(cupti_metrics_check("GH100", &issue, &passes, &err), 0);
    assert_int_equal(passes, 2);
}

static void test_unknown_metric_or_chip_is_an_input_error(void **state)
{
    (void)state;
    dm_err err = {0};
    cupti_metric_list l = {0};
    int passes = 0;
    assert_int_equal(cupti_metrics_parse(&l, "occupancy,dram__bytes_reed.sum", &err), 0);
    assert_int_equal(cupti_metrics_check("GH100", &l, &passes, &err), DM_EINPUT);
    assert_string_equal(err.msg, "'dram__bytes_reed.sum' is not a metric of chip GH100; "
                                 "expected a perfworks metric name such as "
                                 "dram__bytes_read.sum");
    cupti_metric_list ok = {0};
    assert_int_equal(cupti_metrics_parse(&ok, "occupancy", &err), 0);
    assert_int_equal(cupti_metrics_check("XX100", &ok, &passes, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "unknown chip 'XX100'; expected one of: "));
    assert_non_null(strstr(err.msg, "GH100"));
}

/* ---- names and overlap ---- */

static void test_kernel_names_lose_mangling_and_parameters(void **state)
{
    (void)state;
    char buf[CUPTI_NAME_MAX];
    cupti_kernel_name("_Z10membw_vec48membw_opPKfS1_S1_Pfl", buf, sizeof buf);
    assert_string_equal(buf, "membw_vec4");
    cupti_kernel_name("_Z6reduceIiLi256EEvPKT_PS0_i", buf, sizeof buf);
    assert_string_equal(buf, "reduce<int, 256>");
    cupti_kernel_name("cupti_plain_c_kernel", buf, sizeof buf);
    assert_string_equal(buf, "cupti_plain_c_kernel");
    cupti_kernel_name(NULL, buf, sizeof buf);
    assert_string_equal(buf, "?");
}

static dm_activity span(int64_t start, int64_t end)
{
    return (dm_activity){.start_ns = start, .end_ns = end};
}

static void test_overlap_counts_time_with_two_in_flight(void **state)
{
    (void)state;
    dm_err err = {0};
    int64_t sp = -1, ov = -1;
    dm_activity serial[] = {span(0, 10), span(10, 25), span(30, 40)};
    assert_int_equal(cupti_overlap(serial, 3, &sp, &ov, &err), 0);
    assert_int_equal(sp, 40);
    assert_int_equal(ov, 0);
    dm_activity two[] = {span(5, 20), span(0, 10)};
    assert_int_equal(cupti_overlap(two, 2, &sp, &ov, &err), 0);
    assert_int_equal(sp, 20);
    assert_int_equal(ov, 5);
    /* Three at once count once; a span nested in another counts whole. */
    dm_activity three[] = {span(0, 100), span(10, 20), span(15, 40)};
    assert_int_equal(cupti_overlap(three, 3, &sp, &ov, &err), 0);
    assert_int_equal(sp, 100);
    assert_int_equal(ov, 30);
    assert_int_equal(cupti_overlap(NULL, 0, &sp, &ov, &err), 0);
    assert_int_equal(sp, 0);
    assert_int_equal(ov, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_traits_have_unique_names_and_units),
        cmocka_unit_test(test_every_set_resolves),
        cmocka_unit_test(test_sets_and_names_resolve_in_order_once),
        cmocka_unit_test(test_raw_perfworks_name_keeps_its_name_and_gets_a_unit),
        cmocka_unit_test(test_unknown_names_are_refused),
        cmocka_unit_test(test_builtins_are_metrics_of_gh100_in_three_passes),
        cmocka_unit_test(test_unknown_metric_or_chip_is_an_input_error),
        cmocka_unit_test(test_kernel_names_lose_mangling_and_parameters),
        cmocka_unit_test(test_overlap_counts_time_with_two_in_flight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
