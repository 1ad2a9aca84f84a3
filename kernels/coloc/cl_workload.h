/* cl_workload.h - the coloc workload's side of the contract (dm.h): its dataset (points
 * loaded from a file of either format, or made by the generator `synthetic`), the mining
 * options of a point, the CPU reference, the exact comparison, the result writer and the
 * facts of a mining run, for variants/coloc. */
#ifndef DM_CL_WORKLOAD_H
#define DM_CL_WORKLOAD_H

#include <stdio.h>

#include "coloc/coloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a variant's output() gives and the reference holds: a mining result and the
 * points it was mined from (their features' original IDs name the patterns). */
typedef struct cl_answer {
    const cl_points *p;
    cl_result r;
} cl_answer;

/* The filter named "none", "M" or "C" (a variant's `filter` parameter) into *f. Returns
 * 0, or -1 for another name. */
int cl_filter_named(const char *name, cl_filter *f);
/* The merge named "none", "sites" or "twins" (the GPU variants' `merge`) into *m. Returns
 * 0, or -1 for another name. */
int cl_merge_named(const char *name, cl_merge *m);

/* The mining options of pt (its problem parameters `distance` and `prevalence`) with
 * filter and threads (1: one thread; 0: all cores). */
cl_mine_opts cl_point_opts(const dm_point *pt, cl_filter filter, int threads);

/* The dataset: src->path read as the seattle2012.csv format when its first line is a
 * count alone, else as plain "feature,x,y" CSV; or the generator `synthetic` with pt's
 * dataset parameters (cl_generate, the paper's neighbourhood d = 10 for planting).
 * ds->data is a cl_points. Returns 0; DM_EINPUT naming the file and line, the generator
 * or the parameter; DM_ERUNTIME without memory. */
int cl_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                    dm_err *err);
void cl_dataset_close(dm_dataset *ds);

/* The reference: cl_mine with filter M on all cores (see cl_workload.c for why); *ref is
 * a cl_answer freed by cl_reference_free. */
int cl_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err);
void cl_reference_free(void *ref);

/* 0 when out (a cl_answer) has ref's prevalent patterns with bit-identical PI values,
 * else 1 with why naming the first difference (cl_result_compare). */
int cl_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n);

/* "size,features,pi" then a row per prevalent pattern, by size, then in the features'
 * order of first appearance in the data: its size, its features' original IDs sorted
 * (numerically where both are integers) and joined by '+', its PI as the shortest text
 * that reads back as the same double. Returns 0, or DM_ERUNTIME when a write fails. */
int cl_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err);

/* Per pattern size ("size 3"): candidates, pruned by the filter, prevalent, the rows of
 * the candidates refined, and the wall time of the filter, of the refinement (instance
 * tables) and of the host's work making the level (filter_s, refine_s, host_s); from the
 * GPU miner also its device costs (cl_dev_costs: tested, allocs, alloc_s, waits, wait_s,
 * copies, copy_bytes, copy_s). Then "all": wall_s, the whole mining call, and from the
 * GPU miner instances (the fine set's, after its merge) and merge_s (the merge's time at
 * setup, outside wall_s). */
int cl_facts(const void *out, const dm_point *pt, dm_fact *f, int max);

#ifdef __cplusplus
}
#endif

#endif
