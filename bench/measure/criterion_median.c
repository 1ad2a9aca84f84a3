/* criterion_median.c - the distribution-free 95 % confidence interval of the median from
 * order statistics (the interval [x_(k), x_(n+1-k)] covers the median with probability
 * 1 - 2 P(B(n, 1/2) < k)), and the k-th smallest of an array in linear expected time.
 * Rare slow samples move this interval far less than they move a standard deviation. */
#include <math.h>
#include <stddef.h>

#include "measure.h"

/* Up to this many samples the rank comes from the binomial itself (2^-n stays a normal
 * double); beyond it from the normal approximation, within one rank of it there. */
#define MEDIAN_CI_EXACT_N 1000
#define MEDIAN_CI_Z 1.959963984540054 /* the normal's 97.5 % quantile */

size_t median_ci_rank(size_t n)
{
    if (n < 6) /* even [min, max] covers with 1 - 2^(1-n) < 95 % */
        return 0;
    if (n > MEDIAN_CI_EXACT_N) {
        double k = floor(((double)n - MEDIAN_CI_Z * sqrt((double)n)) / 2.0);
        return k < 1 ? 1 : (size_t)k;
    }
    /* The largest k with P(X <= k - 1) <= 2.5 %, X ~ B(n, 1/2). */
    double pmf = ldexp(1.0, -(int)n), cdf = 0.0;
    size_t k = 0;
    while (cdf + pmf <= 0.025) {
        cdf += pmf;
        pmf = pmf * (double)(n - k) / (double)(k + 1);
        k++;
    }
    return k;
}

static void swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

double median_select(double *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        /* median of three as the pivot, then Hoare's partition */
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < a[lo])
            swap(&a[mid], &a[lo]);
        if (a[hi] < a[lo])
            swap(&a[hi], &a[lo]);
        if (a[hi] < a[mid])
            swap(&a[hi], &a[mid]);
        double pivot = a[mid];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (pivot < a[j])
                j--;
            if (i <= j) {
                swap(&a[i], &a[j]);
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}

/* The smallest of a[0..n). */
static double smallest(const double *a, size_t n)
{
    double m = a[0];
    for (size_t i = 1; i < n; i++)
        m = a[i] < m ? a[i] : m;
    return m;
}

double median_ci_halfwidth(const double *x, size_t n, double *work)
{
    size_t k = median_ci_rank(n);
    if (k == 0)
        return NAN;
    for (size_t i = 0; i < n; i++)
        work[i] = x[i];
    /* Each selection leaves what is below its rank before it and the rest after, so the
     * next one looks only at the part after. */
    double lo = median_select(work, n, k - 1);
    size_t m = (n - 1) / 2;
    double median = median_select(work + k - 1, n - (k - 1), m - (k - 1));
    if (n % 2 == 0)
        median = (median + smallest(work + m + 1, n - m - 1)) / 2.0;
    double hi = median_select(work + m, n - m, n - k - m);
    if (median == 0.0)
        return hi == lo ? 0.0 : INFINITY;
    return (hi - lo) / 2.0 / median;
}
