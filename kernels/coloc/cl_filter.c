/* cl_filter.c - the paper's cell-aggregate upper bound on the participation index
 * (filter C, Algorithm 2) on the CPU, the reference its GPU version is checked against.
 * (Filter M, Huang et al.'s multi-resolution bound, is cl_table_build on the coarse set.) */
#include <stdlib.h>

#include "coloc/cl_index.h"

/* Algorithm 2 marks, for every quadruplet (a cell with its right, lower and lower-right
 * neighbours) holding at least one instance of each feature of the pattern, its four cells
 * as participating (PCountMap = CountMap there), and bounds each feature's participation
 * ratio by the points of the feature in participating cells over all its points. Here
 * the same set of cells is found from the other side: an occupied cell participates when
 * one of the (up to) four quadruplets that contain it is full, so only occupied cells
 * are visited and no per-cell arrays beyond the feature masks are needed.
 *
 * Why it is an upper bound (Lemma 1): take any row instance of the pattern. Its points
 * are pairwise neighbours, so (cl_index.h, on the grid) they span at most two columns and
 * two rows of cells: they lie in the 2 x 2 block whose top-left cell is at their least
 * column and row. The padding column and row make that block a quadruplet, and it holds
 * an instance of every feature of the pattern (the row instance's), so it is full and
 * all four of its cells participate. So every instance of feature f that is in some row
 * instance lies in a participating cell and is counted: the bound's count for f is at
 * least the true participating count, each bound ratio (count / (double)n, the same
 * division) at least the true one, and their minimum at least PI. The filter is complete:
 * a pattern whose bound is below theta has PI below theta. */

typedef struct cl_cellagg {
    const cl_inst *fine, *coarse;
    uint64_t mask;
    int feat[CL_MAX_FEATURES], k;
    uint64_t cum[CL_MAX_FEATURES + 1]; /* where each feature's cells start, flattened */
    uint64_t step;
    uint64_t *sum; /* per chunk, per feature: points in participating cells */
} cl_cellagg;

/* Whether one of the quadruplets containing the cell at (col, row) holds every feature of
 * mask. */
static int cl_cell_participates(const cl_inst *fine, int32_t col, int32_t row, uint64_t mask)
{
    const uint64_t *m = fine->cell_mask;
    size_t w = (size_t)fine->grid.ncols;
    for (int32_t r = row - 1; r <= row; r++)
        for (int32_t c = col - 1; c <= col; c++) {
            if (r < 0 || c < 0)
                continue;
            size_t q = (size_t)r * w + (size_t)c;
            if (((m[q] | m[q + 1] | m[q + w] | m[q + w + 1]) & mask) == mask)
                return 1;
        }
    return 0;
}

static void cl_cellagg_chunk(void *ctx, int chunk)
{
    cl_cellagg *a = ctx;
    uint64_t lo = (uint64_t)chunk * a->step, hi = lo + a->step;
    if (hi > a->cum[a->k])
        hi = a->cum[a->k];
    uint64_t *sum = a->sum + (size_t)chunk * a->k;
    for (int m = 0; m < a->k; m++) {
        uint64_t b = lo > a->cum[m] ? lo : a->cum[m], e = hi < a->cum[m + 1] ? hi : a->cum[m + 1];
        uint32_t base = a->coarse->start[a->feat[m]];
        for (uint64_t j = b; j < e; j++) {
            uint32_t i = base + (uint32_t)(j - a->cum[m]);
            if (cl_cell_participates(a->fine, a->coarse->col[i], a->coarse->row[i], a->mask))
                sum[m] += a->coarse->weight[i];
        }
    }
}

double cl_cellagg_bound(const cl_inst *fine, const cl_inst *coarse, uint64_t mask,
                        int threads)
{
    cl_cellagg a = {.fine = fine, .coarse = coarse, .mask = mask};
    a.k = cl_mask_features(mask, a.feat);
    for (int m = 0; m < a.k; m++)
        a.cum[m + 1] = a.cum[m] + (coarse->start[a.feat[m] + 1] - coarse->start[a.feat[m]]);
    uint64_t total = a.cum[a.k];
    a.step = threads > 1 ? total / ((uint64_t)threads * 8) : total;
    if (a.step < 4096)
        a.step = 4096;
    int nchunks = (int)((total + a.step - 1) / a.step);
    uint64_t local[CL_MAX_FEATURES] = {0};
    a.sum = nchunks > 1 ? calloc((size_t)nchunks * a.k, sizeof *a.sum) : local;
    if (!a.sum) { /* without memory for the partial sums, one chunk needs none */
        a.sum = local;
        a.step = total;
        nchunks = 1;
    }
    cl_par_for(threads, nchunks, cl_cellagg_chunk, &a);
    double bound = 1;
    for (int m = 0; m < a.k; m++) {
        uint64_t count = 0;
        for (int c = 0; c < nchunks; c++)
            count += a.sum[(size_t)c * a.k + m];
        double ratio = cl_ratio(count, coarse->total[a.feat[m]]);
        if (ratio < bound)
            bound = ratio;
    }
    if (a.sum != local)
        free(a.sum);
    return bound;
}
