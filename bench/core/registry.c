/* registry.c - lookups by name, with close-match suggestions, over the registered
 * workloads (the list is generated from DM_WORKLOADS in CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"



const dm_workload *const *registry_workloads(void)
{
    return dm_registered_workloads;
}

int registry_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (int)(la > lb ? la : lb);
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void registry_suggest(const char *name, const char *const *cands, size_t ncands, char *buf,
                    size_t n, int *close_found)
{
    size_t used = 0;
    int limit = (int)strlen(name) / 3;
    if (limit < 2)
        limit = 2;
    buf[0] = '\0';
    *close_found = 0;
    for (int pass = 0; pass < 2 && !*close_found; pass++) {
        for (size_t i = 0; i < ncands; i++) {
            int close = registry_edit_distance(name, cands[i]) <= limit ||
                        (strlen(name) >= 3 && strncmp(name, cands[i], 3) == 0);
            if (pass == 0 && !close)
                continue;
            int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", cands[i]);
            if (w < 0 || (size_t)w >= n - used)
                return;
            used += (size_t)w;
        }
        *close_found = used > 0 && pass == 0;
    }
}

const dm_workload *registry_workload(const char *name, dm_err *err)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; dm_registered_workloads[i]; i++) {
        if (strcmp(dm_registered_workloads[i]->name, name) == 0)
            return dm_registered_workloads[i];
        if (n < 64)
            names[n++] = dm_registered_workloads[i]->name;
    }
    char list[512];
    int close;
    registry_suggest(name, names, n, list, sizeof list, &close);
    dm_err_set(err, DM_EINPUT, "unknown workload '%s'; %s: %s", name,
               close ? "did you mean" : "known workloads", list);
    return NULL;
}

const dm_variant *registry_variant(const dm_workload *w, const char *name, dm_err *err)
{
    const char *names[128];
    size_t n = 0;
    for (size_t i = 0; w->variants[i].name; i++) {
        if (strcmp(w->variants[i].name, name) == 0)
            return &w->variants[i];
        if (n < 128)
            names[n++] = w->variants[i].name;
    }
    char list[1024];
    int close;
    registry_suggest(name, names, n, list, sizeof list, &close);
    dm_err_set(err, DM_EINPUT, "unknown variant '%s' of workload '%s'; %s: %s", name, w->name,
               close ? "did you mean" : "its variants are", list);
    return NULL;
}

static const dm_param_spec *find_in(const dm_param_spec *tab, const char *name)
{
    for (size_t i = 0; tab && tab[i].name; i++)
        if (strcmp(tab[i].name, name) == 0)
            return &tab[i];
    return NULL;
}

const dm_param_spec *registry_param(const dm_workload *w, const dm_variant *v, const char *name)
{
    const dm_param_spec *p = find_in(w->dataset_params, name);
    if (!p)
        p = find_in(w->problem_params, name);
    if (!p && v)
        p = find_in(v->params, name);
    return p;
}

const dm_param_spec *registry_generated_param(const dm_workload *w, const char *name)
{
    const dm_param_spec *p = find_in(w->dataset_params, name);
    return p && p->generated ? p : NULL;
}

void registry_point_on_file(dm_point *pt)
{
    int k = 0;
    for (int i = 0; i < pt->nparams; i++)
        if (!pt->specs[i]->generated) {
            pt->specs[k] = pt->specs[i];
            pt->values[k++] = pt->values[i];
        }
    pt->nparams = k;
}

/* Appends the defaults of a spec table to pt. */
static int add_defaults(dm_point *pt, const dm_param_spec *tab, dm_err *err)
{
    for (size_t i = 0; tab && tab[i].name; i++) {
        if (pt->nparams == DM_MAX_PARAMS)
            return dm_err_set(err, DM_EINPUT, "more than %d parameters", DM_MAX_PARAMS);
        if (dm_value_parse(&tab[i], tab[i].def, &pt->values[pt->nparams], err) != 0)
            return dm_err_prefix(err, "default of parameter '%s'", tab[i].name);
        pt->specs[pt->nparams++] = &tab[i];
    }
    return 0;
}

/* Sets the problem parameters v->fixed names ("name=value,...") in pt. */
static int set_fixed(dm_point *pt, const dm_variant *v, dm_err *err)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v && v->fixed ? v->fixed : "");
    for (char *save = NULL, *pair = strtok_r(buf, ",", &save); pair;
         pair = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(pair, '=');
        int i = 0;
        if (eq)
            *eq = '\0';
        while (i < pt->nparams && strcmp(pt->specs[i]->name, pair) != 0)
            i++;
        if (!eq || i == pt->nparams)
            return dm_err_set(err, DM_EINPUT, "variant %s: fixed '%s' is not name=value of "
                              "a parameter", v->name, pair);
        if (dm_value_parse(pt->specs[i], eq + 1, &pt->values[i], err) != 0)
            return dm_err_prefix(err, "variant %s: fixed %s", v->name, pair);
    }
    return 0;
}

int registry_point_defaults(const dm_workload *w, const dm_variant *v, dm_point *pt,
                            dm_err *err)
{
    memset(pt, 0, sizeof *pt);
    pt->workload = w;
    pt->variant = v;
    if (add_defaults(pt, w->dataset_params, err) || add_defaults(pt, w->problem_params, err) ||
        add_defaults(pt, v ? v->params : NULL, err) || set_fixed(pt, v, err))
        return err ? err->code : DM_EINPUT;
    return 0;
}
