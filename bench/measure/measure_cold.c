/* measure_cold.c - cold sampling: every sample is one execution on a cold cache (the
 * flush buffer is rewritten first: the GPU's L2, or the host's last-level cache for CPU
 * variants), like nvbench's measure_cold. The GPU flush is enqueued
 * before the start event, so the host has launched the execution while the GPU is still
 * flushing, and the events time the execution, not the host's launch gap. */
#include "measure_impl.h"

int measure_cold(dm_sampling *s, dm_err *err)
{
    int rc, done = 0;
    s->m->batch = 1;
    while (!done) {
        double seconds;
        if ((rc = measure_flush_cache(s, err)) || (rc = measure_timer_start(s, err)) ||
            (rc = measure_run(s, err)) || (rc = measure_timer_stop(s, &seconds, err)) ||
            (rc = measure_record(s, seconds, 1, &done, err)))
            return rc;
    }
    return DM_OK;
}
