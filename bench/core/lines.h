/* lines.h - the lines of a text read into memory, for the workloads' text loaders:
 * "\n" or "\r\n" ended, the last one maybe unended. */
#ifndef DM_LINES_H
#define DM_LINES_H

#include <stdint.h>
#include <string.h>

typedef struct dm_lines {
    const char *p, *end; /* what is left of the text */
    int64_t line;        /* the number of the line last given, from 1 */
} dm_lines;

/* The next line as [*b, *e), its end of line left out; 0 when the text is done. */
static inline int dm_lines_next(dm_lines *l, const char **b, const char **e)
{
    if (l->p >= l->end)
        return 0;
    const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
    *b = l->p;
    *e = nl ? nl : l->end;
    l->p = nl ? nl + 1 : l->end;
    if (*e > *b && (*e)[-1] == '\r')
        (*e)--;
    l->line++;
    return 1;
}

#endif
