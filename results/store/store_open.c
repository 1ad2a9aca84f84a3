/* store_open.c - opening the results database: its file and folder, WAL and the busy
 * timeout, the checks that it is dmbench's and of a version this build knows, and the
 * migrations of its schema, one transaction each. */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

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

/* Creates path's parent directory when missing. Returns 0 or DM_ERUNTIME. */
static int store_make_dir(const char *path, dm_err *err)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    char dir[1024];
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return dm_err_set(err, DM_ERUNTIME, "%s: creating directory %s: %s", path, dir,
                          strerror(errno));
    return 0;
}

/* Reads PRAGMA user_version. Returns 0, DM_EINPUT when the file is not an SQLite
 * database, or DM_ERUNTIME. */
static int store_user_version(dm_store *st, int *version, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *version = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
        return 0;
    }
    if (sqlite3_extended_errcode(st->db) == SQLITE_NOTADB)
        rc = dm_err_set(err, DM_EINPUT, "%s: not an SQLite database (%s)", st->path,
                        sqlite3_errmsg(st->db));
    else
        rc = store_fail(st, err, "reading the schema version");
    sqlite3_finalize(s);
    return rc;
}

/* An int read by a one-value query (a pragma, a count). Returns 0, or DM_ERUNTIME. */
static int store_query_int(dm_store *st, const char *sql, int *value, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        *value = sqlite3_column_int(s, 0);
        rc = 0;
    } else {
        rc = store_fail(st, err, "reading the database (%s)", sql);
    }
    sqlite3_finalize(s);
    return rc;
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
        return dm_err_set(err, DM_EINPUT,
                          "%s: database schema version %d is newer than this dmbench (%d)",
                          st->path, version, store_schema_version());
    return 0;
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

/* store_open, or store_open_readonly when readonly. */
static int store_open_as(const char *path, int readonly, dm_store **out, dm_err *err)
{
    int rc, version, id = 0;
    *out = NULL;
    dm_store *st = calloc(1, sizeof *st);
    if (!st || !(st->path = strdup(path))) {
        free(st);
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory opening the database", path);
    }
    if (!readonly && (rc = store_make_dir(path, err)) != 0)
        goto fail;
    if (sqlite3_open_v2(path, &st->db,
                        readonly ? SQLITE_OPEN_READONLY
                                 : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        NULL) != SQLITE_OK) {
        /* The path is the user's: a missing, unwritable or special place is bad input. */
        rc = dm_err_set(err, DM_EINPUT, "%s: cannot %s the database file (%s)", path,
                        readonly ? "open" : "open or create", sqlite3_errmsg(st->db));
        goto fail;
    }
    sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
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
        return store_open_as(path, 0, out, err);
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
    return store_open_as(path, 0, out, err);
}

int store_open_readonly(const char *path, dm_store **out, dm_err *err)
{
    return store_open_as(path, 1, out, err);
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
