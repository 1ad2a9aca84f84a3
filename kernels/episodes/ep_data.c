/* ep_data.c - event streams of the episodes workload read from CSV ("type,time" per
 * line, time in seconds, sorted; through the common reader, csv.h: quoted fields, CRLF,
 * a byte-order mark, gzip), with one-line errors naming path:line, and the lookup of a
 * type by its name. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/episodes.h"
#include "csv.h"

/* The growing stream and the hash of its names (open addressing, type + 1 per slot). */
typedef struct ep_loader {
    ep_stream *s;
    int64_t cap;
    int tcap;
    int *slot;
    int nslot;
} ep_loader;

static uint64_t ep_name_hash(const char *name)
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

/* Doubles the hash table to the next power of two above twice ntypes. Returns 0, or -1
 * without memory. */
static int ep_loader_rehash(ep_loader *ld)
{
    int n = ld->nslot ? ld->nslot * 2 : 64;
    int *slot = calloc((size_t)n, sizeof *slot);
    if (!slot)
        return -1;
    for (int t = 0; t < ld->s->ntypes; t++) {
        uint64_t i = ep_name_hash(ld->s->names[t]) & (uint64_t)(n - 1);
        while (slot[i])
            i = (i + 1) & (uint64_t)(n - 1);
        slot[i] = t + 1;
    }
    free(ld->slot);
    ld->slot = slot;
    ld->nslot = n;
    return 0;
}

/* The type of name, added when new. Returns it, or -1 without memory. */
static int ep_loader_type(ep_loader *ld, const char *name)
{
    ep_stream *s = ld->s;
    if (2 * (s->ntypes + 1) > ld->nslot && ep_loader_rehash(ld))
        return -1;
    uint64_t mask = (uint64_t)(ld->nslot - 1), i = ep_name_hash(name) & mask;
    for (; ld->slot[i]; i = (i + 1) & mask)
        if (strcmp(s->names[ld->slot[i] - 1], name) == 0)
            return ld->slot[i] - 1;
    if (s->ntypes == ld->tcap) {
        int tcap = ld->tcap ? ld->tcap * 2 : 64;
        char(*names)[EP_NAME_MAX] = realloc(s->names, (size_t)tcap * sizeof *names);
        if (!names)
            return -1;
        s->names = names;
        ld->tcap = tcap;
    }
    strcpy(s->names[s->ntypes], name);
    ld->slot[i] = s->ntypes + 1;
    return s->ntypes++;
}

/* Appends one event. Returns 0, or -1 without memory. */
static int ep_loader_push(ep_loader *ld, int32_t type, double time)
{
    ep_stream *s = ld->s;
    if (s->n == ld->cap) {
        int64_t cap = ld->cap ? ld->cap * 2 : 4096;
        int32_t *ty = realloc(s->type, (size_t)cap * sizeof *ty);
        if (!ty)
            return -1;
        s->type = ty;
        double *tm = realloc(s->time, (size_t)cap * sizeof *tm);
        if (!tm)
            return -1;
        s->time = tm;
        ld->cap = cap;
    }
    s->type[s->n] = type;
    s->time[s->n++] = time;
    return 0;
}

/* Parses the record read last, not blank, as "type,time". Returns 0, DM_EINPUT naming
 * path:line, or DM_ERUNTIME without memory. */
static int ep_load_line(ep_loader *ld, const dm_csv *in, dm_err *err)
{
    const char *path = in->what;
    int64_t line = in->rec_line;
    if (in->nf != 2)
        return dm_csv_count_error(in, 2, " (type,time)", err);
    const char *nb = in->f[0].b, *ne = in->f[0].e, *tb = in->f[1].b, *te = in->f[1].e;
    if (ne == nb)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: empty type name", path, (long long)line);
    if (ne - nb > EP_NAME_MAX - 1)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: type name of %d characters, at most %d",
                          path, (long long)line, (int)(ne - nb), EP_NAME_MAX - 1);
    char name[EP_NAME_MAX], num[64];
    memcpy(name, nb, (size_t)(ne - nb));
    name[ne - nb] = '\0';
    int tlen = (int)(te - tb);
    if (tlen == 0)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: missing time", path, (long long)line);
    if (tlen >= (int)sizeof num)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: time of %d characters, at most %d", path,
                          (long long)line, tlen, (int)sizeof num - 1);
    memcpy(num, tb, (size_t)tlen);
    num[tlen] = '\0';
    char *end, shown[4 * sizeof num];
    dm_csv_show(tb, te, shown, sizeof shown);
    double t = strtod(num, &end);
    if (*end != '\0' || !isfinite(t))
        return dm_err_set(err, DM_EINPUT, "%s:%lld: time '%s' is not a finite number", path,
                          (long long)line, shown);
    if (t < 0)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: time %s is negative; expected seconds "
                          "from the recording's start", path, (long long)line, shown);
    ep_stream *s = ld->s;
    if (s->n > 0 && t < s->time[s->n - 1])
        return dm_err_set(err, DM_EINPUT,
                          "%s:%lld: time %s is earlier than the line before's (%.17g): "
                          "events must be sorted by time",
                          path, (long long)line, shown, s->time[s->n - 1]);
    int type = ep_loader_type(ld, name);
    if (type < 0 || ep_loader_push(ld, type, t))
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
    return 0;
}

int ep_stream_load_csv(const char *path, ep_stream *s, dm_err *err)
{
    memset(s, 0, sizeof *s);
    dm_csv in;
    int rc = dm_csv_open(&in, path, ',', err), got;
    if (rc)
        return rc;
    ep_loader ld = {.s = s};
    int64_t empty = 0; /* the first empty line since the last data line */
    while (rc == 0 && (got = dm_csv_next(&in, err)) != 0) {
        if (got < 0)
            rc = got;
        else if (dm_csv_blank(&in)) {
            if (!empty)
                empty = in.rec_line;
        } else if (empty) {
            rc = dm_err_set(err, DM_EINPUT, "%s:%lld: empty line followed by more data (line %lld)",
                            path, (long long)empty, (long long)in.rec_line);
        } else {
            rc = ep_load_line(&ld, &in, err);
        }
    }
    if (rc == 0 && s->n == 0)
        rc = dm_err_set(err, DM_EINPUT, "%s: no events", path);
    free(ld.slot);
    dm_csv_free(&in);
    if (rc)
        ep_stream_free(s);
    return rc;
}

void ep_stream_free(ep_stream *s)
{
    free(s->type);
    free(s->time);
    free(s->names);
    memset(s, 0, sizeof *s);
}

int ep_stream_type(const ep_stream *s, const char *name)
{
    for (int t = 0; t < s->ntypes; t++)
        if (strcmp(s->names[t], name) == 0)
            return t;
    return -1;
}
