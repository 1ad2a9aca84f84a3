/* measure.h - the measurement engine: warm-up, cold and hot sampling, adaptive stopping,
 * statistics, and the SM clock read around the samples. After NVIDIA's nvbench: one
 * concept per file (measure_cold.c, measure_hot.c, criterion_noise.c, stats.c). */
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
    double noise; /* stdev / mean; 0 when n < 2 */
} dm_stats;

/* Statistics of x[0..n) (quartiles by linear interpolation, R type 7). Returns 0, or
 * DM_EINPUT when n is 0. x is not modified. */
int stats_compute(const double *x, size_t n, dm_stats *st);

/* ---- stopping rule (criterion_noise.c) ---- */

/* Running mean and variance (Welford) of the samples so far. */
typedef struct dm_criterion {
    int min_samples;
    double max_noise;
    double max_time;
    int max_samples;
    size_t n;
    double mean, m2;
} dm_criterion;

void criterion_noise_init(dm_criterion *c, const dm_measure_opts *o);
void criterion_noise_add(dm_criterion *c, double seconds);
double criterion_noise_value(const dm_criterion *c); /* stdev / mean so far */
/* 1 when sampling should stop after elapsed seconds of sampling, with *reason "noise",
 * "max_time" or "max_samples"; else 0. Never stops before min_samples unless max_time
 * has passed. */
int criterion_noise_done(const dm_criterion *c, double elapsed, const char **reason);

/* ---- samples and the engine ---- */

typedef struct dm_sample {
    double seconds;  /* one execution's time (hot mode: the batch's time / batch) */
    int batch;       /* executions in this sample */
    int throttled;   /* 1 when the clock or NVML said the SM clock was held down */
    double sm_mhz;   /* SM clock read after the sample; NAN when not read */
} dm_sample;

typedef struct dm_measurement {
    dm_sample *samples;
    size_t n;
    dm_stats stats;            /* over samples[].seconds */
    const char *stop_reason;   /* "noise", "max_time", "max_samples" */
    dm_mode mode;
    int batch;                 /* executions per sample (1 in cold mode) */
    double warmup_seconds;     /* the untimed warm-up's wall time */
    double elapsed;            /* wall seconds spent sampling */
    const char *clock_source;  /* "nvml", "clock64", or "host" for CPU variants */
    double sm_mhz_before;      /* NAN when unknown */
    double sm_mhz_after;
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

/* Host monotonic clock in seconds (clock.c). */
double dm_now(void);

#ifdef __cplusplus
}
#endif

#endif
