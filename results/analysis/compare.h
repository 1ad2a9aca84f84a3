/* compare.h - two runs, point by point: for every point of run A with a match in run B
 * (same variant and parameters), a Mann-Whitney U test on the raw samples and the ratio
 * of medians decide faster / slower / same. */
#ifndef DM_COMPARE_H
#define DM_COMPARE_H

#include <stdio.h>

#include "store.h"

typedef struct dm_compare_opts {
    double alpha;     /* significance level of the test (default 0.05) */
    double threshold; /* smallest relative change of the median that counts (0.02) */
    int allow_capped; /* judge points that stopped on a limit before their noise target */
} dm_compare_opts;

typedef struct dm_compare_summary {
    size_t matched, faster, slower, same;
    size_t capped; /* a change not called: a side stopped on a limit, noise unreached */
    size_t only_a, only_b; /* ok points without a match in the other run */
} dm_compare_summary;

typedef enum dm_verdict { DM_SAME = 0, DM_FASTER, DM_SLOWER, DM_CAPPED } dm_verdict;

/* The verdict for B against A: slower when the test says the samples differ (p < alpha)
 * and B's median exceeds A's by more than threshold; faster likewise below; capped
 * instead of either when a side stopped sampling on a limit (capped_a, capped_b) before
 * reaching its noise target, unless o->allow_capped. */
dm_verdict compare_verdict(double median_a, double median_b, double p, int capped_a,
                           int capped_b, const dm_compare_opts *o);

/* Compares run b against run a (0 means the newest run), printing a table and a summary
 * line to out and filling sum. Returns 0, DM_EINPUT for an unknown run, or DM_ERUNTIME. */
int compare_runs(dm_store *st, int64_t a, int64_t b, const dm_compare_opts *o, FILE *out,
                 dm_compare_summary *sum, dm_err *err);

#endif
