/* ep_mine.h - level-wise mining of frequent serial episodes (papers' Problem 1): level-1
 * candidates, counted through a callback (CPU or GPU), eliminated by support, the next
 * level's candidates generated on the CPU from the frequent ones, and so on. */
#ifndef DM_EP_MINE_H
#define DM_EP_MINE_H

#include "episodes/episodes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most episodes a level (or a point) may count. */
#define EP_MAX_CANDIDATES ((int64_t)1 << 24)

/* Counts eps[0..n) into counts[0..n) (exact counts, or upper bounds for a
 * pre-elimination). Returns 0, or a DM_ status with err set. */
typedef int (*ep_count_fn)(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                           dm_err *err);

/* How the gap intervals of the spec are given to the links of the candidates. */
typedef enum ep_links {
    /* The papers' constraint set I: every link of an episode takes any one interval of
     * gaps, and the candidates carry each combination (one gap: every link gets it). */
    EP_LINKS_ANY = 0,
    /* Link k of every episode gets gaps[k]: episodes of at most ngaps + 1 nodes. */
    EP_LINKS_PER_POSITION = 1,
} ep_links;

/* A candidate of level N + 1 as the join makes it: a frequent episode of level N (its
 * index among that level's frequent episodes, in their order) extended by a link and a
 * node. 32 bytes, where the episode written out whole takes sizeof(ep_episode) (312). */
typedef struct ep_ext {
    int64_t prefix;
    double lo, hi;
    int32_t type;
} ep_ext;

/* Counts ext[0..n), each freq[ext[i].prefix] extended (freq[0..nfreq): the frequent
 * episodes of the level before, in ep_episode_cmp order), into counts[0..n). Returns 0,
 * or a DM_ status with err set. */
typedef int (*ep_count_ext_fn)(void *ctx, const ep_episode *freq, int64_t nfreq,
                               const ep_ext *ext, int64_t n, int64_t *counts, dm_err *err);

typedef struct ep_mine_spec {
    int64_t support; /* theta: an episode is frequent when its count is >= support (>= 1) */
    int max_level;   /* no candidates beyond this level (1..EP_MAX_LEVEL) */
    ep_links links;
    int ngaps;       /* 1..EP_MAX_LEVEL - 1 intervals, seconds, 0 <= lo <= hi */
    double lo[EP_MAX_LEVEL - 1], hi[EP_MAX_LEVEL - 1];
    /* Optional (NULL: none): an upper bound on each count (PreElim); a candidate whose
     * bound is below support is dropped before the exact count. */
    ep_count_fn bound;
    void *bound_ctx;
    /* Optional (NULL: the count callback): counts the candidates of every level after
     * the first as extensions of the level before's frequent episodes, never written out
     * whole (a counter that steps from each prefix needs no more); only the frequent ones
     * are. Not with bound, which takes whole episodes (bound then wins). */
    ep_count_ext_fn extend;
    void *extend_ctx;
} ep_mine_spec;

/* What one level did: its candidates, those that survived the pre-elimination (-1 when
 * none ran), the frequent ones, and the wall time of each phase in seconds. */
typedef struct ep_mine_level {
    int level;
    int64_t candidates, survivors, frequent;
    double generate_s, bound_s, count_s;
} ep_mine_level;

/* The frequent episodes of every level, level by level, each level in the candidates'
 * order (ep_episode_cmp), counts[i] the count of eps[i]; and the levels mined, up to the
 * first with no frequent episode, or with no candidate at all (its generation timed). */
typedef struct ep_mine_result {
    ep_episode *eps;
    int64_t *counts;
    int64_t n;
    int nlevels;
    ep_mine_level levels[EP_MAX_LEVEL];
} ep_mine_result;

/* 0 when spec can be mined, else DM_EINPUT naming the problem: a support below 1, a
 * max_level outside 1..EP_MAX_LEVEL, no gap or too many, a gap not 0 <= lo <= hi, the
 * same gap twice (EP_LINKS_ANY), fewer gaps than max_level - 1 (per link position). */
int ep_mine_spec_check(const ep_mine_spec *spec, dm_err *err);

/* Mines s: the level-1 candidates (every type of s), counted by count(ctx, ...), those
 * with a count >= spec->support kept, the next level's candidates generated from them
 * (ep_mine_candidates; as extensions, ep_mine_extensions, counted by spec->extend when
 * set without spec->bound), and so on until a level has no candidates or
 * spec->max_level is done. *out holds the result (free it with ep_mine_result_free; empty on error).
 * Returns 0; DM_EINPUT for a bad spec or a level of more than EP_MAX_CANDIDATES
 * candidates (named, with a hint to raise the support); a callback's status; DM_ERUNTIME
 * without memory. */
int ep_mine(const ep_stream *s, const ep_mine_spec *spec, ep_count_fn count, void *ctx,
            ep_mine_result *out, dm_err *err);
void ep_mine_result_free(ep_mine_result *r);

/* The candidates of level `level` (>= 2) as extensions (ep_ext; ep_mine_candidates says
 * which), in ep_episode_cmp order, to *ext (malloc'd), *n of them. Returns as
 * ep_mine_candidates. */
int ep_mine_extensions(const ep_mine_spec *spec, int level, const ep_episode *freq,
                       int64_t nfreq, const ep_episode *freq1, int64_t nfreq1, ep_ext **ext,
                       int64_t *n, dm_err *err);
/* Writes to e the episode x makes of freq[x->prefix]. */
void ep_ext_episode(const ep_episode *freq, const ep_ext *x, ep_episode *e);

/* The candidates of level `level` (>= 2) from freq[0..nfreq), the frequent episodes of
 * level - 1 in ep_episode_cmp order, and freq1[0..nfreq1), the frequent episodes of level
 * 1 (the same list when level is 2). EP_LINKS_ANY: the join of serial episodes, every
 * (E1..EN, F) whose (E1..EN) and (E2..EN, F), links included, are both in freq;
 * EP_LINKS_PER_POSITION: every frequent (E1..EN) extended by every frequent type, link
 * N - 1 getting gaps[N - 1]. Written in ep_episode_cmp order to *cand (malloc'd), *n of
 * them. Returns 0; DM_EINPUT beyond EP_MAX_CANDIDATES or, per position, beyond
 * ngaps + 1 nodes; DM_ERUNTIME without memory. */
int ep_mine_candidates(const ep_mine_spec *spec, int level, const ep_episode *freq,
                       int64_t nfreq, const ep_episode *freq1, int64_t nfreq1,
                       ep_episode **cand, int64_t *n, dm_err *err);

/* The order of candidates and results: episodes compared node type, link (lo, then hi),
 * node type, ..., a shorter one first when one is a prefix of the other. Returns <0, 0
 * or >0. */
int ep_episode_cmp(const ep_episode *a, const ep_episode *b);

/* A count callback over Algorithm 1 (ep_count) for every episode, ctx an ep_count_ctx:
 * on the calling thread when mt is 0, else by ep_count_all_mt with threads threads (0:
 * every core). */
typedef struct ep_count_ctx {
    const ep_stream *s;
    ep_interval iv;
    int mt, threads;
} ep_count_ctx;
int ep_count_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts, dm_err *err);
/* A bound callback (ep_mine_spec.bound) of PreElim's relaxed counts, ctx an ep_count_ctx:
 * ep_bound_all_mt with threads threads when mt, else one. */
int ep_bound_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
