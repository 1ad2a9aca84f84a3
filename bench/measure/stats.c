/* stats.c - summary statistics of a measurement's samples: extremes, quartiles (R type 7,
 * as GSL computes them), mean, sample standard deviation and relative noise, the
 * median's 95 % confidence interval and the median absolute deviation; and the outliers
 * above the median by some robust standard deviations. */
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
    size_t k = median_ci_rank(n);
    st->median_lo = k ? sorted[k - 1] : NAN;
    st->median_hi = k ? sorted[n - k] : NAN;
    for (size_t i = 0; i < n; i++)
        sorted[i] = fabs(sorted[i] - st->median);
    gsl_sort(sorted, 1, n);
    st->mad = gsl_stats_median_from_sorted_data(sorted, 1, n);
    free(sorted);
    return DM_OK;
}

size_t stats_outliers(const double *x, size_t n, const dm_stats *st, double k, int *outlier)
{
    const double above = st->median + k * 1.4826 * st->mad;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        outlier[i] = x[i] > above;
        count += (size_t)outlier[i];
    }
    return count;
}
