/* now.c - the host's monotonic clock (dm_now, dm.h). */
#include <time.h>

#include "dm.h"

double dm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
