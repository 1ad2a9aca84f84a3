/* runner.c - carries out an expanded sweep: points grouped by dataset and problem so each
 * dataset and CPU reference is made once; every point verified before it is timed; GPU
 * points profiled and traced (when asked) only after they are timed; one database
 * transaction per point. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "arch.h"
#include "device.h"
#include "measure.h"
#include "runner.h"
#include "verify.h"
#include "version.h"

/* Calls method m of the run's sink with the sink's context and the arguments. */
#define SINK(rs, m, ...) DM_SINK_CALL((rs)->sink, m, __VA_ARGS__)

static volatile sig_atomic_t stop_requested;

static void on_sigint(int sig)
{
    (void)sig;
    stop_requested = 1;
    signal(SIGINT, SIG_DFL); /* a second Ctrl-C ends the process at once */
}

static double unix_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct run_state run_state;

/* One worker: its device (or none), stream and measurement context, and the dataset and
 * CPU reference it has open. A run has one on the calling thread, or a thread each
 * (dm_run_opts.ndevices > 1) taking points from one queue. */
typedef struct worker {
    run_state *rs;
    dm_exec ex;
    const dm_device *gpus[DM_MAX_GPUS]; /* ex.gpus: its device, then the run's others */
    char no_code[512]; /* why its GPU runs none of the binary's code; "" when it does */
    dm_measure_ctx *mc;
    /* the one open dataset and reference (points are ordered so these change rarely) */
    dm_dataset ds;
    int ds_open;
    int64_t ds_id;
    char ds_key[DM_KEY_MAX];
    void *ref;
    char ref_key[DM_KEY_MAX];
    pthread_t thread;
    int rc;     /* how its points ended: 0, or the error in err that stopped the run */
    dm_err err;
    /* the point it is in (busy_since > 0), for the watchdog; guarded by the run's lock */
    const dm_sweep_point *busy_sp;
    size_t busy_idx;
    double busy_since;
} worker;

/* A write a worker thread hands to the thread that owns the sink, and waits for. */
typedef enum write_kind { WRITE_DATASET, WRITE_POINT, WRITE_POINT_DONE } write_kind;
typedef struct write_job {
    write_kind kind;
    const dm_dataset *ds;        /* WRITE_DATASET: into *id */
    int64_t *id;
    const dm_point_result *r;    /* WRITE_POINT */
    int64_t idx;                 /* WRITE_POINT_DONE: into *done */
    int *done;
    dm_err *err;
    int rc, finished;
    struct write_job *next;
} write_job;

struct run_state {
    const dm_sweep *sweep;
    const dm_workload *w;
    const dm_sink *sink;
    int sink_open;   /* the sink is open: datasets are recorded as they are made */
    int64_t run_id;
    dm_progress *progress;
    dm_cupti *cupti;  /* one-GPU runs: kernel launches, metrics, timelines */
    int profile, trace, resume;
    /* the queue: points order[next..norder) are still to run; lock guards it, the counts
     * in res, the progress, and (threaded) the writes handed to this thread */
    const dm_expansion *e;
    const size_t *order;
    size_t norder, next;
    int halt;         /* a worker stopped the run (bad input, the sink) */
    dm_run_result *res;
    int threaded, workers_left;
    /* threaded: held shared while a point runs, and alone by a point on several GPUs */
    pthread_rwlock_t alone;
    pthread_mutex_t lock;
    pthread_cond_t wake, written;
    write_job *jobs, *last_job;
    /* the watchdog (dm_run_opts.point_timeout > 0) over workers wks[0..nw) */
    double point_timeout;
    worker *wks;
    int nw, watch_stop;
    pthread_t watchdog;
};

/* ---- writes: on the thread that owns the sink ---- */

/* Carries out job with the sink. Returns its status. */
static int write_now(run_state *rs, write_job *job)
{
    switch (job->kind) {
    case WRITE_DATASET:
        return SINK(rs, dataset, job->ds, job->id, job->err);
    case WRITE_POINT:
        return SINK(rs, point, job->r, job->err);
    case WRITE_POINT_DONE:
        return SINK(rs, point_done, rs->run_id, job->idx, job->done, job->err);
    }
    return dm_err_set(job->err, DM_ERUNTIME, "unknown write");
}

/* Writes job through the sink: at once when the run has one worker, else handed to the
 * thread that owns the sink (serve_writes), waiting for it. Returns its status. */
static int write_sink(run_state *rs, write_job *job)
{
    if (!rs->threaded)
        return write_now(rs, job);
    pthread_mutex_lock(&rs->lock);
    job->next = NULL;
    if (rs->last_job)
        rs->last_job->next = job;
    else
        rs->jobs = job;
    rs->last_job = job;
    pthread_cond_signal(&rs->wake);
    while (!job->finished)
        pthread_cond_wait(&rs->written, &rs->lock);
    pthread_mutex_unlock(&rs->lock);
    return job->rc;
}

/* The owner of the sink while worker threads run: carries out their writes in the order
 * handed, until the last worker has ended. */
static void serve_writes(run_state *rs)
{
    pthread_mutex_lock(&rs->lock);
    while (rs->workers_left > 0 || rs->jobs) {
        write_job *job = rs->jobs;
        if (!job) {
            pthread_cond_wait(&rs->wake, &rs->lock);
            continue;
        }
        if (!(rs->jobs = job->next))
            rs->last_job = NULL;
        pthread_mutex_unlock(&rs->lock);
        int rc = write_now(rs, job);
        pthread_mutex_lock(&rs->lock);
        job->rc = rc;
        job->finished = 1;
        pthread_cond_broadcast(&rs->written);
    }
    pthread_mutex_unlock(&rs->lock);
}

/* ---- datasets and references ---- */

static void close_dataset(worker *wk)
{
    if (wk->ref) {
        wk->rs->w->reference_free(wk->ref);
        wk->ref = NULL;
        wk->ref_key[0] = '\0';
    }
    if (wk->ds_open) {
        wk->rs->w->dataset_close(&wk->ds);
        wk->ds_open = 0;
        wk->ds_key[0] = '\0';
    }
}

/* Makes pt's dataset current (and stores it when a run is open). DM_EINPUT: bad file. */
static int ensure_dataset(worker *wk, const dm_point *pt, dm_err *err)
{
    run_state *rs = wk->rs;
    char key[DM_KEY_MAX];
    dm_point_dataset_key(pt, key, sizeof key);
    if (wk->ds_open && strcmp(key, wk->ds_key) == 0)
        return 0;
    close_dataset(wk);
    memset(&wk->ds, 0, sizeof wk->ds);
    if (rs->w->dataset_open(sweep_data_source(rs->sweep), pt, &wk->ds, err) != 0)
        return err->code;
    wk->ds_open = 1;
    snprintf(wk->ds_key, sizeof wk->ds_key, "%s", key);
    wk->ds_id = 0;
    write_job job = { .kind = WRITE_DATASET, .ds = &wk->ds, .id = &wk->ds_id, .err = err };
    if (rs->sink_open && write_sink(rs, &job) != 0)
        return err->code;
    return 0;
}

static int ensure_reference(worker *wk, const dm_point *pt, dm_err *err)
{
    char key[DM_KEY_MAX];
    dm_point_problem_key(pt, key, sizeof key);
    if (wk->ref && strcmp(key, wk->ref_key) == 0)
        return 0;
    if (wk->ref) {
        wk->rs->w->reference_free(wk->ref);
        wk->ref = NULL;
    }
    if (wk->rs->w->reference(&wk->ds, pt, &wk->ref, err) != 0)
        return dm_err_prefix(err, "CPU reference");
    snprintf(wk->ref_key, sizeof wk->ref_key, "%s", key);
    return 0;
}

/* Sets fatal to err, a problem of pt its CPU reference refuses as input, naming the
 * point; returns DM_EINPUT. */
static int reference_refused(const dm_point *pt, const dm_err *err, dm_err *fatal)
{
    char params[DM_KEY_MAX];
    dm_point_format(pt, params, sizeof params);
    return dm_err_set(fatal, DM_EINPUT, "%s (point %s %s)", err->msg, pt->variant->name,
                      params);
}

/* ---- one point ---- */

/* The runner's watch over a point's first run: the kernels it launches, noted by CUPTI
 * into cp. */
typedef struct run_watch {
    dm_cupti *cupti;
    dm_cupti_point *cp;
    int failed;
} run_watch;

static void watch_begin(void *ctx)
{
    cupti_watch_begin(((run_watch *)ctx)->cupti);
}

static int watch_end(void *ctx, dm_err *err)
{
    run_watch *w = ctx;
    if (cupti_watch_end(w->cupti, w->cp) == 0)
        return 0;
    w->failed = 1;
    return dm_err_set(err, DM_ERUNTIME, "out of memory noting the kernels launched");
}

/* Takes the facts of the execution just timed (the workload's, when it has them) into
 * facts[0..DM_MAX_FACTS) and r. Returns 0, or nonzero with err set when the variant's
 * output cannot be fetched. */
static int take_facts(const dm_workload *w, const dm_variant *v, void *state,
                      const dm_point *pt, dm_point_result *r, dm_fact *facts, dm_err *err)
{
    const void *out;
    if (!w->facts)
        return 0;
    if (v->output(state, &out, err) != 0)
        return err->code;
    r->nfacts = w->facts(out, pt, facts, DM_MAX_FACTS);
    r->facts = facts;
    return 0;
}

/* Verifies and measures one point, filling r (its facts into facts[0..DM_MAX_FACTS)).
 * Returns 0 when the point's outcome is decided (ok or failed, written in r), or
 * DM_EINPUT with fatal set for bad input: a dataset that cannot be read, or a problem
 * its CPU reference refuses as input (an unreadable episodes file, say); the run stops
 * and is discarded. */
static int run_point(worker *wk, const dm_sweep_point *sp, dm_point_result *r,
                     dm_measurement *m, dm_work *work, dm_cupti_point *cp, dm_fact *facts,
                     char *reason, size_t rlen, char *detail, size_t dlen, dm_err *fatal)
{
    const dm_point *pt = &sp->point;
    const dm_variant *v = pt->variant;
    run_state *rs = wk->rs;
    dm_err err = { 0 };
    void *state = NULL;
    r->status = "failed";
    r->verify = "not-run";
    if (sp->pruned == 2) {
        r->status = "pruned";
        snprintf(reason, rlen, "%s", sp->reason);
        return 0;
    }
    if (v->needs_gpu && !wk->ex.device) {
        r->status = "skipped";
        snprintf(reason, rlen, "no GPU");
        return 0;
    }
    if (v->needs_gpu && wk->no_code[0]) {
        r->status = "skipped";
        snprintf(reason, rlen, "%s", wk->no_code);
        return 0;
    }
    if (ensure_dataset(wk, pt, &err) != 0) {
        if (err.code == DM_EINPUT) {
            *fatal = err;
            return DM_EINPUT;
        }
        snprintf(reason, rlen, "dataset: %s", err.msg);
        return 0;
    }
    r->dataset_id = wk->ds_id;
    if (ensure_reference(wk, pt, &err) != 0) {
        if (err.code == DM_EINPUT)
            return reference_refused(pt, &err, fatal);
        r->verify = "error";
        snprintf(reason, rlen, "%s", err.msg);
        return 0;
    }
    const void *out = NULL;
    dm_cupti *cupti = v->needs_gpu ? rs->cupti : NULL;
    run_watch wctx = { .cupti = cupti, .cp = cp };
    dm_verify_watch watch = { .begin = watch_begin, .end = watch_end, .ctx = &wctx };
    dm_verify_stage stage = verify_point(&wk->ex, &wk->ds, pt, wk->ref, cupti ? &watch : NULL,
                                         &state, &out, detail, dlen, &err);
    /* A point the card has not the memory for is skipped, saying so, not failed. */
    if ((stage == DM_VERIFY_SETUP || stage == DM_VERIFY_RUN) && err.code == DM_ENOMEM)
        r->status = "skipped";
    if (stage == DM_VERIFY_SETUP) {
        snprintf(reason, rlen, "setup: %s", err.msg);
        return 0;
    }
    r->cupti = cupti && !wctx.failed ? cp : NULL;
    if (stage == DM_VERIFY_RUN && err.code == DM_ENOMEM) {
        snprintf(reason, rlen, "verification run: %s", err.msg);
        goto done;
    }
    if (stage == DM_VERIFY_RUN) {
        r->verify = "error";
        snprintf(reason, rlen, "verification run: %s", err.msg);
        goto done;
    }
    if (stage == DM_VERIFY_MISMATCH) {
        r->verify = "mismatch";
        snprintf(reason, rlen, "output differs from the CPU reference: %s", detail);
        goto done;
    }
    r->verify = "match";
    if (measure_point(wk->mc, v, state, sweep_measure(rs->sweep), m, &err) != 0) {
        snprintf(reason, rlen, "measurement: %s", err.msg);
        goto done;
    }
    if (take_facts(rs->w, v, state, pt, r, facts, &err) != 0) {
        snprintf(reason, rlen, "output after timing: %s", err.msg);
        goto done;
    }
    /* Passes of their own, after the samples: replay and tracing never touch a timing. */
    if ((cupti && rs->profile && cupti_profile(cupti, v, state, cp) != 0) ||
        (cupti && rs->trace && cupti_trace(cupti, v, state, cp) != 0)) {
        snprintf(reason, rlen, "out of memory storing what CUPTI gave");
        goto done;
    }
    r->m = m;
    r->status = "ok";
    if (rs->w->work) {
        rs->w->work(pt, &wk->ds, wk->ref, work);
        r->work = work;
    }
done:
    v->teardown(state);
    return 0;
}

/* ---- the run ---- */

/* Starts CUPTI for a GPU run and says once what it cannot do. Returns 0 or DM_ERUNTIME. */
static int open_cupti(run_state *rs, const dm_run_opts *o, dm_err *err)
{
    dm_cupti_opts co = {.device = o->device, .metrics = o->metrics};
    rs->profile = o->metrics && o->metrics->n > 0;
    rs->trace = o->timeline;
    if (cupti_open(&co, &rs->cupti, err) != 0)
        return err->code;
    if (rs->profile && cupti_counters_problem(rs->cupti)[0])
        progress_note(rs->progress, 1, "hardware counters unavailable: %s; metrics are stored "
                      "as NULL with this reason, and timing goes on",
                      cupti_counters_problem(rs->cupti));
    if (cupti_attrs_problem(rs->cupti)[0])
        progress_note(rs->progress, 1, "kernel launches cannot be noted: %s; no kernel "
                      "attributes are stored", cupti_attrs_problem(rs->cupti));
    return 0;
}

/* ---- the points: one worker, or a thread per device ---- */

/* Verifies, measures and writes point idx of the run, then counts it. Returns 0, or the
 * status (in wk->err) that stops the run: bad input, or the sink. */
static int run_one(worker *wk, size_t idx)
{
    run_state *rs = wk->rs;
    const dm_sweep_point *sp = &rs->e->points[idx];
    dm_err *err = &wk->err;
    char label[DM_KEY_MAX + 64], params[DM_KEY_MAX];
    int rc;
    dm_point_format(&sp->point, params, sizeof params);
    snprintf(label, sizeof label, "%s %s", sp->point.variant->name, params);
    if (rs->resume) {
        int done = 0;
        write_job job = { .kind = WRITE_POINT_DONE, .idx = (int64_t)idx, .done = &done,
                          .err = err };
        if ((rc = write_sink(rs, &job)) != 0)
            return rc;
        if (done) {
            pthread_mutex_lock(&rs->lock);
            rs->res->resumed++;
            progress_done(rs->progress, label, "already stored");
            pthread_mutex_unlock(&rs->lock);
            return 0;
        }
    }
    pthread_mutex_lock(&rs->lock);
    progress_start(rs->progress, label);
    wk->busy_sp = sp;
    wk->busy_idx = idx;
    wk->busy_since = unix_now();
    pthread_mutex_unlock(&rs->lock);
    dm_measurement m = { 0 };
    dm_work work = { 0 };
    dm_cupti_point cp = { 0 };
    dm_fact facts[DM_MAX_FACTS];
    char reason[DM_ERR_MAX + 128] = "", detail[512] = "";
    dm_point_result r = { .run_id = rs->run_id, .index = (int64_t)idx, .point = &sp->point,
                          .device = wk->ex.device, .started = unix_now() };
    rc = run_point(wk, sp, &r, &m, &work, &cp, facts, reason, sizeof reason, detail,
                   sizeof detail, err);
    pthread_mutex_lock(&rs->lock);
    wk->busy_since = 0;
    pthread_mutex_unlock(&rs->lock);
    if (rc != 0) {
        cupti_point_free(&cp);
        return rc;
    }
    r.ended = unix_now();
    /* A fault that kills the context fails every later point of this device in this
     * process: store this one with why, and stop the run for a new process to resume. */
    char lost[sizeof rs->res->context_lost] = "";
    if (strcmp(r.status, "failed") == 0 && sp->point.variant->needs_gpu &&
        device_context_lost(lost, sizeof lost)) {
        dm_append(reason, sizeof reason, "; the CUDA context is lost (%s)", lost);
        pthread_mutex_lock(&rs->lock);
        snprintf(rs->res->context_lost, sizeof rs->res->context_lost, "%s", lost);
        stop_requested = 1;
        pthread_mutex_unlock(&rs->lock);
    }
    r.reason = reason;
    r.verify_detail = detail;
    write_job job = { .kind = WRITE_POINT, .r = &r, .err = err };
    rc = write_sink(rs, &job);
    char outcome[sizeof reason + 64];
    if (r.m)
        progress_outcome(&m, outcome, sizeof outcome);
    else
        snprintf(outcome, sizeof outcome, "%s: %s", r.status, reason);
    measure_free(&m);
    cupti_point_free(&cp);
    if (rc != 0)
        return rc;
    pthread_mutex_lock(&rs->lock);
    dm_run_result *res = rs->res;
    if (strcmp(r.status, "ok") == 0)
        res->ok++;
    else if (strcmp(r.status, "failed") == 0) {
        res->failed++;
        progress_note(rs->progress, 1, "point %zu (%s) failed: %s", idx, label, reason);
    } else if (strcmp(r.status, "skipped") == 0)
        res->skipped++;
    else
        res->pruned++;
    progress_done(rs->progress, label, outcome);
    pthread_mutex_unlock(&rs->lock);
    return 0;
}

/* Ends the process over worker wk's point, which has run past the time limit: a point
 * cannot be stopped from outside (a kernel that never returns, say), so the point is
 * stored as failed and the run as interrupted through the sink's own connection, and
 * the process exits 1 with one line. Called with the run's lock held; does not return. */
static void abandon_point(run_state *rs, worker *wk)
{
    const dm_point *pt = &wk->busy_sp->point;
    char reason[256], params[DM_KEY_MAX];
    dm_err err = { 0 };
    snprintf(reason, sizeof reason, "ran past the point time limit of %g s (--point-timeout); "
             "the process was ended", rs->point_timeout);
    dm_point_result r = { .run_id = rs->run_id, .index = (int64_t)wk->busy_idx, .point = pt,
                          .dataset_id = wk->ds_open ? wk->ds_id : 0, .device = wk->ex.device,
                          .status = "failed", .reason = reason, .verify = "not-run",
                          .verify_detail = "", .started = wk->busy_since, .ended = unix_now() };
    int rc = rs->sink->ops->abandon(rs->sink->ctx, &r, &err);
    dm_point_format(pt, params, sizeof params);
    if (rc)
        fprintf(stderr, "dmbench: error: point %zu (%s %s) ran past the point time limit of "
                "%g s, and storing that failed: %s\n", wk->busy_idx, pt->variant->name, params,
                rs->point_timeout, err.msg);
    else
        fprintf(stderr, "dmbench: error: point %zu (%s %s) ran past the point time limit of "
                "%g s; run %lld stopped there, and `dmbench run --resume` continues it "
                "without that point\n", wk->busy_idx, pt->variant->name, params,
                rs->point_timeout, (long long)rs->run_id);
    fflush(stderr);
    _exit(1); /* the status of a run that failed (cli.h's DM_EXIT_FAIL) */
}

/* The watchdog: every 50 ms, whether a worker's point has run past the time limit. */
static void *watchdog_thread(void *arg)
{
    run_state *rs = arg;
    for (;;) {
        struct timespec nap = { .tv_nsec = 50 * 1000 * 1000 };
        nanosleep(&nap, NULL);
        pthread_mutex_lock(&rs->lock);
        if (rs->watch_stop) {
            pthread_mutex_unlock(&rs->lock);
            return NULL;
        }
        double now = unix_now();
        for (int i = 0; i < rs->nw; i++)
            if (rs->wks[i].busy_since > 0 && now - rs->wks[i].busy_since > rs->point_timeout)
                abandon_point(rs, &rs->wks[i]);
        pthread_mutex_unlock(&rs->lock);
    }
}

/* The GPUs a point uses: its "gpus" for a multi-GPU variant, else 1. */
static int64_t point_gpus(const dm_point *pt)
{
    return pt->variant->multi_gpu ? dm_point_int(pt, "gpus") : 1;
}

/* Takes points from the queue until it is empty, the run halts or SIGINT asks to stop.
 * Returns 0, or the status (in wk->err) that halted the run. */
static int work_points(worker *wk)
{
    run_state *rs = wk->rs;
    for (;;) {
        pthread_mutex_lock(&rs->lock);
        int stop = stop_requested || rs->halt || rs->next >= rs->norder;
        size_t idx = stop ? 0 : rs->order[rs->next++];
        pthread_mutex_unlock(&rs->lock);
        int rc = 0;
        if (!stop && rs->threaded) {
            if (point_gpus(&rs->e->points[idx].point) > 1)
                pthread_rwlock_wrlock(&rs->alone);
            else
                pthread_rwlock_rdlock(&rs->alone);
            rc = run_one(wk, idx);
            pthread_rwlock_unlock(&rs->alone);
        } else if (!stop) {
            rc = run_one(wk, idx);
        }
        if (stop || rc) {
            pthread_mutex_lock(&rs->lock);
            rs->halt |= rc != 0;
            pthread_mutex_unlock(&rs->lock);
            return rc;
        }
    }
}

static void *worker_thread(void *arg)
{
    worker *wk = arg;
    run_state *rs = wk->rs;
    /* the device is current per thread; its stream and memory were made on this one's */
    wk->rc = wk->ex.device && DM_CUDA(&wk->err, cudaSetDevice(wk->ex.device->index))
                 ? wk->err.code
                 : work_points(wk);
    pthread_mutex_lock(&rs->lock);
    rs->halt |= wk->rc != 0;
    rs->workers_left--;
    pthread_cond_signal(&rs->wake);
    pthread_mutex_unlock(&rs->lock);
    return NULL;
}

/* Runs the queue with workers wks[0..n): on this thread when n is 1, else a thread each
 * while this one writes for them. Returns 0, or the error that halted the run into err
 * (bad input first: it discards the run). */
static int run_points(run_state *rs, worker *wks, int n, dm_err *err)
{
    int started = 0, rc = 0;
    if (n == 1) {
        wks[0].rc = work_points(&wks[0]);
    } else {
        rs->threaded = 1;
        rs->workers_left = n;
        for (; started < n; started++)
            if (pthread_create(&wks[started].thread, NULL, worker_thread, &wks[started]) != 0)
                break;
        pthread_mutex_lock(&rs->lock);
        rs->workers_left -= n - started;
        if (started < n) {
            rs->halt = 1;
            wks[started].rc = dm_err_set(&wks[started].err, DM_ERUNTIME, "cannot start "
                                         "worker %d of %d", started + 1, n);
        }
        pthread_mutex_unlock(&rs->lock);
        serve_writes(rs);
        for (int i = 0; i < started; i++)
            pthread_join(wks[i].thread, NULL);
        rs->threaded = 0;
    }
    for (int i = 0; i < n; i++)
        if (wks[i].rc && (!rc || wks[i].rc == DM_EINPUT)) {
            rc = wks[i].rc;
            *err = wks[i].err;
        }
    return rc;
}

/* Readies worker wk of rs on device dev (NULL: none), on this thread: the device
 * current, a stream, its memory pool kept, a measurement context. Returns 0 or the
 * error. */
static int worker_open(worker *wk, run_state *rs, const dm_device *dev, dm_err *err)
{
    int rc;
    wk->rs = rs;
    wk->ex.device = dev;
    if (dev) {
        cudaStream_t stream;
        if (DM_CUDA(err, cudaSetDevice(dev->index)) ||
            DM_CUDA(err, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)))
            return err->code;
        wk->ex.stream = stream;
        /* A card this build has no code for skips the GPU points, saying what to rebuild,
         * rather than fail each with cudaErrorNoKernelImageForDevice. */
        dm_arch_choice c;
        if (arch_choose(dm_cuda_archs, dev->cc_major, dev->cc_minor, &c, NULL) == 0 &&
            c.code == DM_ARCH_NONE) {
            int k = snprintf(wk->no_code, sizeof wk->no_code,
                             "GPU %d (%s) is compute capability %d.%d; kernels: ", dev->index,
                             dev->name, dev->cc_major, dev->cc_minor);
            arch_describe(&c, dm_cuda_archs, dev->cc_major, dev->cc_minor, wk->no_code + k,
                          sizeof wk->no_code - (size_t)k);
        }
        /* The pool keeps up to a quarter of the card's memory between points. */
        if ((rc = dm_gpu_pool_keep(dev->index, (uint64_t)dev->mem_bytes / 4, err)))
            return rc;
    }
    return measure_ctx_create(&wk->ex, &wk->mc, err);
}

/* Gives each of workers wks[0..n) the run's GPUs, its own first (ex.gpus). */
static void worker_gpus(worker *wks, int n)
{
    for (int i = 0; i < n; i++) {
        worker *wk = &wks[i];
        if (!wk->ex.device)
            continue;
        wk->gpus[wk->ex.ngpus++] = wk->ex.device;
        for (int j = 0; j < n; j++)
            if (j != i && wks[j].ex.device)
                wk->gpus[wk->ex.ngpus++] = wks[j].ex.device;
        wk->ex.gpus = wk->gpus;
    }
}

static void worker_close(worker *wk)
{
    if (!wk->rs)
        return;
    close_dataset(wk);
    measure_ctx_free(wk->mc);
    if (wk->ex.stream)
        DM_CUDA_WARN(cudaStreamDestroy((cudaStream_t)wk->ex.stream));
}

/* Notes the run's devices, one worker each, as "devices" ("0 NAME UUID; 1 ..."). Returns
 * 0 or DM_ERUNTIME. */
static int note_devices(run_state *rs, const worker *wks, int n, dm_err *err)
{
    char list[2048] = "";
    for (int i = 0; i < n; i++) {
        const dm_device *d = wks[i].ex.device;
        if (d)
            dm_append(list, sizeof list, "%s%d %s %s", list[0] ? "; " : "", d->index, d->name,
                      d->uuid);
        else
            dm_append(list, sizeof list, "%sno GPU", list[0] ? "; " : "");
    }
    return SINK(rs, run_note, rs->run_id, "devices", list, err);
}

int runner_run(const dm_sweep *s, const dm_expansion *e, const dm_run_opts *o,
               dm_run_result *res, dm_err *err)
{
    int nw = o->ndevices > 1 ? o->ndevices : 1;
    run_state rs = { .sweep = s, .w = sweep_workload(s), .sink = o->sink, .e = e,
                     .resume = o->resume, .res = res };
    dm_progress progress;
    size_t norder = 0, *order = NULL;
    worker *wks = calloc((size_t)nw, sizeof *wks);
    int rc = 0;
    struct sigaction sa = { .sa_handler = on_sigint }, old_sa;
    memset(res, 0, sizeof *res);
    rs.progress = &progress;
    pthread_rwlockattr_t alone_attr;
    pthread_rwlockattr_init(&alone_attr);
    /* a point waiting to run alone goes before points that come after it */
    pthread_rwlockattr_setkind_np(&alone_attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&rs.alone, &alone_attr);
    pthread_rwlockattr_destroy(&alone_attr);
    pthread_mutex_init(&rs.lock, NULL);
    pthread_cond_init(&rs.wake, NULL);
    pthread_cond_init(&rs.written, NULL);

    order = runner_order(e, o->shard, &norder);
    progress_begin(&progress, o->progress, norder);
    if (!order || !wks) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory ordering %zu points", e->n);
        goto out;
    }
    rs.order = order;
    rs.norder = norder;
    for (int i = 0; i < nw; i++)
        if ((rc = worker_open(&wks[i], &rs, nw > 1 ? o->devices[i] : o->device, err)))
            goto out;
    worker_gpus(wks, nw);
    if (!o->device && runner_has_gpu_variants(s))
        progress_note(&progress, 1, "no GPU (%s): the GPU variants' points are skipped",
                      o->no_gpu_reason ? o->no_gpu_reason : "none found");
    for (int i = 0; i < nw; i++)
        if (wks[i].no_code[0] && runner_has_gpu_variants(s))
            progress_note(&progress, 1, "%s: the GPU variants' points are skipped",
                          wks[i].no_code);
    if (nw == 1 && o->device && runner_has_gpu_variants(s) &&
        (rc = open_cupti(&rs, o, err)) != 0)
        goto out;
    /* Bad data is found before the run is recorded (so the database is not touched):
     * open the first point's dataset, and make its CPU reference (its worker needs it
     * first anyway), which refuses a bad problem input (an episodes file, say). */
    for (size_t i = 0; i < norder; i++) {
        const dm_sweep_point *sp = &e->points[order[i]];
        dm_err ref_err = { 0 };
        if (sp->pruned || (sp->point.variant->needs_gpu && !o->device))
            continue;
        if ((rc = ensure_dataset(&wks[0], &sp->point, err)) != 0)
            goto out;
        if (ensure_reference(&wks[0], &sp->point, &ref_err) == DM_EINPUT) {
            rc = reference_refused(&sp->point, &ref_err, err);
            goto out;
        }
        break;
    }
    if ((rc = SINK(&rs, open, err)) != 0)
        goto out;
    rs.sink_open = 1;
    if ((rc = runner_record_begin(rs.sink, s, rs.w, rs.progress, wks[0].mc, e, o, &rs.run_id,
                                  err)) != 0)
        goto out;
    res->run_id = rs.run_id;
    if ((wks[0].ds_open && (rc = SINK(&rs, dataset, &wks[0].ds, &wks[0].ds_id, err)) != 0) ||
        (o->device && (rc = runner_note_device(rs.sink, rs.run_id, o->device, err)) != 0) ||
        (rs.cupti && (rc = runner_note_cupti(rs.sink, rs.run_id, rs.cupti, rs.profile,
                                             rs.trace, o->metrics, err)) != 0) ||
        (nw > 1 && (rc = note_devices(&rs, wks, nw, err)) != 0))
        goto out;

    stop_requested = 0;
    sigaction(SIGINT, &sa, &old_sa);
    rs.point_timeout = o->point_timeout;
    rs.wks = wks;
    rs.nw = nw;
    int watching = o->point_timeout > 0 &&
                   pthread_create(&rs.watchdog, NULL, watchdog_thread, &rs) == 0;
    if (o->point_timeout > 0 && !watching)
        progress_note(&progress, 1, "no watchdog thread: --point-timeout is not enforced");
    rc = run_points(&rs, wks, nw, err);
    if (watching) {
        pthread_mutex_lock(&rs.lock);
        rs.watch_stop = 1;
        pthread_mutex_unlock(&rs.lock);
        pthread_join(rs.watchdog, NULL);
    }
    sigaction(SIGINT, &old_sa, NULL);
    res->interrupted = stop_requested && rc == 0;
    if (rc == DM_EINPUT) {
        dm_err keep = *err;
        SINK(&rs, run_discard, rs.run_id, err);
        *err = keep;
        res->run_id = 0;
    } else {
        /* A run none of whose measured points came out is not complete. */
        const char *status = rc != 0 || (res->failed > 0 && res->ok == 0) ? "failed"
                             : res->interrupted                          ? "interrupted"
                                                                         : "complete";
        dm_err end_err = { 0 };
        if (SINK(&rs, run_end, rs.run_id, status, &end_err) != 0 && rc == 0) {
            *err = end_err;
            rc = end_err.code;
        }
    }
out:
    progress_end(&progress);
    for (int i = 0; wks && i < nw; i++)
        worker_close(&wks[i]);
    cupti_close(rs.cupti);
    rs.sink->ops->close(rs.sink->ctx);
    free(order);
    free(wks);
    pthread_cond_destroy(&rs.written);
    pthread_cond_destroy(&rs.wake);
    pthread_mutex_destroy(&rs.lock);
    pthread_rwlock_destroy(&rs.alone);
    return rc;
}
