/* clock.c - the host clock the engine times CPU variants and warm-ups with:
 * CLOCK_MONOTONIC, which never steps backwards when the wall clock is adjusted. */
#include <time.h>

#include "measure.h"

double dm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
