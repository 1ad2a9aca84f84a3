/* ep_gpu_count.h - counting batches of episodes on one GPU, what every GPU variant of
 * episodes runs (multigpu one on each of its GPUs): the stream put on the device once,
 * room for a batch grown as batches need, the batch in type-set order, PTPE, MTPE,
 * PreElim or hybrid's choice launched over it, the counts fetched in the caller's order. */
#ifndef DM_EP_GPU_COUNT_H
#define DM_EP_GPU_COUNT_H

#include <cuda_runtime_api.h>

#include "episodes/ep_gpu.h"
#include "episodes/ep_workload.h"

/* A kernel's launcher (ep_gpu.h). */
typedef int (*ep_gpu_fn)(const ep_gpu_launch *a, dm_err *err);

typedef struct ep_order ep_order;

/* One GPU's copy of the stream and room for a batch of episodes, their counts and MTPE's
 * tuples; what the batch readied in la runs. */
typedef struct ep_gpu_counter {
    cudaStream_t stream;
    const dm_device *dev;
    const dm_workload *w; /* hybrid's crossover fits */
    const ep_stream *s;
    int64_t switch_at;    /* hybrid: its switch point, 0 for the level's own */
    int64_t segments;     /* MTPE's R and K, 0: automatic */
    int machines;
    int bounding;         /* ep_gpu_bound's count: the relaxed episodes, PreElim for PTPE */
    int read_auto;        /* read=auto: PTPE reads the stream, MTPE and PreElim by type */
    int64_t *d_first, *d_pos;
    int32_t *d_stype;
    uint64_t *d_mask; /* the type masks; NULL when too large (then only the stream is read) */
    double *d_time, *d_stime;
    ep_episode *d_eps;
    int64_t *d_counts;
    /* The batch in the order the device counts it: h_eps[j] is episode order[j] of the
     * caller's; h_counts receives the device's counts in that order. */
    ep_episode *h_eps;
    int64_t *h_counts;
    ep_order *order;
    ep_tuple *d_tuples;
    unsigned long long *d_overflow;
    int64_t cap_eps, cap_tuples;
    ep_gpu_launch la;
    ep_gpu_fn batch_kernel; /* what the batch in la runs */
    /* When timed: events around the batch's upload, its kernel and the counts' download. */
    int timed;
    cudaEvent_t marks[4];
} ep_gpu_counter;

/* The margin of the lists' runs test (ep_margin) for counting m's episodes on st, or for
 * mining spec when mine. */
double ep_gpu_margin(const ep_stream *st, const ep_mine_result *m, const ep_mine_spec *spec,
                     int mine);

/* Readies c on dev, the calling thread's current device, launching on stream: st put on
 * the device (in stream order and by type) and launches at pt's block, reading as pt's
 * `read` says (auto when it has none), MTPE at pt's segments and machines and hybrid at
 * pt's switch_at when it has them (else automatic), with margin (ep_gpu_margin). timed:
 * each count's transfers and kernel timed by events (ep_gpu_took). Synchronises. Returns
 * 0, or DM_ERUNTIME with err set; close c either way. */
int ep_gpu_counter_open(ep_gpu_counter *c, const dm_device *dev, void *stream,
                        const ep_stream *st, const dm_point *pt, double margin, int timed,
                        dm_err *err);
/* Frees c's device memory (in stream order), events and host buffers. */
void ep_gpu_counter_close(ep_gpu_counter *c);

/* Puts eps[0..n) (all of one level) on the device and readies la to count them with
 * kernel (NULL: hybrid's choice), growing the buffers as needed; asynchronous. Returns
 * 0, DM_EINPUT when an episode's lists would need more runs than a thread keeps, or
 * DM_ERUNTIME with err set. */
int ep_gpu_batch(ep_gpu_counter *c, const ep_episode *eps, int64_t n, ep_gpu_fn kernel,
                 dm_err *err);
/* Launches the batch ep_gpu_batch readied; asynchronous. Returns 0, or DM_ERUNTIME with
 * err set. */
int ep_gpu_run_batch(ep_gpu_counter *c, dm_err *err);
/* Copies the batch's counts to counts and checks the lists held. Synchronises. */
int ep_gpu_fetch(ep_gpu_counter *c, int64_t *counts, dm_err *err);
/* Counts eps[0..n) into counts with kernel (NULL: hybrid's choice): batch, launch, fetch.
 * Returns as those do. */
int ep_gpu_count(ep_gpu_counter *c, const ep_episode *eps, int64_t n, ep_gpu_fn kernel,
                 int64_t *counts, dm_err *err);
/* PreElim's bound of eps[0..n) into counts, reading by type. The relaxed count is
 * Algorithm 1's count of the episode with every lower bound 0, closed (test_preelim_bounds
 * checks it), so where hybrid would count the level with MTPE, MTPE counts the relaxed
 * episodes, each over segments in parallel; else PreElim's kernel, a thread an episode
 * and one time a node (also where the relaxed lists would not fit). Returns as
 * ep_gpu_count. */
int ep_gpu_bound(ep_gpu_counter *c, const ep_episode *eps, int64_t n, int64_t *counts,
                 dm_err *err);
/* A timed c's last count: the seconds of its transfers (episodes up, counts down) and of
 * its kernel. Returns 0, or DM_ERUNTIME with err set. */
int ep_gpu_took(const ep_gpu_counter *c, double *transfer_s, double *kernel_s, dm_err *err);

/* hybrid's switch point for episodes of `level` nodes at block threads on dev, their
 * lists of cap runs: the crossover fit of mtpe and ptpe over count by level for the card
 * (else its architecture family) among w's stored and shipped fits (crossover_lookup),
 * rounded up (the crossover measured at level where there is one, crossover_switch_at);
 * without one, the papers' Equation 2, MP x B_MP x T_B (f(N) = 1: PTPE once the episodes
 * fill every thread slot its occupancy allows). 0 when neither is known. The rule that
 * chose it is written into how (of size hown) unless how is NULL. */
int64_t ep_hybrid_switch_at(const dm_workload *w, const dm_device *dev, int level, int block,
                            int cap, char *how, size_t hown);

#endif
