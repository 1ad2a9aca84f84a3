/* cl_par.c - the colocation miners' parallel for: a team of pthreads started per call,
 * taking chunks from a shared counter; the results do not depend on who ran what. */
#include <pthread.h>
#include <unistd.h>

#include "coloc/cl_index.h"

typedef struct cl_par_job {
    void (*fn)(void *ctx, int chunk);
    void *ctx;
    int nchunks;
    int next; /* the next chunk to take (atomically) */
} cl_par_job;

static void *cl_par_worker(void *arg)
{
    cl_par_job *job = arg;
    for (;;) {
        int c = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        if (c >= job->nchunks)
            return NULL;
        job->fn(job->ctx, c);
    }
}

int cl_par_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void cl_par_for(int threads, int nchunks, void (*fn)(void *ctx, int chunk), void *ctx)
{
    cl_par_job job = {.fn = fn, .ctx = ctx, .nchunks = nchunks};
    if (threads > nchunks)
        threads = nchunks;
    pthread_t tid[256];
    int started = 0;
    for (int t = 1; t < threads && t < 256; t++) {
        if (pthread_create(&tid[started], NULL, cl_par_worker, &job) != 0)
            break;
        started++;
    }
    cl_par_worker(&job);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}
