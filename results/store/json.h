/* json.h - writing JSON text: strings escaped per RFC 8259, numbers that read back. */
#ifndef DM_JSON_H
#define DM_JSON_H

#include <stdio.h>

/* Writes s as a JSON string (quoted and escaped); null for NULL. */
void json_write_string(FILE *out, const char *s);
/* Writes n members "key": "value" (values as JSON strings; with keys NULL, the values
 * alone, which are also valid C string literals for ASCII text), each after sep but
 * the first, which follows first_sep. */
void json_write_members(FILE *out, const char *first_sep, const char *sep,
                        const char *const *keys, const char *const *values, int n);
/* Writes v as a JSON number (shortest round-trip form); null for NaN or infinity. */
void json_write_number(FILE *out, double v);

#endif
