/* csv.c - the reader of delimited text (RFC 4180 CSV, or TSV) behind every workload's
 * loaders (csv.h): one pass over the text per record, the fields pointing into it
 * except those holding doubled quotes, which are unescaped into a buffer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* The blanks dropped around a field: spaces, CR, VT, FF, and tabs unless they separate. */
static int csv_blank(const dm_csv *c, char ch)
{
    return ch == ' ' || ch == '\r' || ch == '\v' || ch == '\f' || (ch == '\t' && c->sep != '\t');
}

static int csv_col(const dm_csv *c, const char *at)
{
    return (int)(at - c->line_start) + 1;
}

/* Sets err to "what:line:col: " and, for byte at of the current line, the message
 * fmt with the byte shown ('x', or \xHH when it is no printable ASCII). Returns
 * DM_EINPUT. */
static int csv_error(const dm_csv *c, const char *at, const char *fmt, dm_err *err)
{
    char shown[8];
    unsigned char ch = (unsigned char)*at;
    if (ch >= 0x20 && ch < 0x7f)
        snprintf(shown, sizeof shown, "'%c'", ch);
    else
        snprintf(shown, sizeof shown, "\\x%02x", ch);
    char msg[160];
    snprintf(msg, sizeof msg, fmt, shown);
    return dm_err_set(err, DM_EINPUT, "%s:%lld:%d: %s", c->what, (long long)c->line,
                      csv_col(c, at), msg);
}

void dm_csv_text(dm_csv *c, const char *text, size_t len, const char *what, char sep)
{
    memset(c, 0, sizeof *c);
    c->what = what;
    c->text = text;
    c->end = text + len;
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        c->text += 3;
    if (!sep) {
        const char *nl = memchr(c->text, '\n', (size_t)(c->end - c->text));
        sep = memchr(c->text, '\t', (size_t)((nl ? nl : c->end) - c->text)) ? '\t' : ',';
    }
    c->sep = sep;
    c->stop[(unsigned char)sep] = c->stop['\n'] = c->stop['\0'] = 1;
    dm_csv_rewind(c);
}

int dm_csv_open(dm_csv *c, const char *path, char sep, dm_err *err)
{
    char *text;
    size_t len;
    memset(c, 0, sizeof *c);
    int rc = dm_read_text(path, &text, &len, err);
    if (rc)
        return rc;
    dm_csv_text(c, text, len, path, sep);
    c->owned = text;
    return 0;
}

void dm_csv_free(dm_csv *c)
{
    free(c->owned);
    free(c->f);
    free(c->buf);
    memset(c, 0, sizeof *c);
}

void dm_csv_rewind(dm_csv *c)
{
    c->p = c->line_start = c->text;
    c->line = 1;
    c->nf = 0;
}

int64_t dm_csv_max_records(const dm_csv *c)
{
    int64_t n = 1;
    for (const char *p = c->p; (p = memchr(p, '\n', (size_t)(c->end - p))); p++)
        n++;
    return n;
}

int dm_csv_blank(const dm_csv *c)
{
    return c->nf == 1 && !c->f[0].quoted && c->f[0].b == c->f[0].e;
}

/* Room for one more field. Returns 0, or DM_ERUNTIME without memory. */
static int csv_grow_fields(dm_csv *c, dm_err *err)
{
    if (c->nf < c->fcap)
        return 0;
    int cap = c->fcap ? 2 * c->fcap : 16;
    dm_csv_field *f = realloc(c->f, (size_t)cap * sizeof *f);
    if (!f)
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory", c->what);
    c->f = f;
    c->fcap = cap;
    return 0;
}

/* Copies the quoted text [b, e) into the buffer with each "" made ", as field fd.
 * Returns 0, or DM_ERUNTIME without memory. */
static int csv_unescape(dm_csv *c, const char *b, const char *e, dm_csv_field *fd, dm_err *err)
{
    size_t n = (size_t)(e - b);
    if (c->nbuf + n > c->bufcap) {
        size_t cap = 2 * (c->nbuf + n) + 64;
        char *buf = realloc(c->buf, cap);
        if (!buf)
            return dm_err_set(err, DM_ERUNTIME, "%s: out of memory", c->what);
        /* The record's earlier unescaped fields move with the buffer. */
        for (int k = 0; k < c->nf; k++)
            if (c->f[k].quoted == 2) {
                c->f[k].b = buf + (c->f[k].b - c->buf);
                c->f[k].e = buf + (c->f[k].e - c->buf);
            }
        c->buf = buf;
        c->bufcap = cap;
    }
    char *out = c->buf + c->nbuf;
    fd->b = out;
    for (const char *p = b; p < e; p++) {
        *out++ = *p;
        p += *p == '"'; /* the second quote of "" */
    }
    fd->e = out;
    fd->quoted = 2;
    c->nbuf = (size_t)(out - c->buf);
    return 0;
}

/* Reads the quoted field opening at *pp into fd, *pp left past its closing quote.
 * Returns 0 or an error. */
static int csv_quoted(dm_csv *c, const char **pp, dm_csv_field *fd, dm_err *err)
{
    const char *open = *pp, *p = open + 1, *open_line = c->line_start;
    int64_t line = c->line;
    int doubled = 0;
    for (;; p++) {
        if (p == c->end) {
            c->line = line;
            c->line_start = open_line;
            return csv_error(c, open, "%s opens a quoted field that is never closed", err);
        }
        if (*p == '"') {
            if (p + 1 == c->end || p[1] != '"')
                break;
            doubled = 1;
            p++;
        } else if (*p == '\n') {
            c->line++;
            c->line_start = p + 1;
        } else if (*p == '\0') {
            return csv_error(c, p, "a NUL byte: not text", err);
        }
    }
    fd->quoted = 1;
    fd->b = open + 1;
    fd->e = p;
    *pp = p + 1;
    return doubled ? csv_unescape(c, open + 1, p, fd, err) : 0;
}

int dm_csv_next(dm_csv *c, dm_err *err)
{
    if (c->p >= c->end)
        return 0;
    const char *p = c->p;
    c->nf = 0;
    c->nbuf = 0;
    c->rec_line = c->line;
    for (;;) {
        int rc = csv_grow_fields(c, err);
        if (rc)
            return rc;
        dm_csv_field *fd = &c->f[c->nf];
        while (p < c->end && csv_blank(c, *p))
            p++;
        fd->line = c->line;
        fd->col = csv_col(c, p);
        if (p < c->end && *p == '"') {
            if ((rc = csv_quoted(c, &p, fd, err)))
                return rc;
            while (p < c->end && csv_blank(c, *p))
                p++;
            if (p < c->end && *p != c->sep && *p != '\n')
                return csv_error(c, p, "%s after the closing quote of a field (a field "
                                 "with quotes in it must be quoted whole, its quotes doubled)",
                                 err);
        } else {
            const char *b = p;
            while (p < c->end && !c->stop[(unsigned char)*p])
                p++;
            if (p < c->end && *p == '\0')
                return csv_error(c, p, "a NUL byte: not text", err);
            const char *e = p;
            while (e > b && csv_blank(c, e[-1]))
                e--;
            fd->b = b;
            fd->e = e;
            fd->quoted = 0;
        }
        c->nf++;
        if (p < c->end && *p == c->sep) {
            p++;
            continue;
        }
        /* The record's end: a line break, or the end of the text. */
        c->end_line = c->line;
        c->end_col = csv_col(c, p > c->line_start && p[-1] == '\r' ? p - 1 : p);
        if (p < c->end) {
            c->line++;
            c->line_start = ++p;
        }
        c->p = p;
        return 1;
    }
}

int dm_csv_count_error(const dm_csv *c, int want, const char *expect, dm_err *err)
{
    int64_t line = c->end_line;
    int col = c->end_col; /* too few: the record's end */
    if (c->nf > want) {   /* too many: the first extra field */
        line = c->f[want].line;
        col = c->f[want].col;
    }
    return dm_err_set(err, DM_EINPUT, "%s:%lld:%d: %d field%s, expected %d%s", c->what,
                      (long long)line, col, c->nf, c->nf == 1 ? "" : "s", want, expect);
}

const char *dm_csv_show(const char *b, const char *e, char *buf, size_t n)
{
    size_t k = 0;
    for (; b < e; b++) {
        unsigned char ch = (unsigned char)*b;
        char esc[5] = {(char)ch, 0};
        if (ch == '\n' || ch == '\r' || ch == '\t')
            snprintf(esc, sizeof esc, "\\%c", ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't');
        else if (ch < 0x20 || ch == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", ch);
        size_t len = strlen(esc);
        if (k + len >= n)
            break;
        memcpy(buf + k, esc, len);
        k += len;
    }
    if (n)
        buf[k] = '\0';
    return buf;
}
