/* mwu.c - the Mann-Whitney U test: joint ranking with average ranks for ties, the
 * normal approximation of U with the tie-corrected variance, two-sided p from GSL. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "mwu.h"

typedef struct ranked {
    double v;
    int from_x;
} ranked;

static int by_value(const void *a, const void *b)
{
    double x = ((const ranked *)a)->v, y = ((const ranked *)b)->v;
    return (x > y) - (x < y);
}

int mwu_test(const double *x, size_t nx, const double *y, size_t ny, dm_mwu *out)
{
    if (nx == 0 || ny == 0)
        return -1;
    size_t n = nx + ny;
    ranked *r = malloc(n * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < nx; i++)
        r[i] = (ranked){ x[i], 1 };
    for (size_t j = 0; j < ny; j++)
        r[nx + j] = (ranked){ y[j], 0 };
    qsort(r, n, sizeof *r, by_value);

    double rank_x = 0, ties = 0; /* sum of x's ranks; sum of t^3 - t over tie groups */
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && r[j].v == r[i].v)
            j++;
        double t = (double)(j - i), avg = (double)(i + 1 + j) / 2; /* ranks i+1 .. j */
        for (size_t k = i; k < j; k++)
            rank_x += r[k].from_x ? avg : 0;
        ties += t * t * t - t;
        i = j;
    }
    free(r);

    double dx = (double)nx, dy = (double)ny, dn = (double)n;
    out->u = rank_x - dx * (dx + 1) / 2;
    out->cles = out->u / (dx * dy);
    double mean = dx * dy / 2;
    double var = dx * dy / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
    if (!(var > 0)) {
        out->z = 0;
        out->p = 1;
        return 0;
    }
    double d = fabs(out->u - mean) - 0.5;
    out->z = (d > 0 ? d : 0) / sqrt(var) * (out->u >= mean ? 1 : -1);
    out->p = 2 * gsl_cdf_ugaussian_Q(fabs(out->z));
    if (out->p > 1)
        out->p = 1;
    return 0;
}
