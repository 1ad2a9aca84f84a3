/* workload_fixture.h - a registered workload's smallest problem, for the contract tests:
 * a variant's point with every dataset parameter at the smallest value its range allows
 * (the others at their defaults), the dataset a generator makes for it, and the
 * reference answer. Static functions, included by one test file each, after cmocka.h. */
#ifndef DM_TEST_WORKLOAD_FIXTURE_H
#define DM_TEST_WORKLOAD_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "dm.h"
#include "registry.h"
#include "variant_check.h"

/* The lower bound of spec's range as text in buf (of size n); "" when spec has none
 * (an ENUM, no range, or a range open below). */
static inline const char *wfx_lower_bound(const dm_param_spec *spec, char *buf, size_t n)
{
    const char *dots = spec->type != DM_P_ENUM && spec->allowed ? strstr(spec->allowed, "..")
                                                                 : NULL;
    snprintf(buf, n, "%.*s", dots ? (int)(dots - spec->allowed) : 0,
             dots ? spec->allowed : "");
    return buf;
}

/* v's point of w at the defaults with every dataset parameter at its lower bound, then
 * resolved for dev when v resolves (dev NULL: left open). Needs cmocka. */
static inline void wfx_smallest_point(const dm_workload *w, const dm_variant *v,
                                      const dm_device *dev, dm_point *pt)
{
    dm_err err = {0};
    char lo[64];
    if (registry_point_defaults(w, v, pt, &err))
        fail_msg("%s %s: defaults: %s", w->name, v->name, err.msg);
    for (const dm_param_spec *s = w->dataset_params; s && s->name; s++) {
        if (!wfx_lower_bound(s, lo, sizeof lo)[0])
            continue;
        for (int i = 0; i < pt->nparams; i++)
            if (pt->specs[i] == s && dm_value_parse(s, lo, &pt->values[i], &err))
                fail_msg("%s: %s's lower bound: %s", w->name, s->name, err.msg);
    }
    if (v->resolve && dev)
        v->resolve(pt, dev);
}

/* Makes generator's dataset for pt into ds and pt's reference on it into *ref. Needs
 * cmocka. */
static inline void wfx_open(const dm_workload *w, const char *generator, const dm_point *pt,
                            dm_dataset *ds, void **ref)
{
    dm_err err = {0};
    dm_data_source src = {0};
    snprintf(src.generator, sizeof src.generator, "%s", generator);
    memset(ds, 0, sizeof *ds);
    if (w->dataset_open(&src, pt, ds, &err))
        fail_msg("%s: generator %s: %s", w->name, generator, err.msg);
    if (w->reference(ds, pt, ref, &err))
        fail_msg("%s: reference on %s: %s", w->name, generator, err.msg);
}

static inline void wfx_close(const dm_workload *w, dm_dataset *ds, void *ref)
{
    w->reference_free(ref);
    w->dataset_close(ds);
}

/* Checks every variant of w that runs where ex says (GPU variants when ex->device is
 * set, else the CPU ones) against the reference on the smallest dataset of each of w's
 * generators (a variant with fixed parameters against the reference of its own
 * problem), resolved for ex->device as a sweep would; none may be refused. A workload
 * with no variant that runs there is named and passed over. */
static inline void wfx_check_workload(const dm_workload *w, const dm_exec *ex)
{
    int gpu = ex->device != NULL, any = 0;
    for (const dm_variant *v = w->variants; v->name; v++)
        any |= v->needs_gpu == gpu;
    if (!any) {
        fprintf(stderr, "%s: no %s variant to check\n", w->name, gpu ? "GPU" : "CPU");
        return;
    }
    check_cases c;
    check_begin(&c, NULL);
    for (const char *const *g = w->generators; *g; g++) {
        dm_point pt;
        dm_dataset ds;
        void *ref;
        wfx_smallest_point(w, &w->variants[0], NULL, &pt);
        wfx_open(w, *g, &pt, &ds, &ref);
        for (const dm_variant *v = w->variants; v->name; v++) {
            if (v->needs_gpu != gpu)
                continue;
            wfx_smallest_point(w, v, ex->device, &pt);
            if (!v->fixed) {
                check_variant(&c, ex, w, v, &pt, &ds, ref);
                continue;
            }
            /* Its fixed parameters make another problem, with its own reference. */
            dm_err err = {0};
            void *own;
            if (w->reference(&ds, &pt, &own, &err))
                fail_msg("%s %s: reference: %s", w->name, v->name, err.msg);
            check_variant(&c, ex, w, v, &pt, &ds, own);
            w->reference_free(own);
        }
        wfx_close(w, &ds, ref);
    }
    check_end(&c, w->name);
}

#endif
