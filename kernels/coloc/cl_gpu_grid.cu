/* cl_gpu_grid.cu - the grid search refinement (Algorithm 3), for instance tables of size 2
 * (each instance of the first feature against the cells around it) and of size k + 1 (a
 * thread per row of the size-k table, looking for the last feature in the cells around
 * the row), on the fine set (the points) or the coarse one (filter M); and the rows and
 * neighbours' features of every size-2 pattern of a level in one pass over the points.
 * Each table is made in two runs: a count per thread with the participation marked,
 * then, after the prefix sum of the counts, the writing. */
#include "coloc/cl_gpu.cuh"

/* Thread t's row: ids[0..k-1] (size 2: the one instance). */
__device__ static inline uint32_t clg_row_id(const clg_pass &a, uint64_t t, int m)
{
    return a.k == 1 ? a.first + (uint32_t)t : a.in[t * (uint64_t)a.k + (uint64_t)m];
}

/* The first of a cell's items lo .. hi - 1 (ascending ids) that is at least blo: where
 * the last feature's instances begin (a dense cell holds many of other features). */
__device__ static inline uint32_t clg_first_of(const clg_set &s, uint32_t lo, uint32_t hi,
                                               uint32_t blo)
{
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (s.cell_items[mid] < blo)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Thread t's rows: each instance b of the last feature neighbouring every id of its input
 * row, b ascending. The cells looked in are those within one of every id's cell (any
 * neighbour of an instance lies in the 3 x 3 cells around its own: cl_index.h), scanned
 * row by row, left to right; a feature's instances are numbered in that order of their
 * cells (cl_inst_fine, cl_inst_coarse) and listed ascending in each cell, so b ascends.
 * A coarse instance in those cells neighbours every id (its cell is within one of each),
 * so only points are tested. (Keeping the row's places in registers, not reading them
 * again from L1 for each instance, made it slower on an H200: 52 registers, not 38, left
 * fewer warps to hide the loads; docs/records/coloc-fast.md.)
 * WRITE: the rows go to out from offsets[t]; else their number to counts[t] and *rows,
 * their ids marked in bits, the rows of points they stand for added to *points. */
template <bool WRITE>
__global__ void clg_grid_kernel(clg_pass a)
{
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const clg_set &s = a.s;
    uint64_t n = 0;
    unsigned long long points = 0;
    if (t < a.n) {
        unsigned long long w = 1; /* the points the input row stands for */
        int32_t clo = 0, chi = s.ncols - 1, rlo = 0, rhi = s.nrows - 1;
        for (int m = 0; m < a.k; m++) {
            uint32_t i = clg_row_id(a, t, m);
            clo = max(clo, s.col[i] - 1);
            chi = min(chi, s.col[i] + 1);
            rlo = max(rlo, s.row[i] - 1);
            rhi = min(rhi, s.row[i] + 1);
            if (a.points)
                w *= s.weight[i];
        }
        uint32_t *out = WRITE ? a.out + a.offsets[t] * (uint64_t)(a.k + 1) : nullptr;
        for (int32_t r = rlo; r <= rhi; r++)
            for (int32_t c = clo; c <= chi; c++) {
                const size_t cell = (size_t)r * (size_t)s.ncols + (size_t)c;
                const uint32_t end = s.cell_start[cell + 1];
                for (uint32_t j = clg_first_of(s, s.cell_start[cell], end, a.blo);
                     j < end && s.cell_items[j] < a.bhi; j++) {
                    const uint32_t b = s.cell_items[j];
                    bool near = true;
                    for (int m = 0; m < a.k && near && !s.coarse; m++)
                        near = clg_near(s, clg_row_id(a, t, m), b);
                    if (!near)
                        continue;
                    if (WRITE) {
                        for (int m = 0; m < a.k; m++)
                            out[m] = clg_row_id(a, t, m);
                        out[a.k] = b;
                        out += a.k + 1;
                    } else {
                        if (a.bits)
                            clg_mark(a.bits, b);
                        if (a.points)
                            points += w * s.weight[b];
                    }
                    n++;
                }
            }
        if (!WRITE) {
            if (a.counts)
                a.counts[t] = n;
            if (n && a.bits)
                for (int m = 0; m < a.k; m++)
                    clg_mark(a.bits, clg_row_id(a, t, m));
        }
    }
    if (!WRITE && a.points)
        clg_block_add(a.points, points);
    if (!WRITE && a.rows)
        clg_block_add(a.rows, n);
}

/* Adds a thread's rows and rows of points of pattern slot run (-1: none yet) to the
 * block's counters (rows: npat of them, then the rows of points). */
__device__ static inline void clg_pair_add(unsigned long long *rows_of, int npat, int32_t run,
                                           unsigned long long rows,
                                           unsigned long long points)
{
    if (run < 0)
        return;
    atomicAdd(&rows_of[run], rows);
    if (points)
        atomicAdd(&rows_of[npat + run], points);
}

/* Size 2 for every pattern of a level at once, on the fine set: a thread per point a of
 * feature fa, looking at the points b of the features above fa in the cells around a's
 * (each cell's from the first of feature fa + 1 on; a feature making no pattern (fa, fb)
 * of the level, pair[fa * nfeat + fb] < 0, is skipped by a binary search to the next).
 * When b neighbours a, fb is set in nbr[a] and fa in nbr[b] (nbr zeroed before), and the
 * row (a, b) is counted in its slot's rows (and its rows of points, the product of the
 * weights, when merged): in the thread while b's feature stays (a cell's ids ascend, so a
 * feature's points come together), then in the block's shared memory (npat patterns, two
 * counters each), then in the slots. */
__global__ void clg_pairs_kernel(clg_set s, int nfeat, const int32_t *pair, int npat, int slot,
                                 unsigned long long *nbr, unsigned long long *slots)
{
    extern __shared__ unsigned long long clg_pair_rows[]; /* rows, then rows of points */
    for (int c = threadIdx.x; c < 2 * npat; c += blockDim.x)
        clg_pair_rows[c] = 0;
    __syncthreads();
    const uint64_t a = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (a < s.n) {
        const int fa = clg_feature_of(s, nfeat, a);
        const unsigned long long wa = s.weight ? s.weight[a] : 1;
        const uint32_t above = s.start[fa + 1];
        uint64_t mask = 0;
        int32_t run = -1; /* the pattern rows and points are being counted for */
        unsigned long long rows = 0, points = 0;
        const int32_t clo = max(0, s.col[a] - 1), chi = min(s.ncols - 1, s.col[a] + 1),
                      rlo = max(0, s.row[a] - 1), rhi = min(s.nrows - 1, s.row[a] + 1);
        for (int32_t r = rlo; r <= rhi; r++)
            for (int32_t c = clo; c <= chi; c++) {
                const size_t cell = (size_t)r * (size_t)s.ncols + (size_t)c;
                const uint32_t end = s.cell_start[cell + 1];
                int fb = fa + 1;
                for (uint32_t j = clg_first_of(s, s.cell_start[cell], end, above); j < end;) {
                    const uint32_t b = s.cell_items[j];
                    while (b >= s.start[fb + 1])
                        fb++;
                    const int32_t p = pair[fa * nfeat + fb];
                    if (p < 0) {
                        j = clg_first_of(s, j + 1, end, s.start[fb + 1]);
                        continue;
                    }
                    j++;
                    if (!clg_near(s, a, b))
                        continue;
                    mask |= 1ull << fb;
                    atomicOr(&nbr[b], 1ull << fa);
                    if (p != run) {
                        clg_pair_add(clg_pair_rows, npat, run, rows, points);
                        run = p;
                        rows = points = 0;
                    }
                    rows++;
                    if (s.weight)
                        points += wa * s.weight[b];
                }
            }
        clg_pair_add(clg_pair_rows, npat, run, rows, points);
        if (mask)
            atomicOr(&nbr[a], mask);
    }
    __syncthreads();
    for (int c = threadIdx.x; c < npat; c += blockDim.x) {
        if (clg_pair_rows[c])
            atomicAdd(&slots[(uint64_t)c * (uint64_t)slot + 2], clg_pair_rows[c]);
        if (clg_pair_rows[npat + c])
            atomicAdd(&slots[(uint64_t)c * (uint64_t)slot + 3], clg_pair_rows[npat + c]);
    }
}

extern "C" int clg_pairs(const clg_set *s, int nfeat, const int32_t *pair, int npat, int slot,
                         unsigned long long *nbr, unsigned long long *slots, int block,
                         void *stream, dm_err *err)
{
    if (s->n == 0)
        return 0;
    clg_pairs_kernel<<<clg_blocks(s->n, block), block,
                       2 * (size_t)npat * sizeof(unsigned long long), (cudaStream_t)stream>>>(
        *s, nfeat, pair, npat, slot, nbr, slots);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

extern "C" int clg_grid_count(const clg_pass *a, dm_err *err)
{
    return clg_launch_pass(clg_grid_kernel<false>, a, err);
}

extern "C" int clg_grid_write(const clg_pass *a, dm_err *err)
{
    return clg_launch_pass(clg_grid_kernel<true>, a, err);
}
