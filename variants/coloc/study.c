/* study.c - the coloc workload's study (Sainju & Jiang, SSTD 2017): the paper, the
 * tables and figures its sweeps measure, and the default sweep. No claims yet: each of
 * the paper's is a speedup of a GPU variant (M or C filter, G or H refinement) over the
 * CPU baseline, and judging one honestly needs those variants' medians, which come with
 * them. */
#include "study.h"

#define CL_PAPER "colocation-grid-gpu-sstd17"

static const dm_paper coloc_papers[] = {
    { .file = CL_PAPER, .cite = "Sainju & Jiang, SSTD 2017" },
    { 0 },
};

/* Table 1 is the filter and refinement times at the largest point of Figs. 6(a) and 6(b);
 * the Fig. 6(a) sweep measures its clumpiness-1 half (2,000,000 instances), the Fig. 6(b)
 * sweep its clumpiness-20 half (250,000). Table 2 is
 * Fig. 7's point at theta = 0.3, which the Table 2 sweep runs with the rest of Fig. 7's
 * thresholds. A sweep measures one target (`dmbench reproduce` finds the target of a
 * run by its sweep), so Figs. 6(a) and 7 are read from these two targets' grids. */
static const dm_target coloc_targets[] = {
    { .name = "colocation-table1", .paper = CL_PAPER, .item = "Table 1", .table = "Table 1",
      .caption = "filter and refinement times on synthetic data (theta = 0.5); measured: "
                 "clumpiness 1 at 250,000 to 2,000,000 instances, the table's row at 2M "
                 "(its clumpiness-20 row, at 250k, is the last row of colocation-fig6b); the "
                 "grid is Fig. 6(a)",
      .sweep = "coloc-fig6a", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
      .col_axis = "clumpiness" },
    { .name = "colocation-table2", .paper = CL_PAPER, .item = "Table 2", .table = "Table 2",
      .caption = "filter and refinement times on the Seattle crime data (d = 10, theta = "
                 "0.3); measured with Fig. 7's thresholds 0.3 to 0.9, the grid is Fig. 7(b)'s "
                 "times",
      .sweep = "coloc-table2", .kind = DM_TARGET_FIGURE, .row_axis = "prevalence",
      .col_axis = "distance" },
    { .name = "colocation-fig6b", .paper = CL_PAPER, .item = "Fig. 6(b)",
      .caption = "times on synthetic data at clumpiness 20, 50,000 to 250,000 instances (theta "
                 "= 0.5); the row at 250k is Table 1's clumpiness-20 row",
      .sweep = "coloc-fig6b", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
      .col_axis = "clumpiness" },
    { .name = "colocation-fig6c", .paper = CL_PAPER, .item = "Fig. 6(c)",
      .caption = "times on synthetic data of 250,000 instances, clumpiness 1 to 20 (theta = "
                 "0.5)",
      .sweep = "coloc-fig6c", .kind = DM_TARGET_FIGURE, .row_axis = "clumpiness",
      .col_axis = "instances" },
    { 0 },
};

const dm_study coloc_study = {
    .papers = coloc_papers,
    .targets = coloc_targets,
    .default_sweep = "coloc-table2",
};
