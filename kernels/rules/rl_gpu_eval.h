/* rl_gpu_eval.h - a rule set's evaluation on one GPU (rl_gpu_eval.c), the paper's Fig. 2
 * pipeline over the chunks of the rule set (rl_gpu.h): the rules copied into constant
 * memory, coverage, reduction, fitness, results copied back. Serial: every stage on the
 * one stream, the copies waited for (the paper's serial timeline, Fig. 3 top).
 * Concurrent: antecedents and consequents in a stream each and fitness in the given
 * one, asynchronous copies from pinned memory, the fitness kernel overlapping the
 * reductions (Fig. 3 bottom). The table, a whole one (serial and concurrent) or one GPU's
 * slice of it (multigpu, rl_gpu_multi.h), is copied to the device once, at open. With
 * the bitmap option every call goes to the bitmap evaluation instead. */
#ifndef DM_RL_GPU_EVAL_H
#define DM_RL_GPU_EVAL_H

#include "rules/rl_workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_gpu_eval rl_gpu_eval;

/* How a GPU evaluation runs: the paper's pipeline serially or concurrently (Fig. 3),
 * threads a block (a multiple of 32) and instances a coverage thread takes (1, 2, 4 or
 * 32); or the bitmap evaluation (rl_bitmap_eval.h), its rules kernel's threads a block
 * and chunk instances a chunk (0: all that fit). */
typedef struct rl_gpu_opts {
    int concurrent, bitmap, block, per_thread;
    int64_t chunk;
} rl_gpu_opts;

/* The options of pipeline ("serial", "concurrent" or "bitmap") from pt's block and, as
 * the pipeline has them, per_thread or chunk. */
void rl_gpu_opts_of(const dm_point *pt, const char *pipeline, rl_gpu_opts *o);

/* Makes *g: the rule set rs (the caller's, kept until rl_gpu_free) on the rows of t (at
 * least one), uploaded, its buffers, streams and events, on the current device, run as o
 * says; stream (a cudaStream_t of that device) ends every run, so its events time it.
 * Returns 0; DM_EINPUT for a rule set that does not check against t or an expression
 * longer than a chunk holds; DM_ERUNTIME with err set (a CUDA failure, no memory). *g is
 * then NULL. */
int rl_gpu_open(const rl_table *t, const rl_ruleset *rs, const rl_gpu_opts *o, void *stream,
                rl_gpu_eval **g, dm_err *err);
/* Enqueues one evaluation (serial: waits for its copies). Returns 0, or DM_ERUNTIME. */
int rl_gpu_run(rl_gpu_eval *g, dm_err *err);
/* Waits for the last run and gives its answer on t's rows without stages (NULL), valid
 * until the next run. Returns 0, or DM_ERUNTIME. */
int rl_gpu_wait(rl_gpu_eval *g, const rl_answer **out, dm_err *err);
/* rl_gpu_wait's answer with its stages, from the run's events. Returns 0, or
 * DM_ERUNTIME. */
int rl_gpu_output(rl_gpu_eval *g, const rl_answer **out, dm_err *err);
void rl_gpu_free(rl_gpu_eval *g);

#ifdef __cplusplus
}
#endif

#endif
