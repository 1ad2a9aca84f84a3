/* cl_gpu_filter.cu - filter C on the GPU: the paper's cell-aggregate upper bound on the
 * participation index (Algorithm 2), a thread per coarse instance (a feature's points in
 * one cell) of each feature of the pattern. Filter M needs no kernel of its own: it is
 * the grid search (cl_gpu_grid.cu) over the coarse set. */
#include "coloc/cl_gpu.cuh"

/* Algorithm 2 marks every quadruplet (a cell with its right, lower and lower-right
 * neighbours) holding at least one instance of each feature of the pattern, its four
 * cells as participating, and bounds each feature's participation ratio by the feature's
 * points in participating cells over all its points. As on the CPU (cl_filter.c), the
 * same cells are found from the occupied side: a cell participates when one of the (up
 * to) four quadruplets containing it is full, which the thread of a coarse instance
 * checks from the cells' feature masks; the counts it adds are integers, the same in any
 * order, so the host's ratio is cl_cellagg_bound's bit for bit.
 *
 * Why it is an upper bound (Lemma 1): take any row instance of the pattern. Its points
 * are pairwise neighbours, so (cl_index.h: cells are d (1 + 2^-20) wide, which absorbs
 * the rounding of the cell computation) they span at most two columns and two rows of
 * cells: they lie in the 2 x 2 block whose top-left cell is at their least column and
 * row. The grid's padding column and row make that block a quadruplet, and it holds an
 * instance of every feature of the pattern (the row instance's), so it is full and all
 * four of its cells participate. So every instance of feature f that is in some row
 * instance lies in a participating cell and is counted: the bound's count for f is at
 * least the true participating count, each bound ratio (count / (double)n, the same
 * division) at least the true one, and their minimum at least PI. A pattern whose bound
 * is below theta has PI below theta: pruning it loses no prevalent pattern. */

/* Whether one of the quadruplets containing the cell at (col, row) holds every feature
 * of mask (the padding keeps q + 1 and q + w inside the grid). */
__device__ static inline bool clg_cell_participates(const uint64_t *cell_mask, int32_t ncols,
                                                    int32_t col, int32_t row, uint64_t mask)
{
    const size_t w = (size_t)ncols;
    for (int32_t r = row - 1; r <= row; r++)
        for (int32_t c = col - 1; c <= col; c++) {
            if (r < 0 || c < 0)
                continue;
            const size_t q = (size_t)r * w + (size_t)c;
            if (((cell_mask[q] | cell_mask[q + 1] | cell_mask[q + w] | cell_mask[q + w + 1]) &
                 mask) == mask)
                return true;
        }
    return false;
}

/* Block (x, m): coarse instances of feature f.f[m] from blockIdx.x * blockDim.x on. */
__global__ void clg_cellagg_kernel(clg_set s, const uint64_t *cell_mask, clg_feats f,
                                   uint64_t mask, unsigned long long *sums)
{
    const int m = blockIdx.y, fe = f.f[m];
    const uint64_t i = s.start[fe] + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long v = 0;
    if (i < s.start[fe + 1] && clg_cell_participates(cell_mask, s.ncols, s.col[i], s.row[i], mask))
        v = s.weight[i];
    clg_warp_add(&sums[m], v);
}

extern "C" int clg_cellagg_sum(const clg_set *coarse, const uint64_t *cell_mask,
                               const clg_feats *f, unsigned long long *sums, int block,
                               void *stream, dm_err *err)
{
    const uint32_t most = clg_widest(coarse, f);
    if (most == 0 || f->k == 0)
        return 0;
    uint64_t mask = 0;
    for (int m = 0; m < f->k; m++)
        mask |= 1ull << f->f[m];
    dim3 grid(clg_blocks(most, block), (unsigned)f->k);
    clg_cellagg_kernel<<<grid, block, 0, (cudaStream_t)stream>>>(*coarse, cell_mask, *f, mask,
                                                                 sums);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}
