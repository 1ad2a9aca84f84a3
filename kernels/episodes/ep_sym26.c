/* ep_sym26.c - the Sym26 generator: 26 neurons A..Z firing as inhomogeneous Poisson
 * processes with two causal chains embedded (papers: cf10 line 353, journal lines
 * 870-876), deterministic by seed (xoshiro256** seeded by splitmix64, bench/core/rng.h);
 * and the same with more or fewer neurons, for larger streams of the same kind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/episodes.h"
#include "rng.h"

/* What the papers leave unsaid, chosen here:
 * - Inhomogeneity: neuron i's rate is basal_hz * (1 + EP_SYM_DEPTH * sin(2 pi t /
 *   EP_SYM_PERIOD + phase_i)) with phase_i uniform by seed, drawn by thinning a
 *   homogeneous process at the peak rate; over whole periods the mean rate is basal_hz.
 * - The short chain has 4 neurons, the long one 8, picked by seed without repeats (the
 *   other 14 of Sym26's 26 fire at the basal rate only; with `neurons` other than 26,
 *   the others are as many more or fewer). Every spike of a chain's neuron k, basal or
 *   itself triggered, fires neuron k + 1 with probability EP_SYM_P after a delay uniform
 *   in [EP_SYM_DELAY_LO, EP_SYM_DELAY_HI] (4 to 6 ms: the gap the research group's own
 *   tests count on sim-64-size20, ../shared/datasets/README.md).
 * - EP_SYM_P = 0.75 brings 60 s at 20 Hz to about 50,000 spikes as the papers say:
 *   31,200 basal spikes plus the chains' 20 * 60 * sum over nodes k of (p + .. + p^k),
 *   about 3.80 (short) + 13.27 (long), i.e. some 20,500 triggered spikes. */
#define EP_SYM_SHORT 4
#define EP_SYM_LONG 8
#define EP_SYM_P 0.75
#define EP_SYM_DELAY_LO 0.004
#define EP_SYM_DELAY_HI 0.006
#define EP_SYM_DEPTH 0.5
#define EP_SYM_PERIOD 10.0
#define EP_SYM_TWO_PI 6.283185307179586
#define EP_SYM_MAX_EVENTS 200000000 /* a bound on the expected count, to refuse runaways */

/* One generated event, and the growing list of them in generation order. */
typedef struct ep_ev {
    double time;
    int32_t type;
} ep_ev;

typedef struct ep_gen {
    int64_t n, cap;
    ep_ev *ev;
} ep_gen;

/* Appends one event. Returns 0, or -1 without memory. */
static int ep_gen_push(ep_gen *g, int32_t type, double time)
{
    if (g->n == g->cap) {
        int64_t cap = g->cap ? g->cap * 2 : 65536;
        ep_ev *ev = realloc(g->ev, (size_t)cap * sizeof *ev);
        if (!ev)
            return -1;
        g->ev = ev;
        g->cap = cap;
    }
    g->ev[g->n++] = (ep_ev){time, type};
    return 0;
}

/* Neuron type's basal spikes on [0, seconds) by thinning. Returns 0, or -1 without memory. */
static int ep_basal(ep_gen *g, dm_rng *r, int32_t type, double seconds, double hz)
{
    double peak = hz * (1 + EP_SYM_DEPTH), phase = EP_SYM_TWO_PI * dm_rng_unit(r);
    for (double t = -log1p(-dm_rng_unit(r)) / peak; t < seconds; t -= log1p(-dm_rng_unit(r)) / peak) {
        double rate = hz * (1 + EP_SYM_DEPTH * sin(EP_SYM_TWO_PI * t / EP_SYM_PERIOD + phase));
        if (dm_rng_unit(r) * peak < rate && ep_gen_push(g, type, t))
            return -1;
    }
    return 0;
}

/* Fires c's links in order: every event of c->type[k] so far (link k - 1 is done) fires
 * c->type[k + 1] with probability p. Returns 0, or -1 without memory. */
static int ep_fire_chain(ep_gen *g, dm_rng *r, const ep_chain *c, double seconds)
{
    for (int k = 0; k + 1 < c->n; k++) {
        int64_t n = g->n;
        for (int64_t i = 0; i < n; i++) {
            if (g->ev[i].type != c->type[k] || dm_rng_unit(r) >= c->p)
                continue;
            double t = g->ev[i].time + c->delay_lo + (c->delay_hi - c->delay_lo) * dm_rng_unit(r);
            if (t < seconds && ep_gen_push(g, c->type[k + 1], t))
                return -1;
        }
    }
    return 0;
}

/* Orders events by time, then type; equal events are interchangeable, so the order is
 * the same on every run. */
static int ep_cmp_event(const void *a, const void *b)
{
    const ep_ev *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return (x->type > y->type) - (x->type < y->type);
}

/* Sorts g's events by time into s, the neurons named A..Z when there are at most 26 of
 * them, else n00, n01, ... Returns 0, or -1 without memory. */
static int ep_gen_finish(ep_gen *g, int neurons, ep_stream *s)
{
    size_t n = (size_t)(g->n ? g->n : 1);
    s->type = malloc(n * sizeof *s->type);
    s->time = malloc(n * sizeof *s->time);
    s->names = malloc((size_t)neurons * sizeof *s->names);
    if (!s->type || !s->time || !s->names)
        return -1;
    qsort(g->ev, (size_t)g->n, sizeof *g->ev, ep_cmp_event);
    for (int64_t i = 0; i < g->n; i++) {
        s->type[i] = g->ev[i].type;
        s->time[i] = g->ev[i].time;
    }
    s->n = g->n;
    s->ntypes = neurons;
    for (int t = 0; t < neurons; t++) {
        if (neurons <= 26)
            snprintf(s->names[t], sizeof s->names[t], "%c", 'A' + t);
        else
            snprintf(s->names[t], sizeof s->names[t], "n%02d", t);
    }
    return 0;
}

int ep_sym26(uint64_t seed, double seconds, double basal_hz, int neurons, ep_stream *s,
             ep_chain chains[2], dm_err *err)
{
    memset(s, 0, sizeof *s);
    if (neurons < EP_SYM_MIN_NEURONS || neurons > EP_SYM_MAX_NEURONS)
        return dm_err_set(err, DM_EINPUT, "sym26: neurons=%d; expected %d..%d (the chains "
                          "take %d)", neurons, EP_SYM_MIN_NEURONS, EP_SYM_MAX_NEURONS,
                          EP_SYM_MIN_NEURONS);
    if (!isfinite(seconds) || seconds <= 0)
        return dm_err_set(err, DM_EINPUT, "sym26: seconds=%g must be a positive number", seconds);
    if (!isfinite(basal_hz) || basal_hz <= 0)
        return dm_err_set(err, DM_EINPUT, "sym26: basal_hz=%g must be a positive number",
                          basal_hz);
    if (seconds * basal_hz * neurons * 2 > EP_SYM_MAX_EVENTS)
        return dm_err_set(err, DM_EINPUT,
                          "sym26: seconds=%g at basal_hz=%g gives over %d events", seconds,
                          basal_hz, EP_SYM_MAX_EVENTS);
    dm_rng r = dm_rng_seed(seed);
    int32_t perm[EP_SYM_MAX_NEURONS];
    for (int i = 0; i < neurons; i++)
        perm[i] = i;
    for (int i = neurons - 1; i > 0; i--) {
        int j = (int)(dm_rng_unit(&r) * (i + 1));
        int32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    const int len[2] = {EP_SYM_SHORT, EP_SYM_LONG};
    for (int c = 0, used = 0; c < 2; c++) {
        chains[c] = (ep_chain){.n = len[c], .delay_lo = EP_SYM_DELAY_LO,
                               .delay_hi = EP_SYM_DELAY_HI, .p = EP_SYM_P};
        for (int k = 0; k < len[c]; k++)
            chains[c].type[k] = perm[used++];
    }
    ep_gen g = {0};
    int bad = 0;
    for (int32_t t = 0; t < neurons && !bad; t++)
        bad = ep_basal(&g, &r, t, seconds, basal_hz);
    for (int c = 0; c < 2 && !bad; c++)
        bad = ep_fire_chain(&g, &r, &chains[c], seconds);
    if (!bad)
        bad = ep_gen_finish(&g, neurons, s);
    free(g.ev);
    if (bad) {
        ep_stream_free(s);
        return dm_err_set(err, DM_ERUNTIME, "sym26: out of memory");
    }
    return 0;
}
