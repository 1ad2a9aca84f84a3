/* cl_grid.c - the grid of cell side d over the bounding box, and the instance sets on it:
 * the points (fine) and Huang et al.'s coarse instances, each with the list of the
 * instances of every cell. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_index.h"

int cl_grid_make(const cl_points *p, double d, cl_grid *g, dm_err *err)
{
    if (!(d > 0) || !isfinite(d))
        return dm_err_set(err, DM_EINPUT, "distance %g is not a positive number", d);
    g->minx = p->minx;
    g->miny = p->miny;
    g->side = d * (1 + CL_CELL_MARGIN);
    double cols = floor((p->maxx - p->minx) / g->side) + 2;
    double rows = floor((p->maxy - p->miny) / g->side) + 2;
    if (cols * rows > (double)CL_MAX_CELLS)
        return dm_err_set(err, DM_EINPUT,
                          "distance %g makes a grid of %.0f x %.0f cells over the bounding box, "
                          "more than %lld",
                          d, cols, rows, (long long)CL_MAX_CELLS);
    g->ncols = (int32_t)cols;
    g->nrows = (int32_t)rows;
    return 0;
}

int cl_inst_cells(cl_inst *s)
{
    size_t ncells = (size_t)s->grid.ncols * (size_t)s->grid.nrows;
    s->cell_start = calloc(ncells + 1, sizeof *s->cell_start);
    s->cell_items = malloc(((size_t)s->n + 1) * sizeof *s->cell_items);
    if (!s->cell_start || !s->cell_items)
        return -1;
    for (uint32_t i = 0; i < s->n; i++)
        s->cell_start[(size_t)s->row[i] * s->grid.ncols + s->col[i] + 1]++;
    for (size_t c = 0; c < ncells; c++)
        s->cell_start[c + 1] += s->cell_start[c];
    uint32_t *next = malloc(ncells * sizeof *next);
    if (!next)
        return -1;
    memcpy(next, s->cell_start, ncells * sizeof *next);
    for (uint32_t i = 0; i < s->n; i++)
        s->cell_items[next[(size_t)s->row[i] * s->grid.ncols + s->col[i]]++] = i;
    free(next);
    return 0;
}

/* Renumbers the fine set's instances so that each feature's are in cell order (row-major,
 * then by point), keeping x, y, col and row along and rebuilding the cell lists: the grid
 * search and the joins then touch memory in the order of the plane. Returns 0, or -1
 * without memory. */
static int cl_inst_sort(cl_inst *s, const double *x, const double *y)
{
    size_t ncells = (size_t)s->grid.ncols * (size_t)s->grid.nrows;
    uint32_t *perm = malloc(((size_t)s->n + 1) * sizeof *perm);
    int32_t *col = malloc(((size_t)s->n + 1) * sizeof *col);
    int32_t *row = malloc(((size_t)s->n + 1) * sizeof *row);
    s->x = malloc(((size_t)s->n + 1) * sizeof *s->x);
    s->y = malloc(((size_t)s->n + 1) * sizeof *s->y);
    if (!perm || !col || !row || !s->x || !s->y) {
        free(perm);
        free(col);
        free(row);
        return -1;
    }
    uint32_t next[CL_MAX_FEATURES];
    memcpy(next, s->start, sizeof next);
    for (size_t c = 0; c < ncells; c++) {
        int f = 0;
        for (uint32_t j = s->cell_start[c]; j < s->cell_start[c + 1]; j++) {
            uint32_t i = s->cell_items[j];
            while (i >= s->start[f + 1])
                f++;
            perm[next[f]++] = i;
        }
    }
    for (uint32_t i = 0; i < s->n; i++) {
        s->x[i] = x[perm[i]];
        s->y[i] = y[perm[i]];
        col[i] = s->col[perm[i]];
        row[i] = s->row[perm[i]];
    }
    free(perm);
    free(s->col);
    free(s->row);
    free(s->cell_start);
    free(s->cell_items);
    s->col = col;
    s->row = row;
    s->cell_start = s->cell_items = NULL;
    return cl_inst_cells(s);
}

int cl_inst_fine(const cl_points *p, const cl_grid *g, double d, cl_inst *s, dm_err *err)
{
    memset(s, 0, sizeof *s);
    s->nfeat = p->nfeat;
    s->n = p->n;
    memcpy(s->start, p->start, sizeof s->start);
    for (int f = 0; f < p->nfeat; f++)
        s->total[f] = p->start[f + 1] - p->start[f];
    s->d2 = d * d;
    s->grid = *g;
    s->col = malloc(((size_t)p->n + 1) * sizeof *s->col);
    s->row = malloc(((size_t)p->n + 1) * sizeof *s->row);
    size_t ncells = (size_t)g->ncols * (size_t)g->nrows;
    s->cell_mask = calloc(ncells, sizeof *s->cell_mask);
    if (!s->col || !s->row || !s->cell_mask)
        goto oom;
    for (int f = 0; f < p->nfeat; f++)
        for (uint32_t i = p->start[f]; i < p->start[f + 1]; i++) {
            s->col[i] = cl_grid_col(g, p->x[i]);
            s->row[i] = cl_grid_row(g, p->y[i]);
            s->cell_mask[(size_t)s->row[i] * g->ncols + s->col[i]] |= 1ULL << f;
        }
    if (cl_inst_cells(s) || cl_inst_sort(s, p->x, p->y))
        goto oom;
    return 0;
oom:
    cl_inst_free(s);
    return dm_err_set(err, DM_ERUNTIME, "out of memory for the grid of %u points", p->n);
}

int cl_inst_coarse(const cl_inst *fine, cl_inst *s, dm_err *err)
{
    memset(s, 0, sizeof *s);
    s->coarse = 1;
    s->nfeat = fine->nfeat;
    s->grid = fine->grid;
    memcpy(s->total, fine->total, sizeof s->total);
    size_t ncells = (size_t)fine->grid.ncols * (size_t)fine->grid.nrows;
    /* A feature's run of points in a cell is one coarse instance: count them by feature,
     * then lay them out feature by feature, in cell order. */
    uint32_t count[CL_MAX_FEATURES] = {0};
    for (size_t c = 0; c < ncells; c++)
        for (uint64_t m = fine->cell_mask[c]; m; m &= m - 1)
            count[__builtin_ctzll(m)]++;
    for (int f = 0; f < s->nfeat; f++)
        s->start[f + 1] = s->start[f] + count[f];
    s->n = s->start[s->nfeat];
    s->col = malloc(((size_t)s->n + 1) * sizeof *s->col);
    s->row = malloc(((size_t)s->n + 1) * sizeof *s->row);
    s->weight = malloc(((size_t)s->n + 1) * sizeof *s->weight);
    if (!s->col || !s->row || !s->weight)
        goto oom;
    uint32_t next[CL_MAX_FEATURES];
    memcpy(next, s->start, sizeof next);
    for (size_t c = 0; c < ncells; c++) {
        for (uint32_t j = fine->cell_start[c]; j < fine->cell_start[c + 1];) {
            uint32_t i = fine->cell_items[j];
            int f = 0;
            while (i >= fine->start[f + 1])
                f++;
            uint32_t run = 0;
            for (; j < fine->cell_start[c + 1] && fine->cell_items[j] < fine->start[f + 1]; j++)
                run += fine->weight ? fine->weight[fine->cell_items[j]] : 1;
            uint32_t at = next[f]++;
            s->col[at] = fine->col[i];
            s->row[at] = fine->row[i];
            s->weight[at] = run;
        }
    }
    if (cl_inst_cells(s))
        goto oom;
    return 0;
oom:
    cl_inst_free(s);
    return dm_err_set(err, DM_ERUNTIME, "out of memory for the coarse instances");
}

void cl_inst_free(cl_inst *s)
{
    free(s->x);
    free(s->y);
    free(s->weight);
    free(s->col);
    free(s->row);
    free(s->cell_start);
    free(s->cell_items);
    free(s->cell_mask);
    memset(s, 0, sizeof *s);
}
