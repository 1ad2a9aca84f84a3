/* kept.h - files a refused command must leave as they were: each file's bytes (a
 * directory: that it is one, with its entries) and whether a -wal, -shm or -journal file
 * is beside it, taken before the command and compared after; and `dmbench ARGS` run with
 * the bad-input contract checked at once (exit status 2, one error line, every kept file
 * as it was). Static functions, included after cmocka.h and cli_fixture.h. */
#ifndef DM_TEST_KEPT_H
#define DM_TEST_KEPT_H

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define KEPT_MAX 128

typedef struct kept_file {
    char path[1024];
    int exists, is_dir;
    char *bytes; /* a file's content (malloc'd) */
    size_t len;  /* its length, or a directory's number of entries */
    int side[3]; /* whether path-wal, path-shm, path-journal exist */
} kept_file;

typedef struct kept {
    kept_file f[KEPT_MAX];
    int n;
} kept;

static const char *const kept_sides[3] = { "-wal", "-shm", "-journal" };

/* The number of entries of directory path (. and .. left out). */
static inline size_t kept_entries(const char *path)
{
    size_t n = 0;
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

/* Takes what path is now into k. */
static inline void kept_take(kept_file *k, const char *path)
{
    struct stat sb;
    memset(k, 0, sizeof *k);
    snprintf(k->path, sizeof k->path, "%s", path);
    for (int i = 0; i < 3; i++) {
        char side[sizeof k->path + 16];
        snprintf(side, sizeof side, "%s%s", path, kept_sides[i]);
        k->side[i] = stat(side, &sb) == 0;
    }
    if (stat(path, &sb) != 0)
        return;
    k->exists = 1;
    k->is_dir = S_ISDIR(sb.st_mode);
    if (k->is_dir) {
        k->len = kept_entries(path);
        return;
    }
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    k->bytes = malloc((size_t)sb.st_size + 1);
    assert_non_null(k->bytes);
    k->len = fread(k->bytes, 1, (size_t)sb.st_size, fp);
    fclose(fp);
}

/* Adds each of the n paths to ks, as they are now. */
static inline void keep(kept *ks, int n, const char *const *paths)
{
    for (int i = 0; i < n; i++) {
        assert_true(ks->n < KEPT_MAX);
        kept_take(&ks->f[ks->n++], paths[i]);
    }
}

/* Fails the test (naming what changed and after what) unless every file of ks is as
 * it was taken. */
static inline void kept_check(const kept *ks, const char *after)
{
    for (int i = 0; i < ks->n; i++) {
        const kept_file *was = &ks->f[i];
        kept_file now;
        kept_take(&now, was->path);
        const char *changed =
            now.exists != was->exists                  ? "made or removed"
            : now.is_dir != was->is_dir                ? "changed kind"
            : now.len != was->len                      ? "changed length"
            : !now.is_dir && now.len &&
                      memcmp(now.bytes, was->bytes, now.len) != 0 ? "changed bytes"
            : now.side[0] != was->side[0]              ? "-wal made or removed"
            : now.side[1] != was->side[1]              ? "-shm made or removed"
            : now.side[2] != was->side[2]              ? "-journal made or removed"
                                                        : NULL;
        free(now.bytes);
        if (changed)
            fail_msg("%s: %s by %s", was->path, changed, after);
    }
}

static inline void kept_free(kept *ks)
{
    for (int i = 0; i < ks->n; i++)
        free(ks->f[i].bytes);
    ks->n = 0;
}

/* Runs "dmbench ARGS" in f and checks the bad-input contract: exit status 2, one line
 * "dmbench: error: ..." (or "dmbench CMD: error: ...") on stderr that says says, and
 * every file of ks as it was. */
static inline void refused_keeping(fixture *f, const kept *ks, const char *says,
                                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline void refused_keeping(fixture *f, const kept *ks, const char *says,
                                   const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    int rc = dmbench(f, "%s", args);
    const char *err = slurp(f->errf);
    if (rc != 2 || count_lines(err) != 1 || strncmp(err, "dmbench", 7) != 0 ||
        !strstr(err, "error: ") || !strstr(err, says))
        fail_msg("dmbench %s: exit %d, stderr '%s'; want exit 2 and one error line saying '%s'",
                 args, rc, err, says);
    kept_check(ks, args);
}

#endif
