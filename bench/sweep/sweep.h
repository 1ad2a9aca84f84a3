/* sweep.h - sweep matrix files: parsing (YAML, libfyaml), command-line axis overrides,
 * and expansion into points (axes crossed or zipped, then pruned by constraints).
 *
 * A sweep file:
 *
 *   name: w-default                # optional; defaults to the file's base name
 *   description: ...               # optional
 *   workload: w                    # a registered workload
 *   dataset:                       # either a generator ...
 *     generator: random
 *   # dataset: { path: ../shared/datasets/x.csv }   ... or a file
 *   variants: [cpu, kernel, memcpy]
 *   baseline: cpu                  # optional: speedups are against this variant
 *   axes:
 *     n: { pow2: [1048576, 67108864] }   # power-of-two range, both ends included
 *     block: [128, 256, 512]             # list
 *     level: { range: [1, 4, 1] }        # integer range [from, to, step], to included
 *     op: triad                          # a single value
 *   zip:                          # optional: these axes advance together, not crossed
 *     - [n, chunk]
 *   constraints:                  # optional: points where any is false are pruned
 *     - "block * level <= 1024"
 *     - "block <= device.max_threads"
 *   measure:                      # optional
 *     mode: cold                  # cold (L2 flushed before each sample) | hot (batched)
 *     min_samples: 10
 *     max_noise: 0.005            # the noise at which sampling stops
 *     criterion: median           # median (the 95 % interval of the median, its half-width
 *                                 # over the median) | stdrel (stdev over the mean)
 *     max_time: 2.0               # seconds of sampling per point at most
 *     max_samples: 100000
 *     outlier_k: 3.5              # outliers: samples above median + k x 1.4826 x MAD
 *   metrics: [occupancy, divergence, dram__bytes_read.sum]
 *                                 # optional: hardware metrics per kernel launch of each
 *                                 # GPU point, in a profiling pass after it is timed: sets,
 *                                 # short names or perfworks names (bench/cupti_dm.h)
 *   timeline: true                # optional (default false): trace each GPU point's
 *                                 # kernels and copies per stream in an unprofiled pass
 */
#ifndef DM_SWEEP_H
#define DM_SWEEP_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dm_mode { DM_MODE_COLD = 0, DM_MODE_HOT = 1 } dm_mode;

/* The noise figure the stopping rule judges (criterion.c): the relative half-width of
 * the median's 95 % confidence interval, or the relative standard deviation. */
typedef enum dm_criterion_kind { DM_CRIT_MEDIAN = 0, DM_CRIT_STDREL = 1 } dm_criterion_kind;

/* A sample is an outlier above median + outlier_k x 1.4826 x MAD (outlier_k robust
 * standard deviations; 3.5 is Iglewicz and Hoaglin's modified z-score cut). */
#define DM_OUTLIER_K_DEFAULT 3.5

typedef struct dm_measure_opts {
    dm_mode mode;
    int min_samples;  /* default 10 */
    double max_noise; /* default 0.005 */
    double max_time;  /* seconds, default 2.0 */
    int max_samples;  /* default 100000 */
    dm_criterion_kind criterion; /* default median */
    double outlier_k; /* default DM_OUTLIER_K_DEFAULT; 0 means the default too */
} dm_measure_opts;

/* The defaults above. */
void sweep_measure_defaults(dm_measure_opts *o);

typedef struct dm_sweep dm_sweep;

/* Parses the sweep file at path (or, for sweep_parse_string, text named as name in
 * messages). Returns 0, or DM_EINPUT with err "FILE:LINE:COL: what was expected". Every
 * axis name must be a parameter of at least one listed variant; every value must parse
 * and be allowed for each parameter it names. */
int sweep_load(const char *path, dm_sweep **out, dm_err *err);
int sweep_parse_string(const char *text, const char *name, dm_sweep **out, dm_err *err);
void sweep_free(dm_sweep *s);

/* Replaces (or adds) an axis from a command-line "AXIS=VALUES", VALUES in the file's
 * syntax ("block=[64,128]", "n={pow2: [1024, 4096]}", "level=3"). Errors name the
 * argument ("-a block=[64,x]: ..."). */
int sweep_override(dm_sweep *s, const char *assignment, dm_err *err);

/* Keeps of the sweep's variants only those that list names ("cpu-mt,CG", separated by
 * commas), in the file's order; the baseline goes when it is not kept. Returns 0, or
 * DM_EINPUT naming the argument ("--variants LIST: ...") when a name is empty or not one
 * of the sweep's variants. */
int sweep_keep_variants(dm_sweep *s, const char *list, dm_err *err);

/* Accessors. */
const char *sweep_name(const dm_sweep *s);
const char *sweep_path(const dm_sweep *s);       /* the file, or the string's name */
const char *sweep_text(const dm_sweep *s);       /* the file's full text */
const dm_workload *sweep_workload(const dm_sweep *s);
const dm_data_source *sweep_data_source(const dm_sweep *s);
int sweep_nvariants(const dm_sweep *s);
const dm_variant *sweep_variant(const dm_sweep *s, int i);
const dm_variant *sweep_baseline(const dm_sweep *s); /* NULL when none */
const dm_measure_opts *sweep_measure(const dm_sweep *s);
/* Sets the measurement options (the command line may override the file's). */
void sweep_set_measure(dm_sweep *s, const dm_measure_opts *o);

/* The metrics list as written (its i-th entry, and its line and column in the text,
 * for messages; either may be NULL), and whether timelines are asked for. */
int sweep_nmetrics(const dm_sweep *s);
const char *sweep_metric(const dm_sweep *s, int i, int *line, int *col);
int sweep_timeline(const dm_sweep *s);

/* A point after expansion; pruned points are kept so --dry-run can show why. */
typedef struct dm_sweep_point {
    dm_point point;
    int pruned;        /* 1 when a constraint is false, 2 when the variant's supports()
                          refused it */
    char reason[256];  /* the failing constraint's text, or supports()' reason */
} dm_sweep_point;

typedef struct dm_expansion {
    dm_sweep_point *points;
    size_t n;          /* all points, pruned included, in a stable order: variants in
                          listed order, then axes crossed in file order, last fastest */
    size_t n_pruned;   /* by constraints or supports() */
} dm_expansion;

/* Expands s for device dev (NULL when there is no GPU: constraints that read device.*
 * are then not evaluated, and supports() gets NULL). An axis applies to a variant only
 * if the variant has that parameter; a constraint applies to a point only if every axis
 * name it reads is a parameter of the point. Returns 0, or DM_EINPUT (zipped axes of
 * different lengths, a constraint naming an unknown identifier, ...). */
int sweep_expand(const dm_sweep *s, const dm_device *dev, dm_expansion *out, dm_err *err);
void sweep_expansion_free(dm_expansion *e);
/* Prunes (as supports() would) the points of multi-GPU variants whose "gpus" exceeds
 * ngpus, the GPUs the run has, saying so; ngpus 0 (no GPU) prunes none: those points are
 * skipped for want of a GPU. */
void sweep_limit_gpus(dm_expansion *e, int ngpus);

/* One point of variant v of workload w on the data of src (NULL: generated), made as an
 * expansion for dev makes it: the defaults, then each "NAME=VALUE" of assign in turn (a
 * later one wins), then the tuned values of the parameters none sets (for src's file,
 * when it has one), then the variant's resolve() (dev not NULL) and supports(). Returns 0, or DM_EINPUT naming the problem: an assignment without '=', a
 * name that is no parameter of v (with the close ones), a value that does not parse or
 * is not allowed, or why v does not run the point. */
int sweep_point(const dm_workload *w, const dm_variant *v, const char *const *assign,
                int nassign, const dm_data_source *src, const dm_device *dev, dm_point *pt,
                dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
