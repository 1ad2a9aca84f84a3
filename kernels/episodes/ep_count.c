/* ep_count.c - Algorithm 1 of the papers: the non-overlapped count of one serial episode
 * with a gap interval per link, from a list of times per node, in one pass over the
 * stream with bounded memory (the reference, and what ep_count_all_mt runs per episode). */
#include <stdlib.h>
#include <string.h>

#include "episodes/episodes.h"

/* List k holds the times of the events, since the last counted occurrence, that end a
 * chain ev[0] -> ... -> ev[k] satisfying links 0..k-1 (the papers' s[k]). An event of
 * type ev[k] joins list k when list k-1 holds an entry it is linked to; processing the
 * nodes from the last down means list k-1 holds only earlier events when it is looked
 * at, so one event never plays two nodes of one chain, even when types repeat or the
 * gap 0 is allowed. When the last node is matched, an occurrence ends at this event as
 * early as any occurrence starting after the previous one can end; taking it and
 * emptying the lists is picking intervals by earliest end, which gives the largest set
 * of non-overlapped occurrences (see ep_brute.c, which checks it by exhaustive search).
 *
 * Two changes from the printed algorithm that leave the count alone. The papers scan
 * list k-1 for any entry within (lo, hi]; times are appended in order and t - t' only
 * grows as t' gets older, so after dropping the entries with t - t' > hi (too old now,
 * and so for every later event) the oldest survivor has the largest gap, and an entry
 * fits iff the oldest does. Entries are dropped from the front when a list is looked
 * at, and when it is full before it may grow, so a list never has room for more than
 * four times the events of one window of its link's hi: memory stays bounded however
 * long the stream. The printed line 12 counts at i = |alpha| - 1, a misprint for the
 * last node; and a one-node episode, which the printed algorithm never counts, counts
 * each event of its type. */
typedef struct ep_list {
    double *t;
    int64_t head, tail, cap; /* live entries t[head..tail) */
} ep_list;

/* What follows is instantiated twice, for double and for float times (f32, a constant
 * at each call, so the double path carries no test of it). */
#define EP_INLINE static inline __attribute__((always_inline))

/* t - t0, in double or (f32) in float arithmetic on both rounded to float. */
EP_INLINE double ep_gap(double t, double t0, int f32)
{
    return f32 ? (double)((float)t - (float)t0) : t - t0;
}

/* x, or (f32) x rounded to float. */
EP_INLINE double ep_bound(double x, int f32)
{
    return f32 ? (double)(float)x : x;
}

/* Drops the entries of l more than hi before t. */
EP_INLINE void ep_list_prune(ep_list *l, double t, double hi, int f32)
{
    while (l->head < l->tail && ep_gap(t, l->t[l->head], f32) > hi)
        l->head++;
}

/* Appends t to l (whose link's upper bound is hi). Returns 0, or -1 without memory. */
EP_INLINE int ep_list_push(ep_list *l, double t, double hi, int f32)
{
    if (l->tail == l->cap) {
        ep_list_prune(l, t, hi, f32);
        if (l->head > 0 && l->head >= l->cap / 2) {
            /* At most half is live: slide it down instead of growing. */
            memmove(l->t, l->t + l->head, (size_t)(l->tail - l->head) * sizeof *l->t);
            l->tail -= l->head;
            l->head = 0;
        } else {
            int64_t cap = l->cap ? 2 * l->cap : 16;
            double *grown = realloc(l->t, (size_t)cap * sizeof *grown);
            if (!grown)
                return -1;
            l->t = grown;
            l->cap = cap;
        }
    }
    l->t[l->tail++] = t;
    return 0;
}

/* 1 when some entry of l is linked to an event at t by the interval lo..hi. */
EP_INLINE int ep_list_links(ep_list *l, double t, double lo, double hi, ep_interval iv,
                            int f32)
{
    ep_list_prune(l, t, hi, f32);
    if (l->head == l->tail)
        return 0;
    double gap = ep_gap(t, l->t[l->head], f32);
    return (iv & EP_CLOSED) ? gap >= lo : gap > lo;
}

/* The count (ep_count), f32 a constant. In float, rounding and float subtraction are
 * monotonic, so the gap to an older entry is never smaller: pruning stays exact. */
EP_INLINE int64_t ep_count_in(const ep_stream *s, const ep_episode *e, ep_interval iv,
                              int f32)
{
    const int last = e->n - 1;
    /* nodes[y & 63]: the nodes whose type agrees with y in its low 6 bits (exactly the
     * nodes of type y when there are at most 64 types; checked below beyond that). */
    uint16_t nodes[64] = {0};
    for (int k = 0; k <= last; k++)
        nodes[e->ev[k] & 63] |= (uint16_t)(1u << k);
    ep_list lists[EP_MAX_LEVEL - 1];
    memset(lists, 0, sizeof lists);
    int64_t count = 0;
    for (int64_t i = 0; i < s->n; i++) {
        const int32_t type = s->type[i];
        unsigned todo = nodes[type & 63];
        const double t = s->time[i];
        while (todo) {
            const int k = 31 - __builtin_clz(todo); /* the last node first */
            todo &= ~(1u << k);
            if (e->ev[k] != type)
                continue;
            if (k > 0 && !ep_list_links(&lists[k - 1], t, ep_bound(e->lo[k - 1], f32),
                                        ep_bound(e->hi[k - 1], f32), iv, f32))
                continue;
            if (k == last) {
                count++;
                for (int j = 0; j < last; j++)
                    lists[j].head = lists[j].tail = 0;
                break;
            }
            if (ep_list_push(&lists[k], t, ep_bound(e->hi[k], f32), f32) != 0) {
                count = -1;
                goto done;
            }
        }
    }
done:
    for (int j = 0; j < last; j++)
        free(lists[j].t);
    return count;
}

/* The two instantiations, kept apart (one function holding both ran 15 % slower). */
static __attribute__((noinline)) int64_t ep_count_f64(const ep_stream *s,
                                                      const ep_episode *e, ep_interval iv)
{
    return ep_count_in(s, e, iv, 0);
}

static __attribute__((noinline)) int64_t ep_count_f32(const ep_stream *s,
                                                      const ep_episode *e, ep_interval iv)
{
    return ep_count_in(s, e, iv, 1);
}

int64_t ep_count(const ep_stream *s, const ep_episode *e, ep_interval iv)
{
    return (iv & EP_FLOAT) ? ep_count_f32(s, e, iv) : ep_count_f64(s, e, iv);
}
