/* rl_bitmap.h - the rules workload's bitmap evaluation (variant `bitmap`): every distinct
 * condition (column, operator, value) of a rule set evaluated once over the instances into
 * a bitmap, a bit an instance, all conditions on one column in one pass over it; then each
 * rule's antecedent and consequent as word-wide logic on those bitmaps, each token's
 * support and the contingency counts as popcounts.
 *
 * A condition is an interval of its column, each side a value x must not be below
 * (lower) or must be below (upper), negated for !=. For each word of 32 instances the
 * conditions kernel sorts the column's 32 values (with their bits) once; a side is then a
 * count (how many of the sorted values are below its value) and the condition's word is
 * M[upper] & ~M[lower], M[k] the bits of the k smallest values: equal conditions (=, != on the same value) and conditions shared
 * between rules are one bitmap. The instances may be cut into chunks, each chunk's
 * bitmaps made and then used (rl_bitmap.cu, rl_bitmap_eval.c; docs/rules-gpu.md states
 * the bound). */
#ifndef DM_RL_BITMAP_H
#define DM_RL_BITMAP_H

#include <stdint.h>

#include "rules/rl_eval.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RL_BM_LOWER = 0, RL_BM_UPPER = 1 };

/* A distinct condition: the instances of column attr whose value x is not below v[LOWER]
 * (when it has that side) and is below v[UPPER] (when it has that one). Every operator is
 * such an interval: x <= v is x below the next double after v, x > v not below it (a
 * rule's values are finite, rl_ruleset_check). near: the upper side is the next double
 * after the lower (= and !=), so its count is the lower's and the values equal to it. */
typedef struct rl_bm_cond {
    double v[2];
    int32_t attr;
    uint8_t has[2];
    uint8_t near;
    uint8_t pad;
} rl_bm_cond;

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

/* A rule set prepared for the kernels: its distinct conditions sorted by column (those of
 * column col[k] are cond[first[k] .. first[k + 1])), the columns any condition reads
 * (ncols of them), each rule's tokens as codes and its conditions as indexes into cond.
 * Each expression's tokens are reordered so that it needs a shallow stack (AND's and OR's
 * operands swapped where that helps, rl_bitmap_plan.c): orig gives each one's index in
 * its expression as the rule set has it. */
typedef struct rl_bm_plan {
    int nconds, ncols, nrules;
    rl_bm_cond *cond;
    int32_t *col, *first;
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
/* 1 when value x of condition c's column satisfies it, by its sides (what the kernel's
 * counts decide): the plan's meaning, for tests against the interpreter's. */
int rl_bm_cond_holds(const rl_bm_cond *c, double x);

/* ---- kernels (rl_bitmap.cu) -------------------------------------------------------- */

/* Enqueues on stream the bitmaps of every condition of p (on the device: cond, col,
 * first) over the words [w0, w0 + width) of the table (column-major doubles at column x
 * pitch, n instances): bm[c * width + w - w0] for condition c and word w, an instance's
 * bit set when it satisfies c; bits of instances past n are 0. width is a multiple of
 * 256. Returns 0, or DM_ERUNTIME. */
int rl_bm_conditions(const double *table, int64_t pitch, int64_t n, int64_t w0, int64_t width,
                     int ncols, const int32_t *col, const int32_t *first,
                     const rl_bm_cond *cond, uint32_t *bm, void *stream, dm_err *err);

/* What the rules kernel reads (device pointers) and adds to: off[k] is where the bitmap
 * of the plan's cl[k] starts among a chunk's, cl[k] x the chunk's width (the plan's
 * conditions x width words stay below 2^32). */
typedef struct rl_bm_rules_args {
    const rl_bm_rule *rule;
    const uint8_t *code;
    const uint32_t *off;
    int nrules, depth;
    unsigned long long *sup; /* per token of the rule set, its support, added to */
    unsigned long long *nac; /* per rule, n(AC), added to */
} rl_bm_rules_args;

/* The dynamic shared memory a warp of the rules kernel needs for a's rules. */
int rl_bm_warp_smem(const rl_bm_rules_args *a);
/* The shared memory a block may have on the current device (at most the opt-in limit),
 * in *bytes. Returns 0, or DM_ERUNTIME. */
int rl_bm_smem_limit(int *bytes, dm_err *err);
/* Lets the rules kernel take bytes of dynamic shared memory a block (once per device).
 * Returns 0, or DM_ERUNTIME. */
int rl_bm_allow(int bytes, dm_err *err);
/* Enqueues the rules over bitmaps bm of words [w0, w0 + width) (n instances in all) with
 * warps warps a block, each warp a rule over quads runs of 256 words: each token's
 * support and each rule's n(AC) on those words added to a's sums. Returns 0, or
 * DM_ERUNTIME. */
int rl_bm_rules(const rl_bm_rules_args *a, const uint32_t *bm, int64_t n, int64_t w0,
                int64_t width, int warps, int quads, void *stream, dm_err *err);
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
