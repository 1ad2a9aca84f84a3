/* criterion.c - the adaptive stopping rule: sample until the chosen noise figure settles
 * below max_noise, with time and sample-count limits. The figure is the relative
 * half-width of the median's 95 % confidence interval (criterion "median", robust to
 * rare slow samples) or the relative standard deviation (criterion "stdrel", after
 * nvbench's), its mean and variance kept incrementally (Welford). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

/* The median criterion judges after every sample up to this many, then whenever the
 * samples have grown by 1/64 since it last judged (each judgement is linear in them). */
#define CRITERION_EVERY_UP_TO 4096

const char *criterion_name(dm_criterion_kind k)
{
    return k == DM_CRIT_STDREL ? "stdrel" : "median";
}

const char *criterion_figure(const char *criterion)
{
    return !criterion || strcmp(criterion, "stdrel") == 0 ? "rsd" : "ci95";
}

void criterion_init(dm_criterion *c, const dm_measure_opts *o)
{
    *c = (dm_criterion){ .kind = o->criterion, .min_samples = o->min_samples,
                         .max_noise = o->max_noise, .max_time = o->max_time,
                         .max_samples = o->max_samples, .value = NAN };
}

void criterion_free(dm_criterion *c)
{
    free(c->x);
    free(c->work);
    c->x = c->work = NULL;
    c->cap = 0;
}

/* The relative standard deviation so far: NAN before two samples (one says nothing about
 * spread); a zero mean with spread is infinitely noisy. */
static double criterion_stdrel(const dm_criterion *c)
{
    if (c->n < 2)
        return NAN;
    double stdev = sqrt(c->m2 / (double)(c->n - 1));
    if (c->mean == 0.0)
        return stdev == 0.0 ? 0.0 : INFINITY;
    return stdev / c->mean;
}

int criterion_add(dm_criterion *c, double seconds)
{
    c->n++;
    double delta = seconds - c->mean;
    c->mean += delta / (double)c->n;
    c->m2 += delta * (seconds - c->mean);
    if (c->kind == DM_CRIT_STDREL) {
        c->value = criterion_stdrel(c);
        return DM_OK;
    }
    if (c->n > c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        double *x = realloc(c->x, cap * sizeof *x), *work;
        if (x)
            c->x = x;
        if (!x || !(work = realloc(c->work, cap * sizeof *work)))
            return DM_ERUNTIME;
        c->work = work;
        c->cap = cap;
    }
    c->x[c->n - 1] = seconds;
    if ((long long)c->n >= c->min_samples &&
        (c->n <= CRITERION_EVERY_UP_TO || c->n - c->judged >= c->n / 64)) {
        c->value = median_ci_halfwidth(c->x, c->n, c->work);
        c->judged = c->n;
    }
    return DM_OK;
}

double criterion_value(const dm_criterion *c)
{
    return c->value;
}

int criterion_done(const dm_criterion *c, double elapsed, const char **reason)
{
    if (c->n == 0)
        return 0;
    if ((long long)c->n >= c->min_samples && c->value <= c->max_noise) {
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
