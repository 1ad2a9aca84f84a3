/* cl_load.c - the colocation loaders, through the common reader (csv.h: RFC 4180
 * quoting, CRLF or LF, gzip when the file is): the seattle2012.csv format (count line,
 * points, blank line, bounding box) and plain "feature,x,y" CSV, with one-line errors
 * naming path:line (and the column, for a field). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/coloc.h"
#include "csv.h"

/* The points read so far, with their features' names. */
typedef struct cl_loader {
    const char *path;
    uint32_t n, cap;
    int *feat;
    double *x, *y;
    int nfeat, last;
    char names[CL_MAX_FEATURES][CL_NAME_MAX];
} cl_loader;

/* Copies field k of the record read last into f (NUL-ended). Returns 0, or -1 when it
 * is too long for f. */
static int cl_field(const dm_csv *in, int k, char f[CL_NAME_MAX * 2])
{
    size_t n = (size_t)(in->f[k].e - in->f[k].b);
    if (n >= CL_NAME_MAX * 2)
        return -1;
    memcpy(f, in->f[k].b, n);
    f[n] = '\0';
    return 0;
}

/* Parses text as a double into *v. Returns 1 when it is a number (finite or not). */
static int cl_number(const char *text, double *v)
{
    char *end;
    if (!*text)
        return 0;
    *v = strtod(text, &end);
    return *end == '\0';
}

/* Parses the record read last, of first + n fields, the last n numbers, into v; what
 * names the fields for the message ("feature,x,y"). Returns 0, or DM_EINPUT naming
 * path:line:col. */
static int cl_numbers(const dm_csv *in, double *v, int n, int first, const char *what,
                      dm_err *err)
{
    if (in->nf != first + n) {
        char expect[64];
        snprintf(expect, sizeof expect, " (%s)", what);
        return dm_csv_count_error(in, first + n, expect, err);
    }
    for (int k = 0; k < in->nf; k++) {
        char f[CL_NAME_MAX * 2];
        const dm_csv_field *fd = &in->f[k];
        if (cl_field(in, k, f))
            return dm_err_set(err, DM_EINPUT, "%s:%lld:%d: a field longer than %d characters",
                              in->what, (long long)fd->line, fd->col, CL_NAME_MAX * 2 - 1);
        if (k < first)
            continue;
        double *x = &v[k - first];
        char shown[CL_NAME_MAX * 2];
        dm_csv_show(fd->b, fd->e, shown, sizeof shown);
        if (!cl_number(f, x))
            return dm_err_set(err, DM_EINPUT, "%s:%lld:%d: field %d '%s' is not a number (%s)",
                              in->what, (long long)fd->line, fd->col, k + 1, shown, what);
        if (!isfinite(*x))
            return dm_err_set(err, DM_EINPUT, "%s:%lld:%d: field %d '%s' is not finite",
                              in->what, (long long)fd->line, fd->col, k + 1, shown);
    }
    return 0;
}

/* The small id of feature name (shown so in messages), added when new. Returns it, or
 * DM_EINPUT past CL_MAX_FEATURES features. */
static int cl_loader_feature(cl_loader *ld, const char *name, const char *shown, int64_t line,
                             dm_err *err)
{
    if (ld->nfeat > 0 && strcmp(ld->names[ld->last], name) == 0)
        return ld->last;
    for (int f = 0; f < ld->nfeat; f++)
        if (strcmp(ld->names[f], name) == 0)
            return ld->last = f;
    if (ld->nfeat == CL_MAX_FEATURES)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: feature '%s' is one more than the %d allowed",
                          ld->path, (long long)line, shown, CL_MAX_FEATURES);
    strcpy(ld->names[ld->nfeat], name);
    return ld->last = ld->nfeat++;
}

/* Reads the record read last as "feature,x,y" and appends it. Returns 0, DM_EINPUT
 * naming path:line, or DM_ERUNTIME without memory. */
static int cl_loader_point(cl_loader *ld, const dm_csv *in, dm_err *err)
{
    char f[CL_NAME_MAX * 2], shown[CL_NAME_MAX * 2];
    double v[2];
    int64_t line = in->rec_line;
    int rc = cl_numbers(in, v, 2, 1, "feature,x,y", err);
    if (rc)
        return rc;
    cl_field(in, 0, f);
    dm_csv_show(in->f[0].b, in->f[0].e, shown, sizeof shown);
    if (!f[0])
        return dm_err_set(err, DM_EINPUT, "%s:%lld:%d: empty feature", ld->path,
                          (long long)line, in->f[0].col);
    if (strlen(f) >= CL_NAME_MAX)
        return dm_err_set(err, DM_EINPUT, "%s:%lld:%d: feature '%s' longer than %d characters",
                          ld->path, (long long)line, in->f[0].col, shown, CL_NAME_MAX - 1);
    int feat = cl_loader_feature(ld, f, shown, line, err);
    if (feat < 0)
        return feat;
    if (ld->n == ld->cap) {
        if (ld->cap >= UINT32_MAX / 2)
            return dm_err_set(err, DM_EINPUT, "%s:%lld: too many points", ld->path,
                              (long long)line);
        uint32_t cap = ld->cap ? ld->cap * 2 : 4096;
        int *nf = realloc(ld->feat, (size_t)cap * sizeof *nf);
        if (nf)
            ld->feat = nf;
        double *nx = realloc(ld->x, (size_t)cap * sizeof *nx);
        if (nx)
            ld->x = nx;
        double *ny = realloc(ld->y, (size_t)cap * sizeof *ny);
        if (ny)
            ld->y = ny;
        if (!nf || !nx || !ny)
            return dm_err_set(err, DM_ERUNTIME, "%s: out of memory", ld->path);
        ld->cap = cap;
    }
    ld->feat[ld->n] = feat;
    ld->x[ld->n] = v[0];
    ld->y[ld->n++] = v[1];
    return 0;
}

/* Makes p from the loader's points and box (NULL: their extent). Returns 0, or
 * cl_points_build's error prefixed with the path. */
static int cl_loader_finish(cl_loader *ld, const double *box, cl_points *p, dm_err *err)
{
    int rc = cl_points_build(p, ld->nfeat, (const char(*)[CL_NAME_MAX])ld->names, ld->n,
                             ld->feat, ld->x, ld->y, box, err);
    if (rc)
        dm_err_prefix(err, "%s", ld->path);
    return rc;
}

static void cl_loader_free(cl_loader *ld)
{
    free(ld->feat);
    free(ld->x);
    free(ld->y);
}

/* The line point i was read from: the (i + 2)-th record of in (the count is the first).
 * Leaves in past it. */
static int64_t cl_point_line(dm_csv *in, uint32_t i)
{
    dm_csv_rewind(in);
    for (uint32_t k = 0; k <= i + 1; k++)
        dm_csv_next(in, NULL);
    return in->rec_line;
}

/* Checks the points against box. Returns 0, or DM_EINPUT naming the line of the first
 * point outside. */
static int cl_loader_inside(const cl_loader *ld, const double *box, dm_csv *in, dm_err *err)
{
    for (uint32_t i = 0; i < ld->n; i++)
        if (ld->x[i] < box[0] || ld->y[i] < box[1] || ld->x[i] > box[2] || ld->y[i] > box[3])
            return dm_err_set(err, DM_EINPUT,
                              "%s:%lld: point (%.17g, %.17g) lies outside the bounding box "
                              "%.17g,%.17g,%.17g,%.17g",
                              ld->path, (long long)cl_point_line(in, i), ld->x[i], ld->y[i],
                              box[0], box[1], box[2], box[3]);
    return 0;
}

/* 1 when the record read last is a count alone (digits, maybe spaced): the first line
 * of the seattle2012.csv format. */
static int cl_is_count(const dm_csv *in)
{
    const char *b = in->f[0].b, *e = in->f[0].e;
    if (in->nf != 1 || b == e)
        return 0;
    while (b < e && *b >= '0' && *b <= '9')
        b++;
    return b == e;
}

/* Reads the seattle2012.csv format from in. Returns 0 or an error (see the header). */
static int cl_parse_seattle(cl_loader *ld, dm_csv *in, cl_points *p, dm_err *err)
{
    const char *path = ld->path;
    int rc;
    while ((rc = dm_csv_next(in, err)) == 1 && dm_csv_blank(in))
        ;
    if (rc <= 0)
        return rc ? rc : dm_err_set(err, DM_EINPUT, "%s:1: empty file", path);
    dm_csv_rewind(in);
    dm_csv_next(in, err); /* the first line again, read well above */
    char num[64], *end, shown[41];
    size_t nl = (size_t)(in->f[0].e - in->f[0].b);
    snprintf(num, sizeof num, "%.*s", (int)(nl < sizeof num ? nl : sizeof num - 1),
             in->f[0].b);
    long long count = strtoll(num, &end, 10);
    if (in->nf != 1 || nl == 0 || nl >= sizeof num || *end != '\0' || count < 1)
        return dm_err_set(err, DM_EINPUT, "%s:1: expected the number of points, got '%s'",
                          path, dm_csv_show(in->f[0].b, in->f[0].e, shown, sizeof shown));
    int64_t blank_line = 0;
    while ((rc = dm_csv_next(in, err)) == 1) {
        if (dm_csv_blank(in)) {
            blank_line = in->rec_line;
            break;
        }
        if ((rc = cl_loader_point(ld, in, err)))
            return rc;
    }
    if (rc < 0)
        return rc;
    if (!blank_line)
        return dm_err_set(err, DM_EINPUT,
                          "%s:%lld: the file ends after the points: no blank line and "
                          "bounding box",
                          path, (long long)in->end_line);
    if ((long long)ld->n != count)
        return dm_err_set(err, DM_EINPUT,
                          "%s:%lld: %u points before the blank line, line 1 says %lld", path,
                          (long long)blank_line, ld->n, count);
    double box[4];
    int64_t box_line = 0;
    while ((rc = dm_csv_next(in, err)) == 1) {
        if (dm_csv_blank(in))
            continue;
        if (box_line)
            return dm_err_set(err, DM_EINPUT, "%s:%lld: a line after the bounding box (line %lld)",
                              path, (long long)in->rec_line, (long long)box_line);
        if ((rc = cl_numbers(in, box, 4, 0, "minX,minY,maxX,maxY", err)))
            return rc;
        if (box[0] > box[2] || box[1] > box[3])
            return dm_err_set(err, DM_EINPUT, "%s:%lld: bounding box with min above max", path,
                              (long long)in->rec_line);
        box_line = in->rec_line;
    }
    if (rc < 0)
        return rc;
    if (!box_line)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: no bounding box after the blank line", path,
                          (long long)in->end_line);
    rc = cl_loader_inside(ld, box, in, err);
    return rc ? rc : cl_loader_finish(ld, box, p, err);
}

/* Reads plain "feature,x,y" CSV from in. Returns 0 or an error (see the header). */
static int cl_parse_csv(cl_loader *ld, dm_csv *in, cl_points *p, dm_err *err)
{
    int first = 1, rc;
    while ((rc = dm_csv_next(in, err)) == 1) {
        if (dm_csv_blank(in))
            continue;
        if (first) {
            first = 0;
            char f[CL_NAME_MAX * 2];
            double v;
            if (in->nf >= 2 && (cl_field(in, 1, f) || !cl_number(f, &v)))
                continue; /* the header */
        }
        if ((rc = cl_loader_point(ld, in, err)))
            return rc;
    }
    if (rc < 0)
        return rc;
    if (ld->n == 0)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: no points", ld->path,
                          (long long)(in->end_line ? in->end_line : 1));
    return cl_loader_finish(ld, NULL, p, err);
}

typedef int (*cl_parser)(cl_loader *, dm_csv *, cl_points *, dm_err *);

/* Reads path and parses it with parse, or, when parse is NULL, with the parser its
 * first line calls for. Returns 0 or the error, p empty on failure. */
static int cl_load(const char *path, cl_points *p, cl_parser parse, dm_err *err)
{
    memset(p, 0, sizeof *p);
    dm_csv in;
    int rc = dm_csv_open(&in, path, ',', err);
    if (rc)
        return rc;
    if (!parse) {
        parse = dm_csv_next(&in, NULL) == 1 && cl_is_count(&in) ? cl_parse_seattle
                                                                : cl_parse_csv;
        dm_csv_rewind(&in);
    }
    cl_loader *ld = calloc(1, sizeof *ld);
    if (!ld) {
        dm_csv_free(&in);
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
    }
    ld->path = path;
    rc = parse(ld, &in, p, err);
    cl_loader_free(ld);
    free(ld);
    dm_csv_free(&in);
    return rc;
}

int cl_points_load(const char *path, cl_points *p, dm_err *err)
{
    return cl_load(path, p, NULL, err);
}

int cl_points_load_seattle(const char *path, cl_points *p, dm_err *err)
{
    return cl_load(path, p, cl_parse_seattle, err);
}

int cl_points_load_csv(const char *path, cl_points *p, dm_err *err)
{
    return cl_load(path, p, cl_parse_csv, err);
}
