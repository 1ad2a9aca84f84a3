/* test_episodes_handoff.c - the device threads of multi-GPU mining (ep_handoff), with CPU
 * work in place of the GPUs': over hundreds of rounds of uneven sizes and 1 to 8
 * threads, every slice of every round is done exactly once, by its own thread, which is
 * the same thread from the first round to the last; a failing thread is reported and the
 * next round runs; a hand-off that deadlocked would end the test on its alarm. */
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
#include "episodes/ep_split.h"

enum { MAX_ITEMS = 300 };

/* One round: n items split over the threads, each item's count of times done, each
 * thread's count of calls and the thread that made them; threads from fail_from on fail
 * (-1: none). */
typedef struct round_ctx {
    int threads;
    int64_t n;
    atomic_int done[MAX_ITEMS];
    atomic_int calls[EP_HANDOFF_MAX];
    pthread_t who[EP_HANDOFF_MAX];
    int fail_from;
    uint64_t jitter; /* which threads dawdle this round, a bit each */
} round_ctx;

static void dawdle(void)
{
    struct timespec ts = {.tv_sec = 0, .tv_nsec = 20000};
    nanosleep(&ts, NULL);
}

static int slice_work(void *ctx, int worker, dm_err *err)
{
    round_ctx *c = ctx;
    int64_t first, n;
    atomic_fetch_add(&c->calls[worker], 1);
    c->who[worker] = pthread_self();
    if (c->jitter >> worker & 1)
        dawdle();
    else
        sched_yield();
    ep_split(c->n, c->threads, worker, &first, &n);
    for (int64_t i = first; i < first + n; i++)
        atomic_fetch_add(&c->done[i], 1);
    if (c->fail_from >= 0 && worker >= c->fail_from)
        return dm_err_set(err, DM_EINPUT, "thread %d failed", worker);
    return 0;
}

static void round_reset(round_ctx *c, int threads, int64_t n, uint64_t jitter)
{
    c->threads = threads;
    c->n = n;
    c->fail_from = -1;
    c->jitter = jitter;
    for (int i = 0; i < MAX_ITEMS; i++)
        atomic_store(&c->done[i], 0);
    for (int i = 0; i < EP_HANDOFF_MAX; i++)
        atomic_store(&c->calls[i], 0);
}

/* Every item of the round done once, and every thread called once. */
static void round_check(round_ctx *c)
{
    for (int64_t i = 0; i < c->n; i++)
        if (atomic_load(&c->done[i]) != 1)
            fail_msg("%d threads, %lld items: item %lld done %d times", c->threads,
                     (long long)c->n, (long long)i, atomic_load(&c->done[i]));
    for (int i = 0; i < c->threads; i++)
        if (atomic_load(&c->calls[i]) != 1)
            fail_msg("%d threads: thread %d called %d times", c->threads, i,
                     atomic_load(&c->calls[i]));
}

static void every_slice_is_done_once_by_the_same_thread_every_round(void **state)
{
    (void)state;
    static round_ctx c;
    uint64_t x = 12345;
    for (int threads = 1; threads <= 8; threads++) {
        ep_handoff *h;
        dm_err err = {0};
        pthread_t first[EP_HANDOFF_MAX];
        assert_int_equal(ep_handoff_start(threads, &h, &err), 0);
        for (int round = 0; round < 400; round++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            /* sizes from none to MAX_ITEMS - 1: fewer items than threads too */
            int64_t n = round % 10 == 0 ? round % threads : (int64_t)(x >> 33) % MAX_ITEMS;
            round_reset(&c, threads, n, round % 3 ? x >> 20 : 0);
            assert_int_equal(ep_handoff_round(h, slice_work, &c, &err), 0);
            round_check(&c);
            for (int i = 0; i < threads; i++) {
                if (round == 0)
                    first[i] = c.who[i];
                assert_true(pthread_equal(first[i], c.who[i]));
                assert_false(pthread_equal(c.who[i], pthread_self()));
                for (int k = 0; k < i; k++)
                    assert_false(pthread_equal(c.who[i], c.who[k]));
            }
        }
        ep_handoff_stop(h);
    }
}

static void a_failing_thread_is_reported_and_the_next_round_runs(void **state)
{
    (void)state;
    static round_ctx c;
    ep_handoff *h;
    dm_err err = {0};
    assert_int_equal(ep_handoff_start(4, &h, &err), 0);
    round_reset(&c, 4, 10, 0x5);
    c.fail_from = 2;
    assert_int_equal(ep_handoff_round(h, slice_work, &c, &err), DM_EINPUT);
    assert_string_equal(err.msg, "thread 2 failed"); /* the lowest of those that failed */
    round_check(&c); /* the others' parts ran all the same */
    round_reset(&c, 4, 10, 0);
    dm_err_clear(&err);
    assert_int_equal(ep_handoff_round(h, slice_work, &c, &err), 0);
    round_check(&c);
    ep_handoff_stop(h);
}

static void threads_start_and_stop_without_a_round(void **state)
{
    (void)state;
    dm_err err = {0};
    for (int threads = 1; threads <= EP_HANDOFF_MAX; threads++) {
        ep_handoff *h;
        assert_int_equal(ep_handoff_start(threads, &h, &err), 0);
        ep_handoff_stop(h);
    }
    ep_handoff_stop(NULL);
    ep_handoff *h;
    assert_int_equal(ep_handoff_start(0, &h, &err), DM_ERUNTIME);
    assert_int_equal(ep_handoff_start(EP_HANDOFF_MAX + 1, &h, &err), DM_ERUNTIME);
    char expected[32];
    snprintf(expected, sizeof expected, "expected 1 to %d", EP_HANDOFF_MAX);
    assert_non_null(strstr(err.msg, expected));
}

int main(void)
{
    /* A hand-off that deadlocks ends the test here (SIGALRM) rather than at ctest's
     * timeout; the whole file takes about a second. */
    alarm(120);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_slice_is_done_once_by_the_same_thread_every_round),
        cmocka_unit_test(a_failing_thread_is_reported_and_the_next_round_runs),
        cmocka_unit_test(threads_start_and_stop_without_a_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
