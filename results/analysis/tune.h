/* tune.h - the best threads-per-block value per card, variant and problem-size bucket,
 * from the results database, never decided on noise: values whose samples a
 * Mann-Whitney U test cannot tell from the best, or whose median is within a tolerance
 * of it, are ties, and the smallest block size among the ties wins. */
#ifndef DM_TUNE_H
#define DM_TUNE_H

#include <stdio.h>

#include "store.h"

typedef struct dm_tune_opts {
    const char *workload; /* a workload, or several joined by commas ("w1,w2") */
    const char *variant; /* NULL: every variant with the axis */
    const char *axis;    /* the block-size parameter, "block" by default */
    double alpha;        /* the test's level: p >= alpha is a tie (0.05) */
    double tolerance;    /* medians within this fraction of the best tie (0.01) */
} dm_tune_opts;

typedef struct dm_tune_cand {
    int64_t block, point_id, run_id;
    double median;
    size_t n;
    double p;   /* the test against the best's samples (1 for the best itself) */
    int tie;    /* indistinguishable from the best (the best counts as one) */
} dm_tune_cand;

typedef struct dm_tune_choice {
    char workload[32];
    char card[128];
    char cc[16];
    char variant[64];
    char bucket[512]; /* the point's parameters without the axis */
    dm_tune_cand *cand; /* by block size */
    size_t ncand;
    size_t best;        /* index of the lowest median */
    size_t chosen;      /* index of the smallest tie */
} dm_tune_choice;

typedef struct dm_tune_result {
    dm_tune_choice *c;
    size_t n;
} dm_tune_result;

/* Tunes every (workload, card, variant, bucket) of o->workload with at least one ok GPU point,
 * using the newest point for each block value. Returns 0 (r->n may be 0), or
 * DM_ERUNTIME. */
int tune_compute(dm_store *st, const dm_tune_opts *o, dm_tune_result *r, dm_err *err);
void tune_free(dm_tune_result *r);

/* A table of the choices; with explain, every candidate with its median, sample count,
 * p-value against the best and whether it tied. */
void tune_print(const dm_tune_result *r, const dm_tune_opts *o, int explain, FILE *out);
/* The choices as JSON. */
void tune_write_json(const dm_tune_result *r, const dm_tune_opts *o, FILE *out);
/* 1 when c chose between values: its bucket was measured at two or more (one value is
 * no choice, and is neither stored nor written into a header). */
int tune_is_choice(const dm_tune_choice *c);

/* The choices of workload (one of o->workload's) as the C header variants/<w>/tuned.h
 * defining dm_tuned_table (entries of bench/core/tuned_lookup.h's dm_tuned), which the
 * workload's <w>_variants.c compiles in as its `tuned`: the sweep expansion consults it when a
 * sweep leaves the block size open; buckets measured at one value only are left out
 * (tune_is_choice). It names no other workload; source names the database in its
 * comment. Returns the number of choices written (0: the table is empty). */
int tune_write_header(const dm_tune_result *r, const dm_tune_opts *o, const char *workload,
                      const char *source, FILE *out);

#endif
