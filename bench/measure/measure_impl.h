/* measure_impl.h - the inside of the measurement engine, shared by measure.c and the
 * sampler of each mode (measure_cold.c, measure_hot.c): the context, one point's
 * sampling in progress, and the steps a sampler is built from. Private to the engine. */
#ifndef DM_MEASURE_IMPL_H
#define DM_MEASURE_IMPL_H

#include <cuda_runtime_api.h>

#include "gpuclock.h"
#include "measure.h"

struct dm_measure_ctx {
    dm_exec ex;
    cudaEvent_t start, stop; /* NULL without a device */
    void *flush;             /* 2 x the L2 size, overwritten before each cold GPU sample */
    size_t flush_bytes;
    unsigned char *host_flush; /* 2 x the host's last-level cache, for cold CPU samples */
    size_t host_flush_bytes;
    dm_gpuclock *clock; /* NULL without a device */
};

/* One point being sampled. */
typedef struct dm_sampling {
    dm_measure_ctx *c;
    const dm_variant *v;
    void *state;
    dm_measurement *m;
    int gpu;                    /* timed with CUDA events on the stream (v->needs_gpu) */
    int clock_per_sample;       /* read the SM clock and its reasons after each sample */
    dm_criterion crit;
    double t0;                  /* dm_now() when sampling began */
    double host_start;          /* dm_now() at the host timer's start */
    size_t cap;                 /* room in m->samples */
    unsigned long long reasons; /* throttle reasons seen in any sample */
} dm_sampling;

/* One execution of the variant (GPU variants only enqueue). Returns 0, or the variant's
 * error. */
int measure_run(dm_sampling *s, dm_err *err);
/* Evicts the variant's data from the cache before a cold sample: the GPU's L2 for GPU
 * variants, the host's last-level cache for CPU variants. Returns 0, or DM_ERUNTIME on
 * a CUDA error. */
int measure_flush_cache(dm_sampling *s, dm_err *err);
/* Starts and stops the sample timer: CUDA events on the stream for GPU variants (the
 * stop waits for the stream), the host clock for CPU variants. The stop writes the
 * seconds between them. Return 0, or DM_ERUNTIME on a CUDA error. */
int measure_timer_start(dm_sampling *s, dm_err *err);
int measure_timer_stop(dm_sampling *s, double *seconds, dm_err *err);
/* Keeps one sample (seconds per execution over batch executions) with the SM clock
 * and throttle state read after it, and sets *done when the stopping rule says stop.
 * Returns 0, or DM_ERUNTIME when memory runs out. */
int measure_record(dm_sampling *s, double seconds, int batch, int *done, dm_err *err);

/* The samplers: run s until the stopping rule says stop (measure_cold.c,
 * measure_hot.c). Return 0, or the first error from the variant or CUDA. */
int measure_cold(dm_sampling *s, dm_err *err);
int measure_hot(dm_sampling *s, dm_err *err);

#endif
