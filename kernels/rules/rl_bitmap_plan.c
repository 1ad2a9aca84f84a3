/* rl_bitmap_plan.c - a rule set prepared for the bitmap kernels (rl_bitmap.h): each
 * condition token as an interval of its column, the distinct ones sorted by column, each
 * rule's tokens as codes and its conditions as indexes of those. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_bitmap.h"

void rl_bm_plan_free(rl_bm_plan *p)
{
    free(p->cond);
    free(p->col);
    free(p->first);
    free(p->rule);
    free(p->code);
    free(p->cl);
    free(p->orig);
    memset(p, 0, sizeof *p);
}

/* Condition token k as an interval, in *c; returns whether it is negated. */
static int rl_bm_interval(const rl_token *k, rl_bm_cond *c)
{
    *c = (rl_bm_cond){.attr = k->attr};
    const double v = k->lo, above = nextafter(k->lo, INFINITY);
    int neg = 0;
    switch (k->op) {
    case RL_NE: /* the complement of = */
    case RL_EQ: c->v[RL_BM_LOWER] = v, c->v[RL_BM_UPPER] = above, neg = k->op == RL_NE; break;
    case RL_LT: c->v[RL_BM_UPPER] = v; break;
    case RL_LE: c->v[RL_BM_UPPER] = above; break;
    case RL_GT: c->v[RL_BM_LOWER] = above; break;
    case RL_GE: c->v[RL_BM_LOWER] = v; break;
    case RL_IN: c->v[RL_BM_LOWER] = v, c->v[RL_BM_UPPER] = nextafter(k->hi, INFINITY); break;
    }
    c->has[RL_BM_LOWER] = k->op != RL_LT && k->op != RL_LE;
    c->has[RL_BM_UPPER] = k->op != RL_GT && k->op != RL_GE;
    c->near = c->has[RL_BM_LOWER] && c->has[RL_BM_UPPER] &&
              c->v[RL_BM_UPPER] == nextafter(c->v[RL_BM_LOWER], INFINITY);
    return neg;
}

int rl_bm_cond_holds(const rl_bm_cond *c, double x)
{
    return (!c->has[RL_BM_LOWER] || !(x < c->v[RL_BM_LOWER])) &&
           (!c->has[RL_BM_UPPER] || x < c->v[RL_BM_UPPER]);
}

/* Orders conditions by column; then those with an upper side only, by it, before those
 * with a lower side, by it, then by their upper side (none first): along either run a
 * side's count never falls, which lets the conditions kernel walk a word's sorted values
 * instead of searching them. */
static int rl_bm_cmp(const rl_bm_cond *a, const rl_bm_cond *b)
{
    if (a->attr != b->attr)
        return a->attr < b->attr ? -1 : 1;
    const int ga = a->has[RL_BM_LOWER], gb = b->has[RL_BM_LOWER];
    if (ga != gb)
        return ga - gb;
    const int key = ga ? RL_BM_LOWER : RL_BM_UPPER, other = !key;
    if (a->v[key] != b->v[key])
        return a->v[key] < b->v[key] ? -1 : 1;
    if (a->has[other] != b->has[other])
        return a->has[other] - b->has[other];
    if (a->has[other] && a->v[other] != b->v[other])
        return a->v[other] < b->v[other] ? -1 : 1;
    return 0;
}

/* A condition token's interval and where it came from, sorted to find the distinct ones. */
typedef struct rl_bm_item {
    rl_bm_cond c;
    int64_t at; /* its index in cl */
} rl_bm_item;

static int rl_bm_item_cmp(const void *a, const void *b)
{
    const rl_bm_item *x = a, *y = b;
    int d = rl_bm_cmp(&x->c, &y->c);
    return d ? d : (x->at > y->at) - (x->at < y->at);
}

/* Work space for reordering one expression: per token its operands (-1: none) and the
 * stack its subexpression needs; a stack of (token, operands emitted) for the walk. */
typedef struct rl_bm_tree {
    int32_t (*kid)[2];
    int32_t *need;
    int32_t (*todo)[2];
} rl_bm_tree;

/* Appends the tokens of expression tok[0..n) to p (at p->ntok), its operands reordered so
 * that of AND's and OR's two the one whose evaluation needs the deeper stack comes first
 * (Sethi and Ullman's order: the stack then grows with the logarithm of the expression's
 * conditions at most, where a chain nested to the right needs one level each): codes,
 * each token's index in tok (orig), and its conditions to items (at p->ncl). The value
 * of every subexpression, so every token's support, is the order's either way: AND and
 * OR commute. Returns the stack the new order needs. */
static int rl_bm_expr(rl_bm_plan *p, const rl_token *tok, int n, rl_bm_tree *w,
                      rl_bm_item *items)
{
    int sp = 0;
    for (int k = 0; k < n; k++) { /* the tree: a stack of subexpressions' last tokens */
        int32_t *kid = w->kid[k];
        kid[0] = kid[1] = -1;
        if (tok[k].op == RL_NOT)
            kid[0] = w->todo[--sp][0];
        else if (tok[k].op == RL_AND || tok[k].op == RL_OR) {
            kid[1] = w->todo[--sp][0];
            kid[0] = w->todo[--sp][0];
        }
        int a = kid[0] < 0 ? 1 : w->need[kid[0]], b = kid[1] < 0 ? 0 : w->need[kid[1]];
        w->need[k] = kid[1] >= 0 && a == b ? a + 1 : a > b ? a : b;
        w->todo[sp++][0] = k;
    }
    int top = 0;
    w->todo[top][0] = n - 1;
    w->todo[top++][1] = 0;
    while (top > 0) { /* post-order, the needier operand first */
        int k = w->todo[top - 1][0], *kid = w->kid[k];
        if (kid[0] >= 0 && !w->todo[top - 1][1]) {
            w->todo[top - 1][1] = 1;
            int first = kid[1] >= 0 && w->need[kid[1]] > w->need[kid[0]];
            if (kid[1] >= 0) {
                w->todo[top][0] = kid[!first];
                w->todo[top++][1] = 0;
            }
            w->todo[top][0] = kid[first];
            w->todo[top++][1] = 0;
            continue;
        }
        top--;
        uint8_t code;
        switch (tok[k].op) {
        case RL_NOT: code = RL_BM_NOT; break;
        case RL_AND: code = RL_BM_AND; break;
        case RL_OR: code = RL_BM_OR; break;
        default:
            items[p->ncl].at = p->ncl;
            code = RL_BM_COND | (rl_bm_interval(&tok[k], &items[p->ncl].c) ? RL_BM_NEG : 0);
            p->ncl++;
        }
        p->orig[p->ntok] = k;
        p->code[p->ntok++] = code;
    }
    return w->need[n - 1];
}

/* The distinct conditions of items[0..p->ncl) (sorted) into p->cond, p->cl the index of
 * each one's, and the columns they read. Returns 0, or DM_ERUNTIME. */
static int rl_bm_distinct(rl_bm_plan *p, rl_bm_item *items, dm_err *err)
{
    qsort(items, (size_t)p->ncl, sizeof *items, rl_bm_item_cmp);
    p->cond = malloc((size_t)(p->ncl ? p->ncl : 1) * sizeof *p->cond);
    p->col = malloc((size_t)(p->ncl ? p->ncl : 1) * sizeof *p->col);
    p->first = malloc((size_t)(p->ncl + 1) * sizeof *p->first);
    if (!p->cond || !p->col || !p->first)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory for the bitmap plan");
    for (int64_t i = 0; i < p->ncl; i++) {
        if (i == 0 || rl_bm_cmp(&items[i].c, &items[i - 1].c)) {
            if (i == 0 || items[i].c.attr != items[i - 1].c.attr) {
                p->col[p->ncols] = items[i].c.attr;
                p->first[p->ncols++] = p->nconds;
            }
            p->cond[p->nconds++] = items[i].c;
        }
        p->cl[items[i].at] = p->nconds - 1;
    }
    p->first[p->ncols] = p->nconds;
    return 0;
}

int rl_bm_plan_make(const rl_ruleset *rs, rl_bm_plan *p, dm_err *err)
{
    memset(p, 0, sizeof *p);
    int longest = 1;
    for (int r = 0; r < rs->nrules; r++) {
        const rl_rule *u = &rs->rules[r];
        longest = u->nante > longest ? u->nante : longest;
        longest = u->ncons > longest ? u->ncons : longest;
    }
    const size_t ntok = (size_t)(rs->ntok ? rs->ntok : 1);
    p->nrules = rs->nrules;
    p->rule = malloc((size_t)(rs->nrules ? rs->nrules : 1) * sizeof *p->rule);
    p->code = malloc(ntok);
    p->orig = malloc(ntok * sizeof *p->orig);
    p->cl = malloc(ntok * sizeof *p->cl);
    rl_bm_item *items = malloc(ntok * sizeof *items);
    rl_bm_tree w = {.kid = malloc((size_t)longest * sizeof *w.kid),
                    .need = malloc((size_t)longest * sizeof *w.need),
                    .todo = malloc((size_t)longest * sizeof *w.todo)};
    int rc = 0;
    if (!p->rule || !p->code || !p->orig || !p->cl || !items || !w.kid || !w.need || !w.todo)
        rc = dm_err_set(err, DM_ERUNTIME, "rules: out of memory for the bitmap plan");
    for (int r = 0; r < rs->nrules && !rc; r++) {
        const rl_rule *u = &rs->rules[r];
        p->rule[r] = (rl_bm_rule){.tok0 = p->ntok, .cl0 = p->ncl, .nante = u->nante,
                                  .ncons = u->ncons};
        int da = rl_bm_expr(p, rs->tok + u->ante, u->nante, &w, items),
            dc = rl_bm_expr(p, rs->tok + u->cons, u->ncons, &w, items);
        p->rule[r].ncl = (int32_t)(p->ncl - p->rule[r].cl0);
        p->depth = da > p->depth ? da : p->depth;
        p->depth = dc > p->depth ? dc : p->depth;
    }
    if (!rc)
        rc = rl_bm_distinct(p, items, err);
    free(items);
    free(w.kid);
    free(w.need);
    free(w.todo);
    if (rc)
        rl_bm_plan_free(p);
    return rc;
}
