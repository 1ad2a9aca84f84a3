/* rl_bitmap.h - the rules workload's bitmap evaluation (variant `bitmap`): every distinct
 * condition (column, operator, value) of a rule set evaluated once over the instances into
 * a bitmap, a bit an instance, the conditions on one column in one pass over it; then each
 * rule's antecedent and consequent as word-wide logic on those bitmaps, each token's
 * support and the contingency counts as popcounts.
 *
 * A condition is an interval of its column, each side a value x must not be below
 * (lower) or must be below (upper), negated for !=. The sides of a column's conditions
 * are its thresholds, sorted (in segments of at most RL_BM_SEG, each condition's sides in
 * one); a value's rank in a segment is how many of its thresholds the value is not below,
 * and a condition is then a range of ranks. A first kernel ranks each word's 32 values
 * and keeps the ranks' bits as RL_BM_BITS words (plane b: the instances whose rank has
 * bit b); a second walks the ranks upwards, a few words a lane: the word of rank v is
 * the AND of the planes or their complements down a binary trie (a step redoes only the
 * levels below the bit that changed), the word of ranks below v their OR so far, and
 * each condition's word is stored at its rank. Equal conditions (=, != on the same value)
 * and conditions shared between rules are one bitmap. The instances may be cut into
 * chunks, each chunk's bitmaps made and then used (rl_bitmap.cu, rl_bitmap_eval.c;
 * docs/rules-gpu.md states the bound). */
#ifndef DM_RL_BITMAP_H
#define DM_RL_BITMAP_H

#include <stdint.h>

#include "rules/rl_eval.h"
#include "rules/rl_measures.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RL_BM_LOWER = 0, RL_BM_UPPER = 1 };

/* A distinct condition: the instances of column attr whose value x is not below v[LOWER]
 * (when it has that side) and is below v[UPPER] (when it has that one). Every operator is
 * such an interval: x <= v is x below the next double after v, x > v not below it (a
 * rule's values are finite, rl_ruleset_check). */
typedef struct rl_bm_cond {
    double v[2];
    int32_t attr;
    uint8_t has[2];
} rl_bm_cond;

/* A segment of a column's thresholds: thr[thr0 .. thr0 + nthr), ascending and distinct
 * (nthr <= RL_BM_SEG), and the conditions decided by ranks among them, emit[emit0 ..
 * emit0 + nemit), by rank. */
#define RL_BM_BITS 10
#define RL_BM_SEG ((1 << RL_BM_BITS) - 1)
typedef struct rl_bm_seg {
    int32_t attr, thr0, nthr, emit0, nemit;
} rl_bm_seg;

/* Where a condition's bitmap comes from, ranks r in its segment: LT r < v, GE r >= v, EQ
 * r == v, IN w <= r < v (v and w at most RL_BM_SEG). */
enum { RL_BM_LT = 0, RL_BM_GE = 1, RL_BM_EQ = 2, RL_BM_IN = 3 };
typedef struct rl_bm_emit {
    int32_t cond;  /* its distinct condition, its bitmap's row */
    uint32_t code; /* v | w << RL_BM_BITS | kind << 2 RL_BM_BITS */
} rl_bm_emit;
#define RL_BM_EMIT_V(code) ((int)((code) & RL_BM_SEG))
#define RL_BM_EMIT_W(code) ((int)((code) >> RL_BM_BITS & RL_BM_SEG))
#define RL_BM_EMIT_KIND(code) ((int)((code) >> (2 * RL_BM_BITS)))

/* The thresholds of a segment as the kernel searches them: a complete binary search tree
 * of RL_BM_SEG nodes stored level by level (node i's children 2i + 1 and 2i + 2, so that
 * the nodes a warp reads at one level lie together in shared memory), +inf past the
 * segment's thresholds. Node i holds the sorted threshold of this index. */
static inline RL_HOST_DEVICE int rl_bm_tree_at(int i)
{
    int level = 0;
    while ((2 << level) - 1 <= i)
        level++;
    const int p = i + 1 - (1 << level); /* its place in its level */
    return (2 * p + 1) * (1 << (RL_BM_BITS - 1 - level)) - 1;
}

/* One level down the tree t from node i: its left child 2i + 1, or its right child when
 * x is not below node i's threshold; the rank's bits, from the top, are those choices.
 * The rank of x among a segment's thresholds, t their tree (rl_bm_tree_at): how many of
 * them x is not below, down RL_BM_BITS levels. The padding counts only for x = +inf,
 * whose rank then passes the segment's thresholds' count, where every emission decides
 * as at that count. The host's and the kernel's. */
static inline RL_HOST_DEVICE int rl_bm_descend(const double *t, int i, double x)
{
    return 2 * i + 1 + !(x < t[i]);
}

static inline RL_HOST_DEVICE int rl_bm_rank(const double *t, double x)
{
    int i = 0;
    for (int level = 0; level < RL_BM_BITS; level++)
        i = rl_bm_descend(t, i, x);
    return i - RL_BM_SEG;
}

/* Whether rank r is in the emission's range (code as rl_bm_emit's). */
static inline RL_HOST_DEVICE int rl_bm_emit_holds(uint32_t code, int r)
{
    const int v = RL_BM_EMIT_V(code);
    switch (RL_BM_EMIT_KIND(code)) {
    case RL_BM_LT: return r < v;
    case RL_BM_GE: return r >= v;
    case RL_BM_EQ: return r == v;
    default: return r >= RL_BM_EMIT_W(code) && r < v;
    }
}

/* A token's code for the rules kernel: its operation, and for a condition whether its
 * bitmap is negated (!=); the condition's bitmap is the rule's next in rl_bm_plan.cl. */
enum { RL_BM_COND = 0, RL_BM_NOT = 1, RL_BM_AND = 2, RL_BM_OR = 3 };
#define RL_BM_NEG 4u

/* Rule r's tokens code[tok0 .. tok0 + nante + ncons), its antecedent first, and its
 * conditions' bitmaps cl[cl0 .. cl0 + ncl) in token order. */
typedef struct rl_bm_rule {
    int64_t tok0, cl0;
    int32_t nante, ncons, ncl;
} rl_bm_rule;

/* A rule set prepared for the kernels: its distinct conditions sorted by column (cond,
 * nconds), the segments of their columns' thresholds (seg, nsegs; thr, nthr) with each
 * condition's emission in one of them (emit, nconds of them, by segment), each rule's
 * tokens as codes and its conditions as indexes into cond. Each expression's tokens are
 * reordered so that it needs a shallow stack (AND's and OR's operands swapped where that
 * helps, rl_bitmap_plan.c): orig gives each one's index in its expression as the rule
 * set has it. */
typedef struct rl_bm_plan {
    int nconds, nsegs, nrules;
    rl_bm_cond *cond;
    rl_bm_seg *seg;
    double *thr;
    int64_t nthr;
    rl_bm_emit *emit;
    rl_bm_rule *rule;
    int64_t ntok, ncl;
    uint8_t *code;
    int32_t *orig;
    int32_t *cl;
    int depth; /* the deepest stack an expression needs in its new order */
} rl_bm_plan;

/* Prepares rs (well-formed: rl_ruleset_check) for the kernels. Returns 0, or DM_ERUNTIME
 * without memory. */
int rl_bm_plan_make(const rl_ruleset *rs, rl_bm_plan *p, dm_err *err);
void rl_bm_plan_free(rl_bm_plan *p);

/* ---- kernels (rl_bitmap.cu) -------------------------------------------------------- */

/* An emission as the conditions kernel reads it (8-byte aligned: one 64-bit load): the
 * row its condition's bitmap starts at among a chunk's (the condition x the chunk's
 * width, a multiple of 256), and its code. */
typedef struct rl_bm_put {
    uint32_t row, code;
} rl_bm_put;

/* Enqueues on stream the bitmaps of every condition of a plan (its nsegs segments, seg,
 * thr and its emissions as put, on the device) over the words [w0, w0 + width) of the
 * table (column-major doubles at column x pitch, n instances): bm[c * width + w - w0]
 * for condition c and word w, an instance's bit set when it satisfies c; bits of
 * instances past n are 0. width is a multiple of 256; planes holds nsegs x RL_BM_BITS x
 * width words (the ranks' bits, made by a first kernel, walked by the second). Returns
 * 0, or DM_ERUNTIME. */
int rl_bm_conditions(const double *table, int64_t pitch, int64_t n, int64_t w0, int64_t width,
                     int nsegs, const rl_bm_seg *seg, const double *thr,
                     const rl_bm_put *put, uint32_t *planes, uint32_t *bm, void *stream,
                     dm_err *err);

/* What the rules kernel reads (device pointers) and adds to: off[k] is where the bitmap
 * of the plan's cl[k] starts among a chunk's, cl[k] x the chunk's width (the plan's
 * conditions x width words stay below 2^32). */
typedef struct rl_bm_rules_args {
    const rl_bm_rule *rule;
    const uint8_t *code;
    const uint32_t *off;
    int nrules, depth;
    int ahead; /* conditions whose words a warp asks for before it uses them: 1 or 2 */
    unsigned long long *sup; /* per token of the rule set, its support, added to */
    unsigned long long *nac; /* per rule, n(AC), added to */
} rl_bm_rules_args;

/* The dynamic shared memory a warp of the rules kernel needs for a's rules (its stack)
 * and a->ahead conditions' words. */
int rl_bm_warp_smem(const rl_bm_rules_args *a);
/* The shared memory a block may have on the current device (at most the opt-in limit),
 * in *bytes. Returns 0, or DM_ERUNTIME. */
int rl_bm_smem_limit(int *bytes, dm_err *err);
/* Lets the rules kernel for a take the shared memory of a block of warps warps (once
 * per device). Returns 0, or DM_ERUNTIME. */
int rl_bm_allow(const rl_bm_rules_args *a, int warps, dm_err *err);
/* Enqueues the rules over bitmaps bm of words [w0, w0 + width) (n instances in all) with
 * warps warps a block, each warp a rule over a run of 256 words: each token's support and
 * each rule's n(AC) on those words added to a's sums. Returns 0, or DM_ERUNTIME. */
int rl_bm_rules(const rl_bm_rules_args *a, const uint32_t *bm, int64_t n, int64_t w0,
                int64_t width, int warps, void *stream, dm_err *err);
/* The most threads a block of the rules kernel may have, whole warps. */
int rl_bm_max_block(void);
/* Enqueues fit[r] (coverage, contingency table, measures) of every rule from the sums
 * over n instances. Returns 0, or DM_ERUNTIME. */
int rl_bm_fitness(const rl_bm_rules_args *a, int64_t n, rl_rule_result *fit, void *stream,
                  dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
