/* value.c - typed parameter values: parsing text against a parameter's spec (type and
 * allowed values), formatting, and comparison. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm.h"

static const char *type_name(dm_ptype t)
{
    switch (t) {
    case DM_P_INT: return "an integer";
    case DM_P_REAL: return "a number";
    case DM_P_ENUM: return "one of";
    }
    return "?";
}

/* Parses a whole string as an int64 (decimal, optional sign; also "1e6"-style exact
 * integers and "1<<20"). Returns 0 or -1. */
static int parse_int(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end != s && errno == 0) {
        if (*end == '\0') {
            *out = v;
            return 0;
        }
        if (end[0] == '<' && end[1] == '<') {
            char *e2;
            long sh = strtol(end + 2, &e2, 10);
            if (*e2 == '\0' && e2 != end + 2 && sh >= 0 && sh < 63 && v >= 0 &&
                v <= (INT64_MAX >> sh)) {
                *out = (int64_t)v << sh;
                return 0;
            }
            return -1;
        }
    }
    double d = strtod(s, &end);
    if (end != s && *end == '\0' && isfinite(d) && d == floor(d) && fabs(d) < 9.0e15) {
        *out = (int64_t)d;
        return 0;
    }
    return -1;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(d))
        return -1;
    *out = d;
    return 0;
}

/* Checks a number against "min..max". Returns 0 when allowed. */
static int check_range(const dm_param_spec *spec, double v, const char *text, dm_err *err)
{
    const char *dots = strstr(spec->allowed, "..");
    if (!dots)
        return 0;
    char lo[64] = "", hi[64] = "";
    size_t nlo = (size_t)(dots - spec->allowed);
    if (nlo < sizeof lo) {
        memcpy(lo, spec->allowed, nlo);
        lo[nlo] = '\0';
    }
    snprintf(hi, sizeof hi, "%s", dots + 2);
    double l, h;
    if ((lo[0] && parse_real(lo, &l) == 0 && v < l) || (hi[0] && parse_real(hi, &h) == 0 && v > h))
        return dm_err_set(err, DM_EINPUT, "%s=%s is out of range; expected %s in %s",
                          spec->name, text, type_name(spec->type), spec->allowed);
    return 0;
}

int dm_value_parse(const dm_param_spec *spec, const char *text, dm_value *out, dm_err *err)
{
    memset(out, 0, sizeof *out);
    out->type = spec->type;
    switch (spec->type) {
    case DM_P_INT:
        if (parse_int(text, &out->i) != 0)
            return dm_err_set(err, DM_EINPUT, "%s=%s: expected an integer", spec->name, text);
        return spec->allowed ? check_range(spec, (double)out->i, text, err) : 0;
    case DM_P_REAL:
        if (parse_real(text, &out->r) != 0)
            return dm_err_set(err, DM_EINPUT, "%s=%s: expected a number", spec->name, text);
        return spec->allowed ? check_range(spec, out->r, text, err) : 0;
    case DM_P_ENUM: {
        size_t len = strlen(text);
        if (!spec->allowed && len >= DM_TEXT_MAX)
            return dm_err_set(err, DM_EINPUT, "%s='%.40s...': %zu characters, longer than the "
                              "%d of a path (PATH_MAX)", spec->name, text, len,
                              DM_TEXT_MAX - 1);
        if (len == 0)
            return dm_err_set(err, DM_EINPUT, "%s is empty; expected %s", spec->name,
                              spec->allowed ? spec->allowed : "a text");
        if (spec->allowed) {
            const char *p = spec->allowed;
            int found = 0;
            while (*p && !found) {
                const char *bar = strchr(p, '|');
                size_t n = bar ? (size_t)(bar - p) : strlen(p);
                found = n == len && strncmp(p, text, n) == 0;
                p += n + (bar ? 1 : 0);
            }
            if (!found)
                return dm_err_set(err, DM_EINPUT, "%s=%s: expected one of %s", spec->name,
                                  text, spec->allowed);
        }
        if (!(out->s = dm_intern(text, len)))
            return dm_err_set(err, DM_ERUNTIME, "%s: out of memory for its %zu characters",
                              spec->name, len);
        return 0;
    }
    }
    return dm_err_set(err, DM_EINPUT, "%s: parameter has no type", spec->name);
}

void dm_format_double(double v, char *buf, size_t n)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void dm_value_format(const dm_value *v, char *buf, size_t n)
{
    switch (v->type) {
    case DM_P_INT:
        snprintf(buf, n, "%" PRId64, v->i);
        return;
    case DM_P_REAL:
        dm_format_double(v->r, buf, n);
        return;
    case DM_P_ENUM:
        snprintf(buf, n, "%s", v->s);
        return;
    }
    snprintf(buf, n, "?");
}

double dm_value_num(const dm_value *v)
{
    switch (v->type) {
    case DM_P_INT: return (double)v->i;
    case DM_P_REAL: return v->r;
    case DM_P_ENUM: break;
    }
    return NAN;
}

int dm_value_equal(const dm_value *a, const dm_value *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case DM_P_INT: return a->i == b->i;
    case DM_P_REAL: return a->r == b->r;
    case DM_P_ENUM: return a->s == b->s || strcmp(a->s, b->s) == 0;
    }
    return 0;
}
