/* ep_prefix_gpu.cu - a round of counting by prefix (ep_prefix.h) on the GPU: a block a
 * task, its threads over runs of the events of the task's type a tile at a time, finding
 * their windows among the parent's events, then the tile's greedy non-overlapped count,
 * by one warp's ballots in rounds of many tasks, by every thread at once (pointer jumping
 * over each event's next count) in rounds of few; and the copies of a batch's fetched
 * starts (from another GPU's memory) in one launch. */
#include <stdint.h>

#include <cuda_runtime.h>

#include "episodes/ep_prefix.h"

/* Events of a task's type a block takes at a time, in rounds of many tasks and of few.
 * Shared memory a block: their starts and positions (4 bytes each), 8 KiB for many; for
 * few also the starts' running maximum (4 bytes) and two buffers of the count's jumps (6
 * bytes each), 36 KiB in all. A step's tiles run one after another, each with a fixed
 * number of barriers, so a round of few long steps takes fewer of them with larger tiles
 * (its blocks fill the multiprocessors either way: four of 512 threads each). */
#define EP_PREFIX_TILE 1024
#define EP_PREFIX_TILE_FEW 1536
/* The most threads a block (the window's samples, a thread each). */
#define EP_PREFIX_BLOCK_MAX 1024

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

/* The first j in [lo, hi) with run[j] > x (hi when none); run is non-decreasing. */
__device__ static int ep_prefix_first_above(const int32_t *run, int lo, int hi, int32_t x)
{
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (run[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The parent's times ptime[lo, end) every *stride events, a sample a thread into sample
 * (*samples of them); every thread of the block calls it, and reads them after. */
__device__ static int ep_prefix_sample(const double *ptime, int lo, int end, double *sample,
                                       int *samples)
{
    const int stride = end > lo ? (end - lo + blockDim.x - 1) / blockDim.x : 1;
    *samples = (end - lo + stride - 1) / stride;
    if ((int)threadIdx.x < *samples)
        sample[threadIdx.x] = ptime[lo + threadIdx.x * stride];
    __syncthreads();
    return stride;
}

/* Where the first event of each thread's run in a tile, at time tq (has: the thread has
 * events), finds its window among the parent's events ptime[base, m): the first j with
 * tq - ptime[j] <= hi (m when none). The windows only move on with the events, so the
 * tile's all lie between its first event's and its last's (at tfirst, tlast). Found by
 * samples in shared memory, a load a thread at once: over [base, m), among which the
 * tile's first and last events find the part its windows lie in; then over that part,
 * where each thread's search ends within a stride of them: a few loads one after another
 * instead of a binary search over all of [base, m). Every thread of the block calls it;
 * sample holds blockDim.x doubles, range two ints. */
__device__ static int ep_prefix_window(const double *ptime, int base, int m, double tq,
                                       int has, double tfirst, double tlast, double hi,
                                       double *sample, int *range)
{
    int samples, stride = ep_prefix_sample(ptime, base, m, sample, &samples);
    if (threadIdx.x == 0) {
        const int i = ep_prefix_first_within(sample, 0, samples, tfirst, hi);
        range[0] = i ? base + (i - 1) * stride + 1 : base;
    }
    if (threadIdx.x == blockDim.x - 1) {
        const int i = ep_prefix_first_within(sample, 0, samples, tlast, hi);
        range[1] = i < samples ? base + i * stride : m;
    }
    __syncthreads(); /* the part is set, and every sample read */
    const int lo = range[0], end = range[1];
    stride = ep_prefix_sample(ptime, lo, end, sample, &samples);
    if (!has)
        return m;
    const int i = ep_prefix_first_within(sample, 0, samples, tq, hi);
    return ep_prefix_first_within(ptime, i ? lo + (i - 1) * stride + 1 : lo,
                                  i < samples ? lo + i * stride : end, tq, hi);
}

/* The greedy count's jumps over a tile of TILE events (ep_prefix_kernel): from event k,
 * the chain of events it counts next reaches at[k] (n: past the tile) after len[k]
 * counts, the last counted being last[k]. Indexes fit 16 bits. */
template <int TILE> struct ep_prefix_jumps {
    int16_t at[TILE], len[TILE], last[TILE];
};

/* Block blockIdx.x runs task blockIdx.x, a tile of its type's events at a time.
 *
 * Starts: each thread takes a run of consecutive events of the tile, finds the first
 * one's window among the parent's events by a binary search from where the last tile's
 * first window began and the others' by moving on from it (the windows only move on with
 * the events), and puts their starts in shared memory, which are then written out.
 *
 * Count, two ways (FEW). The greedy scan counts q_k and sets p = q_k at the first k with
 * s_k > p (s the starts, q the positions).
 * - FEW = 0, for rounds of many tasks, where other blocks fill the multiprocessor: one
 *   warp scans the tile, 32 events a ballot, one more ballot per occurrence counted,
 *   while the block's other warps wait.
 * - FEW = 1, for rounds of few tasks, where a block's latency is the round's: every
 *   thread at once. After counting k the scan counts next(k), the first j > k with
 *   s_j > q_k; every s_j < q_j <= q_k for j <= k, so next(k) is the first j of the whole
 *   tile whose running maximum of starts passes q_k, a binary search in shared memory.
 *   The chain from the tile's first count (the first j whose running maximum passes the
 *   last end before the tile) is then followed by pointer jumping, each round doubling
 *   every event's jump (at most log2 of the tile's events rounds). Its window searches
 *   go through samples of the parent's times in shared memory (ep_prefix_window), so
 *   that fewer loads wait on each other. (In rounds of many tasks the samples cost more
 *   than they save: the kernel is bound by its loads there, not by their latency.)
 * Indexes within a type are 32-bit (EP_PREFIX_MAX_EVENTS). CLOSED: the interval kind. */
template <int CLOSED, int FEW>
__global__ void
ep_prefix_kernel(const ep_prefix_task *__restrict__ tasks, const int64_t *__restrict__ first,
                 const int64_t *__restrict__ pos, const double *__restrict__ time,
                 const int32_t *__restrict__ from, const int32_t *__restrict__ fetched,
                 int32_t *scratch, int32_t *arena, int64_t *__restrict__ counts)
{
    constexpr int TILE = FEW ? EP_PREFIX_TILE_FEW : EP_PREFIX_TILE, MORE = FEW ? TILE : 1;
    static_assert(TILE <= INT16_MAX, "jumps index a tile in 16 bits");
    __shared__ int32_t tile_start[TILE], tile_pos[TILE];
    __shared__ int32_t tile_max[MORE]; /* running maximum of the starts (FEW) */
    __shared__ union {
        double sample[FEW ? EP_PREFIX_BLOCK_MAX : 1]; /* a tile's first, before the jumps */
        ep_prefix_jumps<MORE> jumps[2];
    } sh;
    __shared__ int32_t warp_max[32];
    __shared__ int tile_base, tile_range[2];
    const ep_interval iv = CLOSED ? EP_CLOSED : EP_OPEN_CLOSED;
    const ep_prefix_task t = tasks[blockIdx.x];
    const int64_t pb = first[t.ptype], qb = first[t.type];
    const int m = (int)(first[t.ptype + 1] - 1 - pb), len = (int)(first[t.type + 1] - 1 - qb);
    const int64_t *ppos = pos + pb, *qpos = pos + qb;
    const double *ptime = time + pb, *qtime = time + qb;
    const int32_t *st = ep_prefix_parent(t.parent, from, fetched);
    int32_t *out = (t.count >= 0 ? arena : scratch) + t.out;
    const int lane = (int)threadIdx.x & 31, warp = (int)threadIdx.x >> 5;
    int base = 0;
    int32_t last = -1; /* the last counted end, and the count (FEW: the same in every
                          thread; else warp 0's) */
    int64_t count = 0;
    for (int c = 0; c < len; c += TILE) {
        const int n = len - c < TILE ? len - c : TILE;
        const int per = (n + blockDim.x - 1) / blockDim.x;
        const int k0 = threadIdx.x * per, k1 = k0 + per < n ? k0 + per : n;
        int j = m;
        if (FEW)
            j = ep_prefix_window(ptime, base, m, k0 < k1 ? qtime[c + k0] : 0.0, k0 < k1,
                                 qtime[c], qtime[c + n - 1], t.hi, sh.sample, tile_range);
        else if (k0 < k1)
            j = ep_prefix_first_within(ptime, base, m, qtime[c + k0], t.hi);
        if (threadIdx.x == 0) /* the tile's first window: where the next tile's begin */
            tile_base = j;
        int32_t run_max = -1;
        for (int k = k0; k < k1; k++) {
            const int64_t q = qpos[c + k];
            const double tq = qtime[c + k];
            while (j < m && tq - ptime[j] > t.hi)
                j++;
            const int32_t s =
                (int32_t)ep_prefix_latest(ppos, ptime, st, j, m, q, tq, t.lo, iv);
            tile_start[k] = s;
            tile_pos[k] = (int32_t)q;
            run_max = s > run_max ? s : run_max;
        }
        if (FEW) {
            /* The running maximum: over the runs of the threads before, then along mine. */
            int32_t up = run_max;
            for (int d = 1; d < 32; d *= 2) {
                const int32_t v = __shfl_up_sync(0xffffffffu, up, d);
                up = lane >= d && v > up ? v : up;
            }
            if (lane == 31)
                warp_max[warp] = up;
            __syncthreads();
            int32_t before = __shfl_up_sync(0xffffffffu, up, 1);
            before = lane ? before : -1;
            for (int w = 0; w < warp; w++)
                before = warp_max[w] > before ? warp_max[w] : before;
            for (int k = k0; k < k1; k++) {
                before = tile_start[k] > before ? tile_start[k] : before;
                tile_max[k] = before;
            }
        }
        __syncthreads();
        base = tile_base;
        for (int k = threadIdx.x; k < n; k += blockDim.x)
            out[c + k] = tile_start[k];
        if (FEW && tile_max[n - 1] > last) { /* something counts in the tile */
            /* Each event's first jump: next(k), one count, itself the last. */
            for (int k = k0, lo = k0 + 1; k < k1; k++) {
                lo = ep_prefix_first_above(tile_max, lo > k + 1 ? lo : k + 1, n, tile_pos[k]);
                sh.jumps[0].at[k] = (int16_t)lo;
                sh.jumps[0].len[k] = 1;
                sh.jumps[0].last[k] = (int16_t)k;
            }
            int cur = 0;
            for (int more = __syncthreads_or(1); more;) {
                const ep_prefix_jumps<MORE> *a = &sh.jumps[cur];
                ep_prefix_jumps<MORE> *b = &sh.jumps[!cur];
                more = 0;
                for (int k = k0; k < k1; k++) {
                    const int to = a->at[k];
                    const int in = to < n;
                    b->at[k] = in ? a->at[to] : (int16_t)to;
                    b->len[k] = in ? (int16_t)(a->len[k] + a->len[to]) : a->len[k];
                    b->last[k] = in ? a->last[to] : a->last[k];
                    more |= b->at[k] < n;
                }
                cur = !cur;
                more = __syncthreads_or(more);
            }
            const int e = ep_prefix_first_above(tile_max, 0, n, last);
            count += sh.jumps[cur].len[e];
            last = tile_pos[sh.jumps[cur].last[e]];
        } else if (!FEW && warp == 0) {
            /* The first lane whose start is past the last end counts and becomes the
             * last end; lanes before it, and itself (its start precedes it), cannot count
             * after it. */
            for (int k = 0; k < n; k += 32) {
                const int in = k + lane < n;
                const int32_t s = in ? tile_start[k + lane] : -1;
                const int32_t q = in ? tile_pos[k + lane] : 0;
                for (;;) {
                    const unsigned b = __ballot_sync(0xffffffffu, s > last);
                    if (!b)
                        break;
                    count++;
                    last = __shfl_sync(0xffffffffu, q, __ffs(b) - 1);
                }
            }
        }
        __syncthreads(); /* the tile is read before the next is written */
    }
    if (threadIdx.x == 0 && t.count >= 0)
        counts[t.count] = count;
}

template <int FEW>
static void ep_prefix_launch(const ep_prefix_task *tasks, int64_t n, const int64_t *first,
                             const int64_t *pos, const double *time, const int32_t *from,
                             const int32_t *fetched, int32_t *scratch, int32_t *arena,
                             ep_interval iv, int block, int64_t *counts, cudaStream_t stream)
{
    if (iv & EP_CLOSED)
        ep_prefix_kernel<1, FEW><<<(unsigned)n, block, 0, stream>>>(
            tasks, first, pos, time, from, fetched, scratch, arena, counts);
    else
        ep_prefix_kernel<0, FEW><<<(unsigned)n, block, 0, stream>>>(
            tasks, first, pos, time, from, fetched, scratch, arena, counts);
}

extern "C" int ep_prefix_gpu_round(const ep_prefix_task *tasks, int64_t n, const int64_t *first,
                                   const int64_t *pos, const double *time, const int32_t *from,
                                   const int32_t *fetched, int32_t *scratch, int32_t *arena,
                                   ep_interval iv, int few, int block, int64_t *counts,
                                   void *stream, dm_err *err)
{
    if (n <= 0)
        return 0;
    if (few)
        ep_prefix_launch<1>(tasks, n, first, pos, time, from, fetched, scratch, arena, iv,
                            block, counts, (cudaStream_t)stream);
    else
        ep_prefix_launch<0>(tasks, n, first, pos, time, from, fetched, scratch, arena, iv,
                            block, counts, (cudaStream_t)stream);
    return DM_CUDA(err, cudaGetLastError());
}

/* Block blockIdx.y copies fetch blockIdx.y, its blocks along x a stride of the starts
 * each (int4 where both ends are 16-byte aligned). */
__global__ void ep_prefix_fetch_kernel(const ep_prefix_fetch *__restrict__ fetch,
                                       int32_t *__restrict__ fetched)
{
    const ep_prefix_fetch f = fetch[blockIdx.y];
    int32_t *to = fetched + f.off;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if ((((uintptr_t)f.src | (uintptr_t)to) & 15) == 0) {
        const int64_t quads = f.len / 4;
        for (int64_t i = first; i < quads; i += step)
            ((int4 *)to)[i] = ((const int4 *)f.src)[i];
        for (int64_t i = quads * 4 + first; i < f.len; i += step)
            to[i] = f.src[i];
    } else {
        for (int64_t i = first; i < f.len; i += step)
            to[i] = f.src[i];
    }
}

/* Blocks along x a fetch: enough for a long type's starts (ep_prefix_fetch_kernel). */
#define EP_PREFIX_FETCH_BLOCKS 16

extern "C" int ep_prefix_gpu_fetch(const ep_prefix_fetch *fetch, int64_t n, int32_t *fetched,
                                   void *stream, dm_err *err)
{
    for (int64_t at = 0; at < n; at += 65535) { /* gridDim.y's limit */
        const unsigned y = (unsigned)(n - at < 65535 ? n - at : 65535);
        ep_prefix_fetch_kernel<<<dim3(EP_PREFIX_FETCH_BLOCKS, y), 256, 0,
                                 (cudaStream_t)stream>>>(fetch + at, fetched);
        if (DM_CUDA(err, cudaGetLastError()))
            return err->code;
    }
    return 0;
}

extern "C" int ep_prefix_gpu_resident(int block, int few, int *blocks, dm_err *err)
{
    return DM_CUDA(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                            blocks, few ? ep_prefix_kernel<0, 1> : ep_prefix_kernel<0, 0>,
                            block, 0));
}
