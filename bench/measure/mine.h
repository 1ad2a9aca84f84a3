/* mine.h - one point run once for its answer (`dmbench mine`): the point made as a sweep
 * would make it, its dataset, the variant run on the device's stream, its output checked
 * against the workload's CPU reference, then written by the workload's result writer. */
#ifndef DM_MINE_H
#define DM_MINE_H

#include <stdio.h>

#include "dm.h"

typedef struct dm_mine_opts {
    const dm_workload *workload;
    const dm_variant *variant;
    const char *const *params;     /* "NAME=VALUE", applied in order over the defaults */
    int nparams;
    const dm_data_source *source;  /* a generator of the workload, or a file */
    int device;                    /* the GPU to use, when there is one */
    int verify;                    /* 1: compare the output with the CPU reference */
    FILE *facts;                   /* where the run's facts go, a line per group (NULL:
                                    * nowhere), after its result was written */
} dm_mine_opts;

/* What mine_point ran on. */
typedef struct dm_mined {
    dm_point pt;      /* the point (defaults, tuned and resolved values filled in) */
    char data[128];   /* the data: the file's base name or the generator (dm_dataset) */
    char shape[128];  /* what they hold as loaded or made ("4177 instances, 9 attributes") */
} dm_mined;

/* Runs o->variant once at the point of o->params on o->source (verified unless
 * o->verify is 0) and writes its result to f as CSV, after a first line "# BOUND" when
 * the point's answer is a bound of the exact one (BOUND: dm_point_bound, "upper bounds:
 * ..."); *ran says what it ran on. Nothing is written to f unless the run and its
 * verification succeeded. Returns 0; DM_EINPUT for bad input (a parameter name or value,
 * a point the variant refuses, a dataset file, a device index beyond the GPUs);
 * DM_ENOGPU when the variant needs a GPU and there is none; DM_ERUNTIME when the run
 * fails, its output differs from the reference (err names the first difference), or
 * a write fails. */
int mine_point(const dm_mine_opts *o, FILE *f, dm_mined *ran, dm_err *err);

#endif
