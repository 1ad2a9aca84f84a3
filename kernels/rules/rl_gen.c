/* rl_gen.c - random rule sets for the interpreter sweeps (the paper's Table 4 counts 58
 * RPN symbols per rule): each rule exactly the given number of symbols, conditions on a
 * table's columns with values from its rows, deterministic by seed. */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "rules/rl_rules.h"

/* A random condition on a random column of t. */
static rl_token rl_gen_cond(const rl_table *t, dm_rng *r)
{
    rl_token k = {0};
    k.attr = (int32_t)dm_rng_below(r, (uint32_t)t->ncols);
    const rl_column *c = &t->cols[k.attr];
    int64_t row = (int64_t)(dm_rng_unit(r) * (double)t->n);
    if (c->kind == RL_CATEGORICAL) {
        k.op = dm_rng_below(r, 2) ? RL_NE : RL_EQ;
        k.lo = c->code[row];
        return k;
    }
    k.op = RL_EQ + (int32_t)dm_rng_below(r, 7);
    k.lo = c->num[row];
    if (k.op == RL_IN) {
        double other = c->num[(int64_t)(dm_rng_unit(r) * (double)t->n)];
        k.hi = other > k.lo ? other : k.lo;
        k.lo = other > k.lo ? k.lo : other;
    }
    return k;
}

/* Writes a random expression of exactly size tokens to out (post-order: RPN). */
static void rl_gen_expr(const rl_table *t, dm_rng *r, int size, rl_token *out)
{
    if (size == 1) {
        out[0] = rl_gen_cond(t, r);
        return;
    }
    rl_token op = {0};
    if (size == 2 || dm_rng_below(r, 5) == 0) {
        rl_gen_expr(t, r, size - 1, out);
        op.op = RL_NOT;
    } else {
        int left = 1 + (int)dm_rng_below(r, (uint32_t)(size - 2));
        rl_gen_expr(t, r, left, out);
        rl_gen_expr(t, r, size - 1 - left, out + left);
        op.op = dm_rng_below(r, 2) ? RL_OR : RL_AND;
    }
    out[size - 1] = op;
}

int rl_rules_generate(const rl_table *t, int nrules, int symbols, uint64_t seed,
                      rl_ruleset *rs, dm_err *err)
{
    memset(rs, 0, sizeof *rs);
    if (nrules < 1 || symbols < 2 || t->n < 1 || t->ncols < 1)
        return dm_err_set(err, DM_EINPUT,
                          "rule generator: %d rules of %d symbols on %lld rows x %d columns: "
                          "at least 1 rule, 2 symbols, 1 row and 1 column",
                          nrules, symbols, (long long)t->n, t->ncols);
    rl_token *tok = malloc((size_t)symbols * sizeof *tok);
    if (!tok)
        return dm_err_set(err, DM_ERUNTIME, "rule generator: out of memory");
    dm_rng r = dm_rng_seed(seed);
    int rc = 0;
    for (int i = 0; i < nrules && !rc; i++) {
        int na = 1 + (int)dm_rng_below(&r, (uint32_t)(symbols - 1));
        rl_gen_expr(t, &r, na, tok);
        rl_gen_expr(t, &r, symbols - na, tok + na);
        rc = rl_ruleset_add(rs, tok, na, tok + na, symbols - na, err);
    }
    free(tok);
    if (rc)
        rl_ruleset_free(rs);
    return rc;
}
