/* rl_eval.h - the CPU reference of the rules workload: a stack interpreter of each rule's
 * RPN antecedent and consequent over every instance (one thread: the paper's "CPU";
 * threads across rules and blocks of instances: its "4 CPUs"), the coverage, condition
 * supports and contingency table it counts, and the measures of the paper's Eqs. 1-5. */
#ifndef DM_RL_EVAL_H
#define DM_RL_EVAL_H

#include <stdint.h>
#include <stdio.h>

#include "dm.h"
#include "rules/rl_rules.h"
#include "rules/rl_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one rule A -> C gives on N instances. */
typedef struct rl_rule_result {
    int64_t n_a, n_c;           /* coverage: instances satisfying A, satisfying C */
    int64_t n_ac, n_anc;        /* contingency table: n(AC), n(A not C), */
    int64_t n_nac, n_nanc;      /* n(not A C), n(not A not C); the four sum to N */
    double support, confidence, lift, leverage, conviction; /* rl_measures.h */
} rl_rule_result;

typedef struct rl_result {
    int64_t n; /* instances */
    int nrules;
    rl_rule_result *rule;
    /* Per token of the rule set (same indexes as rs->tok): the instances on which the
     * subexpression ending at that token holds. For a condition token that is the
     * condition's support; an expression's last token gives n_a or n_c. */
    int64_t ntok;
    int64_t *tok_support;
    /* GP operations interpreted, counted as the paper counts them: "the number of
     * primitives interpreted by the system" (lines 947-951), its Table 4 GPops column
     * being 58 x instances x rules in every row, so symbols of a rule x instances. One
     * per RPN token per instance, antecedent and consequent, every token evaluated on
     * every instance (no short cut). The paper does not say how a condition splits into
     * symbols; here a condition `attr op value` is one token, as AND, OR, NOT are. */
    int64_t gpops;
} rl_result;

/* Evaluates every rule of rs on every row of t with threads threads (1: in the calling
 * thread, no pthreads; 0 or less: one per online core), the work split into (rule, block of
 * instances) items whose counts are summed in a fixed order, so any thread count gives
 * the same result. Returns 0; DM_EINPUT when rs does not check against t
 * (rl_ruleset_check) or t has no rows; DM_ERUNTIME without memory or threads. */
int rl_evaluate(const rl_table *t, const rl_ruleset *rs, int threads, rl_result *res,
                dm_err *err);
void rl_result_free(rl_result *res);
/* Makes res a zero result for rs's rules and tokens (n 0: no instances). Returns 0, or
 * DM_ERUNTIME without memory. */
int rl_result_init(rl_result *res, const rl_ruleset *rs, dm_err *err);
/* Makes sum, a result of rl_result_init, the result on the union of the instances parts[0
 * .. nparts) were evaluated on (each a result of the same rule set on a slice of the rows,
 * rl_table_slice): their instances, GP operations, contingency tables and token supports
 * added up, then the measures computed from the sums by rl_measures, as rl_evaluate
 * computes them, so equal counts give equal doubles. */
void rl_result_sum(rl_result *sum, const rl_result *const *parts, int nparts);

/* Writes res as CSV with a header line: rule (its text, quoted, quotes doubled), n_ac,
 * n_anc, n_nac, n_nanc, support, confidence, lift, leverage, conviction; measures in
 * their shortest exact form, conviction's +infinity as "inf", the undefined 0/0 ones as
 * "nan" (rl_measures.h). rs and t are those res was evaluated with (rl_write.c). Returns
 * 0, or DM_ERUNTIME when a write fails or without memory. */
int rl_result_write(const rl_result *res, const rl_ruleset *rs, const rl_table *t, FILE *f,
                    dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
