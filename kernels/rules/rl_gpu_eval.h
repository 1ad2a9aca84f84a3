/* rl_gpu_eval.h - a point's evaluation on the GPU (rl_gpu_eval.c), the paper's Fig. 2
 * pipeline over the chunks of its rule set (rl_gpu.h): the rules copied into constant
 * memory, coverage, reduction, fitness, results copied back. Serial: every stage on the
 * one stream, the copies waited for (the paper's serial timeline, Fig. 3 top).
 * Concurrent: antecedents and consequents in a stream each and fitness in the engine's,
 * asynchronous copies from pinned memory, the fitness kernel overlapping the reductions
 * (Fig. 3 bottom). The table is copied to the device once, at open. */
#ifndef DM_RL_GPU_EVAL_H
#define DM_RL_GPU_EVAL_H

#include "rules/rl_workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_gpu_eval rl_gpu_eval;

/* Makes *g: pt's rule set (rl_point_rules) on t, uploaded, its buffers, streams and
 * events; block threads a block (a multiple of 32); the engine's stream (a
 * cudaStream_t) ends every run, so its events time it; pt's per_thread and read say
 * how coverage runs (read auto made shared or global, rl_gpu_read_resolve). Returns 0;
 * DM_EINPUT for a rule set that does not check against t, an expression longer than a
 * chunk holds, or read=shared whose tile does not fit shared memory;
 * DM_ERUNTIME with err set (a CUDA failure, no memory). *g is then NULL. */
int rl_gpu_open(const rl_table *t, const dm_point *pt, int concurrent, int block, void *stream,
                rl_gpu_eval **g, dm_err *err);
/* Enqueues one evaluation (serial: waits for its copies). Returns 0, or DM_ERUNTIME. */
int rl_gpu_run(rl_gpu_eval *g, dm_err *err);
/* Waits for the last run and gives its answer, stages included (valid until the next
 * run). Returns 0, or DM_ERUNTIME. */
int rl_gpu_output(rl_gpu_eval *g, const rl_answer **out, dm_err *err);
void rl_gpu_free(rl_gpu_eval *g);

#ifdef __cplusplus
}
#endif

#endif
