/* rl_gpu.h - the rules workload's GPU kernels (rl_gpu.cu; Cano, Luna & Ventura 2013,
 * Sect. 5, Listings 1-3) and the plan that cuts a rule set into chunks whose expressions
 * fit constant memory (rl_gpu_plan.c). coverage: a thread per (expression, 1, 2, 4 or 32
 * instances) on a 2-D grid, the expressions' RPN in constant memory, each token's truth
 * on each instance written as a bit, a warp's 32 instances to a 32-bit word, rows padded to 128 bytes;
 * reduction: each token's support from its row, per-thread partial sums then one pass;
 * fitness: each rule's contingency table from its antecedent's and consequent's last rows
 * and the five measures (rl_measures.h), an rl_rule_result a rule in one array. */
#ifndef DM_RL_GPU_H
#define DM_RL_GPU_H

#include <stdint.h>

#include "rules/rl_eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The expressions' two sides: antecedents and consequents, each in its own constant
 * memory and bit arrays, so their kernels can run in separate streams (paper Fig. 3). */
enum { RL_SIDE_A = 0, RL_SIDE_C = 1, RL_SIDES = 2 };

/* Tokens of one side a chunk holds in constant memory (24 bytes each), and rules a chunk
 * holds (each side's expression starts, int32): 2 x (1248 x 24 + 256 x 4) = 61,952 of
 * the 65,536 bytes of constant memory. */
#define RL_GPU_CHUNK_TOKENS 1248
#define RL_GPU_CHUNK_RULES 255
/* The deepest stack a thread keeps in registers (its top and 32 levels below it);
 * deeper expressions use a stack of bytes in local memory, RL_GPU_DEEP deep (an
 * expression of n tokens needs at most (n + 1) / 2). */
#define RL_GPU_SHALLOW 33
#define RL_GPU_DEEP ((RL_GPU_CHUNK_TOKENS + 1) / 2)

/* Rules [r0, r0 + nrules) of a plan: each side's tokens are tok[side][tok0[side] ..
 * tok0[side] + ntok[side]), its expressions' starts (chunk-relative, nrules + 1 of them,
 * the last ntok[side]) start[side][r0 + index of the chunk ..]. */
typedef struct rl_gpu_chunk {
    int r0, nrules;
    int64_t tok0[RL_SIDES];
    int ntok[RL_SIDES];
    int depth; /* the deepest stack its expressions need (rl_expr_depth) */
} rl_gpu_chunk;

/* A rule set cut into chunks, its sides' tokens packed rule after rule (the antecedents
 * of every rule in order, and the consequents), as constant memory receives them. */
typedef struct rl_gpu_plan {
    int nchunks;
    rl_gpu_chunk *chunks;
    int64_t ntok[RL_SIDES];
    rl_token *tok[RL_SIDES];
    int32_t *start[RL_SIDES]; /* nrules + nchunks of them */
    int64_t *first[RL_SIDES]; /* per rule: its expression's first token in tok[side] */
} rl_gpu_plan;

/* Cuts rs into chunks of at most RL_GPU_CHUNK_RULES rules whose sides each hold at most
 * RL_GPU_CHUNK_TOKENS tokens, greedily in rule order. rs must check (rl_ruleset_check).
 * Returns 0; DM_EINPUT naming the rule when one expression alone has more tokens than a
 * chunk holds; DM_ERUNTIME without memory. */
int rl_gpu_plan_make(const rl_ruleset *rs, rl_gpu_plan *p, dm_err *err);
void rl_gpu_plan_free(rl_gpu_plan *p);
/* chunk c's expression starts of side (nrules + 1 of them). */
const int32_t *rl_gpu_plan_starts(const rl_gpu_plan *p, int c, int side);

/* What every launch shares: the table on the device, column-major, each column's values
 * as doubles (categorical codes converted exactly) at column x pitch; its rows' bits. */
typedef struct rl_gpu_launch {
    const double *table;
    int64_t n;     /* instances */
    int64_t pitch; /* doubles from one column to the next */
    int64_t words; /* 32-bit words of a token's bit row: ceil(n / 32) */
    int64_t row;   /* words from one token's row to the next (words padded to 32) */
    int block;     /* threads per block */
    int per_thread; /* coverage: instances a thread takes, 1, 2, 4 or 32 */
    void *stream;  /* cudaStream_t */
} rl_gpu_launch;

/* Puts t on the device at *d (allocated on stream): column-major, each column's values as
 * doubles at column x pitch (pitch >= t->n; codes of a categorical column converted,
 * exactly). Synchronises stream. Returns 0, or DM_ERUNTIME. */
int rl_gpu_put_table(const rl_table *t, int64_t pitch, void *stream, double **d, dm_err *err);
/* Enqueues the copy of a chunk's side into constant memory: ntok tokens and nexpr + 1
 * expression starts (host memory; pinned for the copy to be asynchronous). */
int rl_gpu_put_rules(int side, const rl_token *tok, int ntok, const int32_t *start, int nexpr,
                     void *stream, dm_err *err);
/* Lets the coverage kernels of a's launches take the shared memory their stacks need for
 * expressions at most depth deep (per_thread 32 keeps its stacks there): once per device,
 * before the first launch. Returns 0, or DM_ERUNTIME with err set; err's code is
 * DM_ENOMEM (the point is skipped) when a block of the current GPU cannot have that much,
 * as a block of 1,024 at the deepest stacks cannot on Turing, 8.6 and Ada cards. */
int rl_gpu_allow(const rl_gpu_launch *a, int depth, dm_err *err);
/* Enqueues the coverage of the nexpr expressions of side in constant memory (depth: the
 * deepest stack one needs; past RL_GPU_SHALLOW, in local memory at one instance a thread)
 * over every instance: bit i of word i / 32 of row k is token k's value on instance i
 * (token k of the chunk's side). */
int rl_gpu_coverage(const rl_gpu_launch *a, int side, int nexpr, int depth, uint32_t *bits,
                    dm_err *err);
/* Enqueues the reduction of ntok rows of bits: support[k], the instances token k holds on. */
int rl_gpu_reduction(const rl_gpu_launch *a, int ntok, const uint32_t *bits,
                     unsigned long long *support, dm_err *err);
/* Enqueues the fitness of the nrules rules whose sides are in constant memory and whose
 * rows are in bits_a and bits_c: fit[r], the rule's coverage, contingency table and
 * measures. */
int rl_gpu_fitness(const rl_gpu_launch *a, int nrules, const uint32_t *bits_a,
                   const uint32_t *bits_c, rl_rule_result *fit, dm_err *err);
/* The most threads a block of every kernel may have, whole warps (their registers can
 * make it less than the device's 1024); 1024 when it cannot be read. */
int rl_gpu_max_block(void);

#ifdef __cplusplus
}
#endif

#endif
