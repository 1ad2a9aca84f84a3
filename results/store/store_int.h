/* store_int.h - what the parts of the results database share (store.c writes, store_open.c
 * opens, checks and migrates, store_read.c, store_export.c and store_facts.c read back):
 * the connection with the writers' statements, the error helpers, the readers' helpers.
 * Private to results/store. */
#ifndef DM_STORE_INT_H
#define DM_STORE_INT_H

#include <sys/stat.h>

#include <sqlite3.h>

#include "store.h"

/* The statements the writers use, prepared once per connection. */
enum {
    SQL_RUN_BEGIN,
    SQL_RUN_END,
    SQL_RUN_DISCARD,
    SQL_RUN_NOTE,
    SQL_RUN_REOPEN,
    SQL_FIND_RESUMABLE,
    SQL_POINT_DONE,
    SQL_DATASET_INSERT,
    SQL_DATASET_FIND,
    SQL_POINT,
    SQL_PARAM,
    SQL_SAMPLE,
    SQL_STATS,
    SQL_VERIFY,
    SQL_LAUNCH,
    SQL_METRIC,
    SQL_KERNEL_ATTRS,
    SQL_ACTIVITY,
    SQL_TIMELINE,
    SQL_FACT,
    SQL_COUNT
};

struct dm_store {
    sqlite3 *db;
    char *path;
    sqlite3_stmt *stmt[SQL_COUNT];
};

/* Sets err to "PATH: what: SQLite's message" (what is a printf format) and returns
 * DM_ERUNTIME. Call before anything else touches the connection. */
int store_fail(dm_store *st, dm_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Runs sql (no results wanted). Returns 0, or DM_ERUNTIME saying what was being done. */
int store_exec(dm_store *st, const char *sql, dm_err *err, const char *what);
/* Ends an open transaction after a failure; err already holds the cause. */
void store_rollback(dm_store *st);

/* ---- the readers' helpers (store_read.c), for show and export ---- */

/* sql prepared with ?1 bound to id (when sql has a parameter); NULL on failure, with
 * the message left on the connection. */
sqlite3_stmt *store_read_prepare(dm_store *st, const char *sql, int64_t id);
/* Ends a read loop: 0 when the last step was SQLITE_DONE, else DM_ERUNTIME with err
 * saying what was being read. Finalizes s either way. */
int store_read_end(dm_store *st, sqlite3_stmt *s, int rc, const char *what, dm_err *err);
/* The index of the result column called name (a miss aborts: the queries name every
 * column they read), and its value. */
int store_col(sqlite3_stmt *s, const char *name);
const char *store_col_text(sqlite3_stmt *s, const char *name);
double store_col_real(sqlite3_stmt *s, const char *name); /* NAN when NULL */
int store_col_null(sqlite3_stmt *s, const char *name);
long long store_col_int(sqlite3_stmt *s, const char *name);
/* The run to read: run_id when it exists, the newest for 0. Returns 0 with *id,
 * DM_EINPUT ("no run N in PATH", "no runs in PATH") or DM_ERUNTIME. */
int store_resolve_run(dm_store *st, int64_t run_id, int64_t *id, dm_err *err);
/* Returns 0, or DM_ERUNTIME when writing to out failed. */
int store_check_output(dm_store *st, FILE *out, dm_err *err);

/* Room for a point's facts as text (a few hundred facts). */
#define STORE_FACTS_TEXT 16384
/* The statement store_facts_text reads with (NULL on failure, the message left on the
 * connection). */
sqlite3_stmt *store_facts_prepare(dm_store *st);
/* The facts of point point_id, read with q, as text into buf (n bytes): a part per run of
 * facts of one group, "size 2: candidates 78, pruned 3, filter_s 0.0123 s", the parts
 * joined by sep; "" when the point has none. Returns 0 or DM_ERUNTIME. */
int store_facts_text(dm_store *st, sqlite3_stmt *q, int64_t point_id, const char *sep,
                     char *buf, size_t n, dm_err *err);

/* Opens the database file at path read-only (sqlite3_open_v2's code; *db to close in
 * any case) so that nothing is written beside it: when no -wal, -shm or -journal file
 * is there (no other connection has it open), as immutable (*immutable 1: no locks, no
 * -wal or -shm made, and a read right only while nobody writes the file: compare its
 * stat before and after, store_file_same); else read-only with locks (*immutable 0). */
int store_reader_open(const char *path, sqlite3 **db, int *immutable);
/* 1 when two stats of one path show the same file, unwritten between them. */
int store_file_same(const struct stat *a, const struct stat *b);

#endif
