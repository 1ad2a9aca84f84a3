/* store_open.c - opening the results database: its file and folder, WAL and the busy
 * timeout, the checks that it is dmbench's and of a version this build knows, and the
 * migrations of its schema, one transaction each. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "path.h"
#include "store_int.h"

extern const char dm_schema_sql[]; /* results/schema.sql, embedded by cmake/EmbedText */

#define STORE_BUSY_MS 10000

/* schema.sql is a run of sections, each opening with a line that starts with this
 * mark and the version it makes; the section of version N migrates from N - 1. */
#define STORE_SECTION_MARK "-- ==== version "

int store_schema_version(void)
{
    int n = 0;
    for (const char *p = dm_schema_sql; (p = strstr(p, STORE_SECTION_MARK)); p++)
        n++;
    return n;
}

/* The section of schema.sql that makes version (malloc'd), or NULL when out of memory. */
static char *store_section(int version)
{
    const char *p = dm_schema_sql;
    for (int v = 0; v < version && p; v++)
        if ((p = strstr(p, STORE_SECTION_MARK)))
            p += strlen(STORE_SECTION_MARK);
    assert(p && atoi(p) == version);
    const char *end = strstr(p, STORE_SECTION_MARK);
    return strndup(p, end ? (size_t)(end - p) : strlen(p));
}

/* Refuses the database file at path: sets err to "PATH: " and fmt's text, then that
 * nothing was written to it and how to look at it (sqlite3 running look, an SQL
 * statement), and returns DM_EINPUT. */
static int store_refuse_file(dm_err *err, const char *path, const char *look,
                             const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int store_refuse_file(dm_err *err, const char *path, const char *look,
                             const char *fmt, ...)
{
    char what[DM_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dm_err_set(err, DM_EINPUT, "%s: %s; nothing was written to it; look with: sqlite3 "
                      "'%s' '%s'", path, what, path, look);
}

#define STORE_LOOK "PRAGMA integrity_check"

/* Sets err for the failure the connection just had while doing what: DM_EINPUT when it
 * says the file is not a database, is damaged or holds another program's unfinished
 * write (store_refuse_file); else store_fail's DM_ERUNTIME. */
static int store_refuse(dm_store *st, dm_err *err, const char *what)
{
    const char *p = st->path;
    switch (sqlite3_extended_errcode(st->db)) {
    case SQLITE_NOTADB:
        return store_refuse_file(err, p, STORE_LOOK, "not an SQLite database (%s)",
                                 sqlite3_errmsg(st->db));
    case SQLITE_READONLY_ROLLBACK:
        return store_refuse_file(err, p, STORE_LOOK, "holds another program's interrupted "
                                 "write, not rolled back (%s-journal; sqlite3 rolls it back)",
                                 p);
    }
    if (sqlite3_errcode(st->db) == SQLITE_CORRUPT)
        return store_refuse_file(err, p, STORE_LOOK, "the database is damaged (%s while %s)",
                                 sqlite3_errmsg(st->db), what);
    return store_fail(st, err, "%s", what);
}

/* An int read by a one-value query (a pragma, a count). Returns 0, store_refuse's
 * DM_EINPUT, or DM_ERUNTIME. */
static int store_query_int(dm_store *st, const char *sql, int *value, dm_err *err)
{
    char what[160];
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        *value = sqlite3_column_int(s, 0);
        rc = 0;
    } else {
        snprintf(what, sizeof what, "reading the database (%s)", sql);
        rc = store_refuse(st, err, what);
    }
    sqlite3_finalize(s);
    return rc;
}

/* Reads PRAGMA user_version (0 in *version when it cannot). Returns 0, store_refuse's
 * DM_EINPUT, or DM_ERUNTIME. */
static int store_user_version(dm_store *st, int *version, dm_err *err)
{
    *version = 0;
    return store_query_int(st, "PRAGMA user_version", version, err);
}

/* Returns 0 when the file is dmbench's: its application id is dmbench's, or it is empty
 * (a new database), or it has the schema of a dmbench database from before the id was
 * written (user_version set, runs and schema_version tables); else DM_EINPUT, before
 * anything was written to it. *id gets the application id found. */
static int store_check_owner(dm_store *st, int version, int *id, dm_err *err)
{
    int objects = 0, ours = 0, rc;
    if ((rc = store_query_int(st, "PRAGMA application_id", id, err)) != 0 ||
        (rc = store_query_int(st, "SELECT count(*) FROM sqlite_schema", &objects, err)) != 0 ||
        (rc = store_query_int(st, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
                              " AND name IN ('runs', 'schema_version')", &ours, err)) != 0)
        return rc;
    if (*id == STORE_APPLICATION_ID || (*id == 0 && objects == 0 && version == 0) ||
        (*id == 0 && version >= 1 && ours == 2))
        return 0;
    return dm_err_set(err, DM_EINPUT, "%s: not a dmbench results database (application id "
                      "%#x, user version %d, %d schema objects); name another with --db",
                      st->path, (unsigned)*id, version, objects);
}

/* Returns 0 when this build can use a database of this version, else DM_EINPUT. */
static int store_check_version(dm_store *st, int version, dm_err *err)
{
    if (version > store_schema_version())
        return store_refuse_file(err, st->path, "SELECT * FROM schema_version",
                                 "database schema version %d is newer than this dmbench's %d "
                                 "(a later dmbench wrote it)", version, store_schema_version());
    return 0;
}

/* ---- the file checked before any use of it ---- */

/* 1 when the file path + suffix exists. */
static int store_side_file(const char *path, const char *suffix)
{
    char side[PATH_MAX + 16];
    snprintf(side, sizeof side, "%s%s", path, suffix);
    return access(side, F_OK) == 0;
}

/* 1 when no -wal, -shm or -journal file is beside path: no connection has it open. */
static int store_alone(const char *path)
{
    return !store_side_file(path, "-wal") && !store_side_file(path, "-shm") &&
           !store_side_file(path, "-journal");
}

/* The URI of path opened read-only, and immutable when asked ("file:PATH?mode=ro..."),
 * with the characters a URI gives a meaning escaped. */
static void store_check_uri(const char *path, int immutable, char *uri, size_t n)
{
    /* an absolute path after an empty authority, so that "//x" stays a path */
    size_t used = (size_t)snprintf(uri, n, path[0] == '/' ? "file://" : "file:");
    for (const char *p = path; *p && used + 4 < n; p++)
        used += (size_t)(strchr("%?#", *p) ? snprintf(uri + used, n - used, "%%%02X",
                                                      (unsigned char)*p)
                                           : snprintf(uri + used, n - used, "%c", *p));
    snprintf(uri + used, n - used, "?mode=ro%s", immutable ? "&immutable=1" : "");
}

/* The first thing PRAGMA quick_check finds wrong in st's database, one line in what
 * ("ok" when nothing is). Returns 0, store_refuse's DM_EINPUT, or DM_ERUNTIME. */
static int store_quick_check(dm_store *st, char *what, size_t n, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(st->db, "PRAGMA quick_check(1)", -1, &s, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(s, 0);
        snprintf(what, n, "%s", t ? t : "?");
        for (char *c = what; *c; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        rc = 0;
    } else {
        rc = store_refuse(st, err, "checking its pages (PRAGMA quick_check)");
    }
    sqlite3_finalize(s);
    return rc;
}

/* The big-endian number of n bytes at p. */
static uint32_t store_be(const unsigned char *p, int n)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* Checks that the database file of size bytes, the whole database, is as long as its
 * header says. Returns 0, or DM_EINPUT. */
static int store_check_length(const char *path, long long size, dm_err *err)
{
    unsigned char h[100];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(h, 1, sizeof h, f) : 0;
    if (f)
        fclose(f);
    if (got < 16 || memcmp(h, "SQLite format 3", 16) != 0)
        return 0; /* not SQLite's: SQLite says so */
    if (got < sizeof h)
        return store_refuse_file(err, path, STORE_LOOK, "the database is truncated: %lld "
                                 "bytes, shorter than its header", size);
    /* the page count at offset 28 holds when its "valid for" (92) is the change counter
     * (24); when it does not, SQLite counts the pages by the file's length */
    if (store_be(h + 92, 4) != store_be(h + 24, 4))
        return 0;
    long long page = store_be(h + 16, 2) == 1 ? 65536 : store_be(h + 16, 2);
    long long pages = store_be(h + 28, 4);
    if (pages * page <= size)
        return 0;
    return store_refuse_file(err, path, STORE_LOOK, "the database is truncated: %lld bytes, "
                             "where its header says %lld pages of %lld bytes (%lld bytes)",
                             size, pages, page, pages * page);
}

/* store_check on the database through connection st (read-only): readable, dmbench's,
 * not newer than this build, and every page sound. */
static int store_check_db(dm_store *st, dm_err *err)
{
    int rc, version = 0, id = 0;
    char found[512];
    if ((rc = store_exec(st, "BEGIN", err, "reading the schema")) != 0)
        return rc;
    if ((rc = store_user_version(st, &version, err)) != 0 ||
        (rc = store_check_owner(st, version, &id, err)) != 0 ||
        (rc = store_check_version(st, version, err)) != 0)
        goto done;
    if ((rc = store_quick_check(st, found, sizeof found, err)) == 0 && strcmp(found, "ok") != 0)
        rc = store_refuse_file(err, st->path, STORE_LOOK, "the database is damaged (SQLite's "
                               "quick_check: %s)", found);
done:
    store_rollback(st);
    return rc;
}

int store_reader_open(const char *path, sqlite3 **db, int *immutable)
{
    char uri[3 * PATH_MAX + 32];
    /* With no -wal, -shm or -journal beside it, no connection has the file open: read
     * as immutable, it gets neither locks nor files beside it. Else read-only, with
     * locks, sharing the files that are there. */
    *immutable = store_alone(path);
    store_check_uri(path, *immutable, uri, sizeof uri);
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    if (rc == SQLITE_OK)
        sqlite3_busy_timeout(*db, STORE_BUSY_MS);
    return rc;
}

int store_file_same(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* One store_check of the file stat gave sb for. *immutable says whether the check read
 * it as immutable (store_reader_open). */
static int store_check_once(const char *path, const struct stat *sb, int *immutable,
                            dm_err *err)
{
    dm_store st = { .path = (char *)path };
    int rc;
    /* with no -wal or -journal beside it, the file holds the whole database */
    if (!store_side_file(path, "-wal") && !store_side_file(path, "-journal") &&
        (rc = store_check_length(path, (long long)sb->st_size, err)) != 0)
        return rc;
    if (store_reader_open(path, &st.db, immutable) != SQLITE_OK)
        rc = dm_err_set(err, DM_EINPUT, "%s: cannot open the database file (%s)", path,
                        sqlite3_errmsg(st.db));
    else
        rc = store_check_db(&st, err);
    sqlite3_close(st.db);
    return rc;
}

/* The files store_check passed in this process (device and inode): a command opens its
 * database more than once (run: the per-card store, then to write; the point watchdog's
 * own connection), and reads a big one whole only the first time. */
#define STORE_PASSED_MAX 8
static struct {
    dev_t dev;
    ino_t ino;
} store_passed[STORE_PASSED_MAX];
static int store_npassed;
static pthread_mutex_t store_passed_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether sb's file passed store_check here before; with add, records that it did. */
static int store_was_checked(const struct stat *sb, int add)
{
    int found = 0;
    pthread_mutex_lock(&store_passed_lock);
    for (int i = 0; i < store_npassed && !found; i++)
        found = store_passed[i].dev == sb->st_dev && store_passed[i].ino == sb->st_ino;
    if (!found && add) {
        int i = store_npassed < STORE_PASSED_MAX ? store_npassed++ : STORE_PASSED_MAX - 1;
        store_passed[i].dev = sb->st_dev;
        store_passed[i].ino = sb->st_ino;
    }
    pthread_mutex_unlock(&store_passed_lock);
    return found;
}

int store_check(const char *path, dm_err *err)
{
    struct stat before, after;
    if (stat(path, &before) != 0)
        /* none there (or a file where a folder should be): making it says what is wrong */
        return errno == ENOENT || errno == ENOTDIR
                   ? 0
                   : dm_path_fail(err, errno, "%s: the database file", path);
    if (S_ISDIR(before.st_mode))
        return dm_err_set(err, DM_EINPUT, "%s: is a directory, expected a results database "
                          "file", path);
    if (!S_ISREG(before.st_mode))
        return dm_err_set(err, DM_EINPUT, "%s: is not a regular file, expected a results "
                          "database file", path);
    if (before.st_size == 0 || store_was_checked(&before, 0))
        return 0; /* a new database, or one checked already */
    for (int tries = 0;; tries++) {
        int immutable, rc = store_check_once(path, &before, &immutable, err);
        /* An immutable read is right only if nobody wrote the file meanwhile: a refusal
         * of a file that changed under it is looked at again. */
        if (rc != DM_EINPUT || !immutable || tries == 3 || stat(path, &after) != 0 ||
            store_file_same(&before, &after)) {
            if (rc == 0)
                store_was_checked(&before, 1);
            return rc;
        }
        before = after;
    }
}

/* Applies the migration from version `from` inside the caller's transaction, recording
 * the new version in schema_version and user_version. Returns 0 or DM_ERUNTIME. */
static int store_migrate_step(dm_store *st, int from, dm_err *err)
{
    char sql[320], what[96];
    snprintf(what, sizeof what, "migrating the schema from version %d to %d", from, from + 1);
    char *section = store_section(from + 1);
    if (!section)
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory %s", st->path, what);
    /* The section starts after the mark: its first line is the rest of the mark's. */
    int rc = store_exec(st, strchr(section, '\n') ? strchr(section, '\n') : "", err, what);
    free(section);
    if (rc != 0)
        return DM_ERUNTIME;
    /* applied_at as the writers' times: ISO-8601 UTC with milliseconds */
    snprintf(sql, sizeof sql, "INSERT INTO schema_version (version, applied_at) VALUES (%d,"
             " strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', 'now')); PRAGMA user_version = %d;"
             " PRAGMA application_id = %d", from + 1, from + 1, STORE_APPLICATION_ID);
    return store_exec(st, sql, err, what);
}

/* Brings the database to this build's version, one transaction per migration; another
 * process migrating at the same time is waited for, and its work is not redone. */
static int store_migrate(dm_store *st, dm_err *err)
{
    int rc, version;
    for (;;) {
        rc = store_exec(st, "BEGIN IMMEDIATE", err, "locking the database to migrate it");
        if (rc != 0)
            return rc;
        if ((rc = store_user_version(st, &version, err)) != 0 ||
            (rc = store_check_version(st, version, err)) != 0)
            goto fail;
        if (version == store_schema_version())
            break;
        if ((rc = store_migrate_step(st, version, err)) != 0 ||
            (rc = store_exec(st, "COMMIT", err, "committing a schema migration")) != 0)
            goto fail;
    }
    if ((rc = store_exec(st, "COMMIT", err, "ending the schema check")) != 0)
        goto fail;
    return 0;
fail:
    store_rollback(st);
    return rc;
}

/* Switches to WAL so readers and one writer proceed at once. The switch does not wait
 * through the busy handler (two processes opening a new file race for it), so a busy
 * database is retried here for as long as the busy timeout. Returns 0 or DM_ERUNTIME. */
static int store_use_wal(dm_store *st, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &s, NULL);
    for (int waited_ms = 0; rc == SQLITE_OK; waited_ms += 5) {
        rc = sqlite3_step(s);
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited_ms >= STORE_BUSY_MS)
            break;
        sqlite3_reset(s);
        sqlite3_sleep(5);
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_ROW) {
        store_fail(st, err, "switching to WAL journal mode");
        sqlite3_finalize(s);
        return DM_ERUNTIME;
    }
    const char *mode = (const char *)sqlite3_column_text(s, 0);
    rc = mode && strcmp(mode, "wal") == 0
             ? 0
             : dm_err_set(err, DM_ERUNTIME,
                          "%s: switching to WAL journal mode: the file system kept mode '%s'",
                          st->path, mode ? mode : "?");
    sqlite3_finalize(s);
    return rc;
}

int store_run_process_gone(const char *host, int64_t pid)
{
    char here[256] = "";
    gethostname(here, sizeof here - 1);
    return host && pid > 0 && strcmp(host, here) == 0 && kill((pid_t)pid, 0) != 0 &&
           errno == ESRCH;
}

/* SQL dm_process_gone(host, pid): store_run_process_gone, for queries and updates. */
static void store_sql_process_gone(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_int(ctx, store_run_process_gone((const char *)sqlite3_value_text(argv[0]),
                                                   sqlite3_value_int64(argv[1])));
}

/* store_open, or store_open_readonly when readonly; store_check first unless checked
 * (it was, by the caller). */
static int store_open_as(const char *path, int readonly, int checked, dm_store **out,
                         dm_err *err)
{
    int rc, version, id = 0;
    *out = NULL;
    if (!checked && (rc = store_check(path, err)) != 0)
        return rc;
    dm_store *st = calloc(1, sizeof *st);
    if (!st || !(st->path = strdup(path))) {
        free(st);
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory opening the database", path);
    }
    if (!readonly && (rc = dm_make_parent_dirs(path, err)) != 0)
        goto fail;
    /* A reader of a WAL database that no connection has open makes its -wal and -shm
     * files; read-only, it could not remove them when done. So where none is there it
     * opens the file to write, and writes nothing (query_only): the last connection to
     * close removes them. */
    int query_only = readonly && store_alone(path);
    if (sqlite3_open_v2(path, &st->db,
                        query_only ? SQLITE_OPEN_READWRITE
                        : readonly ? SQLITE_OPEN_READONLY
                                   : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        NULL) != SQLITE_OK) {
        /* The path is the user's: a missing, unwritable or special place is bad input. */
        rc = dm_err_set(err, DM_EINPUT, "%s: cannot %s the database file (%s)", path,
                        readonly ? "open" : "open or create", sqlite3_errmsg(st->db));
        goto fail;
    }
    sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
    if (query_only && (rc = store_exec(st, "PRAGMA query_only = 1", err, "opening it to read")))
        goto fail;
    if (sqlite3_create_function(st->db, "dm_process_gone", 2, SQLITE_UTF8, NULL,
                                store_sql_process_gone, NULL, NULL) != SQLITE_OK) {
        rc = store_fail(st, err, "registering dm_process_gone");
        goto fail;
    }
    /* One read transaction, so that a migration another process commits meanwhile is
     * seen whole or not at all. */
    if ((rc = store_exec(st, "BEGIN", err, "reading the schema")) != 0)
        goto fail;
    if ((rc = store_user_version(st, &version, err)) != 0 ||
        (rc = store_check_owner(st, version, &id, err)) != 0 ||
        (rc = store_check_version(st, version, err)) != 0) {
        store_rollback(st);
        goto fail;
    }
    if ((rc = store_exec(st, "COMMIT", err, "reading the schema")) != 0)
        goto fail;
    if (readonly && version < store_schema_version()) {
        /* dmbench's, but older: migrated once, by opening it to write */
        store_close(st);
        return store_open_as(path, 0, 1, out, err);
    }
    if (!readonly && ((rc = store_use_wal(st, err)) != 0 ||
                      (version < store_schema_version() && (rc = store_migrate(st, err)) != 0)))
        goto fail;
    if (!readonly && id != STORE_APPLICATION_ID) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d", STORE_APPLICATION_ID);
        if ((rc = store_exec(st, sql, err, "marking the database as dmbench's")) != 0)
            goto fail;
    }
    if ((rc = store_exec(st, "PRAGMA foreign_keys = ON", err, "enabling foreign keys")) != 0 ||
        (!readonly && (rc = store_exec(st, "UPDATE runs SET status = 'interrupted' WHERE status"
                                       " = 'running' AND dm_process_gone(host, pid)", err,
                                       "marking the runs whose process is gone")) != 0))
        goto fail;
    *out = st;
    return 0;
fail:
    store_close(st);
    return rc;
}

int store_open(const char *path, dm_store **out, dm_err *err)
{
    return store_open_as(path, 0, 0, out, err);
}

int store_open_readonly(const char *path, dm_store **out, dm_err *err)
{
    return store_open_as(path, 1, 0, out, err);
}

void store_close(dm_store *st)
{
    if (!st)
        return;
    for (int i = 0; i < SQL_COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    sqlite3_close(st->db);
    free(st->path);
    free(st);
}

int store_db_version(dm_store *st, int *version, dm_err *err)
{
    return store_user_version(st, version, err);
}

struct sqlite3 *store_db(dm_store *st)
{
    return st->db;
}

const char *store_path(const dm_store *st)
{
    return st->path;
}
