/* path.h - the paths a user names (sweeps, datasets, databases, --out files and folders):
 * one place that tells a path that is wrong (missing, a folder where a file is expected,
 * a file where a folder is expected, not allowed) from a failure of the machine, so every
 * command answers the first with DM_EINPUT (exit status 2); inputs opened only when they
 * are files; an output's missing folders made, as `mkdir -p` would. */
#ifndef DM_PATH_H
#define DM_PATH_H

#include <stdio.h>

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when errnum, from opening, creating or reading a path the user named, says the path
 * is wrong (ENOENT, ENOTDIR, EISDIR, EACCES, EPERM, ELOOP, ENAMETOOLONG, EROFS, EEXIST),
 * 0 when it says the machine failed (EIO, ENOSPC, ENOMEM...). */
int dm_path_is_bad(int errnum);

/* Sets err to fmt's text, ": " and strerror(errnum), with DM_EINPUT or DM_ERUNTIME as
 * dm_path_is_bad says, and returns that code. */
int dm_path_fail(dm_err *err, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Opens path to read ("rb") into *f. Returns 0, or the code of dm_path_fail ("PATH:
 * cannot open: why") or DM_EINPUT for a directory ("PATH: is a directory, expected a
 * file"), *f NULL. */
int dm_open_input(const char *path, FILE **f, dm_err *err);

/* Makes folder dir and the folders above it that are missing. Returns 0, or
 * DM_EINPUT when a part of it is a file or cannot be made there (naming it), or
 * DM_ERUNTIME. */
int dm_make_dirs(const char *dir, dm_err *err);

/* dm_make_dirs on the folder path is in ("" and "/" need none). */
int dm_make_parent_dirs(const char *path, dm_err *err);

/* Opens path to write (fopen's mode "w" or "wb") into *f, its missing folders made
 * first. Returns 0, or dm_make_parent_dirs' code or dm_path_fail's ("PATH: cannot write:
 * why", a directory included), *f NULL. */
int dm_open_output(const char *path, const char *mode, FILE **f, dm_err *err);

/* Writes the len bytes of data to path (dm_open_output). Returns 0, dm_open_output's
 * code, or DM_ERUNTIME when writing fails ("writing PATH: why"). */
int dm_write_file(const char *path, const void *data, size_t len, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
