/* ep_episodes.c - serial episodes of the episodes workload: the episodes file (one
 * episode a line, "A -> B -> C", names from a stream; gzip when the file is) with
 * one-line errors naming path:line, and an episode written back as text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/episodes.h"
#include "lines.h"

/* Parses the non-blank line [b, e) into *ep, its links given as ep_episodes_load says.
 * Returns 0, or DM_EINPUT naming path:line. */
static int ep_parse_line(const char *b, const char *e, const ep_stream *s, int ngaps,
                         const double *lo, const double *hi, ep_episode *ep,
                         const char *path, int64_t line, dm_err *err)
{
    memset(ep, 0, sizeof *ep);
    for (const char *p = b;;) {
        const char *arrow = p;
        while (arrow + 1 < e && !(arrow[0] == '-' && arrow[1] == '>'))
            arrow++;
        if (arrow + 1 >= e)
            arrow = e;
        const char *nb = p, *ne = arrow;
        while (nb < ne && (*nb == ' ' || *nb == '\t'))
            nb++;
        while (ne > nb && (ne[-1] == ' ' || ne[-1] == '\t'))
            ne--;
        if (nb == ne)
            return dm_err_set(err, DM_EINPUT, "%s:%lld: empty name at episode node %d", path,
                              (long long)line, ep->n + 1);
        if (ep->n == EP_MAX_LEVEL)
            return dm_err_set(err, DM_EINPUT, "%s:%lld: more than %d names in the episode", path,
                              (long long)line, EP_MAX_LEVEL);
        char name[EP_NAME_MAX];
        int type = -1;
        if (ne - nb < EP_NAME_MAX) {
            memcpy(name, nb, (size_t)(ne - nb));
            name[ne - nb] = '\0';
            type = ep_stream_type(s, name);
        }
        if (type < 0)
            return dm_err_set(err, DM_EINPUT, "%s:%lld: unknown event type '%.*s'", path,
                              (long long)line, (int)(ne - nb > 40 ? 40 : ne - nb), nb);
        if (ep->n > 0) {
            int g = ngaps == 1 ? 0 : ep->n - 1;
            ep->lo[ep->n - 1] = g < ngaps ? lo[g] : 0;
            ep->hi[ep->n - 1] = g < ngaps ? hi[g] : 0;
        }
        ep->ev[ep->n++] = type;
        if (arrow == e)
            break;
        p = arrow + 2;
    }
    if (ngaps > 1 && ep->n - 1 != ngaps)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: an episode of %d link%s, and %d gap "
                          "intervals are given, one per link", path, (long long)line,
                          ep->n - 1, ep->n == 2 ? "" : "s", ngaps);
    return 0;
}

int ep_episodes_load(const char *path, const ep_stream *s, int ngaps, const double *lo,
                     const double *hi, ep_episode **eps, int64_t *n, dm_err *err)
{
    *eps = NULL;
    *n = 0;
    for (int g = 0; g < ngaps; g++)
        if (!isfinite(lo[g]) || !isfinite(hi[g]) || lo[g] < 0 || lo[g] > hi[g])
            return dm_err_set(err, DM_EINPUT, "%s: gap interval [%g, %g] must have 0 <= lo "
                              "<= hi (seconds)", path, lo[g], hi[g]);
    char *text;
    size_t len;
    int rc = dm_read_text(path, &text, &len, err);
    if (rc)
        return rc;
    int64_t cap = 0;
    dm_lines lines = {.p = text, .end = text + len};
    const char *b, *e;
    while (rc == 0 && dm_lines_next(&lines, &b, &e)) {
        const char *p = b;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p < e) {
            if (*n == cap) {
                int64_t c2 = cap ? cap * 2 : 64;
                ep_episode *grown = realloc(*eps, (size_t)c2 * sizeof *grown);
                if (!grown) {
                    rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
                    break;
                }
                *eps = grown;
                cap = c2;
            }
            rc = ep_parse_line(b, e, s, ngaps, lo, hi, &(*eps)[*n], path, lines.line, err);
            if (rc == 0)
                (*n)++;
        }
    }
    if (rc == 0 && *n == 0)
        rc = dm_err_set(err, DM_EINPUT, "%s: no episode at all", path);
    free(text);
    if (rc) {
        free(*eps);
        *eps = NULL;
        *n = 0;
    }
    return rc;
}

ep_episode ep_episode_relaxed(const ep_episode *e)
{
    ep_episode r = *e;
    for (int k = 0; k + 1 < r.n; k++)
        r.lo[k] = 0;
    return r;
}

void ep_episode_format(const ep_stream *s, const ep_episode *e, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    for (int k = 0; k < e->n; k++)
        dm_append(buf, n, "%s%s", k ? " -> " : "", s->names[e->ev[k]]);
}

void ep_episode_format_links(const ep_stream *s, const ep_episode *e, ep_interval iv,
                             char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    for (int k = 0; k < e->n; k++) {
        if (k)
            dm_append(buf, n, " -%c%g:%g]-> ", (iv & EP_CLOSED) ? '[' : '(',
                      e->lo[k - 1] * 1e3, e->hi[k - 1] * 1e3);
        dm_append(buf, n, "%s", s->names[e->ev[k]]);
    }
}
