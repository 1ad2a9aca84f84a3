/* ep_prefix_gpu.cu - a round of counting by prefix (ep_prefix.h) on the GPU: a block a
 * task, its threads over runs of the events of the task's type a tile at a time, finding
 * their windows among the parent's events, then one warp's greedy non-overlapped count
 * over the tile by ballots (one per occurrence counted, plus one per 32 events). */
#include <cuda_runtime.h>

#include "episodes/ep_prefix.h"

/* Events of a task's type a block takes at a time: their starts and positions in shared
 * memory, 8 KiB. */
#define EP_PREFIX_TILE 1024

/* The first j in [lo, hi) with t - time[j] <= bound (hi when none). */
__device__ static int ep_prefix_first_within(const double *time, int lo, int hi, double t,
                                             double bound)
{
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (t - time[mid] > bound)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Block blockIdx.x runs task blockIdx.x, a tile of its type's events at a time: each
 * thread takes a run of consecutive events of the tile, finds the first one's window
 * among the parent's events by a binary search from where the last tile's first window
 * began and the others' by moving on from it (the windows only move on with the events),
 * and puts their starts in shared memory; then the tile's starts are written out, and
 * warp 0 runs the greedy count over the tile, 32 events a ballot. Indexes within a type
 * are 32-bit (EP_PREFIX_MAX_EVENTS). CLOSED: the interval kind, a constant. */
template <int CLOSED>
__global__ void ep_prefix_kernel(const ep_prefix_task *__restrict__ tasks,
                                 const int64_t *__restrict__ first,
                                 const int64_t *__restrict__ pos,
                                 const double *__restrict__ time,
                                 const int32_t *__restrict__ from, int32_t *scratch,
                                 int32_t *arena, int64_t *__restrict__ counts)
{
    __shared__ int32_t tile_start[EP_PREFIX_TILE], tile_pos[EP_PREFIX_TILE];
    __shared__ int tile_base;
    const ep_interval iv = CLOSED ? EP_CLOSED : EP_OPEN_CLOSED;
    const ep_prefix_task t = tasks[blockIdx.x];
    const int64_t pb = first[t.ptype], qb = first[t.type];
    const int m = (int)(first[t.ptype + 1] - 1 - pb), len = (int)(first[t.type + 1] - 1 - qb);
    const int64_t *ppos = pos + pb, *qpos = pos + qb;
    const double *ptime = time + pb, *qtime = time + qb;
    const int32_t *st = t.parent < 0 ? nullptr : from + t.parent;
    int32_t *out = (t.count >= 0 ? arena : scratch) + t.out;
    int base = 0;
    int32_t last = -1; /* warp 0's: the last counted end, and the count */
    int64_t count = 0;
    for (int c = 0; c < len; c += EP_PREFIX_TILE) {
        const int n = len - c < EP_PREFIX_TILE ? len - c : EP_PREFIX_TILE;
        const int per = (n + blockDim.x - 1) / blockDim.x;
        const int k0 = threadIdx.x * per, k1 = k0 + per < n ? k0 + per : n;
        int j = k0 < k1 ? ep_prefix_first_within(ptime, base, m, qtime[c + k0], t.hi) : m;
        if (threadIdx.x == 0) /* the tile's first window: where the next tile's begin */
            tile_base = j;
        for (int k = k0; k < k1; k++) {
            const int64_t q = qpos[c + k];
            const double tq = qtime[c + k];
            while (j < m && tq - ptime[j] > t.hi)
                j++;
            tile_start[k] = (int32_t)ep_prefix_latest(ppos, ptime, st, j, m, q, tq, t.lo, iv);
            tile_pos[k] = (int32_t)q;
        }
        __syncthreads();
        base = tile_base;
        for (int k = threadIdx.x; k < n; k += blockDim.x)
            out[c + k] = tile_start[k];
        if (threadIdx.x < 32)
            /* The greedy count: the first lane whose start is past the last end counts and
             * becomes the last end; lanes before it, and itself (its start precedes it),
             * cannot count after it. */
            for (int k = 0; k < n; k += 32) {
                const int in = k + (int)threadIdx.x < n;
                const int32_t s = in ? tile_start[k + threadIdx.x] : -1;
                const int32_t q = in ? tile_pos[k + threadIdx.x] : 0;
                for (;;) {
                    const unsigned b = __ballot_sync(0xffffffffu, s > last);
                    if (!b)
                        break;
                    count++;
                    last = __shfl_sync(0xffffffffu, q, __ffs(b) - 1);
                }
            }
        __syncthreads(); /* the tile is read before the next is written */
    }
    if (threadIdx.x == 0 && t.count >= 0)
        counts[t.count] = count;
}

extern "C" int ep_prefix_gpu_round(const ep_prefix_task *tasks, int64_t n, const int64_t *first,
                                   const int64_t *pos, const double *time, const int32_t *from,
                                   int32_t *scratch, int32_t *arena, ep_interval iv, int block,
                                   int64_t *counts, void *stream, dm_err *err)
{
    if (n <= 0)
        return 0;
    if (iv & EP_CLOSED)
        ep_prefix_kernel<1><<<(unsigned)n, block, 0, (cudaStream_t)stream>>>(
            tasks, first, pos, time, from, scratch, arena, counts);
    else
        ep_prefix_kernel<0><<<(unsigned)n, block, 0, (cudaStream_t)stream>>>(
            tasks, first, pos, time, from, scratch, arena, counts);
    return DM_CUDA(err, cudaGetLastError());
}
