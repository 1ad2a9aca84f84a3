/* test_rules_eval.c - the rules CPU interpreter against a brute force (random expression
 * trees built here, evaluated recursively instance by instance) on many small random
 * tables; every thread count giving the single-threaded result bit for bit; the results
 * of a table's slices summed (multigpu's host sum) giving the whole table's bit for bit;
 * the contingency table summing to N; the measures on hand-computed tables (conviction
 * +inf, NaN where the paper's formulas divide 0 by 0); the result's CSV (values read back
 * exactly); the GP operations of Table 4. */
#include <float.h>
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
#include "rules/rl_eval.h"

/* ---- the brute force --------------------------------------------------------------- */

typedef struct node {
    int op, attr;
    double lo, hi;
    struct node *left, *right; /* NOT: left only */
    int index;                 /* its token's index in the RPN, filled by to_rpn */
} node;

/* A random tree of about size nodes over t's columns (values from a small range, so
 * equalities hold on some rows). */
static node *random_tree(const rl_table *t, dm_rng *r, int size)
{
    node *n = calloc(1, sizeof *n);
    if (size <= 1 || dm_rng_below(r, 8) == 0) {
        n->attr = (int)dm_rng_below(r, (uint32_t)t->ncols);
        const rl_column *c = &t->cols[n->attr];
        if (c->kind == RL_CATEGORICAL) {
            n->op = dm_rng_below(r, 2) ? RL_EQ : RL_NE;
            n->lo = dm_rng_below(r, (uint32_t)c->nlevels);
        } else {
            n->op = RL_EQ + (int)dm_rng_below(r, 7);
            n->lo = (double)dm_rng_below(r, 6) - 0.5 * dm_rng_below(r, 2);
            n->hi = n->lo + dm_rng_below(r, 4);
        }
        return n;
    }
    int pick = (int)dm_rng_below(r, 5);
    if (pick == 0) {
        n->op = RL_NOT;
        n->left = random_tree(t, r, size - 1);
    } else {
        n->op = pick < 3 ? RL_AND : RL_OR;
        int left = 1 + (int)dm_rng_below(r, (uint32_t)(size - 1));
        n->left = random_tree(t, r, left);
        n->right = random_tree(t, r, size - left);
    }
    return n;
}

/* Whether row i satisfies the tree n, recursively. */
static int eval_tree(const rl_table *t, const node *n, int64_t i)
{
    if (n->op == RL_NOT)
        return !eval_tree(t, n->left, i);
    if (n->op == RL_AND)
        return eval_tree(t, n->left, i) && eval_tree(t, n->right, i);
    if (n->op == RL_OR)
        return eval_tree(t, n->left, i) || eval_tree(t, n->right, i);
    const rl_column *c = &t->cols[n->attr];
    double x = c->kind == RL_CATEGORICAL ? c->code[i] : c->num[i];
    switch (n->op) {
    case RL_EQ: return x == n->lo;
    case RL_NE: return x != n->lo;
    case RL_LT: return x < n->lo;
    case RL_LE: return x <= n->lo;
    case RL_GT: return x > n->lo;
    case RL_GE: return x >= n->lo;
    default: return x >= n->lo && x <= n->hi;
    }
}

/* Appends n in post order to tok (from *k), recording each node's index. */
static void to_rpn(node *n, rl_token *tok, int *k)
{
    if (n->left)
        to_rpn(n->left, tok, k);
    if (n->right)
        to_rpn(n->right, tok, k);
    rl_token x = {.op = n->op, .attr = n->attr, .lo = n->lo, .hi = n->hi};
    n->index = *k;
    tok[(*k)++] = x;
}

/* Adds to count[index] the rows on which each node of n holds. */
static void count_nodes(const rl_table *t, const node *n, int64_t *count)
{
    if (n->left)
        count_nodes(t, n->left, count);
    if (n->right)
        count_nodes(t, n->right, count);
    for (int64_t i = 0; i < t->n; i++)
        count[n->index] += eval_tree(t, n, i);
}

static void free_tree(node *n)
{
    if (n) {
        free_tree(n->left);
        free_tree(n->right);
        free(n);
    }
}

/* A random table of n rows: numeric columns of small values (some halves) and one
 * categorical column, as CSV text loaded by rl_table_parse. */
static void random_table(dm_rng *r, int64_t n, int ncols, rl_table *t)
{
    size_t cap = (size_t)(n + 1) * (size_t)ncols * 8 + 64, len = 0;
    char *csv = malloc(cap);
    for (int j = 0; j < ncols; j++)
        len += (size_t)snprintf(csv + len, cap - len, j ? ",c%d" : "c%d", j);
    static const char *levels[] = {"p", "q", "r"};
    for (int64_t i = 0; i < n; i++) {
        csv[len++] = '\n';
        for (int j = 0; j < ncols; j++) {
            if (j)
                csv[len++] = ',';
            if (j == ncols - 1)
                len += (size_t)snprintf(csv + len, cap - len, "%s", levels[dm_rng_below(r, 3)]);
            else
                len += (size_t)snprintf(csv + len, cap - len, "%g",
                                        (double)dm_rng_below(r, 6) - 0.5 * dm_rng_below(r, 2));
        }
    }
    dm_err err = {0};
    rl_load_opts opts = {.sep = ',', .header = RL_HEADER_YES};
    if (rl_table_parse(csv, len, "random.csv", &opts, t, &err))
        fail_msg("%s", err.msg);
    free(csv);
}

static void test_interpreter_vs_brute_force(void **state)
{
    (void)state;
    dm_rng r = dm_rng_seed(2024);
    for (int round = 0; round < 60; round++) {
        rl_table t;
        int64_t n = 1 + (int64_t)dm_rng_below(&r, round < 50 ? 300 : 2500);
        random_table(&r, n, 2 + (int)dm_rng_below(&r, 4), &t);
        int nrules = 1 + (int)dm_rng_below(&r, 6);
        node *ante[6], *cons[6];
        rl_ruleset rs = {0};
        dm_err err = {0};
        for (int q = 0; q < nrules; q++) {
            ante[q] = random_tree(&t, &r, 1 + (int)dm_rng_below(&r, 12));
            cons[q] = random_tree(&t, &r, 1 + (int)dm_rng_below(&r, 6));
            rl_token tok[64];
            int na = 0, nc;
            to_rpn(ante[q], tok, &na);
            nc = na;
            to_rpn(cons[q], tok, &nc);
            /* Indexes within the rule; made rule-set-wide below. */
            assert_int_equal(rl_ruleset_add(&rs, tok, na, tok + na, nc - na, &err), 0);
        }
        rl_result res;
        if (rl_evaluate(&t, &rs, 1, &res, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(res.nrules, nrules);
        assert_int_equal(res.n, n);
        int64_t *want = calloc((size_t)rs.ntok, sizeof *want);
        int64_t gpops = 0;
        for (int q = 0; q < nrules; q++) {
            const rl_rule *rule = &rs.rules[q];
            count_nodes(&t, ante[q], want + rule->ante);
            count_nodes(&t, cons[q], want + rule->ante); /* cons indexes run on from ante's */
            int64_t a = 0, c = 0, ac = 0;
            for (int64_t i = 0; i < n; i++) {
                int ai = eval_tree(&t, ante[q], i), ci = eval_tree(&t, cons[q], i);
                a += ai;
                c += ci;
                ac += ai && ci;
            }
            const rl_rule_result *got = &res.rule[q];
            assert_int_equal(got->n_a, a);
            assert_int_equal(got->n_c, c);
            assert_int_equal(got->n_ac, ac);
            assert_int_equal(got->n_anc, a - ac);
            assert_int_equal(got->n_nac, c - ac);
            assert_int_equal(got->n_nanc, n - a - c + ac);
            assert_int_equal(got->n_ac + got->n_anc + got->n_nac + got->n_nanc, n);
            gpops += (int64_t)(rule->nante + rule->ncons) * n;
        }
        for (int64_t k = 0; k < rs.ntok; k++)
            if (res.tok_support[k] != want[k])
                fail_msg("round %d: token %lld: support %lld, brute force %lld", round,
                         (long long)k, (long long)res.tok_support[k], (long long)want[k]);
        assert_int_equal(res.gpops, gpops);
        free(want);
        for (int q = 0; q < nrules; q++) {
            free_tree(ante[q]);
            free_tree(cons[q]);
        }
        rl_result_free(&res);
        rl_ruleset_free(&rs);
        rl_table_free(&t);
    }
}

static int same_result(const rl_result *a, const rl_result *b)
{
    return a->n == b->n && a->nrules == b->nrules && a->ntok == b->ntok &&
           a->gpops == b->gpops &&
           memcmp(a->rule, b->rule, (size_t)a->nrules * sizeof *a->rule) == 0 &&
           memcmp(a->tok_support, b->tok_support, (size_t)a->ntok * sizeof *a->tok_support) == 0;
}

static void test_threads_match_single(void **state)
{
    (void)state;
    rl_table t;
    rl_ruleset rs;
    rl_result one, many;
    dm_err err = {0};
    /* Enough rows for several work items per rule, and a ragged last one. */
    assert_int_equal(rl_synth_generate(200003, 8, 3, 9, &t, &err), 0);
    assert_int_equal(rl_rules_generate(&t, 37, 58, 4, &rs, &err), 0);
    assert_int_equal(rl_evaluate(&t, &rs, 1, &one, &err), 0);
    static const int threads[] = {2, 3, 7, 64, 0};
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        assert_int_equal(rl_evaluate(&t, &rs, threads[i], &many, &err), 0);
        if (!same_result(&one, &many))
            fail_msg("%d threads differ from one", threads[i]);
        rl_result_free(&many);
    }
    int64_t covered = 0;
    for (int q = 0; q < one.nrules; q++) {
        const rl_rule_result *r = &one.rule[q];
        assert_int_equal(r->n_ac + r->n_anc + r->n_nac + r->n_nanc, t.n);
        covered += r->n_a > 0 && r->n_a < t.n;
    }
    assert_true(covered > 0); /* the generated rules are not all trivial */
    rl_result_free(&one);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
}

/* The reference on each slice of a random table (rl_table_slice, rl_table_rows), the
 * partial results summed by rl_result_sum, as multigpu sums its GPUs': the whole table's
 * result, counts, token supports, GP operations and measures bit for bit, for 1 to 6
 * slices, tables with fewer rows than slices among them (the empty slices left out, as
 * multigpu leaves their GPUs idle), and the same again when summed a second time. */
static void test_slices_sum_to_the_whole(void **state)
{
    (void)state;
    enum { MAX_PARTS = 6 };
    dm_rng r = dm_rng_seed(77);
    for (int round = 0; round < 40; round++) {
        rl_table t;
        rl_ruleset rs;
        rl_result whole, sum;
        dm_err err = {0};
        int64_t n = 1 + (int64_t)dm_rng_below(&r, round < 10 ? 5 : 3000);
        random_table(&r, n, 2 + (int)dm_rng_below(&r, 4), &t);
        assert_int_equal(rl_rules_generate(&t, 1 + (int)dm_rng_below(&r, 20),
                                           2 + (int)dm_rng_below(&r, 40), (uint64_t)round, &rs,
                                           &err), 0);
        assert_int_equal(rl_evaluate(&t, &rs, 1, &whole, &err), 0);
        assert_int_equal(rl_result_init(&sum, &rs, &err), 0);
        for (int parts = 1; parts <= MAX_PARTS; parts++) {
            rl_result part[MAX_PARTS];
            const rl_result *pp[MAX_PARTS];
            int busy = 0;
            for (int k = 0; k < parts; k++) {
                int64_t i0, len;
                rl_table v;
                rl_table_slice(n, parts, k, &i0, &len);
                if (len == 0)
                    continue;
                assert_int_equal(rl_table_rows(&t, i0, len, &v, &err), 0);
                if (rl_evaluate(&v, &rs, 1, &part[busy], &err))
                    fail_msg("round %d, slice %d of %d: %s", round, k, parts, err.msg);
                pp[busy] = &part[busy];
                busy++;
                rl_table_view_free(&v);
            }
            assert_int_equal(busy, n < parts ? n : parts);
            for (int twice = 0; twice < 2; twice++) {
                rl_result_sum(&sum, pp, busy);
                if (!same_result(&whole, &sum))
                    fail_msg("round %d: %lld rows in %d slices do not sum to the whole",
                             round, (long long)n, parts);
            }
            for (int k = 0; k < busy; k++)
                rl_result_free(&part[k]);
        }
        rl_result_free(&sum);
        rl_result_free(&whole);
        rl_ruleset_free(&rs);
        rl_table_free(&t);
    }
}

/* Evaluates the one rule in text on the table in csv; returns its result. */
static rl_rule_result eval_one(const char *csv, const char *rule)
{
    rl_table t;
    rl_ruleset rs;
    rl_result res;
    dm_err err = {0};
    assert_int_equal(rl_table_parse(csv, strlen(csv), "m.csv", NULL, &t, &err), 0);
    if (rl_rules_parse(rule, strlen(rule), "m.txt", &t, &rs, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(rl_evaluate(&t, &rs, 1, &res, &err), 0);
    rl_rule_result out = res.rule[0];
    rl_result_free(&res);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
    return out;
}

static void near(double got, double want)
{
    if (!(fabs(got - want) <= 4 * DBL_EPSILON * fabs(want)))
        fail_msg("%.17g, expected %.17g", got, want);
}

static void test_measures_by_hand(void **state)
{
    (void)state;
    /* (a, b) for ten rows: A is a = 1, C is b = 1. n(AC) 2, n(A not C) 1, n(not A C) 1,
     * n(not A not C) 6. */
    const char *csv = "a,b\n1,1\n1,1\n1,0\n0,1\n0,0\n0,0\n0,0\n0,0\n0,0\n0,0\n";
    rl_rule_result r = eval_one(csv, "IF a = 1 THEN b = 1");
    assert_int_equal(r.n_ac, 2);
    assert_int_equal(r.n_anc, 1);
    assert_int_equal(r.n_nac, 1);
    assert_int_equal(r.n_nanc, 6);
    near(r.support, 0.2);           /* 2/10 */
    near(r.confidence, 2.0 / 3.0);  /* 2/3 */
    near(r.lift, 20.0 / 9.0);       /* 2*10 / (3*3) */
    near(r.leverage, 0.11);         /* 0.2 - 0.3*0.3 */
    near(r.conviction, 2.1);        /* 3*7 / (10*1) */

    /* Never wrong where it applies: conviction +inf. */
    r = eval_one(csv, "IF a = 1 AND b = 1 THEN b = 1");
    assert_int_equal(r.n_anc, 0);
    near(r.confidence, 1);
    near(r.lift, 10.0 / 3.0);       /* 2*10 / (2*3) */
    near(r.leverage, 0.14);         /* 0.2 - 0.2*0.3 */
    assert_true(isinf(r.conviction) && r.conviction > 0);

    /* The antecedent covers nothing: confidence, lift, conviction 0/0, NaN. */
    r = eval_one(csv, "IF a = 5 THEN b = 1");
    assert_int_equal(r.n_a, 0);
    assert_true(r.support == 0 && r.leverage == 0);
    assert_true(isnan(r.confidence) && isnan(r.lift) && isnan(r.conviction));

    /* The consequent covers nothing: lift 0/0; conviction 3*10 / (10*3). */
    r = eval_one(csv, "IF a = 1 THEN b = 7");
    assert_int_equal(r.n_c, 0);
    assert_true(isnan(r.lift));
    near(r.confidence, 0);
    near(r.conviction, 1);
    near(r.leverage, 0);

    /* Categorical values, a range and NOT. */
    r = eval_one("k,v\nx,1\ny,2\nx,3\nz,4\n", "IF NOT k = y THEN v in [2, 3.5]");
    assert_int_equal(r.n_a, 3);
    assert_int_equal(r.n_c, 2);
    assert_int_equal(r.n_ac, 1);
}

/* Asserts that field text reads back as exactly v (NaN as "nan"). */
static void same_double(const char *text, double v)
{
    double got = strtod(text, NULL);
    if (!(isnan(v) ? isnan(got) && strncmp(text, "nan", 3) == 0
                   : memcmp(&got, &v, sizeof v) == 0))
        fail_msg("'%s' read back is not %.17g", text, v);
}

static void test_write_csv(void **state)
{
    (void)state;
    /* the level "q", quotes and all: written """q""" in CSV (RFC 4180) */
    const char *csv = "a,b,k\n1,1,x\n1,1,y\n1,0,x\n0,1,\"\"\"q\"\"\"\n0,0,x\n0,0,x\n0,0,x\n0,0,x\n"
                      "0,0,x\n0,0,x\n";
    const char *rules = "IF a = 1 THEN b = 1\n"
                        "IF a = 1 AND b = 1 THEN b = 1\n"
                        "IF a = 5 THEN b = 1\n"
                        "IF a in [0, 1] OR k = \"\\\"q\\\"\" THEN b = 1\n";
    rl_table t;
    rl_ruleset rs;
    rl_result res;
    dm_err err = {0};
    assert_int_equal(rl_table_parse(csv, strlen(csv), "w.csv", NULL, &t, &err), 0);
    if (rl_rules_parse(rules, strlen(rules), "w.txt", &t, &rs, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(rl_evaluate(&t, &rs, 1, &res, &err), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(rl_result_write(&res, &rs, &t, f, &err), 0);
    fclose(f);
    char *line = strtok(text, "\n");
    assert_string_equal(line,
                        "rule,n_ac,n_anc,n_nac,n_nanc,support,confidence,lift,leverage,conviction");
    static const char *starts[4] = {
        "\"IF a = 1 THEN b = 1\",2,1,1,6,",
        "\"IF a = 1 AND b = 1 THEN b = 1\",2,0,1,7,",
        "\"IF a = 5 THEN b = 1\",0,0,3,7,0,nan,nan,0,nan",
        "\"IF a in [0, 1] OR k = \"\"\\\"\"q\\\"\"\"\" THEN b = 1\",3,7,0,0,",
    };
    for (int r = 0; r < 4; r++) {
        line = strtok(NULL, "\n");
        assert_non_null(line);
        if (strncmp(line, starts[r], strlen(starts[r])) != 0)
            fail_msg("line '%s', expected it to start '%s'", line, starts[r]);
        /* The five measures are the last five fields. */
        const char *field[5];
        const char *p = line + strlen(line);
        for (int k = 4; k >= 0; k--) {
            while (p[-1] != ',')
                p--;
            field[k] = p--;
        }
        const rl_rule_result *q = &res.rule[r];
        same_double(field[0], q->support);
        same_double(field[1], q->confidence);
        same_double(field[2], q->lift);
        same_double(field[3], q->leverage);
        same_double(field[4], q->conviction);
        if (r == 1) /* never wrong where it applies */
            assert_string_equal(field[4], "inf");
    }
    assert_null(strtok(NULL, "\n"));
    free(text);
    rl_result_free(&res);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
}

static void test_gpops_table4(void **state)
{
    (void)state;
    /* Table 4's first row: 2.5e2 instances x 25 rules, 3.62e5 GP operations: 58 symbols
     * per rule and instance. */
    rl_table t;
    rl_ruleset rs;
    rl_result res;
    dm_err err = {0};
    assert_int_equal(rl_synth_generate(250, 10, 0, 1, &t, &err), 0);
    assert_int_equal(rl_rules_generate(&t, 25, 58, 1, &rs, &err), 0);
    assert_int_equal(rl_evaluate(&t, &rs, 0, &res, &err), 0);
    assert_int_equal(res.gpops, 362500);
    rl_result_free(&res);
    /* Rules that do not check against the table are refused. */
    rs.tok[0].attr = 99;
    rs.tok[0].op = RL_LT;
    assert_int_equal(rl_evaluate(&t, &rs, 1, &res, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "no such column"));
    assert_null(res.rule);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measures_by_hand),
        cmocka_unit_test(test_interpreter_vs_brute_force),
        cmocka_unit_test(test_threads_match_single),
        cmocka_unit_test(test_slices_sum_to_the_whole),
        cmocka_unit_test(test_write_csv),
        cmocka_unit_test(test_gpops_table4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
