/* rl_bitmap_plan.c - a rule set prepared for the bitmap kernels (rl_bitmap.h): each
 * condition token as an interval of its column, the distinct ones sorted by column, their
 * sides as segments of thresholds with each condition a range of ranks in one, each
 * rule's tokens as codes and its conditions as indexes of those. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_bitmap.h"

void rl_bm_plan_free(rl_bm_plan *p)
{
    free(p->cond);
    free(p->seg);
    free(p->thr);
    free(p->emit);
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
    return neg;
}

/* Orders conditions by column; then those with an upper side only, by it, before those
 * with a lower side, by it, then by their upper side (none first). */
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
 * each one's. Returns 0, or DM_ERUNTIME. */
static int rl_bm_distinct(rl_bm_plan *p, rl_bm_item *items, dm_err *err)
{
    qsort(items, (size_t)p->ncl, sizeof *items, rl_bm_item_cmp);
    p->cond = malloc((size_t)(p->ncl ? p->ncl : 1) * sizeof *p->cond);
    if (!p->cond)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory for the bitmap plan");
    for (int64_t i = 0; i < p->ncl; i++) {
        if (i == 0 || rl_bm_cmp(&items[i].c, &items[i - 1].c))
            p->cond[p->nconds++] = items[i].c;
        p->cl[items[i].at] = p->nconds - 1;
    }
    return 0;
}

/* A column's conditions placed in segments (rl_bm_segs): each one's sides as indexes of the
 * column's thresholds (-1: no such side), the conditions in the order they are placed,
 * the indexes of a segment's thresholds, and which segment last took each threshold. */
typedef struct rl_bm_cols {
    int32_t (*side)[2];
    int64_t *order; /* the lowest side's index, then the condition's, in 32 bits each */
    int32_t *idx, *mark;
    double *val;
} rl_bm_cols;

#define RL_BM_ORDER(o) ((int32_t)((o) & 0xffffffff))

static int rl_bm_dcmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int rl_bm_icmp(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int rl_bm_lcmp(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The index of v among the distinct ascending s[0..k) (by cmp), which holds it. */
static int rl_bm_find(const void *s, int k, size_t size, const void *v,
                      int (*cmp)(const void *, const void *))
{
    return (int)(((const char *)bsearch(v, s, (size_t)k, size, cmp) - (const char *)s) /
                 (ptrdiff_t)size);
}

/* The condition of local sides a and b (-1: none; a < b) as an emission code. */
static uint32_t rl_bm_code(int a, int b)
{
    /* A value is not below the side at local index k when its rank is k + 1 or more. */
    const uint32_t lo = (uint32_t)(a + 1), hi = (uint32_t)(b + 1);
    if (a < 0)
        return hi | (uint32_t)RL_BM_LT << (2 * RL_BM_BITS);
    if (b < 0)
        return lo | (uint32_t)RL_BM_GE << (2 * RL_BM_BITS);
    if (hi == lo + 1)
        return lo | (uint32_t)RL_BM_EQ << (2 * RL_BM_BITS);
    return hi | lo << RL_BM_BITS | (uint32_t)RL_BM_IN << (2 * RL_BM_BITS);
}

static int rl_bm_emit_cmp(const void *x, const void *y)
{
    const rl_bm_emit *a = x, *b = y;
    const int va = RL_BM_EMIT_V(a->code), vb = RL_BM_EMIT_V(b->code);
    return va != vb ? (va > vb) - (va < vb) : (a->cond > b->cond) - (a->cond < b->cond);
}

/* Closes the segment of the column's conditions order[o0..o1) (its thresholds marked seg
 * in w->mark, of thresholds val): its thresholds, sorted, and each condition's emission. */
static void rl_bm_seg_close(rl_bm_plan *p, rl_bm_cols *w, int c0, int o0, int o1, int seg)
{
    int m = 0;
    for (int o = o0; o < o1; o++)
        for (int s = 0; s < 2; s++) {
            const int32_t k = w->side[RL_BM_ORDER(w->order[o])][s];
            if (k >= 0 && w->mark[k] == seg) {
                w->mark[k] = -2 - seg; /* taken into the list */
                w->idx[m++] = k;
            }
        }
    qsort(w->idx, (size_t)m, sizeof *w->idx, rl_bm_icmp);
    rl_bm_seg *g = &p->seg[p->nsegs++];
    *g = (rl_bm_seg){.attr = p->cond[c0].attr, .thr0 = (int32_t)p->nthr, .nthr = m,
                     .emit0 = g == p->seg ? 0 : g[-1].emit0 + g[-1].nemit, .nemit = o1 - o0};
    for (int k = 0; k < m; k++)
        p->thr[p->nthr++] = w->val[w->idx[k]];
    rl_bm_emit *e = p->emit + g->emit0;
    for (int o = o0; o < o1; o++) {
        const int32_t *sd = w->side[RL_BM_ORDER(w->order[o])];
        int at[2];
        for (int s = 0; s < 2; s++)
            at[s] = sd[s] < 0 ? -1 : rl_bm_find(w->idx, m, sizeof *w->idx, &sd[s], rl_bm_icmp);
        e[o - o0] = (rl_bm_emit){.cond = c0 + RL_BM_ORDER(w->order[o]),
                                 .code = rl_bm_code(at[0], at[1])};
    }
    qsort(e, (size_t)g->nemit, sizeof *e, rl_bm_emit_cmp);
}

/* The segments of the conditions cond[c0..c1) of one column: its thresholds (the
 * conditions' sides, distinct), the conditions taken in the order of their lowest side,
 * a segment closed where the next condition's sides would take it past RL_BM_SEG
 * thresholds. */
static void rl_bm_column(rl_bm_plan *p, rl_bm_cols *w, int c0, int c1)
{
    const int nc = c1 - c0;
    int k = 0;
    for (int c = c0; c < c1; c++)
        for (int s = 0; s < 2; s++)
            if (p->cond[c].has[s])
                w->val[k++] = p->cond[c].v[s];
    qsort(w->val, (size_t)k, sizeof *w->val, rl_bm_dcmp);
    int nval = 0;
    for (int i = 0; i < k; i++)
        if (nval == 0 || w->val[nval - 1] < w->val[i])
            w->val[nval++] = w->val[i];
    for (int c = 0; c < nc; c++) {
        for (int s = 0; s < 2; s++)
            w->side[c][s] = p->cond[c0 + c].has[s] ? rl_bm_find(w->val, nval, sizeof *w->val,
                                                                 &p->cond[c0 + c].v[s],
                                                                 rl_bm_dcmp)
                                                    : -1;
        const int32_t first = w->side[c][0] >= 0 ? w->side[c][0] : w->side[c][1];
        w->order[c] = (int64_t)first << 32 | c;
    }
    for (int i = 0; i < nval; i++)
        w->mark[i] = -1;
    qsort(w->order, (size_t)nc, sizeof *w->order, rl_bm_lcmp);
    int seg = p->nsegs, o0 = 0, count = 0;
    for (int o = 0; o < nc; o++) {
        const int32_t *sd = w->side[RL_BM_ORDER(w->order[o])];
        int fresh = 0;
        for (int s = 0; s < 2; s++)
            fresh += sd[s] >= 0 && w->mark[sd[s]] != seg;
        if (count + fresh > RL_BM_SEG) {
            rl_bm_seg_close(p, w, c0, o0, o, seg);
            seg = p->nsegs, o0 = o, count = 0;
            fresh = (sd[0] >= 0) + (sd[1] >= 0);
        }
        for (int s = 0; s < 2; s++)
            if (sd[s] >= 0)
                w->mark[sd[s]] = seg;
        count += fresh;
    }
    rl_bm_seg_close(p, w, c0, o0, nc, seg);
}

/* The plan's segments, thresholds and emissions, column by column. Returns 0, or
 * DM_ERUNTIME. */
static int rl_bm_segs(rl_bm_plan *p, dm_err *err)
{
    const size_t nc = (size_t)(p->nconds ? p->nconds : 1);
    rl_bm_cols w = {.side = malloc(nc * sizeof *w.side),
                    .order = malloc(nc * sizeof *w.order),
                    .idx = malloc(2 * nc * sizeof *w.idx),
                    .mark = malloc(2 * nc * sizeof *w.mark),
                    .val = malloc(2 * nc * sizeof *w.val)};
    p->seg = malloc(nc * sizeof *p->seg);
    p->thr = malloc(2 * nc * sizeof *p->thr);
    p->emit = malloc(nc * sizeof *p->emit);
    int rc = 0;
    if (!w.side || !w.order || !w.idx || !w.mark || !w.val || !p->seg || !p->thr || !p->emit)
        rc = dm_err_set(err, DM_ERUNTIME, "rules: out of memory for the bitmap plan");
    for (int c0 = 0, c1; !rc && c0 < p->nconds; c0 = c1) {
        for (c1 = c0 + 1; c1 < p->nconds && p->cond[c1].attr == p->cond[c0].attr; c1++)
            ;
        rl_bm_column(p, &w, c0, c1);
    }
    free(w.side);
    free(w.order);
    free(w.idx);
    free(w.mark);
    free(w.val);
    return rc;
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
    if (!rc)
        rc = rl_bm_segs(p, err);
    free(items);
    free(w.kid);
    free(w.need);
    free(w.todo);
    if (rc)
        rl_bm_plan_free(p);
    return rc;
}
