/* point.c - reading a sweep point's parameters, and the keys that say which points
 * share a dataset or a problem. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm.h"

const dm_value *dm_point_get(const dm_point *pt, const char *name)
{
    for (int i = 0; i < pt->nparams; i++)
        if (strcmp(pt->specs[i]->name, name) == 0)
            return &pt->values[i];
    return NULL;
}

static const dm_value *get_typed(const dm_point *pt, const char *name, dm_ptype type)
{
    const dm_value *v = dm_point_get(pt, name);
    if (!v || v->type != type) {
        /* A variant asked for a parameter it did not declare: a programming error. */
        fprintf(stderr, "dmbench: internal error: variant %s has no %s parameter '%s'\n",
                pt->variant ? pt->variant->name : "?",
                type == DM_P_INT ? "int" : type == DM_P_REAL ? "real" : "enum", name);
        abort();
    }
    return v;
}

int64_t dm_point_int(const dm_point *pt, const char *name)
{
    return get_typed(pt, name, DM_P_INT)->i;
}

int dm_point_block_param_refused(const dm_point *pt, const char *name, const dm_device *dev,
                                 int kernel_max, char *why, size_t n)
{
    int64_t block = dm_point_int(pt, name);
    if (block % 32)
        snprintf(why, n, "%s %lld is not a multiple of 32", name, (long long)block);
    else if (dev && block > dev->max_threads_per_block)
        snprintf(why, n, "%s %lld exceeds the device's %d", name, (long long)block,
                 dev->max_threads_per_block);
    else if (dev && kernel_max > 0 && block > kernel_max)
        snprintf(why, n, "%s %lld exceeds the %d threads the kernels' registers allow a "
                 "block", name, (long long)block, kernel_max);
    else
        return 0;
    return 1;
}

int dm_point_block_refused(const dm_point *pt, const dm_device *dev, int kernel_max,
                           char *why, size_t n)
{
    return dm_point_block_param_refused(pt, "block", dev, kernel_max, why, n);
}

double dm_point_real(const dm_point *pt, const char *name)
{
    return get_typed(pt, name, DM_P_REAL)->r;
}

const char *dm_point_str(const dm_point *pt, const char *name)
{
    return get_typed(pt, name, DM_P_ENUM)->s;
}

void dm_point_set_int(dm_point *pt, const char *name, int64_t v)
{
    ((dm_value *)get_typed(pt, name, DM_P_INT))->i = v; /* a value of pt, not const */
}

void dm_point_set_str(dm_point *pt, const char *name, const char *text)
{
    dm_value *v = (dm_value *)get_typed(pt, name, DM_P_ENUM);
    const char *s = dm_intern(text, strlen(text));
    if (!s) {
        fprintf(stderr, "dmbench: out of memory for parameter '%s'\n", name);
        abort();
    }
    v->s = s;
}

void dm_point_note_choice(dm_point *pt, const char *name, const char *fmt, ...)
{
    char rule[DM_CHOSEN_MAX], kept[DM_CHOSEN_MAX] = "";
    size_t len = strlen(name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rule, sizeof rule, fmt, ap);
    va_end(ap);
    /* the other parameters' notes, in order */
    for (const char *p = pt->chosen; *p;) {
        const char *end = strstr(p, "; ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!(n > len + 1 && !strncmp(p, name, len) && p[len] == ':'))
            dm_append(kept, sizeof kept, "%s%.*s", kept[0] ? "; " : "", (int)n, p);
        p += n + (end ? 2 : 0);
    }
    memcpy(pt->chosen, kept, sizeof kept);
    dm_append(pt->chosen, sizeof pt->chosen, "%s%s: %s", kept[0] ? "; " : "", name, rule);
}

/* Appends "name=value" pairs for the parameters in specs (or all when specs is NULL). */
static void format_params(const dm_point *pt, const dm_param_spec *const *only, int nonly,
                          char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < pt->nparams; i++) {
        if (only) {
            int keep = 0;
            for (int j = 0; j < nonly && !keep; j++)
                keep = only[j] == pt->specs[i];
            if (!keep)
                continue;
        }
        const dm_value *v = &pt->values[i];
        char num[64];
        if (v->type != DM_P_ENUM)
            dm_value_format(v, num, sizeof num);
        int w = snprintf(buf + used, n - used, "%s%s=%s", used ? "," : "", pt->specs[i]->name,
                         v->type == DM_P_ENUM ? v->s : num);
        if (w < 0 || (size_t)w >= n - used)
            return; /* truncated: callers give DM_KEY_MAX, which holds any point */
        used += (size_t)w;
    }
}

void dm_point_format(const dm_point *pt, char *buf, size_t n)
{
    format_params(pt, NULL, 0, buf, n);
}

/* Collects pointers to the entries of a zero-terminated spec table. */
static int collect(const dm_param_spec *tab, const dm_param_spec **out, int at)
{
    for (int i = 0; tab && tab[i].name && at < DM_MAX_PARAMS; i++)
        out[at++] = &tab[i];
    return at;
}

void dm_point_problem_key(const dm_point *pt, char *buf, size_t n)
{
    const dm_param_spec *keep[DM_MAX_PARAMS];
    int k = collect(pt->workload->dataset_params, keep, 0);
    k = collect(pt->workload->problem_params, keep, k);
    format_params(pt, keep, k, buf, n);
}

void dm_point_dataset_key(const dm_point *pt, char *buf, size_t n)
{
    const dm_param_spec *keep[DM_MAX_PARAMS];
    int k = collect(pt->workload->dataset_params, keep, 0);
    format_params(pt, keep, k, buf, n);
}

const char *dm_point_bound(const dm_point *pt)
{
    for (int i = 0; i < pt->nparams; i++)
        if (pt->specs[i]->bound && pt->values[i].type == DM_P_INT && pt->values[i].i != 0)
            return pt->specs[i]->bound;
    return NULL;
}

void dm_params_without(const char *params, const char *name, char *out, size_t n)
{
    size_t used = 0, nlen = strlen(name);
    out[0] = '\0';
    for (const char *p = params; *p;) {
        size_t len = strcspn(p, ",");
        int skip = len > nlen && strncmp(p, name, nlen) == 0 && p[nlen] == '=';
        if (!skip && used + len + 2 < n)
            used += (size_t)snprintf(out + used, n - used, "%s%.*s", used ? "," : "", (int)len, p);
        p += len + (p[len] == ',');
    }
}
