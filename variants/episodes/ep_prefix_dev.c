/* ep_prefix_dev.c - counting by prefix on one GPU (ep_prefix_dev.h). */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "ep_prefix_dev.h"

/* *buf on the device holding at least n elements of size bytes each (regrown, its old
 * contents dropped, its capacity in *cap). Returns 0, or a DM_ status with err set. */
static int ep_prefix_dev_room(cudaStream_t stream, void **buf, int64_t *cap, int64_t n,
                              size_t size, dm_err *err)
{
    if (n <= *cap)
        return 0;
    dm_gpu_free(stream, *buf);
    *buf = NULL;
    *cap = 0;
    if (dm_gpu_alloc(stream, (size_t)n * size, buf, err))
        return err->code;
    *cap = n;
    return 0;
}

/* Launches tasks [first, first + n) of round r with the kernel for few or for many, on
 * stream. */
static int ep_prefix_dev_launch(ep_prefix_dev *d, int r, int64_t first, int64_t n, int few,
                                cudaStream_t stream, dm_err *err)
{
    return ep_prefix_gpu_round(d->d_tasks + first, n, d->d_first, d->d_pos, d->d_time,
                               r ? d->d_scratch[(r - 1) & 1] : d->d_arena[!d->cur],
                               d->d_fetched, d->d_scratch[r & 1], d->d_arena[d->cur], d->iv,
                               few, few ? d->block_few : d->block, d->d_counts, stream, err);
}

/* Round r of the plan on the GPU: with the kernel for few when it has at most switch_at
 * tasks; else with the kernel for many, but for its longest steps (plan.longest), which
 * run with the kernel for few on the side stream beside it, the round over when both are
 * (a long step's tiles take a third of the time there: a step's time is its tiles', one
 * after another). */
static int ep_prefix_dev_round(ep_prefix_dev *d, int r, dm_err *err)
{
    const ep_prefix_plan *p = &d->st.plan;
    const int64_t tasks = p->first[r + 1] - p->first[r];
    const int64_t longest = tasks <= d->switch_at ? 0 : p->longest[r];
    if (longest == 0)
        return ep_prefix_dev_launch(d, r, p->first[r], tasks, tasks <= d->switch_at,
                                    d->stream, err);
    if (DM_CUDA(err, cudaEventRecord(d->ready, d->stream)) ||
        DM_CUDA(err, cudaStreamWaitEvent(d->side, d->ready, 0)) ||
        ep_prefix_dev_launch(d, r, p->first[r], longest, 1, d->side, err) ||
        ep_prefix_dev_launch(d, r, p->first[r] + longest, tasks - longest, 0, d->stream,
                             err) ||
        DM_CUDA(err, cudaEventRecord(d->done, d->side)) ||
        DM_CUDA(err, cudaStreamWaitEvent(d->stream, d->done, 0)))
        return err->code;
    return 0;
}

/* The rounds of a batch's plan on the GPU (ep_prefix_rounds_fn), ctx an ep_prefix_dev:
 * its fetches copied in, its rounds launched, the counts of the episodes it planned steps
 * for copied back into counts; the arenas swapped after (when it planned any step). */
static int ep_prefix_dev_rounds(void *ctx, int64_t n, int64_t *counts, dm_err *err)
{
    ep_prefix_dev *d = ctx;
    const ep_prefix_plan *p = &d->st.plan;
    if (p->ntasks == 0)
        return 0;
    if (ep_prefix_dev_room(d->stream, (void **)&d->d_arena[d->cur], &d->cap_arena[d->cur],
                           p->arena, sizeof(int32_t), err) ||
        ep_prefix_dev_room(d->stream, (void **)&d->d_scratch[0], &d->cap_scratch[0],
                           p->scratch[0], sizeof(int32_t), err) ||
        ep_prefix_dev_room(d->stream, (void **)&d->d_scratch[1], &d->cap_scratch[1],
                           p->scratch[1], sizeof(int32_t), err) ||
        ep_prefix_dev_room(d->stream, (void **)&d->d_tasks, &d->cap_tasks, p->ntasks,
                           sizeof *p->tasks, err) ||
        ep_prefix_dev_room(d->stream, (void **)&d->d_fetched, &d->cap_fetched, p->fetched,
                           sizeof(int32_t), err) ||
        ep_prefix_dev_room(d->stream, (void **)&d->d_fetch, &d->cap_fetch, p->nfetch,
                           sizeof *p->fetch, err))
        return err->code;
    if (n > d->cap_counts) {
        int64_t *h = realloc(d->h_counts, (size_t)n * sizeof *h);
        if (!h)
            return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %lld counts",
                              (long long)n);
        d->h_counts = h;
        if (ep_prefix_dev_room(d->stream, (void **)&d->d_counts, &d->cap_counts, n,
                               sizeof *d->d_counts, err))
            return err->code;
    }
    if (DM_CUDA(err, cudaMemcpyAsync(d->d_tasks, p->tasks, (size_t)p->ntasks * sizeof *p->tasks,
                                     cudaMemcpyHostToDevice, d->stream)))
        return err->code;
    if (p->nfetch > 0 &&
        (DM_CUDA(err, cudaMemcpyAsync(d->d_fetch, p->fetch,
                                      (size_t)p->nfetch * sizeof *p->fetch,
                                      cudaMemcpyHostToDevice, d->stream)) ||
         ep_prefix_gpu_fetch(d->d_fetch, p->nfetch, d->d_fetched, d->stream, err)))
        return err->code;
    for (int r = 0; r < p->rounds; r++)
        if (ep_prefix_dev_round(d, r, err))
            return err->code;
    if (DM_CUDA(err, cudaMemcpyAsync(d->h_counts, d->d_counts, (size_t)n * sizeof *d->h_counts,
                                     cudaMemcpyDeviceToHost, d->stream)) ||
        DM_CUDA(err, cudaStreamSynchronize(d->stream)))
        return err->code;
    for (int64_t i = 0; i < n; i++)
        if (p->off[i] >= 0)
            counts[i] = d->h_counts[i];
    d->st.kept_starts = d->d_arena[d->cur];
    d->cur = !d->cur;
    return 0;
}

int ep_prefix_dev_open(ep_prefix_dev *d, void *stream, const ep_stream *s, ep_interval iv,
                       int64_t keep, int block, int block_few, int64_t switch_at,
                       dm_err *err)
{
    *d = (ep_prefix_dev){.stream = (cudaStream_t)stream, .iv = iv, .block = block,
                         .block_few = block_few, .switch_at = switch_at};
    int dev, sms, per_sm, many_per_sm;
    if (DM_CUDA(err, cudaGetDevice(&dev)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
        ep_prefix_gpu_resident(block_few, 1, &per_sm, err) ||
        ep_prefix_gpu_resident(block, 0, &many_per_sm, err))
        return err->code;
    d->wave = (int64_t)sms * per_sm;
    if (DM_CUDA(err, cudaStreamCreateWithFlags(&d->side, cudaStreamNonBlocking)) ||
        DM_CUDA(err, cudaEventCreateWithFlags(&d->ready, cudaEventDisableTiming)) ||
        DM_CUDA(err, cudaEventCreateWithFlags(&d->done, cudaEventDisableTiming)))
        return err->code;
    if (switch_at == 0)
        d->switch_at = 2 * d->wave;
    if (ep_prefix_open(&d->st, s, keep, err))
        return err->code;
    d->st.slots = (int64_t)sms * many_per_sm;
    d->st.rounds = ep_prefix_dev_rounds;
    d->st.rounds_ctx = d;
    const ep_by_type *b = &d->st.by;
    const size_t firsts = (size_t)s->ntypes + 1, slots = (size_t)b->slots;
    if (dm_gpu_alloc(d->stream, firsts * sizeof *b->first, (void **)&d->d_first, err) ||
        dm_gpu_alloc(d->stream, slots * sizeof *b->pos, (void **)&d->d_pos, err) ||
        dm_gpu_alloc(d->stream, slots * sizeof *b->time, (void **)&d->d_time, err))
        return err->code;
    if (DM_CUDA(err, cudaMemcpyAsync(d->d_first, b->first, firsts * sizeof *b->first,
                                     cudaMemcpyHostToDevice, d->stream)) ||
        DM_CUDA(err, cudaMemcpyAsync(d->d_pos, b->pos, slots * sizeof *b->pos,
                                     cudaMemcpyHostToDevice, d->stream)) ||
        DM_CUDA(err, cudaMemcpyAsync(d->d_time, b->time, slots * sizeof *b->time,
                                     cudaMemcpyHostToDevice, d->stream)) ||
        DM_CUDA(err, cudaStreamSynchronize(d->stream)))
        return err->code;
    return 0;
}

void ep_prefix_dev_close(ep_prefix_dev *d)
{
    dm_gpu_free(d->stream, d->d_first);
    dm_gpu_free(d->stream, d->d_pos);
    dm_gpu_free(d->stream, d->d_time);
    for (int k = 0; k < 2; k++) {
        dm_gpu_free(d->stream, d->d_arena[k]);
        dm_gpu_free(d->stream, d->d_scratch[k]);
    }
    dm_gpu_free(d->stream, d->d_fetched);
    dm_gpu_free(d->stream, d->d_tasks);
    dm_gpu_free(d->stream, d->d_fetch);
    dm_gpu_free(d->stream, d->d_counts);
    DM_CUDA_WARN(cudaStreamSynchronize(d->stream)); /* the host's state outlives no copy */
    if (d->side)
        DM_CUDA_WARN(cudaStreamDestroy(d->side));
    if (d->ready)
        DM_CUDA_WARN(cudaEventDestroy(d->ready));
    if (d->done)
        DM_CUDA_WARN(cudaEventDestroy(d->done));
    free(d->h_counts);
    ep_prefix_close(&d->st);
    memset(d, 0, sizeof *d);
}
