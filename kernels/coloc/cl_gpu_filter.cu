/* cl_gpu_filter.cu - a level's per-feature sums in one launch, a thread per instance for
 * every pattern of the level holding its feature: filter C on the GPU, the paper's
 * cell-aggregate upper bound on the participation index (Algorithm 2), over the coarse
 * instances (a feature's points in one cell); and the participation of size-2 patterns
 * from each point's neighbours' features (clg_pairs, cl_gpu_grid.cu). Filter M needs no
 * kernel of its own: it is the grid search (cl_gpu_grid.cu) over the coarse set. */
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

/* Whether instance i counts for the pattern mask holding its feature's bit: filter C
 * (QUAD), one of its four quadruplets (q) holds every feature of mask; else its
 * neighbours' features (q[0]) hold every other feature of mask. */
template <bool QUAD>
__device__ static inline bool clg_holds(const uint64_t *q, uint64_t mask, uint64_t bit)
{
    if (!QUAD)
        return ((q[0] | bit) & mask) == mask;
    bool any = false;
    for (int j = 0; j < 4; j++)
        any |= (q[j] & mask) == mask;
    return any;
}

/* The shared memory a block of clg_level_sums_kernel may keep an entry's counter in. */
#define CLG_SUMS_SMEM 16384

/* The slot entry e (pattern << 6 | place) adds to. */
__device__ static inline unsigned long long *clg_entry_slot(unsigned long long *slots, int slot,
                                                            uint32_t e)
{
    return &slots[(uint64_t)(e >> 6) * (uint64_t)slot + (e & 63)];
}

/* Adds v to sum, a counter of the block's shared memory (SMEM) or of global memory. */
template <bool SMEM>
__device__ static inline void clg_sum_add(unsigned long long *sum, unsigned long long v)
{
    if (SMEM)
        atomicAdd_block(sum, v);
    else
        atomicAdd(sum, v);
}

/* A thread per instance i of s: its feature fe, what decides whether it counts read once
 * (QUAD: its four quadruplets' masks; else its neighbours' features, nbr[i]), then each
 * pattern holding fe from fe's list (entry: pattern << 6 | fe's place among its
 * features): the instance's weight (1 without weights) added to that place of the
 * pattern's slot when clg_holds. A warp of one feature adds over the warp, one atomic a
 * pattern; a warp across features (a few of them) adds lane by lane. SMEM (the level's
 * nentry entries fit a block's shared memory): the block's adds go to a counter an entry
 * in shared memory, then each nonzero one to its slot, one global atomic a block and an
 * entry instead of one a warp. */
template <bool QUAD, bool SMEM>
__global__ void clg_level_sums_kernel(clg_set s, int nfeat, const uint64_t *quad_mask,
                                      const unsigned long long *nbr, const uint64_t *masks,
                                      const uint32_t *first, const uint32_t *entry,
                                      uint32_t nentry, int slot, unsigned long long *slots)
{
    extern __shared__ unsigned long long clg_entry_sum[];
    if (SMEM) {
        for (uint32_t e = threadIdx.x; e < nentry; e += blockDim.x)
            clg_entry_sum[e] = 0;
        __syncthreads();
    }
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const bool in = i < s.n;
    int fe = 0;
    uint64_t q[4] = {0, 0, 0, 0};
    unsigned long long w = 0;
    if (in) {
        fe = clg_feature_of(s, nfeat, i);
        if (QUAD) {
            const int32_t col = s.col[i], row = s.row[i];
            for (int j = 0; j < 4; j++) {
                const int32_t r = row - 1 + j / 2, c = col - 1 + j % 2;
                if (r >= 0 && c >= 0)
                    q[j] = quad_mask[(size_t)r * (size_t)s.ncols + (size_t)c];
            }
        } else {
            q[0] = nbr[i];
        }
        w = s.weight ? s.weight[i] : 1;
    }
    const uint64_t bit = 1ull << fe;
    const int fe0 = __shfl_sync(0xffffffffu, fe, 0);
    /* The counter of entry e: the block's, or the slot's. */
    auto sum = [&](uint32_t e) {
        return SMEM ? &clg_entry_sum[e] : clg_entry_slot(slots, slot, entry[e]);
    };
    if (__all_sync(0xffffffffu, !in || fe == fe0)) {
        for (uint32_t e = first[fe0]; e < first[fe0 + 1]; e++) {
            const bool holds = in && clg_holds<QUAD>(q, masks[entry[e] >> 6], bit);
            unsigned long long v = holds ? w : 0;
            for (int o = 16; o > 0; o /= 2)
                v += __shfl_down_sync(0xffffffffu, v, o);
            if ((threadIdx.x & 31) == 0 && v)
                clg_sum_add<SMEM>(sum(e), v);
        }
    } else {
        for (uint32_t e = first[fe]; in && e < first[fe + 1]; e++)
            if (clg_holds<QUAD>(q, masks[entry[e] >> 6], bit) && w)
                clg_sum_add<SMEM>(sum(e), w);
    }
    if (SMEM) {
        __syncthreads();
        for (uint32_t e = threadIdx.x; e < nentry; e += blockDim.x)
            if (clg_entry_sum[e])
                atomicAdd(clg_entry_slot(slots, slot, entry[e]), clg_entry_sum[e]);
    }
}

/* Launches clg_level_sums_kernel<QUAD, SMEM> (SMEM when the level's entries' counters fit
 * CLG_SUMS_SMEM). */
template <bool QUAD>
static void clg_level_sums_launch(const clg_set *s, int nfeat, const uint64_t *quad_mask,
                                  const unsigned long long *nbr, const uint64_t *masks,
                                  const uint32_t *first, const uint32_t *entry,
                                  uint32_t nentry, int slot, unsigned long long *slots,
                                  int block, cudaStream_t st)
{
    const unsigned blocks = clg_blocks(s->n, block);
    const size_t bytes = (size_t)nentry * sizeof(unsigned long long);
    if (bytes <= CLG_SUMS_SMEM)
        clg_level_sums_kernel<QUAD, true><<<blocks, block, bytes, st>>>(
            *s, nfeat, quad_mask, nbr, masks, first, entry, nentry, slot, slots);
    else
        clg_level_sums_kernel<QUAD, false><<<blocks, block, 0, st>>>(
            *s, nfeat, quad_mask, nbr, masks, first, entry, nentry, slot, slots);
}

extern "C" int clg_level_sums(const clg_set *s, int nfeat, const uint64_t *quad_mask,
                              const unsigned long long *nbr, const uint64_t *masks,
                              const uint32_t *first, const uint32_t *entry, uint32_t nentry,
                              int slot, unsigned long long *slots, int block, void *stream,
                              dm_err *err)
{
    if (s->n == 0)
        return 0;
    cudaStream_t st = (cudaStream_t)stream;
    if (quad_mask)
        clg_level_sums_launch<true>(s, nfeat, quad_mask, nbr, masks, first, entry, nentry, slot,
                                    slots, block, st);
    else
        clg_level_sums_launch<false>(s, nfeat, quad_mask, nbr, masks, first, entry, nentry,
                                     slot, slots, block, st);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}
