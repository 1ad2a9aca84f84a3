/* measure.h - the measurement engine: warm-up, cold and hot sampling, adaptive stopping,
 * statistics, and the SM clock read around the samples. After NVIDIA's nvbench: one
 * concept per file (measure_cold.c, measure_hot.c, criterion.c, criterion_median.c,
 * stats.c). */
#ifndef DM_MEASURE_H
#define DM_MEASURE_H

#include "dm.h"
#include "sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- statistics (stats.c) ---- */

typedef struct dm_stats {
    size_t n;
    double min, q1, median, mean, q3, max;
    double stdev; /* sample standard deviation (n - 1); 0 when n < 2 */
    double noise; /* stdev / mean, the relative standard deviation; 0 when n < 2 */
    double median_lo, median_hi; /* the median's 95 % confidence interval; NAN when n < 6 */
    double mad;   /* median absolute deviation from the median (unscaled) */
} dm_stats;

/* Statistics of x[0..n) (quartiles by linear interpolation, R type 7). Returns 0,
 * DM_EINPUT when n is 0, or DM_ERUNTIME without memory. x is not modified. */
int stats_compute(const double *x, size_t n, dm_stats *st);

/* Flags (outlier[i] = 1) the samples above st's median + k x 1.4826 x MAD (k robust
 * standard deviations; with a MAD of 0, every sample above the median). Returns how
 * many. */
size_t stats_outliers(const double *x, size_t n, const dm_stats *st, double k, int *outlier);

/* ---- the median's confidence interval (criterion_median.c) ---- */

/* The 1-based rank k of the 95 % interval [x_(k), x_(n+1-k)] of the median of n
 * samples: exact from the binomial up to 1000 samples, by the normal approximation
 * beyond; 0 below 6 samples, where no such interval exists. */
size_t median_ci_rank(size_t n);
/* The k-th smallest (0-based) of a[0..n), n > k, reordering a around it: smaller ones
 * before, larger after. */
double median_select(double *a, size_t n, size_t k);
/* Half the width of the median's 95 % interval over the median, from x[0..n) (work
 * holds n doubles); NAN below 6 samples, INFINITY for a zero median with spread. */
double median_ci_halfwidth(const double *x, size_t n, double *work);

/* ---- stopping rule (criterion.c) ---- */

/* The samples so far as the rule needs them: running mean and variance (Welford), and
 * for the median criterion every sample. */
typedef struct dm_criterion {
    dm_criterion_kind kind;
    int min_samples;
    double max_noise;
    double max_time;
    int max_samples;
    size_t n;
    double mean, m2;
    double *x, *work; /* median: the samples, and room to select in */
    size_t cap;
    size_t judged;    /* median: the samples when value was last computed */
    double value;     /* the noise figure at the last judgement; NAN before one */
} dm_criterion;

/* "median" or "stdrel". */
const char *criterion_name(dm_criterion_kind k);
/* The short name of the figure the criterion named criterion judges, as the progress line
 * and `dmbench show` label it: "ci95" for "median" (half the width of the median's 95 %
 * confidence interval, over the median), "rsd" for "stdrel" and for NULL, a record from
 * before criteria, which judged it (the relative standard deviation). */
const char *criterion_figure(const char *criterion);
void criterion_init(dm_criterion *c, const dm_measure_opts *o);
/* Adds one sample. Returns 0, or DM_ERUNTIME without memory. */
int criterion_add(dm_criterion *c, double seconds);
/* The noise figure as last judged (NAN before it can be: 2 samples for stdrel, 6 and
 * min_samples for median). */
double criterion_value(const dm_criterion *c);
/* 1 when sampling should stop after elapsed seconds of sampling, with *reason "noise",
 * "max_time" or "max_samples"; else 0. Never stops before min_samples unless max_time
 * has passed. */
int criterion_done(const dm_criterion *c, double elapsed, const char **reason);
void criterion_free(dm_criterion *c);

/* ---- samples and the engine ---- */

typedef struct dm_sample {
    double seconds;  /* one execution's time (hot mode: the batch's time / batch) */
    int batch;       /* executions in this sample */
    int throttled;   /* 1 when the clock or NVML said the SM clock was held down */
    double sm_mhz;   /* SM clock read after the sample; NAN when not read */
    int outlier;     /* 1 above the point's outlier threshold (stats_outliers) */
} dm_sample;

typedef struct dm_measurement {
    dm_sample *samples;
    size_t n;
    dm_stats stats;            /* over samples[].seconds */
    const char *stop_reason;   /* "noise", "max_time", "max_samples" */
    const char *criterion;     /* the stopping rule's figure: "median" or "stdrel" */
    double criterion_value;    /* that figure over every sample (NAN when undefined) */
    double outlier_k;          /* the outlier threshold's k */
    size_t n_outliers;
    dm_mode mode;
    int batch;                 /* executions per sample (1 in cold mode) */
    double warmup_seconds;     /* the untimed warm-up's wall time */
    double elapsed;            /* wall seconds spent sampling */
    const char *clock_source;  /* "nvml", "clock64", or "host" for CPU variants */
    double sm_mhz_before;      /* NAN when unknown */
    double sm_mhz_after;
    double host_mhz_before;    /* the timing thread's core (dm_host_mhz) */
    double host_mhz_after;
    int n_throttled;
    char throttle_reasons[128]; /* "" or e.g. "sw_power_cap,hw_thermal" */
} dm_measurement;

typedef struct dm_measure_ctx dm_measure_ctx;

/* Prepares measurement on ex's device (events, an L2-sized flush buffer, NVML or the
 * clock64/globaltimer probe); ex->device NULL prepares host timing only. */
int measure_ctx_create(const dm_exec *ex, dm_measure_ctx **out, dm_err *err);
void measure_ctx_free(dm_measure_ctx *c);
/* How the SM clock is read: "nvml", "clock64" or "host". */
const char *measure_clock_source(const dm_measure_ctx *c);
/* The SM clock now, in MHz (NAN when it cannot be read). */
double measure_sm_clock(dm_measure_ctx *c);
/* The memory clock now, in MHz (NAN without NVML). */
double measure_mem_clock(dm_measure_ctx *c);

/* Runs one untimed warm-up of v on state, then samples until the stopping rule says
 * stop. GPU variants are timed with CUDA events on ex->stream (cold: L2 flushed before
 * each sample; hot: back-to-back executions timed as one batch); CPU variants with
 * CLOCK_MONOTONIC under the same rules. Returns 0 with m filled (free with
 * measure_free), or an error from the variant or CUDA. */
int measure_point(dm_measure_ctx *c, const dm_variant *v, void *state,
                  const dm_measure_opts *o, dm_measurement *m, dm_err *err);
void measure_free(dm_measurement *m);

/* The calling thread's core clock as it runs now, in MHz (clock.c): a chain of
 * dependent register adds (one cycle each on x86-64 and Arm cores) timed on dm_now,
 * the fastest of three rounds of 200,000 so that an interruption does not count;
 * about 0.3 ms at 2 GHz. On a virtual machine it shows what the host gives the vCPU
 * (its turbo, or the lack of it), which /proc/cpuinfo does not. */
double dm_host_mhz(void);

#ifdef __cplusplus
}
#endif

#endif
