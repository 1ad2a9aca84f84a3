/* cl_gpu_int.h - the GPU colocation miner's insides, shared by its three host files:
 * cl_gpu_dev.c (device memory, copies, waits and their costs; opening and closing),
 * cl_gpu_pass.c (a table's passes over its input a slice at a time, and a level's bounds
 * and PIs read back at once) and cl_gpu_mine.c (the levels). */
#ifndef DM_CL_GPU_INT_H
#define DM_CL_GPU_INT_H

#include <cuda_runtime.h>

#include "coloc/cl_gpu.h"
#include "coloc/cl_index.h"

/* An instance table of rows of k ids, sorted: on the device, or in host memory when the
 * device had no room for it. A level's device tables of one kind share one allocation,
 * which the first of them owns (frees). */
typedef struct clg_table {
    int k;
    uint64_t rows;
    uint32_t *dev, *host;
    void *own;
} clg_table;

/* A prevalent pattern of the level being mined, its rows (of the fine set's instances:
 * classes when merged) and coarse rows, and its tables (fine; coarse for filter M) when the
 * next level reads them. */
typedef struct clg_pat {
    uint64_t mask;
    clg_feats feat;
    uint64_t rows, coarse_rows;
    const uint64_t *kept; /* device: its counting run's rows per input row, or NULL */
    clg_table fine, coarse;
    int need_fine, need_coarse;
} clg_pat;

/* Streams a level's counting runs, and then its writing runs, are spread over (lane 0:
 * the miner's stream), so that its small candidates fill the card together. */
#define CLG_LANES 4

/* A lane's room for a writing run: each input row's count, their prefix sums, the sum's
 * temporary storage; cap rows (lane 0: the slice, from the start; others grown). */
typedef struct clg_scratch {
    uint64_t *counts, *offsets;
    void *temp;
    size_t temp_bytes;
    uint64_t cap, temp_cap;
} clg_scratch;

/* An instance set: on the host (its counts and starts), on the device, a participation
 * bitmap a lane. */
typedef struct clg_side {
    cl_inst h;
    clg_set d;
    double *x, *y;
    uint32_t *weight, *cell_start, *cell_items;
    uint32_t *bits[CLG_LANES];
    int32_t *col, *row;
    size_t words;
} clg_side;

/* Pinned host memory the device's small answers land in. */
typedef struct clg_host {
    unsigned long long groups; /* the hash join's prefix groups */
    unsigned long long rows;   /* a slice's rows, in a writing run of several slices */
} clg_host;

struct cl_gpu {
    cl_gpu_opts o;
    cudaStream_t st;
    cudaStream_t lane[CLG_LANES];     /* lane[0] is st */
    cudaEvent_t fork, join[CLG_LANES]; /* the lanes' start after st's work, st's after theirs */
    int next_lane;                    /* the lane the next candidate free to take one takes */
    clg_side fine, coarse;
    uint64_t *quad_mask;        /* device: the fine set's features of each quadruplet of
                                 * cells, by its top-left one (filter C) */
    clg_scratch scratch[CLG_LANES];
    unsigned long long *groups; /* device: the hash join's count of prefix groups */
    clg_host *h;                /* pinned */
    /* A level's answers, a slot per candidate: its k feature sums, then its rows. */
    unsigned long long *slots, *h_slots; /* device, and its pinned copy */
    uint64_t slots_cap, h_slots_cap;
    uint32_t *in, *out;         /* device: slices of host tables, read and written */
    uint64_t in_cap, out_cap;   /* their room, ids */
    unsigned long long *hash;   /* device: the prefix hash of the H join */
    uint64_t hash_cap;
    /* A level's candidates for filter C, their masks and each feature's list of them
     * (clg_cellagg_level): device, pinned. */
    uint64_t *masks, *h_masks;
    uint64_t masks_cap, h_masks_cap;
    uint64_t *kept;             /* device: the rows per input row of a level's counting runs */
    uint64_t kept_cap;
    unsigned long long *nbr;    /* device: each point's neighbours' features (size 2) */
    uint64_t nbr_cap;
    cudaEvent_t ev[2];
    uint64_t budget, held;      /* bytes of tables the device may hold, and holds */
    cl_dev_costs *cost;         /* where device calls are counted: the level being mined */
    cl_dev_costs idle;          /* ... or this, outside mining (setup) */
    double merge_s;             /* the host's time merging the fine set, at open */
};

/* The work of one pattern's table on side: size 2 (feat.k = 2) from the instances of its
 * first feature; above, the rows of t1 (its subset without its last feature) extended by
 * grid search, or, with t2 (without its second-to-last, on the device), by the join. */
typedef struct clg_work {
    clg_side *side;
    const clg_feats *feat;
    const clg_table *t1, *t2;
} clg_work;

/* ---- cl_gpu_dev.c: each call counted and timed into g->cost ------------------------- */

/* Each returns 0, or DM_ERUNTIME with err set (DM_ENOMEM's message for the device's
 * memory, from dm_gpu_alloc). */
int clg_alloc(cl_gpu *g, size_t n, void **dev, dm_err *err);
/* *dev gets n bytes of the device holding host's (NULL: uninitialised). */
int clg_upload(cl_gpu *g, const void *host, size_t n, void **dev, dm_err *err);
/* Makes *buf (room *cap items of size bytes) hold at least n items, growing it
 * geometrically (its contents are not kept). */
int clg_grow(cl_gpu *g, void **buf, uint64_t *cap, uint64_t n, size_t size, dm_err *err);
/* The same for pinned host memory. */
int clg_host_grow(cl_gpu *g, void **buf, uint64_t *cap, uint64_t n, size_t size, dm_err *err);
int clg_copy(cl_gpu *g, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
             dm_err *err);
/* Waits for the stream. */
int clg_sync(cl_gpu *g, dm_err *err);
void clg_time_begin(cl_gpu *g);
/* Adds the seconds since clg_time_begin to *acc (waits for them). */
int clg_time_end(cl_gpu *g, double *acc, dm_err *err);

/* Room for the tables of p[0..n-1] the next level reads (need_coarse or need_fine), their
 * k and rows set: on the device while the tables held there stay within the budget, all
 * of those in one allocation, else in host memory. */
int clg_tables_alloc(cl_gpu *g, clg_pat *p, int n, int coarse, dm_err *err);
/* Makes s hold the counts and prefix sums of n rows (n + 1 entries) and the sum's
 * temporary storage, growing geometrically; enqueued on st. */
int clg_scratch_grow(cl_gpu *g, clg_scratch *s, uint64_t n, dm_err *err);
/* Frees t, and the block it owns (a level's tables are freed together). */
void clg_table_free(cl_gpu *g, clg_table *t);

/* ---- cl_gpu_pass.c ------------------------------------------------------------------ */

/* The input rows of w: size 2, the first feature's instances; above, t1's rows. */
uint64_t clg_work_rows(const clg_work *w);
/* Room for the answers of n candidates of size k1, zeroed on the device. */
int clg_level_slots(cl_gpu *g, int n, int k1, dm_err *err);
/* Room in the scratch of lanes 1 and on for writing runs of n input rows: enqueued on st
 * before the lanes fork (their memory is stream-ordered). */
int clg_lanes_room(cl_gpu *g, uint64_t n, dm_err *err);
/* Lets the lanes start on what st holds so far; the next candidate takes lane 0. */
int clg_lanes_fork(cl_gpu *g, dm_err *err);
/* Makes st wait for everything the lanes hold. */
int clg_lanes_join(cl_gpu *g, dm_err *err);
/* Enqueues the counting run of w (size w->feat->k) into slot i: its rows, and the
 * participating instances of each feature from the side's bitmap; unless keep is NULL,
 * the rows of each input row there, and a 0 after them (for the writing run). On the
 * next lane (on lane 0 when it reads a table from host memory or joins through the hash,
 * which share one buffer). Waits only for the hash join's group count. */
int clg_count(cl_gpu *g, const clg_work *w, int i, uint64_t *keep, dm_err *err);
/* Enqueues filter C's sums for the n candidates cc of size k1 into their slots, in one
 * launch. */
int clg_cellagg_level(cl_gpu *g, const cl_candidate *cc, int n, int k1, dm_err *err);
/* Enqueues the counts of the n size-2 candidates cc (the pruned ones left out) on the
 * fine set into their slots, as clg_count's, in one pass over the points and one launch
 * of sums. */
int clg_pairs_level(cl_gpu *g, const cl_candidate *cc, int n, dm_err *err);
/* Copies the slots of n candidates of size k1 back, and waits for them. */
int clg_level_read(cl_gpu *g, int n, int k1, dm_err *err);
/* From slot i as read back: the minimum over f's features of the ratios as cl_ratio
 * makes them from the same integers (of h's totals: PI, or a bound), and the rows. */
double clg_slot_ratio(const cl_gpu *g, const cl_inst *h, const clg_feats *f, int i);
uint64_t clg_slot_rows(const cl_gpu *g, int k1, int i);
/* The rows of points of slot i (read back): its rows, or when merged the rows of points
 * they stand for. */
uint64_t clg_slot_points(const cl_gpu *g, int k1, int i);
/* The writing run of w into out (out->rows, from the counting run, says how many): each
 * slice counted again (or, the whole input in one slice, its counts taken from kept
 * unless NULL), then written, into the device table or through g->out into the host
 * one; on the next lane where it is one slice from and to the device without the hash
 * (else on lane 0; clg_lanes_room made room for it). Enqueued; waits only to learn each
 * slice's rows when there are several. */
int clg_write(cl_gpu *g, const clg_work *w, clg_table *out, const uint64_t *kept,
              dm_err *err);

#endif
