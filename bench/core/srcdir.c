/* srcdir.c - finding plots/, sweeps/ and results/published/ at run time: an environment
 * variable, the folder beside the binary's, or the source tree the build was configured
 * from (read from the build directory's CMakeCache.txt). */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "srcdir.h"

/* Whether path is a regular file. */
static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The source directory recorded in the CMakeCache.txt of build directory dir or of its
 * parent (tests sit in build/tests), in out; 0 when found. */
static int cmake_source_dir(const char *dir, char *out, size_t n)
{
    static const char key[] = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    char path[PATH_MAX + 32], line[PATH_MAX];
    snprintf(path, sizeof path, "%s/CMakeCache.txt", dir);
    if (!is_file(path))
        snprintf(path, sizeof path, "%s/../CMakeCache.txt", dir);
    FILE *fp = fopen(path, "r");
    int rc = -1;
    while (fp && rc != 0 && fgets(line, sizeof line, fp))
        if (strncmp(line, key, sizeof key - 1) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, n, "%s", line + sizeof key - 1);
            rc = 0;
        }
    if (fp)
        fclose(fp);
    return rc;
}

int dm_find_source_dir(const char *env, const char *sub, const char *file, char *dir,
                       size_t n, dm_err *err)
{
    char exe[PATH_MAX], path[2 * PATH_MAX + 256], src[PATH_MAX + 64];
    const char *set = getenv(env);
    if (set && set[0]) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", set, file);
        /* the user's setting: a folder without the file is bad input */
        if (!is_file(path))
            return dm_err_set(err, DM_EINPUT, "%s: %s (%s=%s names the folder of the %s "
                              "files)", path, stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)
                                                  ? "is a directory, expected a file"
                                                  : "no such file",
                              env, set, sub);
        snprintf(dir, n, "%s", set);
        return 0;
    }
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return dm_err_set(err, DM_ERUNTIME, "finding %s/%s: cannot read /proc/self/exe; set "
                          "%s to the source tree's %s/", sub, file, env, sub);
    exe[len] = '\0';
    char *bindir = dirname(exe);
    snprintf(path, sizeof path, "%s/../%s/%s", bindir, sub, file);
    if (is_file(path)) {
        snprintf(dir, n, "%s/../%s", bindir, sub);
        return 0;
    }
    if (cmake_source_dir(bindir, src, sizeof src) == 0) {
        snprintf(path, sizeof path, "%s/%s/%s", src, sub, file);
        if (is_file(path)) {
            snprintf(dir, n, "%s/%s", src, sub);
            return 0;
        }
    }
    return dm_err_set(err, DM_ERUNTIME, "%s not found in %s/../%s nor in the configured source "
                      "tree; set %s to the source tree's %s/", file, bindir, sub, env, sub);
}
