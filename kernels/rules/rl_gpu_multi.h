/* rl_gpu_multi.h - a point's evaluation split across GPUs (rl_gpu_multi.c; the paper's
 * "2 GPUs"): the instances cut into contiguous slices, one a GPU (rl_table_slice), each
 * slice on its GPU column-major from open, every GPU evaluating the whole rule set on its
 * slice with the one-GPU pipeline (rl_gpu_eval.h), the partial contingency tables and
 * token supports copied back, summed on the host, and the measures computed once from
 * the sums as the CPU reference computes them (rl_result_sum). */
#ifndef DM_RL_GPU_MULTI_H
#define DM_RL_GPU_MULTI_H

#include "rules/rl_gpu_eval.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_gpu_multi rl_gpu_multi;

/* Makes *m: pt's rule set (rl_point_rules) on t over the first gpus of ex's GPUs
 * (ex->gpus, distinct devices; ex->device alone when ex->ngpus is 0), the first on
 * ex->stream, each GPU worked by a thread of its own that makes it current, its
 * evaluation run as o says. A GPU whose slice is empty (t has fewer rows than gpus)
 * gets nothing to do (and no thread). Returns 0; DM_EINPUT for more GPUs than ex has, a
 * block o->block of 0 (unresolved: multigpu's open value), a rule set that does not check
 * against t or an expression longer than a chunk holds; DM_ERUNTIME
 * with err set (a CUDA failure, named by the GPU's index; no memory or thread). *m is
 * then NULL. */
int rl_gpu_multi_open(const rl_table *t, const dm_point *pt, const dm_exec *ex, int gpus,
                      const rl_gpu_opts *o, rl_gpu_multi **m, dm_err *err);
/* One evaluation on every GPU, returning when all are done, their counts summed. Returns
 * 0, or DM_ERUNTIME with err naming the first GPU that failed. */
int rl_gpu_multi_run(rl_gpu_multi *m, dm_err *err);
/* The last run's answer on the whole table, its stages (each the largest among the GPUs)
 * and split (rl_split), valid until the next run. Returns 0, or DM_ERUNTIME. */
int rl_gpu_multi_output(rl_gpu_multi *m, const rl_answer **out, dm_err *err);
void rl_gpu_multi_free(rl_gpu_multi *m);

#ifdef __cplusplus
}
#endif

#endif
