/* test_cupti_run.c - asking for metrics and timelines: the sweep file's `metrics:` and
 * `timeline:` (errors at FILE:LINE:COL), and `dmbench run` checking names before
 * anything runs (--metrics, --chip), with --dry-run showing the metrics and the passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_fixture.h"

#include "sweep.h"

#define DEMO DM_SOURCE_DIR "/sweeps/cupti-demo.yaml"

#define HEAD "workload: membw\ndataset: {generator: random}\nvariants: [cpu, kernel]\n"

/* ---- the sweep file ---- */

static void test_sweep_reads_metrics_and_timeline(void **state)
{
    (void)state;
    dm_sweep *s = NULL;
    dm_err err = {0};
    int line = 0, col = 0;
    if (sweep_parse_string(HEAD "metrics: [occupancy, dram__bytes_read.sum]\n"
                                "timeline: true\n", "t.yaml", &s, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(sweep_nmetrics(s), 2);
    assert_string_equal(sweep_metric(s, 0, &line, &col), "occupancy");
    assert_string_equal(sweep_metric(s, 1, &line, &col), "dram__bytes_read.sum");
    assert_int_equal(line, 4);
    assert_int_equal(col, 22);
    assert_int_equal(sweep_timeline(s), 1);
    sweep_free(s);
    if (sweep_parse_string(HEAD, "t.yaml", &s, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(sweep_nmetrics(s), 0);
    assert_int_equal(sweep_timeline(s), 0);
    sweep_free(s);
}

/* The message sweep_parse_string gives text, which must fail as input. */
static const char *parse_error(const char *text)
{
    static dm_err err;
    dm_sweep *s = NULL;
    assert_int_equal(sweep_parse_string(text, "t.yaml", &s, &err), DM_EINPUT);
    assert_null(s);
    return err.msg;
}

static void test_sweep_refuses_bad_metrics_and_timeline_where_written(void **state)
{
    (void)state;
    assert_non_null(strstr(parse_error(HEAD "metrics: [occupancy, occupncy]\n"),
                           "t.yaml:4:22: unknown metric 'occupncy'; expected a set"));
    assert_string_equal(parse_error(HEAD "metrics: occupancy\n"),
                        "t.yaml:4:10: 'metrics' is a scalar; expected a list of metric sets "
                        "(occupancy, divergence, ...), short names or perfworks names");
    assert_string_equal(parse_error(HEAD "metrics: [[occupancy]]\n"),
                        "t.yaml:4:11: 'metrics' is a list; expected a list of metric sets "
                        "(occupancy, divergence, ...), short names or perfworks names");
    assert_string_equal(parse_error(HEAD "timeline: maybe\n"),
                        "t.yaml:4:11: 'timeline' is 'maybe'; expected true or false");
    assert_string_equal(parse_error(HEAD "timeline:\n"),
                        "t.yaml:4:1: 'timeline' is empty; expected true or false");
}

/* ---- dmbench run ---- */

static void test_dry_run_shows_metrics_and_passes(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "run %s --dry-run", DEMO), 0);
    const char *out = slurp(f->out);
    if (!strstr(out, "metrics: 20 on chip GH100 (") ||
        !strstr(out, "), 3 passes under kernel replay:\n") ||
        !strstr(out, "  branch_divergent             "
                     "smsp__sass_branch_targets_threads_divergent.sum          branch targets\n") ||
        !strstr(out, "timeline: traced after each GPU point\n"))
        fail_msg("dry run said:\n%s", out);
    assert_int_equal(dmbench(f, "run %s --dry-run --metrics occupancy --chip GA100", DEMO), 0);
    out = slurp(f->out);
    if (!strstr(out, "metrics: 1 on chip GA100 (from --chip), 1 pass under kernel replay:\n"))
        fail_msg("dry run said:\n%s", out);
}

static void test_unknown_names_stop_the_run_before_it_starts(void **state)
{
    fixture *f = *state;
    struct stat sb;
    assert_int_equal(dmbench(f, "run %s --db %s --metrics occupancy,bogus", DEMO, f->db), 2);
    assert_string_equal(slurp(f->errf), "dmbench: error: --metrics occupancy,bogus: unknown "
                                        "metric 'bogus'; expected a set (occupancy, divergence, "
                                        "local_memory, bank_conflicts, dram, cache, duration, "
                                        "issue, all), a short name such as achieved_occupancy, "
                                        "or a perfworks name such as dram__bytes_read.sum\n");
    assert_int_equal(dmbench(f, "run %s --db %s --metrics all --chip XX100", DEMO, f->db), 2);
    assert_non_null(strstr(slurp(f->errf), "unknown chip 'XX100'"));
    /* a chip nothing would be checked against is refused, not ignored */
    assert_int_equal(dmbench(f, "run %s/sweeps/overhead-cpu.yaml --db %s --chip XX100",
                             DM_SOURCE_DIR, f->db), 2);
    assert_string_equal(slurp(f->errf), "dmbench: error: --chip XX100: names the chip metrics "
                                        "are checked against, and no metrics are asked "
                                        "(--metrics, or the sweep's metrics)\n");
    char sweep[160];
    snprintf(sweep, sizeof sweep, "%s/bad.yaml", f->dir);
    FILE *fp = fopen(sweep, "w");
    assert_non_null(fp);
    fputs(HEAD "metrics:\n  - occupancy\n  - dram__bytes_reed.sum\n", fp);
    fclose(fp);
    assert_int_equal(dmbench(f, "run %s --db %s --chip GH100", sweep, f->db), 2);
    char want[512];
    snprintf(want, sizeof want, "dmbench: error: %s:6:5: 'dram__bytes_reed.sum' is not a "
                                "metric of chip GH100; expected a perfworks metric name such "
                                "as dram__bytes_read.sum\n", sweep);
    assert_string_equal(slurp(f->errf), want);
    assert_int_equal(stat(f->db, &sb), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_reads_metrics_and_timeline),
        cmocka_unit_test(test_sweep_refuses_bad_metrics_and_timeline_where_written),
        cmocka_unit_test_setup_teardown(test_dry_run_shows_metrics_and_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_names_stop_the_run_before_it_starts, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
