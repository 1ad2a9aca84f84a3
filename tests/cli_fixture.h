/* cli_fixture.h - running the dmbench binary from a test: a fresh directory per test
 * with a database path and files that capture stdout and stderr. Static functions,
 * included by one test file each. */
#ifndef DM_TEST_CLI_FIXTURE_H
#define DM_TEST_CLI_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <sqlite3.h>

#include "registry.h"
#include "tmpdir.h"

#define DMBENCH DM_BINARY_DIR "/dmbench"

typedef struct fixture {
    char dir[64];
    char db[128];
    char out[128];
    char errf[128];
} fixture;

static inline int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    if (tmpdir_make(f->dir, sizeof f->dir, "cli") != 0)
        return -1;
    snprintf(f->db, sizeof f->db, "%s/r.sqlite", f->dir);
    snprintf(f->out, sizeof f->out, "%s/stdout", f->dir);
    snprintf(f->errf, sizeof f->errf, "%s/stderr", f->dir);
    *state = f;
    return 0;
}

static inline int teardown(void **state)
{
    fixture *f = *state;
    int rc = tmpdir_remove(f->dir);
    free(f);
    return rc;
}

/* Runs "dmbench ARGS" with stdout and stderr captured; returns the exit status. ARGS
 * may hold a path past PATH_MAX (test_inputs.c). */
static inline int dmbench(fixture *f, const char *fmt, ...)
{
    char args[16384], cmd[sizeof args + 512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", DMBENCH, args, f->out, f->errf);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The whole of a captured file (static buffer, up to 1 MiB). */
static inline const char *slurp(const char *path)
{
    static char buf[1 << 20];
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    buf[n] = '\0';
    if (fp)
        fclose(fp);
    return buf;
}

/* The number of lines of s (its newlines). */
static inline int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Writes text to the file at path, which the test must be able to make. */
static inline void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* 1 when path names a file or folder, else 0. */
static inline int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Opens the existing database at path to query it only: not read-only, which would leave
 * the -wal and -shm files of a WAL database no one had open beside it, but writing
 * nothing (query_only), so the last connection to close removes them. Returns 0, or -1
 * (*db to close in any case). */
static inline int db_open_query(const char *path, sqlite3 **db)
{
    *db = NULL;
    return exists(path) && sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
                   sqlite3_exec(*db, "PRAGMA query_only = 1", NULL, NULL, NULL) == SQLITE_OK
               ? 0
               : -1;
}

/* The integer the query gives on the database at path (db_open_query); -1 when there
 * is no such database yet, the query fails or gives no row. */
static inline int64_t db_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *q = NULL;
    int64_t v = -1;
    if (db_open_query(path, &db) != 0) {
        sqlite3_close(db);
        return -1;
    }
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

/* The text the query gives on the database at path (db_open_query) into buf (of size
 * n): "" when there is no such database, the query fails or gives no row or NULL. */
static inline const char *db_text(const char *path, const char *sql, char *buf, size_t n)
{
    sqlite3 *db;
    sqlite3_stmt *q = NULL;
    buf[0] = '\0';
    if (db_open_query(path, &db) != 0) {
        sqlite3_close(db);
        return buf;
    }
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW &&
        sqlite3_column_text(q, 0))
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    return buf;
}

/* Runs sql on the database at path (a connection of its own, its WAL checkpointed into
 * the file and closed after), asserting it succeeds. */
static inline void db_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
}

/* Runs "dmbench ARGS" with no GPU visible, stdout and stderr together into *out (a
 * static buffer, up to 128 KiB); returns the exit status. For tests with a fixture of
 * their own. */
static inline int dmbench_output(const char *args, const char **out)
{
    static char buf[1 << 17];
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "CUDA_VISIBLE_DEVICES= %s %s 2>&1", DMBENCH, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    *out = buf;
    int rc = pclose(p);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Makes dir/variants/<w>/file holding "untouched" for every registered workload (w's
 * generated tables, as `tune --header` and `crossover --header` write them), and points
 * $DMBENCH_VARIANTS at dir/variants. */
static inline void fake_variants(const char *dir, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/variants", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(setenv("DMBENCH_VARIANTS", path, 1), 0);
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        snprintf(path, sizeof path, "%s/variants/%s", dir, (*w)->name);
        assert_int_equal(mkdir(path, 0700), 0);
        snprintf(path, sizeof path, "%s/variants/%s/%s", dir, (*w)->name, file);
        write_file(path, "untouched\n");
    }
}

#endif
