/* strbuf.c - appending printf text to a fixed-size buffer, for the one-line summaries
 * and evidence texts that are built a piece at a time; and a fact to a workload's list. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dm.h"

void dm_append(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

void dm_fact_add(dm_fact *f, int max, int *n, const char *group, const char *name,
                 double value, const char *unit)
{
    if (*n >= max)
        return;
    dm_fact *x = &f[(*n)++];
    snprintf(x->group, sizeof x->group, "%s", group);
    snprintf(x->name, sizeof x->name, "%s", name);
    x->value = value;
    x->unit = unit;
}
