/* ep_gpu.cu - the episodes workload's kernels: PTPE and PreElim run one machine of
 * ep_machine.h per thread over the whole stream (papers section 5.1, Algorithm 3);
 * MTPE's counting kernel runs a thread per (episode, segment, machine), and its merge
 * kernel a block per episode joining adjacent groups in log2 R rounds (Figs. 4-7).
 * Each kernel is compiled for each way of reading (a template argument, so the stream
 * reader keeps its position in a register), reads its episode where it lies, and keeps
 * its lists in its column of the block's shared memory (ep_lists), sized to the
 * launch's longest episode and the runs its intervals need. */
#include <cuda_runtime.h>

#include "kernel_block.cuh"
#include "episodes/ep_gpu.h"

/* Thread threadIdx.x's lists in the block's dynamic shared memory. */
__device__ static ep_lists ep_thread_lists(int cap)
{
    extern __shared__ ep_run ep_smem[];
    return ep_lists{ ep_smem + threadIdx.x, cap, (int)blockDim.x };
}

template <ep_read R>
__global__ void ep_ptpe_kernel(ep_events ev, const ep_episode *__restrict__ eps, int64_t neps,
                               ep_interval iv, int cap, int64_t *__restrict__ counts,
                               unsigned long long *overflow)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= neps)
        return;
    ev.read = R;
    ep_tuple whole;
    if (ep_scan(&ev, &eps[i], iv, ep_thread_lists(cap), 0, 0, ev.n, &whole))
        atomicAdd(overflow, 1ull);
    counts[i] = whole.count;
}

template <ep_read R>
__global__ void ep_preelim_kernel(ep_events ev, const ep_episode *__restrict__ eps,
                                  int64_t neps, int64_t *__restrict__ counts)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= neps)
        return;
    ev.read = R;
    extern __shared__ double ep_smem_times[];
    counts[i] = ep_preelim_count(&ev, &eps[i], ep_smem_times + threadIdx.x, (int)blockDim.x);
}

/* Thread (machine m, episode i, segment j), m slowest: that machine's tuple (the papers'
 * T = R x N threads per episode). A warp holds one machine of the segments of one to a
 * few episodes, so its threads read the same nodes and start alike (a machine past the
 * first starts only where an occurrence may straddle its segment's start): 1.15x faster
 * on an H100 than m fastest, and than i fastest (docs/records/episodes-papers-variants.md,
 * fourth round). */
template <ep_read R>
__global__ void ep_mtpe_count_kernel(ep_events ev, const ep_episode *__restrict__ eps,
                                     int64_t neps, ep_interval iv, int cap, int64_t r, int k,
                                     ep_tuple *__restrict__ tuples,
                                     unsigned long long *overflow)
{
    const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= neps * r * k)
        return;
    ev.read = R;
    const int m = (int)(x / (neps * r));
    const int64_t i = x / r % neps, j = x % r;
    if (ep_segment_tuple(&ev, &eps[i], iv, ep_thread_lists(cap), ep_segment_start(ev.n, r, j),
                         ep_segment_start(ev.n, r, j + 1), m, &tuples[(i * r + j) * k + m]))
        atomicAdd(overflow, 1ull);
}

/* Block i: episode i's merge, as ep_count_mtpe's host loop, each round's joins spread
 * over the block's threads. */
template <ep_read R>
__global__ void ep_mtpe_merge_kernel(ep_events ev, const ep_episode *__restrict__ eps,
                                     ep_interval iv, int cap, int64_t r, int k,
                                     ep_tuple *__restrict__ tuples,
                                     int64_t *__restrict__ counts,
                                     unsigned long long *overflow)
{
    const int64_t i = blockIdx.x;
    ev.read = R;
    const ep_lists l = ep_thread_lists(cap);
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
            over |= ep_merge(&ev, &eps[i], iv, l, &t[g * k + m], &t[next * k], k,
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

/* The dynamic shared memory of a block of `block` threads whose lists hold `cap` runs
 * each, `lists` of them (the longest episode's links). */
static size_t ep_gpu_smem(int lists, int cap, int block)
{
    return (size_t)lists * (size_t)cap * (size_t)block * sizeof(ep_run);
}

/* Lets kernel take smem bytes of dynamic shared memory a block, and asks for a carveout
 * of the multiprocessor's L1 that holds the blocks of a grid of `blocks` a multiprocessor
 * can run at once and no more: the rest stays L1, which caches the episodes and the
 * stream (by default the driver carves out room for the most blocks a multiprocessor
 * could hold, leaving little L1). Returns 0, or DM_ERUNTIME with err set. */
template <typename K>
static int ep_gpu_allow(K kernel, const ep_gpu_launch *a, int block, size_t smem,
                        int64_t blocks, dm_err *err)
{
    int64_t per_sm = (blocks + a->sms - 1) / a->sms, fit = a->threads_per_sm / block;
    per_sm = per_sm < fit ? per_sm : fit;
    int percent = a->smem_per_sm ? (int)((per_sm * (int64_t)(smem + 1024) * 100 +
                                          a->smem_per_sm - 1) / a->smem_per_sm)
                                 : 100;
    percent = percent > 100 ? 100 : percent;
    return DM_CUDA(err, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)smem)) ||
                   DM_CUDA(err, cudaFuncSetAttribute(
                                    kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    percent))
               ? DM_ERUNTIME
               : 0;
}

template <ep_read R>
static int ep_gpu_ptpe_launch(const ep_gpu_launch *a, dm_err *err)
{
    const size_t smem = ep_gpu_smem(a->lists, a->cap, a->block);
    const unsigned grid = ep_gpu_grid(a->neps, a->block);
    if (ep_gpu_allow(ep_ptpe_kernel<R>, a, a->block, smem, grid, err))
        return DM_ERUNTIME;
    ep_ptpe_kernel<R><<<grid, a->block, smem,
                        (cudaStream_t)a->stream>>>(a->ev, a->eps, a->neps, a->iv, a->cap,
                                                   a->counts, a->overflow);
    return DM_CUDA(err, cudaGetLastError());
}

extern "C" int ep_gpu_ptpe(const ep_gpu_launch *a, dm_err *err)
{
    if (a->neps == 0)
        return 0;
    return a->ev.read == EP_READ_TYPES ? ep_gpu_ptpe_launch<EP_READ_TYPES>(a, err)
                                       : ep_gpu_ptpe_launch<EP_READ_STREAM>(a, err);
}

template <ep_read R>
static int ep_gpu_preelim_launch(const ep_gpu_launch *a, dm_err *err)
{
    const size_t smem = (size_t)a->lists * (size_t)a->block * sizeof(double);
    const unsigned grid = ep_gpu_grid(a->neps, a->block);
    if (ep_gpu_allow(ep_preelim_kernel<R>, a, a->block, smem, grid, err))
        return DM_ERUNTIME;
    ep_preelim_kernel<R><<<grid, a->block, smem, (cudaStream_t)a->stream>>>(a->ev, a->eps,
                                                                         a->neps, a->counts);
    return DM_CUDA(err, cudaGetLastError());
}

extern "C" int ep_gpu_preelim(const ep_gpu_launch *a, dm_err *err)
{
    if (a->neps == 0)
        return 0;
    return a->ev.read == EP_READ_TYPES ? ep_gpu_preelim_launch<EP_READ_TYPES>(a, err)
                                       : ep_gpu_preelim_launch<EP_READ_STREAM>(a, err);
}

/* Threads of the merge kernel's blocks: enough for the first round's joins, at most 256
 * and at most what the lists' shared memory allows (a warp at least). */
static int ep_gpu_merge_block(const ep_gpu_launch *a)
{
    int64_t joins = (a->segments + 1) / 2 * a->machines;
    int block = joins >= 256 ? 256 : joins <= 32 ? 32 : (int)((joins + 31) / 32 * 32);
    while (block > 32 && ep_gpu_smem(a->lists, a->cap, block) > a->smem_limit)
        block -= 32;
    return block;
}

template <ep_read R>
static int ep_gpu_mtpe_launch(const ep_gpu_launch *a, dm_err *err)
{
    cudaStream_t st = (cudaStream_t)a->stream;
    const size_t smem = ep_gpu_smem(a->lists, a->cap, a->block);
    const int mblock = ep_gpu_merge_block(a);
    const size_t msmem = ep_gpu_smem(a->lists, a->cap, mblock);
    const int64_t chunk = a->chunk < a->neps ? a->chunk : a->neps;
    const unsigned grid = ep_gpu_grid(chunk * a->segments * a->machines, a->block);
    if (ep_gpu_allow(ep_mtpe_count_kernel<R>, a, a->block, smem, grid, err) ||
        ep_gpu_allow(ep_mtpe_merge_kernel<R>, a, mblock, msmem, chunk, err))
        return DM_ERUNTIME;
    /* A pass per chunk of episodes, their tuples in the one buffer. */
    for (int64_t at = 0; at < a->neps; at += chunk) {
        const int64_t n = a->neps - at < chunk ? a->neps - at : chunk;
        ep_mtpe_count_kernel<R><<<ep_gpu_grid(n * a->segments * a->machines, a->block),
                                  a->block, smem, st>>>(a->ev, a->eps + at, n, a->iv, a->cap,
                                                        a->segments, a->machines, a->tuples,
                                                        a->overflow);
        if (DM_CUDA(err, cudaGetLastError()))
            return DM_ERUNTIME;
        ep_mtpe_merge_kernel<R><<<(unsigned)n, mblock, msmem, st>>>(
            a->ev, a->eps + at, a->iv, a->cap, a->segments, a->machines, a->tuples,
            a->counts + at, a->overflow);
        if (DM_CUDA(err, cudaGetLastError()))
            return DM_ERUNTIME;
    }
    return 0;
}

extern "C" int ep_gpu_mtpe(const ep_gpu_launch *a, dm_err *err)
{
    if (a->neps == 0)
        return 0;
    return a->ev.read == EP_READ_TYPES ? ep_gpu_mtpe_launch<EP_READ_TYPES>(a, err)
                                       : ep_gpu_mtpe_launch<EP_READ_STREAM>(a, err);
}

extern "C" int ep_gpu_ptpe_blocks_per_sm(int block, int lists, int cap, int *blocks,
                                         dm_err *err)
{
    const size_t smem = ep_gpu_smem(lists, cap, block);
    if (smem > 48 * 1024 &&
        DM_CUDA(err, cudaFuncSetAttribute(ep_ptpe_kernel<EP_READ_STREAM>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)smem)))
        return DM_ERUNTIME;
    return DM_CUDA(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                            blocks, ep_ptpe_kernel<EP_READ_STREAM>, block, smem));
}

extern "C" int ep_gpu_max_block(void)
{
    int most = 1024;
    most = dm_kernel_max_block(ep_ptpe_kernel<EP_READ_STREAM>, most);
    most = dm_kernel_max_block(ep_ptpe_kernel<EP_READ_TYPES>, most);
    most = dm_kernel_max_block(ep_preelim_kernel<EP_READ_STREAM>, most);
    most = dm_kernel_max_block(ep_preelim_kernel<EP_READ_TYPES>, most);
    most = dm_kernel_max_block(ep_mtpe_count_kernel<EP_READ_STREAM>, most);
    most = dm_kernel_max_block(ep_mtpe_count_kernel<EP_READ_TYPES>, most);
    return most / 32 * 32;
}
