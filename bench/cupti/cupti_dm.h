/* cupti_dm.h - what dmbench learns from CUPTI besides time (named so as not to shadow
 * CUPTI's own cupti.h): hardware metrics per kernel launch (Range Profiler, auto range,
 * kernel replay), static kernel attributes, and stream timelines (Activity API). Each runs
 * in a pass of its own after a point is timed: replay serialises and slows kernels, so
 * timings never come from these passes. */
#ifndef DM_CUPTI_DM_H
#define DM_CUPTI_DM_H

#include <stddef.h>
#include <stdint.h>

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- metrics by name (cupti_metrics.c; validation through the host API, cupti_host.cu) */

#define CUPTI_NAME_MAX 128
#define CUPTI_MAX_METRICS 64
/* The chip names are checked against when there is no GPU (the project's H100/H200). */
#define CUPTI_DEFAULT_CHIP "GH100"

/* A built-in metric: its perfworks name, the short column name the store and plots use,
 * the unit of its values, and what it says. */
typedef struct cupti_trait {
    const char *name;
    const char *short_name;
    const char *unit;
    const char *description;
} cupti_trait;

/* A named set of built-in metrics (short names, NULL-terminated). */
typedef struct cupti_set {
    const char *name;
    const char *description;
    const char *const *metrics;
} cupti_set;

/* The traits table and the sets; both end with a zeroed entry. */
const cupti_trait *cupti_traits(void);
const cupti_set *cupti_sets(void);

/* A metric to collect: built-in (short name from the table) or raw (short name = the
 * perfworks name; unit from the host API once checked). */
typedef struct cupti_metric {
    char name[CUPTI_NAME_MAX];
    char short_name[CUPTI_NAME_MAX];
    char unit[32];
} cupti_metric;

typedef struct cupti_metric_list {
    int n;
    cupti_metric m[CUPTI_MAX_METRICS];
} cupti_metric_list;

/* Adds the metrics item names: a set name, a built-in short or perfworks name, or any
 * other name shaped like a perfworks metric (unit__counter.rollup), which only
 * cupti_metrics_check can confirm. Metrics already in l are not added twice. Returns 0,
 * or DM_EINPUT naming the item and what was expected. */
int cupti_metrics_add(cupti_metric_list *l, const char *item, dm_err *err);
/* Adds each item of a comma-separated list ("occupancy,divergence"); as above. */
int cupti_metrics_parse(cupti_metric_list *l, const char *csv, dm_err *err);
/* "a, b, c": the short names of l. */
void cupti_metrics_format(const cupti_metric_list *l, char *buf, size_t n);

/* Checks every metric of l against chip with the Profiler Host API (no GPU needed),
 * filling the units of raw names, and counts the passes kernel replay needs for all of
 * them together. Returns 0, or DM_EINPUT for an unknown chip or a name that is not a
 * metric of chip, or DM_ERUNTIME when the host API cannot be used at all. */
int cupti_metrics_check(const char *chip, cupti_metric_list *l, int *passes, dm_err *err);

/* The chip name of GPU device ("GH100"). Returns 0, or DM_ERUNTIME with CUPTI's error. */
int cupti_chip_name(int device, char *buf, size_t n, dm_err *err);

/* Checks a CUPTI status. Returns 0 on success; otherwise -1 with err set to
 * "file:line: call: CUPTI_ERROR_NAME (code): CUPTI's message". Use through DM_CUPTI. */
int dm_cupti_check(dm_err *err, int status, const char *call, const char *file, int line);
#define DM_CUPTI(err, call) dm_cupti_check((err), (int)(call), #call, __FILE__, __LINE__)

/* The kernel name for a (possibly mangled) symbol, without its parameter list
 * ("_Z10membw_vec4...": "membw_vec4"; "f<int>(int)": "f<int>"), in buf of size n. */
void cupti_kernel_name(const char *symbol, char *buf, size_t n);

/* ---- what one point yields ------------------------------------------------------------ */

/* One kernel launch, in the order the point's execution made them. */
typedef struct dm_launch {
    char kernel[CUPTI_NAME_MAX];
    unsigned grid[3], block[3];
    int64_t dynamic_smem;
    const void *func; /* the runtime's handle of the kernel, for its attributes */
} dm_launch;

/* Static attributes of a kernel at one launch shape, with the occupancy the runtime's
 * calculator predicts for that block size and dynamic shared memory. */
typedef struct dm_kernel_attrs {
    char kernel[CUPTI_NAME_MAX];
    int block_threads;
    int64_t dynamic_smem;
    int regs_per_thread;
    int64_t static_smem;
    int64_t local_bytes_per_thread;
    int max_threads_per_block;
    int blocks_per_sm;          /* resident blocks per SM the calculator predicts */
    double predicted_occupancy; /* percent of the SM's warp slots */
} dm_kernel_attrs;

typedef enum dm_activity_kind { DM_ACT_KERNEL = 0, DM_ACT_MEMCPY = 1 } dm_activity_kind;

/* A kernel or a copy from the trace pass; times in ns from the first activity's start. */
typedef struct dm_activity {
    dm_activity_kind kind;
    char name[CUPTI_NAME_MAX]; /* kernel name, or "memcpy DtoD" and the like */
    uint32_t stream;
    int64_t start_ns, end_ns;
    int64_t bytes;                /* copies */
    unsigned grid[3], block[3];   /* kernels */
} dm_activity;

/* Everything CUPTI gave for one point; filled by cupti_watch_end, cupti_profile and
 * cupti_trace, written by store_point, freed by cupti_point_free. */
typedef struct dm_cupti_point {
    dm_kernel_attrs *attrs; /* of the verification run's kernels, profiled or not */
    size_t nattrs;

    int profiled;                     /* a profiling pass was asked for */
    const cupti_metric_list *metrics; /* the run's list */
    dm_launch *launches;
    size_t nlaunches;
    double *values;                   /* nlaunches x metrics->n; NAN: see metrics_reason */
    char metrics_reason[DM_ERR_MAX];

    int traced;                       /* a trace pass was asked for */
    dm_activity *acts;
    size_t nacts;
    int streams;
    int64_t span_ns, overlap_ns;      /* overlap: time with two or more in flight */
    char trace_reason[DM_ERR_MAX];    /* "" when the trace worked */
} dm_cupti_point;

void cupti_point_free(dm_cupti_point *p);

/* Over acts[0..n): the span from the first start to the last end, and the time with two
 * or more activities in flight (touching ends do not overlap). Returns 0, or
 * DM_ERUNTIME when out of memory. */
int cupti_overlap(const dm_activity *acts, size_t n, int64_t *span_ns, int64_t *overlap_ns,
                  dm_err *err);

/* ---- the session a run holds (cupti_session.c, cupti_attrs.c, cupti_profile.c,
 * cupti_trace.c) -------------------------------------------------------------------- */

typedef struct dm_cupti dm_cupti;

typedef struct dm_cupti_opts {
    const dm_device *device;
    const cupti_metric_list *metrics; /* NULL or empty: no profiling pass */
} dm_cupti_opts;

/* Starts CUPTI for a run on o->device: subscribes to kernel launches and, when metrics
 * are asked for, checks once whether the counters can be read (they cannot under
 * DMBENCH_CUPTI_DISABLE, without the privilege, on a vGPU, under MPS, or while another
 * profiler or tool holds them). What does not work is recorded, not returned: see
 * cupti_counters_problem. Returns 0, or DM_ERUNTIME when out of memory. */
int cupti_open(const dm_cupti_opts *o, dm_cupti **out, dm_err *err);
void cupti_close(dm_cupti *c);

/* Why metrics will be NULL for the whole run ("" when the counters work or no metrics
 * were asked for), why kernel attributes cannot be had ("" when they can), the chip
 * ("" until the counter check learns it) and the passes kernel replay needs (0 without
 * usable counters). */
const char *cupti_counters_problem(const dm_cupti *c);
const char *cupti_attrs_problem(const dm_cupti *c);
const char *cupti_chip(const dm_cupti *c);
int cupti_passes(const dm_cupti *c);

/* Around a point's (untimed) verification run: logs its kernel launches, then fills
 * p->attrs with each kernel's static attributes. Returns 0, or DM_ERUNTIME when out of
 * memory. */
void cupti_watch_begin(dm_cupti *c);
int cupti_watch_end(dm_cupti *c, dm_cupti_point *p);

/* The profiling pass: runs v once more on state under the Range Profiler (one range per
 * launch, kernel replay) and fills p's launches and values; when the counters cannot be
 * read, the verification run's launches with NULL values and the reason. Returns 0, or
 * DM_ERUNTIME when out of memory. */
int cupti_profile(dm_cupti *c, const dm_variant *v, void *state, dm_cupti_point *p);

/* The trace pass: runs v once more on state with kernel and copy activity recorded and
 * fills p's activities, streams, span and overlap (or trace_reason). Returns 0, or
 * DM_ERUNTIME when out of memory. */
int cupti_trace(dm_cupti *c, const dm_variant *v, void *state, dm_cupti_point *p);

#ifdef __cplusplus
}
#endif

#endif
