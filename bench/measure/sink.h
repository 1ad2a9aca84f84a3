/* sink.h - where a run goes: the runner hands each run's fingerprint, notes, datasets and
 * points to a sink, which the results store implements (store_sink_make), so the engine
 * never includes the store. Every method returns 0, or DM_ERUNTIME with err set. */
#ifndef DM_SINK_H
#define DM_SINK_H

#include "cupti_dm.h"
#include "dm.h"
#include "measure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The part of a sweep a run carries out (`dmbench run --shard I/N`): the points whose
 * position idx in the expansion has idx % count == index - 1. count 0: the whole sweep. */
typedef struct dm_shard {
    int index, count;
} dm_shard;

/* The fingerprint of a run, written when it begins. Strings may be NULL or "". */
typedef struct dm_run_info {
    const char *host;
    const dm_device *device;   /* NULL: no GPU; then no_gpu_reason says why */
    const char *no_gpu_reason;
    double sm_clock_mhz_start; /* NAN when unknown */
    double mem_clock_mhz_start;
    const char *clock_source;
    const char *dmbench_version;
    const char *git_commit;
    int git_dirty;
    const char *build_flags;
    const char *argv;          /* the full command line, shell-quoted */
    const char *sweep_name;
    const char *sweep_path;
    const char *sweep_text;
    const char *workload;
    const char *baseline;      /* variant name or NULL */
    const dm_measure_opts *measure;
    int64_t points_total;      /* before pruning by constraints, of the whole sweep */
    int64_t points_planned;    /* after, of this run's shard */
    dm_shard shard;
} dm_run_info;

/* Everything known about one point, written at once. */
typedef struct dm_point_result {
    int64_t run_id;
    int64_t index;            /* position in the sweep's expansion */
    int64_t dataset_id;       /* 0 when no dataset was made (skipped points) */
    const dm_device *device;  /* the GPU it ran on; NULL: none */
    const dm_point *point;
    const char *status;       /* "ok", "failed", "skipped", "pruned" */
    const char *reason;       /* why not ok; NULL or "" when ok */
    const char *verify;       /* "match", "mismatch", "error", "not-run" */
    const char *verify_detail;
    const dm_measurement *m;  /* NULL when not timed */
    const dm_work *work;      /* NULL when unknown */
    double started, ended;    /* Unix seconds */
    const dm_cupti_point *cupti; /* kernel attributes, metrics, timeline; NULL: none */
    const dm_fact *facts;     /* of the last timed execution (dm_workload.facts) */
    int nfacts;
} dm_point_result;

/* What a resumed run must share with the process resuming it: the card (its UUID, ""
 * without a GPU), the build (commit, dirty tree, flags). */
typedef struct dm_run_origin {
    char gpu_uuid[64];
    char git_commit[64];
    int git_dirty;
    char build_flags[256];
} dm_run_origin;

typedef struct dm_sink_ops {
    /* Opens the destination; the runner calls it once the first dataset has loaded, so
     * bad input leaves nothing behind. */
    int (*open)(void *ctx, dm_err *err);
    /* For --resume: the newest unfinished run of the same sweep name, text and shard (0
     * in *run_id when none) and where it was measured; reopen marks it running again;
     * point_done says whether point idx of it is stored. */
    int (*find_resumable)(void *ctx, const char *sweep_name, const char *sweep_text,
                          dm_shard shard, int64_t *run_id, dm_run_origin *origin,
                          dm_err *err);
    int (*run_reopen)(void *ctx, int64_t run_id, dm_err *err);
    int (*point_done)(void *ctx, int64_t run_id, int64_t idx, int *done, dm_err *err);
    int (*run_begin)(void *ctx, const dm_run_info *info, int64_t *run_id, dm_err *err);
    int (*run_note)(void *ctx, int64_t run_id, const char *key, const char *value,
                    dm_err *err);
    /* Finds or records ds, giving its id. */
    int (*dataset)(void *ctx, const dm_dataset *ds, int64_t *dataset_id, dm_err *err);
    int (*point)(void *ctx, const dm_point_result *r, dm_err *err);
    /* status: "complete", "failed" or "interrupted". */
    int (*run_end)(void *ctx, int64_t run_id, const char *status, dm_err *err);
    /* Removes a run and everything under it (bad input found mid-run). */
    int (*run_discard)(void *ctx, int64_t run_id, dm_err *err);
    /* From another thread, while the run's own may be stuck inside a point: stores r (a
     * point that will not finish) and marks run r->run_id interrupted, on a connection
     * of its own, for the process to end right after. */
    int (*abandon)(void *ctx, const dm_point_result *r, dm_err *err);
    /* Closes and frees the sink (also when open was never called). */
    void (*close)(void *ctx);
} dm_sink_ops;

typedef struct dm_sink {
    const dm_sink_ops *ops;
    void *ctx;
} dm_sink;

/* Calls method m of sink with its context and the arguments. */
#define DM_SINK_CALL(sink, m, ...) ((sink)->ops->m((sink)->ctx, __VA_ARGS__))

#ifdef __cplusplus
}
#endif

#endif
