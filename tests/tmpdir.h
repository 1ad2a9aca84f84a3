/* tmpdir.h - a fresh folder under /tmp for a test (mkdtemp), and its removal with
 * everything in it. Static functions, included by the tests that write files. */
#ifndef DM_TEST_TMPDIR_H
#define DM_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* Makes /tmp/dmbench-TAG-XXXXXX into dir (of size n). Returns 0, or -1. */
static inline int tmpdir_make(char *dir, size_t n, const char *tag)
{
    snprintf(dir, n, "/tmp/dmbench-%s-XXXXXX", tag);
    return mkdtemp(dir) ? 0 : -1;
}

/* Removes dir and everything in it. Returns 0, or -1. */
static inline int tmpdir_remove(const char *dir)
{
    char cmd[192];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
