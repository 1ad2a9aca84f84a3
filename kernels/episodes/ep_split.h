/* ep_split.h - the host side of multi-GPU mining (journal section 6.2): a level's
 * candidates split into contiguous slices, one a GPU, whose sizes differ by at most one;
 * and what the GPUs did with their slices at each level (the facts of Figs. 13-15). */
#ifndef DM_EP_SPLIT_H
#define DM_EP_SPLIT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Slice `part` (0..parts-1) of n items split over parts (>= 1): items [*first, *first +
 * *count), in order; the first n % parts slices hold one more. Empty when parts > n. */
void ep_split(int64_t n, int parts, int part, int64_t *first, int64_t *count);

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
 * zeros) and its exact count. */
typedef struct ep_split_level {
    ep_split_pass bound, count;
} ep_split_level;

/* Folds one GPU's pass into the level's: each field the larger of the two. */
void ep_split_pass_merge(ep_split_pass *level, const ep_split_pass *gpu);

#ifdef __cplusplus
}
#endif

#endif
