/* store.h - the results database (SQLite): runs with their fingerprints, datasets,
 * points with every parameter, raw samples, statistics, verification outcomes, and what
 * CUPTI gave (kernel attributes, metrics per launch, stream timelines).
 * The schema is results/store/schema.sql (compiled in); WAL mode and a busy timeout let two
 * dmbench processes write one database at once; each point is one transaction. */
#ifndef DM_STORE_H
#define DM_STORE_H

#include <stdio.h>

#include "dm.h"
#include "sink.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STORE_DEFAULT_PATH "results/dmbench.sqlite"

/* SQL for a point's ci95 as `dmbench show` prints it, over v_point_summary aliased s:
 * the stopping rule's figure where it judged the median, else the half-width of the
 * median's 95% confidence interval over the median. */
#define STORE_SQL_CI95                                                                  \
    "CASE WHEN s.criterion = 'median' THEN s.criterion_value WHEN s.median > 0"          \
    " THEN (s.median_hi - s.median_lo) / 2.0 / s.median END"

typedef struct dm_store dm_store;

/* The application id of dmbench's databases (PRAGMA application_id): "dmb1". */
#define STORE_APPLICATION_ID 0x646d6231

/* Checks the file at path before anything opens it to use (a new or empty file passes):
 * a directory or special file, a file that is not SQLite, a truncated or damaged one
 * (PRAGMA quick_check: every page of every table and index read and its structure
 * checked; its cost on a big database is in docs/records/store-checks.md), one that is not
 * dmbench's (another application id, or tables without dmbench's schema) or one of a
 * schema version newer than this build's is DM_EINPUT, one line saying what is wrong
 * and how to look. It reads through a read-only connection, immutable (no locks, no
 * -wal or -shm made beside it) when no other connection has the file open, so a refused
 * file keeps every byte and gets no file beside it. A file that passed is not read again
 * by this process (its later opens: the same device and inode). Returns 0, DM_EINPUT, or
 * DM_ERUNTIME. */
int store_check(const char *path, dm_err *err);
/* Checks (store_check), then opens (creating the file and its folders when missing) and
 * migrates the database to the current schema version; a database store_check refuses
 * is DM_EINPUT, and nothing is written to it. */
int store_open(const char *path, dm_store **out, dm_err *err);
/* As store_open, for commands that only read: the file is opened read-only, and written
 * only to migrate a dmbench database of an older version. A missing file is an error. */
int store_open_readonly(const char *path, dm_store **out, dm_err *err);
void store_close(dm_store *st);
/* 1 when a run recorded as running on host by process pid cannot be: it ran on this
 * host and that process is gone (killed before it could record its end). Queries on an
 * open store have it as SQL dm_process_gone(host, pid); opening a store to write marks
 * such runs 'interrupted'. */
int store_run_process_gone(const char *host, int64_t pid);
/* The schema version this build writes, and the one the open database has. */
int store_schema_version(void);
int store_db_version(dm_store *st, int *version, dm_err *err);
/* The underlying handle, for analysis queries (read-only use). */
struct sqlite3 *store_db(dm_store *st);
/* The path the database was opened with, as given (for messages). */
const char *store_path(const dm_store *st);


/* A sink (sink.h) that opens the database at path when the runner first needs it and
 * writes the run there; its close method closes the database and frees the sink.
 * Returns 0, or DM_ERUNTIME (out of memory). */
int store_sink_make(const char *path, dm_sink *out, dm_err *err);

int store_run_begin(dm_store *st, const dm_run_info *info, int64_t *run_id, dm_err *err);
/* status: "complete", "failed" or "interrupted". */
int store_run_end(dm_store *st, int64_t run_id, const char *status, dm_err *err);
/* Removes a run and everything stored under it (bad input found mid-run: nothing
 * half-written may stay). */
int store_run_discard(dm_store *st, int64_t run_id, dm_err *err);
/* A key/value note on a run (e.g. the calibration's plain cudaMemcpy figure). */
int store_run_note(dm_store *st, int64_t run_id, const char *key, const char *value,
                   dm_err *err);

/* For --resume: the newest run of the same sweep name, sweep text and shard that was
 * interrupted or failed (0 in *run_id when none) with its card and build in *origin, and
 * whether point index idx is stored. */
int store_find_resumable(dm_store *st, const char *sweep_name, const char *sweep_text,
                         dm_shard shard, int64_t *run_id, dm_run_origin *origin,
                         dm_err *err);
int store_point_done(dm_store *st, int64_t run_id, int64_t idx, int *done, dm_err *err);
/* Marks a run as running again (resume), keeping its fingerprint. */
int store_run_reopen(dm_store *st, int64_t run_id, dm_err *err);

/* Finds or inserts ds (same name, params, path and hash), returning its id. */
int store_dataset(dm_store *st, const dm_dataset *ds, int64_t *dataset_id, dm_err *err);

/* Writes r (sink.h) in one transaction. */

int store_point(dm_store *st, const dm_point_result *r, int64_t *point_id, dm_err *err);

/* ---- merging databases (store_merge.c) ---- */

typedef struct store_merge_counts {
    int runs_copied;   /* runs written (a combined run counts once) */
    int runs_present;  /* runs skipped: one of their uid was here already */
    int runs_combined; /* shard runs folded into combined runs */
    int64_t points;    /* points written */
    int tuned_copied;  /* tuned choices written (new keys, or newer than the output's) */
    int tuned_present; /* tuned choices skipped: the output's of their key is as new */
    int fits_copied;   /* crossover fits written, with their groups */
    int fits_present;  /* crossover fits skipped: the output has them */
} store_merge_counts;

/* Copies every run of the dmbench databases at inputs[0..n) (each checked beforehand
 * with store_check: a damaged one fails the merge as DM_ERUNTIME) into st with everything
 * stored under it (notes, points and what hangs off them, their datasets), keeping its
 * fingerprint and uid; a run whose uid st has already is skipped, so merging twice
 * writes nothing the second time. Then each input's per-card store: its tuned choices
 * (the newest of each key kept, their runs renumbered) and crossover fits (each once). With combine, the shard runs (`run --shard I/N`) of
 * one sweep text, card model and build become one run (fingerprint of shard 1, a note
 * "shard.I" per shard, status the worst of theirs, uid made of theirs). One transaction:
 * on any error nothing is written. Returns 0; DM_EINPUT for an input that is missing,
 * not dmbench's, of another schema version or st itself, and with combine for a sweep
 * missing a shard, having one twice, or one still running; or DM_ERUNTIME. */
int store_merge(dm_store *st, const char *const *inputs, int n, int combine,
                store_merge_counts *counts, dm_err *err);

/* ---- reading back (show, export) ---- */

/* Writes a table of runs (id, started, sweep, workload, GPU, status, points) to out. */
int store_show_runs(dm_store *st, FILE *out, dm_err *err);
/* Writes a run's fingerprint and a table of its points with statistics and speedup
 * against the baseline. run_id 0 means the newest run. */
int store_show_run(dm_store *st, int64_t run_id, FILE *out, dm_err *err);
/* Writes a run's points (parameters, status, verification, statistics, speedup, and
 * with json also the raw samples) as CSV or JSON. run_id 0 means the newest run. */
typedef enum dm_export_format { DM_EXPORT_CSV, DM_EXPORT_JSON } dm_export_format;
int store_export(dm_store *st, int64_t run_id, dm_export_format fmt, FILE *out, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
