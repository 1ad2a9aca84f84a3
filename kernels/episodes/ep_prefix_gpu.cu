/* ep_prefix_gpu.cu - a round of counting by prefix (ep_prefix.h) on the GPU: a warp a
 * task, its lanes over 32 consecutive events of the task's type at a time, each finding
 * its window among the parent's events by a binary search from where the warp's last
 * window began, then the greedy non-overlapped count over the 32 by ballots (one per
 * occurrence counted, plus one). */
#include <cuda_runtime.h>

#include "episodes/ep_prefix.h"

__global__ void ep_prefix_kernel(const ep_prefix_task *__restrict__ tasks, int64_t ntasks,
                                 const int64_t *__restrict__ first,
                                 const int64_t *__restrict__ pos,
                                 const double *__restrict__ time,
                                 const int32_t *__restrict__ from, int32_t *scratch,
                                 int32_t *arena, ep_interval iv, int64_t *__restrict__ counts)
{
    const int64_t w = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x & 31;
    if (w >= ntasks)
        return;
    const ep_prefix_task t = tasks[w];
    const int64_t pb = first[t.ptype], m = first[t.ptype + 1] - 1 - pb;
    const int64_t qb = first[t.type], len = first[t.type + 1] - 1 - qb;
    const int64_t *ppos = pos + pb;
    const double *ptime = time + pb;
    const int32_t *st = t.parent < 0 ? nullptr : from + t.parent;
    int32_t *out = (t.count >= 0 ? arena : scratch) + t.out;
    int64_t base = 0, last = -1, count = 0;
    for (int64_t c = 0; c < len; c += 32) {
        const int64_t i = c + lane;
        int64_t q = 0, s = -1, j = m;
        if (i < len) {
            q = pos[qb + i];
            const double tq = time[qb + i];
            /* The first j at or after base with tq - time[j] <= hi. */
            int64_t lo = base, hi = m;
            while (lo < hi) {
                const int64_t mid = lo + (hi - lo) / 2;
                if (tq - ptime[mid] > t.hi)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            j = lo;
            s = ep_prefix_latest(ppos, ptime, st, j, m, q, tq, t.lo, iv);
            out[i] = (int32_t)s;
        }
        /* The windows only move on: the next 32 start at or after this last one's. */
        base = __shfl_sync(0xffffffffu, j, 31);
        if (base > m)
            base = m;
        /* The greedy count: the first lane whose start is past the last end counts and
         * becomes the last end; lanes before it, and itself (its start precedes it),
         * cannot count after it. */
        for (;;) {
            const unsigned b = __ballot_sync(0xffffffffu, s > last);
            if (!b)
                break;
            count++;
            last = __shfl_sync(0xffffffffu, q, __ffs(b) - 1);
        }
    }
    if (lane == 0 && t.count >= 0)
        counts[t.count] = count;
}

extern "C" int ep_prefix_gpu_round(const ep_prefix_task *tasks, int64_t n, const int64_t *first,
                                   const int64_t *pos, const double *time, const int32_t *from,
                                   int32_t *scratch, int32_t *arena, ep_interval iv, int block,
                                   int64_t *counts, void *stream, dm_err *err)
{
    if (n <= 0)
        return 0;
    const int64_t grid = (n * 32 + block - 1) / block;
    ep_prefix_kernel<<<(unsigned)grid, block, 0, (cudaStream_t)stream>>>(
        tasks, n, first, pos, time, from, scratch, arena, iv, counts);
    return DM_CUDA(err, cudaGetLastError());
}
