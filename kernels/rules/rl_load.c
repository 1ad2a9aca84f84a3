/* rl_load.c - CSV and TSV tables for the rules workload (gzip-compressed or not, header
 * or not, detected), into column-major rl_tables, with one-line errors naming
 * path:line:column and the field. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "rules/rl_inflate.h"
#include "rules/rl_table.h"

/* The levels of one categorical column, hashed (open addressing, code + 1 per slot). */
typedef struct rl_levels {
    int *slot;
    int nslot, cap;
} rl_levels;

typedef struct rl_loader {
    const char *what;
    char sep;
    rl_table *t;
    rl_levels *lv; /* one per column */
    dm_err *err;
} rl_loader;

/* One line of the text as [b, e), line end left out, and its number from 1. */
typedef struct rl_line {
    const char *b, *e;
    int64_t no;
} rl_line;

int rl_parse_number(const char *b, const char *e, double *v)
{
    const char *p = b;
    if (p < e && (*p == '+' || *p == '-'))
        p++;
    const char *digits = p;
    while (p < e && isdigit((unsigned char)*p))
        p++;
    int whole = p > digits, frac = 0;
    if (p < e && *p == '.') {
        const char *f = ++p;
        while (p < e && isdigit((unsigned char)*p))
            p++;
        frac = p > f;
    }
    if (!whole && !frac)
        return 0;
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        const char *x = p;
        while (p < e && isdigit((unsigned char)*p))
            p++;
        if (p == x)
            return 0;
    }
    if (p != e)
        return 0;
    char local[128], *s = local;
    size_t n = (size_t)(e - b);
    if (n >= sizeof local && !(s = malloc(n + 1)))
        return 0;
    memcpy(s, b, n);
    s[n] = '\0';
    double d = strtod(s, NULL);
    if (s != local)
        free(s);
    if (!isfinite(d))
        return 0;
    *v = d;
    return 1;
}

/* [*b, *e) without the spaces around it. */
static void rl_trim(const char **b, const char **e)
{
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* The next line of in into l, with its number. 0 when done. */
static int rl_next_line(dm_lines *in, rl_line *l)
{
    if (!dm_lines_next(in, &l->b, &l->e))
        return 0;
    l->no = in->line;
    return 1;
}

static int rl_blank(const rl_line *l)
{
    const char *b = l->b, *e = l->e;
    rl_trim(&b, &e);
    return b == e;
}

static int rl_count_fields(const rl_line *l, char sep)
{
    int n = 1;
    for (const char *p = l->b; p < l->e; p++)
        n += *p == sep;
    return n;
}

/* The k-th cell (from 0) of line l, trimmed, as [*b, *e); its 1-based character column
 * in *col. 0 when the line has fewer cells. */
static int rl_cell(const rl_line *l, char sep, int k, const char **b, const char **e, int *col)
{
    const char *p = l->b;
    for (int i = 0; i < k; i++) {
        const char *s = memchr(p, sep, (size_t)(l->e - p));
        if (!s)
            return 0;
        p = s + 1;
    }
    const char *s = memchr(p, sep, (size_t)(l->e - p));
    *b = p;
    *e = s ? s : l->e;
    rl_trim(b, e);
    *col = (int)(*b - l->b) + 1;
    return 1;
}

static uint64_t rl_hash(const char *b, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)b[i]) * 1099511628211ULL;
    return h;
}

/* The code of level [b, e) of categorical column c, added when new. Returns it, or -1
 * without memory. */
static int rl_level(rl_column *c, rl_levels *lv, const char *b, const char *e)
{
    size_t n = (size_t)(e - b);
    if (2 * (c->nlevels + 1) > lv->nslot) {
        int ns = lv->nslot ? lv->nslot * 2 : 64;
        int *slot = calloc((size_t)ns, sizeof *slot);
        if (!slot)
            return -1;
        for (int k = 0; k < c->nlevels; k++) {
            uint64_t i = rl_hash(c->levels[k], strlen(c->levels[k])) & (uint64_t)(ns - 1);
            while (slot[i])
                i = (i + 1) & (uint64_t)(ns - 1);
            slot[i] = k + 1;
        }
        free(lv->slot);
        lv->slot = slot;
        lv->nslot = ns;
    }
    uint64_t mask = (uint64_t)(lv->nslot - 1), i = rl_hash(b, n) & mask;
    for (; lv->slot[i]; i = (i + 1) & mask) {
        const char *s = c->levels[lv->slot[i] - 1];
        if (strncmp(s, b, n) == 0 && s[n] == '\0')
            return lv->slot[i] - 1;
    }
    if (c->nlevels == lv->cap) {
        int cap = lv->cap ? lv->cap * 2 : 16;
        char **levels = realloc(c->levels, (size_t)cap * sizeof *levels);
        if (!levels)
            return -1;
        c->levels = levels;
        lv->cap = cap;
    }
    char *s = strndup(b, n);
    if (!s)
        return -1;
    c->levels[c->nlevels] = s;
    lv->slot[i] = c->nlevels + 1;
    return c->nlevels++;
}

/* Sets err to "what:line:col: field k (name): message" (fields from 1). Returns
 * DM_EINPUT. */
static int rl_cell_error(const rl_loader *ld, const rl_line *l, int col, int k,
                         const char *msg)
{
    const char *name = ld->t->cols ? ld->t->cols[k].name : "";
    return dm_err_set(ld->err, DM_EINPUT, "%s:%lld:%d: field %d%s%s%s: %s", ld->what,
                      (long long)l->no, col, k + 1, *name ? " (" : "", name, *name ? ")" : "",
                      msg);
}

/* Checks that line l has the first line's number of fields. Returns 0 or DM_EINPUT. */
static int rl_check_fields(const rl_loader *ld, const rl_line *l)
{
    int n = rl_count_fields(l, ld->sep), want = ld->t->ncols;
    if (n == want)
        return 0;
    int col = (int)(l->e - l->b) + 1; /* too few: the end of the line */
    if (n > want) {                   /* too many: the first extra field */
        const char *b, *e;
        rl_cell(l, ld->sep, want, &b, &e, &col);
    }
    return dm_err_set(ld->err, DM_EINPUT, "%s:%lld:%d: %d field%s, expected %d as in line 1",
                      ld->what, (long long)l->no, col, n, n == 1 ? "" : "s", want);
}

/* Names the columns from the header line l. Returns 0 or an error code. */
static int rl_header_names(rl_loader *ld, const rl_line *l)
{
    rl_table *t = ld->t;
    for (int k = 0; k < t->ncols; k++) {
        const char *b, *e;
        int col;
        rl_cell(l, ld->sep, k, &b, &e, &col);
        if (b == e)
            return dm_err_set(ld->err, DM_EINPUT, "%s:%lld:%d: field %d: empty column name",
                              ld->what, (long long)l->no, col, k + 1);
        char *name = strndup(b, (size_t)(e - b));
        if (!name)
            return dm_err_set(ld->err, DM_ERUNTIME, "%s: out of memory", ld->what);
        free(t->cols[k].name);
        t->cols[k].name = name;
        for (int j = 0; j < k; j++)
            if (strcmp(t->cols[j].name, name) == 0) {
                char msg[96];
                snprintf(msg, sizeof msg, "column name repeated (field %d has it too)", j + 1);
                return rl_cell_error(ld, l, col, k, msg);
            }
    }
    return 0;
}

/* Gives each column its kind from the first data line l (a number: numeric; anything
 * else: categorical) and its storage. Returns 0 or an error code. */
static int rl_kinds(rl_loader *ld, const rl_line *l)
{
    rl_table *t = ld->t;
    for (int k = 0; k < t->ncols; k++) {
        const char *b, *e;
        int col;
        double v;
        rl_cell(l, ld->sep, k, &b, &e, &col);
        rl_column *c = &t->cols[k];
        if (b == e || rl_parse_number(b, e, &v))
            continue; /* numeric (a missing value is reported by the row's parse) */
        c->kind = RL_CATEGORICAL;
        free(c->num);
        c->num = NULL;
        c->code = calloc((size_t)t->n, sizeof *c->code);
        if (!c->code)
            return dm_err_set(ld->err, DM_ERUNTIME, "%s: out of memory", ld->what);
    }
    return 0;
}

/* Reads data line l into row i. Returns 0 or an error code. */
static int rl_row(rl_loader *ld, const rl_line *l, int64_t i, int64_t first_line)
{
    int rc = rl_check_fields(ld, l);
    if (rc)
        return rc;
    const char *p = l->b;
    for (int k = 0; k < ld->t->ncols; k++) {
        const char *s = memchr(p, ld->sep, (size_t)(l->e - p));
        const char *b = p, *e = s ? s : l->e;
        p = s ? s + 1 : l->e;
        rl_trim(&b, &e);
        int col = (int)(b - l->b) + 1;
        if (b == e)
            return rl_cell_error(ld, l, col, k, "missing value (empty cell)");
        rl_column *c = &ld->t->cols[k];
        if (c->kind == RL_NUMERIC) {
            if (!rl_parse_number(b, e, &c->num[i])) {
                char msg[200];
                snprintf(msg, sizeof msg,
                         "'%.*s' is not a number, and the column is numeric (its first value, "
                         "line %lld, is a number)",
                         (int)(e - b > 40 ? 40 : e - b), b, (long long)first_line);
                return rl_cell_error(ld, l, col, k, msg);
            }
        } else {
            int code = rl_level(c, &ld->lv[k], b, e);
            if (code < 0)
                return dm_err_set(ld->err, DM_ERUNTIME, "%s: out of memory", ld->what);
            c->code[i] = code;
        }
    }
    return 0;
}

/* 1 when the header option or, for AUTO, lines l1 and l2 (l2 NULL: none) say l1 is a
 * header. */
static int rl_is_header(const rl_loader *ld, int header, const rl_line *l1, const rl_line *l2)
{
    if (header != RL_HEADER_AUTO)
        return header == RL_HEADER_YES;
    if (!l2)
        return 0;
    for (int k = 0;; k++) {
        const char *b1, *e1, *b2, *e2;
        int col;
        double v;
        if (!rl_cell(l1, ld->sep, k, &b1, &e1, &col) ||
            !rl_cell(l2, ld->sep, k, &b2, &e2, &col))
            return 0;
        if (b1 != e1 && !rl_parse_number(b1, e1, &v) && rl_parse_number(b2, e2, &v))
            return 1;
    }
}

int rl_table_parse(const char *text, size_t len, const char *what, const rl_load_opts *opts,
                   rl_table *t, dm_err *err)
{
    memset(t, 0, sizeof *t);
    const char *end = text + len;
    dm_lines in = {.p = text, .end = end};
    /* A NUL is no text (and would end a cell's string before its length). */
    const char *nul = memchr(text, '\0', len);
    if (nul)
        return dm_err_set(err, DM_EINPUT, "%s: a NUL byte at offset %zu: not a text table",
                          what, (size_t)(nul - text));
    /* The lines that matter end at the last non-blank one. */
    rl_line l = {0}, first = {0}, second = {0};
    int64_t nonblank = 0, blank_at = 0;
    while (rl_next_line(&in, &l)) {
        if (rl_blank(&l)) {
            if (!blank_at)
                blank_at = l.no;
            continue;
        }
        if (blank_at)
            return dm_err_set(err, DM_EINPUT,
                              "%s:%lld:1: empty line followed by more rows (line %lld)", what,
                              (long long)blank_at, (long long)l.no);
        if (++nonblank == 1)
            first = l;
        else if (nonblank == 2)
            second = l;
    }
    if (!nonblank)
        return dm_err_set(err, DM_EINPUT, "%s:1:1: empty file (no rows)", what);
    rl_loader ld = {.what = what, .t = t, .err = err};
    if (opts && opts->sep)
        ld.sep = opts->sep;
    else /* a tab in the first line: TSV */
        ld.sep = memchr(first.b, '\t', (size_t)(first.e - first.b)) ? '\t' : ',';
    int header = rl_is_header(&ld, opts ? opts->header : RL_HEADER_AUTO, &first,
                              nonblank > 1 ? &second : NULL);
    int64_t n = nonblank - header;
    if (n == 0)
        return dm_err_set(err, DM_EINPUT, "%s:2:1: a header and no rows after it", what);
    int rc = rl_table_init(t, n, rl_count_fields(&first, ld.sep), "a%d", err);
    if (rc)
        return rc;
    ld.lv = calloc((size_t)t->ncols, sizeof *ld.lv);
    if (!ld.lv)
        rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", what);
    if (!rc && header)
        rc = rl_header_names(&ld, &first);
    in = (dm_lines){.p = text, .end = end};
    int64_t first_line = header ? second.no : first.no;
    for (int64_t i = 0; !rc && i < n;) {
        rl_next_line(&in, &l); /* blank lines come only after the last row */
        if (header && l.no == first.no)
            continue;
        if (i == 0 && !(rc = rl_check_fields(&ld, &l)))
            rc = rl_kinds(&ld, &l);
        if (!rc)
            rc = rl_row(&ld, &l, i++, first_line);
    }
    for (int k = 0; ld.lv && k < t->ncols; k++)
        free(ld.lv[k].slot);
    free(ld.lv);
    if (rc)
        rl_table_free(t);
    return rc;
}

int rl_table_load(const char *path, const rl_load_opts *opts, rl_table *t, dm_err *err)
{
    memset(t, 0, sizeof *t);
    char *data;
    size_t len;
    int rc = dm_read_file(path, &data, &len, err);
    if (rc)
        return rc;
    if (rl_is_gzip((const uint8_t *)data, len)) {
        uint8_t *plain;
        size_t plain_len;
        rc = rl_gunzip((const uint8_t *)data, len, path, &plain, &plain_len, err);
        free(data);
        if (rc)
            return rc;
        data = (char *)plain;
        len = plain_len;
    }
    rc = rl_table_parse(data, len, path, opts, t, err);
    free(data);
    return rc;
}
