/* stats.c - summary statistics of a measurement's samples: extremes, quartiles (R type 7,
 * as GSL computes them), mean, sample standard deviation and relative noise. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "measure.h"

int stats_compute(const double *x, size_t n, dm_stats *st)
{
    if (n == 0)
        return DM_EINPUT;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return DM_ERUNTIME;
    memcpy(sorted, x, n * sizeof *sorted);
    gsl_sort(sorted, 1, n);

    memset(st, 0, sizeof *st);
    st->n = n;
    st->min = sorted[0];
    st->max = sorted[n - 1];
    st->q1 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.25);
    st->median = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.5);
    st->q3 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.75);
    st->mean = gsl_stats_mean(sorted, 1, n);
    if (n >= 2) {
        st->stdev = gsl_stats_sd_m(sorted, 1, n, st->mean);
        /* A zero mean with spread has no finite relative noise. */
        st->noise = st->mean != 0.0 ? st->stdev / st->mean : (st->stdev == 0.0 ? 0.0 : HUGE_VAL);
    }
    free(sorted);
    return DM_OK;
}
