/* test_rules_gpu_plan.c - the cut of a rule set into the chunks the GPU kernels take
 * (rl_gpu_plan.c), on the host: each side's tokens packed in rule order, every chunk
 * within constant memory's tokens and rules and as full as the greedy cut makes it, the
 * expression starts, each rule's first token, the deepest stack, and the one-line
 * error for an expression longer than a chunk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rules/rl_gpu.h"

/* The condition a0 < 0.5. */
static rl_token cond(void)
{
    return (rl_token){.op = RL_LT, .attr = 0, .lo = 0.5};
}

/* An expression of n conditions (n odd or even, n >= 1) ANDed together, written as n
 * conditions then n - 1 ANDs when deep (a stack n deep), else as c c AND c AND ... (2). */
static int expr(rl_token *t, int n, int deep)
{
    int k = 0;
    if (deep) {
        for (int i = 0; i < n; i++)
            t[k++] = cond();
        for (int i = 1; i < n; i++)
            t[k++] = (rl_token){.op = RL_AND};
        return k;
    }
    t[k++] = cond();
    for (int i = 1; i < n; i++) {
        t[k++] = cond();
        t[k++] = (rl_token){.op = RL_AND};
    }
    return k;
}

/* Checks everything a plan of rs must hold: the chunks cover the rules in order, each
 * within the limits and unable to take its next rule, the packed tokens equal each rule's,
 * the starts and firsts agree with them, depth the deepest stack of its expressions. */
static void check_plan(const rl_ruleset *rs, const rl_gpu_plan *p)
{
    int r = 0;
    int64_t at[RL_SIDES] = {0, 0};
    for (int c = 0; c < p->nchunks; c++) {
        const rl_gpu_chunk *ch = &p->chunks[c];
        assert_int_equal(ch->r0, r);
        assert_true(ch->nrules >= 1 && ch->nrules <= RL_GPU_CHUNK_RULES);
        int depth = 0;
        for (int s = 0; s < RL_SIDES; s++) {
            const int32_t *start = rl_gpu_plan_starts(p, c, s);
            assert_int_equal(ch->tok0[s], at[s]);
            assert_true(ch->ntok[s] <= RL_GPU_CHUNK_TOKENS);
            assert_int_equal(start[0], 0);
            assert_int_equal(start[ch->nrules], ch->ntok[s]);
            for (int j = 0; j < ch->nrules; j++) {
                const rl_rule *rule = &rs->rules[r + j];
                int len = s == RL_SIDE_A ? rule->nante : rule->ncons;
                const rl_token *tok = rs->tok + (s == RL_SIDE_A ? rule->ante : rule->cons);
                assert_int_equal(start[j + 1] - start[j], len);
                assert_int_equal(p->first[s][r + j], ch->tok0[s] + start[j]);
                assert_memory_equal(p->tok[s] + p->first[s][r + j], tok, (size_t)len * sizeof *tok);
                if (rl_expr_depth(tok, len) > depth)
                    depth = rl_expr_depth(tok, len);
            }
            at[s] += ch->ntok[s];
        }
        assert_int_equal(ch->depth, depth);
        r += ch->nrules;
        if (c + 1 < p->nchunks) { /* greedy: the next rule did not fit */
            const rl_rule *next = &rs->rules[r];
            assert_true(ch->nrules == RL_GPU_CHUNK_RULES ||
                        ch->ntok[0] + next->nante > RL_GPU_CHUNK_TOKENS ||
                        ch->ntok[1] + next->ncons > RL_GPU_CHUNK_TOKENS);
        }
    }
    assert_int_equal(r, rs->nrules);
    assert_int_equal(at[0], p->ntok[0]);
    assert_int_equal(at[1], p->ntok[1]);
    assert_int_equal(p->ntok[0] + p->ntok[1], rs->ntok);
}

/* nrules rules, rule i with (i % 7) + 1 conditions in its antecedent and (i % 3) + 1 in
 * its consequent, scaled by size. */
static void make_rules(rl_ruleset *rs, int nrules, int size, int deep)
{
    static rl_token a[2 * RL_GPU_CHUNK_TOKENS], c[2 * RL_GPU_CHUNK_TOKENS];
    dm_err err = {0};
    memset(rs, 0, sizeof *rs);
    for (int i = 0; i < nrules; i++) {
        int na = expr(a, (i % 7 + 1) * size, deep), nc = expr(c, (i % 3 + 1) * size, 0);
        assert_int_equal(rl_ruleset_add(rs, a, na, c, nc, &err), 0);
    }
}

static void a_small_set_is_one_chunk(void **state)
{
    (void)state;
    rl_ruleset rs;
    rl_gpu_plan p;
    dm_err err = {0};
    make_rules(&rs, 10, 1, 0);
    assert_int_equal(rl_gpu_plan_make(&rs, &p, &err), 0);
    assert_int_equal(p.nchunks, 1);
    check_plan(&rs, &p);
    rl_gpu_plan_free(&p);
    rl_ruleset_free(&rs);
}

static void many_small_rules_are_cut_by_the_rule_limit(void **state)
{
    (void)state;
    rl_ruleset rs;
    rl_gpu_plan p;
    dm_err err = {0};
    memset(&rs, 0, sizeof rs);
    rl_token t = cond();
    for (int i = 0; i < 2 * RL_GPU_CHUNK_RULES + 7; i++)
        assert_int_equal(rl_ruleset_add(&rs, &t, 1, &t, 1, &err), 0);
    assert_int_equal(rl_gpu_plan_make(&rs, &p, &err), 0);
    assert_int_equal(p.nchunks, 3);
    assert_int_equal(p.chunks[0].nrules, RL_GPU_CHUNK_RULES);
    assert_int_equal(p.chunks[2].nrules, 7);
    check_plan(&rs, &p);
    rl_gpu_plan_free(&p);
    rl_ruleset_free(&rs);
}

static void long_rules_are_cut_by_the_token_limit(void **state)
{
    (void)state;
    rl_ruleset rs;
    rl_gpu_plan p;
    dm_err err = {0};
    make_rules(&rs, 200, 20, 0); /* antecedents of 39 to 279 tokens */
    assert_int_equal(rl_gpu_plan_make(&rs, &p, &err), 0);
    assert_true(p.nchunks > 5);
    check_plan(&rs, &p);
    rl_gpu_plan_free(&p);
    rl_ruleset_free(&rs);
}

static void deep_expressions_are_flagged(void **state)
{
    (void)state;
    rl_ruleset rs;
    rl_gpu_plan p;
    dm_err err = {0};
    /* antecedents of 10 to 70 conditions pushed before their ANDs: deep past
     * RL_GPU_SHALLOW */
    make_rules(&rs, 40, 10, 1);
    assert_int_equal(rl_gpu_plan_make(&rs, &p, &err), 0);
    int deep = 0;
    for (int c = 0; c < p.nchunks; c++)
        deep += p.chunks[c].depth > RL_GPU_SHALLOW;
    assert_true(deep > 0);
    check_plan(&rs, &p);
    rl_gpu_plan_free(&p);
    rl_ruleset_free(&rs);
    make_rules(&rs, 40, RL_GPU_SHALLOW / 7, 1); /* at most RL_GPU_SHALLOW deep */
    assert_int_equal(rl_gpu_plan_make(&rs, &p, &err), 0);
    for (int c = 0; c < p.nchunks; c++)
        assert_true(p.chunks[c].depth >= 1 && p.chunks[c].depth <= RL_GPU_SHALLOW);
    check_plan(&rs, &p);
    rl_gpu_plan_free(&p);
    rl_ruleset_free(&rs);
}

static void an_expression_longer_than_a_chunk_is_refused(void **state)
{
    (void)state;
    static rl_token a[2 * RL_GPU_CHUNK_TOKENS];
    rl_token c = cond();
    rl_ruleset rs = {0};
    rl_gpu_plan p;
    dm_err err = {0};
    assert_int_equal(rl_ruleset_add(&rs, &c, 1, &c, 1, &err), 0);
    int n = expr(a, RL_GPU_CHUNK_TOKENS / 2 + 1, 0); /* RL_GPU_CHUNK_TOKENS + 1 tokens */
    assert_int_equal(n, RL_GPU_CHUNK_TOKENS + 1);
    assert_int_equal(rl_ruleset_add(&rs, &c, 1, a, n, &err), 0);
    assert_int_equal(rl_gpu_plan_make(&rs, &p, &err), DM_EINPUT);
    assert_string_equal(err.msg, "rule 2: its consequent has 1249 tokens, more than the 1248 "
                                 "the GPU's constant memory holds");
    rl_ruleset_free(&rs);
    /* exactly a chunk's worth is fine, alone in its chunk */
    memset(&rs, 0, sizeof rs);
    n = expr(a, RL_GPU_CHUNK_TOKENS / 2, 0) + 1;
    a[n - 1] = (rl_token){.op = RL_NOT};
    assert_int_equal(n, RL_GPU_CHUNK_TOKENS);
    assert_int_equal(rl_ruleset_add(&rs, &c, 1, &c, 1, &err), 0);
    assert_int_equal(rl_ruleset_add(&rs, a, n, &c, 1, &err), 0);
    assert_int_equal(rl_gpu_plan_make(&rs, &p, &err), 0);
    assert_int_equal(p.nchunks, 2);
    check_plan(&rs, &p);
    rl_gpu_plan_free(&p);
    rl_ruleset_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_small_set_is_one_chunk),
        cmocka_unit_test(many_small_rules_are_cut_by_the_rule_limit),
        cmocka_unit_test(long_rules_are_cut_by_the_token_limit),
        cmocka_unit_test(deep_expressions_are_flagged),
        cmocka_unit_test(an_expression_longer_than_a_chunk_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
