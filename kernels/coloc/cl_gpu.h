/* cl_gpu.h - colocation mining on the GPU (the paper's section 3): the miner's host API
 * (cl_gpu_mine.c, cl_gpu_pass.c, cl_gpu_dev.c; their shared insides in cl_gpu_int.h) and
 * the launchers of its kernels, filter C (cl_gpu_filter.cu), the grid
 * search of Algorithm 3 (cl_gpu_grid.cu), the prefix hash join of Algorithm 4
 * (cl_gpu_hash.cu), and the prefix sums and bitmap sums they share (cl_gpu_count.cu). */
#ifndef DM_CL_GPU_H
#define DM_CL_GPU_H

#include "coloc/coloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the miner ---------------------------------------------------------------------- */

typedef enum cl_refine {
    CL_REFINE_GRID = 0, /* G: a thread per row of the size-k table, the grid for the last */
    CL_REFINE_HASH,     /* H: the size-k tables sharing a prefix joined through a hash */
} cl_refine;

typedef struct cl_gpu_opts {
    double distance, prevalence;
    cl_filter filter;   /* none, M (on the coarse set, by grid search) or C */
    cl_refine refine;
    int block;          /* threads per block of every kernel */
    uint64_t slice;     /* rows (size 2: instances) of a table's input a launch takes */
    uint64_t device_mb; /* instance tables held on the device up to this many MiB, the rest
                         * in host memory; 0: the device's free memory at open, less 1/8 */
    cl_merge merge;     /* each feature's points folded into weighted instances first */
    void *stream;       /* cudaStream_t */
} cl_gpu_opts;

typedef struct cl_gpu cl_gpu;

/* Builds p's grid and instance sets (fine, and coarse for a filter, then the fine set
 * merged as o->merge says, timed) and uploads them.
 * Returns 0; DM_EINPUT for options out of range; DM_ERUNTIME with err set (a CUDA call,
 * or memory). *g is NULL on failure. */
int cl_gpu_open(const cl_points *p, const cl_gpu_opts *o, cl_gpu **g, dm_err *err);
/* Mines every prevalent pattern, synchronously on o->stream: each level's candidates on
 * the host, their bounds and instance tables on the device, each level's filter_s and
 * refine_s timed by CUDA events, its host_s and device costs (cl_dev_costs) by the
 * host's clock. Same answer as cl_mine, PI bit for bit. Returns 0, or
 * DM_ERUNTIME with err set (out is left empty). */
int cl_gpu_mine(cl_gpu *g, cl_result *out, dm_err *err);
/* Frees what cl_gpu_open made (NULL is fine); synchronises the stream first. */
void cl_gpu_close(cl_gpu *g);

/* ---- the kernels ---------------------------------------------------------------------- */

/* An instance set (cl_inst) on the device. */
typedef struct clg_set {
    int coarse;
    int32_t ncols, nrows;
    double d2;
    uint32_t n;
    uint32_t start[CL_MAX_FEATURES + 1];
    const double *x, *y;     /* fine */
    const uint32_t *weight;  /* the points of each instance (cl_inst's); fine: NULL, but
                              * merged */
    const int32_t *col, *row;
    const uint32_t *cell_start, *cell_items;
} clg_set;

/* A pattern's features, ascending, by value (a kernel argument). */
typedef struct clg_feats {
    int k;
    int f[CL_MAX_FEATURES];
} clg_feats;

/* One launch over a slice of a table's work: thread t takes input row t of n. Size 2
 * (k = 1): the row is instance first + t. Else row t of in, k ids. Each output row is the
 * input row and one more id, an instance of the last feature (blo .. bhi - 1): grid
 * search looks for it in the cells around the row; the hash join takes the last id of
 * the rows of t2 (k ids a row, rows2 rows) that share the row's first k - 1 ids, found
 * through hash (slots entries, a power of two). The counting launch writes counts[t]
 * unless counts is NULL, adds its rows to *rows unless rows is NULL, and, unless bits is
 * NULL, marks the ids of every output row in the bitmap bits, and, unless points is
 * NULL, adds to *points the rows of points they stand for (the product of their
 * instances' weights: a merged fine set); the
 * writing launch writes thread t's rows from row offsets[t] of out, in ascending order of
 * the last id, so a table made from a sorted one is sorted. */
typedef struct clg_pass {
    clg_set s;
    int k;
    const uint32_t *in;
    uint32_t first;
    uint64_t n;
    uint32_t blo, bhi;
    const uint32_t *t2;
    uint64_t rows2;
    const unsigned long long *hash;
    uint64_t slots;
    uint64_t *counts;
    unsigned long long *rows;
    uint32_t *bits;
    unsigned long long *points;
    const uint64_t *offsets;
    uint32_t *out;
    int block;
    void *stream;
} clg_pass;

/* Each enqueues its launch on a->stream. Return 0, or DM_ERUNTIME with err set. */
int clg_grid_count(const clg_pass *a, dm_err *err);
int clg_grid_write(const clg_pass *a, dm_err *err);
int clg_hash_count(const clg_pass *a, dm_err *err);
int clg_hash_write(const clg_pass *a, dm_err *err);

/* The number of prefix groups of t (rows rows of k ids, sorted: a group is a run of rows
 * sharing their first k - 1 ids) into *groups (device). */
int clg_hash_groups(const uint32_t *t, uint64_t rows, int k, unsigned long long *groups,
                    int block, void *stream, dm_err *err);
/* Fills hash (slots entries, a power of two above the groups, all ~0 on entry) with the
 * first row of each prefix group of t. */
int clg_hash_build(const uint32_t *t, uint64_t rows, int k, unsigned long long *hash,
                   uint64_t slots, int block, void *stream, dm_err *err);

/* The bytes of temporary storage clg_scan needs for n items. */
int clg_scan_bytes(uint64_t n, size_t *bytes, dm_err *err);
/* offsets[i] = counts[0] + ... + counts[i-1] for i < n (temp: clg_scan_bytes of n). */
int clg_scan(const uint64_t *counts, uint64_t *offsets, uint64_t n, void *temp, size_t bytes,
             void *stream, dm_err *err);

/* sums[m] += the participating instances of feature f.f[m] (bits set; coarse: their
 * weights), for m < f.k. */
int clg_bits_sum(const clg_set *s, const uint32_t *bits, const clg_feats *f,
                 unsigned long long *sums, int block, void *stream, dm_err *err);

/* A level's per-feature sums in one launch: masks[c] (device) the features of pattern c,
 * the patterns holding feature f listed in entry[first[f] .. first[f + 1]) (nfeat
 * features, nentry entries in all), each entry c << 6 | f's place among c's features;
 * slots[c * slot + m] += the instances of s (their weights) of c's feature m (ascending)
 * that count for c: with
 * quad_mask (filter C, s the coarse set), those in cells that lie in a quadruplet holding
 * every feature of c (quad_mask: the features of the quadruplet whose top-left cell is
 * each cell); else (size 2) those whose neighbours' features (nbr, clg_pairs) hold c's
 * other features. */
int clg_level_sums(const clg_set *s, int nfeat, const uint64_t *quad_mask,
                   const unsigned long long *nbr, const uint64_t *masks,
                   const uint32_t *first, const uint32_t *entry, uint32_t nentry, int slot,
                   unsigned long long *slots, int block, void *stream, dm_err *err);

/* The size-2 patterns of a level on the fine set s (nfeat features) in one pass: nbr[i]
 * (zeroed before) gets the features of point i's neighbours that make a pattern of the
 * level with i's; for each pattern (fa < fb) whose slot is
 * pair[fa * nfeat + fb] (-1: none; npat slots), its rows added to slots[p * slot + 2]
 * and, when merged, its rows of points to slots[p * slot + 3]. */
int clg_pairs(const clg_set *s, int nfeat, const int32_t *pair, int npat, int slot,
              unsigned long long *nbr, unsigned long long *slots, int block, void *stream,
              dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
