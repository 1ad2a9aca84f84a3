/* test_expr.c - constraint expressions: precedence, logic, strings, functions, the
 * identifiers read, compile errors with their columns, type errors, and the values that
 * are undefined at evaluation (division by zero). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "expr.h"

/* Identifiers the tests may read, with their values. */
static const struct {
    const char *name;
    expr_val val;
} env[] = {
    {"block", {EXPR_NUM, 256, NULL}},
    {"level", {EXPR_NUM, 3, NULL}},
    {"zero", {EXPR_NUM, 0, NULL}},
    {"op", {EXPR_STR, 0, "triad"}},
    {"device.max_threads", {EXPR_NUM, 1024, NULL}},
};

/* Binds e's identifiers to env; fails the test on an unknown one. */
static void bind(const dm_expr *e, expr_val *vals, expr_type *types)
{
    for (int i = 0; i < expr_nidents(e); i++) {
        size_t k = 0;
        while (k < sizeof env / sizeof env[0] && strcmp(env[k].name, expr_ident(e, i)) != 0)
            k++;
        assert_true(k < sizeof env / sizeof env[0]);
        vals[i] = env[k].val;
        types[i] = env[k].val.type;
    }
}

/* Compiles, type-checks and evaluates text, which must give a number. */
static double eval_num(const char *text)
{
    dm_expr *e = NULL;
    dm_err err = {0};
    int col = 0;
    expr_val vals[8], out;
    expr_type types[8], result;
    if (expr_compile(text, &e, &col, &err))
        fail_msg("%s: column %d: %s", text, col, err.msg);
    bind(e, vals, types);
    assert_int_equal(expr_check(e, types, &result, &col, &err), 0);
    assert_int_equal(result, EXPR_NUM);
    if (expr_eval(e, vals, &out, &err))
        fail_msg("%s: %s", text, err.msg);
    expr_free(e);
    assert_int_equal(out.type, EXPR_NUM);
    return out.num;
}

/* Compiling text fails at column want_col with a message containing phrase. */
static void compile_fails(const char *text, int want_col, const char *phrase)
{
    dm_expr *e = NULL;
    dm_err err = {0};
    int col = 0;
    assert_int_equal(expr_compile(text, &e, &col, &err), DM_EINPUT);
    assert_null(e);
    if (col != want_col || !strstr(err.msg, phrase))
        fail_msg("'%s': got column %d '%s'; want column %d '%s'", text, col, err.msg,
                 want_col, phrase);
}

/* Evaluating text fails with a message containing phrase. */
static void eval_fails(const char *text, const char *phrase)
{
    dm_expr *e = NULL;
    dm_err err = {0};
    int col = 0;
    expr_val vals[8], out;
    expr_type types[8];
    assert_int_equal(expr_compile(text, &e, &col, &err), 0);
    bind(e, vals, types);
    assert_int_equal(expr_eval(e, vals, &out, &err), DM_EINPUT);
    expr_free(e);
    if (!strstr(err.msg, phrase))
        fail_msg("'%s': got '%s'; want '%s'", text, err.msg, phrase);
}

static void arithmetic_follows_c_precedence(void **st)
{
    (void)st;
    assert_true(eval_num("1 + 2 * 3") == 7);
    assert_true(eval_num("(1 + 2) * 3") == 9);
    assert_true(eval_num("10 - 4 - 3") == 3);
    assert_true(eval_num("7 / 2") == 3.5);
    assert_true(eval_num("-block + 6") == -250);
    assert_true(eval_num("17 % 5 + 1") == 3);
    assert_true(eval_num("2.5e1 + .5") == 25.5);
    assert_true(eval_num("block * level <= 1024") == 1);
    assert_true(eval_num("1 + 1 == 2 && 3 > 2") == 1);
}

static void integer_literals_are_exact(void **st)
{
    (void)st;
    assert_true(eval_num("9007199254740992 == pow2(53)") == 1);
    assert_true(eval_num("16777216 % 1024") == 0);
}

static void logic_short_circuits_and_negates(void **st)
{
    (void)st;
    assert_true(eval_num("zero != 0 && 1 / zero > 0") == 0);
    assert_true(eval_num("zero == 0 || 1 / zero > 0") == 1);
    assert_true(eval_num("!zero") == 1);
    assert_true(eval_num("!(block > 1)") == 0);
    assert_true(eval_num("level > 1 || zero") == 1);
}

static void strings_compare_with_enum_values(void **st)
{
    (void)st;
    assert_true(eval_num("op == \"triad\"") == 1);
    assert_true(eval_num("op != 'copy'") == 1);
    assert_true(eval_num("op == 'copy' || block <= 128") == 0);
}

static void functions_compute_min_max_log2_pow2_ceil_div(void **st)
{
    (void)st;
    assert_true(eval_num("min(block, 100)") == 100);
    assert_true(eval_num("max(block, device.max_threads)") == 1024);
    assert_true(eval_num("log2(block)") == 8);
    assert_true(eval_num("pow2(level)") == 8);
    assert_true(eval_num("ceil_div(1000, block)") == 4);
    assert_true(eval_num("ceil_div(1024, block)") == 4);
}

static void identifiers_are_listed_once_with_their_first_column(void **st)
{
    (void)st;
    dm_expr *e = NULL;
    dm_err err = {0};
    int col = 0;
    assert_int_equal(expr_compile("block * level <= device.max_threads && block > 1", &e,
                                  &col, &err), 0);
    assert_int_equal(expr_nidents(e), 3);
    assert_string_equal(expr_ident(e, 0), "block");
    assert_int_equal(expr_ident_col(e, 0), 1);
    assert_string_equal(expr_ident(e, 1), "level");
    assert_int_equal(expr_ident_col(e, 1), 9);
    assert_string_equal(expr_ident(e, 2), "device.max_threads");
    assert_int_equal(expr_ident_col(e, 2), 18);
    expr_free(e);
}

static void compile_errors_give_the_column(void **st)
{
    (void)st;
    compile_fails("", 1, "empty expression");
    compile_fails("block <= ", 10, "found the end");
    compile_fails("block = 3", 7, "expected '=='");
    compile_fails("block & 3", 7, "expected '&&'");
    compile_fails("(block + 1", 11, "expected ')'");
    compile_fails("block level", 7, "expected an operator or the end");
    compile_fails("foo(1)", 1, "unknown function 'foo'");
    compile_fails("1 + min(1)", 5, "min takes 2 arguments");
    compile_fails("op == 'tex", 7, "string not closed");
    compile_fails("12ab > 1", 1, "malformed number '12ab'");
    compile_fails("block # 2", 7, "unexpected character '#'");
    compile_fails("max(1 2)", 7, "expected ',' or ')'");
}

static void deep_nesting_is_refused(void **st)
{
    (void)st;
    char text[300];
    memset(text, '(', 200);
    strcpy(text + 200, "1");
    dm_expr *e = NULL;
    dm_err err = {0};
    int col = 0;
    assert_int_equal(expr_compile(text, &e, &col, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "nested more than"));
}

static void type_errors_point_at_the_operator(void **st)
{
    (void)st;
    static const struct {
        const char *text;
        int col;
        const char *phrase;
    } cases[] = {
        {"op < 3", 4, "'<' applied to a string"},
        {"block == op", 7, "compares a string with a number"},
        {"1 + min(op, 2)", 5, "min() applied to a string"},
        {"block > 1 && op", 11, "expected conditions"},
        {"-op", 1, "'-' applied to a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dm_expr *e = NULL;
        dm_err err = {0};
        int col = 0;
        expr_val vals[8];
        expr_type types[8], result;
        assert_int_equal(expr_compile(cases[i].text, &e, &col, &err), 0);
        bind(e, vals, types);
        assert_int_equal(expr_check(e, types, &result, &col, &err), DM_EINPUT);
        expr_free(e);
        if (col != cases[i].col || !strstr(err.msg, cases[i].phrase))
            fail_msg("'%s': got column %d '%s'", cases[i].text, col, err.msg);
    }
}

static void check_reports_a_string_result(void **st)
{
    (void)st;
    dm_expr *e = NULL;
    dm_err err = {0};
    int col = 0;
    expr_val vals[8];
    expr_type types[8], result;
    assert_int_equal(expr_compile("op", &e, &col, &err), 0);
    bind(e, vals, types);
    assert_int_equal(expr_check(e, types, &result, &col, &err), 0);
    assert_int_equal(result, EXPR_STR);
    expr_free(e);
}

static void undefined_values_fail_evaluation(void **st)
{
    (void)st;
    eval_fails("block / zero > 1", "division by zero");
    eval_fails("block % zero", "division by zero");
    eval_fails("ceil_div(block, zero)", "division by zero");
    eval_fails("block % 2.5", "non-integer");
    eval_fails("log2(zero)", "log2 of a non-positive value");
    eval_fails("op < 1", "applied to a string");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arithmetic_follows_c_precedence),
        cmocka_unit_test(integer_literals_are_exact),
        cmocka_unit_test(logic_short_circuits_and_negates),
        cmocka_unit_test(strings_compare_with_enum_values),
        cmocka_unit_test(functions_compute_min_max_log2_pow2_ceil_div),
        cmocka_unit_test(identifiers_are_listed_once_with_their_first_column),
        cmocka_unit_test(compile_errors_give_the_column),
        cmocka_unit_test(deep_nesting_is_refused),
        cmocka_unit_test(type_errors_point_at_the_operator),
        cmocka_unit_test(check_reports_a_string_result),
        cmocka_unit_test(undefined_values_fail_evaluation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
