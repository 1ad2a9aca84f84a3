/* store_merge_int.h - what the two halves of `dmbench merge` share: store_merge.c copies
 * the runs, store_merge_cards.c the per-card store (tuned choices and crossover fits),
 * through the same prepared row copies. Internal to results/store. */
#ifndef DM_STORE_MERGE_INT_H
#define DM_STORE_MERGE_INT_H

#include <stdint.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "store_int.h"

#define MERGE_MAX_TABLES 32
#define MERGE_MAX_COLS 64

/* A value for one column of an inserted row: the source row's, NULL, or one given. */
typedef enum merge_kind { MERGE_KEEP, MERGE_NULL, MERGE_INT, MERGE_TEXT } merge_kind;
typedef struct merge_val {
    merge_kind kind;
    int64_t i;
    const char *text;
} merge_val;

/* A prepared copy of a table's rows from one database to another: sel reads every column
 * of the rows that match ?1, ins writes them with the columns named in set (in order)
 * taking the caller's values instead, and the column omit (an INTEGER PRIMARY KEY, made
 * anew) left out. */
typedef struct merge_copy {
    sqlite3_stmt *sel, *ins;
    int ncols;
    int set_of[MERGE_MAX_COLS]; /* per column: its index in set, or -1 */
    int omit;                   /* the column left out of ins, or -1 */
} merge_copy;

/* One input database, and the copies made from it. */
typedef struct merge_src {
    const char *path;
    sqlite3 *db;
    struct stat seen; /* the file when opened */
    int immutable;    /* read as immutable (store_reader_open): it must stay as seen */
    merge_copy runs, points, under_runs[MERGE_MAX_TABLES], under_points[MERGE_MAX_TABLES];
    int nunder_runs, nunder_points;
    sqlite3_stmt *dataset; /* a dataset's identifying columns by id */
    int64_t ds_from, ds_to; /* the last dataset copied: its id here and in the output */
    int64_t (*run_to)[2];  /* [k] = { a run's id here, the id it has in the output } */
    size_t nrun_to, caprun_to;
} merge_src;

typedef struct merge_ctx {
    dm_store *st;
    sqlite3 *db; /* the output's */
    store_merge_counts *counts;
    dm_err *err;
} merge_ctx;

/* Sets err to "PATH: what: SQLite's message of db" and returns DM_ERUNTIME. */
int merge_fail(sqlite3 *db, const char *path, dm_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Column i of s's row as text, "" for NULL. */
const char *merge_col_str(sqlite3_stmt *s, int i);
/* Prepares c for table: rows of src where `where` (SQL with ?1) holds, into dst, with
 * the columns named in set[0..nset) given by the caller and omit (or NULL) left out.
 * Returns 0 or DM_ERUNTIME. */
int merge_copy_make(merge_copy *c, sqlite3 *dst, merge_src *src, const char *table,
                    const char *where, const char *const *set, int nset, const char *omit,
                    dm_err *err);
void merge_copy_free(merge_copy *c);
/* The column index of name in c's rows, or -1. */
int merge_copy_col(const merge_copy *c, const char *name);
/* Inserts the current row of c->sel with the set columns taking vals. Returns
 * SQLITE_DONE or an SQLite error code. */
int merge_copy_row(merge_copy *c, const merge_val *vals);
/* Copies every row of c matching key with its one set column given the value to.
 * Returns 0 or DM_ERUNTIME. */
int merge_copy_all(merge_ctx *m, merge_src *src, merge_copy *c, int64_t key, int64_t to);
/* Prepares a copy of every table that refers to parent (by a foreign key) other than
 * those named in skip, keyed by the referring column. Returns 0 or DM_ERUNTIME. */
int merge_copies_under(merge_src *src, sqlite3 *dst, const char *parent, const char *skip,
                       merge_copy *out, int *n, dm_err *err);

/* store_merge_cards.c: copies src's tuned choices (a choice replaces the output's of the
 * same key only when newer; the runs it names renumbered through src->run_to) and its
 * crossover fits with their groups (a fit the output has, same card, pair, axis, group,
 * form and time, is not copied again), after src's runs were merged. Returns 0 or
 * DM_ERUNTIME. */
int merge_cards(merge_ctx *m, merge_src *src);

#endif
