/* ep_machines.c - the GPU variants' counting machines (ep_machine.h) run on the host:
 * PTPE's Algorithm 1 with runs, PreElim, and MTPE's segments and log-step merge in the
 * order the kernels run them, so tests check them against Algorithm 1 without a GPU. */
#include <math.h>
#include <stdlib.h>

#include "episodes/ep_machine.h"

double ep_stream_margin(const ep_stream *s, const ep_episode *eps, int64_t n)
{
    double most = s->n ? fmax(fabs(s->time[0]), fabs(s->time[s->n - 1])) : 0;
    for (int64_t i = 0; i < n; i++)
        for (int k = 0; k + 1 < eps[i].n; k++)
            most = fmax(most, fmax(fabs(eps[i].lo[k]), fabs(eps[i].hi[k])));
    return ep_margin(most);
}

/* s's events (by type in b), read as read says (the stream where s's masks would be
 * too large: the same counts). Returns 0, or -1 without memory. */
static int ep_events_of(const ep_stream *s, ep_read read, double margin, ep_by_type *b,
                        ep_events *ev)
{
    if (ep_by_type_build(s, b) != 0)
        return -1;
    const int masks = read == EP_READ_TYPES ? ep_by_type_masks(s, b) : 1;
    if (masks < 0) {
        ep_by_type_free(b);
        return -1;
    }
    *ev = (ep_events){ .read = masks == 0 ? read : EP_READ_STREAM, .stype = s->type,
                       .stime = s->time, .first = b->first, .pos = b->pos, .time = b->time,
                       .mask = b->mask, .words = b->words, .n = s->n, .margin = margin };
    return 0;
}

/* The lists a kernel gives e's machine (ep_lists_cap of what e needs), in buf. */
static ep_lists ep_host_lists(ep_run buf[(EP_MAX_LEVEL - 1) * EP_RUNS], const ep_episode *e,
                              double margin)
{
    return (ep_lists){ .base = buf, .cap = ep_lists_cap(ep_runs_needed(e, margin)),
                       .stride = 1 };
}

int64_t ep_count_runs(const ep_stream *s, const ep_episode *e, ep_interval iv,
                      double margin, ep_read read)
{
    ep_by_type b;
    ep_events ev;
    ep_tuple whole;
    ep_run buf[(EP_MAX_LEVEL - 1) * EP_RUNS];
    if (ep_events_of(s, read, margin, &b, &ev) != 0)
        return -1;
    int overflow = ep_scan(&ev, e, iv, ep_host_lists(buf, e, margin), 0, 0, s->n, &whole);
    ep_by_type_free(&b);
    return overflow ? -1 : whole.count;
}

int64_t ep_count_preelim(const ep_stream *s, const ep_episode *e, ep_read read)
{
    ep_by_type b;
    ep_events ev;
    if (ep_events_of(s, read, 0, &b, &ev) != 0)
        return -1;
    double times[EP_MAX_LEVEL - 1];
    int64_t count = ep_preelim_count(&ev, e, times, 1);
    ep_by_type_free(&b);
    return count;
}

int64_t ep_count_mtpe(const ep_stream *s, const ep_episode *e, ep_interval iv,
                      double margin, ep_read read, int64_t r, int k, int64_t *misses)
{
    if (r < 1 || k < 1)
        return -1;
    ep_by_type b;
    ep_events ev;
    ep_tuple *t = malloc((size_t)(r * k) * sizeof *t);
    ep_run buf[(EP_MAX_LEVEL - 1) * EP_RUNS];
    const ep_lists l = ep_host_lists(buf, e, margin);
    int overflow = 0;
    int64_t missed = 0;
    if (!t || ep_events_of(s, read, margin, &b, &ev) != 0) {
        free(t);
        return -1;
    }
    /* The counting step: every segment's machines. */
    for (int64_t j = 0; j < r; j++)
        for (int m = 0; m < k; m++)
            overflow |= ep_segment_tuple(&ev, e, iv, l, ep_segment_start(s->n, r, j),
                                         ep_segment_start(s->n, r, j + 1), m, &t[j * k + m]);
    /* The merging step: round i joins the groups of 2^(i-1) segments starting at
     * multiples of 2^i with the group after each; a group's tuples sit in its first
     * segment's slots. */
    for (int64_t width = 1; width < r; width *= 2)
        for (int64_t g = 0; g + width < r; g += 2 * width) {
            const int64_t next = g + width, end = next + width < r ? next + width : r;
            for (int m = 0; m < k; m++) {
                int miss;
                ep_tuple joined;
                overflow |= ep_merge(&ev, e, iv, l, &t[g * k + m], &t[next * k], k,
                                     ep_segment_start(s->n, r, next),
                                     ep_segment_start(s->n, r, end), &joined, &miss);
                missed += miss;
                t[g * k + m] = joined;
            }
        }
    int64_t count = t[0].count;
    free(t);
    ep_by_type_free(&b);
    if (misses)
        *misses = missed;
    return overflow ? -1 : count;
}
