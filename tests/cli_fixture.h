/* cli_fixture.h - running the dmbench binary from a test: a fresh directory per test
 * with a database path and files that capture stdout and stderr. Static functions,
 * included by one test file each. */
#ifndef DM_TEST_CLI_FIXTURE_H
#define DM_TEST_CLI_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

/* Runs "dmbench ARGS" with stdout and stderr captured; returns the exit status. */
static inline int dmbench(fixture *f, const char *fmt, ...)
{
    char args[2048], cmd[4096];
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

#endif
