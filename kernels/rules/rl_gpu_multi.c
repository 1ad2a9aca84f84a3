/* rl_gpu_multi.c - the rules workload's evaluation over several GPUs: each GPU the
 * one-GPU pipeline (rl_gpu_eval.c) on its slice of the instances, the partial counts
 * summed on the host and the measures computed from the sums (rl_result_sum).
 *
 * Every GPU with instances to evaluate has a host thread for the whole point (dm_handoff:
 * the first GPU, the engine's, on the calling thread and the engine's stream; each other on
 * a thread and a stream of its own, started at open and stopped at free): in its first
 * round it makes its device current for the thread's life and uploads its slice; then it
 * does each round handed out (a run, an output), and in its last frees its part. Why
 * threads rather than one thread enqueueing on every GPU in turn with cudaSetDevice
 * between: the serial pipeline waits for its copies inside a run (rl_gpu_run), so one
 * thread would have the GPUs take turns; a thread each lets every GPU wait on its own,
 * and the slices upload side by side at open. */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "handoff.h"
#include "rules/rl_gpu_eval.h"
#include "rules/rl_gpu_multi.h"

/* One GPU's share: its slice and its evaluation of it, which its thread works. */
typedef struct rl_part {
    const dm_device *dev;
    rl_table rows;        /* its slice of the table: a view (rl_table_rows) */
    cudaStream_t stream;  /* the engine's on the first GPU; its own on the others */
    rl_gpu_eval *g;
    const rl_answer *ans; /* its last round's */
} rl_part;

struct rl_gpu_multi {
    rl_answer out; /* first: what output() gives */
    rl_ruleset rs;
    rl_gpu_opts opts;
    int busy;      /* GPUs with instances: the first busy of the point's */
    dm_handoff *h; /* their threads, thread k working part[k] */
    rl_part part[DM_MAX_GPUS];
    rl_stages stages;
    rl_split split;
};

/* p's status after a step that returned rc, its message in err: DM_ENOMEM when its GPU
 * had not the memory, whatever rc says (the point is skipped, saying which card); a
 * failure (DM_ERUNTIME) prefixed with the GPU's index; an input error, the same on every
 * GPU, as it is. A round's is its first failing GPU's (dm_handoff_round). */
static int rl_part_status(const rl_part *p, int rc, dm_err *err)
{
    if (err->code == DM_ENOMEM)
        rc = DM_ENOMEM;
    if (rc == DM_ENOMEM || rc == DM_ERUNTIME)
        dm_err_prefix(err, "GPU %d", p->dev->index);
    if (rc)
        err->code = rc;
    return rc;
}

/* Thread k's first round: its GPU made current on the thread, its stream (beyond the
 * first GPU) made, its slice's evaluation opened. */
static int rl_part_open(void *ctx, int k, dm_err *err)
{
    rl_gpu_multi *m = ctx;
    rl_part *p = &m->part[k];
    int rc;
    if (DM_CUDA(err, cudaSetDevice(p->dev->index)) ||
        (k > 0 && DM_CUDA(err, cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking))))
        rc = DM_ERUNTIME;
    else
        rc = rl_gpu_open(&p->rows, &m->rs, &m->opts, p->stream, &p->g, err);
    return rl_part_status(p, rc, err);
}

/* Thread k's part of a run: one evaluation, waited for, its counts in p->ans. */
static int rl_part_run(void *ctx, int k, dm_err *err)
{
    rl_part *p = &((rl_gpu_multi *)ctx)->part[k];
    int rc = rl_gpu_run(p->g, err) || rl_gpu_wait(p->g, &p->ans, err) ? DM_ERUNTIME : 0;
    return rl_part_status(p, rc, err);
}

/* Thread k's part of an output: the last run's answer with its stages, in p->ans. */
static int rl_part_output(void *ctx, int k, dm_err *err)
{
    rl_part *p = &((rl_gpu_multi *)ctx)->part[k];
    return rl_part_status(p, rl_gpu_output(p->g, &p->ans, err), err);
}

/* Thread k's last round: its evaluation and its own stream freed. */
static int rl_part_close(void *ctx, int k, dm_err *err)
{
    rl_part *p = &((rl_gpu_multi *)ctx)->part[k];
    (void)err;
    rl_gpu_free(p->g);
    if (k > 0 && p->stream)
        DM_CUDA_WARN(cudaStreamDestroy(p->stream));
    return 0;
}

void rl_gpu_multi_free(rl_gpu_multi *m)
{
    if (!m)
        return;
    if (m->h) {
        dm_handoff_round(m->h, rl_part_close, m, NULL);
        dm_handoff_stop(m->h);
    }
    for (int k = 0; k < m->busy; k++)
        rl_table_view_free(&m->part[k].rows);
    rl_result_free(&m->out.res);
    rl_ruleset_free(&m->rs);
    free(m);
}

/* Starts a thread for each busy GPU and has each open its part. Returns 0, DM_ERUNTIME
 * when a thread cannot start (none is left then), or the round's status
 * (rl_part_status); rl_gpu_multi_free closes what opened. */
static int rl_parts_open(rl_gpu_multi *m, dm_err *err)
{
    if (dm_handoff_start(m->busy, &m->h, err))
        return dm_err_prefix(err, "rules");
    return dm_handoff_round(m->h, rl_part_open, m, err);
}

int rl_gpu_multi_open(const rl_table *t, const dm_point *pt, const dm_exec *ex, int gpus,
                      const rl_gpu_opts *o, rl_gpu_multi **out, dm_err *err)
{
    const int have = ex->ngpus > 0 ? ex->ngpus : 1;
    *out = NULL;
    if (gpus < 1 || gpus > have || gpus > DM_MAX_GPUS)
        return dm_err_set(err, DM_EINPUT, "rules: the point asks for %d GPUs, and the run "
                          "has %d", gpus, have);
    /* 0 means the card's chosen block, which expansion for a GPU puts in its place; a
     * caller that skipped it would have the kernels' grids divide by it. */
    if (o->block == 0)
        return dm_err_set(err, DM_EINPUT, "rules: block 0 was never resolved to a block "
                          "size (a sweep expanded for a GPU chooses it): give one of 32 to "
                          "1024");
    rl_gpu_multi *m = calloc(1, sizeof *m);
    if (!m)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    m->opts = *o;
    m->busy = t->n < gpus ? (int)t->n : gpus;
    m->split.gpus = gpus;
    int rc = rl_point_rules(t, pt, &m->rs, err);
    if (!rc)
        rc = rl_result_init(&m->out.res, &m->rs, err);
    for (int k = 0; k < gpus && !rc; k++) {
        rl_part *p = &m->part[k];
        int64_t i0;
        rl_table_slice(t->n, gpus, k, &i0, &m->split.instances[k]);
        *p = (rl_part){.dev = ex->ngpus > 0 ? ex->gpus[k] : ex->device};
        if (k < m->busy)
            rc = rl_table_rows(t, i0, m->split.instances[k], &p->rows, err);
    }
    m->part[0].stream = (cudaStream_t)ex->stream;
    if (rc || (rc = rl_parts_open(m, err)) != 0) {
        rl_gpu_multi_free(m);
        return rc;
    }
    m->out.t = t;
    m->out.rs = &m->rs;
    m->out.split = &m->split;
    *out = m;
    return 0;
}

int rl_gpu_multi_run(rl_gpu_multi *m, dm_err *err)
{
    int rc = dm_handoff_round(m->h, rl_part_run, m, err);
    if (rc)
        return rc;
    const rl_result *parts[DM_MAX_GPUS];
    for (int k = 0; k < m->busy; k++)
        parts[k] = &m->part[k].ans->res;
    const double t0 = dm_now();
    rl_result_sum(&m->out.res, parts, m->busy);
    m->split.sum_s = dm_now() - t0;
    m->out.stages = NULL;
    return 0;
}

int rl_gpu_multi_output(rl_gpu_multi *m, const rl_answer **out, dm_err *err)
{
    int rc = dm_handoff_round(m->h, rl_part_output, m, err);
    if (rc)
        return rc;
    memset(&m->stages, 0, sizeof m->stages);
    for (int k = 0; k < m->busy; k++) {
        const rl_stages *st = m->part[k].ans->stages;
        m->split.stages[k] = *st;
        for (int s = 0; s < RL_STAGES; s++)
            m->stages.s[s] = st->s[s] > m->stages.s[s] ? st->s[s] : m->stages.s[s];
        m->stages.total_s = st->total_s > m->stages.total_s ? st->total_s : m->stages.total_s;
        m->stages.chunks = st->chunks;
    }
    m->out.stages = &m->stages;
    *out = &m->out;
    return 0;
}
