/* criterion_noise.c - the adaptive stopping rule (after nvbench's stdrel criterion):
 * sample until the relative standard deviation settles below max_noise, with time and
 * sample-count limits. Mean and variance are kept incrementally (Welford). */
#include <math.h>

#include "measure.h"

void criterion_noise_init(dm_criterion *c, const dm_measure_opts *o)
{
    c->min_samples = o->min_samples;
    c->max_noise = o->max_noise;
    c->max_time = o->max_time;
    c->max_samples = o->max_samples;
    c->n = 0;
    c->mean = 0.0;
    c->m2 = 0.0;
}

void criterion_noise_add(dm_criterion *c, double seconds)
{
    c->n++;
    double delta = seconds - c->mean;
    c->mean += delta / (double)c->n;
    c->m2 += delta * (seconds - c->mean);
}

/* NAN before two samples (one sample says nothing about spread), so the rule cannot
 * stop on "noise" then; a zero mean with spread is infinitely noisy. */
double criterion_noise_value(const dm_criterion *c)
{
    if (c->n < 2)
        return NAN;
    double stdev = sqrt(c->m2 / (double)(c->n - 1));
    if (c->mean == 0.0)
        return stdev == 0.0 ? 0.0 : INFINITY;
    return stdev / c->mean;
}

int criterion_noise_done(const dm_criterion *c, double elapsed, const char **reason)
{
    if (c->n == 0)
        return 0;
    if ((long long)c->n >= c->min_samples &&
        criterion_noise_value(c) <= c->max_noise) {
        *reason = "noise";
        return 1;
    }
    if (elapsed >= c->max_time) {
        *reason = "max_time";
        return 1;
    }
    if ((long long)c->n >= c->max_samples) {
        *reason = "max_samples";
        return 1;
    }
    return 0;
}
