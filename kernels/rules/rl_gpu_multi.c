/* rl_gpu_multi.c - the rules workload's evaluation over several GPUs: each GPU the
 * one-GPU pipeline (rl_gpu_eval.c) on its slice of the instances, the partial counts
 * summed on the host and the measures computed from the sums (rl_result_sum).
 *
 * The calling thread works the first GPU (the engine's, current on it); every other GPU
 * with instances to evaluate has a host thread of its own for the whole point, started
 * at open and joined at free, which makes its device current once, uploads its slice,
 * and takes each job (a run, an output) through a mutex and a condition variable. Why
 * threads rather than one thread enqueueing on every GPU in turn with cudaSetDevice
 * between: the serial pipeline waits for its copies inside a run (rl_gpu_run), so one
 * thread would have the GPUs take turns; a thread each lets every GPU wait on its own,
 * and the slices upload side by side at open. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "rules/rl_gpu_eval.h"
#include "rules/rl_gpu_multi.h"

/* What the GPUs are asked to do. */
enum { RL_JOB_RUN = 1, RL_JOB_OUTPUT, RL_JOB_QUIT };

/* One GPU's share: its slice and its evaluation of it. */
typedef struct rl_part {
    rl_gpu_multi *m;
    const dm_device *dev;
    rl_table rows;        /* its slice of the table: a view (rl_table_rows) */
    cudaStream_t stream;  /* the engine's on the first GPU; its own on the others */
    rl_gpu_eval *g;
    const rl_answer *ans; /* its last job's */
    pthread_t thread;     /* beyond the first GPU */
    int rc;               /* its last step's status, err its message */
    dm_err err;
} rl_part;

struct rl_gpu_multi {
    rl_answer out; /* first: what output() gives */
    rl_ruleset rs;
    rl_gpu_opts opts;
    int busy;    /* GPUs with instances: the first busy of the point's */
    int threads; /* threads started, those of parts 1 .. threads */
    rl_part part[DM_MAX_GPUS];
    pthread_mutex_t mu; /* guards job, gen and pending; cv signals their changes */
    pthread_cond_t cv;
    int job;
    unsigned gen; /* jobs handed out so far */
    int pending;  /* threads not yet done with the current job (or with their open) */
    rl_stages stages;
    rl_split split;
};

/* Opens p's evaluation of its slice; on a GPU beyond the first (not first), makes its
 * device current on this thread and a stream on it. Sets p->rc. */
static void rl_part_open(rl_part *p, int first)
{
    rl_gpu_multi *m = p->m;
    if (!first && (DM_CUDA(&p->err, cudaSetDevice(p->dev->index)) ||
                   DM_CUDA(&p->err, cudaStreamCreateWithFlags(&p->stream,
                                                              cudaStreamNonBlocking)))) {
        p->rc = DM_ERUNTIME;
        return;
    }
    p->rc = rl_gpu_open(&p->rows, &m->rs, &m->opts, p->stream, &p->g, &p->err);
}

static void rl_part_close(rl_part *p, int first)
{
    rl_gpu_free(p->g);
    if (!first && p->stream)
        DM_CUDA_WARN(cudaStreamDestroy(p->stream));
}

/* Does job on p's GPU: a run waited for (its counts in p->ans), or the output of the last
 * one (stages too). Sets p->rc. */
static void rl_part_job(rl_part *p, int job)
{
    if (job == RL_JOB_RUN)
        p->rc = rl_gpu_run(p->g, &p->err) || rl_gpu_wait(p->g, &p->ans, &p->err) ? DM_ERUNTIME
                                                                                 : 0;
    else
        p->rc = rl_gpu_output(p->g, &p->ans, &p->err);
}

/* Marks one thread done with its job (or open), waking the caller after the last. Call
 * with m->mu held. */
static void rl_thread_done(rl_gpu_multi *m)
{
    if (--m->pending == 0)
        pthread_cond_broadcast(&m->cv);
}

/* A GPU's thread beyond the first: opens its part, then does each job handed out until
 * told to quit, and closes it. */
static void *rl_part_thread(void *arg)
{
    rl_part *p = arg;
    rl_gpu_multi *m = p->m;
    rl_part_open(p, 0);
    pthread_mutex_lock(&m->mu);
    unsigned seen = m->gen;
    for (;;) {
        rl_thread_done(m);
        while (m->gen == seen)
            pthread_cond_wait(&m->cv, &m->mu);
        seen = m->gen;
        const int job = m->job;
        if (job == RL_JOB_QUIT)
            break;
        pthread_mutex_unlock(&m->mu);
        rl_part_job(p, job);
        pthread_mutex_lock(&m->mu);
    }
    pthread_mutex_unlock(&m->mu);
    rl_part_close(p, 0);
    return NULL;
}

/* Waits until every thread is done with its job. */
static void rl_threads_wait(rl_gpu_multi *m)
{
    pthread_mutex_lock(&m->mu);
    while (m->pending > 0)
        pthread_cond_wait(&m->cv, &m->mu);
    pthread_mutex_unlock(&m->mu);
}

/* Hands job to every thread (the threads count those still to finish). */
static void rl_threads_post(rl_gpu_multi *m, int job)
{
    pthread_mutex_lock(&m->mu);
    m->job = job;
    m->gen++;
    m->pending = job == RL_JOB_QUIT ? 0 : m->threads;
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->mu);
}

/* 0 when every busy GPU's last step succeeded; else the first failure's code, its message
 * in err (a CUDA failure prefixed with the GPU's index; an input error, the same on every
 * GPU, as it is). */
static int rl_parts_status(const rl_gpu_multi *m, dm_err *err)
{
    for (int k = 0; k < m->busy; k++) {
        const rl_part *p = &m->part[k];
        if (p->err.code == DM_ENOMEM) /* the point is skipped, saying which card */
            return dm_err_set(err, DM_ENOMEM, "GPU %d: %s", p->dev->index, p->err.msg);
        if (p->rc == DM_ERUNTIME)
            return dm_err_set(err, p->rc, "GPU %d: %s", p->dev->index, p->err.msg);
        if (p->rc)
            return dm_err_set(err, p->rc, "%s", p->err.msg);
    }
    return 0;
}

/* Has every busy GPU do job (the first here, the others in their threads) and waits for
 * all. Returns as rl_parts_status. */
static int rl_parts_job(rl_gpu_multi *m, int job, dm_err *err)
{
    rl_threads_post(m, job);
    rl_part_job(&m->part[0], job);
    rl_threads_wait(m);
    return rl_parts_status(m, err);
}

void rl_gpu_multi_free(rl_gpu_multi *m)
{
    if (!m)
        return;
    rl_threads_post(m, RL_JOB_QUIT);
    for (int k = 1; k <= m->threads; k++)
        pthread_join(m->part[k].thread, NULL);
    rl_part_close(&m->part[0], 1);
    for (int k = 0; k < m->busy; k++)
        rl_table_view_free(&m->part[k].rows);
    pthread_cond_destroy(&m->cv);
    pthread_mutex_destroy(&m->mu);
    rl_result_free(&m->out.res);
    rl_ruleset_free(&m->rs);
    free(m);
}

/* Starts a thread for each busy GPU beyond the first, opens the first here, and waits
 * for every open. Returns as rl_parts_status, or DM_ERUNTIME when a thread cannot start
 * (those started are then joined by rl_gpu_multi_free). */
static int rl_parts_open(rl_gpu_multi *m, dm_err *err)
{
    int rc = 0;
    for (int k = 1; k < m->busy && !rc; k++) {
        pthread_mutex_lock(&m->mu);
        m->pending++;
        pthread_mutex_unlock(&m->mu);
        if (pthread_create(&m->part[k].thread, NULL, rl_part_thread, &m->part[k]) == 0) {
            m->threads++;
            continue;
        }
        pthread_mutex_lock(&m->mu);
        rl_thread_done(m);
        pthread_mutex_unlock(&m->mu);
        rc = dm_err_set(err, DM_ERUNTIME, "rules: cannot start a thread for GPU %d",
                        m->part[k].dev->index);
    }
    if (!rc)
        rl_part_open(&m->part[0], 1);
    rl_threads_wait(m);
    return rc ? rc : rl_parts_status(m, err);
}

int rl_gpu_multi_open(const rl_table *t, const dm_point *pt, const dm_exec *ex, int gpus,
                      const rl_gpu_opts *o, rl_gpu_multi **out, dm_err *err)
{
    const int have = ex->ngpus > 0 ? ex->ngpus : 1;
    *out = NULL;
    if (gpus < 1 || gpus > have || gpus > DM_MAX_GPUS)
        return dm_err_set(err, DM_EINPUT, "rules: the point asks for %d GPUs, and the run "
                          "has %d", gpus, have);
    rl_gpu_multi *m = calloc(1, sizeof *m);
    if (!m)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    if (pthread_mutex_init(&m->mu, NULL) || pthread_cond_init(&m->cv, NULL)) {
        free(m);
        return dm_err_set(err, DM_ERUNTIME, "rules: cannot make a mutex");
    }
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
        *p = (rl_part){.m = m, .dev = ex->ngpus > 0 ? ex->gpus[k] : ex->device};
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

/* Seconds on the monotonic clock. */
static double rl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int rl_gpu_multi_run(rl_gpu_multi *m, dm_err *err)
{
    int rc = rl_parts_job(m, RL_JOB_RUN, err);
    if (rc)
        return rc;
    const rl_result *parts[DM_MAX_GPUS];
    for (int k = 0; k < m->busy; k++)
        parts[k] = &m->part[k].ans->res;
    const double t0 = rl_now();
    rl_result_sum(&m->out.res, parts, m->busy);
    m->split.sum_s = rl_now() - t0;
    m->out.stages = NULL;
    return 0;
}

int rl_gpu_multi_output(rl_gpu_multi *m, const rl_answer **out, dm_err *err)
{
    int rc = rl_parts_job(m, RL_JOB_OUTPUT, err);
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
