/* runner.h - runs an expanded sweep: for each point, make the dataset, verify the variant
 * against the workload's CPU reference, then measure it, then (GPU points, when asked)
 * profile and trace it in passes of their own, and store the point; the CLI holds no
 * measurement logic. */
#ifndef DM_RUNNER_H
#define DM_RUNNER_H

#include "cupti_dm.h"
#include "dm.h"
#include "progress.h"
#include "sink.h"
#include "sweep.h"

typedef struct dm_run_opts {
    const dm_sink *sink;       /* where the run goes; runner_run closes it */
    int resume;                /* continue the newest unfinished run of this sweep */
    int force_new_run;         /* with resume: start anew where that run's card or build
                                * differs from this one's, instead of refusing */
    dm_progress_style progress;
    const char *argv_text;     /* the full command line, for the fingerprint */
    const char *sweep_key;     /* sweep text plus overrides: what --resume matches */
    const dm_device *device;   /* NULL: no GPU; with devices, devices[0] */
    /* ndevices > 1: a worker thread per device (NULL: a worker without a GPU), taking
     * points from one queue, this thread writing them; no CUPTI (metrics, timeline,
     * kernel attributes): profiling is one GPU's at a time */
    const dm_device *const *devices;
    int ndevices;
    const char *no_gpu_reason;
    const cupti_metric_list *metrics; /* checked; NULL or empty: no profiling pass */
    int timeline;              /* 1: a trace pass after each GPU point is timed */
    dm_shard shard;            /* the points to run (sink.h); count 0: all of them */
    /* > 0: a point still running after this many seconds (its dataset, reference,
     * verification and samples) is stored as failed, the run as interrupted, and the
     * process ends (exit 1): a hung kernel cannot be stopped any other way */
    double point_timeout;
} dm_run_opts;

typedef struct dm_run_result {
    int64_t run_id;
    size_t ok, failed, skipped, pruned, resumed;
    int interrupted;
    /* Set when a GPU point left the CUDA context unusable (device_context_lost): the run
     * stopped there, interrupted, for a new process to resume; says which error. */
    char context_lost[256];
} dm_run_result;

/* 1 when point idx of an expansion belongs to shard (every point does when its count is
 * 0). */
int runner_in_shard(dm_shard shard, size_t idx);
/* The points of e in shard that constraints and supports kept. */
size_t runner_shard_planned(const dm_expansion *e, dm_shard shard);
/* The indices of e's points in shard that constraints kept, in the order a run carries
 * them out (by dataset, then problem, then expansion order), their number in *count;
 * NULL when out of memory (run_order.c). */
size_t *runner_order(const dm_expansion *e, dm_shard shard, size_t *count);

/* The run's record (run_record.c). 1 when s has a variant that needs a GPU. */
int runner_has_gpu_variants(const dm_sweep *s);
/* The run of sweep s (workload w, expansion e) begun in sink, or with o->resume its
 * unfinished run reopened where this process may continue it (else refused naming why,
 * or, with o->force_new_run, a new one begun), its id to *run_id; what it does is said on
 * progress. mc gives the clocks at its start. Returns 0, DM_EINPUT when the run cannot
 * be resumed here, or the sink's status. */
int runner_record_begin(const dm_sink *sink, const dm_sweep *s, const dm_workload *w,
                        dm_progress *progress, dm_measure_ctx *mc, const dm_expansion *e,
                        const dm_run_opts *o, int64_t *run_id, dm_err *err);
/* Notes every property of dev on run run_id as "device.NAME" (the sweep constraints'
 * names), so that tables of card facts can be read back from the database. Returns 0
 * or DM_ERUNTIME. */
int runner_note_device(const dm_sink *sink, int64_t run_id, const dm_device *dev, dm_err *err);
/* Notes on run run_id what CUPTI was asked for (metrics when profile, a timeline when
 * trace) and whether cupti can give it. Returns 0 or DM_ERUNTIME. */
int runner_note_cupti(const dm_sink *sink, int64_t run_id, dm_cupti *cupti, int profile,
                      int trace, const cupti_metric_list *metrics, dm_err *err);

/* Runs the points of e (an expansion of s) in o->shard, on o->device or o->devices,
 * into o->sink, closing it at the end, and
 * returns counts in res. Returns 0 when the run was carried out (points may still have failed:
 * see res), DM_EINPUT for bad input found while running (a dataset file; the run's rows
 * are then removed), or DM_ERUNTIME (the sink). SIGINT stops after the current
 * point, marking the run interrupted; so does a GPU point that loses the CUDA context
 * (res->context_lost), after storing that point as failed with why. */
int runner_run(const dm_sweep *s, const dm_expansion *e, const dm_run_opts *o,
               dm_run_result *res, dm_err *err);

#endif
