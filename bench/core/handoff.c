/* handoff.c - worker threads kept alive across rounds: the calling thread publishes a
 * round and broadcasts `go`, does worker 0's part itself, and sleeps on `done` until the
 * other threads have each done theirs and counted themselves (the last one signals).
 * Rounds are numbered, so a thread that wakes for nothing (or late) knows whether a round
 * is new. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "handoff.h"

typedef struct dm_handoff_thread {
    dm_handoff *h;
    int i;
    pthread_t tid;
    int rc;     /* its part of the last round */
    dm_err err;
} dm_handoff_thread;

struct dm_handoff {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    uint64_t round;  /* rounds handed out */
    int finished;    /* threads done with the current round */
    int stop;
    dm_handoff_fn fn;
    void *ctx;
    int n;
    dm_handoff_thread t[DM_HANDOFF_MAX];
};

static void *dm_handoff_main(void *arg)
{
    dm_handoff_thread *t = arg;
    dm_handoff *h = t->h;
    uint64_t seen = 0;
    pthread_mutex_lock(&h->lock);
    for (;;) {
        while (!h->stop && h->round == seen)
            pthread_cond_wait(&h->go, &h->lock);
        if (h->stop)
            break;
        seen = h->round;
        dm_handoff_fn fn = h->fn;
        void *ctx = h->ctx;
        pthread_mutex_unlock(&h->lock);
        dm_err_clear(&t->err);
        t->rc = fn(ctx, t->i, &t->err);
        pthread_mutex_lock(&h->lock);
        if (++h->finished == h->n - 1)
            pthread_cond_signal(&h->done);
    }
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

/* Stops and joins threads 1 .. made of h, then frees it. */
static void dm_handoff_end(dm_handoff *h, int made)
{
    pthread_mutex_lock(&h->lock);
    h->stop = 1;
    pthread_cond_broadcast(&h->go);
    pthread_mutex_unlock(&h->lock);
    for (int i = 1; i <= made; i++)
        pthread_join(h->t[i].tid, NULL);
    pthread_cond_destroy(&h->done);
    pthread_cond_destroy(&h->go);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

int dm_handoff_start(int n, dm_handoff **out, dm_err *err)
{
    *out = NULL;
    if (n < 1 || n > DM_HANDOFF_MAX)
        return dm_err_set(err, DM_ERUNTIME, "%d worker threads asked, expected 1 to %d", n,
                          DM_HANDOFF_MAX);
    dm_handoff *h = calloc(1, sizeof *h);
    if (!h)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for %d worker threads", n);
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->go, NULL);
    pthread_cond_init(&h->done, NULL);
    h->n = n;
    h->t[0] = (dm_handoff_thread){.h = h, .i = 0}; /* the calling thread's */
    for (int i = 1; i < n; i++) {
        h->t[i] = (dm_handoff_thread){.h = h, .i = i};
        int e = pthread_create(&h->t[i].tid, NULL, dm_handoff_main, &h->t[i]);
        if (e) {
            dm_handoff_end(h, i - 1);
            return dm_err_set(err, DM_ERUNTIME, "cannot start worker thread %d of %d: %s", i,
                              n, strerror(e));
        }
    }
    *out = h;
    return 0;
}

int dm_handoff_round(dm_handoff *h, dm_handoff_fn fn, void *ctx, dm_err *err)
{
    pthread_mutex_lock(&h->lock);
    h->fn = fn;
    h->ctx = ctx;
    h->finished = 0;
    h->round++;
    if (h->n > 1)
        pthread_cond_broadcast(&h->go);
    pthread_mutex_unlock(&h->lock);
    dm_err_clear(&h->t[0].err);
    h->t[0].rc = fn(ctx, 0, &h->t[0].err);
    pthread_mutex_lock(&h->lock);
    while (h->finished < h->n - 1)
        pthread_cond_wait(&h->done, &h->lock);
    pthread_mutex_unlock(&h->lock);
    for (int i = 0; i < h->n; i++)
        if (h->t[i].rc) {
            if (err)
                *err = h->t[i].err;
            return h->t[i].rc;
        }
    return 0;
}

void dm_handoff_stop(dm_handoff *h)
{
    if (h)
        dm_handoff_end(h, h->n - 1);
}
