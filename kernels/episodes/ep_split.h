/* ep_split.h - the host side of multi-GPU mining (journal section 6.2): a level's
 * candidates split into contiguous slices, one a GPU, whose sizes differ by at most one;
 * units of work of unequal weights balanced over the GPUs, moving few from the GPU that
 * holds what they need (counting by prefix, ep_prefix_split.h); and what the GPUs did
 * with their shares at each level (the facts of Figs. 13-15). */
#ifndef DM_EP_SPLIT_H
#define DM_EP_SPLIT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Slice `part` (0..parts-1) of n items split over parts (>= 1): items [*first, *first +
 * *count), in order; the first n % parts slices hold one more. Empty when parts > n. */
void ep_split(int64_t n, int parts, int part, int64_t *first, int64_t *count);

/* A unit of work that every part holds what it needs for (ep_split_balance). */
#define EP_SPLIT_ANY (-1)

/* Places n units of work on parts (1..): unit i weighs w[i] (an estimate of its cost),
 * needs what part held[i] holds (EP_SPLIT_ANY: every part), and costs move[i] more on any
 * other part (what it takes to make there what held[i] holds). part[i] gets its part.
 * First every unit stays with its holder, except that a holder with more than an even
 * share (the sum of w over parts) gives up its heaviest units while what it gives up
 * stays within twice its excess, so that few and large units move; then the units given
 * up and those of every part go, heaviest first, each where the load it makes (its
 * weight, plus move[i] away from its holder) is least, the lowest part on a tie. With
 * can_move 0 no held unit leaves its holder. The largest load is then within the largest
 * w[i] + move[i] of an even share of the weights and the moves paid (when units may
 * move); the same input gives the same placement.
 * Returns 0, or -1 without memory (part unset). */
int ep_split_balance(const int64_t *w, const int64_t *move, const int *held, int64_t n,
                     int parts, int can_move, int *part);

/* One pass of a level over the GPUs (PreElim's bound, or the exact count): the most
 * episodes one GPU was given; the longest any GPU's thread took over its part, by the
 * host's clock (wall_s); and, when timed (on a GPU's stream, by events), the longest any
 * GPU took to move its slice (episodes to it, counts back) and to count it. */
typedef struct ep_split_pass {
    int64_t per_gpu;
    double wall_s, transfer_s, kernel_s;
    int timed;
} ep_split_pass;

/* What a level of multi-GPU mining did: its bound pass (when a pre-elimination ran, else
 * zeros) and its exact count; counted by prefix (by_prefix), how many prefixes it moved
 * off the GPU holding them, and how many of those had their starts fetched (the others
 * made again). */
typedef struct ep_split_level {
    ep_split_pass bound, count;
    int by_prefix;
    int64_t moved, fetched;
} ep_split_level;

/* Folds one GPU's pass into the level's: each field the larger of the two. */
void ep_split_pass_merge(ep_split_pass *level, const ep_split_pass *gpu);

#ifdef __cplusplus
}
#endif

#endif
