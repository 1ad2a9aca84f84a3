/* rl_load.c - CSV and TSV tables for the rules workload (read by the common reader,
 * csv.h: quoted or not, gzip-compressed or not; header or not, detected), into
 * column-major rl_tables, with one-line errors naming path:line:column and the field. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "rules/rl_table.h"

/* The levels of one categorical column, hashed (open addressing, code + 1 per slot). */
typedef struct rl_levels {
    int *slot;
    int nslot, cap;
} rl_levels;

typedef struct rl_loader {
    dm_csv *in;
    rl_table *t;
    rl_levels *lv;    /* one per column */
    int64_t blank_at; /* the first blank line since the last row, or 0 */
    dm_err *err;
} rl_loader;

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

/* Sets err to "what:line:col: field k (name): message" (fields from 1) at field k of
 * the record read last. Returns DM_EINPUT. */
static int rl_cell_error(const rl_loader *ld, int k, const char *msg)
{
    const char *name = ld->t->cols ? ld->t->cols[k].name : "";
    const dm_csv_field *f = &ld->in->f[k];
    char shown[64];
    dm_csv_show(name, name + strlen(name), shown, sizeof shown);
    return dm_err_set(ld->err, DM_EINPUT, "%s:%lld:%d: field %d%s%s%s: %s", ld->in->what,
                      (long long)f->line, f->col, k + 1, *name ? " (" : "", shown,
                      *name ? ")" : "", msg);
}

/* Reads the next record that is not a blank line. Returns 1, 0 when the text is done
 * (blank lines may end it), or an error: malformed text, or a blank line followed by
 * more rows. */
static int rl_next_row(rl_loader *ld)
{
    dm_csv *in = ld->in;
    int rc;
    while ((rc = dm_csv_next(in, ld->err)) == 1) {
        if (!dm_csv_blank(in)) {
            if (ld->blank_at)
                return dm_err_set(ld->err, DM_EINPUT,
                                  "%s:%lld:1: empty line followed by more rows (line %lld)",
                                  in->what, (long long)ld->blank_at, (long long)in->rec_line);
            return 1;
        }
        if (!ld->blank_at)
            ld->blank_at = in->rec_line;
    }
    return rc;
}

/* Checks that the record read last has the first one's number of fields. Returns 0 or
 * DM_EINPUT. */
static int rl_check_fields(const rl_loader *ld)
{
    return ld->in->nf == ld->t->ncols ? 0
                                      : dm_csv_count_error(ld->in, ld->t->ncols,
                                                           " as in line 1", ld->err);
}

/* Names the columns from the header, the record read last. Returns 0 or an error code. */
static int rl_header_names(rl_loader *ld)
{
    rl_table *t = ld->t;
    for (int k = 0; k < t->ncols; k++) {
        const dm_csv_field *f = &ld->in->f[k];
        if (f->b == f->e)
            return dm_err_set(ld->err, DM_EINPUT, "%s:%lld:%d: field %d: empty column name",
                              ld->in->what, (long long)f->line, f->col, k + 1);
        char *name = strndup(f->b, (size_t)(f->e - f->b));
        if (!name)
            return dm_err_set(ld->err, DM_ERUNTIME, "%s: out of memory", ld->in->what);
        free(t->cols[k].name);
        t->cols[k].name = name;
        for (int j = 0; j < k; j++)
            if (strcmp(t->cols[j].name, name) == 0) {
                char msg[96];
                snprintf(msg, sizeof msg, "column name repeated (field %d has it too)", j + 1);
                return rl_cell_error(ld, k, msg);
            }
    }
    return 0;
}

/* Gives each column its kind from the first data row, the record read last (a number:
 * numeric; anything else: categorical) and its storage. Returns 0 or an error code. */
static int rl_kinds(rl_loader *ld, int64_t rows)
{
    rl_table *t = ld->t;
    for (int k = 0; k < t->ncols; k++) {
        const dm_csv_field *f = &ld->in->f[k];
        rl_column *c = &t->cols[k];
        double v;
        if (f->b == f->e || rl_parse_number(f->b, f->e, &v))
            continue; /* numeric (a missing value is reported by the row's parse) */
        c->kind = RL_CATEGORICAL;
        free(c->num);
        c->num = NULL;
        c->code = calloc((size_t)rows, sizeof *c->code);
        if (!c->code)
            return dm_err_set(ld->err, DM_ERUNTIME, "%s: out of memory", ld->in->what);
    }
    return 0;
}

/* Reads the record read last into row i. Returns 0 or an error code. */
static int rl_row(rl_loader *ld, int64_t i, int64_t first_line)
{
    int rc = rl_check_fields(ld);
    if (rc)
        return rc;
    for (int k = 0; k < ld->t->ncols; k++) {
        const char *b = ld->in->f[k].b, *e = ld->in->f[k].e;
        if (b == e)
            return rl_cell_error(ld, k, "missing value (empty cell)");
        rl_column *c = &ld->t->cols[k];
        if (c->kind == RL_NUMERIC) {
            if (!rl_parse_number(b, e, &c->num[i])) {
                char msg[200], shown[41];
                snprintf(msg, sizeof msg,
                         "'%s' is not a number, and the column is numeric (its first value, "
                         "line %lld, is a number)",
                         dm_csv_show(b, e, shown, sizeof shown), (long long)first_line);
                return rl_cell_error(ld, k, msg);
            }
        } else {
            int code = rl_level(c, &ld->lv[k], b, e);
            if (code < 0)
                return dm_err_set(ld->err, DM_ERUNTIME, "%s: out of memory", ld->in->what);
            c->code[i] = code;
        }
    }
    return 0;
}

/* 1 when the header option or, for AUTO, the first two rows say the first is a header:
 * some column has a cell there that is not a number over a number in the second. Leaves
 * the reader rewound. Returns 0, 1 or an error. */
static int rl_is_header(rl_loader *ld, int header)
{
    if (header != RL_HEADER_AUTO)
        return header == RL_HEADER_YES;
    dm_csv *in = ld->in;
    int n = in->nf, rc = 0;
    char *text = malloc((size_t)n); /* the first row's cells that are no number */
    if (!text)
        return dm_err_set(ld->err, DM_ERUNTIME, "%s: out of memory", in->what);
    for (int k = 0; k < n; k++) {
        double v;
        text[k] = in->f[k].b != in->f[k].e && !rl_parse_number(in->f[k].b, in->f[k].e, &v);
    }
    int second = rl_next_row(ld);
    for (int k = 0; second == 1 && k < n && k < in->nf; k++) {
        double v;
        rc |= text[k] && rl_parse_number(in->f[k].b, in->f[k].e, &v);
    }
    free(text);
    return second < 0 ? second : rc;
}

/* Shrinks the columns of t, made for more rows, to its n rows. */
static void rl_fit(rl_table *t, int64_t n)
{
    t->n = n;
    for (int k = 0; k < t->ncols; k++) {
        rl_column *c = &t->cols[k];
        if (c->num) {
            double *num = realloc(c->num, (size_t)n * sizeof *num);
            c->num = num ? num : c->num;
        } else {
            int32_t *code = realloc(c->code, (size_t)n * sizeof *code);
            c->code = code ? code : c->code;
        }
    }
}

/* Reads the table from in: the first two rows to tell a header, then every row, into
 * columns sized by the line count and fitted at the end. Returns 0 or an error code. */
static int rl_parse(dm_csv *in, const rl_load_opts *opts, rl_table *t, dm_err *err)
{
    rl_loader ld = {.in = in, .t = t, .err = err};
    int rc = rl_next_row(&ld);
    if (rc == 0)
        return dm_err_set(err, DM_EINPUT, "%s:1:1: empty file (no rows)", in->what);
    int ncols = in->nf, header = rc < 0 ? rc : rl_is_header(&ld, opts ? opts->header : RL_HEADER_AUTO);
    if (header < 0)
        return header;
    dm_csv_rewind(in);
    ld.blank_at = 0;
    int64_t rows = dm_csv_max_records(in);
    if ((rc = rl_table_init(t, rows, ncols, "a%d", err)))
        return rc;
    ld.lv = calloc((size_t)ncols, sizeof *ld.lv);
    if (!ld.lv)
        rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", in->what);
    int64_t i = 0, first_line = 0, after_header = 1;
    if (!rc && header) {
        rc = rl_next_row(&ld); /* the header again: 1 */
        if (rc == 1 && !(rc = rl_header_names(&ld)))
            after_header = in->end_line + 1;
    }
    while (!rc && (rc = rl_next_row(&ld)) == 1) {
        rc = 0;
        if (i == 0) {
            first_line = in->rec_line;
            if (!(rc = rl_check_fields(&ld)))
                rc = rl_kinds(&ld, rows);
        }
        if (!rc)
            rc = rl_row(&ld, i++, first_line);
    }
    if (!rc && i == 0)
        rc = dm_err_set(err, DM_EINPUT, "%s:%lld:1: a header and no rows after it", in->what,
                        (long long)after_header);
    for (int k = 0; ld.lv && k < ncols; k++)
        free(ld.lv[k].slot);
    free(ld.lv);
    if (rc)
        rl_table_free(t);
    else
        rl_fit(t, i);
    return rc;
}

int rl_table_parse(const char *text, size_t len, const char *what, const rl_load_opts *opts,
                   rl_table *t, dm_err *err)
{
    dm_csv in;
    memset(t, 0, sizeof *t);
    dm_csv_text(&in, text, len, what, opts ? opts->sep : 0);
    int rc = rl_parse(&in, opts, t, err);
    dm_csv_free(&in);
    return rc;
}

int rl_table_load(const char *path, const rl_load_opts *opts, rl_table *t, dm_err *err)
{
    dm_csv in;
    memset(t, 0, sizeof *t);
    int rc = dm_csv_open(&in, path, opts ? opts->sep : 0, err);
    if (rc)
        return rc;
    rc = rl_parse(&in, opts, t, err);
    dm_csv_free(&in);
    return rc;
}
