/* point_set.h - setting a named parameter of a point in tests (dm_point_get reads one).
 * Static functions, included by one test file each. */
#ifndef DM_TEST_POINT_SET_H
#define DM_TEST_POINT_SET_H

#include <stdio.h>
#include <string.h>

#include "dm.h"

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
            snprintf(pt->values[i].s, sizeof pt->values[i].s, "%.*s",
                     (int)sizeof pt->values[i].s - 1, s);
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
