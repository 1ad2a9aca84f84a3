/* ep_multigpu.c - multigpu: level-wise mining over several GPUs (journal section 6.2).
 * A device thread per GPU (dm_handoff: the calling thread works the first) lives for the
 * whole point, keeping its GPU current, its stream and its copy of the event stream; each
 * level's candidates are split in even contiguous slices, one a GPU, which the threads
 * count at once (PTPE; hybrid's choice of PTPE or MTPE for the slice; or PreElim's bound
 * first and PTPE on a split of the survivors: two-pass), and the counts are gathered on
 * the host, where the next level's candidates are generated. Counting by prefix (beyond
 * the papers) shares a level by its prefixes instead (ep_prefix_split.h): each GPU counts
 * the extensions of the prefixes whose starts it keeps, and of those moved to it to
 * balance the level, whose starts it copies from the GPU keeping them where the GPUs can
 * reach each other's memory (their pools shared for the point), else makes again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "ep_gpu_count.h"
#include "ep_multigpu.h"
#include "ep_prefix_dev.h"
#include "episodes/ep_prefix_split.h"
#include "handoff.h"

/* One GPU, owned by its device thread. */
typedef struct ep_mgpu_gpu {
    const dm_device *dev;
    void *stream;         /* the run's on the first GPU, its own beyond */
    int own_stream;
    ep_gpu_counter c;     /* the papers' countings' */
    ep_prefix_dev pd;     /* counting by prefix's */
    ep_split_pass took;   /* its slice of the last round */
} ep_mgpu_gpu;

typedef struct ep_mgpu_state {
    const ep_stream *s;
    dm_point pt;          /* a copy: the device threads read it after setup */
    double margin;
    int ngpus;
    ep_mgpu_gpu gpu[DM_MAX_GPUS];
    dm_handoff *h;
    /* The round handed to the device threads: eps[0..n) into counts, bounds when bound. */
    const ep_episode *eps;
    int64_t n;
    int64_t *counts;
    int bound;
    ep_gpu_fn count;      /* the exact count: PTPE, or NULL for hybrid's choice */
    int prefix;           /* counting by prefix: split shares each batch */
    int64_t keep;         /* by prefix: the episodes each GPU keeps the starts of */
    ep_prefix_split split_prefix;
    int shared;           /* by prefix: the GPUs' pools shared (moved starts copied) */
    int mine;             /* support > 0 */
    ep_mine_spec spec;
    ep_mine_result m;     /* the point's episodes and counts, or what the mining found */
    ep_split_level split[EP_MAX_LEVEL]; /* what the GPUs did at level l, split[l - 1] */
    ep_result out;
} ep_mgpu_state;

/* Names GPU i (of the point's) in err's message; returns err's code. */
static int ep_mgpu_failed(const ep_mgpu_state *s, int i, dm_err *err)
{
    return dm_err_prefix(err, "multigpu: GPU %d of %d (device %d)", i + 1, s->ngpus,
                         s->gpu[i].dev->index);
}

/* Device thread i's first round: its GPU made current for the thread's life, its stream
 * (the run's on the first GPU), the event stream put on the GPU. */
static int ep_mgpu_open(void *ctx, int i, dm_err *err)
{
    ep_mgpu_state *s = ctx;
    ep_mgpu_gpu *g = &s->gpu[i];
    cudaStream_t stream;
    if (DM_CUDA(err, cudaSetDevice(g->dev->index)))
        return ep_mgpu_failed(s, i, err);
    if (i > 0) {
        if (DM_CUDA(err, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)))
            return ep_mgpu_failed(s, i, err);
        g->stream = stream;
        g->own_stream = 1;
    }
    if (s->prefix ? ep_prefix_dev_open(&g->pd, g->stream, s->s, ep_point_interval(&s->pt),
                                       s->keep, (int)dm_point_int(&s->pt, "block"),
                                       (int)dm_point_int(&s->pt, "block_few"),
                                       dm_point_int(&s->pt, "switch_at"), err)
                  : ep_gpu_counter_open(&g->c, g->dev, g->stream, s->s, &s->pt, s->margin, 1,
                                        err))
        return ep_mgpu_failed(s, i, err);
    return 0;
}

/* Device thread i's last round: its GPU's memory, events and stream freed. */
static int ep_mgpu_close(void *ctx, int i, dm_err *err)
{
    ep_mgpu_state *s = ctx;
    ep_mgpu_gpu *g = &s->gpu[i];
    (void)err;
    if (s->prefix)
        ep_prefix_dev_close(&g->pd);
    else
        ep_gpu_counter_close(&g->c);
    if (g->own_stream)
        DM_CUDA_WARN(cudaStreamDestroy((cudaStream_t)g->stream));
    return 0;
}

/* Device thread i's part of a level, by prefix: its share counted on its GPU. Returns 0,
 * or as ep_prefix_split_count. */
static int ep_mgpu_share(ep_mgpu_state *s, int i, dm_err *err)
{
    ep_mgpu_gpu *g = &s->gpu[i];
    g->took.per_gpu = s->split_prefix.share[i].n;
    return ep_prefix_split_count(&s->split_prefix, i, &g->pd.st, err);
}

/* Device thread i's part of a level, as the papers count: its slice of the round's
 * episodes counted (or bounded) on its GPU into its slice of the counts, the transfers
 * and kernel timed on its stream. Returns 0, or as those do. */
static int ep_mgpu_part(ep_mgpu_state *s, int i, dm_err *err)
{
    ep_mgpu_gpu *g = &s->gpu[i];
    int64_t first, n;
    ep_split(s->n, s->ngpus, i, &first, &n);
    g->took.per_gpu = n;
    if (n == 0)
        return 0;
    g->took.timed = 1;
    if ((s->bound ? ep_gpu_bound(&g->c, s->eps + first, n, s->counts + first, err)
                  : ep_gpu_count(&g->c, s->eps + first, n, s->count, s->counts + first,
                                 err)))
        return err->code;
    return ep_gpu_took(&g->c, &g->took.transfer_s, &g->took.kernel_s, err);
}

/* Device thread i's part of a level, and how long it took. */
static int ep_mgpu_slice(void *ctx, int i, dm_err *err)
{
    ep_mgpu_state *s = ctx;
    ep_mgpu_gpu *g = &s->gpu[i];
    const double t0 = dm_now();
    g->took = (ep_split_pass){0};
    if (s->prefix ? ep_mgpu_share(s, i, err) : ep_mgpu_part(s, i, err))
        return ep_mgpu_failed(s, i, err);
    g->took.wall_s = dm_now() - t0;
    return 0;
}

/* Hands the round set in s to the GPUs, and when mining records the pass in the split of
 * level (bound: PreElim's pass, else the count's). */
static int ep_mgpu_hand(ep_mgpu_state *s, int level, int bound, dm_err *err)
{
    int rc = dm_handoff_round(s->h, ep_mgpu_slice, s, err);
    if (rc || !s->mine)
        return rc;
    ep_split_level *lv = &s->split[level - 1];
    ep_split_pass *pass = bound ? &lv->bound : &lv->count;
    for (int i = 0; i < s->ngpus; i++)
        ep_split_pass_merge(pass, &s->gpu[i].took);
    return 0;
}

/* Counts (or bounds, when bound) eps[0..n), all of one level, into counts over the GPUs,
 * and when mining records the pass in the level's split. */
static int ep_mgpu_round(ep_mgpu_state *s, const ep_episode *eps, int64_t n, int64_t *counts,
                         int bound, dm_err *err)
{
    s->eps = eps;
    s->n = n;
    s->counts = counts;
    s->bound = bound;
    return ep_mgpu_hand(s, eps[0].n, bound, err);
}

/* The split's run function (ep_prefix_parts_fn): the batch it shared out counted on the
 * GPUs, recorded at its level (a batch of extensions is one level past its prefixes). */
static int ep_mgpu_prefix_parts(void *ctx, dm_err *err)
{
    ep_mgpu_state *s = ctx;
    const ep_prefix_split *sp = &s->split_prefix;
    const int level = sp->eps ? sp->eps[0].n : sp->freq[0].n + 1;
    if (ep_mgpu_hand(s, level, 0, err))
        return err->code;
    ep_split_level *lv = &s->split[level - 1];
    lv->by_prefix = 1;
    lv->moved = sp->moved;
    lv->fetched = sp->fetching ? sp->moved : 0;
    return 0;
}

/* Mining's callbacks: a level's candidates counted with PTPE, or bounded by PreElim. */
static int ep_mgpu_count_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                            dm_err *err)
{
    return ep_mgpu_round(ctx, eps, n, counts, 0, err);
}

static int ep_mgpu_bound_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                            dm_err *err)
{
    return ep_mgpu_round(ctx, eps, n, counts, 1, err);
}

/* The CUDA indexes of the point's GPUs into devs. */
static void ep_mgpu_devices(const ep_mgpu_state *s, int *devs)
{
    for (int i = 0; i < s->ngpus; i++)
        devs[i] = s->gpu[i].dev->index;
}

void ep_multigpu_teardown(void *state)
{
    ep_mgpu_state *s = state;
    if (!s)
        return;
    if (s->h) {
        dm_handoff_round(s->h, ep_mgpu_close, s, NULL);
        dm_handoff_stop(s->h);
    }
    if (s->shared) {
        int devs[DM_MAX_GPUS];
        dm_err err = {0};
        ep_mgpu_devices(s, devs);
        if (dm_gpu_pools_share(devs, s->ngpus, 0, &err) < 0)
            fprintf(stderr, "dmbench: warning: multigpu: %s\n", err.msg);
    }
    ep_mine_result_free(&s->m);
    ep_prefix_split_free(&s->split_prefix);
    free(s);
}

int ep_multigpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                      void **state, dm_err *err)
{
    const ep_data *d = ds->data;
    const int want = (int)dm_point_int(pt, "gpus"), have = ex->ngpus > 0 ? ex->ngpus : 1;
    if (want > have)
        return dm_err_set(err, DM_EINPUT, "multigpu: the point asks %d GPUs, and the run has "
                          "%d (dmbench run --devices)", want, have);
    ep_mgpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    s->s = &d->s;
    s->pt = *pt;
    s->ngpus = want;
    for (int i = 0; i < want; i++)
        s->gpu[i].dev = ex->ngpus > 0 ? ex->gpus[i] : ex->device;
    s->gpu[0].stream = ex->stream;
    if (ep_point_work(&d->s, pt, &s->mine, &s->spec, &s->m, err))
        goto fail;
    s->margin = ep_gpu_margin(&d->s, &s->m, &s->spec, s->mine);
    const char *counting = dm_point_str(pt, "counting");
    s->count = strcmp(counting, "hybrid") == 0 ? NULL : ep_gpu_ptpe;
    if (s->mine && strcmp(counting, "twopass") == 0) {
        s->spec.bound = ep_mgpu_bound_cb;
        s->spec.bound_ctx = s;
    }
    if ((s->prefix = strcmp(counting, "prefix") == 0)) {
        s->keep = s->mine ? s->spec.support : INT64_MAX;
        s->spec.extend = ep_prefix_split_ext_cb;
        s->spec.extend_ctx = &s->split_prefix;
    }
    if (dm_handoff_start(want, &s->h, err)) {
        dm_err_prefix(err, "episodes");
        goto fail;
    }
    if (dm_handoff_round(s->h, ep_mgpu_open, s, err))
        goto fail;
    /* A level moves prefixes only when each GPU gets a wave of the kernel for few (the
     * GPUs are of one model: the first's). */
    if (s->prefix && ep_prefix_split_init(&s->split_prefix, want, s->keep, &d->s,
                                          s->gpu[0].pd.wave, ep_mgpu_prefix_parts, s, err))
        goto fail;
    /* Moved prefixes' starts copied between GPUs that can reach each other's memory. */
    if (s->prefix && want > 1) {
        int devs[DM_MAX_GPUS];
        ep_prefix_state *states[DM_MAX_GPUS];
        ep_mgpu_devices(s, devs);
        const int rc = dm_gpu_pools_share(devs, want, 1, err);
        if (rc < 0)
            goto fail;
        for (int i = 0; i < want; i++)
            states[i] = &s->gpu[i].pd.st;
        if ((s->shared = rc == 1))
            ep_prefix_split_fetching(&s->split_prefix, states);
    }
    s->out = ep_result_of(&d->s, &s->m);
    *state = s;
    return 0;
fail:
    ep_multigpu_teardown(s);
    return err->code;
}

int ep_multigpu_run(void *state, dm_err *err)
{
    ep_mgpu_state *s = state;
    if (!s->mine)
        return s->prefix ? ep_prefix_split_cb(&s->split_prefix, s->m.eps, s->m.n, s->m.counts,
                                              err)
                         : ep_mgpu_round(s, s->m.eps, s->m.n, s->m.counts, 0, err);
    ep_mine_result_free(&s->m);
    memset(s->split, 0, sizeof s->split);
    int rc = s->prefix ? ep_mine(s->s, &s->spec, ep_prefix_split_cb, &s->split_prefix, &s->m,
                                 err)
                       : ep_mine(s->s, &s->spec, ep_mgpu_count_cb, s, &s->m, err);
    s->out = ep_result_of(s->s, &s->m);
    s->out.split = s->split;
    return rc;
}

int ep_multigpu_output(void *state, const void **out, dm_err *err)
{
    ep_mgpu_state *s = state;
    (void)err;
    *out = &s->out;
    return 0;
}
