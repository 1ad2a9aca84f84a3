/* strbuf.c - appending printf text to a fixed-size buffer, for the one-line summaries
 * and evidence texts that are built a piece at a time. */
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
