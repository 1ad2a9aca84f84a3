/* fuzz_loader.h - what the loader fuzz targets share: the loaders read files by path, so
 * each input is written to one temporary file per process and the loader given its path.
 * The loader must return 0 or an error with a one-line message; the sanitizers catch
 * the rest. */
#ifndef DM_FUZZ_LOADER_H
#define DM_FUZZ_LOADER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm.h"

/* The temporary file holding data[0..n): its path (the same for every input). */
static const char *fuzz_file(const uint8_t *data, size_t n, const char *suffix)
{
    static char path[64];
    static int fd = -1;
    if (fd < 0) {
        snprintf(path, sizeof path, "/tmp/dmbench-fuzz-XXXXXX%s", suffix);
        fd = mkstemps(path, (int)strlen(suffix));
        if (fd < 0)
            abort();
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, n, 0) != (ssize_t)n)
        abort();
    return path;
}

/* Aborts (a finding) when a loader's status and message disagree: an error without a
 * message, a message on more than one line, or a success that left one. */
static void fuzz_check(int rc, const dm_err *err)
{
    if (rc != 0 && (err->msg[0] == '\0' || strchr(err->msg, '\n')))
        abort();
    if (rc == 0 && err->code != 0)
        abort();
}

#endif
