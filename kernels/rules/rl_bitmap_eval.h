/* rl_bitmap_eval.h - a rule set's bitmap evaluation on one GPU (rl_bitmap_eval.c; the
 * kernels and their plan in rl_bitmap.h). Its stages in the paper pipeline's terms: the
 * plan copied in (copy_in, with the sums zeroed), the conditions' bitmaps (coverage), the
 * rules over them with their popcounts (reduction), fitness, and the supports and fitness
 * copied back; chunks counts the chunks of instances. */
#ifndef DM_RL_BITMAP_EVAL_H
#define DM_RL_BITMAP_EVAL_H

#include "rules/rl_bitmap.h"
#include "rules/rl_workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_bm_eval rl_bm_eval;

/* Makes *g: rs (the caller's, kept until rl_bm_free) on the rows of t (at least one),
 * uploaded, on the current device, its rules kernel at block threads a block (whole
 * warps), chunk instances a chunk (0: all, or as many as a quarter of the device's
 * memory holds the bitmaps of); stream (the engine's) runs it. Returns 0; DM_EINPUT for a rule set that does not
 * check against t; DM_ERUNTIME with err set (a CUDA failure, no memory; err's code
 * DM_ENOMEM when the block's stacks do not fit its shared memory). *g is then NULL. */
int rl_bm_open(const rl_table *t, const rl_ruleset *rs, int block, int64_t chunk, void *stream,
               rl_bm_eval **g, dm_err *err);
/* Enqueues one evaluation. Returns 0, or DM_ERUNTIME. */
int rl_bm_run(rl_bm_eval *g, dm_err *err);
/* Waits for the last run and gives its answer without stages, valid until the next run.
 * Returns 0, or DM_ERUNTIME. */
int rl_bm_wait(rl_bm_eval *g, const rl_answer **out, dm_err *err);
/* rl_bm_wait's answer with its stages, from the run's events. */
int rl_bm_output(rl_bm_eval *g, const rl_answer **out, dm_err *err);
void rl_bm_free(rl_bm_eval *g);

#ifdef __cplusplus
}
#endif

#endif
