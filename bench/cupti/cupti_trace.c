/* cupti_trace.c - stream timelines: an unprofiled pass with the Activity API recording
 * every kernel (concurrent-kernel records: plain kernel records would serialise them) and
 * every copy with its stream and times, and the overlap of a point's timeline (time with
 * two or more activities in flight over the span). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cupti_activity.h>

#include "cupti_int.h"

#define TRACE_BUFFER_BYTES (1 << 20)
#define TRACE_MAX_ACTIVITIES 1000000

/* CUPTI hands completed buffers to callbacks that carry no user pointer, possibly on its
 * own thread: what they collect lives here, under a lock. */
static struct {
    pthread_mutex_t lock;
    int registered;
    dm_activity *acts;
    size_t n, cap;
    uint64_t t0; /* the earliest start seen */
    int oom;
    size_t dropped;
} trace = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void CUPTIAPI trace_buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, TRACE_BUFFER_BYTES); /* records must be 8-byte aligned */
    *size = *buf ? TRACE_BUFFER_BYTES : 0;
    *max_records = 0;
}

/* Appends a, or flags the collection when it is full or out of memory. Lock held. */
static void trace_put(const dm_activity *a)
{
    if (trace.n == trace.cap) {
        size_t cap = trace.cap ? 2 * trace.cap : 256;
        dm_activity *grown = cap <= TRACE_MAX_ACTIVITIES
                                 ? realloc(trace.acts, cap * sizeof *grown) : NULL;
        if (!grown) {
            trace.oom = 1;
            return;
        }
        trace.acts = grown;
        trace.cap = cap;
    }
    trace.acts[trace.n++] = *a;
}

static const char *trace_copy_kind(uint8_t kind)
{
    static const char *const names[] = {
        [CUPTI_ACTIVITY_MEMCPY_KIND_HTOD] = "memcpy HtoD",
        [CUPTI_ACTIVITY_MEMCPY_KIND_DTOH] = "memcpy DtoH",
        [CUPTI_ACTIVITY_MEMCPY_KIND_HTOA] = "memcpy HtoA",
        [CUPTI_ACTIVITY_MEMCPY_KIND_ATOH] = "memcpy AtoH",
        [CUPTI_ACTIVITY_MEMCPY_KIND_ATOA] = "memcpy AtoA",
        [CUPTI_ACTIVITY_MEMCPY_KIND_ATOD] = "memcpy AtoD",
        [CUPTI_ACTIVITY_MEMCPY_KIND_DTOA] = "memcpy DtoA",
        [CUPTI_ACTIVITY_MEMCPY_KIND_DTOD] = "memcpy DtoD",
        [CUPTI_ACTIVITY_MEMCPY_KIND_HTOH] = "memcpy HtoH",
        [CUPTI_ACTIVITY_MEMCPY_KIND_PTOP] = "memcpy PtoP",
    };
    return kind < sizeof names / sizeof names[0] && names[kind] ? names[kind] : "memcpy";
}

static void CUPTIAPI trace_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf,
                                            size_t size, size_t valid)
{
    CUpti_Activity *rec = NULL;
    size_t dropped = 0;
    (void)size;
    pthread_mutex_lock(&trace.lock);
    while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        dm_activity a = {.kind = DM_ACT_KERNEL};
        uint64_t start, end;
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
            cupti_kernel_name(k->name, a.name, sizeof a.name);
            a.stream = k->streamId;
            start = k->start, end = k->end;
            a.grid[0] = (unsigned)k->gridX, a.grid[1] = (unsigned)k->gridY;
            a.grid[2] = (unsigned)k->gridZ;
            a.block[0] = (unsigned)k->blockX, a.block[1] = (unsigned)k->blockY;
            a.block[2] = (unsigned)k->blockZ;
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)rec;
            a.kind = DM_ACT_MEMCPY;
            snprintf(a.name, sizeof a.name, "%s", trace_copy_kind(m->copyKind));
            a.stream = m->streamId;
            start = m->start, end = m->end;
            a.bytes = (int64_t)m->bytes;
        } else {
            continue;
        }
        if (trace.n == 0 || start < trace.t0)
            trace.t0 = start;
        a.start_ns = (int64_t)start; /* made relative to t0 when taken */
        a.end_ns = (int64_t)end;
        trace_put(&a);
    }
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        trace.dropped += dropped;
    pthread_mutex_unlock(&trace.lock);
    free(buf);
}

static int by_start(const void *a, const void *b)
{
    const dm_activity *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return (x->end_ns > y->end_ns) - (x->end_ns < y->end_ns);
}

typedef struct trace_edge {
    int64_t t;
    int delta; /* -1 (an end) sorts before +1 (a start) at equal times */
} trace_edge;

static int by_time(const void *a, const void *b)
{
    const trace_edge *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->delta - y->delta;
}

int cupti_overlap(const dm_activity *acts, size_t n, int64_t *span_ns, int64_t *overlap_ns,
                  dm_err *err)
{
    *span_ns = *overlap_ns = 0;
    if (n == 0)
        return 0;
    trace_edge *e = malloc(2 * n * sizeof *e);
    if (!e)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for %zu activities", n);
    int64_t first = acts[0].start_ns, last = acts[0].end_ns;
    for (size_t i = 0; i < n; i++) {
        e[2 * i] = (trace_edge){.t = acts[i].start_ns, .delta = 1};
        e[2 * i + 1] = (trace_edge){.t = acts[i].end_ns, .delta = -1};
        first = acts[i].start_ns < first ? acts[i].start_ns : first;
        last = acts[i].end_ns > last ? acts[i].end_ns : last;
    }
    qsort(e, 2 * n, sizeof *e, by_time);
    int in_flight = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        if (in_flight >= 2)
            *overlap_ns += e[i].t - e[i - 1].t;
        in_flight += e[i].delta;
    }
    *span_ns = last - first;
    free(e);
    return 0;
}

/* Takes what was collected into p (times from the first start, sorted by start). Returns
 * 0, or DM_ERUNTIME when out of memory. */
static int trace_take(dm_cupti_point *p, dm_err *err)
{
    pthread_mutex_lock(&trace.lock);
    p->acts = trace.acts;
    p->nacts = trace.n;
    uint64_t t0 = trace.t0;
    int oom = trace.oom;
    size_t dropped = trace.dropped;
    trace.acts = NULL;
    trace.n = trace.cap = 0;
    trace.oom = 0;
    trace.dropped = 0;
    pthread_mutex_unlock(&trace.lock);
    for (size_t i = 0; i < p->nacts; i++) {
        p->acts[i].start_ns -= (int64_t)t0;
        p->acts[i].end_ns -= (int64_t)t0;
    }
    qsort(p->acts, p->nacts, sizeof *p->acts, by_start);
    for (size_t i = 0; i < p->nacts; i++) {
        size_t j = 0;
        while (j < i && p->acts[j].stream != p->acts[i].stream)
            j++;
        p->streams += j == i;
    }
    if (oom || dropped)
        snprintf(p->trace_reason, sizeof p->trace_reason, "incomplete: %zu records dropped%s",
                 dropped, oom ? ", and the collection ran out of memory or room" : "");
    return cupti_overlap(p->acts, p->nacts, &p->span_ns, &p->overlap_ns, err);
}

/* Empties the collection. */
static void trace_reset(void)
{
    pthread_mutex_lock(&trace.lock);
    free(trace.acts);
    trace.acts = NULL;
    trace.n = trace.cap = 0;
    trace.oom = 0;
    trace.dropped = 0;
    pthread_mutex_unlock(&trace.lock);
}

/* Runs v on state with kernel and copy activity recorded, then flushes the records into
 * the collection. Returns 0, or -1 with CUPTI's, the runtime's or the variant's error. */
static int trace_run(const dm_variant *v, void *state, dm_err *err)
{
    int rc = -1;
    if (DM_CUPTI(err, cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)))
        return -1;
    if (DM_CUPTI(err, cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY)) == 0) {
        rc = v->run(state, err) || DM_CUDA(err, cudaDeviceSynchronize()) ? -1 : 0;
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    }
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (DM_CUPTI(rc ? NULL : err, cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED)))
        rc = -1;
    return rc;
}

int cupti_trace(dm_cupti *c, const dm_variant *v, void *state, dm_cupti_point *p)
{
    dm_err err = {0};
    (void)c;
    p->traced = 1;
    trace_reset();
    if (!trace.registered &&
        DM_CUPTI(&err, cuptiActivityRegisterCallbacks(trace_buffer_requested,
                                                      trace_buffer_completed))) {
        snprintf(p->trace_reason, sizeof p->trace_reason, "%s", err.msg);
        return 0;
    }
    trace.registered = 1;
    if (trace_run(v, state, &err)) {
        snprintf(p->trace_reason, sizeof p->trace_reason, "%s", err.msg);
        trace_reset();
        return 0;
    }
    return trace_take(p, &err) ? err.code : 0;
}
