/* ep_cpu_mt.c - the papers' multi-core CPU baseline: Algorithm 1 (ep_count) across
 * episodes on every core, episodes handed out one at a time from a shared counter so
 * that long and short ones balance, each counted over only the events of its own types;
 * and PreElim's upper bound (Algorithm 3) the same way, for the CPU two-pass baseline. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "episodes/ep_machine.h"

typedef struct ep_mt_shared {
    const ep_stream *s;
    const ep_episode *eps;
    int64_t n;
    ep_interval iv;
    int bound; /* PreElim's relaxed count instead of Algorithm 1's */
    int64_t *counts;
    ep_by_type by;
    atomic_int_fast64_t next; /* the next episode nobody has taken */
    atomic_int failed;        /* set when a worker ran out of memory */
} ep_mt_shared;

typedef struct ep_mt_worker {
    ep_mt_shared *sh;
    int32_t *type; /* the current episode's events, in stream order */
    double *time;
    int64_t cap;
} ep_mt_worker;

/* Writes into w the events of e's types in stream order (a merge of their runs).
 * Returns how many, or -1 without memory. */
static int64_t ep_mt_gather(ep_mt_worker *w, const ep_episode *e)
{
    const ep_by_type *b = &w->sh->by;
    int32_t types[EP_MAX_LEVEL];
    int64_t at[EP_MAX_LEVEL];
    int d = 0;
    int64_t total = 0;
    for (int k = 0; k < e->n; k++) {
        int seen = 0;
        for (int j = 0; j < d; j++)
            seen |= types[j] == e->ev[k];
        if (seen)
            continue;
        types[d] = e->ev[k];
        at[d] = b->first[e->ev[k]];
        total += b->first[e->ev[k] + 1] - 1 - at[d];
        d++;
    }
    if (total > w->cap) {
        int32_t *type = realloc(w->type, (size_t)total * sizeof *type);
        if (type)
            w->type = type;
        double *time = realloc(w->time, (size_t)total * sizeof *time);
        if (time)
            w->time = time;
        if (!type || !time)
            return -1;
        w->cap = total;
    }
    for (int64_t m = 0; m < total; m++) {
        int best = 0;
        int64_t first = b->pos[at[0]];
        for (int j = 1; j < d; j++) {
            int64_t p = b->pos[at[j]];
            best = p < first ? j : best;
            first = p < first ? p : first;
        }
        w->type[m] = types[best];
        w->time[m] = b->time[at[best]++];
    }
    return total;
}

/* PreElim's relaxed count of e over the m events of its types gathered in w. */
static int64_t ep_mt_bound(const ep_mt_worker *w, int64_t m, const ep_episode *e)
{
    ep_preelim p;
    double times[EP_MAX_LEVEL - 1];
    int64_t count = 0;
    ep_preelim_init(&p, e, times, 1);
    for (int64_t j = 0; j < m; j++)
        count += ep_preelim_step(&p, e, w->type[j], w->time[j]);
    return count;
}

static void *ep_mt_work(void *arg)
{
    ep_mt_worker *w = arg;
    ep_mt_shared *sh = w->sh;
    while (!atomic_load_explicit(&sh->failed, memory_order_relaxed)) {
        int64_t i = atomic_fetch_add_explicit(&sh->next, 1, memory_order_relaxed);
        if (i >= sh->n)
            break;
        int64_t m = ep_mt_gather(w, &sh->eps[i]);
        ep_stream view = {
            .n = m, .type = w->type, .time = w->time, .ntypes = sh->s->ntypes,
            .names = sh->s->names,
        };
        int64_t c = m < 0      ? -1
                    : sh->bound ? ep_mt_bound(w, m, &sh->eps[i])
                                : ep_count(&view, &sh->eps[i], sh->iv);
        if (c < 0) {
            atomic_store(&sh->failed, 1);
            break;
        }
        sh->counts[i] = c;
    }
    return NULL;
}

/* ep_count_all_mt, or ep_bound_all_mt when bound. */
static int ep_all_mt(const ep_stream *s, const ep_episode *eps, int64_t n, ep_interval iv,
                     int bound, int threads, int64_t *counts, dm_err *err)
{
    if (n <= 0)
        return 0;
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)cores : 1;
    }
    if (threads > n)
        threads = (int)n;
    ep_mt_shared sh = {.s = s, .eps = eps, .n = n, .iv = iv, .bound = bound, .counts = counts};
    atomic_init(&sh.next, 0);
    atomic_init(&sh.failed, 0);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    ep_mt_worker *workers = calloc((size_t)threads, sizeof *workers);
    int started = 0, rc = 0;
    if (!tid || !workers || ep_by_type_build(s, &sh.by) != 0) {
        free(tid);
        free(workers);
        return dm_err_set(err, DM_ERUNTIME,
                          "episodes: out of memory counting %lld episodes", (long long)n);
    }
    for (int t = 0; t < threads; t++)
        workers[t].sh = &sh;
    /* Worker 0 is the calling thread. */
    for (int t = 1; t < threads; t++) {
        int perr = pthread_create(&tid[t], NULL, ep_mt_work, &workers[t]);
        if (perr) {
            atomic_store(&sh.failed, 1);
            rc = dm_err_set(err, DM_ERUNTIME, "episodes: cannot start thread %d of %d: %s",
                            t, threads, strerror(perr));
            break;
        }
        started = t;
    }
    if (rc == 0)
        ep_mt_work(&workers[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    if (rc == 0 && atomic_load(&sh.failed))
        rc = dm_err_set(err, DM_ERUNTIME,
                        "episodes: out of memory counting %lld episodes", (long long)n);
    for (int t = 0; t < threads; t++) {
        free(workers[t].type);
        free(workers[t].time);
    }
    ep_by_type_free(&sh.by);
    free(tid);
    free(workers);
    return rc;
}

int ep_count_all_mt(const ep_stream *s, const ep_episode *eps, int64_t n, ep_interval iv,
                    int threads, int64_t *counts, dm_err *err)
{
    return ep_all_mt(s, eps, n, iv, 0, threads, counts, err);
}

int ep_bound_all_mt(const ep_stream *s, const ep_episode *eps, int64_t n, int threads,
                    int64_t *counts, dm_err *err)
{
    return ep_all_mt(s, eps, n, 0, 1, threads, counts, err);
}
