/* cl_gpu.cuh - what the colocation kernels share on the device: the neighbour test (the
 * definition's expression of coloc.h, each operation rounded on its own), marking an
 * instance in a participation bitmap, and the grid of a launch. */
#ifndef DM_CL_GPU_CUH
#define DM_CL_GPU_CUH

#include <cuda_runtime.h>

#include "coloc/cl_gpu.h"

/* Whether instances a and b of s are neighbours: cl_near() for points (no fused
 * multiply-add: __dmul_rn and __dadd_rn are never contracted), cells at most one apart
 * for coarse instances (cl_inst_near). */
__device__ static inline bool clg_near(const clg_set &s, uint32_t a, uint32_t b)
{
    if (s.coarse) {
        int32_t dc = s.col[a] - s.col[b], dr = s.row[a] - s.row[b];
        return dc >= -1 && dc <= 1 && dr >= -1 && dr <= 1;
    }
    double dx = __dsub_rn(s.x[a], s.x[b]), dy = __dsub_rn(s.y[a], s.y[b]);
    return __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)) <= s.d2;
}

/* Instance i's feature among nfeat: the last whose instances start at or before i. */
__device__ static inline int clg_feature_of(const clg_set &s, int nfeat, uint64_t i)
{
    int fe = 0;
    for (int step = 32; step > 0; step >>= 1) /* nfeat <= 64 */
        if (fe + step < nfeat && s.start[fe + step] <= i)
            fe += step;
    return fe;
}

/* Sets instance i's bit (any number of threads may set the same: the bit ends set). */
__device__ static inline void clg_mark(uint32_t *bits, uint32_t i)
{
    uint32_t bit = 1u << (i & 31);
    if (!(bits[i >> 5] & bit))
        atomicOr(&bits[i >> 5], bit);
}

/* Adds v over the block to *sum, one atomic a block: every thread of the block calls it
 * (blocks are whole warps). A kernel's threads all adding to one counter made one atomic
 * a warp a queue at that address (docs/records/coloc-fast.md). */
__device__ static inline void clg_block_add(unsigned long long *sum, unsigned long long v)
{
    __shared__ unsigned long long part[32];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
        part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x + 31) / 32 ? part[lane] : 0;
        for (int o = 16; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0 && v)
            atomicAdd(sum, v);
    }
    __syncthreads(); /* part free for the next call */
}

/* Blocks of `block` threads covering n threads. */
static inline unsigned clg_blocks(uint64_t n, int block)
{
    return (unsigned)((n + (uint64_t)block - 1) / (uint64_t)block);
}

/* Runs one of a pass's two runs (count, or write): kernel with a thread per row of a, on
 * a's stream. Returns 0, or DM_ERUNTIME with err set when the launch fails. */
static inline int clg_launch_pass(void (*kernel)(clg_pass), const clg_pass *a, dm_err *err)
{
    if (a->n == 0)
        return 0;
    kernel<<<clg_blocks(a->n, a->block), a->block, 0, (cudaStream_t)a->stream>>>(*a);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

/* The most instances any feature of f has in s: the x extent of a launch over them. */
static inline uint32_t clg_widest(const clg_set *s, const clg_feats *f)
{
    uint32_t most = 0;
    for (int m = 0; m < f->k; m++) {
        uint32_t n = s->start[f->f[m] + 1] - s->start[f->f[m]];
        most = n > most ? n : most;
    }
    return most;
}

#endif
