/* ep_gpu.cu - the episodes workload's kernels: PTPE and PreElim run one machine of
 * ep_machine.h per thread over the whole stream (papers section 5.1, Algorithm 3);
 * MTPE's counting kernel runs a thread per (episode, segment, machine), and its merge
 * kernel a block per episode joining adjacent groups in log2 R rounds (Figs.
 * 4-7). Each machine reads only its episode's types' events (the stream by type,
 * merged back into stream order) and keeps its lists in local memory (L1). */
#include <cuda_runtime.h>

#include "episodes/ep_gpu.h"

__global__ void ep_ptpe_kernel(ep_events ev, const ep_episode *__restrict__ eps, int64_t neps,
                               ep_interval iv, int64_t *__restrict__ counts,
                               unsigned long long *overflow)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= neps)
        return;
    const ep_episode e = eps[i];
    ep_tuple whole;
    if (ep_scan(&ev, &e, iv, 0, 0, ev.n, &whole))
        atomicAdd(overflow, 1ull);
    counts[i] = whole.count;
}

__global__ void ep_preelim_kernel(ep_events ev, const ep_episode *__restrict__ eps,
                                  int64_t neps, int64_t *__restrict__ counts)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= neps)
        return;
    const ep_episode e = eps[i];
    counts[i] = ep_preelim_count(&ev, &e);
}

/* Thread (episode i, segment j, machine m): that machine's tuple (the papers' T = R x N
 * threads per episode). */
__global__ void ep_mtpe_count_kernel(ep_events ev, const ep_episode *__restrict__ eps,
                                     int64_t neps, ep_interval iv, int64_t r, int k,
                                     ep_tuple *__restrict__ tuples,
                                     unsigned long long *overflow)
{
    const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= neps * r * k)
        return;
    const int64_t i = x / (r * k), j = x / k % r;
    const ep_episode e = eps[i];
    if (ep_segment_tuple(&ev, &e, iv, ep_segment_start(ev.n, r, j),
                         ep_segment_start(ev.n, r, j + 1), (int)(x % k), &tuples[x]))
        atomicAdd(overflow, 1ull);
}

/* Block i: episode i's merge, as ep_count_mtpe's host loop, each round's joins spread
 * over the block's threads. */
__global__ void ep_mtpe_merge_kernel(ep_events ev, const ep_episode *__restrict__ eps,
                                     ep_interval iv, int64_t r, int k,
                                     ep_tuple *__restrict__ tuples,
                                     int64_t *__restrict__ counts,
                                     unsigned long long *overflow)
{
    const int64_t i = blockIdx.x;
    const ep_episode e = eps[i];
    ep_tuple *t = tuples + i * r * k;
    int over = 0;
    for (int64_t width = 1; width < r; width *= 2) {
        const int64_t joins = (r - width + 2 * width - 1) / (2 * width) * k;
        for (int64_t x = threadIdx.x; x < joins; x += blockDim.x) {
            const int64_t g = x / k * 2 * width, next = g + width;
            const int64_t end = next + width < r ? next + width : r;
            const int m = (int)(x % k);
            int missed;
            ep_tuple joined;
            over |= ep_merge(&ev, &e, iv, &t[g * k + m], &t[next * k], k,
                             ep_segment_start(ev.n, r, next), ep_segment_start(ev.n, r, end),
                             &joined, &missed);
            t[g * k + m] = joined;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        counts[i] = t[0].count;
    if (over)
        atomicAdd(overflow, 1ull);
}

static unsigned ep_gpu_grid(int64_t threads, int block)
{
    return (unsigned)((threads + block - 1) / block);
}

extern "C" int ep_gpu_ptpe(const ep_gpu_launch *a, dm_err *err)
{
    if (a->neps == 0)
        return 0;
    ep_ptpe_kernel<<<ep_gpu_grid(a->neps, a->block), a->block, 0, (cudaStream_t)a->stream>>>(
        a->ev, a->eps, a->neps, a->iv, a->counts, a->overflow);
    return DM_CUDA(err, cudaGetLastError());
}

extern "C" int ep_gpu_preelim(const ep_gpu_launch *a, dm_err *err)
{
    if (a->neps == 0)
        return 0;
    ep_preelim_kernel<<<ep_gpu_grid(a->neps, a->block), a->block, 0,
                        (cudaStream_t)a->stream>>>(a->ev, a->eps, a->neps, a->counts);
    return DM_CUDA(err, cudaGetLastError());
}

/* Threads of the merge kernel's blocks: enough for the first round's joins. */
static int ep_gpu_merge_block(const ep_gpu_launch *a)
{
    int64_t joins = (a->segments + 1) / 2 * a->machines;
    return joins >= 256 ? 256 : joins <= 32 ? 32 : (int)((joins + 31) / 32 * 32);
}

extern "C" int ep_gpu_mtpe(const ep_gpu_launch *a, dm_err *err)
{
    if (a->neps == 0)
        return 0;
    cudaStream_t st = (cudaStream_t)a->stream;
    ep_mtpe_count_kernel<<<ep_gpu_grid(a->neps * a->segments * a->machines, a->block), a->block,
                           0, st>>>(
        a->ev, a->eps, a->neps, a->iv, a->segments, a->machines, a->tuples, a->overflow);
    if (DM_CUDA(err, cudaGetLastError()))
        return DM_ERUNTIME;
    ep_mtpe_merge_kernel<<<(unsigned)a->neps, ep_gpu_merge_block(a), 0, st>>>(
        a->ev, a->eps, a->iv, a->segments, a->machines, a->tuples, a->counts, a->overflow);
    return DM_CUDA(err, cudaGetLastError());
}

extern "C" int ep_gpu_ptpe_blocks_per_sm(int block, int *blocks, dm_err *err)
{
    return DM_CUDA(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, ep_ptpe_kernel,
                                                                      block, 0));
}
