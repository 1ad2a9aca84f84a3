/* mwu.h - the Mann-Whitney U test on two sets of raw samples, which tells whether one
 * configuration's times are distinguishable from another's without assuming normal
 * noise. Used by `dmbench tune` (ties) and `dmbench compare` (verdicts). */
#ifndef DM_MWU_H
#define DM_MWU_H

#include <stddef.h>

typedef struct dm_mwu {
    double u;     /* U of x: pairs (xi, yj) with xi > yj, ties counting one half */
    double z;     /* normal approximation with tie and continuity corrections */
    double p;     /* two-sided p-value; 1 when every value is equal */
    double cles;  /* common-language effect size: P(x > y) + P(x = y) / 2 = u / (nx ny) */
} dm_mwu;

/* Tests x[0..nx) against y[0..ny). Returns 0, or -1 when either set is empty or memory
 * runs out. The normal approximation is used at every size; with fewer than about 8
 * samples per set the p-value is a rough guide only. */
int mwu_test(const double *x, size_t nx, const double *y, size_t ny, dm_mwu *out);

#endif
