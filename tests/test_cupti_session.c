/* test_cupti_session.c - a run's CUPTI session where there is no GPU (made so on any
 * machine by CUDA_VISIBLE_DEVICES=-1 before CUDA starts): it opens all the same, says
 * why the counters cannot be read, and every pass degrades to its reason instead of
 * failing: no kernel attributes, metrics NULL for the reason, no timeline. With the
 * counters turned off by DMBENCH_CUPTI_DISABLE, the reason is exactly that; without
 * metrics asked for, no counter check is made. The GPU side is test_gpu_cupti.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cupti_dm.h"

static const dm_device dev = {.index = 0, .name = "No GPU", .warp_size = 32,
                              .max_threads_per_sm = 2048};

/* A variant that launches nothing. */
static int nothing_run(void *state, dm_err *err)
{
    (void)state;
    (void)err;
    return 0;
}

static const dm_variant nothing = {.name = "nothing", .run = nothing_run};

/* A session on dev collecting csv's metrics (NULL: none). Needs cmocka. */
static dm_cupti *open_session(const char *csv, cupti_metric_list *l)
{
    dm_err err = {0};
    dm_cupti *c = NULL;
    memset(l, 0, sizeof *l);
    if (csv && cupti_metrics_parse(l, csv, &err))
        fail_msg("%s", err.msg);
    dm_cupti_opts o = {.device = &dev, .metrics = csv ? l : NULL};
    assert_int_equal(cupti_open(&o, &c, &err), 0);
    assert_non_null(c);
    return c;
}

/* The verification run's watch and the profiling pass of nothing: no attributes, and
 * every metric NULL for the counters' problem (no launches, so no rows). */
static void profile_degrades(dm_cupti *c, const cupti_metric_list *l)
{
    dm_cupti_point p = {0};
    cupti_watch_begin(c);
    assert_int_equal(cupti_watch_end(c, &p), 0);
    assert_int_equal(p.nattrs, 0);
    assert_int_equal(cupti_profile(c, &nothing, NULL, &p), 0);
    assert_int_equal(p.profiled, 1);
    assert_non_null(p.metrics);
    assert_int_equal(p.metrics->n, l->n);
    assert_int_equal(p.nlaunches, 0);
    assert_null(p.values);
    assert_string_equal(p.metrics_reason, cupti_counters_problem(c));
    cupti_point_free(&p);
}

static void test_disabled_counters_give_that_reason(void **state)
{
    (void)state;
    cupti_metric_list l;
    setenv("DMBENCH_CUPTI_DISABLE", "1", 1);
    dm_cupti *c = open_session("occupancy,dram", &l);
    unsetenv("DMBENCH_CUPTI_DISABLE");
    assert_string_equal(cupti_counters_problem(c), "disabled by DMBENCH_CUPTI_DISABLE");
    assert_string_equal(cupti_chip(c), "");
    assert_int_equal(cupti_passes(c), 0);
    profile_degrades(c, &l);
    cupti_close(c);
}

static void test_without_a_gpu_the_counters_problem_is_said(void **state)
{
    (void)state;
    cupti_metric_list l;
    dm_cupti *c = open_session("occupancy", &l);
    /* CUPTI's or the runtime's error, or CUPTI's word that the device is unsupported */
    assert_true(strlen(cupti_counters_problem(c)) > 0);
    assert_string_equal(cupti_chip(c), "");
    assert_int_equal(cupti_passes(c), 0);
    profile_degrades(c, &l);
    cupti_close(c);
}

static void test_without_metrics_no_counter_check_is_made(void **state)
{
    (void)state;
    cupti_metric_list l;
    dm_cupti *c = open_session(NULL, &l);
    assert_string_equal(cupti_counters_problem(c), "");
    assert_int_equal(cupti_passes(c), 0);
    cupti_close(c);
}

static void test_without_a_gpu_the_trace_pass_gives_its_reason(void **state)
{
    (void)state;
    cupti_metric_list l;
    dm_cupti *c = open_session(NULL, &l);
    dm_cupti_point p = {0};
    assert_int_equal(cupti_trace(c, &nothing, NULL, &p), 0);
    assert_int_equal(p.traced, 1);
    assert_int_equal(p.nacts, 0);
    assert_int_equal(p.streams, 0);
    assert_int_equal(p.span_ns, 0);
    assert_int_equal(p.overlap_ns, 0);
    if (!strstr(p.trace_reason, ": cupti") && !strstr(p.trace_reason, ": cuda"))
        fail_msg("trace without a GPU: '%s'", p.trace_reason);
    cupti_point_free(&p);
    cupti_close(c);
}

static void test_without_a_gpu_there_is_no_chip_name(void **state)
{
    (void)state;
    char chip[64] = "unset";
    dm_err err = {0};
    assert_int_equal(cupti_chip_name(0, chip, sizeof chip, &err), DM_ERUNTIME);
    assert_string_equal(chip, "unset");
    assert_non_null(strstr(err.msg, ": cupti"));
}

int main(void)
{
    /* Before CUDA starts: no GPU is visible, whatever the machine has. */
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disabled_counters_give_that_reason),
        cmocka_unit_test(test_without_a_gpu_the_counters_problem_is_said),
        cmocka_unit_test(test_without_metrics_no_counter_check_is_made),
        cmocka_unit_test(test_without_a_gpu_the_trace_pass_gives_its_reason),
        cmocka_unit_test(test_without_a_gpu_there_is_no_chip_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
