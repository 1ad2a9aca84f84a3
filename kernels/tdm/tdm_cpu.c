/* tdm_cpu.c - counting on the CPU: the counting machine of the paper's §3.2 (the
 * reference and the `cpu` variant), the same across episodes on all cores (`cpu-mt`,
 * and what the workload's reference runs), and a brute-force count from the definition
 * for the tests. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tdm/tdm.h"

/* The machine is in state s when it has matched a_1..a_s; it advances on a_{s+1} only,
 * and on matching a_L it counts and starts over in state 0. Every other letter leaves
 * the state alone. This is the count of non-overlapped occurrences of §3.1: it ends
 * each counted occurrence as early as any occurrence can end, so (as for intervals
 * picked by earliest end) no set of disjoint occurrences is larger; tdm_brute_count
 * checks that in the tests.
 *
 * The paper's Fig. 3 also draws an edge from every state back to a_1's. Taken
 * literally, going back when a_1 turns up again would lose occurrences whose letters
 * are not adjacent: in A B A C, A->B->C occurs once (A B _ C), but a machine that goes
 * back to state 1 at the second A then waits for a B that never comes. The definition
 * wins: there is no such edge here, nor in any GPU kernel. */
uint32_t tdm_fsm_count(const uint8_t *sym, int64_t n, const uint8_t *ep, int level)
{
    uint32_t count = 0;
    int s = 0;
    uint8_t want = ep[0];
    for (int64_t i = 0; i < n; i++) {
        if (sym[i] != want)
            continue;
        if (++s == level) {
            count++;
            s = 0;
        }
        want = ep[s];
    }
    return count;
}

void tdm_cpu_count(const uint8_t *sym, int64_t n, const tdm_episodes *e, uint32_t *counts)
{
    for (int64_t i = 0; i < e->n; i++)
        counts[i] = tdm_fsm_count(sym, n, e->letters + i * e->level, e->level);
}

typedef struct tdm_mt_job {
    const uint8_t *sym;
    int64_t n;
    tdm_episodes part; /* a contiguous range of the episodes (letters borrowed) */
    uint32_t *counts;
} tdm_mt_job;

static void *tdm_mt_worker(void *arg)
{
    tdm_mt_job *job = arg;
    tdm_cpu_count(job->sym, job->n, &job->part, job->counts);
    return NULL;
}

int tdm_cpu_count_mt(const uint8_t *sym, int64_t n, const tdm_episodes *e, uint32_t *counts,
                     int threads, dm_err *err)
{
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)cores : 1;
    }
    if (threads > e->n)
        threads = e->n > 0 ? (int)e->n : 1;
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    tdm_mt_job *jobs = calloc((size_t)threads, sizeof *jobs);
    int started = 0, rc = 0;
    if (!tid || !jobs) {
        rc = dm_err_set(err, DM_ERUNTIME, "tdm: out of memory for %d threads", threads);
        goto done;
    }
    for (int t = 0; t < threads; t++) {
        int64_t lo = e->n * t / threads, hi = e->n * (t + 1) / threads;
        jobs[t] = (tdm_mt_job){
            .sym = sym,
            .n = n,
            .part = {.level = e->level, .n = hi - lo, .letters = e->letters + lo * e->level},
            .counts = counts + lo,
        };
    }
    /* Thread 0's share runs on the calling thread. */
    for (int t = 1; t < threads; t++) {
        int perr = pthread_create(&tid[t], NULL, tdm_mt_worker, &jobs[t]);
        if (perr) {
            rc = dm_err_set(err, DM_ERUNTIME, "tdm: cannot start thread %d of %d: %s", t,
                            threads, strerror(perr));
            break;
        }
        started = t;
    }
    if (rc == 0)
        tdm_mt_worker(&jobs[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
done:
    free(tid);
    free(jobs);
    return rc;
}

/* 1 when ep is a subsequence of sym[lo..hi]. */
static int tdm_occurs_within(const uint8_t *sym, int64_t lo, int64_t hi, const uint8_t *ep,
                             int level)
{
    int k = 0;
    for (int64_t i = lo; i <= hi && k < level; i++)
        k += sym[i] == ep[k];
    return k == level;
}

uint32_t tdm_brute_count(const uint8_t *sym, int64_t n, const uint8_t *ep, int level)
{
    /* best[i]: the most disjoint occurrences within sym[0..i). An occurrence ending at
     * or before i-1 and starting at p adds one to best[p]; best is non-decreasing, so
     * every start p is tried and the largest total kept. */
    uint32_t *best = calloc((size_t)n + 1, sizeof *best);
    if (!best)
        return UINT32_MAX;
    for (int64_t i = 1; i <= n; i++) {
        best[i] = best[i - 1];
        for (int64_t p = 0; p < i; p++)
            if (tdm_occurs_within(sym, p, i - 1, ep, level) && best[p] + 1 > best[i])
                best[i] = best[p] + 1;
    }
    uint32_t r = best[n];
    free(best);
    return r;
}
