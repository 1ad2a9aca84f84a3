/* episodes.h - frequent episode mining in spike trains (Cao et al., papers
 * episodes-chip-on-chip-cf10.txt and episodes-gpu-multigpu-journal.txt): event streams
 * (loaded from CSV or generated as Sym26), serial episodes with a gap interval per link,
 * and their non-overlapped counts (Algorithm 1, a brute force that checks it, and the
 * multi-threaded CPU baseline). Includes only bench/core. */
#ifndef DM_EPISODES_H
#define DM_EPISODES_H

#include <stdint.h>

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EP_MAX_LEVEL 16    /* the longest episode */
#define EP_NAME_MAX 32     /* an event type's name, with its terminator */

/* ---- event streams (ep_data.c, ep_sym26.c) ---------------------------------------- */

/* Events sorted by time (ties keep their file order); types are indexes into names. */
typedef struct ep_stream {
    int64_t n;
    int32_t *type;
    double *time;              /* seconds */
    int ntypes;
    char (*names)[EP_NAME_MAX]; /* ntypes names, in order of first appearance */
} ep_stream;

/* Loads "type,time" lines (time in seconds, a decimal; any type names). Returns 0, or
 * DM_EINPUT naming path and line for: a line that is not two fields, an empty line
 * followed by more data, a time that is not a finite number, a time earlier than the
 * line before, a name longer than EP_NAME_MAX - 1; DM_ERUNTIME without memory. */
int ep_stream_load_csv(const char *path, ep_stream *s, dm_err *err);
void ep_stream_free(ep_stream *s);
/* The type index of name, or -1. */
int ep_stream_type(const ep_stream *s, const char *name);

/* A causal chain embedded in a generated stream: each link fires the next neuron with
 * probability p after a conduction delay uniform in [delay_lo, delay_hi] seconds. */
typedef struct ep_chain {
    int n;
    int32_t type[EP_MAX_LEVEL];
    double delay_lo, delay_hi, p;
} ep_chain;

/* Sym26 as the papers describe it: 26 neurons (names A..Z) firing as inhomogeneous
 * Poisson processes at basal_hz (20) for seconds (60), with two chains embedded, one
 * short and one long (written to chains[0] and chains[1]); deterministic by seed. About
 * 50,000 events at the defaults. With neurons other than 26, as many neurons (named A..
 * up to 26, else n00, n01, ...), the chains the same. Returns 0, DM_EINPUT for bad
 * parameters, DM_ERUNTIME without memory. */
#define EP_SYM_MIN_NEURONS 12 /* the two chains' 4 + 8 */
#define EP_SYM_MAX_NEURONS 1000
int ep_sym26(uint64_t seed, double seconds, double basal_hz, int neurons, ep_stream *s,
             ep_chain chains[2], dm_err *err);

/* ---- episodes (ep_episodes.c) ------------------------------------------------------ */

/* How a link's gap t(next) - t(prev) is tested against [lo, hi]: one of the first two,
 * maybe with EP_FLOAT or'ed on. */
typedef enum ep_interval {
    EP_OPEN_CLOSED = 0, /* lo < gap <= hi: the papers' (tlow, thigh] */
    EP_CLOSED = 1,      /* lo <= gap <= hi */
    /* Times, lo and hi rounded to float and the gap computed in float arithmetic, as
     * implementations that count in float do; without it all is double. */
    EP_FLOAT = 2,
} ep_interval;

/* A serial episode ev[0] -> ev[1] -> ... -> ev[n-1]; link k (between ev[k] and ev[k+1])
 * has the gap interval (lo[k], hi[k]] (or closed), in seconds. Types may repeat. */
typedef struct ep_episode {
    int n;
    int32_t ev[EP_MAX_LEVEL];
    double lo[EP_MAX_LEVEL - 1], hi[EP_MAX_LEVEL - 1];
} ep_episode;

/* Parses an episodes file against s's type names: one episode a line, names separated by
 * "->" with spaces allowed; with ngaps 1 every link gets [lo[0], hi[0]], else link k gets
 * [lo[k], hi[k]] and every episode must have ngaps links. Returns 0 with *eps (malloc'd)
 * and *n, or DM_EINPUT naming path and line (an unknown name, an empty name, more than
 * EP_MAX_LEVEL names, another number of links than ngaps > 1, no episode at all) or a
 * gap not 0 <= lo <= hi; DM_ERUNTIME without memory. */
int ep_episodes_load(const char *path, const ep_stream *s, int ngaps, const double *lo,
                     const double *hi, ep_episode **eps, int64_t *n, dm_err *err);
/* e relaxed: every link's lower bound 0. Its count with EP_CLOSED is PreElim's relaxed
 * count of e (Algorithm 3), an upper bound of e's exact count (Theorem 4.1). */
ep_episode ep_episode_relaxed(const ep_episode *e);
/* Writes e as "A -> B -> C" (s's names) into buf. */
void ep_episode_format(const ep_stream *s, const ep_episode *e, char *buf, size_t n);
/* The same with each link's interval in ms: "A -(4:6]-> B" ("[4:6]" with EP_CLOSED; no
 * comma, so that it fits in a CSV field). */
void ep_episode_format_links(const ep_stream *s, const ep_episode *e, ep_interval iv,
                             char *buf, size_t n);

/* ---- counts (ep_count.c, ep_brute.c, ep_cpu_mt.c) -------------------------------------- */

/* What is counted. An occurrence of e is a chain of events at stream positions
 * p_0 < p_1 < ... < p_{n-1} with type(p_k) = ev[k] and each gap time(p_{k+1}) - time(p_k)
 * inside link k's interval: distinct nodes are distinct events taken in stream order, so
 * at equal times only the order of the stream decides (A then B at one time is an A -> B
 * with a gap of 0 under EP_CLOSED, B then A is not, and one event never plays two nodes
 * of A -> A). Two occurrences are non-overlapped when one's last event comes before the
 * other's first in the stream (the next may start at the very time the last one ended,
 * one event later). The count is the size of the largest set of pairwise non-overlapped
 * occurrences; a one-node episode counts the events of its type. */

/* The non-overlapped count of e in s by Algorithm 1 (papers section 2 and 4): a list of
 * times per node, processed from the last node down so one event is not used twice;
 * counted when the last node is matched, then every list emptied; entries more than
 * their link's hi before the current event pruned, so memory stays bounded. 1 <= e->n and
 * e's types are s's. Returns the count, or -1 without memory. */
int64_t ep_count(const ep_stream *s, const ep_episode *e, ep_interval iv);

/* The same count found independently, for tests: every occurrence enumerated (for
 * each end event, the latest-starting chain of events that satisfies every gap), then
 * the maximum set of non-overlapped occurrences chosen greedily by earliest end. Slow:
 * for small streams only. Returns the count, or -1 without memory. */
int64_t ep_count_brute(const ep_stream *s, const ep_episode *e, ep_interval iv);

/* Counts eps[0..n) into counts with threads threads (0: every online core), episodes
 * taken one at a time from a shared counter, each by ep_count over only the events of
 * its own types: the papers' multi-core CPU baseline. Returns 0, or DM_ERUNTIME with err
 * set (a thread could not start, no memory). */
int ep_count_all_mt(const ep_stream *s, const ep_episode *eps, int64_t n, ep_interval iv,
                    int threads, int64_t *counts, dm_err *err);
/* As ep_count_all_mt, but PreElim's relaxed count (Algorithm 3: every link [0, hi], one
 * time a node), an upper bound on the exact count of either interval kind in double
 * precision (Theorem 4.1): the CPU two-pass baseline's first pass. */
int ep_bound_all_mt(const ep_stream *s, const ep_episode *eps, int64_t n, int threads,
                    int64_t *counts, dm_err *err);

/* ---- the stream by type (ep_by_type.c) ------------------------------------------------ */

/* The stream split by type, built once for all episodes: the events of type y are
 * pos[first[y]..first[y+1] - 1) (their positions, in stream order) with their times,
 * each run followed by a sentinel (position n, time +infinity), so a merge needs no end
 * test. An episode only ever looks at events of its own types, a few of the stream's
 * ntypes, so merging its types' runs back into stream order reads far less than the
 * stream. slots = n + ntypes + 1 entries of pos and time. */
typedef struct ep_by_type {
    int64_t *first;
    int64_t *pos;
    double *time;
    int64_t slots;
    /* ep_by_type_masks's: bit p & 63 of mask[y * words + p / 64] is set when the event at
     * position p is of type y; words = ceil(n / 64). NULL until built. */
    uint64_t *mask;
    int64_t words;
} ep_by_type;

/* The most bytes of type masks ep_by_type_masks builds (ntypes x n / 8): past it, an
 * episode's types are not read apart from the stream (EP_READ_TYPES is not available). */
#define EP_MASK_BYTES_MAX ((int64_t)1 << 30)

/* Splits s by type (a counting sort, stable). Returns 0, or -1 without memory. */
int ep_by_type_build(const ep_stream *s, ep_by_type *b);
/* Adds the type masks to b (built for s). Returns 0, 1 when they would take more than
 * EP_MASK_BYTES_MAX (none built), or -1 without memory. */
int ep_by_type_masks(const ep_stream *s, ep_by_type *b);
void ep_by_type_free(ep_by_type *b);

/* ---- the GPU variants' machines, run on the host (ep_machines.c, ep_machine.h) ------ */

/* The margin ep_machine.h's runs and spans need for s and the episodes eps[0..n): from
 * the largest magnitude among s's times and the episodes' bounds. */
double ep_stream_margin(const ep_stream *s, const ep_episode *eps, int64_t n);

/* How a machine reads the stream: every event in order (the threads of a warp then
 * read the same event at once, one load for all, and skip the types not theirs
 * together), or only its episode's types' events, found 64 positions at a time in the
 * OR of their types' masks (ep_by_type_masks): fewer events, but each thread's own
 * loads. */
typedef enum ep_read { EP_READ_STREAM = 0, EP_READ_TYPES = 1 } ep_read;

/* e's count by the PTPE machine (Algorithm 1 with lists as runs), reading as read says.
 * Returns the count, or -1 when a list needed more than EP_RUNS runs (ep_runs_needed
 * says when it can) or without memory. */
int64_t ep_count_runs(const ep_stream *s, const ep_episode *e, ep_interval iv,
                      double margin, ep_read read);

/* e's relaxed count by PreElim (Algorithm 3): every link [0, hi]; -1 without memory. */
int64_t ep_count_preelim(const ep_stream *s, const ep_episode *e, ep_read read);

/* e's count by MTPE as the GPU runs it: r >= 1 segments, k >= 1 machines a segment, the
 * log-step merge. *misses (may be NULL) gets the merges that found no machine for a
 * chain and read the group afresh. Returns the count, or -1 on a list overflow, without
 * memory or for r or k below 1. */
int64_t ep_count_mtpe(const ep_stream *s, const ep_episode *e, ep_interval iv,
                      double margin, ep_read read, int64_t r, int k, int64_t *misses);

#ifdef __cplusplus
}
#endif

#endif
