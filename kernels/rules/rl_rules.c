/* rl_rules.c - rule sets in reverse Polish notation: appending rules, the stack depth an
 * expression needs, and checking every token against a table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_rules.h"

int rl_ruleset_add(rl_ruleset *rs, const rl_token *ante, int na, const rl_token *cons, int nc,
                   dm_err *err)
{
    if (rs->nrules == rs->caprules) {
        int cap = rs->caprules ? rs->caprules * 2 : 16;
        rl_rule *r = realloc(rs->rules, (size_t)cap * sizeof *r);
        if (!r)
            return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
        rs->rules = r;
        rs->caprules = cap;
    }
    if (rs->ntok + na + nc > rs->captok) {
        int64_t cap = rs->captok ? rs->captok * 2 : 256;
        while (cap < rs->ntok + na + nc)
            cap *= 2;
        rl_token *t = realloc(rs->tok, (size_t)cap * sizeof *t);
        if (!t)
            return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
        rs->tok = t;
        rs->captok = cap;
    }
    rl_rule *r = &rs->rules[rs->nrules++];
    r->ante = rs->ntok;
    r->nante = na;
    memcpy(rs->tok + rs->ntok, ante, (size_t)na * sizeof *ante);
    rs->ntok += na;
    r->cons = rs->ntok;
    r->ncons = nc;
    memcpy(rs->tok + rs->ntok, cons, (size_t)nc * sizeof *cons);
    rs->ntok += nc;
    return 0;
}

void rl_ruleset_free(rl_ruleset *rs)
{
    free(rs->rules);
    free(rs->tok);
    memset(rs, 0, sizeof *rs);
}

int rl_expr_depth(const rl_token *tok, int n)
{
    int sp = 0, depth = 0;
    for (int k = 0; k < n; k++) {
        if (RL_IS_COND(tok[k].op))
            sp++;
        else if (tok[k].op == RL_NOT) {
            if (sp < 1)
                return -1;
        } else if (tok[k].op == RL_AND || tok[k].op == RL_OR) {
            if (sp < 2)
                return -1;
            sp--;
        } else {
            return -1;
        }
        depth = sp > depth ? sp : depth;
    }
    return sp == 1 ? depth : -1;
}

/* Checks condition token k against t. Returns 0, or DM_EINPUT naming rule r (from 0),
 * the part and the token. */
static int rl_check_cond(const rl_token *tok, const rl_table *t, int r, const char *part,
                         int k, dm_err *err)
{
    const char *why = NULL;
    if (tok->attr < 0 || tok->attr >= t->ncols) {
        why = "no such column";
    } else if (t->cols[tok->attr].kind == RL_CATEGORICAL) {
        if (tok->op != RL_EQ && tok->op != RL_NE)
            why = "a categorical column allows = and != only";
        else if (!(tok->lo >= 0 && tok->lo < t->cols[tok->attr].nlevels &&
                   tok->lo == floor(tok->lo)))
            why = "not a code of the column";
    } else if (!isfinite(tok->lo) || (tok->op == RL_IN && !isfinite(tok->hi))) {
        why = "not a finite number";
    } else if (tok->op == RL_IN && tok->lo > tok->hi) {
        why = "an empty range";
    }
    if (!why)
        return 0;
    return dm_err_set(err, DM_EINPUT, "rule %d: %s, token %d: %s", r + 1, part, k + 1, why);
}

int rl_ruleset_check(const rl_ruleset *rs, const rl_table *t, int *depth, dm_err *err)
{
    int deepest = 0;
    for (int r = 0; r < rs->nrules; r++)
        for (int part = 0; part < 2; part++) {
            const char *name = part ? "consequent" : "antecedent";
            const rl_token *tok = rs->tok + (part ? rs->rules[r].cons : rs->rules[r].ante);
            int n = part ? rs->rules[r].ncons : rs->rules[r].nante;
            int d = rl_expr_depth(tok, n);
            if (d < 0)
                return dm_err_set(err, DM_EINPUT, "rule %d: %s: not one RPN expression", r + 1,
                                  name);
            deepest = d > deepest ? d : deepest;
            for (int k = 0; k < n; k++)
                if (RL_IS_COND(tok[k].op) && rl_check_cond(&tok[k], t, r, name, k, err))
                    return DM_EINPUT;
        }
    if (depth)
        *depth = deepest;
    return 0;
}
