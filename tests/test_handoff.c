/* test_handoff.c - worker threads kept across rounds (bench/core/handoff.c), with CPU
 * work: over hundreds of rounds of uneven sizes and 1 to 8 workers, every item of every
 * round is done exactly once, each worker's share by its thread (worker 0's by the
 * calling thread, the others' by threads of their own), which is the same thread from the
 * first round to the last and finds its err clear; the lowest-numbered
 * failing thread's status and message are the round's, and the next round runs; a
 * thread that cannot be made fails the start with the threads made before it stopped;
 * stop ends every thread. A hand-off that deadlocked would end the test on its alarm. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "handoff.h"

/* ---- thread creation, wrapped -------------------------------------------------------
 * tests/CMakeLists.txt links this test with -Wl,--wrap=pthread_create, so the hand-off's
 * threads are made here: creation fails with EAGAIN once creates_left successes are
 * used up (-1: never), and alive counts the threads made whose work has not returned. */

int __real_pthread_create(pthread_t *tid, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg);
int __wrap_pthread_create(pthread_t *tid, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg);

static atomic_int creates_left = -1;
static atomic_int alive;

typedef struct tramp {
    void *(*fn)(void *);
    void *arg;
} tramp;

static void *tramp_main(void *p)
{
    tramp t = *(tramp *)p;
    free(p);
    void *r = t.fn(t.arg);
    atomic_fetch_sub(&alive, 1);
    return r;
}

int __wrap_pthread_create(pthread_t *tid, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg)
{
    if (atomic_load(&creates_left) == 0)
        return EAGAIN;
    if (atomic_load(&creates_left) > 0)
        atomic_fetch_sub(&creates_left, 1);
    tramp *t = malloc(sizeof *t);
    if (!t)
        return ENOMEM;
    *t = (tramp){.fn = fn, .arg = arg};
    atomic_fetch_add(&alive, 1);
    int e = __real_pthread_create(tid, attr, tramp_main, t);
    if (e) {
        atomic_fetch_sub(&alive, 1);
        free(t);
    }
    return e;
}

/* ---- rounds -------------------------------------------------------------------------- */

enum { MAX_ITEMS = 300 };

/* One round: n items shared by the threads (thread w takes items w, w + threads, ...),
 * each item's count of times done, each thread's count of calls and the thread that made
 * them; the threads in fail_mask fail, thread 1 with DM_EINPUT and the others with
 * DM_ERUNTIME. */
typedef struct round_ctx {
    int threads;
    int64_t n;
    atomic_int done[MAX_ITEMS];
    atomic_int calls[DM_HANDOFF_MAX];
    pthread_t who[DM_HANDOFF_MAX];
    uint64_t fail_mask;
    uint64_t jitter; /* which threads dawdle this round, a bit each */
    atomic_int unclear; /* calls whose err was not clear */
} round_ctx;

static void dawdle(void)
{
    struct timespec ts = {.tv_sec = 0, .tv_nsec = 20000};
    nanosleep(&ts, NULL);
}

static int share_work(void *ctx, int worker, dm_err *err)
{
    round_ctx *c = ctx;
    atomic_fetch_add(&c->calls[worker], 1);
    c->who[worker] = pthread_self();
    if (err->code != DM_OK || err->msg[0])
        atomic_fetch_add(&c->unclear, 1);
    if (c->jitter >> worker & 1)
        dawdle();
    else
        sched_yield();
    for (int64_t i = worker; i < c->n; i += c->threads)
        atomic_fetch_add(&c->done[i], 1);
    if (c->fail_mask >> worker & 1)
        return dm_err_set(err, worker == 1 ? DM_EINPUT : DM_ERUNTIME, "thread %d failed",
                          worker);
    return 0;
}

static void round_reset(round_ctx *c, int threads, int64_t n, uint64_t jitter)
{
    c->threads = threads;
    c->n = n;
    c->fail_mask = 0;
    c->jitter = jitter;
    atomic_store(&c->unclear, 0);
    for (int i = 0; i < MAX_ITEMS; i++)
        atomic_store(&c->done[i], 0);
    for (int i = 0; i < DM_HANDOFF_MAX; i++)
        atomic_store(&c->calls[i], 0);
}

/* Every item of the round done once, and every thread called once, with err clear. */
static void round_check(round_ctx *c)
{
    assert_int_equal(atomic_load(&c->unclear), 0);
    for (int64_t i = 0; i < c->n; i++)
        if (atomic_load(&c->done[i]) != 1)
            fail_msg("%d threads, %lld items: item %lld done %d times", c->threads,
                     (long long)c->n, (long long)i, atomic_load(&c->done[i]));
    for (int i = 0; i < c->threads; i++)
        if (atomic_load(&c->calls[i]) != 1)
            fail_msg("%d threads: thread %d called %d times", c->threads, i,
                     atomic_load(&c->calls[i]));
}

static void every_share_is_done_once_by_the_same_thread_every_round(void **state)
{
    (void)state;
    static round_ctx c;
    uint64_t x = 12345;
    for (int threads = 1; threads <= 8; threads++) {
        dm_handoff *h;
        dm_err err = {0};
        pthread_t first[DM_HANDOFF_MAX];
        assert_int_equal(dm_handoff_start(threads, &h, &err), 0);
        assert_int_equal(atomic_load(&alive), threads - 1);
        for (int round = 0; round < 400; round++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            /* sizes from none to MAX_ITEMS - 1: fewer items than threads too */
            int64_t n = round % 10 == 0 ? round % threads : (int64_t)(x >> 33) % MAX_ITEMS;
            round_reset(&c, threads, n, round % 3 ? x >> 20 : 0);
            assert_int_equal(dm_handoff_round(h, share_work, &c, &err), 0);
            round_check(&c);
            for (int i = 0; i < threads; i++) {
                if (round == 0)
                    first[i] = c.who[i];
                assert_true(pthread_equal(first[i], c.who[i]));
                assert_int_equal(pthread_equal(c.who[i], pthread_self()) != 0, i == 0);
                for (int k = 0; k < i; k++)
                    assert_false(pthread_equal(c.who[i], c.who[k]));
            }
        }
        dm_handoff_stop(h);
        assert_int_equal(atomic_load(&alive), 0);
    }
}

static void the_lowest_failing_thread_is_reported_and_the_next_round_runs(void **state)
{
    (void)state;
    static round_ctx c;
    dm_handoff *h;
    dm_err err = {0};
    assert_int_equal(dm_handoff_start(6, &h, &err), 0);
    /* Threads 1, 4 and 5 fail; 1 dawdles, so it fails last. */
    round_reset(&c, 6, 40, 0x2);
    c.fail_mask = 0x32;
    assert_int_equal(dm_handoff_round(h, share_work, &c, &err), DM_EINPUT);
    assert_int_equal(err.code, DM_EINPUT);
    assert_string_equal(err.msg, "thread 1 failed");
    round_check(&c); /* the others' parts ran all the same */
    /* Without thread 1, thread 4's, though 5 fails first; no err to fill is fine. */
    round_reset(&c, 6, 40, 0x10);
    c.fail_mask = 0x30;
    dm_err_clear(&err);
    assert_int_equal(dm_handoff_round(h, share_work, &c, &err), DM_ERUNTIME);
    assert_string_equal(err.msg, "thread 4 failed");
    round_check(&c);
    round_reset(&c, 6, 40, 0);
    c.fail_mask = 0x30;
    assert_int_equal(dm_handoff_round(h, share_work, &c, NULL), DM_ERUNTIME);
    round_check(&c);
    /* A round after failures runs whole. */
    round_reset(&c, 6, 40, 0);
    dm_err_clear(&err);
    assert_int_equal(dm_handoff_round(h, share_work, &c, &err), 0);
    assert_int_equal(err.code, 0);
    round_check(&c);
    dm_handoff_stop(h);
    assert_int_equal(atomic_load(&alive), 0);
}

static void a_thread_that_cannot_be_made_fails_the_start_and_stops_the_others(void **state)
{
    (void)state;
    for (int made = 0; made < 4; made++) { /* threads 1 .. 4 of 5 workers */
        dm_handoff *h = (dm_handoff *)&h; /* anything but NULL, to see start clear it */
        dm_err err = {0};
        atomic_store(&creates_left, made);
        int rc = dm_handoff_start(5, &h, &err);
        atomic_store(&creates_left, -1);
        assert_int_equal(rc, DM_ERUNTIME);
        assert_int_equal(err.code, DM_ERUNTIME);
        assert_null(h);
        char expected[64];
        snprintf(expected, sizeof expected, "thread %d of 5: %s", made + 1, strerror(EAGAIN));
        assert_non_null(strstr(err.msg, expected));
        assert_int_equal(atomic_load(&alive), 0); /* those made, stopped and joined */
    }
}

static void threads_start_and_stop_without_a_round(void **state)
{
    (void)state;
    dm_err err = {0};
    for (int threads = 1; threads <= DM_HANDOFF_MAX; threads++) {
        dm_handoff *h;
        assert_int_equal(dm_handoff_start(threads, &h, &err), 0);
        assert_int_equal(atomic_load(&alive), threads - 1);
        dm_handoff_stop(h);
        assert_int_equal(atomic_load(&alive), 0);
    }
    dm_handoff_stop(NULL);
    dm_handoff *h;
    assert_int_equal(dm_handoff_start(0, &h, &err), DM_ERUNTIME);
    assert_null(h);
    assert_int_equal(dm_handoff_start(DM_HANDOFF_MAX + 1, &h, &err), DM_ERUNTIME);
    assert_null(h);
    char expected[32];
    snprintf(expected, sizeof expected, "expected 1 to %d", DM_HANDOFF_MAX);
    assert_non_null(strstr(err.msg, expected));
    assert_int_equal(atomic_load(&alive), 0);
}

int main(void)
{
    /* A hand-off that deadlocks ends the test here (SIGALRM) rather than at ctest's
     * timeout; the whole file takes about a second. */
    alarm(120);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_share_is_done_once_by_the_same_thread_every_round),
        cmocka_unit_test(the_lowest_failing_thread_is_reported_and_the_next_round_runs),
        cmocka_unit_test(a_thread_that_cannot_be_made_fails_the_start_and_stops_the_others),
        cmocka_unit_test(threads_start_and_stop_without_a_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
