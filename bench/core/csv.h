/* csv.h - the one reader of delimited text behind every workload's loaders: RFC 4180
 * CSV, or TSV. A field may be quoted ("..."), and then holds separators, line breaks
 * and doubled quotes ("" reads as "); a quote inside an unquoted field is plain text.
 * Records end at LF or CRLF, the last one maybe unended; a UTF-8 byte-order mark
 * before the first is skipped; spaces, tabs (in CSV), CR, VT and FF around a field or
 * around its quotes are dropped. Positions are physical lines (a quoted line break
 * counts) and byte columns, from 1. Malformed text (a quote never closed, text after
 * a closing quote, a NUL byte) is a DM_EINPUT error naming "what:line:col:". */
#ifndef DM_CSV_H
#define DM_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dm_csv_field {
    const char *b, *e; /* its text, [b, e) (not NUL-ended), valid until the next record */
    int64_t line;      /* where it begins (its opening quote when quoted) */
    int col;
    int quoted;
} dm_csv_field;

typedef struct dm_csv {
    const char *what; /* names the text in messages (a path) */
    char sep;
    /* the record last read: nf fields, from line rec_line to the line end at end_line,
       end_col (the end of the text when it has none) */
    dm_csv_field *f;
    int nf;
    int64_t rec_line, end_line;
    int end_col;
    /* private */
    char *owned; /* the text, when dm_csv_open read it */
    const char *text, *p, *end, *line_start;
    int64_t line;
    unsigned char stop[256]; /* the bytes that end an unquoted field */
    int fcap;
    char *buf; /* the fields holding "", unescaped */
    size_t nbuf, bufcap;
} dm_csv;

/* Reads the file at path (gunzipped when it is gzip: dm_read_text) into c, fields
 * separated by sep, or, when sep is 0, by a tab if the first line holds one and else
 * a comma. Returns 0, or dm_read_text's error. */
int dm_csv_open(dm_csv *c, const char *path, char sep, dm_err *err);
/* The same over [text, text + len), which must outlive c; what names it in messages. */
void dm_csv_text(dm_csv *c, const char *text, size_t len, const char *what, char sep);
void dm_csv_free(dm_csv *c);
/* Back to the first record. */
void dm_csv_rewind(dm_csv *c);
/* Reads the next record into c->f and c->nf. Returns 1, 0 when the text is done, or
 * DM_EINPUT (malformed text) with err naming what:line:col. */
int dm_csv_next(dm_csv *c, dm_err *err);
/* 1 when the record last read is a blank line (one unquoted field, empty). */
int dm_csv_blank(const dm_csv *c);
/* How many records are left at most (the line breaks left, plus one). */
int64_t dm_csv_max_records(const dm_csv *c);
/* Sets err to "what:line:col: N fields, expected want<expect>" for the record last read
 * (expect: " (type,time)", say), at its first field past want, or at its end when it
 * has fewer. Returns DM_EINPUT. */
int dm_csv_count_error(const dm_csv *c, int want, const char *expect, dm_err *err);

/* [b, e) as a message may show it, in buf of n bytes: cut to fit, and each control
 * byte (a quoted line break, say) written \n, \r, \t or \xHH, so the message stays one
 * line. Returns buf. */
const char *dm_csv_show(const char *b, const char *e, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
