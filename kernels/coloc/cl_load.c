/* cl_load.c - the colocation loaders: the seattle2012.csv format (count line, points,
 * blank line, bounding box) and plain "feature,x,y" CSV, with one-line errors naming
 * path:line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/coloc.h"
#include "lines.h"

/* The points read so far, with their features' names. */
typedef struct cl_loader {
    const char *path;
    uint32_t n, cap;
    int *feat;
    double *x, *y;
    int nfeat, last;
    char names[CL_MAX_FEATURES][CL_NAME_MAX];
} cl_loader;

/* [*b, *e) without the spaces and tabs around it; returns whether anything is left. */
static int cl_trim(const char **b, const char **e)
{
    while (*b < *e && (**b == ' ' || **b == '\t'))
        (*b)++;
    while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
        (*e)--;
    return *e > *b;
}

/* Splits [b, e) at commas into exactly n trimmed fields, copied into f[i] (each of size
 * CL_NAME_MAX * 2). Returns how many fields the line has (n on success; a field too long
 * to copy makes it -1). */
static int cl_fields(const char *b, const char *e, char (*f)[CL_NAME_MAX * 2], int n)
{
    int k = 0;
    for (const char *s = b;; k++) {
        const char *c = memchr(s, ',', (size_t)(e - s));
        const char *fe = c ? c : e, *fb = s;
        cl_trim(&fb, &fe);
        if (k < n) {
            if (fe - fb >= CL_NAME_MAX * 2)
                return -1;
            memcpy(f[k], fb, (size_t)(fe - fb));
            f[k][fe - fb] = '\0';
        }
        if (!c)
            return k + 1;
        s = c + 1;
    }
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

/* Parses the line [b, e) of first + n comma-separated fields, the last n numbers, into v;
 * what names the fields for the message ("feature,x,y"). Returns 0, or DM_EINPUT naming
 * path:line. */
static int cl_numbers(const char *path, int64_t line, const char *b, const char *e, double *v,
                      int n, int first, const char *what, dm_err *err)
{
    char f[5][CL_NAME_MAX * 2];
    int k = cl_fields(b, e, f, 5);
    if (k < 0)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: a field longer than %d characters", path,
                          (long long)line, CL_NAME_MAX * 2 - 1);
    if (k != first + n)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: expected %s (%d fields), got %d field%s",
                          path, (long long)line, what, first + n, k, k == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        if (!cl_number(f[first + i], &v[i]))
            return dm_err_set(err, DM_EINPUT, "%s:%lld: field %d '%s' is not a number (%s)",
                              path, (long long)line, first + i + 1, f[first + i], what);
        if (!isfinite(v[i]))
            return dm_err_set(err, DM_EINPUT, "%s:%lld: field %d '%s' is not finite", path,
                              (long long)line, first + i + 1, f[first + i]);
    }
    return 0;
}

/* The small id of feature name, added when new. Returns it, or DM_EINPUT past
 * CL_MAX_FEATURES features. */
static int cl_loader_feature(cl_loader *ld, const char *name, int64_t line, dm_err *err)
{
    if (ld->nfeat > 0 && strcmp(ld->names[ld->last], name) == 0)
        return ld->last;
    for (int f = 0; f < ld->nfeat; f++)
        if (strcmp(ld->names[f], name) == 0)
            return ld->last = f;
    if (ld->nfeat == CL_MAX_FEATURES)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: feature '%s' is one more than the %d allowed",
                          ld->path, (long long)line, name, CL_MAX_FEATURES);
    strcpy(ld->names[ld->nfeat], name);
    return ld->last = ld->nfeat++;
}

/* Parses [b, e) as "feature,x,y" and appends it. Returns 0, DM_EINPUT naming path:line,
 * or DM_ERUNTIME without memory. */
static int cl_loader_point(cl_loader *ld, const char *b, const char *e, int64_t line,
                           dm_err *err)
{
    char f[1][CL_NAME_MAX * 2];
    double v[2];
    int rc = cl_numbers(ld->path, line, b, e, v, 2, 1, "feature,x,y", err);
    if (rc)
        return rc;
    cl_fields(b, e, f, 1);
    if (!f[0][0])
        return dm_err_set(err, DM_EINPUT, "%s:%lld: empty feature", ld->path, (long long)line);
    if (strlen(f[0]) >= CL_NAME_MAX)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: feature '%s' longer than %d characters",
                          ld->path, (long long)line, f[0], CL_NAME_MAX - 1);
    int feat = cl_loader_feature(ld, f[0], line, err);
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

/* Checks the points against box: point i was read from line first_line + i. Returns 0,
 * or DM_EINPUT naming the line of the first point outside. */
static int cl_loader_inside(const cl_loader *ld, const double *box, int64_t first_line,
                            dm_err *err)
{
    for (uint32_t i = 0; i < ld->n; i++)
        if (ld->x[i] < box[0] || ld->y[i] < box[1] || ld->x[i] > box[2] || ld->y[i] > box[3])
            return dm_err_set(err, DM_EINPUT,
                              "%s:%lld: point (%.17g, %.17g) lies outside the bounding box "
                              "%.17g,%.17g,%.17g,%.17g",
                              ld->path, (long long)(first_line + i), ld->x[i], ld->y[i], box[0],
                              box[1], box[2], box[3]);
    return 0;
}

/* Reads the seattle2012.csv format from text. Returns 0 or an error (see the header). */
static int cl_parse_seattle(cl_loader *ld, const char *text, size_t len, cl_points *p,
                            dm_err *err)
{
    const char *path = ld->path, *b = text, *e = text;
    size_t blank = 0;
    while (blank < len && text[blank] && strchr(" \t\r\n", text[blank]))
        blank++;
    if (blank == len)
        return dm_err_set(err, DM_EINPUT, "%s:1: empty file", path);
    dm_lines l = {.p = text, .end = text + len};
    dm_lines_next(&l, &b, &e);
    cl_trim(&b, &e);
    char num[64];
    char *end;
    size_t nl = (size_t)(e - b);
    memcpy(num, b, nl < sizeof num - 1 ? nl : sizeof num - 1);
    num[nl < sizeof num - 1 ? nl : sizeof num - 1] = '\0';
    long long count = strtoll(num, &end, 10);
    if (nl == 0 || nl >= sizeof num || *end != '\0' || count < 1)
        return dm_err_set(err, DM_EINPUT, "%s:1: expected the number of points, got '%.*s'",
                          path, (int)(nl < 40 ? nl : 40), b);
    int64_t blank_line = 0;
    while (dm_lines_next(&l, &b, &e)) {
        if (!cl_trim(&b, &e)) {
            blank_line = l.line;
            break;
        }
        int rc = cl_loader_point(ld, b, e, l.line, err);
        if (rc)
            return rc;
    }
    if (!blank_line)
        return dm_err_set(err, DM_EINPUT,
                          "%s:%lld: the file ends after the points: no blank line and "
                          "bounding box",
                          path, (long long)l.line);
    if ((long long)ld->n != count)
        return dm_err_set(err, DM_EINPUT,
                          "%s:%lld: %u points before the blank line, line 1 says %lld", path,
                          (long long)blank_line, ld->n, count);
    double box[4];
    int64_t box_line = 0;
    while (dm_lines_next(&l, &b, &e)) {
        if (!cl_trim(&b, &e))
            continue;
        if (box_line)
            return dm_err_set(err, DM_EINPUT, "%s:%lld: a line after the bounding box (line %lld)",
                              path, (long long)l.line, (long long)box_line);
        int rc = cl_numbers(path, l.line, b, e, box, 4, 0, "minX,minY,maxX,maxY", err);
        if (rc)
            return rc;
        if (box[0] > box[2] || box[1] > box[3])
            return dm_err_set(err, DM_EINPUT, "%s:%lld: bounding box with min above max", path,
                              (long long)l.line);
        box_line = l.line;
    }
    if (!box_line)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: no bounding box after the blank line", path,
                          (long long)l.line);
    int rc = cl_loader_inside(ld, box, 2, err);
    return rc ? rc : cl_loader_finish(ld, box, p, err);
}

/* Reads plain "feature,x,y" CSV from text. Returns 0 or an error (see the header). */
static int cl_parse_csv(cl_loader *ld, const char *text, size_t len, cl_points *p, dm_err *err)
{
    const char *b = text, *e = text;
    dm_lines l = {.p = text, .end = text + len};
    int first = 1;
    while (dm_lines_next(&l, &b, &e)) {
        if (!cl_trim(&b, &e))
            continue;
        if (first) {
            first = 0;
            char f[2][CL_NAME_MAX * 2];
            double v;
            if (cl_fields(b, e, f, 2) >= 2 && !cl_number(f[1], &v))
                continue; /* the header */
        }
        int rc = cl_loader_point(ld, b, e, l.line, err);
        if (rc)
            return rc;
    }
    if (ld->n == 0)
        return dm_err_set(err, DM_EINPUT, "%s:%lld: no points", ld->path,
                          (long long)(l.line ? l.line : 1));
    return cl_loader_finish(ld, NULL, p, err);
}

/* Reads path and parses it with parse. Returns 0 or the error, p empty on failure. */
static int cl_load(const char *path, cl_points *p,
                   int (*parse)(cl_loader *, const char *, size_t, cl_points *, dm_err *),
                   dm_err *err)
{
    memset(p, 0, sizeof *p);
    char *text;
    size_t len;
    int rc = dm_read_file(path, &text, &len, err);
    if (rc)
        return rc;
    cl_loader *ld = calloc(1, sizeof *ld);
    if (!ld) {
        free(text);
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
    }
    ld->path = path;
    rc = parse(ld, text, len, p, err);
    cl_loader_free(ld);
    free(ld);
    free(text);
    return rc;
}

int cl_points_load_seattle(const char *path, cl_points *p, dm_err *err)
{
    return cl_load(path, p, cl_parse_seattle, err);
}

int cl_points_load_csv(const char *path, cl_points *p, dm_err *err)
{
    return cl_load(path, p, cl_parse_csv, err);
}
