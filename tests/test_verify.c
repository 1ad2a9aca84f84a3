/* test_verify.c - verify_point: a point's first execution stops at the right stage
 * (setup, run, the watch, a mismatch) with the right message, and hands back the state to
 * tear down exactly when setup succeeded. A workload of one int counted by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "verify.h"

/* What the variants do: answer `answer`, or fail at a stage. */
static int answer, fail_setup, fail_run, setups, teardowns, watched_begin, watched_end;

static int v_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt, void **state,
                   dm_err *err)
{
    (void)ex, (void)ds, (void)pt;
    setups++;
    if (fail_setup)
        return dm_err_set(err, DM_ERUNTIME, "no room");
    int *s = malloc(sizeof *s);
    assert_non_null(s);
    *state = s;
    return 0;
}

static int v_run(void *state, dm_err *err)
{
    if (fail_run)
        return dm_err_set(err, DM_ERUNTIME, "launch failed");
    *(int *)state = answer;
    return 0;
}

static int v_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    *out = state;
    return 0;
}

static void v_teardown(void *state)
{
    teardowns++;
    free(state);
}

static int w_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n)
{
    (void)pt;
    if (*(const int *)ref == *(const int *)out)
        return 0;
    snprintf(why, n, "expected %d, got %d", *(const int *)ref, *(const int *)out);
    return 1;
}

static const dm_variant variants[] = {
    { .name = "v", .setup = v_setup, .run = v_run, .output = v_output, .teardown = v_teardown },
    { 0 },
};
static const dm_workload w = { .name = "w", .compare = w_compare, .variants = variants };

static void watch_begin(void *ctx)
{
    (void)ctx;
    watched_begin++;
}

static int watch_end(void *ctx, dm_err *err)
{
    watched_end++;
    return *(int *)ctx ? dm_err_set(err, DM_ERUNTIME, "watch lost") : 0;
}

static int reset(void **state)
{
    (void)state;
    answer = 7;
    fail_setup = fail_run = setups = teardowns = watched_begin = watched_end = 0;
    return 0;
}

/* Runs verify_point on the variant with reference ref (NULL: none) and watch failing
 * when watch_fails (-1: no watch); tears down what comes back. */
static dm_verify_stage first_run(const int *ref, int watch_fails, char *detail, dm_err *err)
{
    dm_point pt = { .workload = &w, .variant = &variants[0] };
    dm_exec ex = { 0 };
    dm_dataset ds = { 0 };
    dm_verify_watch watch = { .begin = watch_begin, .end = watch_end, .ctx = &watch_fails };
    void *state = (void *)1;
    const void *out = NULL;
    dm_verify_stage st = verify_point(&ex, &ds, &pt, ref, watch_fails < 0 ? NULL : &watch,
                                      &state, &out, detail, 256, err);
    if (st == DM_VERIFY_SETUP)
        assert_null(state);
    else
        v_teardown(state);
    return st;
}

static void a_matching_output_passes_and_is_handed_back(void **state)
{
    (void)state;
    char detail[256] = "";
    dm_err err = { 0 };
    int ref = 7;
    assert_int_equal(first_run(&ref, 0, detail, &err), DM_VERIFY_MATCH);
    assert_int_equal(setups, 1);
    assert_int_equal(teardowns, 1);
    assert_int_equal(watched_begin, 1);
    assert_int_equal(watched_end, 1);
}

static void a_different_output_names_the_difference(void **state)
{
    (void)state;
    char detail[256] = "";
    dm_err err = { 0 };
    int ref = 8;
    assert_int_equal(first_run(&ref, -1, detail, &err), DM_VERIFY_MISMATCH);
    assert_string_equal(detail, "expected 8, got 7");
    assert_int_equal(teardowns, 1);
}

static void without_a_reference_nothing_is_compared(void **state)
{
    (void)state;
    char detail[256] = "";
    dm_err err = { 0 };
    answer = 99;
    assert_int_equal(first_run(NULL, -1, detail, &err), DM_VERIFY_MATCH);
}

static void a_failed_setup_leaves_nothing_to_tear_down(void **state)
{
    (void)state;
    char detail[256] = "";
    dm_err err = { 0 };
    int ref = 7;
    fail_setup = 1;
    assert_int_equal(first_run(&ref, 0, detail, &err), DM_VERIFY_SETUP);
    assert_string_equal(err.msg, "no room");
    assert_int_equal(teardowns, 0);
    assert_int_equal(watched_begin, 0);
}

static void a_failed_run_keeps_its_own_message_over_the_watch(void **state)
{
    (void)state;
    char detail[256] = "";
    dm_err err = { 0 };
    int ref = 7;
    fail_run = 1;
    assert_int_equal(first_run(&ref, 1, detail, &err), DM_VERIFY_RUN);
    assert_string_equal(err.msg, "launch failed");
    assert_int_equal(watched_end, 1);
    assert_int_equal(teardowns, 1);
}

static void a_failed_watch_stops_at_the_run(void **state)
{
    (void)state;
    char detail[256] = "";
    dm_err err = { 0 };
    int ref = 7;
    assert_int_equal(first_run(&ref, 1, detail, &err), DM_VERIFY_RUN);
    assert_string_equal(err.msg, "watch lost");
    assert_int_equal(teardowns, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(a_matching_output_passes_and_is_handed_back, reset),
        cmocka_unit_test_setup(a_different_output_names_the_difference, reset),
        cmocka_unit_test_setup(without_a_reference_nothing_is_compared, reset),
        cmocka_unit_test_setup(a_failed_setup_leaves_nothing_to_tear_down, reset),
        cmocka_unit_test_setup(a_failed_run_keeps_its_own_message_over_the_watch, reset),
        cmocka_unit_test_setup(a_failed_watch_stops_at_the_run, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
