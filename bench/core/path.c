/* path.c - the paths a user names: failures classified as bad input or the machine's,
 * inputs that must be files, outputs whose missing folders are made (path.h). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "path.h"

int dm_path_is_bad(int errnum)
{
    switch (errnum) {
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case EACCES:
    case EPERM:
    case ELOOP:
    case ENAMETOOLONG:
    case EROFS:
    case EEXIST:
        return 1;
    }
    return 0;
}

int dm_path_fail(dm_err *err, int errnum, const char *fmt, ...)
{
    char what[DM_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dm_err_set(err, dm_path_is_bad(errnum) ? DM_EINPUT : DM_ERUNTIME, "%s: %s", what,
                      strerror(errnum));
}

int dm_open_input(const char *path, FILE **f, dm_err *err)
{
    struct stat sb;
    if (!(*f = fopen(path, "rb")))
        return dm_path_fail(err, errno, "%s: cannot open", path);
    if (fstat(fileno(*f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(*f);
        *f = NULL;
        return dm_err_set(err, DM_EINPUT, "%s: is a directory, expected a file", path);
    }
    return 0;
}

/* dm_make_dirs of dir, its messages naming path (dir or a file in it). */
static int make_dirs(const char *dir, const char *path, dm_err *err)
{
    char part[PATH_MAX];
    struct stat sb;
    if (!dir[0])
        return 0;
    if (snprintf(part, sizeof part, "%s", dir) >= (int)sizeof part)
        return dm_path_fail(err, ENAMETOOLONG, "%s", path);
    for (char *p = part + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(part, 0777) != 0) {
            int e = errno;
            if (e != EEXIST)
                return dm_path_fail(err, e, "%s: cannot make directory %s", path, part);
            if (stat(part, &sb) == 0 && !S_ISDIR(sb.st_mode))
                return strcmp(part, path) == 0
                           ? dm_err_set(err, DM_EINPUT, "%s: is a file, not a directory", path)
                           : dm_err_set(err, DM_EINPUT, "%s: %s is a file, not a directory",
                                        path, part);
        }
        if (c == '\0' || p[1] == '\0')
            return 0;
        *p = c;
    }
}

int dm_make_dirs(const char *dir, dm_err *err)
{
    return make_dirs(dir, dir, err);
}

int dm_make_parent_dirs(const char *path, dm_err *err)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (!slash || slash == path)
        return 0;
    if ((size_t)(slash - path) >= sizeof dir)
        return dm_path_fail(err, ENAMETOOLONG, "%s", path);
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    return make_dirs(dir, path, err);
}

int dm_write_file(const char *path, const void *data, size_t len, dm_err *err)
{
    FILE *f;
    int rc = dm_open_output(path, "wb", &f, err);
    if (rc != 0)
        return rc;
    int bad = fwrite(data, 1, len, f) != len;
    if (fclose(f) != 0 || bad)
        return dm_err_set(err, DM_ERUNTIME, "writing %s: %s", path, strerror(errno));
    return 0;
}

int dm_open_output(const char *path, const char *mode, FILE **f, dm_err *err)
{
    int rc;
    *f = NULL;
    if ((rc = dm_make_parent_dirs(path, err)) != 0)
        return rc;
    if (!(*f = fopen(path, mode)))
        return dm_path_fail(err, errno, "%s: cannot write", path);
    return 0;
}
