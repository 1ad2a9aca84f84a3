/* clock.c - the host core's clock, measured on the monotonic clock (dm_now, now.c). */
#include <stdint.h>

#include "measure.h"

double dm_host_mhz(void)
{
    enum { ROUNDS = 3, STEPS = 25000, ADDS = 8 };
    uint64_t x = 0, y = 1;
    double best = 0;
    __asm__ volatile("" : "+r"(y)); /* y unknown: no add of a constant to fold away */
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = dm_now();
        for (int i = 0; i < STEPS; i++)
#pragma GCC unroll 8 /* ADDS adds to one loop branch */
            for (int k = 0; k < ADDS; k++) {
                x += y;
                __asm__ volatile("" : "+r"(x)); /* each add done, in order */
            }
        double t = dm_now() - t0;
        if (t > 0 && (double)STEPS * ADDS / t > best)
            best = (double)STEPS * ADDS / t;
    }
    return best * 1e-6;
}
