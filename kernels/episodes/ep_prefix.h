/* ep_prefix.h - counting an episode from its prefix's occurrences (beyond the papers):
 * for every event that can end an occurrence of e, the latest position at which such an
 * occurrence can start; e -> y's follow from e's in one pass over the events of y, and
 * the non-overlapped count from them. Level-wise mining counts each candidate from its
 * prefix, a frequent episode of the level before, in one step. Written once for the host
 * (the CPU variant, the tests) and the device (ep_prefix_gpu.cu). Includes only ep_mine.h
 * and core's handoff.h (the CPU variant's threads).
 *
 * Why it gives Algorithm 1's count. Call S(q) the latest first position over the
 * occurrences of e ending at the event at position q (-1 when none ends there).
 * Algorithm 1 counts at the first q after the last counted end p at which some occurrence
 * lies wholly after p (episodes.h: what is counted), that is, with S(q) > p: so the count
 * is the greedy scan "count q and set p = q whenever S(q) > p" over the events of e's last
 * type in stream order. For e' = e -(lo, hi]-> y, an occurrence of e' ending at q is one
 * of e ending at some j < q with time(q) - time(j) inside the link, then q: S'(q) is the
 * largest S(j) over those j. The j whose gap is at most hi are a suffix of the events of
 * e's last type before q, and of those the gap passes lo for a prefix (gaps only shrink as
 * j grows, in floating point too: rounding is monotone), so the j are one window, found
 * by a search and read to its end. For a one-node episode S(q) = q. tests/test_episodes_
 * count.c checks the count against Algorithm 1 and the brute force, test_episodes_mine.c
 * whole minings. */
#ifndef DM_EP_PREFIX_H
#define DM_EP_PREFIX_H

#include <stddef.h>
#include <stdint.h>

#include "episodes/ep_mine.h"
#include "handoff.h"

#ifdef __CUDACC__
#define EP_PREFIX_HD static inline __host__ __device__
#else
#define EP_PREFIX_HD static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* t - t0 in double, or (f32) in float on both rounded to float. */
EP_PREFIX_HD double ep_prefix_gap(double t, double t0, int f32)
{
    return f32 ? (double)((float)t - (float)t0) : t - t0;
}

/* S'(q) for the event at position q, time t: the largest start over the parent's events
 * j, from the first whose gap is within hi, that come before q with their gap passing lo.
 * The parent's events of its last type are pos[0..m) and time[0..m), starts st[0..m)
 * (-1 where no occurrence ends; NULL for a one-node parent, whose starts are its
 * positions). Returns -1 when none. */
EP_PREFIX_HD int64_t ep_prefix_latest(const int64_t *pos, const double *time,
                                      const int32_t *st, int64_t j, int64_t m, int64_t q,
                                      double t, double lo, ep_interval iv)
{
    const int f32 = (iv & EP_FLOAT) != 0, closed = (iv & EP_CLOSED) != 0;
    int64_t best = -1;
    for (; j < m && pos[j] < q; j++) {
        const double gap = ep_prefix_gap(t, time[j], f32);
        if (closed ? !(gap >= lo) : !(gap > lo))
            break;
        const int64_t s = st ? st[j] : pos[j];
        best = s > best ? s : best;
    }
    return best;
}

/* One step of a batch's counting: the starts of e -(lo, hi]-> type from those of e (its
 * parent), over the events of type. */
typedef struct ep_prefix_task {
    int64_t parent; /* offset of the parent's starts (round 0: in the kept episodes'
                       arena; later rounds: the round before's scratch); -1: the parent is
                       one node, its starts its positions; EP_PREFIX_FETCHED(off): fetched
                       from another part, at off in the batch's fetched starts */
    int64_t out;    /* offset of the starts written: in the arena when final, else in the
                       round's scratch */
    int64_t count;  /* final step: the batch index whose count this is; else -1 */
    int32_t ptype, type;
    double lo, hi;  /* seconds (rounded to float by the step when the interval says so) */
} ep_prefix_task;

/* A task's parent fetched from another part (ep_prefix_plan_ext with src): its starts at
 * off in the batch's fetched starts. */
#define EP_PREFIX_FETCHED(off) (-2 - (off))

/* The starts of task parent `parent` (ep_prefix_task), from the round's parents or the
 * batch's fetched starts; NULL for a one-node parent. */
EP_PREFIX_HD const int32_t *ep_prefix_parent(int64_t parent, const int32_t *from,
                                             const int32_t *fetched)
{
    return parent >= 0 ? from + parent : parent == -1 ? NULL : fetched + (-2 - parent);
}

/* A prefix's starts that a batch fetches before its first round: len of them from src
 * (another part's kept starts: host memory, or another GPU's, which this one can read) to
 * off in the batch's fetched starts. */
typedef struct ep_prefix_fetch {
    const int32_t *src;
    int64_t off, len;
} ep_prefix_fetch;

/* The steps that count a batch: round 0's tasks start from the kept episodes or from one
 * node, round r's from round r - 1's scratch (an episode with no kept prefix takes one
 * round a link). Scratch r & 1 is round r's; a task writes its starts to the arena when
 * final. Its buffers are kept from batch to batch (grown as needed). */
typedef struct ep_prefix_plan {
    ep_prefix_task *tasks;
    int64_t ntasks;
    int rounds;
    int64_t first[EP_MAX_LEVEL]; /* round r's tasks: first[r] .. first[r + 1) */
    int64_t longest[EP_MAX_LEVEL]; /* round r's first longest[r] tasks, ordered longest
                                      first, each at least the round's average per slot
                                      (ep_prefix_plan_longest; 0: none) */
    int64_t arena;               /* the arena's starts (int32 each) */
    int64_t scratch[2];          /* each scratch's starts */
    int64_t *off;                /* per batch episode, its starts' offset in the arena
                                    (-1: one node, its count its type's events) */
    int64_t *parent;             /* per batch episode, its kept prefix, or -1 */
    int64_t *chain;              /* per prefix of a batch of extensions that st does not
                                    hold, the offset of its starts made in the scratch */
    ep_prefix_task *sorted;      /* a round's tasks, ordered longest first */
    ep_prefix_fetch *fetch;      /* the starts fetched before round 0 */
    int64_t nfetch, fetched;     /* how many, and the fetched starts in all */
    int64_t cap_tasks, cap_off, cap_eps, cap_chain, cap_sorted, cap_fetch;
} ep_prefix_plan;

/* Runs a batch's planned rounds (on the host's cores, on the GPU): the counts of the
 * episodes it planned steps for to counts, the starts to the arena the next batch reads.
 * Returns 0, or a DM_ status with err set. */
typedef int (*ep_prefix_rounds_fn)(void *ctx, int64_t n, int64_t *counts, dm_err *err);

/* What counting by prefix keeps between batches: the stream by type, the last batch's
 * plan and, from that batch, the episodes counted at least `keep` times with their
 * starts' offsets in its arena, sorted (ep_episode_cmp), for the next batch to extend;
 * and what runs a plan's rounds (ep_prefix_cpu_open, ep_prefix_dev_open set it). */
typedef struct ep_prefix_state {
    ep_by_type by;
    int ntypes;
    int32_t *rank;    /* per type, its place with the types ordered by their events, most
                         first (ties: lower type first) */
    const int32_t *kept_starts; /* the buffer holding the kept episodes' starts (at
                                   kept_off), set by the rounds function after a batch */
    int64_t slots;    /* steps the rounds run at once (ep_prefix_plan_longest; 0: none) */
    int64_t keep;  /* mining's support; INT64_MAX keeps none */
    ep_prefix_rounds_fn rounds;
    void *rounds_ctx;
    ep_prefix_plan plan;
    ep_episode *kept;
    int64_t *kept_off;
    int64_t nkept, cap_kept, cap_kept_off;
} ep_prefix_state;

/* *buf with room for n elements of size bytes (grown, its room in *cap). Returns 0, or -1
 * without memory. */
int ep_room(void **buf, int64_t *cap, int64_t n, size_t size);

/* The most events counting by prefix takes: starts are 32-bit positions. */
#define EP_PREFIX_MAX_EVENTS INT32_MAX

/* Readies st for s, keeping episodes counted at least keep times. Returns 0, DM_EINPUT
 * for a stream of more than EP_PREFIX_MAX_EVENTS events, DM_ERUNTIME without memory. */
int ep_prefix_open(ep_prefix_state *st, const ep_stream *s, int64_t keep, dm_err *err);
void ep_prefix_close(ep_prefix_state *st);

/* st's plan made to count eps[0..n) from its kept episodes; one-node episodes' counts go
 * to counts now. Returns 0, or DM_ERUNTIME without memory. */
int ep_prefix_plan_build(ep_prefix_state *st, const ep_episode *eps, int64_t n,
                         int64_t *counts, dm_err *err);

/* After st's plan counted eps[0..n): st keeps those counted at least st->keep times
 * (their starts now in the plan's arena, which the caller keeps until the next batch is
 * counted). Returns 0, or DM_ERUNTIME without memory. */
int ep_prefix_keep(ep_prefix_state *st, const ep_episode *eps, int64_t n,
                   const int64_t *counts, dm_err *err);

/* Mining's levels after the first, as extensions (ep_mine_spec.extend): st's plan made to
 * count ext[0..n) (in ep_episode_cmp order, as ep_mine_extensions writes them), each one
 * step from its prefix freq[ext[i].prefix]. held NULL: freq[0..nfreq) are the episodes
 * st kept from the batch before (mining's frequent episodes of the level before, kept at
 * its support). Else freq[j] is st's kept episode held[j], or, for held[j] -1, one whose
 * starts st does not hold (counted on another part: ep_prefix_split.h). Such a prefix's
 * starts are fetched from src[j] (its holder's, which st's rounds can read) where src is
 * given and src[j] is not NULL, and its extensions take their step in round 0 with the
 * others; else it is made first from its first node, one round a link, once for all its
 * extensions, which take their step in the round after. Returns 0, DM_EINPUT when st
 * keeps other than nfreq episodes (held NULL) or held names none of them, DM_ERUNTIME
 * without memory. */
int ep_prefix_plan_ext(ep_prefix_state *st, const ep_episode *freq, int64_t nfreq,
                       const int64_t *held, const int32_t *const *src, const ep_ext *ext,
                       int64_t n, dm_err *err);
/* ep_prefix_keep after a plan of ep_prefix_plan_ext counted ext[0..n). Returns 0,
 * DM_EINPUT when the kept extensions are out of order, DM_ERUNTIME without memory. */
int ep_prefix_keep_ext(ep_prefix_state *st, const ep_episode *freq, const ep_ext *ext,
                       int64_t n, const int64_t *counts, dm_err *err);

/* A count callback (ep_count_fn), ctx an ep_prefix_state with its rounds set: eps[0..n)
 * planned (ep_prefix_plan_build), its rounds run, the kept ones kept (ep_prefix_keep). */
int ep_prefix_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts, dm_err *err);
/* ext[0..n) counted on st (ep_prefix_plan_ext with freq, held and src, its rounds run,
 * ep_prefix_keep_ext). Returns 0, or as those do. */
int ep_prefix_count_ext(ep_prefix_state *st, const ep_episode *freq, int64_t nfreq,
                        const int64_t *held, const int32_t *const *src, const ep_ext *ext,
                        int64_t n, int64_t *counts, dm_err *err);
/* The same for extensions (ep_count_ext_fn, mining's levels after the first), ctx an
 * ep_prefix_state with its rounds set: ep_prefix_count_ext with held NULL. */
int ep_prefix_ext_cb(void *ctx, const ep_episode *freq, int64_t nfreq, const ep_ext *ext,
                     int64_t n, int64_t *counts, dm_err *err);

/* Counting by prefix on the host's cores: st, the arenas (grown as needed, swapped after
 * each batch: the kept episodes' starts are in the other) and the workers, threads that
 * live from batch to batch. */
typedef struct ep_prefix_cpu {
    ep_prefix_state st;
    int32_t *arena[2], *scratch[2], *fetched;
    int64_t cap_arena[2], cap_scratch[2], cap_fetched;
    int cur; /* the arena the next batch writes */
    ep_interval iv;
    dm_handoff *workers;
} ep_prefix_cpu;

/* Readies c for s (ep_prefix_open, its rounds on c's workers: count through
 * ep_prefix_cb on &c->st) with threads workers (0: every online core; at most
 * DM_HANDOFF_MAX), started on the calling thread, which must be the one that counts.
 * Returns 0, or as ep_prefix_open, DM_ERUNTIME when a thread cannot start. */
int ep_prefix_cpu_open(ep_prefix_cpu *c, const ep_stream *s, ep_interval iv, int64_t keep,
                       int threads, dm_err *err);
void ep_prefix_cpu_close(ep_prefix_cpu *c);
/* The count of e by prefix on the calling thread (ep_prefix_cpu, one worker), one round a
 * link: for tests. Returns the count, or -1 without memory. */
int64_t ep_count_prefix(const ep_stream *s, const ep_episode *e, ep_interval iv);

/* Enqueues round tasks[0..n) (device memory, like every pointer here) on stream, a block
 * of block threads a task: b's first, pos and time on the device, the round's parents
 * in from (and the batch's fetched starts in fetched), its starts written to scratch or
 * (final tasks) arena, final counts to counts. few: the kernel for rounds of few tasks
 * (every thread counting), else the one for many (one warp counting; ep_prefix_gpu.cu).
 * Double precision only. Returns 0, or DM_ERUNTIME with err set. */
int ep_prefix_gpu_round(const ep_prefix_task *tasks, int64_t n, const int64_t *first,
                        const int64_t *pos, const double *time, const int32_t *from,
                        const int32_t *fetched, int32_t *scratch, int32_t *arena,
                        ep_interval iv, int few, int block, int64_t *counts, void *stream,
                        dm_err *err);
/* Enqueues the copies of fetch[0..n) (device memory; each src readable from the current
 * device: its own memory or a peer's it was given access to) into fetched, in one
 * launch. Returns 0, or DM_ERUNTIME with err set. */
int ep_prefix_gpu_fetch(const ep_prefix_fetch *fetch, int64_t n, int32_t *fetched,
                        void *stream, dm_err *err);
/* *blocks: how many blocks of block threads of the kernel for few tasks (few), else of
 * the one for many, a multiprocessor of the current device holds at once. Returns 0, or
 * DM_ERUNTIME with err set. */
int ep_prefix_gpu_resident(int block, int few, int *blocks, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
