/* cl_index.h - what the colocation miners are made of: the grid of cell side d, instance
 * sets on it (the points, or Huang et al.'s coarse instances: the occupied cells of each
 * feature), instance tables and their joins, the filters' bounds, and a parallel for. */
#ifndef DM_CL_INDEX_H
#define DM_CL_INDEX_H

#include <stdint.h>

#include "coloc/coloc.h"

/* ---- grid --------------------------------------------------------------------------- *
 * Cells are side = d * (1 + CL_CELL_MARGIN) wide, counted from the box's minimum:
 * column floor((x - minx) / side), row floor((y - miny) / side), one rounding for the
 * difference and one for the quotient (truncation is the floor: points lie in the box).
 * The margin is what makes "neighbours lie in the same or adjacent cells" hold in
 * floating point: cl_near() implies |x1 - x2| <= d (1 + 3 eps), and the two rounded
 * quotients then differ by at most
 * (1 + 3 eps) / (1 + 2^-20) + 4 N eps < 1 for N < 2^30 cells a side, so their floors
 * differ by at most one. So every clique spans at most two columns and two rows. One
 * empty column and row past the box pad the grid, so every occupied cell is the top-left
 * cell of a full 2 x 2 block (the paper's quadruplet). */
#define CL_CELL_MARGIN 0x1p-20
#define CL_MAX_CELLS (1LL << 28)

typedef struct cl_grid {
    double minx, miny, side;
    int32_t ncols, nrows;
} cl_grid;

/* The grid for p and distance d. Returns 0, or DM_EINPUT when d is not a positive finite
 * number or the grid would have more than CL_MAX_CELLS cells. */
int cl_grid_make(const cl_points *p, double d, cl_grid *g, dm_err *err);

static inline int32_t cl_grid_col(const cl_grid *g, double x)
{
    return (int32_t)((x - g->minx) / g->side);
}

static inline int32_t cl_grid_row(const cl_grid *g, double y)
{
    return (int32_t)((y - g->miny) / g->side);
}

/* ---- instance sets ------------------------------------------------------------------ *
 * Instances 0 .. n-1 grouped by feature (feature f owns start[f] .. start[f+1]-1), each in
 * a cell. Fine: the points, each feature's renumbered in cell order (so that neighbours
 * are near in memory; ids never leave the miners, only counts do), neighbours by
 * cl_near(). Coarse (Huang et al.'s multi-resolution pruning): one instance per feature
 * and occupied cell, in cell order, weighing the feature's points in the cell; two are
 * neighbours when their cells are the same or adjacent (8-neighbourhood), so neighbouring
 * points make neighbouring coarse instances. cell_start/cell_items list each cell's
 * instances, ascending. */
typedef struct cl_inst {
    int coarse;
    int nfeat;
    uint32_t n;
    uint32_t start[CL_MAX_FEATURES + 1];
    uint32_t total[CL_MAX_FEATURES]; /* points of each feature (the ratios' denominators) */
    double *x, *y;                   /* fine: coordinates, in instance order */
    double d2;                       /* fine: d * d */
    uint32_t *weight;                /* the points an instance stands for: coarse, the
                                      * feature's in its cell; fine after cl_inst_merge,
                                      * its class's; NULL: one each */
    int32_t *col, *row;
    uint32_t *cell_start, *cell_items;
    uint64_t *cell_mask; /* fine: the features present in each cell */
    cl_grid grid;
} cl_inst;

/* The fine set of p on g. Returns 0, or DM_ERUNTIME without memory. */
int cl_inst_fine(const cl_points *p, const cl_grid *g, double d, cl_inst *s, dm_err *err);
/* Folds each feature's instances of s (the fine set) that no miner can tell apart into
 * one (cl_merge.c): sites, points at the same place (x and y equal); twins, points with
 * the same neighbours among the other features' points (sites first: points at one place
 * are twins), their lists made on threads threads (0: every core). Each class is kept as
 * its first instance, weighing its points (s->weight), in cl_inst_fine's order, s->total
 * unchanged. Exact for the counts the refinement makes: twins take part in the same row
 * instances, and a row of classes stands for the product of their weights of rows of
 * points. (The filters' cell counts are the points': build the coarse set first.)
 * Returns 0, or DM_ERUNTIME without memory (s then fit only for cl_inst_free). */
int cl_inst_merge(cl_inst *s, cl_merge how, int threads, dm_err *err);
/* Fills s->cell_start and s->cell_items from s->col and s->row (a counting sort, so each
 * cell's instances stay ascending). Returns 0, or -1 without memory. */
int cl_inst_cells(cl_inst *s);
/* The coarse set made from the fine one (merged or not). Returns 0, or DM_ERUNTIME without memory. */
int cl_inst_coarse(const cl_inst *fine, cl_inst *s, dm_err *err);
void cl_inst_free(cl_inst *s);

static inline int cl_inst_near(const cl_inst *s, uint32_t a, uint32_t b)
{
    if (s->coarse) {
        int32_t dc = s->col[a] - s->col[b], dr = s->row[a] - s->row[b];
        return dc >= -1 && dc <= 1 && dr >= -1 && dr <= 1;
    }
    return cl_near(s->x[a], s->y[a], s->x[b], s->y[b], s->d2);
}

/* ---- parallel for -------------------------------------------------------------------- */

/* Runs fn(ctx, chunk) for chunk 0 .. nchunks-1 on up to threads threads (the caller one
 * of them), chunks taken in turn. Falls back to fewer threads when they cannot start. */
void cl_par_for(int threads, int nchunks, void (*fn)(void *ctx, int chunk), void *ctx);
/* The number of threads "0: all cores" means. */
int cl_par_cores(void);

/* ---- instance tables ----------------------------------------------------------------- */

/* The row instances of a size-k pattern: rows x k instance ids, one per feature in
 * feature order, rows sorted lexicographically. */
typedef struct cl_table {
    int k;
    uint64_t rows;
    uint32_t *ids;
} cl_table;

void cl_table_free(cl_table *t);

/* How a table's work splits in chunks (bounds from the work's size and the thread count;
 * one chunk for one thread) and the rows of each chunk, from the counting pass, so the
 * filling pass knows where each chunk writes (the paper's two-run output strategy). The
 * rows come out the same for any split. */
typedef struct cl_plan {
    int nchunks;
    uint64_t *lo;         /* nchunks + 1 bounds */
    uint64_t *chunk_rows; /* rows of each chunk */
    uint64_t rows;
} cl_plan;

/* The counting pass over pattern c's rows (features feat[0..k1-1] ascending, k1 >= 2) on
 * set s: c's participation index (fine set) or its multi-resolution bound (coarse set)
 * into *pi, the rows into plan. Size 2: from the grid, each instance of feat[0] against
 * the instances of feat[1] in the 3 x 3 cells around it. Size k1 > 2: the sort-merge join
 * of t1 (the table of feat[0..k1-2]) and t2 (of feat[0..k1-3], feat[k1-1]) on their
 * first k1 - 2 ids, their last ids neighbours. flags (s->n bytes) mark participation:
 * zero on entry, zero again on return. Returns 0, or DM_ERUNTIME without memory. */
int cl_table_count(const cl_inst *s, const int *feat, int k1, const cl_table *t1,
                   const cl_table *t2, int threads, uint8_t *flags, cl_plan *plan,
                   double *pi, dm_err *err);
/* The filling pass: the rows counted in plan, written into out (rows sorted
 * lexicographically). Returns 0, or DM_ERUNTIME without memory (out left empty). */
int cl_table_fill(const cl_inst *s, const int *feat, int k1, const cl_table *t1,
                  const cl_table *t2, int threads, const cl_plan *plan, cl_table *out,
                  dm_err *err);
void cl_plan_free(cl_plan *plan);

/* qsort's order of uint32_t values, ascending. */
int cl_cmp_u32(const void *a, const void *b);

/* ---- between levels ------------------------------------------------------------------- */

/* The size-(k+1) candidates from the prevalent patterns of size k, prev[0..nprev-1] (masks
 * in lexicographic order of their feature lists, so those sharing their first k - 1
 * features are neighbours): each pair sharing them, joined, when all its size-k subsets
 * are prevalent; size 2 (k = 1): every pair. Into *cands (lexicographic order); returns
 * how many, or -1 without memory. */
int cl_apriori(const uint64_t *prev, int nprev, int k, uint64_t **cands);
/* cl_apriori's size-(k+1) candidates from prev[0..nprev-1] into *cands, and, when there
 * are any, their level opened in r, undecided (bound and PI NAN), the first's index in r
 * into *base (*cap is r->cand's room, grown as needed) and the host's time for both into
 * the level's host_s. Returns how many (0: no level opened), or -1 without memory. */
int cl_next_candidates(cl_result *r, int64_t *cap, const uint64_t *prev, int nprev, int k,
                       uint64_t **cands, int64_t *base);

/* ---- the cell-aggregate filter (C) ---------------------------------------------------- */

/* The paper's Algorithm 2 bound on PI of the pattern mask, from the coarse set (occupied
 * cells with their counts) and the fine set's cell masks. See cl_filter.c. */
double cl_cellagg_bound(const cl_inst *fine, const cl_inst *coarse, uint64_t mask,
                        int threads);

#endif
