/* calibrate.h - runs a workload's calibration (dm_calibration, dm.h): its sweep through
 * the engine into the store, the plain measurement beside it, and the comparison, noted
 * on the run. The CLI only prints what comes back. */
#ifndef DM_CALIBRATE_H
#define DM_CALIBRATE_H

#include "dm.h"
#include "progress.h"

#define CALIBRATE_MAX 8

typedef struct calibrate_opts {
    const dm_workload *w;      /* has a calibration */
    const dm_device *device;
    const char *db_path;
    int64_t bytes;             /* per array */
    dm_progress_style progress;
} calibrate_opts;

typedef struct calibrate_line {
    const char *variant;
    double gbps;               /* best over the variant's points; NAN when none ran */
    double ratio;              /* gbps / plain */
    int within;                /* |ratio - 1| <= tolerance */
    char params[512];          /* the best point's parameters */
} calibrate_line;

typedef struct calibrate_result {
    int64_t run_id;
    size_t failed;             /* points that failed (then no comparison is made) */
    double plain;              /* GB/s */
    int n;
    calibrate_line lines[CALIBRATE_MAX];
    int ok;                    /* every line within tolerance */
} calibrate_result;

/* Runs o->w's calibration into o->db_path and compares; the figures and the verdict are
 * noted on the run (plain_gbps, engine_<variant>_gbps, calibration). Returns 0 when the
 * comparison was made or points failed (r->failed), DM_EINPUT for bad options, or
 * DM_ERUNTIME (CUDA, the database). */
int calibrate_run(const calibrate_opts *o, calibrate_result *r, dm_err *err);

#endif
