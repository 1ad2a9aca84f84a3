/* json.h - writing JSON text: strings escaped per RFC 8259, numbers that read back. */
#ifndef DM_JSON_H
#define DM_JSON_H

#include <stdio.h>

/* Writes s as a JSON string (quoted and escaped); null for NULL. */
void json_write_string(FILE *out, const char *s);
/* Writes v as a JSON number (shortest round-trip form); null for NaN or infinity. */
void json_write_number(FILE *out, double v);

#endif
