/* test_rules_bitmap_plan.c - the bitmap evaluation's plan (rl_bitmap_plan.c), on the
 * host: the plan's codes, walked as the rules kernel walks them with each condition
 * decided as the conditions kernel decides it (the value's rank among its segment's
 * thresholds in their search tree, rl_bm_rank, in its emission's range), give every
 * token of every rule the support the interpreter (rl_evaluate) gives it, through the
 * reordered expressions and orig; on generated rule sets, on a file's categorical
 * columns, on numbers that tie with the rules' values, signed zeros and infinities, and
 * on a column of more thresholds than a segment holds. The distinct conditions are
 * distinct and sorted by column; each has one emission, the segments' thresholds
 * ascending and at most RL_BM_SEG, their emissions by rank; = and != of one value share
 * one; a rule set twice over has the conditions of once; a chain nested 400 deep needs a
 * stack of 2. The search tree ranks as counting does. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/rl_bitmap.h"

/* The search tree of the m ascending thresholds thr into t (RL_BM_SEG nodes), as the
 * ranks kernel stores it. */
static void tree_fill(const double *thr, int m, double *t)
{
    for (int i = 0; i < RL_BM_SEG; i++) {
        const int k = rl_bm_tree_at(i);
        t[i] = k < m ? thr[k] : INFINITY;
    }
}

/* Every token's support as the plan's codes give it on t, by original index, into sup
 * (rs->ntok of them); checks on the way that no expression's stack exceeds p->depth. */
static void plan_supports(const rl_bm_plan *p, const rl_ruleset *rs, const rl_table *t,
                          int64_t *sup)
{
    /* Each condition decided as the conditions kernel decides it: by the value's rank in
     * the search tree of the segment holding its emission (tree, a segment's each; seg and
     * emit, each condition's). */
    int32_t *seg = malloc((size_t)p->nconds * sizeof *seg),
            *emit = malloc((size_t)p->nconds * sizeof *emit);
    double *tree = malloc((size_t)(p->nsegs ? p->nsegs : 1) * RL_BM_SEG * sizeof *tree);
    assert_true(seg && emit && tree);
    for (int s = 0; s < p->nsegs; s++) {
        tree_fill(p->thr + p->seg[s].thr0, p->seg[s].nthr, tree + (size_t)s * RL_BM_SEG);
        for (int k = p->seg[s].emit0; k < p->seg[s].emit0 + p->seg[s].nemit; k++) {
            seg[p->emit[k].cond] = s;
            emit[p->emit[k].cond] = k;
        }
    }
    memset(sup, 0, (size_t)rs->ntok * sizeof *sup);
    uint8_t *stack = malloc((size_t)(p->depth + 1));
    assert_non_null(stack);
    for (int r = 0; r < rs->nrules; r++) {
        const rl_bm_rule *u = &p->rule[r];
        for (int64_t i = 0; i < t->n; i++) {
            int64_t ci = u->cl0;
            for (int side = 0; side < 2; side++) {
                int64_t k0 = u->tok0 + (side ? u->nante : 0);
                int n = side ? u->ncons : u->nante;
                int64_t base = side ? rs->rules[r].cons : rs->rules[r].ante;
                int sp = 0;
                for (int k = 0; k < n; k++) {
                    uint8_t code = p->code[k0 + k];
                    if ((code & 3) == RL_BM_COND) {
                        const int32_t cd = p->cl[ci++];
                        const rl_column *col = &t->cols[p->cond[cd].attr];
                        double x = col->kind == RL_NUMERIC ? col->num[i] : col->code[i];
                        assert_true(sp < p->depth);
                        const int rank = rl_bm_rank(tree + (size_t)seg[cd] * RL_BM_SEG, x);
                        stack[sp++] = (uint8_t)(rl_bm_emit_holds(p->emit[emit[cd]].code, rank) ^
                                                !!(code & RL_BM_NEG));
                    } else if (code == RL_BM_NOT) {
                        stack[sp - 1] ^= 1;
                    } else {
                        sp--;
                        stack[sp - 1] = code == RL_BM_AND ? stack[sp - 1] & stack[sp]
                                                          : stack[sp - 1] | stack[sp];
                    }
                    sup[base + p->orig[k0 + k]] += stack[sp - 1];
                }
                assert_int_equal(sp, 1);
            }
        }
    }
    free(stack);
    free(seg);
    free(emit);
    free(tree);
}

/* The plan's conditions: distinct and sorted by column, each with one emission; the
 * segments: of one column each, in column order, their thresholds ascending, at most
 * RL_BM_SEG, their emissions contiguous and by rank, within their thresholds' ranks. */
static void check_distinct(const rl_bm_plan *p)
{
    for (int c = 1; c < p->nconds; c++) {
        const rl_bm_cond *a = &p->cond[c - 1], *b = &p->cond[c];
        assert_true(a->attr <= b->attr);
        for (int k = 0; k < 2; k++) /* a side is a value only where the side exists */
            assert_true(a->has[k] || a->v[k] == 0);
        assert_false(a->attr == b->attr && a->has[0] == b->has[0] &&
                     a->has[1] == b->has[1] && a->v[0] == b->v[0] && a->v[1] == b->v[1]);
    }
    int *seen = calloc((size_t)p->nconds, sizeof *seen);
    assert_non_null(seen);
    int64_t thr = 0;
    for (int s = 0; s < p->nsegs; s++) {
        const rl_bm_seg *g = &p->seg[s];
        assert_true(g->nthr >= 1 && g->nthr <= RL_BM_SEG && g->nemit >= 1);
        assert_int_equal(g->thr0, thr);
        assert_int_equal(g->emit0, s ? p->seg[s - 1].emit0 + p->seg[s - 1].nemit : 0);
        if (s > 0)
            assert_true(p->seg[s - 1].attr <= g->attr);
        for (int k = 1; k < g->nthr; k++)
            assert_true(p->thr[thr + k - 1] < p->thr[thr + k]);
        thr += g->nthr;
        for (int k = g->emit0; k < g->emit0 + g->nemit; k++) {
            const rl_bm_emit *e = &p->emit[k];
            assert_true(e->cond >= 0 && e->cond < p->nconds && !seen[e->cond]++);
            assert_int_equal(p->cond[e->cond].attr, g->attr);
            assert_true(RL_BM_EMIT_V(e->code) <= g->nthr);
            assert_true(RL_BM_EMIT_KIND(e->code) <= RL_BM_IN);
            if (k > g->emit0)
                assert_true(RL_BM_EMIT_V(e[-1].code) <= RL_BM_EMIT_V(e->code));
        }
    }
    assert_int_equal(thr, p->nthr);
    assert_int_equal(p->nsegs ? p->seg[p->nsegs - 1].emit0 + p->seg[p->nsegs - 1].nemit : 0,
                     p->nconds);
    free(seen);
    for (int64_t k = 0; k < p->ncl; k++)
        assert_true(p->cl[k] >= 0 && p->cl[k] < p->nconds);
}

/* Plans rs, checks its conditions, and every token's support against rl_evaluate's on t;
 * gives the plan's conditions. */
static int check_plan(const rl_ruleset *rs, const rl_table *t)
{
    dm_err err = {0};
    rl_bm_plan p;
    rl_result res;
    assert_int_equal(rl_ruleset_check(rs, t, NULL, &err), 0);
    assert_int_equal(rl_bm_plan_make(rs, &p, &err), 0);
    check_distinct(&p);
    assert_int_equal(rl_evaluate(t, rs, 1, &res, &err), 0);
    int64_t *sup = malloc((size_t)rs->ntok * sizeof *sup);
    assert_non_null(sup);
    plan_supports(&p, rs, t, sup);
    for (int64_t k = 0; k < rs->ntok; k++)
        if (sup[k] != res.tok_support[k])
            fail_msg("token %lld: the plan gives %lld instances, the interpreter %lld",
                     (long long)k, (long long)sup[k], (long long)res.tok_support[k]);
    int nconds = p.nconds;
    free(sup);
    rl_result_free(&res);
    rl_bm_plan_free(&p);
    return nconds;
}

/* Generated rule sets on synthetic tables (and the same rules twice over: no new
 * condition), and on Poker hands, whose few values make rules share conditions. */
static void generated_rules_match_the_interpreter(void **state)
{
    (void)state;
    dm_err err = {0};
    for (int seed = 1; seed <= 6; seed++) {
        rl_table t;
        rl_ruleset rs, twice = {0};
        assert_int_equal(seed % 2 ? rl_synth_generate(1000 + 7 * seed, 4, 3, seed, &t, &err)
                                  : rl_poker_generate(1000 + 7 * seed, seed, &t, &err),
                         0);
        assert_int_equal(rl_rules_generate(&t, 30, 2 + 9 * seed, seed, &rs, &err), 0);
        int once = check_plan(&rs, &t);
        for (int copy = 0; copy < 2; copy++)
            for (int r = 0; r < rs.nrules; r++) {
                const rl_rule *u = &rs.rules[r];
                assert_int_equal(rl_ruleset_add(&twice, rs.tok + u->ante, u->nante,
                                                rs.tok + u->cons, u->ncons, &err),
                                 0);
            }
        assert_int_equal(check_plan(&twice, &t), once);
        rl_ruleset_free(&twice);
        rl_ruleset_free(&rs);
        rl_table_free(&t);
    }
}

/* A file's numeric and categorical columns with rules of every operator, = and != of one
 * value sharing a condition. */
static void every_operator_on_a_files_columns(void **state)
{
    (void)state;
    static const char table[] = "x,colour,y\n"
                                "1.5,red,3\n"
                                "-0.0,green,1\n"
                                "0.0,blue,4\n"
                                "2.5,red,1\n"
                                "1.5,green,5\n"
                                "7,red,9\n";
    static const char rules[] = "IF x = 1.5 THEN colour = red\n"
                                "IF x != 1.5 THEN colour != red\n"
                                "IF x < 1.5 OR x <= 0 THEN y > 3\n"
                                "IF x >= 2.5 AND NOT y in [1, 4] THEN x = -0.0\n"
                                "IF x = 0 THEN y < 4 OR y >= 9\n";
    dm_err err = {0};
    rl_table t;
    rl_ruleset rs;
    assert_int_equal(rl_table_parse(table, sizeof table - 1, "t.csv", NULL, &t, &err), 0);
    assert_int_equal(rl_rules_parse(rules, sizeof rules - 1, "r.txt", &t, &rs, &err), 0);
    /* 13 condition tokens; x = 1.5 and x != 1.5 are one, colour = red and != red one, x =
     * 0 and x = -0.0 compare equal and are one: 10 (x < 1.5 and x <= 0 stay two). */
    assert_int_equal(check_plan(&rs, &t), 10);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
}

/* Infinities and signed zeros among the values, rules on their values and next to them. */
static void infinities_and_zeros(void **state)
{
    (void)state;
    static const double x[] = {-INFINITY, -1e308, -0.0, 0.0, 1e-300, 1.0, 1e308, INFINITY,
                               INFINITY, 0.0};
    const int n = (int)(sizeof x / sizeof *x);
    static const int ops[] = {RL_EQ, RL_NE, RL_LT, RL_LE, RL_GT, RL_GE};
    static const double v[] = {-1e308, -0.0, 0.0, 1e-300, 1e308};
    dm_err err = {0};
    rl_table t;
    rl_ruleset rs = {0};
    assert_int_equal(rl_table_init(&t, n, 1, "a%d", &err), 0);
    memcpy(t.cols[0].num, x, sizeof x);
    for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
        for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
            rl_token a = {.op = ops[o], .lo = v[k]};
            rl_token c = {.op = RL_IN, .lo = v[k], .hi = v[(k + 2) % 5] > v[k] ? v[(k + 2) % 5]
                                                                                 : v[k]};
            assert_int_equal(rl_ruleset_add(&rs, &a, 1, &c, 1, &err), 0);
        }
    check_plan(&rs, &t);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
}

/* One column of 2,000 values on a grid of 1,500 (ties), 1,200 rules of every operator on
 * values of that grid and between its points: some 3,000 thresholds, several segments,
 * = and in [,] conditions whose two sides must share one. */
static void more_thresholds_than_a_segment(void **state)
{
    (void)state;
    enum { N = 2000, RULES = 1200 };
    static const int ops[] = {RL_EQ, RL_NE, RL_LT, RL_LE, RL_GT, RL_GE, RL_IN};
    dm_err err = {0};
    rl_table t;
    rl_ruleset rs = {0};
    assert_int_equal(rl_table_init(&t, N, 1, "a%d", &err), 0);
    uint64_t z = 12345;
    for (int i = 0; i < N; i++) {
        z = z * 6364136223846793005ULL + 1442695040888963407ULL;
        t.cols[0].num[i] = (double)((z >> 33) % 1500) / 4.0;
    }
    for (int r = 0; r < RULES; r++) {
        const double v = (r * 7 % 1500) / 4.0 + (r % 3 == 0 ? 0.1 : 0.0);
        rl_token a = {.op = ops[r % 7], .lo = v, .hi = v + (r * 13 % 400) / 4.0};
        rl_token c = {.op = ops[(r + 3) % 7], .lo = (r * 11 % 1500) / 4.0 + 0.05, .hi = 400};
        c.hi = c.lo > c.hi ? c.lo : c.hi;
        assert_int_equal(rl_ruleset_add(&rs, &a, 1, &c, 1, &err), 0);
    }
    rl_bm_plan p;
    assert_int_equal(rl_bm_plan_make(&rs, &p, &err), 0);
    assert_true(p.nsegs >= 3);
    rl_bm_plan_free(&p);
    check_plan(&rs, &t);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
}

/* The search tree: a permutation of the sorted places with every left child below its
 * parent and every right child above it; a rank is the count of thresholds not above x,
 * on thresholds of 1, 500 and 1023 values with ties. */
static void the_search_tree_ranks_by_counting(void **state)
{
    (void)state;
    static int seen[RL_BM_SEG];
    for (int i = 0; i < RL_BM_SEG; i++) {
        const int k = rl_bm_tree_at(i);
        assert_true(k >= 0 && k < RL_BM_SEG && !seen[k]++);
        if (2 * i + 2 < RL_BM_SEG) {
            assert_true(rl_bm_tree_at(2 * i + 1) < k);
            assert_true(rl_bm_tree_at(2 * i + 2) > k);
        }
    }
    static const int sizes[] = {1, 500, RL_BM_SEG};
    double sorted[RL_BM_SEG], t[RL_BM_SEG];
    uint64_t z = 99;
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        const int m = sizes[c];
        for (int k = 0; k < m; k++)
            sorted[k] = k * 2.0; /* the even numbers: odd x fall between */
        tree_fill(sorted, m, t);
        for (int trial = 0; trial < 5000; trial++) {
            z = z * 6364136223846793005ULL + 1442695040888963407ULL;
            const double x = (double)((z >> 33) % (uint64_t)(2 * m + 4)) - 2.0;
            int count = 0;
            for (int k = 0; k < m; k++)
                count += !(x < sorted[k]);
            assert_int_equal(rl_bm_rank(t, x), count);
        }
    }
}

/* A chain nested to the right, c OR (c AND (c OR ...)), 400 deep: its RPN pushes every
 * condition first (a stack of 401), the plan's order needs 2. */
static void a_deep_chain_needs_a_shallow_stack(void **state)
{
    (void)state;
    enum { DEEP = 400 };
    dm_err err = {0};
    rl_table t;
    rl_ruleset rs = {0};
    rl_token *tok = malloc((2 * DEEP + 1) * sizeof *tok);
    assert_non_null(tok);
    assert_int_equal(rl_synth_generate(300, 2, 0, 5, &t, &err), 0);
    for (int k = 0; k <= DEEP; k++)
        tok[k] = (rl_token){.op = RL_LT + k % 4, .attr = k % 2, .lo = (k % 97) / 97.0};
    for (int k = 0; k < DEEP; k++)
        tok[DEEP + 1 + k] = (rl_token){.op = k % 2 ? RL_AND : RL_OR};
    assert_int_equal(rl_expr_depth(tok, 2 * DEEP + 1), DEEP + 1);
    assert_int_equal(rl_ruleset_add(&rs, tok, 2 * DEEP + 1, tok, 1, &err), 0);
    rl_bm_plan p;
    assert_int_equal(rl_bm_plan_make(&rs, &p, &err), 0);
    assert_int_equal(p.depth, 2);
    rl_bm_plan_free(&p);
    check_plan(&rs, &t);
    free(tok);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generated_rules_match_the_interpreter),
        cmocka_unit_test(every_operator_on_a_files_columns),
        cmocka_unit_test(infinities_and_zeros),
        cmocka_unit_test(more_thresholds_than_a_segment),
        cmocka_unit_test(the_search_tree_ranks_by_counting),
        cmocka_unit_test(a_deep_chain_needs_a_shallow_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
