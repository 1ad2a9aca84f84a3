/* test_rules_text.c - rules in RPN and their text form: hand-written rules parsed to the
 * expected tokens and written back unchanged, precedence and parentheses, quoting of
 * names and levels, random rule sets written and parsed back to the same tokens, parse
 * errors naming file:line:column, the checks on tokens, and the rule generator. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rng.h"
#include "rules/rl_rules.h"
#include "rules/rl_table.h"

/* Columns x (numeric), "my col" (numeric), "AND" (numeric), colour (categorical, with
 * levels that need quotes). */
static const char table_csv[] = "x,my col,AND,colour\n"
                                "1.5,2,3,red\n"
                                "2.5,3,4,light blue\n"
                                "0.1,1,1,in\n"
                                "7,8,9,a\"b\\c\n";

static int setup(void **state)
{
    rl_table *t = malloc(sizeof *t);
    dm_err err = {0};
    if (!t || rl_table_parse(table_csv, strlen(table_csv), "t.csv", NULL, t, &err))
        return -1;
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    rl_table_free(*state);
    free(*state);
    return 0;
}

static void parse_ok(const rl_table *t, const char *text, rl_ruleset *rs)
{
    dm_err err = {0};
    if (rl_rules_parse(text, strlen(text), "r.txt", t, rs, &err))
        fail_msg("'%s': %s", text, err.msg);
}

/* Asserts that the one rule in text is written back as exactly want (text itself when
 * NULL). */
static void writes_back(const rl_table *t, const char *text, const char *want)
{
    rl_ruleset rs;
    parse_ok(t, text, &rs);
    assert_int_equal(rs.nrules, 1);
    char *back = rl_rule_text(&rs, 0, t);
    assert_non_null(back);
    if (strcmp(back, want ? want : text) != 0)
        fail_msg("'%s' written as '%s', expected '%s'", text, back, want ? want : text);
    free(back);
    rl_ruleset_free(&rs);
}

static int same_token(const rl_token *a, const rl_token *b)
{
    return a->op == b->op && a->attr == b->attr &&
           memcmp(&a->lo, &b->lo, sizeof a->lo) == 0 &&
           (a->op != RL_IN || memcmp(&a->hi, &b->hi, sizeof a->hi) == 0);
}

static void test_parse_to_tokens(void **state)
{
    const rl_table *t = *state;
    rl_ruleset rs;
    parse_ok(t,
             "# a comment, then a blank line\n\n"
             "  IF x <= 3.5 AND (colour = red OR NOT \"my col\" in [1, 2]) THEN \"AND\" = 1\r\n",
             &rs);
    assert_int_equal(rs.nrules, 1);
    assert_int_equal(rs.rules[0].nante, 6);
    assert_int_equal(rs.rules[0].ncons, 1);
    const rl_token want[7] = {
        {RL_LE, 0, 3.5, 0}, {RL_EQ, 3, 0, 0},  {RL_IN, 1, 1, 2}, {RL_NOT, 0, 0, 0},
        {RL_OR, 0, 0, 0},   {RL_AND, 0, 0, 0}, {RL_EQ, 2, 1, 0},
    };
    for (int k = 0; k < 7; k++)
        if (!same_token(&rs.tok[k], &want[k]))
            fail_msg("token %d: op %d attr %d lo %g hi %g", k, rs.tok[k].op, rs.tok[k].attr,
                     rs.tok[k].lo, rs.tok[k].hi);
    assert_int_equal(rl_expr_depth(rs.tok, 6), 3);
    rl_ruleset_free(&rs);
}

static void test_write_back(void **state)
{
    const rl_table *t = *state;
    writes_back(t, "IF x <= 3.5 AND (colour = red OR NOT \"my col\" in [1, 2]) THEN \"AND\" = 1",
                NULL);
    /* AND binds tighter than OR, both group left to right, NOT tightest. */
    writes_back(t, "IF x < 1 OR x < 2 AND x < 3 THEN x > 0", NULL);
    writes_back(t, "IF (x < 1 OR x < 2) AND x < 3 THEN x > 0", NULL);
    writes_back(t, "IF x < 1 AND (x < 2 AND x < 3) THEN x >= 0", NULL);
    writes_back(t, "IF x < 1 OR (x < 2 OR x < 3) THEN x != 0", NULL);
    writes_back(t, "IF NOT NOT x < 1 THEN NOT (x < 2 OR x = 3)", NULL);
    writes_back(t, "IF ((x < 1)) AND ((x < 2)) THEN (x = 3)", "IF x < 1 AND x < 2 THEN x = 3");
    /* Levels and names that need quotes; numbers in their shortest exact form. */
    writes_back(t, "IF colour = \"light blue\" OR colour != \"in\" THEN colour = \"a\\\"b\\\\c\"",
                NULL);
    writes_back(t, "IF x = 0.1 THEN x in [-2.5e-300, 1e+300]", NULL);
    writes_back(t, "IF x=.5 THEN x<=1E2", "IF x = 0.5 THEN x <= 100");
    writes_back(t, "IF x = 0.30000000000000004 THEN x = -0", NULL);
}

/* Asserts that text fails to parse with DM_EINPUT and one line starting
 * "r.txt:where: " and containing what. */
static void parse_fails(const rl_table *t, const char *text, const char *where,
                        const char *what)
{
    rl_ruleset rs;
    dm_err err = {0};
    assert_int_equal(rl_rules_parse(text, strlen(text), "r.txt", t, &rs, &err), DM_EINPUT);
    char want[64];
    snprintf(want, sizeof want, "r.txt:%s: ", where);
    if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, what))
        fail_msg("'%s' gave '%s', expected '%s...%s'", text, err.msg, want, what);
    assert_null(strchr(err.msg, '\n'));
    assert_null(rs.tok);
    assert_int_equal(rs.nrules, 0);
}

static void test_parse_errors(void **state)
{
    const rl_table *t = *state;
    parse_fails(t, "IF x <= THEN x = 1", "1:9",
                "expected a number for numeric attribute x, got 'THEN'");
    parse_fails(t, "IF y < 1 THEN x = 1", "1:4", "unknown attribute 'y'");
    parse_fails(t, "IF colour < red THEN x = 1", "1:11", "< needs a numeric attribute");
    parse_fails(t, "IF colour in [1, 2] THEN x = 1", "1:11", "'in' needs a numeric attribute");
    parse_fails(t, "IF colour = blue THEN x = 1", "1:13",
                "'blue' is not a value of attribute colour");
    parse_fails(t, "IF x in [3, 1] THEN x = 1", "1:9", "empty range");
    parse_fails(t, "IF x in (1, 2) THEN x = 1", "1:9", "expected '[' after 'in'");
    parse_fails(t, "IF x in [1; 2] THEN x = 1", "1:10",
                "expected a number for numeric attribute x, got '1;'");
    parse_fails(t, "IF x in [1 2] THEN x = 1", "1:12", "expected ',' in the range");
    parse_fails(t, "IF x in [1, 2 THEN x = 1", "1:15", "expected ']' to end the range");
    parse_fails(t, "IF (x < 1 THEN x = 1", "1:11", "expected ')', got 'THEN'");
    parse_fails(t, "IF x < 1 THEN x = 1 x", "1:21", "expected AND, OR or the end of the rule");
    parse_fails(t, "x < 1 THEN x = 1", "1:1", "expected IF, got 'x'");
    parse_fails(t, "IF x < 1", "1:9", "expected AND, OR or THEN, got the end of the line");
    parse_fails(t, "IF THEN x = 1", "1:4", "expected a condition, got keyword 'THEN'");
    parse_fails(t, "IF ) THEN x = 1", "1:4", "expected a condition, got ')'");
    parse_fails(t, "IF x 1 THEN x = 1", "1:6", "expected = != < <= > >= or 'in' after x");
    parse_fails(t, "IF \"my col = 1 THEN x = 1", "1:4", "string without its closing quote");
    parse_fails(t, "IF x ! 1 THEN x = 1", "1:6", "'!' without '='");
    parse_fails(t, "IF x < 1e999 THEN x = 1", "1:8", "expected a number");
    parse_fails(t, "IF x < 1 THEN x = 1 # note", "1:21", "'#' inside a rule");
    parse_fails(t, "# rules\n\nIF x < 1 THEN x = 1\n  IF x < THEN x = 1\n", "4:10",
                "expected a number");
    rl_ruleset rs;
    dm_err err = {0};
    assert_int_equal(rl_rules_parse("# none\n\n", 8, "r.txt", t, &rs, &err), DM_EINPUT);
    assert_string_equal(err.msg, "r.txt: no rules");
    assert_int_equal(rl_rules_load("/nonexistent/r.txt", t, &rs, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "/nonexistent/r.txt"));
}

static void test_ruleset_check(void **state)
{
    const rl_table *t = *state;
    rl_token x1 = {RL_LT, 0, 1, 0}, and = {RL_AND, 0, 0, 0}, not = {RL_NOT, 0, 0, 0};
    rl_token bad_attr = {RL_LT, 9, 1, 0}, bad_cat = {RL_LT, 3, 0, 0}, bad_code = {RL_EQ, 3, 4, 0};
    rl_token bad_range = {RL_IN, 0, 2, 1}, bad_num = {RL_EQ, 0, INFINITY, 0};
    const rl_token two[2] = {x1, and}, xx[3] = {x1, x1, and}, left_two[2] = {x1, x1};
    assert_int_equal(rl_expr_depth(two, 2), -1);
    assert_int_equal(rl_expr_depth(left_two, 2), -1);
    assert_int_equal(rl_expr_depth(&not, 1), -1);
    assert_int_equal(rl_expr_depth(xx, 3), 2);
    const struct {
        rl_token cons;
        const char *msg;
    } cases[] = {
        {bad_attr, "rule 1: consequent, token 1: no such column"},
        {bad_cat, "rule 1: consequent, token 1: a categorical column allows = and != only"},
        {bad_code, "rule 1: consequent, token 1: not a code of the column"},
        {bad_range, "rule 1: consequent, token 1: an empty range"},
        {bad_num, "rule 1: consequent, token 1: not a finite number"},
    };
    dm_err err = {0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rl_ruleset rs = {0};
        assert_int_equal(rl_ruleset_add(&rs, xx, 3, &cases[i].cons, 1, &err), 0);
        assert_int_equal(rl_ruleset_check(&rs, t, NULL, &err), DM_EINPUT);
        assert_string_equal(err.msg, cases[i].msg);
        rl_ruleset_free(&rs);
    }
    rl_ruleset rs = {0};
    assert_int_equal(rl_ruleset_add(&rs, xx, 3, &x1, 1, &err), 0);
    assert_int_equal(rl_ruleset_add(&rs, two, 2, &x1, 1, &err), 0);
    assert_int_equal(rl_ruleset_check(&rs, t, NULL, &err), DM_EINPUT);
    assert_string_equal(err.msg, "rule 2: antecedent: not one RPN expression");
    rl_ruleset_free(&rs);
}

/* Writes rs as text and parses it back; asserts the same tokens, and the same text
 * when written again. */
static void round_trip(const rl_table *t, const rl_ruleset *rs)
{
    char *text = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    FILE *f = open_memstream(&text, &len);
    dm_err err = {0};
    assert_int_equal(rl_rules_write(rs, t, f, &err), 0);
    fclose(f);
    rl_ruleset back;
    if (rl_rules_parse(text, len, "gen.txt", t, &back, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(back.nrules, rs->nrules);
    assert_int_equal(back.ntok, rs->ntok);
    for (int r = 0; r < rs->nrules; r++) {
        assert_int_equal(back.rules[r].nante, rs->rules[r].nante);
        assert_int_equal(back.rules[r].ncons, rs->rules[r].ncons);
    }
    for (int64_t k = 0; k < rs->ntok; k++)
        if (!same_token(&back.tok[k], &rs->tok[k]))
            fail_msg("token %lld differs after the round trip", (long long)k);
    f = open_memstream(&again, &len2);
    assert_int_equal(rl_rules_write(&back, t, f, &err), 0);
    fclose(f);
    assert_string_equal(again, text);
    free(text);
    free(again);
    rl_ruleset_free(&back);
}

static void test_round_trip_random(void **state)
{
    const rl_table *small = *state;
    rl_table synth;
    dm_err err = {0};
    assert_int_equal(rl_synth_generate(500, 6, 4, 11, &synth, &err), 0);
    for (int seed = 0; seed < 40; seed++)
        for (int symbols = 2; symbols <= 64; symbols += 7) {
            const rl_table *t = seed % 2 ? small : &synth;
            rl_ruleset rs;
            assert_int_equal(rl_rules_generate(t, 5, symbols, (uint64_t)seed, &rs, &err), 0);
            round_trip(t, &rs);
            rl_ruleset_free(&rs);
        }
    rl_table_free(&synth);
}

/* Valid rules with random characters changed, dropped or doubled: each either parses
 * to rules that check against the table and round-trip, or is refused with one line
 * naming "r.txt:line:column"; the parser never crashes. */
static void test_parse_mutations(void **state)
{
    const rl_table *t = *state;
    static const char *seeds[] = {
        "IF x <= 3.5 AND (colour = red OR NOT \"my col\" in [1, 2]) THEN \"AND\" = 1",
        "IF colour = \"light blue\" OR colour != \"in\" THEN colour = \"a\\\"b\\\\c\"",
        "IF NOT (x < 1 OR x >= -2e-3) AND x in [0.5, 7] THEN NOT NOT x != 4",
    };
    static const char noise[] = "()[],=!<>\" #\\xAND ORNOT1.-e";
    dm_rng r = dm_rng_seed(5);
    int parsed = 0;
    for (int round = 0; round < 20000; round++) {
        const char *src = seeds[round % 3];
        char text[256];
        size_t n = 0, len = strlen(src);
        for (size_t i = 0; i < len && n + 2 < sizeof text; i++) {
            uint32_t what = dm_rng_below(&r, 40);
            if (what == 0)
                continue; /* dropped */
            text[n++] = what == 1 ? noise[dm_rng_below(&r, sizeof noise - 1)] : src[i];
            if (what == 2)
                text[n++] = src[i]; /* doubled */
        }
        rl_ruleset rs;
        dm_err err = {0};
        int rc = rl_rules_parse(text, n, "r.txt", t, &rs, &err);
        if (rc == 0) {
            parsed++;
            assert_int_equal(rl_ruleset_check(&rs, t, NULL, &err), 0);
            round_trip(t, &rs);
            rl_ruleset_free(&rs);
        } else {
            assert_int_equal(rc, DM_EINPUT);
            /* A '#' put first makes the line a comment: no rules. */
            assert_true(strncmp(err.msg, "r.txt:1:", 8) == 0 ||
                        strcmp(err.msg, "r.txt: no rules") == 0);
            assert_null(strchr(err.msg, '\n'));
        }
    }
    assert_true(parsed > 100);
}

static void test_generator(void **state)
{
    const rl_table *t = *state;
    rl_ruleset a, b, c;
    dm_err err = {0};
    assert_int_equal(rl_rules_generate(t, 200, 58, 5, &a, &err), 0);
    assert_int_equal(rl_rules_generate(t, 200, 58, 5, &b, &err), 0);
    assert_int_equal(rl_rules_generate(t, 200, 58, 6, &c, &err), 0);
    assert_int_equal(a.nrules, 200);
    assert_int_equal(a.ntok, 200 * 58);
    int depth, nots = 0, conds = 0, min_ante = 58, max_ante = 0, cats = 0;
    assert_int_equal(rl_ruleset_check(&a, t, &depth, &err), 0);
    for (int r = 0; r < 200; r++) {
        assert_int_equal(a.rules[r].nante + a.rules[r].ncons, 58);
        min_ante = a.rules[r].nante < min_ante ? a.rules[r].nante : min_ante;
        max_ante = a.rules[r].nante > max_ante ? a.rules[r].nante : max_ante;
    }
    for (int64_t k = 0; k < a.ntok; k++) {
        assert_true(same_token(&a.tok[k], &b.tok[k]));
        nots += a.tok[k].op == RL_NOT;
        conds += RL_IS_COND(a.tok[k].op);
        cats += RL_IS_COND(a.tok[k].op) && a.tok[k].attr == 3;
    }
    assert_true(min_ante < 10 && max_ante > 48); /* the split varies */
    assert_true(nots > 0 && conds > 200 * 20);
    assert_true(cats > 0);
    int64_t differ = 0;
    for (int64_t k = 0; k < a.ntok; k++)
        differ += !same_token(&a.tok[k], &c.tok[k]);
    assert_true(differ > a.ntok / 2);
    rl_ruleset_free(&a);
    rl_ruleset_free(&b);
    rl_ruleset_free(&c);
    assert_int_equal(rl_rules_generate(t, 0, 58, 5, &a, &err), DM_EINPUT);
    assert_int_equal(rl_rules_generate(t, 1, 1, 5, &a, &err), DM_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_to_tokens),
        cmocka_unit_test(test_write_back),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_ruleset_check),
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_parse_mutations),
        cmocka_unit_test(test_generator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
