/* coloc.h - spatial colocation mining (Sainju & Jiang 2017, after Huang, Shekhar & Xiong
 * 2004): point events grouped by feature, their loaders and synthetic generator, the
 * definitions every miner shares, and the CPU miners with their results. */
#ifndef DM_COLOC_H
#define DM_COLOC_H

#include <stdint.h>

#include "dm.h"

/* ---- definitions ------------------------------------------------------------------ *
 * Neighbours: two instances are neighbours when their Euclidean distance is at most d,
 * decided exactly as cl_near() computes it in double: dx = x1 - x2, dy = y1 - y2,
 * dx * dx + dy * dy <= d2 with d2 = d * d, each operation rounded on its own (no fused
 * multiply-add: baseline x86-64 has none; CUDA code must spell it __dmul_rn, __dadd_rn).
 * Every miner, the brute force and the GPU use this expression, so points at distance d
 * exactly are neighbours everywhere or nowhere alike.
 * Row instance of a pattern (a set of features): a clique of neighbours with one
 * instance of each of its features.
 * Participation ratio of feature f in pattern c: the number of distinct instances of f
 * in any row instance of c over the number of instances of f, computed by cl_ratio() as
 * count / (double)n. Participation index PI(c): the minimum ratio over c's features.
 * c is prevalent when PI(c) >= theta (the prevalence threshold).
 * Candidates of size k + 1 (Apriori): the unions of two prevalent size-k patterns sharing
 * their first k - 1 features (in feature order) whose size-k subsets are all prevalent;
 * size 2: all pairs of features. Results list prevalent patterns of size 2 and up. */

#define CL_MAX_FEATURES 64 /* patterns are bit masks of features */
#define CL_NAME_MAX 32     /* a feature's original ID, terminator included */

static inline int cl_near(double x1, double y1, double x2, double y2, double d2)
{
    double dx = x1 - x2, dy = y1 - y2;
    return dx * dx + dy * dy <= d2;
}

static inline double cl_ratio(uint64_t count, uint64_t n)
{
    return (double)count / (double)n;
}

/* ---- points ----------------------------------------------------------------------- */

/* Point events: feature f (a small id, 0 .. nfeat-1, in the order the features first
 * appear in the input) owns points start[f] .. start[f+1]-1, in input order. */
typedef struct cl_points {
    int nfeat;
    char (*names)[CL_NAME_MAX]; /* original feature IDs, by small id */
    uint32_t n;
    uint32_t start[CL_MAX_FEATURES + 1];
    double *x, *y;
    double minx, miny, maxx, maxy; /* bounding box: every point lies inside */
} cl_points;

/* Builds p from n points in any order (feature[i] small ids below nfeat; names NULL gives
 * "1", "2", ...), grouping them by feature stably. box is {minX, minY, maxX, maxY}, or
 * NULL for the points' own extent. Returns 0; DM_EINPUT when a coordinate is not finite,
 * a point lies outside box, a feature has no point or nfeat is out of 1..CL_MAX_FEATURES
 * (err says which point); DM_ERUNTIME without memory. */
int cl_points_build(cl_points *p, int nfeat, const char (*names)[CL_NAME_MAX], uint32_t n,
                    const int *feature, const double *x, const double *y, const double *box,
                    dm_err *err);
void cl_points_free(cl_points *p);
/* The small id of the feature whose original ID is name, or -1. */
int cl_points_feature(const cl_points *p, const char *name);

/* Loads the format of seattle2012.csv: a count line, "featureID,x,y" lines, a blank line,
 * the bounding box "minX,minY,maxX,maxY", read by the common reader (csv.h: quoted
 * fields, CRLF, a byte-order mark, gzip). Returns 0; DM_EINPUT with a one-line message
 * "path:line: ..." (path:line:col: for a field or malformed text) for a malformed line, a count that disagrees with the lines, a point
 * outside the box, a NaN or infinite coordinate, an empty file or a missing box;
 * DM_ERUNTIME without memory. On failure p is left empty. */
int cl_points_load_seattle(const char *path, cl_points *p, dm_err *err);
/* Loads plain CSV, "feature,x,y" per line (feature any name; a first line whose x is not
 * a number is a header; blank lines are skipped); the box is the points' extent. Errors
 * as cl_points_load_seattle's. */
int cl_points_load_csv(const char *path, cl_points *p, dm_err *err);
/* Loads either: the seattle2012.csv format when the first line is a count alone (digits),
 * else plain CSV. */
int cl_points_load(const char *path, cl_points *p, dm_err *err);

/* ---- synthetic data (after Huang et al., as the paper describes it) ---------------- */

typedef struct cl_gen_params {
    double area;          /* side of the square study area (10000) */
    double distance;      /* neighbourhood distance d (10) */
    int max_size;         /* cardinality of each maximal pattern (5) */
    int patterns;         /* number of maximal patterns, on disjoint features (2) */
    int noise_features;   /* features in no pattern, placed uniformly (2) */
    uint32_t instances;   /* points in all */
    uint32_t clumpiness;  /* row instances overlaid in one neighbourhood (1) */
    uint64_t seed;
} cl_gen_params;

/* The paper's defaults: 10000 x 10000, d = 10, 2 maximal patterns of 5, 2 noise
 * features, 250,000 instances, clumpiness 1, seed 1. */
void cl_gen_defaults(cl_gen_params *g);

/* The maximal patterns a generator planted, as feature masks. */
typedef struct cl_planted {
    int n;
    uint64_t mask[CL_MAX_FEATURES];
} cl_planted;

/* Generates points (see cl_gen.c for the layout), deterministic by g->seed; planted gets
 * the maximal patterns (may be NULL). Returns 0; DM_EINPUT for parameters out of range
 * (err names it); DM_ERUNTIME without memory. */
int cl_generate(const cl_gen_params *g, cl_points *p, cl_planted *planted, dm_err *err);

/* ---- mining ----------------------------------------------------------------------- */

typedef enum cl_filter {
    CL_FILTER_NONE = 0,
    CL_FILTER_MULTIRES, /* M: Huang et al.'s coarse-grid instance tables */
    CL_FILTER_CELLAGG,  /* C: the paper's cell aggregates over quadruplets */
} cl_filter;

/* Which of each feature's points the GPU miner folds into one weighted instance before
 * mining (cl_inst_merge; not in the paper, which keeps every point). */
typedef enum cl_merge {
    CL_MERGE_NONE = 0,
    CL_MERGE_SITES, /* points at one place */
    CL_MERGE_TWINS, /* points with the same neighbours of other features */
} cl_merge;

typedef struct cl_mine_opts {
    double distance;   /* d > 0 */
    double prevalence; /* theta, in [0, 1] */
    cl_filter filter;
    int threads;       /* 1: Huang's single-threaded baseline; 0: all cores */
} cl_mine_opts;

/* One candidate pattern and what became of it. */
typedef struct cl_candidate {
    uint64_t mask;  /* its features */
    int size;
    int pruned;     /* the filter's bound was below theta: not refined */
    int prevalent;
    double bound;   /* the filter's upper bound on PI; NAN without a filter */
    double pi;      /* its PI; NAN when pruned */
    uint64_t rows;  /* row instances; 0 when pruned */
} cl_candidate;

/* What the GPU miner's host spent on the device at one level, each call counted and
 * timed by the host's clock: allocations (dm_gpu_alloc), waits (stream and event
 * synchronisations), copies (cudaMemcpyAsync; one to or from pageable host memory, a
 * table kept in host memory, returns only when done, so it waits too), and the input
 * rows the refinement's threads took (a thread each, counting and writing runs). */
typedef struct cl_dev_costs {
    int64_t allocs, waits, copies;
    double alloc_s, wait_s, copy_s;
    uint64_t copy_bytes, tested;
} cl_dev_costs;

typedef struct cl_level {
    int size;
    int64_t candidates, pruned, prevalent;
    uint64_t rows;             /* instance-table rows of the candidates refined */
    double filter_s, refine_s; /* wall time of the filter and of the instance tables */
    double host_s;             /* making the level's candidates (Apriori) and opening it */
    cl_dev_costs dev;          /* the GPU miner's; zero on the CPU */
} cl_level;

/* The mining answer: candidates by size, then in feature order (lexicographic over
 * their sorted feature lists); levels from size 2 to the last with candidates. */
typedef struct cl_result {
    int nlevels;
    cl_level levels[CL_MAX_FEATURES];
    int64_t ncand;
    cl_candidate *cand;
    int on_device; /* mined by the GPU miner: the levels' dev costs are its */
    double wall_s; /* the whole mining call, by the host's clock */
    uint32_t instances; /* GPU: the fine instances mined (fewer than the points, merged) */
    double merge_s;     /* GPU: the host's time merging them, at setup (not in wall_s) */
} cl_result;

/* Mines every prevalent pattern of p. Returns 0; DM_EINPUT for options out of range or
 * a distance too small for the area (the grid would exceed CL_MAX_CELLS cells);
 * DM_ERUNTIME without memory. On failure out is left empty. */
int cl_mine(const cl_points *p, const cl_mine_opts *opts, cl_result *out, dm_err *err);
void cl_result_free(cl_result *r);

/* The features of mask, ascending, into feat; returns how many. */
int cl_mask_features(uint64_t mask, int *feat);

/* 0 when a and b hold the same prevalent patterns with bit-identical PI values; else 1
 * with why naming the first difference. */
int cl_result_compare(const cl_result *a, const cl_result *b, char *why, size_t n);

#endif
