/* episodes_fixture.h - streams and episodes for the episodes workload's tests: a seeded
 * generator, streams by hand or at random (ties and gaps on the bounds common), random
 * episodes. Include after cmocka.h. */
#ifndef DM_EPISODES_FIXTURE_H
#define DM_EPISODES_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/episodes.h"

static inline uint64_t rng_next(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline int rng_below(uint64_t *x, int n)
{
    return (int)(rng_next(x) % (uint64_t)n);
}

/* A stream of n events over ntypes types named A, B, ... with room for the events. */
static inline ep_stream stream_new(int64_t n, int ntypes)
{
    ep_stream s = {.n = n, .ntypes = ntypes};
    s.type = malloc(((size_t)n + 1) * sizeof *s.type);
    s.time = malloc(((size_t)n + 1) * sizeof *s.time);
    s.names = calloc((size_t)ntypes, sizeof *s.names);
    assert_non_null(s.type);
    assert_non_null(s.time);
    assert_non_null(s.names);
    for (int y = 0; y < ntypes; y++)
        snprintf(s.names[y], EP_NAME_MAX, y < 26 ? "%c" : "T%d", y < 26 ? 'A' + y : y);
    return s;
}

static inline void stream_drop(ep_stream *s)
{
    free(s->type);
    free(s->time);
    free(s->names);
}

/* A random stream: times on an integer grid (scaled by unit), steps of 0 to 3 with ties
 * common, over ntypes types. */
static inline ep_stream random_stream(uint64_t *rng, int64_t n, int ntypes, double unit)
{
    ep_stream s = stream_new(n, ntypes);
    int64_t tick = 0;
    for (int64_t i = 0; i < n; i++) {
        tick += rng_below(rng, 4);
        s.type[i] = rng_below(rng, ntypes);
        s.time[i] = (double)tick * unit;
    }
    return s;
}

/* A random episode of level nodes over ntypes types, lo in 0..2 and hi - lo in 0..3
 * ticks per link (hi = lo happens: an empty interval, or with EP_CLOSED a single gap). */
static inline ep_episode random_episode(uint64_t *rng, int level, int ntypes, double unit)
{
    ep_episode e = {.n = level};
    for (int k = 0; k < level; k++)
        e.ev[k] = rng_below(rng, ntypes);
    for (int k = 0; k + 1 < level; k++) {
        int lo = rng_below(rng, 3);
        e.lo[k] = lo * unit;
        e.hi[k] = (lo + rng_below(rng, 4)) * unit;
    }
    return e;
}

/* The stream of "A1 B5 ..." (a letter and an integer time per event, in order). */
static inline ep_stream stream_of(const char *text, int ntypes)
{
    ep_stream s = stream_new((int64_t)strlen(text), ntypes);
    int64_t n = 0;
    const char *p = text;
    while (*p) {
        char *rest;
        s.type[n] = *p - 'A';
        s.time[n] = strtod(p + 1, &rest);
        n++;
        p = rest + strspn(rest, " ");
    }
    s.n = n;
    return s;
}

/* The episode named by letters ("AAB"), every link with the interval lo..hi. */
static inline ep_episode episode_of(const char *letters, double lo, double hi)
{
    ep_episode e = {.n = (int)strlen(letters)};
    for (int k = 0; k < e.n; k++) {
        e.ev[k] = letters[k] - 'A';
        if (k + 1 < e.n) {
            e.lo[k] = lo;
            e.hi[k] = hi;
        }
    }
    return e;
}

#endif
