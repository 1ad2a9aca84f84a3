/* cupti_session.c - the CUPTI session a run holds: started once (launch subscription, and
 * the counter check when metrics are asked for), asked what does not work, closed at the
 * end; and the per-point record it fills. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti_int.h"

int cupti_open(const dm_cupti_opts *o, dm_cupti **out, dm_err *err)
{
    dm_cupti *c = calloc(1, sizeof *c);
    *out = NULL;
    if (!c)
        return dm_err_set(err, DM_ERUNTIME, "out of memory starting CUPTI");
    c->dev = *o->device;
    if (o->metrics)
        c->metrics = *o->metrics;
    cupti_log_subscribe(c);
    if (c->metrics.n > 0)
        cupti_counters_probe(c);
    *out = c;
    return 0;
}

void cupti_close(dm_cupti *c)
{
    if (!c)
        return;
    cupti_counters_release(c);
    cupti_log_unsubscribe(c);
    free(c->log);
    free(c->verified);
    free(c);
}

const char *cupti_counters_problem(const dm_cupti *c)
{
    return c->counters_problem;
}

const char *cupti_attrs_problem(const dm_cupti *c)
{
    return c->attrs_problem;
}

const char *cupti_chip(const dm_cupti *c)
{
    return c->chip;
}

int cupti_passes(const dm_cupti *c)
{
    return c->passes;
}

void cupti_point_free(dm_cupti_point *p)
{
    free(p->attrs);
    free(p->launches);
    free(p->values);
    free(p->acts);
    memset(p, 0, sizeof *p);
}
