/* ep_workload.h - the episodes workload's side of the contract (dm.h): its dataset (a
 * stream, loaded or generated), the episodes a point counts (every serial episode of its
 * level over the stream's types, or the first `count` of them, each link with the
 * point's gap interval), the CPU reference, the comparison and the result writer. */
#ifndef DM_EP_WORKLOAD_H
#define DM_EP_WORKLOAD_H

#include <stdio.h>

#include "episodes/ep_mine.h"
#include "episodes/ep_split.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A dataset: the stream and, when generated, the chains embedded in it. */
typedef struct ep_data {
    ep_stream s;
    int nchains;
    ep_chain chains[2];
} ep_data;

/* The episodes of a point and their counts: what a variant's output() gives and the
 * reference holds. counts[i] is the count of eps[i]. A point with support > 0 mines:
 * eps are then the frequent episodes of every level, and levels[0..nlevels) what each
 * level did (ep_mine), for storage; else nlevels is 0 and levels NULL. A mining over
 * several GPUs (multigpu) also gives split[i], what its GPUs did at levels[i]; NULL
 * otherwise. */
typedef struct ep_result {
    const ep_stream *s;
    const ep_episode *eps;
    int64_t n;
    const int64_t *counts;
    int nlevels;
    const ep_mine_level *levels;
    const ep_split_level *split;
} ep_result;

/* The episodes pt counts on s: those of its episodes file (ep_episodes_load), or its
 * level's serial episodes over s's types in lexicographic order of type index (types may
 * repeat), the first `count` of them (0: all); links with the point's gaps
 * (ep_point_gaps: one for every link, or one per link; lower bounds 0 when pt sets
 * relax, PreElim's relaxed problem). Returns 0 with *eps (malloc'd)
 * and *n; DM_EINPUT for bad gaps, per-link gaps not matching the links, an episodes
 * file's error, more than EP_MAX_CANDIDATES episodes; DM_ERUNTIME without memory. */
int ep_candidates(const ep_stream *s, const dm_point *pt, ep_episode **eps, int64_t *n,
                  dm_err *err);
/* The point's interval mode: closed when it sets relax; EP_FLOAT or'ed on with
 * precision=float. */
ep_interval ep_point_interval(const dm_point *pt);
/* The point's gap intervals in seconds into lo[] and hi[] (room for EP_MAX_LEVEL - 1),
 * *ngaps of them: gaps "-" is (gap_lo_ms, gap_hi_ms], else "LO:HI;LO:HI..." in ms; every
 * LO 0 when pt sets relax.
 * Returns 0, or 1 with why (bad text, LO > HI, too many). */
int ep_point_gaps(const dm_point *pt, int *ngaps, double *lo, double *hi, char *why,
                  size_t n);
/* The most runs a list of the GPU's machines needs under pt's gaps (ep_runs_needed,
 * with the margin of the gaps alone: a stream's late times can raise it, which setup
 * checks); 1 when the gaps are bad. */
int ep_point_runs_needed(const dm_point *pt);
/* 0 when pt's problem is well posed, else nonzero with why (for every variant's
 * supports()): bad gaps (ep_point_gaps), count with support (mining counts every
 * candidate of a level), an episodes file with support or count, per-link gaps not
 * matching the level's links, links=any without mining, a mining spec that
 * ep_mine_spec_check refuses. */
int ep_point_check(const dm_point *pt, char *why, size_t n);
/* The mining of pt (support > 0): that support, level as the last level, the point's
 * gaps (ep_point_gaps) applied per link position or, with links=any or one gap, as the
 * set I. Returns 0, or DM_EINPUT for bad gaps or as ep_mine_spec_check. */
int ep_point_mine_spec(const dm_point *pt, ep_mine_spec *spec, dm_err *err);
/* What pt asks of a variant on s: with support > 0, *mine 1 and its mining in spec
 * (ep_point_mine_spec); else *mine 0 and its episodes (ep_candidates) in m, with counts
 * zeroed. Returns 0, DM_EINPUT as those do, or DM_ERUNTIME without memory. */
int ep_point_work(const ep_stream *s, const dm_point *pt, int *mine, ep_mine_spec *spec,
                  ep_mine_result *m, dm_err *err);
/* The ep_result over m's episodes and counts on s, with m's levels when it mined. */
ep_result ep_result_of(const ep_stream *s, const ep_mine_result *m);

int ep_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                    dm_err *err);
void ep_dataset_close(dm_dataset *ds);
/* The reference: Algorithm 1 over the point's episodes, or mining with it (support > 0),
 * each episode counted by it on one thread, the episodes spread over every online core
 * (ep_count_all_mt: the counts are one thread's; a problem large enough to need a node
 * would take one core an hour); *ref is an ep_result (freed by ep_reference_free). */
int ep_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err);
void ep_reference_free(void *ref);
/* 0 when out has ref's episodes in ref's order with ref's counts, else 1 with why naming
 * the first difference (an episode, a count, an episode missing or extra). */
int ep_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n);
/* "episode,level,count" then a row per episode ("A -> B", its level, its count). */
int ep_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err);
/* A mining run's facts, level by level ("level 3"): candidates; with a pre-elimination
 * its survivors and the fraction eliminated; the frequent episodes; the wall time of
 * generating the candidates, of the pre-elimination and of counting; over several GPUs
 * (split), for the count and any pre-elimination, the most episodes one GPU took
 * (count_per_gpu, bound_per_gpu) and the longest any took to move them and their counts
 * (count_transfer_s, bound_transfer_s) and to count them (count_kernel_s,
 * bound_kernel_s). None when the point counts without mining. */
int ep_facts(const void *out, const dm_point *pt, dm_fact *f, int max);
/* The work of one execution, from the reference answer ref (an ep_result): ops the events
 * of the stream times the episodes counted over it (the papers' measure of counting
 * throughput, events x episodes per second), mining: times every level's candidates;
 * no bytes. */
void ep_work(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w);

#ifdef __cplusplus
}
#endif

#endif
