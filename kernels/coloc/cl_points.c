/* cl_points.c - point events grouped by feature: building them from points in any order
 * (checking coordinates and the bounding box), freeing them, looking a feature up. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/coloc.h"

/* Checks that every point is finite and inside box (NULL: none). Returns 0, or DM_EINPUT
 * naming the first offending point by its index from 1. */
static int cl_points_check(uint32_t n, const double *x, const double *y, const double *box,
                           dm_err *err)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]))
            return dm_err_set(err, DM_EINPUT, "point %u: coordinate (%g, %g) is not finite",
                              i + 1, x[i], y[i]);
        if (box && (x[i] < box[0] || y[i] < box[1] || x[i] > box[2] || y[i] > box[3]))
            return dm_err_set(err, DM_EINPUT,
                              "point %u: (%.17g, %.17g) lies outside the bounding box "
                              "(%.17g, %.17g, %.17g, %.17g)",
                              i + 1, x[i], y[i], box[0], box[1], box[2], box[3]);
    }
    return 0;
}

int cl_points_build(cl_points *p, int nfeat, const char (*names)[CL_NAME_MAX], uint32_t n,
                    const int *feature, const double *x, const double *y, const double *box,
                    dm_err *err)
{
    memset(p, 0, sizeof *p);
    if (nfeat < 1 || nfeat > CL_MAX_FEATURES)
        return dm_err_set(err, DM_EINPUT, "%d features, expected 1 to %d", nfeat,
                          CL_MAX_FEATURES);
    if (box && (!isfinite(box[0]) || !isfinite(box[1]) || !isfinite(box[2]) ||
                !isfinite(box[3]) || box[0] > box[2] || box[1] > box[3]))
        return dm_err_set(err, DM_EINPUT, "bounding box (%g, %g, %g, %g) is not a box", box[0],
                          box[1], box[2], box[3]);
    int rc = cl_points_check(n, x, y, box, err);
    if (rc)
        return rc;
    uint32_t count[CL_MAX_FEATURES] = {0};
    for (uint32_t i = 0; i < n; i++)
        count[feature[i]]++;
    for (int f = 0; f < nfeat; f++)
        if (count[f] == 0)
            return dm_err_set(err, DM_EINPUT, "feature %d has no point", f);
    p->names = malloc((size_t)nfeat * sizeof *p->names);
    p->x = malloc((size_t)n * sizeof *p->x);
    p->y = malloc((size_t)n * sizeof *p->y);
    if (!p->names || !p->x || !p->y) {
        cl_points_free(p);
        return dm_err_set(err, DM_ERUNTIME, "out of memory for %u points", n);
    }
    p->nfeat = nfeat;
    p->n = n;
    for (int f = 0; f < nfeat; f++) {
        if (names)
            memcpy(p->names[f], names[f], CL_NAME_MAX);
        else
            snprintf(p->names[f], CL_NAME_MAX, "%d", f + 1);
        p->start[f + 1] = p->start[f] + count[f];
    }
    uint32_t next[CL_MAX_FEATURES];
    memcpy(next, p->start, sizeof next);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = next[feature[i]]++;
        p->x[at] = x[i];
        p->y[at] = y[i];
    }
    if (box) {
        p->minx = box[0], p->miny = box[1], p->maxx = box[2], p->maxy = box[3];
    } else {
        p->minx = p->maxx = x[0];
        p->miny = p->maxy = y[0];
        for (uint32_t i = 1; i < n; i++) {
            p->minx = fmin(p->minx, x[i]), p->maxx = fmax(p->maxx, x[i]);
            p->miny = fmin(p->miny, y[i]), p->maxy = fmax(p->maxy, y[i]);
        }
    }
    return 0;
}

void cl_points_free(cl_points *p)
{
    free(p->names);
    free(p->x);
    free(p->y);
    memset(p, 0, sizeof *p);
}

int cl_points_feature(const cl_points *p, const char *name)
{
    for (int f = 0; f < p->nfeat; f++)
        if (strcmp(p->names[f], name) == 0)
            return f;
    return -1;
}
