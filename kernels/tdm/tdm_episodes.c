/* tdm_episodes.c - the episodes a tdm problem counts: every ordered sequence of `level`
 * distinct letters in lexicographic order, or a list read from a file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "tdm/tdm.h"

int64_t tdm_episodes_count(int level)
{
    if (level < 1 || level > TDM_MAX_LEVEL)
        return 0;
    int64_t n = 1;
    for (int k = 0; k < level; k++) {
        if (n > INT64_MAX / (TDM_ALPHABET - k))
            return INT64_MAX; /* beyond any limit that matters */
        n *= TDM_ALPHABET - k;
    }
    return n;
}

void tdm_episodes_free(tdm_episodes *e)
{
    free(e->letters);
    e->letters = NULL;
    e->n = 0;
}

/* Writes the episodes extending prefix[0..depth) into e, in lexicographic order, until
 * e holds limit of them. */
static void tdm_enumerate_from(tdm_episodes *e, int64_t limit, uint8_t *prefix, int depth,
                               int *used)
{
    if (depth == e->level) {
        memcpy(e->letters + e->n * e->level, prefix, (size_t)e->level);
        e->n++;
        return;
    }
    for (int c = 0; c < TDM_ALPHABET && e->n < limit; c++) {
        if (used[c])
            continue;
        used[c] = 1;
        prefix[depth] = (uint8_t)c;
        tdm_enumerate_from(e, limit, prefix, depth + 1, used);
        used[c] = 0;
    }
}

/* The words of a count above what there is, shared by the enumeration's error and the
 * variants' pruning reason. */
static void tdm_count_exceeds(int64_t count, int64_t have, const char *of, char *buf,
                              size_t n)
{
    snprintf(buf, n, "count %" PRId64 " exceeds the %" PRId64 " episodes of %s", count, have,
             of);
}

/* 1 with err set (DM_EINPUT) when lv is no episode length. */
static int tdm_bad_level(int64_t lv, dm_err *err)
{
    if (lv >= 1 && lv <= TDM_MAX_LEVEL)
        return 0;
    dm_err_set(err, DM_EINPUT,
               "level %" PRId64 ": an episode has 1 to %d distinct letters (the alphabet is "
               "A-Z)",
               lv, TDM_MAX_LEVEL);
    return 1;
}

int tdm_episodes_enumerate(int level, int64_t count, tdm_episodes *e, dm_err *err)
{
    char why[256], of[32];
    memset(e, 0, sizeof *e);
    if (tdm_bad_level(level, err))
        return DM_EINPUT;
    int64_t all = tdm_episodes_count(level);
    if (count > all) {
        snprintf(of, sizeof of, "level %d", level);
        tdm_count_exceeds(count, all, of, why, sizeof why);
        return dm_err_set(err, DM_EINPUT, "%s", why);
    }
    int64_t keep = count > 0 ? count : all;
    if (keep > TDM_MAX_EPISODES)
        return dm_err_set(err, DM_EINPUT,
                          "level %d has %" PRId64 " episodes; at most %d are enumerated "
                          "(level 5 and below, or set count)",
                          level, all, TDM_MAX_EPISODES);
    e->level = level;
    e->letters = malloc((size_t)(keep * level));
    if (!e->letters)
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory for %" PRId64 " episodes",
                          keep);
    uint8_t prefix[TDM_MAX_LEVEL];
    int used[TDM_ALPHABET] = {0};
    tdm_enumerate_from(e, keep, prefix, 0, used);
    return 0;
}

int tdm_count_refuse(const dm_point *pt, char *why, size_t n)
{
    int64_t count = dm_point_int(pt, "count"), level = dm_point_int(pt, "level");
    char of[32];
    if (count == 0 || strcmp(dm_point_str(pt, "episodes"), "all") != 0 || level < 1 ||
        level > TDM_MAX_LEVEL || count <= tdm_episodes_count((int)level))
        return 0;
    snprintf(of, sizeof of, "level %" PRId64, level);
    tdm_count_exceeds(count, tdm_episodes_count((int)level), of, why, n);
    return 1;
}

/* Parses one line (without its newline) as an episode of e->level letters appended to
 * e. Returns 0, or DM_EINPUT naming path and line. */
static int tdm_episode_line(const char *path, int64_t line, const char *text, tdm_episodes *e,
                            dm_err *err)
{
    uint8_t *ep = e->letters + e->n * e->level;
    int used[TDM_ALPHABET] = {0}, len = 0;
    for (const char *p = text; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\r')
            continue;
        if (*p < 'A' || *p > 'Z')
            return dm_err_set(err, DM_EINPUT, "%s:%" PRId64 ": '%c' is not a letter A-Z", path,
                              line, *p);
        if (len == e->level)
            return dm_err_set(err, DM_EINPUT, "%s:%" PRId64 ": more than level=%d letters",
                              path, line, e->level);
        if (used[*p - 'A']++)
            return dm_err_set(err, DM_EINPUT,
                              "%s:%" PRId64 ": letter %c twice (an episode's letters are "
                              "distinct)",
                              path, line, *p);
        ep[len++] = (uint8_t)(*p - 'A');
    }
    if (len != e->level)
        return dm_err_set(err, DM_EINPUT, "%s:%" PRId64 ": %d letters; level=%d needs %d", path,
                          line, len, e->level, e->level);
    e->n++;
    return 0;
}

/* An episode and the line it came from, sorted to find repeats. */
typedef struct tdm_line_ep {
    uint8_t letters[TDM_MAX_LEVEL]; /* zero past the level */
    int64_t line;
} tdm_line_ep;

static int tdm_by_letters(const void *a, const void *b)
{
    const tdm_line_ep *x = a, *y = b;
    int c = memcmp(x->letters, y->letters, sizeof x->letters);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* DM_EINPUT when an episode of e occurs twice (naming both lines, given each episode's
 * line number); DM_ERUNTIME when memory runs out. */
static int tdm_check_unique(const char *path, const tdm_episodes *e, const int64_t *lines,
                            dm_err *err)
{
    tdm_line_ep *v = calloc((size_t)e->n, sizeof *v);
    if (!v)
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory");
    for (int64_t i = 0; i < e->n; i++) {
        memcpy(v[i].letters, e->letters + i * e->level, (size_t)e->level);
        v[i].line = lines[i];
    }
    qsort(v, (size_t)e->n, sizeof *v, tdm_by_letters);
    int rc = 0;
    for (int64_t k = 1; k < e->n && rc == 0; k++) {
        if (memcmp(v[k].letters, v[k - 1].letters, sizeof v[k].letters) == 0) {
            char name[TDM_MAX_LEVEL + 1];
            int l = 0;
            for (; l < e->level; l++)
                name[l] = (char)('A' + v[k].letters[l]);
            name[l] = '\0';
            rc = dm_err_set(err, DM_EINPUT, "%s:%" PRId64 ": episode %s repeats line %" PRId64,
                            path, v[k].line, name, v[k - 1].line);
        }
    }
    free(v);
    return rc;
}

/* Keeps the first count of e's episodes in lexicographic order, in that order (sorted
 * in place). Returns 0, DM_EINPUT when e has fewer, DM_ERUNTIME when memory runs out. */
static int tdm_keep_first(const char *path, int64_t count, tdm_episodes *e, dm_err *err)
{
    char why[256];
    if (count > e->n) {
        tdm_count_exceeds(count, e->n, path, why, sizeof why);
        return dm_err_set(err, DM_EINPUT, "%s", why);
    }
    tdm_line_ep *v = calloc((size_t)e->n, sizeof *v);
    if (!v)
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory");
    for (int64_t i = 0; i < e->n; i++)
        memcpy(v[i].letters, e->letters + i * e->level, (size_t)e->level);
    qsort(v, (size_t)e->n, sizeof *v, tdm_by_letters);
    for (int64_t i = 0; i < count; i++)
        memcpy(e->letters + i * e->level, v[i].letters, (size_t)e->level);
    e->n = count;
    free(v);
    return 0;
}

int tdm_episodes_load(const char *path, int level, int64_t count, tdm_episodes *e,
                      dm_err *err)
{
    char text[256];
    int64_t cap = 0, line = 0, *lines = NULL;
    int rc = DM_ERUNTIME;
    memset(e, 0, sizeof *e);
    if (level < 1 || level > TDM_MAX_LEVEL)
        return dm_err_set(err, DM_EINPUT, "level %d: an episode has 1 to %d distinct letters",
                          level, TDM_MAX_LEVEL);
    e->level = level;
    FILE *f;
    int opened = dm_open_input(path, &f, err);
    if (opened != 0) {
        dm_err_prefix(err, "episodes file");
        return opened;
    }
    while (fgets(text, sizeof text, f)) {
        line++;
        size_t len = strlen(text);
        if (len == sizeof text - 1 && text[len - 1] != '\n') {
            rc = dm_err_set(err, DM_EINPUT, "%s:%" PRId64 ": line too long", path, line);
            goto fail;
        }
        text[strcspn(text, "\n")] = '\0';
        if (text[strspn(text, " \t\r")] == '\0' || text[0] == '#')
            continue;
        if (e->n == cap) {
            int64_t ncap = cap ? 2 * cap : 64;
            uint8_t *l = realloc(e->letters, (size_t)(ncap * level));
            int64_t *ln = realloc(lines, (size_t)ncap * sizeof *ln);
            if (l)
                e->letters = l;
            if (ln)
                lines = ln;
            if (!l || !ln) {
                dm_err_set(err, DM_ERUNTIME, "tdm: out of memory reading %s", path);
                goto fail;
            }
            cap = ncap;
        }
        lines[e->n] = line;
        if ((rc = tdm_episode_line(path, line, text, e, err)) != 0)
            goto fail;
    }
    if (ferror(f)) {
        rc = dm_err_set(err, DM_ERUNTIME, "%s: read error", path);
        goto fail;
    }
    if (e->n == 0) {
        rc = dm_err_set(err, DM_EINPUT, "%s: no episodes", path);
        goto fail;
    }
    if ((rc = tdm_check_unique(path, e, lines, err)) != 0 ||
        (count > 0 && (rc = tdm_keep_first(path, count, e, err)) != 0))
        goto fail;
    fclose(f);
    free(lines);
    return 0;
fail:
    fclose(f);
    free(lines);
    tdm_episodes_free(e);
    return rc;
}

int tdm_episodes_for_point(const dm_point *pt, tdm_episodes *e, dm_err *err)
{
    int64_t lv = dm_point_int(pt, "level"), count = dm_point_int(pt, "count");
    const char *src = dm_point_str(pt, "episodes");
    if (tdm_bad_level(lv, err))
        return DM_EINPUT;
    int level = (int)lv;
    if (strcmp(src, "all") == 0)
        return tdm_episodes_enumerate(level, count, e, err);
    return tdm_episodes_load(src, level, count, e, err);
}

int tdm_problem_size(const dm_point *pt, int64_t *n, dm_err *err)
{
    int64_t level = dm_point_int(pt, "level"), count = dm_point_int(pt, "count");
    char why[256];
    if (strcmp(dm_point_str(pt, "episodes"), "all") != 0) {
        tdm_episodes e = {0};
        int rc = tdm_episodes_for_point(pt, &e, err);
        *n = e.n;
        tdm_episodes_free(&e);
        return rc;
    }
    if (tdm_bad_level(level, err))
        return DM_EINPUT;
    if (tdm_count_refuse(pt, why, sizeof why))
        return dm_err_set(err, DM_EINPUT, "%s", why);
    *n = count > 0 ? count : tdm_episodes_count((int)level);
    return 0;
}

void tdm_episode_format(const tdm_episodes *e, int64_t i, char *buf, size_t n)
{
    size_t k = 0;
    for (; k < (size_t)e->level && k + 1 < n; k++)
        buf[k] = (char)('A' + e->letters[i * e->level + (int64_t)k]);
    if (n)
        buf[k] = '\0';
}
