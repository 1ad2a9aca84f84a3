/* measure_hot.c - hot sampling: every sample is a batch of back-to-back executions on
 * a warm L2, timed as one and divided by the batch size, like nvbench's measure_hot.
 * Batching lifts short executions well above the timer's resolution. */
#include <math.h>

#include "measure_impl.h"

#define MEASURE_HOT_BATCH_SECONDS 1e-3 /* a batch should take about this long */
#define MEASURE_HOT_MAX_BATCH 10000

/* The batch size that makes executions of per_run seconds last about
 * MEASURE_HOT_BATCH_SECONDS, within [1, MEASURE_HOT_MAX_BATCH]. */
static int measure_hot_batch_size(double per_run)
{
    if (!(per_run > 0.0))
        return MEASURE_HOT_MAX_BATCH;
    double b = ceil(MEASURE_HOT_BATCH_SECONDS / per_run);
    if (b < 1.0)
        return 1;
    return b > MEASURE_HOT_MAX_BATCH ? MEASURE_HOT_MAX_BATCH : (int)b;
}

/* Times batch executions; *seconds is the time of one. Returns 0, or the first error. */
static int measure_hot_batch(dm_sampling *s, int batch, double *seconds, dm_err *err)
{
    int rc;
    double total;
    if ((rc = measure_timer_start(s, err)))
        return rc;
    for (int i = 0; i < batch; i++)
        if ((rc = measure_run(s, err)))
            return rc;
    if ((rc = measure_timer_stop(s, &total, err)))
        return rc;
    *seconds = total / batch;
    return DM_OK;
}

int measure_hot(dm_sampling *s, dm_err *err)
{
    int rc, done = 0;
    int batch = measure_hot_batch_size(s->m->warmup_seconds);
    double seconds;
    if ((rc = measure_hot_batch(s, batch, &seconds, err)))
        return rc;
    /* A warm-up much slower than the executions of the first batch paid first-launch
     * costs (module loading, page faults, lazy allocation) and gave too small a batch:
     * size it once more from the first batch, which is then discarded, since every
     * sample must have the same batch size. */
    int keep = 1;
    if (s->m->warmup_seconds > 2.0 * seconds && measure_hot_batch_size(seconds) > batch) {
        batch = measure_hot_batch_size(seconds);
        keep = 0;
    }
    s->m->batch = batch;
    if (keep && (rc = measure_record(s, seconds, batch, &done, err)))
        return rc;
    while (!done) {
        if ((rc = measure_hot_batch(s, batch, &seconds, err)) ||
            (rc = measure_record(s, seconds, batch, &done, err)))
            return rc;
    }
    return DM_OK;
}
