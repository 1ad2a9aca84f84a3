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
 * of mask (quad_mask: each quadruplet's features, by its top-left cell). */
__device__ static inline bool clg_cell_participates(const uint64_t *quad_mask, int32_t ncols,
                                                    int32_t col, int32_t row, uint64_t mask)
{
    const size_t w = (size_t)ncols;
    for (int32_t r = row - 1; r <= row; r++)
        for (int32_t c = col - 1; c <= col; c++)
            if (r >= 0 && c >= 0 && (quad_mask[(size_t)r * w + (size_t)c] & mask) == mask)
                return true;
    return false;
}

/* Block (x, m): candidate x / per (features masks[x / per]), coarse instances of its
 * feature m from (x % per) * blockDim.x on, into its slot of slot entries. */
__global__ void clg_cellagg_kernel(clg_set s, const uint64_t *quad_mask, const uint64_t *masks,
                                   unsigned per, int slot, unsigned long long *slots)
{
    const unsigned c = blockIdx.x / per;
    const uint64_t mask = masks[c];
    uint64_t rest = mask; /* feature m: the lowest bit left after dropping m */
    for (unsigned m = 0; m < blockIdx.y; m++)
        rest &= rest - 1;
    const int fe = __ffsll((long long)rest) - 1;
    const uint64_t i = s.start[fe] + (uint64_t)(blockIdx.x % per) * blockDim.x + threadIdx.x;
    unsigned long long v = 0;
    if (i < s.start[fe + 1] && clg_cell_participates(quad_mask, s.ncols, s.col[i], s.row[i], mask))
        v = s.weight[i];
    clg_warp_add(&slots[(uint64_t)c * (uint64_t)slot + blockIdx.y], v);
}

extern "C" int clg_cellagg_sums(const clg_set *coarse, const uint64_t *quad_mask,
                                const uint64_t *masks, int n, int k, uint32_t most, int slot,
                                unsigned long long *slots, int block, void *stream,
                                dm_err *err)
{
    if (most == 0 || n == 0 || k == 0)
        return 0;
    const unsigned per = clg_blocks(most, block);
    dim3 grid(per * (unsigned)n, (unsigned)k);
    clg_cellagg_kernel<<<grid, block, 0, (cudaStream_t)stream>>>(*coarse, quad_mask, masks, per,
                                                                 slot, slots);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}
