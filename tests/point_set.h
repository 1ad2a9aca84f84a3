/* point_set.h - making a point and setting its named parameters in tests (dm_point_get
 * reads one). Static functions, included after cmocka.h by one test file each. */
#ifndef DM_TEST_POINT_SET_H
#define DM_TEST_POINT_SET_H

#include <stdio.h>
#include <string.h>

#include "dm.h"
#include "registry.h"

/* The point of workload's variant at its defaults, with the "name=value" settings
 * set[0..n) parsed over them; fails the test on an unknown workload, variant or name, or
 * a value the parameter refuses. */
static inline void point_with(const char *workload, const char *variant,
                              const char *const *set, int n, dm_point *pt)
{
    dm_err err = { 0 };
    const dm_workload *w = registry_workload(workload, &err);
    const dm_variant *v = w ? registry_variant(w, variant, &err) : NULL;
    if (!v || registry_point_defaults(w, v, pt, &err))
        fail_msg("%s %s: %s", workload, variant, err.msg);
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(set[i], '=');
        int k = 0;
        while (eq && k < pt->nparams && (strncmp(pt->specs[k]->name, set[i],
                                                 (size_t)(eq - set[i])) != 0 ||
                                         pt->specs[k]->name[eq - set[i]] != '\0'))
            k++;
        if (!eq || k == pt->nparams)
            fail_msg("%s: not a parameter of %s %s", set[i], workload, variant);
        if (dm_value_parse(pt->specs[k], eq + 1, &pt->values[k], &err))
            fail_msg("%s: %s", set[i], err.msg);
    }
}

static inline void set_int(dm_point *pt, const char *name, int64_t v)
{
    for (int i = 0; i < pt->nparams; i++)
        if (strcmp(pt->specs[i]->name, name) == 0)
            pt->values[i].i = v;
}

static inline void set_real(dm_point *pt, const char *name, double v)
{
    for (int i = 0; i < pt->nparams; i++)
        if (strcmp(pt->specs[i]->name, name) == 0)
            pt->values[i].r = v;
}

static inline void set_str(dm_point *pt, const char *name, const char *s)
{
    for (int i = 0; i < pt->nparams; i++)
        if (strcmp(pt->specs[i]->name, name) == 0)
            pt->values[i].s = dm_intern(s, strlen(s));
}

/* Copies the dataset and problem parameters of from into to (a point of another
 * variant). */
static inline void copy_problem(dm_point *to, const dm_point *from)
{
    for (int i = 0; i < from->nparams; i++) {
        const char *name = from->specs[i]->name;
        for (int k = 0; k < to->nparams; k++)
            if (strcmp(to->specs[k]->name, name) == 0)
                to->values[k] = from->values[i];
    }
}

#endif
