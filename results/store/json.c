/* json.c - JSON strings and numbers for the exports. */
#include <math.h>
#include <stdlib.h>

#include "dm.h"
#include "json.h"

void json_write_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

void json_write_number(FILE *out, double v)
{
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    char num[40];
    dm_format_double(v, num, sizeof num);
    fputs(num, out);
}

void json_write_members(FILE *out, const char *first_sep, const char *sep,
                        const char *const *keys, const char *const *values, int n)
{
    for (int i = 0; i < n; i++) {
        fputs(i ? sep : first_sep, out);
        if (keys) {
            json_write_string(out, keys[i]);
            fputs(": ", out);
        }
        json_write_string(out, values[i]);
    }
}
