/* ep_gpu.h - the episodes workload's kernels (ep_gpu.cu): PTPE (a thread per episode),
 * MTPE (threads per episode over segments of the stream, then the log-step merge) and
 * PreElim (the relaxed count, a thread per episode), launched on a caller's stream over
 * device copies of the stream and the episodes. */
#ifndef DM_EP_GPU_H
#define DM_EP_GPU_H

#include "episodes/ep_machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One launch. ev's arrays, eps, tuples, counts and flags are device memory. */
typedef struct ep_gpu_launch {
    ep_events ev;
    const ep_episode *eps;
    int64_t neps;
    ep_interval iv;
    int block;          /* threads per block of the counting kernel */
    int lists;          /* lists per machine: the longest episode's links */
    int cap;            /* runs per list (ep_lists_cap of the most any episode needs) */
    size_t smem_limit;  /* the device's shared memory per block (opt-in), bytes */
    int sms, threads_per_sm, smem_per_sm; /* the device's */
    int64_t segments;   /* MTPE: R */
    int machines;       /* MTPE: K */
    int64_t chunk;      /* MTPE: episodes counted a pass (the tuples hold a pass's) */
    ep_tuple *tuples;   /* MTPE: min(neps, chunk) * segments * machines of them */
    int64_t *counts;    /* out: neps counts */
    unsigned long long *overflow; /* out: incremented per list that overflowed */
    void *stream;       /* cudaStream_t */
} ep_gpu_launch;

/* Each enqueues the counts of a's episodes on a->stream. Return 0, or DM_ERUNTIME with
 * err set (a launch failed). */
int ep_gpu_ptpe(const ep_gpu_launch *a, dm_err *err);
int ep_gpu_mtpe(const ep_gpu_launch *a, dm_err *err);
int ep_gpu_preelim(const ep_gpu_launch *a, dm_err *err);

/* The blocks per multiprocessor the compiler's resources allow PTPE's kernel at block
 * threads whose machines keep `lists` lists of `cap` runs in shared memory (the B_MP of
 * Algorithm 2). Returns 0, or DM_ERUNTIME. */
int ep_gpu_ptpe_blocks_per_sm(int block, int lists, int cap, int *blocks, dm_err *err);

/* The most threads a block of every counting kernel may have, whole warps (their
 * registers can make it less than the device's 1024); 1024 when it cannot be read. */
int ep_gpu_max_block(void);

#ifdef __cplusplus
}
#endif

#endif
