/* store_merge.c - `dmbench merge`: copies the runs of other dmbench databases into this
 * one, each with everything stored under it, in one transaction; a run is known by its
 * uid, so one already here is never copied twice. With combine, the shard runs of one
 * sweep (`run --shard I/N`) become one run. Tables are found through their foreign keys,
 * so a table the schema adds under runs or points is copied without a word here. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "store_merge_int.h"

#define MERGE_UID_MAX 64
#define MERGE_KEY_MAX 256

/* The columns of a run that a combined run sets (merge_combined); a plain copy keeps
 * them all. */
enum { RUN_UID, RUN_SHARD_INDEX, RUN_SHARD_COUNT, RUN_STATUS, RUN_STARTED, RUN_ENDED,
       RUN_PLANNED, RUN_NSET };
static const char *const merge_run_set[RUN_NSET] = {
    [RUN_UID] = "uid", [RUN_SHARD_INDEX] = "shard_index", [RUN_SHARD_COUNT] = "shard_count",
    [RUN_STATUS] = "status", [RUN_STARTED] = "started_at", [RUN_ENDED] = "ended_at",
    [RUN_PLANNED] = "points_planned",
};

/* A run of an input, as the merge sees it. */
typedef struct merge_run {
    merge_src *src;
    int64_t id, planned;
    char uid[MERGE_UID_MAX];
    int shard_index, shard_count; /* 0, 0: a whole sweep */
    char status[16], started[40], ended[40], host[256], gpu_uuid[64];
    char group[MERGE_KEY_MAX];    /* combine: equal for the shards of one sweep and origin */
} merge_run;

int merge_fail(sqlite3 *db, const char *path, dm_err *err, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dm_err_set(err, DM_ERUNTIME, "%s: %s: %s", path, what, sqlite3_errmsg(db));
}

const char *merge_col_str(sqlite3_stmt *s, int i)
{
    const char *t = (const char *)sqlite3_column_text(s, i);
    return t ? t : "";
}

/* ---- copying rows ---- */

void merge_copy_free(merge_copy *c)
{
    sqlite3_finalize(c->sel);
    sqlite3_finalize(c->ins);
    memset(c, 0, sizeof *c);
}

/* Prepares c for table: rows of src where `where` (SQL with ?1) holds, into dst, with
 * the columns named in set[0..nset) given by the caller and omit (or NULL) left out.
 * Returns 0 or DM_ERUNTIME. */
int merge_copy_make(merge_copy *c, sqlite3 *dst, merge_src *src, const char *table,
                    const char *where, const char *const *set, int nset, const char *omit,
                    dm_err *err)
{
    char sel[4096], ins[4096], vals[1024];
    sqlite3_stmt *cols = NULL;
    memset(c, 0, sizeof *c);
    c->omit = -1;
    snprintf(sel, sizeof sel, "SELECT ");
    snprintf(ins, sizeof ins, "INSERT INTO \"%s\" (", table);
    vals[0] = '\0';
    if (sqlite3_prepare_v2(src->db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", -1,
                           &cols, NULL) != SQLITE_OK ||
        sqlite3_bind_text(cols, 1, table, -1, SQLITE_STATIC) != SQLITE_OK) {
        sqlite3_finalize(cols);
        return merge_fail(src->db, src->path, err, "reading the columns of %s", table);
    }
    int rc;
    while ((rc = sqlite3_step(cols)) == SQLITE_ROW && c->ncols < MERGE_MAX_COLS) {
        const char *name = merge_col_str(cols, 0);
        int i = c->ncols++;
        c->set_of[i] = -1;
        for (int k = 0; k < nset; k++)
            if (strcmp(set[k], name) == 0)
                c->set_of[i] = k;
        dm_append(sel, sizeof sel, "%s\"%s\"", i ? ", " : "", name);
        if (omit && strcmp(omit, name) == 0) {
            c->omit = i;
            continue;
        }
        dm_append(ins, sizeof ins, "%s\"%s\"", vals[0] ? ", " : "", name);
        dm_append(vals, sizeof vals, "%s?%d", vals[0] ? ", " : "", i + 1);
    }
    sqlite3_finalize(cols);
    if (rc != SQLITE_DONE)
        return rc == SQLITE_ROW
                   ? dm_err_set(err, DM_ERUNTIME, "%s: table %s has more than %d columns",
                                src->path, table, MERGE_MAX_COLS)
                   : merge_fail(src->db, src->path, err, "reading the columns of %s", table);
    dm_append(sel, sizeof sel, " FROM \"%s\" WHERE %s", table, where);
    dm_append(ins, sizeof ins, ") VALUES (%s)", vals);
    if (sqlite3_prepare_v2(src->db, sel, -1, &c->sel, NULL) != SQLITE_OK)
        return merge_fail(src->db, src->path, err, "reading table %s", table);
    if (sqlite3_prepare_v2(dst, ins, -1, &c->ins, NULL) != SQLITE_OK)
        return merge_fail(dst, sqlite3_db_filename(dst, "main"), err,
                          "preparing to write table %s", table);
    return 0;
}

/* The column index of name in c's rows, or -1. */
int merge_copy_col(const merge_copy *c, const char *name)
{
    for (int i = 0; i < c->ncols; i++)
        if (strcmp(sqlite3_column_name(c->sel, i), name) == 0)
            return i;
    return -1;
}

/* Inserts the current row of c->sel with the set columns taking vals. Returns
 * SQLITE_DONE or an SQLite error code. */
int merge_copy_row(merge_copy *c, const merge_val *vals)
{
    sqlite3_reset(c->ins);
    sqlite3_clear_bindings(c->ins);
    for (int i = 0; i < c->ncols; i++) {
        if (i == c->omit)
            continue;
        const merge_val *v = c->set_of[i] >= 0 ? &vals[c->set_of[i]] : NULL;
        int rc = !v || v->kind == MERGE_KEEP
                     ? sqlite3_bind_value(c->ins, i + 1, sqlite3_column_value(c->sel, i))
                 : v->kind == MERGE_NULL ? sqlite3_bind_null(c->ins, i + 1)
                 : v->kind == MERGE_INT  ? sqlite3_bind_int64(c->ins, i + 1, v->i)
                                         : sqlite3_bind_text(c->ins, i + 1, v->text, -1,
                                                             SQLITE_TRANSIENT);
        if (rc != SQLITE_OK)
            return rc;
    }
    return sqlite3_step(c->ins);
}

/* Copies every row of c matching key with its one set column given the value to.
 * Returns 0 or DM_ERUNTIME. */
int merge_copy_all(merge_ctx *m, merge_src *src, merge_copy *c, int64_t key, int64_t to)
{
    merge_val v = { .kind = MERGE_INT, .i = to };
    int rc;
    sqlite3_reset(c->sel);
    sqlite3_bind_int64(c->sel, 1, key);
    while ((rc = sqlite3_step(c->sel)) == SQLITE_ROW)
        if (merge_copy_row(c, &v) != SQLITE_DONE)
            return merge_fail(m->db, store_path(m->st), m->err, "copying from %s",
                              src->path);
    sqlite3_reset(c->sel);
    return rc == SQLITE_DONE ? 0 : merge_fail(src->db, src->path, m->err, "reading rows");
}

/* ---- the inputs ---- */

/* Prepares a copy of every table that refers to parent (by a foreign key) other than
 * those named in skip, keyed by the referring column. Returns 0 or DM_ERUNTIME. */
int merge_copies_under(merge_src *src, sqlite3 *dst, const char *parent, const char *skip,
                       merge_copy *out, int *n, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(src->db,
                                "SELECT m.name, f.\"from\" FROM sqlite_schema m,"
                                " pragma_foreign_key_list(m.name) f WHERE m.type = 'table'"
                                " AND f.\"table\" = ?1 AND m.name IS NOT ?2 ORDER BY m.name",
                                -1, &s, NULL);
    if (rc != SQLITE_OK || sqlite3_bind_text(s, 1, parent, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_text(s, 2, skip, -1, SQLITE_STATIC) != SQLITE_OK) {
        sqlite3_finalize(s);
        return merge_fail(src->db, src->path, err, "finding the tables under %s", parent);
    }
    *n = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        char where[128];
        const char *key = merge_col_str(s, 1);
        if (*n == MERGE_MAX_TABLES) {
            sqlite3_finalize(s);
            return dm_err_set(err, DM_ERUNTIME, "%s: more than %d tables under %s", src->path,
                              MERGE_MAX_TABLES, parent);
        }
        /* in the order they were written: a point's parameters keep their order (export's
         * columns), its samples theirs */
        snprintf(where, sizeof where, "\"%s\" = ?1 ORDER BY rowid", key);
        if (merge_copy_make(&out[(*n)++], dst, src, merge_col_str(s, 0), where, &key, 1, NULL, err)) {
            sqlite3_finalize(s);
            return DM_ERUNTIME;
        }
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0
                             : merge_fail(src->db, src->path, err, "finding the tables under %s",
                                          parent);
}

static void src_close(merge_src *src)
{
    merge_copy_free(&src->runs);
    merge_copy_free(&src->points);
    for (int i = 0; i < src->nunder_runs; i++)
        merge_copy_free(&src->under_runs[i]);
    for (int i = 0; i < src->nunder_points; i++)
        merge_copy_free(&src->under_points[i]);
    sqlite3_finalize(src->dataset);
    free(src->run_to);
    src->run_to = NULL;
    sqlite3_close(src->db);
    src->db = NULL;
}

/* Reads a one-integer pragma of db. Returns an SQLite code (SQLITE_ROW on success). */
static int pragma_int(sqlite3 *db, const char *sql, int *v)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW)
        *v = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return rc;
}

/* src_open's answer for an input that is not there: the caller names them all. */
#define MERGE_MISSING 1

/* Opens input src->path read-only and checks that it is a dmbench database of this
 * schema version and not the output itself. Returns 0, MERGE_MISSING when there is no
 * such file, or DM_EINPUT saying what it is. */
static int src_open(merge_ctx *m, merge_src *src)
{
    struct stat *in = &src->seen, out;
    int id = 0, version = 0;
    if (stat(src->path, in) != 0)
        return MERGE_MISSING;
    if (stat(store_path(m->st), &out) == 0 && in->st_dev == out.st_dev &&
        in->st_ino == out.st_ino)
        return dm_err_set(m->err, DM_EINPUT, "%s: is the output database; merging it into "
                          "itself changes nothing", src->path);
    if (store_reader_open(src->path, &src->db, &src->immutable) != SQLITE_OK)
        return dm_err_set(m->err, DM_EINPUT, "%s: cannot open (%s)", src->path,
                          sqlite3_errmsg(src->db));
    if (pragma_int(src->db, "PRAGMA application_id", &id) != SQLITE_ROW ||
        pragma_int(src->db, "PRAGMA user_version", &version) != SQLITE_ROW)
        return dm_err_set(m->err, DM_EINPUT, "%s: not an SQLite database (%s)", src->path,
                          sqlite3_errmsg(src->db));
    /* dmbench's databases from before the id have it 0 and an older version */
    if (id != STORE_APPLICATION_ID && !(id == 0 && version > 0 && version < store_schema_version()))
        return dm_err_set(m->err, DM_EINPUT, "%s: not a dmbench results database "
                          "(application id %#x)", src->path, (unsigned)id);
    if (version != store_schema_version())
        return dm_err_set(m->err, DM_EINPUT, "%s: schema version %d, and this dmbench merges "
                          "version %d only%s", src->path, version, store_schema_version(),
                          version < store_schema_version()
                              ? "; 'dmbench show --db' on it once migrates it"
                              : " (it is newer than this dmbench)");
    static const char *const point_set[] = { "run_id", "dataset_id" };
    if (merge_copy_make(&src->runs, m->db, src, "runs", "id = ?1", merge_run_set, RUN_NSET, "id",
                  m->err) ||
        merge_copy_make(&src->points, m->db, src, "points", "run_id = ?1 ORDER BY id", point_set, 2,
                  "id", m->err) ||
        merge_copies_under(src, m->db, "runs", "points", src->under_runs, &src->nunder_runs, m->err) ||
        merge_copies_under(src, m->db, "points", NULL, src->under_points, &src->nunder_points, m->err))
        return m->err->code;
    if (sqlite3_prepare_v2(src->db, "SELECT name, params, path, content_hash, size_bytes"
                           " FROM datasets WHERE id = ?1", -1, &src->dataset, NULL) != SQLITE_OK)
        return merge_fail(src->db, src->path, m->err, "reading datasets");
    return 0;
}

/* Reads the runs of src, appending them to *runs (*n of them, *cap allocated); with
 * combine, each shard run gets the key of its group. Returns 0 or DM_ERUNTIME. */
static int src_runs(merge_ctx *m, merge_src *src, int combine, merge_run **runs, size_t *n,
                    size_t *cap)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(
        src->db,
        "SELECT id, uid, coalesce(shard_index, 0), coalesce(shard_count, 0), status,"
        " coalesce(started_at, ''), coalesce(ended_at, ''), coalesce(host, ''),"
        " coalesce(gpu_uuid, ''), coalesce(points_planned, 0),"
        " printf('%s|%s|%s|%s|%d|%s', sweep_name, sweep_text, gpu_name, git_commit,"
        "        git_dirty, build_flags)"
        " FROM runs ORDER BY id", -1, &s, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(s);
        return merge_fail(src->db, src->path, m->err, "reading its runs");
    }
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == *cap) {
            size_t c = *cap ? 2 * *cap : 64;
            merge_run *r = realloc(*runs, c * sizeof *r);
            if (!r) {
                sqlite3_finalize(s);
                return dm_err_set(m->err, DM_ERUNTIME, "out of memory reading %s", src->path);
            }
            *runs = r;
            *cap = c;
        }
        merge_run *r = &(*runs)[(*n)++];
        memset(r, 0, sizeof *r);
        r->src = src;
        r->id = sqlite3_column_int64(s, 0);
        snprintf(r->uid, sizeof r->uid, "%s", merge_col_str(s, 1));
        r->shard_index = sqlite3_column_int(s, 2);
        r->shard_count = sqlite3_column_int(s, 3);
        snprintf(r->status, sizeof r->status, "%s", merge_col_str(s, 4));
        snprintf(r->started, sizeof r->started, "%s", merge_col_str(s, 5));
        snprintf(r->ended, sizeof r->ended, "%s", merge_col_str(s, 6));
        snprintf(r->host, sizeof r->host, "%s", merge_col_str(s, 7));
        snprintf(r->gpu_uuid, sizeof r->gpu_uuid, "%s", merge_col_str(s, 8));
        r->planned = sqlite3_column_int64(s, 9);
        /* the group names its sweep, card model and build by a hash of them */
        if (combine && r->shard_count) {
            const char *key = merge_col_str(s, 10);
            snprintf(r->group, sizeof r->group, "%016" PRIx64 "/%d",
                     dm_hash_bytes(DM_HASH_INIT, key, strlen(key)), r->shard_count);
        }
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : merge_fail(src->db, src->path, m->err, "reading its runs");
}

/* ---- copying runs ---- */

/* The output's id of the dataset src has as id (0: none), inserted when missing. Returns
 * 0 or DM_ERUNTIME. */
static int copy_dataset(merge_ctx *m, merge_src *src, int64_t id, int64_t *out)
{
    static const char *const find = "SELECT id FROM datasets WHERE name = ?1 AND params = ?2"
                                     " AND path = ?3 AND content_hash = ?4";
    sqlite3_stmt *ins = NULL, *sel = NULL;
    int rc;
    *out = id == src->ds_from ? src->ds_to : 0;
    if (!id || *out)
        return 0;
    sqlite3_reset(src->dataset);
    sqlite3_bind_int64(src->dataset, 1, id);
    if (sqlite3_step(src->dataset) != SQLITE_ROW)
        return merge_fail(src->db, src->path, m->err, "reading dataset %lld", (long long)id);
    rc = sqlite3_prepare_v2(m->db, "INSERT OR IGNORE INTO datasets (name, params, path,"
                            " content_hash, size_bytes) VALUES (?1, ?2, ?3, ?4, ?5)", -1, &ins,
                            NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(m->db, find, -1, &sel, NULL);
    for (int i = 0; rc == SQLITE_OK && i < 5; i++)
        rc = sqlite3_bind_value(ins, i + 1, sqlite3_column_value(src->dataset, i)) ||
             (i < 4 && sqlite3_bind_value(sel, i + 1, sqlite3_column_value(src->dataset, i)));
    if (rc == SQLITE_OK && sqlite3_step(ins) == SQLITE_DONE && sqlite3_step(sel) == SQLITE_ROW)
        *out = sqlite3_column_int64(sel, 0);
    sqlite3_finalize(ins);
    sqlite3_finalize(sel);
    sqlite3_reset(src->dataset);
    src->ds_from = id;
    src->ds_to = *out;
    return *out ? 0 : merge_fail(m->db, store_path(m->st), m->err, "copying a dataset of %s",
                                 src->path);
}

/* Copies the points of run r (everything under each) into run to. Returns 0 or
 * DM_ERUNTIME. */
static int copy_points(merge_ctx *m, const merge_run *r, int64_t to)
{
    merge_src *src = r->src;
    merge_copy *c = &src->points;
    int id_col = merge_copy_col(c, "id"), ds_col = merge_copy_col(c, "dataset_id"), rc;
    sqlite3_reset(c->sel);
    sqlite3_bind_int64(c->sel, 1, r->id);
    while ((rc = sqlite3_step(c->sel)) == SQLITE_ROW) {
        merge_val v[2] = { { .kind = MERGE_INT, .i = to }, { .kind = MERGE_NULL } };
        int64_t old = sqlite3_column_int64(c->sel, id_col);
        if (copy_dataset(m, src, sqlite3_column_int64(c->sel, ds_col), &v[1].i))
            return DM_ERUNTIME;
        v[1].kind = v[1].i ? MERGE_INT : MERGE_NULL;
        if (merge_copy_row(c, v) != SQLITE_DONE)
            return merge_fail(m->db, store_path(m->st), m->err, "copying point %lld of %s",
                              (long long)old, src->path);
        int64_t id = sqlite3_last_insert_rowid(m->db);
        for (int i = 0; i < src->nunder_points; i++)
            if (merge_copy_all(m, src, &src->under_points[i], old, id))
                return DM_ERUNTIME;
        m->counts->points++;
    }
    sqlite3_reset(c->sel);
    return rc == SQLITE_DONE ? 0 : merge_fail(src->db, src->path, m->err, "reading points");
}

/* The id of the output's run of this uid: > 0, 0 when there is none, -1 on an error
 * (err set). */
static int64_t run_present(merge_ctx *m, const char *uid)
{
    sqlite3_stmt *s = NULL;
    int64_t id = -1;
    int rc = sqlite3_prepare_v2(m->db, "SELECT id FROM runs WHERE uid = ?1", -1, &s, NULL);
    if (rc == SQLITE_OK && sqlite3_bind_text(s, 1, uid, -1, SQLITE_STATIC) == SQLITE_OK)
        rc = sqlite3_step(s);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    if (id < 0)
        merge_fail(m->db, store_path(m->st), m->err, "looking up run %s", uid);
    return id;
}

/* Notes that run r of its input is run to in the output (the runs a tuned choice names
 * are renumbered by it). Returns 0 or DM_ERUNTIME. */
static int run_became(merge_ctx *m, const merge_run *r, int64_t to)
{
    merge_src *src = r->src;
    if (src->nrun_to == src->caprun_to) {
        size_t c = src->caprun_to ? 2 * src->caprun_to : 64;
        int64_t(*grown)[2] = realloc(src->run_to, c * sizeof *grown);
        if (!grown)
            return dm_err_set(m->err, DM_ERUNTIME, "out of memory merging %s", src->path);
        src->run_to = grown;
        src->caprun_to = c;
    }
    src->run_to[src->nrun_to][0] = r->id;
    src->run_to[src->nrun_to++][1] = to;
    return 0;
}

/* Copies run r's row with the values run_vals (of merge_run_set's columns; MERGE_KEEP
 * keeps r's), its notes and its points; *to gets its new id. Returns 0 or DM_ERUNTIME. */
static int copy_run(merge_ctx *m, const merge_run *r, const merge_val *run_vals, int64_t *to)
{
    merge_src *src = r->src;
    merge_copy *c = &src->runs;
    sqlite3_reset(c->sel);
    sqlite3_bind_int64(c->sel, 1, r->id);
    int rc = sqlite3_step(c->sel);
    if (rc != SQLITE_ROW || merge_copy_row(c, run_vals) != SQLITE_DONE) {
        sqlite3_reset(c->sel);
        return rc != SQLITE_ROW
                   ? merge_fail(src->db, src->path, m->err, "reading run %lld", (long long)r->id)
                   : merge_fail(m->db, store_path(m->st), m->err, "copying run %lld of %s",
                                (long long)r->id, src->path);
    }
    sqlite3_reset(c->sel);
    *to = sqlite3_last_insert_rowid(m->db);
    for (int i = 0; i < src->nunder_runs; i++)
        if (merge_copy_all(m, src, &src->under_runs[i], r->id, *to))
            return DM_ERUNTIME;
    return copy_points(m, r, *to);
}

/* Copies run r as it is, unless a run of its uid is here already. Returns 0 or
 * DM_ERUNTIME. */
static int merge_one(merge_ctx *m, const merge_run *r)
{
    static const merge_val keep[RUN_NSET] = { { .kind = MERGE_KEEP } };
    int64_t to = run_present(m, r->uid);
    if (to < 0)
        return DM_ERUNTIME;
    if (to) {
        m->counts->runs_present++;
        return run_became(m, r, to);
    }
    if (!strcmp(r->status, "running"))
        fprintf(stderr, "dmbench merge: note: run %lld of %s is still running; it is copied "
                "as it stands, and merging again will not update it\n", (long long)r->id,
                r->src->path);
    m->counts->runs_copied++;
    return copy_run(m, r, keep, &to) || run_became(m, r, to) ? m->err->code : 0;
}

/* Orders shard runs by group, then shard index, then preference: complete before
 * ended otherwise, ended before running, newer before older. */
static int by_group_shard(const void *a, const void *b)
{
    const merge_run *x = *(merge_run *const *)a, *y = *(merge_run *const *)b;
    int c = strcmp(x->group, y->group);
    if (c || (c = x->shard_index - y->shard_index))
        return c;
    if ((c = !!strcmp(x->status, "complete") - !!strcmp(y->status, "complete")) ||
        (c = !strcmp(x->status, "running") - !strcmp(y->status, "running")))
        return c;
    return strcmp(y->started, x->started);
}

/* Takes from g[0..n) (one group, by_group_shard's order) the run of each shard 1..N to
 * combine into pick[0..N): the first, by preference; a shard run more than once (a task
 * run again elsewhere) is noted on stderr with the runs left out. Returns 0, or
 * DM_EINPUT naming every shard that is missing or whose only runs are still running. */
static int pick_shards(merge_ctx *m, merge_run *const *g, int n, merge_run **pick)
{
    const merge_run *r = g[0];
    int count = r->shard_count, unfinished = 0;
    char list[DM_ERR_MAX / 2] = "";
    for (int i = 0, want = 1; want <= count; want++) {
        if (i >= n || g[i]->shard_index != want)
            dm_append(list, sizeof list, "%s%d/%d missing", unfinished++ ? ", " : "", want,
                      count);
        else if (!strcmp(g[i]->status, "running"))
            dm_append(list, sizeof list, "%s%d/%d still running (run %lld of %s)",
                      unfinished++ ? ", " : "", want, count, (long long)g[i]->id,
                      g[i]->src->path);
        else
            pick[want - 1] = g[i];
        for (; i < n && g[i]->shard_index == want; i++)
            ;
    }
    if (unfinished)
        return dm_err_set(m->err, DM_EINPUT, "--combine: the sweep of run %lld of %s lacks "
                          "shards: %s; 'dmbench run --resume --shard I/N' runs or ends one, "
                          "or merge without --combine to keep the shards apart", (long long)r->id,
                          r->src->path, list);
    for (int i = 0; i < n; i++) {
        const merge_run *p = pick[g[i]->shard_index - 1];
        if (g[i] != p)
            fprintf(stderr, "dmbench merge: note: shard %d/%d was run more than once; run "
                    "%lld of %s (%s) is left out for run %lld of %s (%s)\n",
                    g[i]->shard_index, count, (long long)g[i]->id, g[i]->src->path,
                    g[i]->status, (long long)p->id, p->src->path, p->status);
    }
    return 0;
}

/* Copies one run of each shard of g[0..n) (one group, by_group_shard's order; see
 * pick_shards) as one run whose uid is made of theirs, unless it is here already.
 * Returns 0, DM_EINPUT (see pick_shards) or DM_ERUNTIME. */
static int merge_combined(merge_ctx *m, merge_run *const *all, int nall)
{
    static const char *const rank[] = { "complete", "interrupted", "failed" };
    char uid[MERGE_UID_MAX], started[40], ended[40];
    int64_t planned = 0, to;
    uint64_t h = DM_HASH_INIT;
    int n = all[0]->shard_count, worst = 0;
    merge_run **g = calloc((size_t)n, sizeof *g);
    if (!g)
        return dm_err_set(m->err, DM_ERUNTIME, "out of memory combining %d shards", n);
    int rc = pick_shards(m, all, nall, g);
    if (rc)
        goto out;
    snprintf(started, sizeof started, "%s", g[0]->started);
    snprintf(ended, sizeof ended, "%s", g[0]->ended);
    for (int i = 0; i < n; i++) {
        h = dm_hash_bytes(h, g[i]->uid, strlen(g[i]->uid));
        planned += g[i]->planned;
        if (strcmp(g[i]->started, started) < 0)
            snprintf(started, sizeof started, "%s", g[i]->started);
        if (strcmp(g[i]->ended, ended) > 0)
            snprintf(ended, sizeof ended, "%s", g[i]->ended);
        for (int k = worst + 1; k < 3; k++) /* the combined run's is the worst of theirs */
            if (!strcmp(g[i]->status, rank[k]))
                worst = k;
    }
    snprintf(uid, sizeof uid, "combined-%016" PRIx64 "-%d", h, n);
    if ((to = run_present(m, uid)) != 0) {
        rc = to < 0 ? DM_ERUNTIME : 0;
        for (int i = 0; i < n && !rc; i++)
            rc = run_became(m, g[i], to);
        m->counts->runs_present += !rc;
        goto out;
    }
    const merge_val vals[RUN_NSET] = {
        [RUN_UID] = { .kind = MERGE_TEXT, .text = uid },
        [RUN_SHARD_INDEX] = { .kind = MERGE_NULL },
        [RUN_SHARD_COUNT] = { .kind = MERGE_NULL },
        [RUN_STATUS] = { .kind = MERGE_TEXT, .text = rank[worst] },
        [RUN_STARTED] = { .kind = MERGE_TEXT, .text = started },
        [RUN_ENDED] = { .kind = ended[0] ? MERGE_TEXT : MERGE_NULL, .text = ended },
        [RUN_PLANNED] = { .kind = MERGE_INT, .i = planned },
    };
    if ((rc = copy_run(m, g[0], vals, &to)) != 0)
        goto out;
    for (int i = 0; i < n; i++) {
        char key[32], value[1024];
        snprintf(key, sizeof key, "shard.%d", g[i]->shard_index);
        snprintf(value, sizeof value, "%d/%d: run %s on %s%s%s, %s to %s, %s",
                 g[i]->shard_index, g[i]->shard_count, g[i]->uid, g[i]->host,
                 g[i]->gpu_uuid[0] ? " GPU " : "", g[i]->gpu_uuid, g[i]->started, g[i]->ended,
                 g[i]->status);
        if ((i > 0 && copy_points(m, g[i], to)) ||
            store_run_note(m->st, to, key, value, m->err) || run_became(m, g[i], to)) {
            rc = m->err->code;
            goto out;
        }
    }
    m->counts->runs_combined += n;
    m->counts->runs_copied++;
out:
    free(g);
    return rc;
}

/* Copies every run of runs[0..n): whole-sweep runs one by one, shard runs (with a group)
 * folded group by group. Returns 0, DM_EINPUT or DM_ERUNTIME. */
static int merge_runs(merge_ctx *m, merge_run *runs, size_t n)
{
    merge_run **shards = malloc((n + 1) * sizeof *shards);
    size_t ns = 0;
    int rc = 0;
    if (!shards)
        return dm_err_set(m->err, DM_ERUNTIME, "out of memory merging %zu runs", n);
    for (size_t i = 0; i < n && !rc; i++) {
        if (runs[i].group[0])
            shards[ns++] = &runs[i];
        else
            rc = merge_one(m, &runs[i]);
    }
    qsort(shards, ns, sizeof *shards, by_group_shard);
    for (size_t i = 0, j; i < ns && !rc; i = j) {
        for (j = i; j < ns && !strcmp(shards[j]->group, shards[i]->group); j++)
            ;
        rc = merge_combined(m, shards + i, (int)(j - i));
    }
    free(shards);
    return rc;
}

int store_merge(dm_store *st, const char *const *inputs, int n, int combine,
                store_merge_counts *counts, dm_err *err)
{
    merge_ctx m = { .st = st, .db = store_db(st), .counts = counts, .err = err };
    merge_src *srcs = calloc((size_t)n + 1, sizeof *srcs);
    merge_run *runs = NULL;
    size_t nruns = 0, cap = 0;
    int rc = 0;
    memset(counts, 0, sizeof *counts);
    if (!srcs)
        return dm_err_set(err, DM_ERUNTIME, "out of memory merging %d databases", n);
    if (sqlite3_exec(m.db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        free(srcs);
        return merge_fail(m.db, store_path(st), err, "locking the database to merge into it");
    }
    /* every input that is not there is named at once (the shards a job array lost) */
    char missing[DM_ERR_MAX] = "";
    int nmissing = 0;
    for (int i = 0; i < n && !rc; i++) {
        srcs[i].path = inputs[i];
        rc = src_open(&m, &srcs[i]);
        if (rc == MERGE_MISSING) {
            dm_append(missing, sizeof missing, "%s%s", nmissing++ ? ", " : "", inputs[i]);
            rc = 0;
        } else if (!rc) {
            rc = src_runs(&m, &srcs[i], combine, &runs, &nruns, &cap);
        }
    }
    if (!rc && nmissing)
        rc = nmissing == 1
                 ? dm_err_set(err, DM_EINPUT, "%s: no such database to merge", missing)
                 : dm_err_set(err, DM_EINPUT, "%s: no such databases to merge (%d of the %d "
                              "inputs)", missing, nmissing, n);
    if (!rc)
        rc = merge_runs(&m, runs, nruns);
    for (int i = 0; i < n && !rc; i++)
        rc = merge_cards(&m, &srcs[i]);
    for (int i = 0; i < n; i++) {
        struct stat now;
        /* an input read as immutable must not have been written meanwhile */
        if (!rc && srcs[i].immutable &&
            (stat(srcs[i].path, &now) != 0 || !store_file_same(&srcs[i].seen, &now)))
            rc = dm_err_set(err, DM_ERUNTIME, "%s: another process wrote it while it was "
                            "merged; nothing was merged, merge again", srcs[i].path);
        src_close(&srcs[i]);
    }
    if (!rc && sqlite3_exec(m.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = merge_fail(m.db, store_path(st), err, "committing the merge");
    if (rc) {
        sqlite3_exec(m.db, "ROLLBACK", NULL, NULL, NULL);
        memset(counts, 0, sizeof *counts);
    }
    free(runs);
    free(srcs);
    return rc;
}
