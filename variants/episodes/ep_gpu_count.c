/* ep_gpu_count.c - one GPU counting batches of episodes for the GPU variants: the stream
 * uploaded once, each batch sorted by type set, put on the device and launched with the
 * variant's kernel (hybrid choosing PTPE or MTPE by the batch, Algorithm 2), the counts
 * fetched back in the caller's order. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "crossover_lookup.h"
#include "ep_gpu_count.h"

struct ep_order {
    uint64_t types;
    int64_t i;
};

static int ep_order_cmp(const void *a, const void *b)
{
    const ep_order *x = a, *y = b;
    if (x->types != y->types)
        return x->types < y->types ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* The most bytes of MTPE's tuples on the device at once: a batch of more episodes is
 * counted in passes (2^29 bytes hold 22 million tuples, a pass of 1365 episodes at R =
 * 1024 and K = 16, far more threads than the card runs at once). */
#define EP_MTPE_TUPLE_BYTES ((int64_t)1 << 29)

/* MTPE's segments for m episodes of k machines on dev: the smallest power of two that
 * gives every thread slot of the device two threads, at most 4096 and at most n. (Counting
 * first machines only, for four to eight times the segments, made mining 1.3-1.4x slower
 * at supports 60-200 on an H100: shorter segments, each reading on past its end.) */
static int64_t ep_mtpe_auto_segments(const dm_device *dev, int64_t m, int k, int64_t n)
{
    int64_t want = 2 * (int64_t)dev->sms * dev->max_threads_per_sm, r = 1;
    while (r < 4096 && r < n && m * k * r < want)
        r *= 2;
    return r;
}

int64_t ep_hybrid_switch_at(const dm_workload *w, const dm_device *dev, int level, int block,
                            int cap, char *how, size_t hown)
{
    const dm_crossover_fit *fit;
    int blocks = 0;
    dm_err err = {0};
    if (crossover_lookup(w, dev, "mtpe", "ptpe", "count", "level", &fit, how, hown)) {
        double at = ceil(crossover_switch_at(fit, (double)level));
        return at < 1 ? 1 : (int64_t)at;
    }
    if (ep_gpu_ptpe_blocks_per_sm(block, level - 1, cap, &blocks, &err) != 0)
        return 0;
    if (how)
        snprintf(how, hown, "the papers' Equation 2 (SMs x blocks per SM x block): no "
                 "crossover fit for this card or its architecture");
    return (int64_t)dev->sms * blocks * block;
}

double ep_gpu_margin(const ep_stream *st, const ep_mine_result *m, const ep_mine_spec *spec,
                     int mine)
{
    double margin = ep_stream_margin(st, m->eps, m->n);
    for (int k = 0; mine && k < spec->ngaps; k++)
        margin = fmax(margin, ep_margin(spec->hi[k]));
    return margin;
}

/* A new device buffer *dev of n bytes on c's stream, holding host's bytes unless host is
 * NULL (then zeroed). Returns 0, or DM_ERUNTIME with err set. */
static int ep_gpu_upload(ep_gpu_counter *c, const void *host, size_t n, void **dev,
                         dm_err *err)
{
    if (dm_gpu_alloc(c->stream, n ? n : 1, dev, err))
        return DM_ERUNTIME;
    return host ? DM_CUDA(err, cudaMemcpyAsync(*dev, host, n, cudaMemcpyHostToDevice, c->stream))
                : DM_CUDA(err, cudaMemsetAsync(*dev, 0, n, c->stream));
}

/* The integer parameter name of pt, or 0 when pt has none. */
static int64_t ep_point_int_or_0(const dm_point *pt, const char *name)
{
    const dm_value *v = dm_point_get(pt, name);
    return v ? v->i : 0;
}

int ep_gpu_counter_open(ep_gpu_counter *c, const dm_device *dev, void *stream,
                        const ep_stream *st, const dm_point *pt, double margin, int timed,
                        dm_err *err)
{
    const dm_value *read = dm_point_get(pt, "read");
    ep_by_type by = {0};
    *c = (ep_gpu_counter){
        .stream = (cudaStream_t)stream, .dev = dev, .w = pt->workload, .s = st,
        /* 0: each level's own switch point */
        .switch_at = ep_point_int_or_0(pt, "switch_at"),
        .segments = ep_point_int_or_0(pt, "segments"),
        .machines = (int)ep_point_int_or_0(pt, "machines"),
        .read_auto = !read || strcmp(read->s, "auto") == 0,
    };
    c->la = (ep_gpu_launch){ .iv = ep_point_interval(pt), .block = (int)dm_point_int(pt, "block"),
                             .smem_limit = (size_t)dev->smem_per_block_optin,
                             .sms = dev->sms, .threads_per_sm = dev->max_threads_per_sm,
                             .smem_per_sm = dev->smem_per_sm, .stream = stream };
    const int types = read && strcmp(read->s, "types") == 0;
    int masks = ep_by_type_build(st, &by) != 0 ? -1 : ep_by_type_masks(st, &by);
    if (masks < 0) {
        ep_by_type_free(&by);
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for the stream by type");
    }
    if (masks > 0 && types) {
        ep_by_type_free(&by);
        return dm_err_set(err, DM_EINPUT, "read types: the stream's type masks (%d types x "
                          "%" PRId64 " events / 8 bytes) would take more than %" PRId64
                          " MiB; read the stream", st->ntypes, st->n,
                          EP_MASK_BYTES_MAX >> 20);
    }
    for (int k = 0; timed && k < 4; k++)
        if (DM_CUDA(err, cudaEventCreate(&c->marks[k])))
            goto fail;
    c->timed = timed;
    /* The host copies are freed after the sync. */
    if (ep_gpu_upload(c, by.first, (size_t)(st->ntypes + 1) * sizeof *by.first,
                      (void **)&c->d_first, err) ||
        ep_gpu_upload(c, by.pos, (size_t)by.slots * sizeof *by.pos, (void **)&c->d_pos, err) ||
        ep_gpu_upload(c, by.time, (size_t)by.slots * sizeof *by.time, (void **)&c->d_time,
                      err) ||
        ep_gpu_upload(c, st->time, (size_t)st->n * sizeof *st->time, (void **)&c->d_stime,
                      err) ||
        ep_gpu_upload(c, st->type, (size_t)st->n * sizeof *st->type, (void **)&c->d_stype,
                      err) ||
        (by.mask && ep_gpu_upload(c, by.mask, (size_t)(st->ntypes * by.words) *
                                                  sizeof *by.mask,
                                  (void **)&c->d_mask, err)) ||
        ep_gpu_upload(c, NULL, sizeof *c->d_overflow, (void **)&c->d_overflow, err) ||
        DM_CUDA(err, cudaStreamSynchronize(c->stream)))
        goto fail;
    c->la.overflow = c->d_overflow;
    c->la.ev = (ep_events){
        .read = types ? EP_READ_TYPES : EP_READ_STREAM,
        .stype = c->d_stype, .stime = c->d_stime, .first = c->d_first, .pos = c->d_pos,
        .time = c->d_time, .mask = c->d_mask, .words = by.words, .n = st->n,
        .margin = margin };
    ep_by_type_free(&by);
    return 0;
fail:
    DM_CUDA_WARN(cudaStreamSynchronize(c->stream)); /* no copy still reads by */
    ep_by_type_free(&by);
    return err->code;
}

void ep_gpu_counter_close(ep_gpu_counter *c)
{
    dm_gpu_free(c->stream, c->d_first);
    dm_gpu_free(c->stream, c->d_pos);
    dm_gpu_free(c->stream, c->d_time);
    dm_gpu_free(c->stream, c->d_stime);
    dm_gpu_free(c->stream, c->d_stype);
    dm_gpu_free(c->stream, c->d_mask);
    dm_gpu_free(c->stream, c->d_eps);
    dm_gpu_free(c->stream, c->d_counts);
    dm_gpu_free(c->stream, c->d_tuples);
    dm_gpu_free(c->stream, c->d_overflow);
    for (int k = 0; k < 4; k++)
        if (c->marks[k])
            DM_CUDA_WARN(cudaEventDestroy(c->marks[k]));
    free(c->h_eps);
    free(c->h_counts);
    free(c->order);
    memset(c, 0, sizeof *c);
}

/* Records c's event k on its stream when timed. Returns 0, or DM_ERUNTIME with err set. */
static int ep_gpu_mark(ep_gpu_counter *c, int k, dm_err *err)
{
    return c->timed && DM_CUDA(err, cudaEventRecord(c->marks[k], c->stream)) ? DM_ERUNTIME : 0;
}

int ep_gpu_batch(ep_gpu_counter *c, const ep_episode *eps, int64_t n, ep_gpu_fn kernel,
                 dm_err *err)
{
    int level = 1, need = 1;
    for (int64_t i = 0; i < n; i++) {
        level = eps[i].n > level ? eps[i].n : level;
        int runs = ep_runs_needed(&eps[i], c->la.ev.margin);
        need = runs > need ? runs : need;
        if (runs > EP_RUNS && kernel != ep_gpu_preelim && !c->bounding) {
            char name[EP_MAX_LEVEL * (EP_NAME_MAX + 4)];
            ep_episode_format(c->s, &eps[i], name, sizeof name);
            return dm_err_set(err, DM_EINPUT, "episode %s: a link's interval is too narrow "
                              "for its window (lists would need more than %d runs); widen "
                              "hi - lo", name, EP_RUNS);
        }
    }
    c->la.lists = level - 1;
    c->la.cap = ep_lists_cap(need);
    const int smem_fits = (size_t)c->la.lists * (size_t)c->la.cap * sizeof(ep_run) *
                              (size_t)c->la.block <= c->la.smem_limit;
    if (c->bounding && !(need <= EP_RUNS && smem_fits))
        kernel = ep_gpu_preelim;
    if (kernel != ep_gpu_preelim && !smem_fits)
        return dm_err_set(err, DM_EINPUT, "episodes of level %d with lists of %d runs need "
                          "%zu bytes of shared memory a thread, more than a block of %d "
                          "has (%zu bytes); use a smaller block", level, c->la.cap,
                          (size_t)c->la.lists * (size_t)c->la.cap * sizeof(ep_run),
                          c->la.block, c->la.smem_limit);
    if (!kernel) {
        int64_t at = c->switch_at;
        if (at == 0)
            at = ep_hybrid_switch_at(c->w, c->dev, level, c->la.block, c->la.cap, NULL, 0);
        kernel = n <= at ? ep_gpu_mtpe : c->bounding ? ep_gpu_preelim : ep_gpu_ptpe;
    }
    if (c->read_auto) /* PreElim (two-pass's bound) reads by type as MTPE */
        c->la.ev.read = kernel == ep_gpu_ptpe || !c->d_mask ? EP_READ_STREAM : EP_READ_TYPES;
    c->la.segments = c->la.machines = 0;
    if (kernel == ep_gpu_mtpe) {
        c->la.machines = c->machines ? c->machines : level;
        c->la.segments = c->segments ? c->segments
                                     : ep_mtpe_auto_segments(c->dev, n, c->la.machines,
                                                             c->s->n);
    }
    /* MTPE counts in passes whose tuples fit EP_MTPE_TUPLE_BYTES. */
    int64_t per_episode = c->la.segments * c->la.machines;
    c->la.chunk = per_episode ? EP_MTPE_TUPLE_BYTES / (int64_t)sizeof(ep_tuple) / per_episode
                               : n;
    c->la.chunk = c->la.chunk < 1 ? 1 : c->la.chunk;
    int64_t tuples = (n < c->la.chunk ? n : c->la.chunk) * per_episode;
    if (n > c->cap_eps) {
        dm_gpu_free(c->stream, c->d_eps);
        dm_gpu_free(c->stream, c->d_counts);
        c->d_eps = NULL;
        c->d_counts = NULL;
        if (dm_gpu_alloc(c->stream, (size_t)n * sizeof *c->d_eps, (void **)&c->d_eps, err) ||
            dm_gpu_alloc(c->stream, (size_t)n * sizeof *c->d_counts, (void **)&c->d_counts,
                         err))
            return DM_ERUNTIME;
        free(c->h_eps);
        free(c->h_counts);
        free(c->order);
        c->h_eps = malloc((size_t)n * sizeof *c->h_eps);
        c->h_counts = malloc((size_t)n * sizeof *c->h_counts);
        c->order = malloc((size_t)n * sizeof *c->order);
        if (!c->h_eps || !c->h_counts || !c->order)
            return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for a batch of "
                              "%" PRId64, n);
        c->cap_eps = n;
    }
    if (tuples > c->cap_tuples) {
        dm_gpu_free(c->stream, c->d_tuples);
        c->d_tuples = NULL;
        if (dm_gpu_alloc(c->stream, (size_t)tuples * sizeof *c->d_tuples,
                         (void **)&c->d_tuples, err))
            return DM_ERUNTIME;
        c->cap_tuples = tuples;
    }
    /* Episodes of one set of types side by side: a warp's threads then wait on the same
     * events (a thread per episode steps its machine on its types' events, and the warp
     * on every event any of its threads' types has). */
    for (int64_t i = 0; i < n; i++)
        c->order[i] = (ep_order){ .types = ep_type_filter(&eps[i]), .i = i };
    qsort(c->order, (size_t)n, sizeof *c->order, ep_order_cmp);
    for (int64_t j = 0; j < n; j++)
        c->h_eps[j] = eps[c->order[j].i];
    if (ep_gpu_mark(c, 0, err) ||
        (n && DM_CUDA(err, cudaMemcpyAsync(c->d_eps, c->h_eps, (size_t)n * sizeof *eps,
                                           cudaMemcpyHostToDevice, c->stream))) ||
        ep_gpu_mark(c, 1, err))
        return DM_ERUNTIME;
    c->la.eps = c->d_eps;
    c->la.neps = n;
    c->la.counts = c->d_counts;
    c->la.tuples = c->d_tuples;
    c->batch_kernel = kernel;
    return 0;
}

int ep_gpu_run_batch(ep_gpu_counter *c, dm_err *err)
{
    return c->batch_kernel(&c->la, err);
}

int ep_gpu_fetch(ep_gpu_counter *c, int64_t *counts, dm_err *err)
{
    unsigned long long overflow = 0;
    if (ep_gpu_mark(c, 2, err) ||
        DM_CUDA(err, cudaMemcpyAsync(c->h_counts, c->d_counts,
                                     (size_t)c->la.neps * sizeof *counts,
                                     cudaMemcpyDeviceToHost, c->stream)) ||
        DM_CUDA(err, cudaMemcpyAsync(&overflow, c->d_overflow, sizeof overflow,
                                     cudaMemcpyDeviceToHost, c->stream)) ||
        ep_gpu_mark(c, 3, err) ||
        DM_CUDA(err, cudaStreamSynchronize(c->stream)))
        return DM_ERUNTIME;
    if (overflow)
        return dm_err_set(err, DM_ERUNTIME, "episodes: %llu lists overflowed on the GPU, "
                          "which the runs bound should have ruled out", overflow);
    for (int64_t j = 0; j < c->la.neps; j++)
        counts[c->order[j].i] = c->h_counts[j];
    return 0;
}

int ep_gpu_count(ep_gpu_counter *c, const ep_episode *eps, int64_t n, ep_gpu_fn kernel,
                 int64_t *counts, dm_err *err)
{
    return ep_gpu_batch(c, eps, n, kernel, err) || ep_gpu_run_batch(c, err)
               ? err->code
               : ep_gpu_fetch(c, counts, err);
}

int ep_gpu_bound(ep_gpu_counter *c, const ep_episode *eps, int64_t n, int64_t *counts,
                 dm_err *err)
{
    ep_episode *relaxed = malloc((size_t)(n ? n : 1) * sizeof *relaxed);
    if (!relaxed)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64
                          " relaxed episodes", n);
    for (int64_t i = 0; i < n; i++)
        relaxed[i] = ep_episode_relaxed(&eps[i]);
    const ep_read read = c->la.ev.read;
    const ep_interval iv = c->la.iv;
    c->la.ev.read = c->d_mask ? EP_READ_TYPES : EP_READ_STREAM;
    c->la.iv = EP_CLOSED;
    c->bounding = 1;
    int rc = ep_gpu_count(c, relaxed, n, NULL, counts, err);
    c->bounding = 0;
    c->la.iv = iv;
    c->la.ev.read = read;
    free(relaxed);
    return rc;
}

int ep_gpu_took(const ep_gpu_counter *c, double *transfer_s, double *kernel_s, dm_err *err)
{
    float up = 0, run = 0, down = 0;
    if (DM_CUDA(err, cudaEventElapsedTime(&up, c->marks[0], c->marks[1])) ||
        DM_CUDA(err, cudaEventElapsedTime(&run, c->marks[1], c->marks[2])) ||
        DM_CUDA(err, cudaEventElapsedTime(&down, c->marks[2], c->marks[3])))
        return DM_ERUNTIME;
    *transfer_s = 1e-3 * ((double)up + (double)down);
    *kernel_s = 1e-3 * (double)run;
    return 0;
}
