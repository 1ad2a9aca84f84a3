/* crossover.h - where a hybrid algorithm should switch kernels: for two variants over a
 * numeric axis, per group (another axis, e.g. the episode level N), the axis value where
 * their median curves cross, by linear interpolation between measured points, with a
 * bootstrap confidence interval from the raw samples (each problem, i.e. the other
 * problem parameters, separately); then crossover against group
 * fitted to a/N + b and a*N + b by least squares (the episodes papers' Table 1, Fig. 9),
 * with the variant that is faster below the crossover, so a hybrid knows which side
 * each kernel wins. */
#ifndef DM_CROSSOVER_H
#define DM_CROSSOVER_H

#include <stdio.h>

#include "store.h"

typedef struct dm_crossover_opts {
    const char *workload;
    const char *variant_a, *variant_b;
    const char *axis;  /* numeric axis the curves run over */
    const char *group; /* numeric grouping axis, or NULL for one group */
    const char *card;  /* NULL: the card of the newest run of the workload */
    int resamples;     /* bootstrap replicates (default 1000) */
    double level;      /* confidence level of the interval (default 0.95) */
    unsigned long seed;
} dm_crossover_opts;

typedef struct dm_crossover_group {
    char problem[256]; /* the problem key without the axis: one curve pair each */
    double group;      /* the group axis's value (0 without a group axis) */
    int npoints;       /* axis values where both variants were measured */
    int crossings;     /* sign changes of median_a - median_b along the axis */
    double x;          /* the first crossing; NAN when none in range */
    double lo, hi;     /* its bootstrap interval; NAN when none */
    double found;      /* fraction of replicates with a crossing */
    int a_faster_below; /* 1: variant a is faster below x, or (no crossing) at every axis
                           value measured; -1 without a crossing when neither is (no
                           points, or equal medians at every one) */
    double axis_lo, axis_hi; /* the axis values measured for both (NAN without any) */
} dm_crossover_group;

typedef struct dm_fit {
    const char *form;  /* "a/N + b" or "a*N + b" */
    double a, b, se_a, se_b, r2;
    int n;
} dm_fit;

typedef struct dm_crossover_result {
    char card[128];
    dm_crossover_group *g;
    size_t n;
    dm_fit fit[2];     /* a/N + b, a*N + b; n 0 when fewer than 2 groups cross */
    int better;        /* index of the better fit (higher R^2; a/N + b on equal or unknown
                          R^2), -1 when none */
    char below[64];    /* the variant faster below the crossover, when that is the same in
                          every group that crosses; "" otherwise */
} dm_crossover_result;

/* Computes the crossovers. Returns 0, DM_EINPUT when the workload has no ok points of
 * either variant with the axis on the card, or DM_ERUNTIME. */
int crossover_compute(dm_store *st, const dm_crossover_opts *o, dm_crossover_result *r,
                      dm_err *err);
void crossover_free(dm_crossover_result *r);

/* Least-squares fit of y to a*g(x) + b with g(x) = 1/x (inverse) or x. Returns 0, or -1
 * with fewer than 2 points. Two points give the line through both: se_a, se_b and r2 are
 * then NAN (unknown), as r2 is when every y is equal. */
int crossover_fit(const double *x, const double *y, int n, int inverse, dm_fit *f);

/* Stores both fits of r (when there are fits) in crossover_fits, for the card, in one
 * transaction, the better one marked, with r->below (NULL when ""), and under the
 * better one each group's crossing, or the variant faster all its range, in
 * crossover_groups (groups where neither was are left out). Returns 0,
 * DM_EINPUT when r has no fits (fewer than 2 groups crossed, or no group axis), or
 * DM_ERUNTIME. */
int crossover_store(dm_store *st, const dm_crossover_opts *o, const dm_crossover_result *r,
                    dm_err *err);

void crossover_print(const dm_crossover_result *r, const dm_crossover_opts *o, FILE *out);

/* SQL: the better form of the newest fit of workload ?1 per card, unordered variant pair,
 * axis and group, with the card's compute capability from its newest run that has one:
 * card, cc, variant_a, variant_b, axis, grp, form, a, b, r2, n, below, id. */
extern const char crossover_newest_sql[];
/* SQL: what each group of fit ?1 measured, in group order: grp_value, x, axis_lo,
 * axis_hi, faster. */
extern const char crossover_groups_sql[];

/* Writes workload's stored fits as the C header variants/<w>/fits.h defining
 * dm_crossover_fit_table (entries of bench/core/crossover_lookup.h's dm_crossover_fit,
 * ending with a zeroed one), which the workload's <w>_variants.c compiles in as its `fits`: for
 * each card (runs without a GPU left out), variant pair (either order), axis and group,
 * the better form of the newest fit stored, with the card's compute capability from its
 * newest run, and its groups' measurements (dm_crossover_measured arrays) when stored.
 * It names no other workload; source names the database in its comment.
 * Returns 0 with *rows the fits written (0: the table is empty), or DM_ERUNTIME when
 * reading fails. */
int crossover_write_header(dm_store *st, const char *workload, const char *source, FILE *out,
                           int *rows, dm_err *err);

#endif
