/* ep_brute.c - the non-overlapped count of a serial episode straight from its definition,
 * by exhaustive search over the chains of events: slow, and built unlike Algorithm 1
 * (ep_count.c) so that the tests can check one against the other. */
#include <stdlib.h>

#include "episodes/episodes.h"

/* The definition (header of episodes.h): an occurrence of ev[0] -> ... -> ev[n-1] is a
 * chain of events at stream positions p_0 < p_1 < ... < p_{n-1} with type(p_k) = ev[k]
 * and every gap time(p_{k+1}) - time(p_k) inside link k's interval. Two occurrences are
 * non-overlapped when one's last event comes before the other's first in the stream;
 * the count is the size of the largest set of pairwise non-overlapped occurrences.
 *
 * Why the greedy below finds that largest set. Only an occurrence's first and last
 * positions matter to overlap, so occurrences are intervals [first, last] and
 * non-overlapped ones are disjoint intervals. Greedy: take the occurrence with the
 * earliest end, then repeatedly the earliest-ending one that starts after the last end
 * taken. Let the greedy take ends g_1 < g_2 < ... and let an optimal set, sorted, end at
 * o_1 < o_2 < ... < o_m. Then g_k <= o_k for every k <= m: g_1 <= o_1 as g_1 is the
 * earliest end of all; if g_k <= o_k, occurrence k+1 of the optimal set starts after
 * o_k >= g_k, so it is a candidate for the greedy's (k+1)-th pick, which exists and
 * ends no later: g_{k+1} <= o_{k+1}. So the greedy takes at least m occurrences.
 * Scanning the ends in order, an occurrence ending at j is a candidate iff it starts
 * after the last end taken, and one such exists iff the latest-starting occurrence
 * ending at j does: that is all the greedy needs to know about each end. */

/* 1 when the gap from t0 to t is inside the interval lo..hi of kind iv (in float with
 * EP_FLOAT: times and bounds rounded, the difference taken in float). */
static int ep_gap_inside(double t0, double t, double lo, double hi, ep_interval iv)
{
    if (iv & EP_FLOAT) {
        float gap = (float)t - (float)t0, flo = (float)lo, fhi = (float)hi;
        return ((iv & EP_CLOSED) ? gap >= flo : gap > flo) && gap <= fhi;
    }
    double gap = t - t0;
    return ((iv & EP_CLOSED) ? gap >= lo : gap > lo) && gap <= hi;
}

/* Tries every way to go on from a chain of nodes 0..k whose node k is the event at p
 * and whose node 0 is at start; a complete chain ending at q raises latest[q] to start. */
static void ep_chains_from(const ep_stream *s, const ep_episode *e, ep_interval iv, int k,
                           int64_t p, int64_t start, int64_t *latest)
{
    if (k == e->n - 1) {
        if (start > latest[p])
            latest[p] = start;
        return;
    }
    for (int64_t q = p + 1; q < s->n; q++)
        if (s->type[q] == e->ev[k + 1] &&
            ep_gap_inside(s->time[p], s->time[q], e->lo[k], e->hi[k], iv))
            ep_chains_from(s, e, iv, k + 1, q, start, latest);
}

int64_t ep_count_brute(const ep_stream *s, const ep_episode *e, ep_interval iv)
{
    /* latest[j]: the latest start of an occurrence ending at j, or -1 when none does. */
    int64_t *latest = malloc(((size_t)s->n + 1) * sizeof *latest);
    if (!latest)
        return -1;
    for (int64_t j = 0; j < s->n; j++)
        latest[j] = -1;
    for (int64_t p = 0; p < s->n; p++)
        if (s->type[p] == e->ev[0])
            ep_chains_from(s, e, iv, 0, p, p, latest);
    int64_t count = 0, end = -1;
    for (int64_t j = 0; j < s->n; j++)
        if (latest[j] > end) {
            count++;
            end = j;
        }
    free(latest);
    return count;
}
