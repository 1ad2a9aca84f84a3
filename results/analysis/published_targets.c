/* published_targets.c - loads results/published/targets.tsv: the published tables that
 * no registered workload's study measures yet (their workloads are still to come), so
 * that `dmbench reproduce` lists them beside the studies' own targets. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "published.h"

enum { T_NAME, T_PAPER, T_ITEM, T_TABLE, T_WORKLOAD, T_CAPTION, NTFIELDS };

/* Splits line (its newline removed) at tabs into f. Returns the number of fields. */
static int split(char *line, char *f[NTFIELDS + 1])
{
    int n = 0;
    for (char *p = line;; p++) {
        if (n <= NTFIELDS)
            f[n] = p;
        n++;
        p = strchr(p, '\t');
        if (!p)
            return n;
        *p = '\0';
    }
}

/* Appends a target holding copies of f. Returns 0 or -1 when memory runs out. */
static int target_add(dm_pub_table *t, char *const *f, const char *path, int line)
{
    dm_pub_target *nt = realloc(t->targets, (t->ntargets + 1) * sizeof *nt);
    if (!nt)
        return -1;
    t->targets = nt;
    size_t len[NTFIELDS + 1], total = 0;
    for (int i = 0; i < NTFIELDS; i++)
        total += (len[i] = strlen(f[i]) + 1);
    total += (len[NTFIELDS] = strlen(path) + 1);
    char *buf = malloc(total), *q = buf;
    if (!buf)
        return -1;
    const char *s[NTFIELDS + 1];
    for (int i = 0; i <= NTFIELDS; i++) {
        memcpy(q, i < NTFIELDS ? f[i] : path, len[i]);
        s[i] = q;
        q += len[i];
    }
    t->targets[t->ntargets++] = (dm_pub_target){
        .target = { .name = s[T_NAME], .paper = s[T_PAPER], .item = s[T_ITEM],
                    .table = s[T_TABLE], .caption = s[T_CAPTION],
                    .kind = DM_TARGET_PUBLISHED },
        .workload = s[T_WORKLOAD], .file = s[NTFIELDS], .line = line, .buf_ = buf };
    return 0;
}

/* Checks the fields of one target line; 0, or -1 with why set. */
static int target_check(const dm_pub_table *t, char *const *f, int nf, char *why, size_t n)
{
    static const char *const names[NTFIELDS] = { "name", "paper", "item", "table",
                                                  "workload", "caption" };
    if (nf != NTFIELDS) {
        snprintf(why, n, "%d field%s, expected %d (%s)", nf, nf == 1 ? "" : "s", NTFIELDS,
                 PUBLISHED_TARGETS_HEADER);
        return -1;
    }
    for (int i = 0; i < NTFIELDS; i++)
        if (!f[i][0]) {
            snprintf(why, n, "empty %s", names[i]);
            return -1;
        }
    for (size_t i = 0; i < t->ntargets; i++)
        if (strcmp(t->targets[i].target.name, f[T_NAME]) == 0) {
            snprintf(why, n, "target %s again (first at %s:%d)", f[T_NAME],
                     t->targets[i].file, t->targets[i].line);
            return -1;
        }
    return 0;
}

int published_load_targets(const char *path, dm_pub_table *t, dm_err *err)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return dm_err_set(err, DM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    char *line = NULL, why[256];
    size_t cap = 0, n0 = t->ntargets;
    int lineno = 0, rc = 0;
    ssize_t len;
    while (rc == 0 && (len = getline(&line, &cap, in)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (lineno == 1) {
            if (strcmp(line, PUBLISHED_TARGETS_HEADER) != 0)
                rc = dm_err_set(err, DM_EINPUT, "%s:1: the header must be the tab-separated "
                                "fields name paper item table workload caption", path);
            continue;
        }
        char *f[NTFIELDS + 1];
        int nf = split(line, f);
        if (target_check(t, f, nf, why, sizeof why) != 0)
            rc = dm_err_set(err, DM_EINPUT, "%s:%d: %s", path, lineno, why);
        else if (target_add(t, f, path, lineno) != 0)
            rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
    }
    if (rc == 0 && lineno == 0)
        rc = dm_err_set(err, DM_EINPUT, "%s:1: empty file; the header must be the "
                        "tab-separated fields name paper item table workload caption", path);
    if (rc == 0 && ferror(in))
        rc = dm_err_set(err, DM_ERUNTIME, "%s: read error", path);
    free(line);
    fclose(in);
    if (rc)
        while (t->ntargets > n0)
            free(t->targets[--t->ntargets].buf_);
    return rc;
}
