/* ep_prefix_split.h - counting by prefix (ep_prefix.h) over several parts, a part a GPU,
 * each with a counting state of its own: a batch of whole episodes cut into even
 * contiguous slices, and a level's extensions balanced over the parts by their estimated
 * cost. A part keeps the starts of what it counted, so an extension is cheapest where its
 * prefix was counted; the level-1 episodes, whose starts are their positions, every part
 * keeps. Each level is shared afresh (ep_split_balance): the extensions of one prefix go
 * together, to the part holding its starts unless that part would get more than an even
 * share, in which case its heaviest prefixes go to the parts with least. There a moved
 * prefix's starts are fetched from the part holding them, where the parts can read each
 * other's (ep_prefix_split_fetching: GPUs with peer access), and its extensions counted
 * with the others; else it is made there again from its first node (one round a link,
 * once for all its extensions) before its extensions are counted from it. The subtree
 * below a moved prefix stays where it went until a later level moves part of it on. The
 * share is made on the calling thread, each part counted on its own
 * (ep_prefix_split_count, safe to call for every part at once, from the split's run
 * function) and the counts gathered on the calling thread. */
#ifndef DM_EP_PREFIX_SPLIT_H
#define DM_EP_PREFIX_SPLIT_H

#include "episodes/ep_prefix.h"
#include "episodes/ep_split.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most parts. */
#define EP_PREFIX_SPLIT_MAX 64
/* The owner of a kept episode that every part holds (a one-node one). */
#define EP_PREFIX_EVERY EP_SPLIT_ANY

/* One part's share of a batch: whole episodes eps[0..n), or extensions ext[0..n) of its
 * freq[0..nfreq) (the level before's frequent episodes whose starts it holds, and those
 * moved to it, ext's prefixes indices among them); its counts. */
typedef struct ep_prefix_share {
    const ep_episode *eps;
    const ep_episode *freq;
    const int64_t *held;  /* per freq[j], its index among the part's kept episodes, -1 when
                             moved to it; NULL: freq are its kept episodes */
    const int32_t *const *src; /* per freq[j] moved to it, where its starts are fetched
                                  from (NULL: made again); NULL: none fetched */
    const ep_ext *ext;
    int64_t n, nfreq;
    int64_t *counts;      /* the batch's own over one part, else own_counts */
    int64_t *own_counts;
    ep_episode *own_freq; /* freq when it is a copy, else unused */
    ep_ext *own_ext;
    int64_t *own_held;
    const int32_t **own_src;
    int64_t *local;       /* per episode of the level before, its index in freq, or -1 */
    int64_t cap_counts, cap_freq, cap_ext, cap_held, cap_src, cap_local;
} ep_prefix_share;

/* Counts every part's share of the batch shared out (ep_prefix_split_count for each part,
 * on whatever threads the caller keeps). Returns 0, or a DM_ status with err set. */
typedef int (*ep_prefix_parts_fn)(void *ctx, dm_err *err);

typedef struct ep_prefix_split {
    int parts;
    ep_prefix_parts_fn run;
    void *run_ctx;
    int64_t keep;          /* the parts' states' keep */
    int64_t wave;          /* prefixes are made again only at a level of parts * wave
                              extensions */
    ep_prefix_state *state[EP_PREFIX_SPLIT_MAX]; /* the parts' (fetching) */
    int fetching;          /* moved prefixes' starts fetched from their holders */
    int64_t *events;       /* per event type, its events: the cost of a step reading them */
    /* The batch being counted: whole episodes, or extensions of freq; its counts. */
    const ep_episode *eps, *freq;
    const ep_ext *ext;
    int64_t n, nfreq;
    int64_t *counts;
    /* The batch's units, runs of it in order: unit u is items first[u]..first[u + 1),
     * counted on part[u] (EP_PREFIX_EVERY: on every part). Whole episodes: every part all,
     * or a slice a part. Extensions: those of a prefix one part holds, together, and each
     * of a prefix every part holds alone, with their weights, costs of a move and holders
     * (ep_split_balance); unit_of: per prefix one part holds, its unit, or -1 (no
     * extension). */
    int64_t *first, *w, *move, *unit_of;
    int *held, *part;
    int64_t nunits, cap_units, cap_unit_of;
    int64_t moved;         /* units placed off their holder this batch */
    /* Per episode the batch before kept (in batch order), the part holding its starts,
     * and where they are when moved and fetched (else NULL). */
    int *owner;
    const int32_t **src;
    int64_t nowner, cap_owner, cap_src;
    ep_prefix_share share[EP_PREFIX_SPLIT_MAX];
} ep_prefix_split;

/* Readies sp for parts (1..EP_PREFIX_SPLIT_MAX) counting on s, whose states keep the
 * episodes counted at least keep times, counted by run(run_ctx). Without fetching, a
 * level of extensions moves prefixes off the part holding them only when it has at least
 * parts * wave of them (1: any level): a GPU's round of fewer than it can run at once
 * takes about one step's time whatever its size, and a prefix made again adds a round a
 * link. Returns 0, or DM_ERUNTIME without memory (free sp either way). */
int ep_prefix_split_init(ep_prefix_split *sp, int parts, int64_t keep, const ep_stream *s,
                         int64_t wave, ep_prefix_parts_fn run, void *run_ctx, dm_err *err);
void ep_prefix_split_free(ep_prefix_split *sp);
/* From the next batch of extensions on, a prefix moved to a part has its starts fetched
 * from the part holding them, states[p] being part p's (the one ep_prefix_split_count is
 * given for it), whose kept starts (kept_starts) every part's rounds can read: host
 * memory, or GPUs each given access to the others' memory. A move then costs a copy of
 * its starts, not its steps, and adds no round, so any level may move prefixes. */
void ep_prefix_split_fetching(ep_prefix_split *sp, ep_prefix_state *const *states);

/* Counts part's share on st (ep_prefix_cb or ep_prefix_count_ext), st being the state
 * that part counted every batch before on, and puts its counts in the batch's at its
 * units' runs. Returns 0, or as those do. */
int ep_prefix_split_count(ep_prefix_split *sp, int part, ep_prefix_state *st, dm_err *err);
/* A count callback (ep_count_fn), ctx an ep_prefix_split: eps[0..n) shared out (every
 * part all of them when each is one node: no step to take, every part keeps them; else
 * even contiguous slices), counted by the run function, and who holds the starts of each
 * episode kept noted for the next batch. Returns 0, or DM_ERUNTIME without memory, or the
 * run function's status. */
int ep_prefix_split_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                       dm_err *err);
/* The same for extensions (ep_count_ext_fn, mining's levels after the first): ext[0..n)
 * shared out balanced by ep_split_balance. An extension weighs the events of its type
 * and of its prefix's last type (what its step reads); the extensions of a prefix one
 * part holds are one unit, whose move costs a copy of its prefix's starts (fetching) or
 * its prefix's steps from its first node; each extension of a prefix every part holds is
 * a unit of its own. Also DM_EINPUT when the batch before kept other than nfreq
 * episodes. */
int ep_prefix_split_ext_cb(void *ctx, const ep_episode *freq, int64_t nfreq,
                           const ep_ext *ext, int64_t n, int64_t *counts, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
