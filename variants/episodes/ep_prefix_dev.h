/* ep_prefix_dev.h - counting by prefix (kernels/episodes/ep_prefix.h) on one GPU: the
 * stream by type put on the device once, each batch's plan made on the host, the starts
 * it fetches from other GPUs copied in (ep_prefix_gpu_fetch), its rounds launched
 * (ep_prefix_gpu_round), the counts copied back; the starts of the episodes a batch keeps
 * stay on the device for the next (st.kept_starts). */
#ifndef DM_EP_PREFIX_DEV_H
#define DM_EP_PREFIX_DEV_H

#include <cuda_runtime_api.h>

#include "episodes/ep_prefix.h"

typedef struct ep_prefix_dev {
    cudaStream_t stream;
    cudaStream_t side;    /* a round's longest steps (ep_prefix_plan.longest) */
    cudaEvent_t ready, done; /* on stream before them, on side after them */
    ep_prefix_state st;
    ep_interval iv;
    int block, block_few; /* threads a block for rounds of many tasks, of few */
    int64_t switch_at;    /* rounds of at most this many tasks are few */
    int64_t wave;         /* tasks the device runs at once with the kernel for few */
    int64_t *d_first, *d_pos;
    double *d_time;
    int32_t *d_arena[2], *d_scratch[2], *d_fetched;
    int64_t cap_arena[2], cap_scratch[2], cap_fetched;
    int cur; /* the arena the next batch writes; the other holds the kept starts */
    ep_prefix_task *d_tasks;
    ep_prefix_fetch *d_fetch;
    int64_t *d_counts, *h_counts;
    int64_t cap_tasks, cap_fetch, cap_counts;
} ep_prefix_dev;

/* Readies d for s on the calling thread's current device, launching on stream, keeping
 * the episodes counted at least keep times (ep_prefix_open). A round of at most switch_at
 * tasks runs the kernel for few tasks at block_few threads a block, a larger one the
 * kernel for many at block, but for its longest steps (ep_prefix_plan.longest), which
 * run with the kernel for few on a side stream beside it; switch_at 0: twice as many as the device holds at once of
 * the kernel for few (its multiprocessors times the blocks of block_few threads each
 * holds; 1,056 on an H100 or H200): on an H200 that was as fast as one wave or faster on
 * every mining of episodes-mining.yaml and episodes-mining-large.yaml but one (2 %
 * slower, within its noise), and a level of 1,024 long steps took a third of the time
 * (docs/records/episodes-prefix.md, scale-out.md).
 * Synchronises. Returns 0, DM_EINPUT as ep_prefix_open, or DM_ERUNTIME with err set;
 * close d either way. Batches are counted through ep_prefix_cb and ep_prefix_ext_cb on
 * &d->st. */
int ep_prefix_dev_open(ep_prefix_dev *d, void *stream, const ep_stream *s, ep_interval iv,
                       int64_t keep, int block, int block_few, int64_t switch_at,
                       dm_err *err);
void ep_prefix_dev_close(ep_prefix_dev *d);

#endif
