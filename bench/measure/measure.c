/* measure.c - the measurement engine's entry points: the context (events, L2 flush
 * buffer, SM clock source), one point's warm-up and sampling, the timers for GPU and CPU
 * variants, and the SM clock and throttle state read around the samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure_impl.h"

/* The host cache flush: twice the last-level cache, but at most 64 MiB. Virtual
 * machines report the whole socket's L3 (512 MiB seen here), and rewriting that before
 * every sample would cost tens of milliseconds; 64 MiB exceeds one core complex's L3 on
 * current server parts. 32 MiB when the C library cannot tell. */
#define HOST_FLUSH_MAX ((size_t)64 << 20)
static size_t host_flush_bytes(void)
{
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    size_t llc = l3 > 0 ? (size_t)l3 : l2 > 0 ? (size_t)l2 : (size_t)16 << 20;
    return 2 * llc < HOST_FLUSH_MAX ? 2 * llc : HOST_FLUSH_MAX;
}

/* Without NVML's reasons, samples count as throttled when the SM clock after sampling
 * is below this fraction of the device's maximum. */
#define MEASURE_THROTTLE_FRACTION 0.9

int measure_ctx_create(const dm_exec *ex, dm_measure_ctx **out, dm_err *err)
{
    int rc = DM_ERUNTIME;
    dm_measure_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    c->ex = *ex;
    c->host_flush_bytes = host_flush_bytes();
    if (!(c->host_flush = malloc(c->host_flush_bytes))) {
        dm_err_set(err, DM_ERUNTIME, "out of memory for a %zu-byte cache flush buffer",
                   c->host_flush_bytes);
        goto fail;
    }
    const dm_device *d = ex->device;
    if (d) {
        if (d->l2_bytes <= 0) {
            dm_err_set(err, DM_ERUNTIME, "device %d (%s) reports no L2 cache size", d->index,
                       d->name);
            goto fail;
        }
        c->flush_bytes = 2 * (size_t)d->l2_bytes;
        if (DM_CUDA(err, cudaSetDevice(d->index)) ||
            DM_CUDA(err, cudaEventCreate(&c->start)) ||
            DM_CUDA(err, cudaEventCreate(&c->stop)) ||
            DM_CUDA(err, cudaMalloc(&c->flush, c->flush_bytes)))
            goto fail;
        if ((rc = gpuclock_open(d, ex->stream, 1, &c->clock, err)))
            goto fail;
    }
    *out = c;
    return DM_OK;
fail:
    measure_ctx_free(c);
    return rc;
}

void measure_ctx_free(dm_measure_ctx *c)
{
    if (!c)
        return;
    if (c->start)
        DM_CUDA_WARN(cudaEventDestroy(c->start));
    if (c->stop)
        DM_CUDA_WARN(cudaEventDestroy(c->stop));
    if (c->flush)
        DM_CUDA_WARN(cudaFree(c->flush));
    gpuclock_close(c->clock);
    free(c->host_flush);
    free(c);
}

const char *measure_clock_source(const dm_measure_ctx *c)
{
    return c->clock ? gpuclock_source(c->clock) : "host";
}

double measure_sm_clock(dm_measure_ctx *c)
{
    double mhz;
    if (!c->clock || gpuclock_read(c->clock, &mhz, NULL))
        return NAN;
    return mhz;
}

double measure_mem_clock(dm_measure_ctx *c)
{
    return c->clock ? gpuclock_read_mem(c->clock) : NAN;
}

int measure_run(dm_sampling *s, dm_err *err)
{
    return s->v->run(s->state, err);
}

int measure_flush_cache(dm_sampling *s, dm_err *err)
{
    if (!s->gpu) {
        /* A new value each time, so every line is written, not just found clean. */
        memset(s->c->host_flush, (int)(s->m->n & 0xFF), s->c->host_flush_bytes);
        return DM_OK;
    }
    if (DM_CUDA(err, cudaMemsetAsync(s->c->flush, 0, s->c->flush_bytes,
                                     (cudaStream_t)s->c->ex.stream)))
        return DM_ERUNTIME;
    return DM_OK;
}

int measure_timer_start(dm_sampling *s, dm_err *err)
{
    if (!s->gpu) {
        s->host_start = dm_now();
        return DM_OK;
    }
    if (DM_CUDA(err, cudaEventRecord(s->c->start, (cudaStream_t)s->c->ex.stream)))
        return DM_ERUNTIME;
    return DM_OK;
}

int measure_timer_stop(dm_sampling *s, double *seconds, dm_err *err)
{
    if (!s->gpu) {
        *seconds = dm_now() - s->host_start;
        return DM_OK;
    }
    float ms;
    if (DM_CUDA(err, cudaEventRecord(s->c->stop, (cudaStream_t)s->c->ex.stream)) ||
        DM_CUDA(err, cudaEventSynchronize(s->c->stop)) ||
        DM_CUDA(err, cudaEventElapsedTime(&ms, s->c->start, s->c->stop)))
        return DM_ERUNTIME;
    *seconds = (double)ms * 1e-3;
    return DM_OK;
}

int measure_record(dm_sampling *s, double seconds, int batch, int *done, dm_err *err)
{
    dm_measurement *m = s->m;
    if (m->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        dm_sample *grown = realloc(m->samples, cap * sizeof *grown);
        if (!grown)
            return dm_err_set(err, DM_ERUNTIME, "out of memory for %zu samples", cap);
        m->samples = grown;
        s->cap = cap;
    }
    dm_sample *x = &m->samples[m->n++];
    x->seconds = seconds;
    x->batch = batch;
    x->throttled = 0;
    x->sm_mhz = NAN;
    if (s->clock_per_sample) {
        unsigned long long reasons;
        gpuclock_read(s->c->clock, &x->sm_mhz, err); /* NVML: cannot fail, NAN at worst */
        if (gpuclock_reasons(s->c->clock, &reasons) == 0 && reasons) {
            x->throttled = 1;
            s->reasons |= reasons;
        }
    }
    if (criterion_add(&s->crit, seconds))
        return dm_err_set(err, DM_ERUNTIME, "out of memory for %zu samples", m->n);
    m->elapsed = dm_now() - s->t0;
    *done = criterion_done(&s->crit, m->elapsed, &m->stop_reason);
    return DM_OK;
}

/* Fills the measurement's throttle summary once sampling is over. */
static void measure_throttle_summary(dm_sampling *s)
{
    dm_measurement *m = s->m;
    const dm_device *d = s->c->ex.device;
    /* The probe kernel costs ~200 us of GPU time, so it is read only before and after
     * sampling: every sample counts as throttled when the clock after sampling is below
     * MEASURE_THROTTLE_FRACTION of the device's maximum SM clock. */
    if (s->gpu && !s->clock_per_sample && d->sm_clock_khz > 0 &&
        m->sm_mhz_after < MEASURE_THROTTLE_FRACTION * d->sm_clock_khz / 1000.0) {
        for (size_t i = 0; i < m->n; i++)
            m->samples[i].throttled = 1;
        strcpy(m->throttle_reasons, "low_sm_clock");
    } else {
        gpuclock_reason_names(s->reasons, m->throttle_reasons, sizeof m->throttle_reasons);
    }
    m->n_throttled = 0;
    for (size_t i = 0; i < m->n; i++)
        m->n_throttled += m->samples[i].throttled;
}

/* The criterion's figure over all of m's samples (seconds[i] the i-th), and its
 * outliers flagged and counted. */
static void measure_outliers(dm_measurement *m, const double *seconds,
                             const dm_measure_opts *o)
{
    const dm_stats *st = &m->stats;
    m->criterion = criterion_name(o->criterion);
    m->criterion_value = o->criterion == DM_CRIT_STDREL ? (m->n < 2 ? NAN : st->noise)
                         : isnan(st->median_lo)        ? NAN
                         : st->median != 0.0 ? (st->median_hi - st->median_lo) / 2 / st->median
                         : st->median_hi == st->median_lo ? 0.0
                                                          : INFINITY;
    m->outlier_k = o->outlier_k > 0 ? o->outlier_k : DM_OUTLIER_K_DEFAULT;
    int *flag = calloc(m->n, sizeof *flag);
    m->n_outliers = 0;
    if (!flag)
        return;
    m->n_outliers = stats_outliers(seconds, m->n, st, m->outlier_k, flag);
    for (size_t i = 0; i < m->n; i++)
        m->samples[i].outlier = flag[i];
    free(flag);
}

int measure_point(dm_measure_ctx *c, const dm_variant *v, void *state,
                  const dm_measure_opts *o, dm_measurement *m, dm_err *err)
{
    int rc;
    double *seconds = NULL;
    memset(m, 0, sizeof *m);
    m->sm_mhz_before = m->sm_mhz_after = m->host_mhz_before = m->host_mhz_after = NAN;
    if (v->needs_gpu && !c->ex.device)
        return dm_err_set(err, DM_ENOGPU, "variant %s needs a GPU and there is none",
                          v->name);
    dm_sampling s = {.c = c, .v = v, .state = state, .m = m, .gpu = v->needs_gpu};
    s.clock_per_sample = s.gpu && strcmp(gpuclock_source(c->clock), "nvml") == 0;
    m->mode = o->mode;
    m->batch = 1;
    m->clock_source = s.gpu ? gpuclock_source(c->clock) : "host";

    double t = dm_now();
    if ((rc = measure_run(&s, err)))
        goto fail;
    if (s.gpu && DM_CUDA(err, cudaStreamSynchronize((cudaStream_t)c->ex.stream))) {
        rc = DM_ERUNTIME;
        goto fail;
    }
    m->warmup_seconds = dm_now() - t;

    if (s.gpu && (rc = gpuclock_read(c->clock, &m->sm_mhz_before, err)))
        goto fail;
    m->host_mhz_before = dm_host_mhz();
    criterion_init(&s.crit, o);
    s.t0 = dm_now();
    if ((rc = o->mode == DM_MODE_HOT ? measure_hot(&s, err) : measure_cold(&s, err)))
        goto fail;
    m->host_mhz_after = dm_host_mhz();
    if (s.gpu && (rc = gpuclock_read(c->clock, &m->sm_mhz_after, err)))
        goto fail;
    measure_throttle_summary(&s);

    seconds = malloc(m->n * sizeof *seconds);
    if (!seconds) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < m->n; i++)
        seconds[i] = m->samples[i].seconds;
    if ((rc = stats_compute(seconds, m->n, &m->stats))) {
        dm_err_set(err, rc, "no statistics over %zu samples", m->n);
        goto fail;
    }
    measure_outliers(m, seconds, o);
    criterion_free(&s.crit);
    free(seconds);
    return DM_OK;
fail:
    /* CUDA also keeps a failed call's status as its last error; the error is reported
     * through err, so clear it lest the next launch check report it again. */
    if (s.gpu)
        cudaGetLastError();
    criterion_free(&s.crit);
    free(seconds);
    measure_free(m);
    return rc;
}

void measure_free(dm_measurement *m)
{
    if (!m)
        return;
    free(m->samples);
    memset(m, 0, sizeof *m);
}
