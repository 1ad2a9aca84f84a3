/* ep_machine.h - the counting machines the GPU variants run, written once for the host
 * (C, where the tests and the host emulation run them) and the device (CUDA): Algorithm 1
 * with each list kept as runs of entries (bounded memory, so it fits a thread), PreElim's
 * one time stamp per node (Algorithm 3), and MTPE's segment scan and merge (papers Figs.
 * 4-7). Includes only episodes.h. */
#ifndef DM_EP_MACHINE_H
#define DM_EP_MACHINE_H

#include <math.h>
#include <stdint.h>

#include "episodes/episodes.h"

#ifdef __CUDACC__
#define EP_HD static inline __host__ __device__
#else
#define EP_HD static inline
#endif

/* ---- Algorithm 1 with runs --------------------------------------------------------------
 *
 * Algorithm 1 asks of list k-1 only whether some entry t' has its gap t - t' inside the
 * link's interval, for times t that only grow. Entry t' answers yes for t in (t' + lo,
 * t' + hi]; when two consecutive entries are at most hi - lo apart their intervals touch,
 * so a run of entries, each within g = hi - lo - margin of the one before, answers yes
 * exactly for t in (first + lo, last + hi]: one pair of times stands for the run. In
 * floating point the gaps are rounded (monotonically); margin, a few units in the last
 * place of the stream's largest time, keeps "touch" true after rounding, so the test
 * below gives Algorithm 1's answer bit for bit (proof in docs/episodes-gpu.md, "Lists as
 * runs"; tests/test_episodes_machine.c checks it against ep_count on random streams with
 * gaps on the bounds). A run is dropped when t - last > hi. Live runs' lasts lie within
 * hi of now and each starts more than g after the one before, so a list never holds more
 * than floor((hi + margin) / g) + 1 runs (ep_runs_needed); EP_RUNS bounds what a thread
 * keeps. */
#define EP_RUNS 8 /* runs per list: a power of two */

typedef struct ep_run {
    double first, last;
} ep_run;

/* Where a machine keeps its lists' runs, outside it: run s of list k at base[(k * cap +
 * s) * stride]. A kernel gives each thread a column of a block's shared memory (stride:
 * the block's threads), so the lists live in shared memory, sized to the episodes; the
 * host gives an array (stride 1). */
typedef struct ep_lists {
    ep_run *base;
    int cap;    /* runs per list: a power of two, at most EP_RUNS */
    int stride;
} ep_lists;

/* A machine's state is registers (an array a thread indexes at run time would be local
 * memory, which a full card's threads spill out of L1): list k's live runs are head,
 * head + 1, ... (mod cap), len of them, kept in byte k & 7 of slots[k >> 3] as head | len
 * << 4 (cap <= EP_RUNS = 8 keeps both in four bits). */
typedef struct ep_machine {
    ep_lists l;
    uint64_t slots0, slots1; /* lists 0-7 and 8-14 */
    uint64_t filter;  /* bit y & 63 set for each type y of the episode */
    int overflow;     /* a list needed more than cap runs: the count is not valid */
} ep_machine;

/* List k's byte of m's slots. */
EP_HD int ep_slot(const ep_machine *m, int k)
{
    return (int)(((k < 8 ? m->slots0 : m->slots1) >> ((k & 7) * 8)) & 0xff);
}

EP_HD int ep_head(const ep_machine *m, int k)
{
    return ep_slot(m, k) & 15;
}

EP_HD int ep_len(const ep_machine *m, int k)
{
    return ep_slot(m, k) >> 4;
}

EP_HD void ep_slot_set(ep_machine *m, int k, int head, int len)
{
    const int shift = (k & 7) * 8;
    const uint64_t keep = ~((uint64_t)0xff << shift), byte = (uint64_t)(head | len << 4) << shift;
    if (k < 8)
        m->slots0 = (m->slots0 & keep) | byte;
    else
        m->slots1 = (m->slots1 & keep) | byte;
}

/* The most runs a list of e needs with this margin, or INT32_MAX when a link's interval is
 * too narrow for runs to merge (hi - lo <= margin). */
EP_HD int ep_runs_needed(const ep_episode *e, double margin)
{
    int most = 1;
    for (int k = 0; k + 1 < e->n; k++) {
        double g = e->hi[k] - e->lo[k] - margin;
        if (!(g > 0))
            return INT32_MAX;
        double runs = floor((e->hi[k] + margin) / g) + 1;
        if (runs > (double)INT32_MAX)
            return INT32_MAX;
        most = (int)runs > most ? (int)runs : most;
    }
    return most;
}

/* The runs per list a machine keeps for lists needing `needed` runs: the power of two at
 * or above it (1 at least). */
EP_HD int ep_lists_cap(int needed)
{
    int cap = 1;
    while (cap < needed && cap < EP_RUNS)
        cap *= 2;
    return cap;
}

/* The margin for times and gap bounds of magnitude at most tmax: 2^-40 of tmax (2^13
 * units in the last place, far above the rounding of any gap), at least 2^-40. */
EP_HD double ep_margin(double tmax)
{
    return ldexp(tmax > 1 ? tmax : 1, -40);
}

/* Bit y & 63 set for each type y of e: a first test that rejects most events. */
EP_HD uint64_t ep_type_filter(const ep_episode *e)
{
    uint64_t f = 0;
    for (int k = 0; k < e->n; k++)
        f |= (uint64_t)1 << (e->ev[k] & 63);
    return f;
}

EP_HD void ep_machine_init(ep_machine *m, const ep_episode *e, ep_lists l)
{
    m->l = l;
    m->filter = ep_type_filter(e);
    m->overflow = 0;
    m->slots0 = m->slots1 = 0;
}

EP_HD ep_run *ep_run_at(const ep_machine *m, int k, int s)
{
    return &m->l.base[(k * m->l.cap + s) * m->l.stride];
}

/* Drops the runs of list k whose last entry is more than hi before t. */
EP_HD void ep_runs_prune(ep_machine *m, int k, double t, double hi)
{
    int head = ep_head(m, k), len = ep_len(m, k);
    if (len == 0 || !(t - ep_run_at(m, k, head)->last > hi))
        return;
    do {
        head = (head + 1) & (m->l.cap - 1);
        len--;
    } while (len > 0 && t - ep_run_at(m, k, head)->last > hi);
    ep_slot_set(m, k, head, len);
}

/* 1 when an entry of list k is linked to an event at t by lo..hi. */
EP_HD int ep_runs_links(ep_machine *m, int k, double t, double lo, double hi, ep_interval iv)
{
    ep_runs_prune(m, k, t, hi);
    if (ep_len(m, k) == 0)
        return 0;
    double gap = t - ep_run_at(m, k, ep_head(m, k))->first;
    return iv == EP_CLOSED ? gap >= lo : gap > lo;
}

/* Appends t to list k (link lo..hi). Returns 0, or 1 when the list is full. */
EP_HD int ep_runs_push(ep_machine *m, int k, double t, double lo, double hi, double margin)
{
    ep_runs_prune(m, k, t, hi);
    const int mask = m->l.cap - 1, head = ep_head(m, k), len = ep_len(m, k);
    if (len > 0) {
        ep_run *back = ep_run_at(m, k, (head + len - 1) & mask);
        if (t - back->last <= hi - lo - margin) {
            back->last = t;
            return 0;
        }
    }
    if (len == m->l.cap)
        return 1;
    ep_run *r = ep_run_at(m, k, (head + len) & mask);
    r->first = r->last = t;
    ep_slot_set(m, k, head, len + 1);
    return 0;
}

/* Feeds the event (type, t) to m, counting e (the nodes from the last down, as
 * Algorithm 1). Returns 1 when the event ends an occurrence (the lists are then
 * emptied), else 0. */
EP_HD int ep_machine_step(ep_machine *m, const ep_episode *e, int32_t type, double t,
                          ep_interval iv, double margin)
{
    if (!((m->filter >> (type & 63)) & 1))
        return 0;
    const int last = e->n - 1;
    for (int k = last; k >= 0; k--) {
        if (e->ev[k] != type)
            continue;
        if (k > 0 && !ep_runs_links(m, k - 1, t, e->lo[k - 1], e->hi[k - 1], iv))
            continue;
        if (k == last) {
            m->slots0 = m->slots1 = 0;
            return 1;
        }
        m->overflow |= ep_runs_push(m, k, t, e->lo[k], e->hi[k], margin);
    }
    return 0;
}

/* ---- PreElim (Algorithm 3) ------------------------------------------------------------
 *
 * The relaxed count: every link's lower bound dropped, so a link holds when 0 <= t - t'
 * <= hi (closed at 0, so that at equal times the latest entry still answers for every
 * older one). The latest time of each list is then the only one that matters (the
 * papers' Observation 1), and the count is an upper bound on the exact count of either
 * interval kind (Theorem 4.1): every occurrence of the episode is one of its relaxed
 * form. */
typedef struct ep_preelim {
    double *s;  /* list k's latest time at s[k * stride], outside the machine as ep_lists's
                 * runs (a column of a block's shared memory); -INFINITY: empty */
    int stride;
    uint64_t filter;
} ep_preelim;

EP_HD void ep_preelim_clear(ep_preelim *p, int lists)
{
    for (int k = 0; k < lists; k++)
        p->s[k * p->stride] = -INFINITY;
}

EP_HD void ep_preelim_init(ep_preelim *p, const ep_episode *e, double *s, int stride)
{
    p->s = s;
    p->stride = stride;
    p->filter = ep_type_filter(e);
    ep_preelim_clear(p, e->n - 1);
}

/* As ep_machine_step, for the relaxed count. */
EP_HD int ep_preelim_step(ep_preelim *p, const ep_episode *e, int32_t type, double t)
{
    if (!((p->filter >> (type & 63)) & 1))
        return 0;
    const int last = e->n - 1;
    for (int k = last; k >= 0; k--) {
        if (e->ev[k] != type)
            continue;
        if (k > 0 && !(t - p->s[(k - 1) * p->stride] <= e->hi[k - 1]))
            continue;
        if (k == last) {
            ep_preelim_clear(p, last);
            return 1;
        }
        p->s[k * p->stride] = t;
    }
    return 0;
}

/* ---- MTPE: segments, machines per segment, merge ---------------------------------------
 *
 * Algorithm 1 picks occurrences by earliest end: after an end at position x it starts
 * afresh at x + 1, so the chain of ends from any state is decided by the last end
 * alone. The stream is cut into R segments by position, [P_j, P_j+1). A segment's
 * machine starts afresh at a position r <= P_j and reports (a, count, b): a, the first
 * end at or after P_j; count, the ends inside the segment; b, the first end at or after
 * P_j+1 (it reads on past the segment for it). Whatever happened before, the chain
 * entering segment j+1 is then the chain of the machine there whose a equals b: both
 * go on afresh from b + 1. Concatenating (a, c, b) with (b, c', b') gives (a, c + c', b')
 * (the merge of Fig. 7), in log2 R rounds of adjacent groups.
 *
 * Which machines: an occurrence ending at or after P_j began within W = the sum of the
 * links' hi before P_j's time, at an event of the first node's type, so a chain entering
 * the segment is the chain of a machine started at one of those events, or at P_j. The
 * segment runs K machines: at P_j and at the K - 1 latest such events (the papers run N,
 * one per way an occurrence can split). When the window holds more of them a b may find
 * no a; the merge then reads the next group itself from b + 1 (ep_scan), so the count
 * is exact for any K, and the misses are counted. b is EP_FRESH when no end comes until
 * W after the next segment's start: no occurrence that began before it is still open, so
 * the chain enters the next segment as the machine started at its start. */
#define EP_NONE ((int64_t)-1)   /* a: no end found */
#define EP_FRESH ((int64_t)-1)  /* b: enters the next segment afresh */
#define EP_UNUSED ((int64_t)-2) /* a: machine slot not used */

typedef struct ep_tuple {
    int64_t a, count, b;
} ep_tuple;

/* The events of a stream as the machines read them (as read says, episodes.h's ep_read):
 * by position and by type. */
typedef struct ep_events {
    ep_read read;
    const int32_t *stype;       /* the stream's types, by position */
    const double *stime;        /* the stream's times, by position */
    const int64_t *first, *pos; /* ep_by_type's */
    const double *time;         /* ep_by_type's: by type */
    const uint64_t *mask;       /* ep_by_type's masks (EP_READ_TYPES) */
    int64_t words;
    int64_t n;
    double margin; /* ep_margin of the stream's largest time */
} ep_events;

/* The first index of type y's run whose position is at least r (the run's sentinel, at
 * position n, when none is). */
EP_HD int64_t ep_lower_bound(const ep_events *ev, int32_t y, int64_t r)
{
    int64_t lo = ev->first[y], hi = ev->first[y + 1] - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ev->pos[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A reader of the events an episode's machine sees, from a stream position on: the
 * stream, or the 64-position blocks of the OR of the episode's types' masks. Two
 * registers, whatever the episode: no array a thread would keep in local memory. */
typedef struct ep_cursor {
    int64_t at;    /* the stream: the next position; by type: the block in bits */
    uint64_t bits; /* by type: block at's events of the episode's types not yet read */
} ep_cursor;

/* The positions of block b holding an event of one of e's types. */
EP_HD uint64_t ep_cursor_block(const ep_events *ev, const ep_episode *e, int64_t b)
{
    uint64_t m = 0;
    for (int k = 0; k < e->n; k++)
        m |= ev->mask[e->ev[k] * ev->words + b];
    return m;
}

/* The lowest set bit of x (not 0). */
EP_HD int ep_lowest_bit(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return __ffsll((long long)x) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

EP_HD void ep_cursor_init(ep_cursor *c, const ep_events *ev, const ep_episode *e, int64_t r)
{
    c->at = r;
    c->bits = 0;
    if (ev->read == EP_READ_STREAM)
        return;
    c->at = r / 64;
    if (c->at < ev->words)
        c->bits = ep_cursor_block(ev, e, c->at) & (~(uint64_t)0 << (r & 63));
}

/* The next event (of e's types, when reading by type): returns its position (n at the
 * end) with its type and time. */
EP_HD int64_t ep_cursor_next(ep_cursor *c, const ep_events *ev, const ep_episode *e,
                             int32_t *type, double *t)
{
    int64_t p;
    if (ev->read == EP_READ_STREAM) {
        p = c->at++;
        if (p >= ev->n)
            return ev->n;
    } else {
        while (c->bits == 0) {
            if (++c->at >= ev->words)
                return ev->n;
            c->bits = ep_cursor_block(ev, e, c->at);
        }
        p = c->at * 64 + ep_lowest_bit(c->bits);
        c->bits &= c->bits - 1;
    }
    *type = ev->stype[p];
    *t = ev->stime[p];
    return p;
}

/* e's relaxed count over ev's events of its types, its lists' times in s (stride apart,
 * e->n - 1 of them). */
EP_HD int64_t ep_preelim_count(const ep_events *ev, const ep_episode *e, double *s, int stride)
{
    ep_preelim p;
    ep_cursor c;
    int32_t type;
    double t;
    int64_t count = 0;
    ep_preelim_init(&p, e, s, stride);
    ep_cursor_init(&c, ev, e, 0);
    while (ep_cursor_next(&c, ev, e, &type, &t) < ev->n)
        count += ep_preelim_step(&p, e, type, t);
    return count;
}

/* The longest time an occurrence of e can span, with margin to spare. */
EP_HD double ep_span(const ep_episode *e, double margin)
{
    double w = 0;
    for (int k = 0; k + 1 < e->n; k++)
        w += e->hi[k];
    return w + e->n * margin;
}

/* Start of segment j of R over n events. */
EP_HD int64_t ep_segment_start(int64_t n, int64_t r, int64_t j)
{
    return j * n / r;
}

/* Runs the chain of e started afresh at r: ends before lo_pos are not counted; a is the
 * first end at or after lo_pos, count the ends in [lo_pos, hi_pos), b the first end at or
 * after hi_pos, or EP_FRESH when the stream ends or no end comes until the span of e
 * after hi_pos's time. Returns 1 when a list overflowed (out not valid), else 0. */
EP_HD int ep_scan(const ep_events *ev, const ep_episode *e, ep_interval iv, ep_lists l,
                  int64_t r, int64_t lo_pos, int64_t hi_pos, ep_tuple *out)
{
    ep_machine m;
    ep_cursor c;
    int32_t type;
    double t;
    ep_machine_init(&m, e, l);
    ep_cursor_init(&c, ev, e, r);
    const double limit = hi_pos < ev->n ? ev->stime[hi_pos] + ep_span(e, ev->margin) : 0;
    out->a = EP_NONE;
    out->count = 0;
    out->b = EP_FRESH;
    for (int64_t i; (i = ep_cursor_next(&c, ev, e, &type, &t)) < ev->n;) {
        if (i >= hi_pos && t > limit)
            break;
        if (!ep_machine_step(&m, e, type, t, iv, ev->margin))
            continue;
        if (i < lo_pos)
            continue;
        if (out->a == EP_NONE)
            out->a = i;
        if (i >= hi_pos) {
            out->b = i;
            break;
        }
        out->count++;
    }
    return m.overflow;
}

/* Where segment [lo_pos, hi_pos)'s machine `machine` (0..k-1) starts: lo_pos for 0, else
 * the machine-th latest event of e's first type before lo_pos within e's span of
 * lo_pos's time; -1 when there is none. */
EP_HD int64_t ep_machine_start(const ep_events *ev, const ep_episode *e, int64_t lo_pos,
                               int machine)
{
    if (machine == 0)
        return lo_pos;
    if (lo_pos >= ev->n)
        return -1;
    const double from = ev->stime[lo_pos] - ep_span(e, ev->margin);
    const int64_t at = ep_lower_bound(ev, e->ev[0], lo_pos) - machine;
    return at >= ev->first[e->ev[0]] && ev->time[at] >= from ? ev->pos[at] : -1;
}

/* The tuple of segment [lo_pos, hi_pos)'s machine `machine`. Returns 1 on overflow. */
EP_HD int ep_segment_tuple(const ep_events *ev, const ep_episode *e, ep_interval iv,
                           ep_lists l, int64_t lo_pos, int64_t hi_pos, int machine,
                           ep_tuple *out)
{
    int64_t r = ep_machine_start(ev, e, lo_pos, machine);
    if (r < 0) {
        out->a = EP_UNUSED;
        out->count = 0;
        out->b = EP_FRESH;
        return 0;
    }
    return ep_scan(ev, e, iv, l, r, lo_pos, hi_pos, out);
}

/* Concatenates s (a group's tuple) with the next group [lo_pos, hi_pos), whose k tuples
 * are next[0..k). Writes the joined tuple to out; *missed is set when no tuple of next
 * began at s->b and the group was read afresh. Returns 1 on overflow. */
EP_HD int ep_merge(const ep_events *ev, const ep_episode *e, ep_interval iv, ep_lists l,
                   const ep_tuple *s, const ep_tuple *next, int k, int64_t lo_pos,
                   int64_t hi_pos, ep_tuple *out, int *missed)
{
    *missed = 0;
    if (s->a == EP_UNUSED) {
        *out = *s;
        return 0;
    }
    if (s->b == EP_FRESH) {
        out->a = s->a != EP_NONE ? s->a : next[0].a;
        out->count = s->count + next[0].count;
        out->b = next[0].b;
        return 0;
    }
    for (int j = 0; j < k; j++)
        if (next[j].a == s->b) {
            out->a = s->a;
            out->count = s->count + next[j].count;
            out->b = next[j].b;
            return 0;
        }
    *missed = 1;
    out->a = s->a;
    if (s->b >= hi_pos) {
        out->count = s->count;
        out->b = s->b;
        return 0;
    }
    ep_tuple rest;
    int overflow = ep_scan(ev, e, iv, l, s->b + 1, lo_pos, hi_pos, &rest);
    out->count = s->count + 1 + rest.count;
    out->b = rest.b;
    return overflow;
}

#endif
