/* scaling.h - several GPUs against one, within a run: each verified point of a variant
 * that ran on more than one GPU (its `gpus` parameter above 1, the multi-GPU contract of
 * docs/adding-a-workload.md) against the fastest verified point of the same problem in
 * the same run on one GPU, of any variant that needs a GPU (its `gpus` absent or 1), and,
 * beside it and labelled, against its own variant at gpus=1 with every other parameter
 * equal. Every multi-GPU speedup `show` and the report print is this one. */
#ifndef DM_SCALING_H
#define DM_SCALING_H

#include <stdio.h>

#include "store.h"

typedef struct scaling_row {
    int64_t point_id, idx;
    char variant[64];
    char params[1024];
    int64_t gpus;
    double median;
    /* The fastest verified one-GPU point of the problem (NAN, "": none in the run). */
    char best_variant[64];
    char best_params[1024];
    double best_median;
    double own_median; /* its variant at gpus=1, the rest equal (NAN: not in the run) */
} scaling_row;

/* The rows of run (0: the newest; its multi-GPU points in sweep order) into *rows (malloc'd; NULL when
 * none), *n of them. Returns 0, or DM_ERUNTIME with err set. */
int scaling_rows(dm_store *st, int64_t run, scaling_row **rows, size_t *n, dm_err *err);

/* Writes rows[0..n) as `show` prints them (nothing when n is 0). */
void scaling_print(const scaling_row *rows, size_t n, FILE *out);

#endif
