/* published.c - loads the papers' numbers from the CSV files of results/published/ with
 * every record checked, finds a row by paper, table, row key and column, and writes a
 * table back. The RFC 4180 record reader is here too: the files are small, read whole. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "published.h"

enum { F_PAPER, F_TABLE, F_ROW_KEY, F_COLUMN, F_VALUE, F_UNIT, F_CARD, F_SOURCE, NFIELDS };

static const char *const field_names[NFIELDS] = {
    "paper", "table", "row_key", "column", "value", "unit", "card", "source",
};

/* Units a value may carry: every one but "text" says the value is a number. */
static const char *const numeric_units[] = {
    "x", "%", "s", "ms", "us", "MB", "GBps", "MHz", "count", "episodes",
    "GPops", "MGPops/s", "BGPops/s", NULL,
};

#define TIMES_TEN_TO "\xc3\x97" "10^" /* "×10^" in UTF-8 */

/* ---- numbers ----------------------------------------------------------------------- */

int published_parse_number(const char *s, double *out)
{
    char buf[64];
    size_t o = 0, d;
    const char *p = s;
#define PUT(c) do { if (o + 2 >= sizeof buf) return -1; buf[o++] = (c); } while (0)
    if (*p == '-')
        PUT(*p++);
    for (d = 0; isdigit((unsigned char)p[d]); d++)
        ;
    if (d == 0 || (p[d] == ',' && d > 3))
        return -1;
    while (d--)
        PUT(*p++);
    while (*p == ',') { /* thousands separators: groups of exactly three digits */
        for (d = 1; d <= 3; d++)
            if (!isdigit((unsigned char)p[d]))
                return -1;
        if (isdigit((unsigned char)p[4]))
            return -1;
        for (d = 1; d <= 3; d++)
            PUT(p[d]);
        p += 4;
    }
    if (*p == '.') {
        PUT(*p++);
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p))
            PUT(*p++);
    }
    if (strncmp(p, TIMES_TEN_TO, strlen(TIMES_TEN_TO)) == 0) {
        p += strlen(TIMES_TEN_TO);
        PUT('e');
        if (*p == '-')
            PUT(*p++);
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p))
            PUT(*p++);
    }
#undef PUT
    if (*p)
        return -1;
    buf[o] = '\0';
    *out = strtod(buf, NULL);
    return 0;
}

static int unit_is_numeric(const char *unit, int *numeric)
{
    if (strcmp(unit, "text") == 0) {
        *numeric = 0;
        return 0;
    }
    for (const char *const *u = numeric_units; *u; u++)
        if (strcmp(unit, *u) == 0) {
            *numeric = 1;
            return 0;
        }
    return -1;
}

/* ---- row keys ---------------------------------------------------------------------- */

/* 0 when key is "k=v" pairs joined by ';', each k of [a-z0-9_] and each v non-empty
 * without '=', no k twice; else -1 with why set. */
static int row_key_check(const char *key, char *why, size_t n)
{
    const char *seg = key;
    for (;;) {
        size_t len = strcspn(seg, ";"), k = 0;
        while (k < len && (islower((unsigned char)seg[k]) || isdigit((unsigned char)seg[k]) ||
                           seg[k] == '_'))
            k++;
        if (k == 0 || k == len || seg[k] != '=' || k + 1 == len ||
            memchr(seg + k + 1, '=', len - k - 1)) {
            snprintf(why, n, "row_key \"%s\": \"%.*s\" is not key=value (key of a-z, 0-9, _)",
                     key, (int)len, seg);
            return -1;
        }
        for (const char *q = key; q < seg; q += strcspn(q, ";") + 1)
            if (strncmp(q, seg, k + 1) == 0) {
                snprintf(why, n, "row_key \"%s\" gives %.*s twice", key, (int)k, seg);
                return -1;
            }
        if (!seg[len])
            return 0;
        seg += len + 1;
    }
}

/* Whether the ';'-separated segment [s, s+len) is one of key's segments. */
static int has_segment(const char *key, const char *s, size_t len)
{
    for (const char *q = key;; q += strcspn(q, ";") + 1) {
        if (strcspn(q, ";") == len && strncmp(q, s, len) == 0)
            return 1;
        if (!q[strcspn(q, ";")])
            return 0;
    }
}

/* Whether every segment of a is one of b's. */
static int segments_within(const char *a, const char *b)
{
    for (const char *q = a;; q += strcspn(q, ";") + 1) {
        if (!has_segment(b, q, strcspn(q, ";")))
            return 0;
        if (!q[strcspn(q, ";")])
            return 1;
    }
}

static int row_key_equal(const char *a, const char *b)
{
    return segments_within(a, b) && segments_within(b, a);
}

static int same_cell(const dm_pub_row *r, const char *paper, const char *table,
                     const char *row_key, const char *column)
{
    return strcmp(r->paper, paper) == 0 && strcmp(r->table, table) == 0 &&
           strcmp(r->column, column) == 0 && row_key_equal(r->row_key, row_key);
}

const dm_pub_row *published_find(const dm_pub_table *t, const char *paper,
                                 const char *table, const char *row_key,
                                 const char *column)
{
    for (size_t i = 0; i < t->n; i++)
        if (same_cell(&t->rows[i], paper, table, row_key, column))
            return &t->rows[i];
    return NULL;
}

/* ---- reading records --------------------------------------------------------------- */

typedef struct csv_reader {
    const char *p, *end;
    int line; /* the physical line p is on */
} csv_reader;

/* Whether p (before end) is at "\n" or "\r\n". */
static int line_end(const char *p, const char *end)
{
    return *p == '\n' || (*p == '\r' && p + 1 < end && p[1] == '\n');
}

/* Reads the next record into out (room for the rest of the input plus one), its fields
 * NUL-terminated at the offsets in off (the first NFIELDS kept; *nf counts them all).
 * Returns 1, 0 at the end of input, or -1 with why and *bad_line set. */
static int csv_record(csv_reader *r, char *out, size_t *off, int *nf, int *bad_line,
                      char *why, size_t n)
{
    const char *p = r->p, *end = r->end;
    size_t o = 0;
    if (p == end)
        return 0;
    *nf = 0;
    for (;;) {
        if (*nf < NFIELDS)
            off[*nf] = o;
        if (p < end && *p == '"') {
            int open_line = r->line;
            for (p++;; p++) {
                if (p == end) {
                    *bad_line = open_line;
                    snprintf(why, n, "quoted field %d is never closed", *nf + 1);
                    return -1;
                }
                if (*p == '"') {
                    if (p + 1 < end && p[1] == '"') {
                        out[o++] = *p++;
                        continue;
                    }
                    p++;
                    break;
                }
                if (*p == '\n')
                    r->line++;
                out[o++] = *p;
            }
            if (p < end && *p != ',' && !line_end(p, end)) {
                *bad_line = r->line;
                snprintf(why, n, "'%c' after the closing quote of field %d", *p, *nf + 1);
                return -1;
            }
        } else {
            while (p < end && *p != ',' && !line_end(p, end)) {
                if (*p == '"' || *p == '\r') {
                    *bad_line = r->line;
                    snprintf(why, n, "%s inside unquoted field %d",
                             *p == '"' ? "a quote" : "a carriage return", *nf + 1);
                    return -1;
                }
                out[o++] = *p++;
            }
        }
        out[o++] = '\0';
        (*nf)++;
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        if (p < end) {
            p += *p == '\r' ? 2 : 1;
            r->line++;
        }
        r->p = p;
        return 1;
    }
}

/* ---- checking and keeping rows ----------------------------------------------------- */

/* 0 when the fields make a good row; else -1 with why set. */
static int row_check(char *const *f, char *why, size_t n)
{
    for (int i = 0; i < NFIELDS; i++)
        if (i != F_CARD && !f[i][0]) {
            snprintf(why, n, "empty %s", field_names[i]);
            return -1;
        }
    if (row_key_check(f[F_ROW_KEY], why, n) != 0)
        return -1;
    int numeric;
    double v;
    if (unit_is_numeric(f[F_UNIT], &numeric) != 0) {
        snprintf(why, n, "unknown unit \"%s\" (\"text\" for a value that is not a number)",
                 f[F_UNIT]);
        return -1;
    }
    if (numeric && published_parse_number(f[F_VALUE], &v) != 0) {
        snprintf(why, n, "value \"%s\" is not a number, which unit \"%s\" requires",
                 f[F_VALUE], f[F_UNIT]);
        return -1;
    }
    size_t lp = strlen(f[F_PAPER]);
    const char *ln = NULL;
    if (strncmp(f[F_SOURCE], f[F_PAPER], lp) == 0 && strncmp(f[F_SOURCE] + lp, ".txt:", 5) == 0)
        ln = f[F_SOURCE] + lp + 5;
    if (!ln || *ln < '1' || *ln > '9' || ln[strspn(ln, "0123456789")]) {
        snprintf(why, n, "source \"%s\" is not %s.txt:LINE", f[F_SOURCE], f[F_PAPER]);
        return -1;
    }
    return 0;
}

/* Appends a row holding copies of f. Returns 0 or -1 when memory runs out. */
static int row_add(dm_pub_table *t, char *const *f, const char *path, int line)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        dm_pub_row *rows = realloc(t->rows, cap * sizeof *rows);
        if (!rows)
            return -1;
        t->rows = rows;
        t->cap = cap;
    }
    size_t len[NFIELDS + 1], total = 0;
    for (int i = 0; i < NFIELDS; i++)
        total += (len[i] = strlen(f[i]) + 1);
    total += (len[NFIELDS] = strlen(path) + 1);
    char *buf = malloc(total), *q = buf;
    if (!buf)
        return -1;
    const char *s[NFIELDS + 1];
    for (int i = 0; i <= NFIELDS; i++) {
        memcpy(q, i < NFIELDS ? f[i] : path, len[i]);
        s[i] = q;
        q += len[i];
    }
    dm_pub_row *r = &t->rows[t->n++];
    *r = (dm_pub_row){ .paper = s[F_PAPER], .table = s[F_TABLE], .row_key = s[F_ROW_KEY],
                       .column = s[F_COLUMN], .value = s[F_VALUE], .unit = s[F_UNIT],
                       .card = s[F_CARD], .source = s[F_SOURCE], .file = s[NFIELDS],
                       .num = NAN, .line = line, .buf_ = buf };
    if (strcmp(r->unit, "text") != 0)
        published_parse_number(r->value, &r->num);
    return 0;
}

static void rows_drop(dm_pub_table *t, size_t from)
{
    while (t->n > from)
        free(t->rows[--t->n].buf_);
}

int published_load(const char *path, dm_pub_table *t, dm_err *err)
{
    char *data = NULL, *rec = NULL, why[DM_ERR_MAX / 2];
    size_t len = 0, off[NFIELDS], n0 = t->n;
    int nf, bad_line, rc = dm_read_file(path, &data, &len, err);
    if (rc != 0)
        return rc;
    if (!(rec = malloc(len + 1))) {
        rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
        goto fail;
    }
    csv_reader r = { .p = data, .end = data + len, .line = 1 };
    char *f[NFIELDS];
    for (int first = 1;; first = 0) {
        int line = r.line, got = csv_record(&r, rec, off, &nf, &bad_line, why, sizeof why);
        if (got < 0) {
            rc = dm_err_set(err, DM_EINPUT, "%s:%d: %s", path, bad_line, why);
            goto fail;
        }
        if (got == 0 && first) {
            rc = dm_err_set(err, DM_EINPUT, "%s:1: empty file; the header must be %s", path,
                            PUBLISHED_HEADER);
            goto fail;
        }
        if (got == 0)
            break;
        for (int i = 0; i < NFIELDS; i++)
            f[i] = i < nf ? rec + off[i] : "";
        if (first) {
            int ok = nf == NFIELDS;
            for (int i = 0; ok && i < NFIELDS; i++)
                ok = strcmp(f[i], field_names[i]) == 0;
            if (!ok) {
                rc = dm_err_set(err, DM_EINPUT, "%s:%d: the header must be %s", path, line,
                                PUBLISHED_HEADER);
                goto fail;
            }
            continue;
        }
        if (nf != NFIELDS) {
            rc = dm_err_set(err, DM_EINPUT, "%s:%d: %d field%s, expected %d", path, line, nf,
                            nf == 1 ? "" : "s", NFIELDS);
            goto fail;
        }
        if (row_check(f, why, sizeof why) != 0) {
            rc = dm_err_set(err, DM_EINPUT, "%s:%d: %s", path, line, why);
            goto fail;
        }
        const dm_pub_row *dup =
            published_find(t, f[F_PAPER], f[F_TABLE], f[F_ROW_KEY], f[F_COLUMN]);
        if (dup) {
            rc = dm_err_set(err, DM_EINPUT, "%s:%d: the same cell as %s:%d (%s, %s, %s, %s)",
                            path, line, dup->file, dup->line, f[F_PAPER], f[F_TABLE],
                            f[F_ROW_KEY], f[F_COLUMN]);
            goto fail;
        }
        if (row_add(t, f, path, line) != 0) {
            rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
            goto fail;
        }
    }
    free(rec);
    free(data);
    return 0;
fail:
    rows_drop(t, n0);
    free(rec);
    free(data);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int published_load_dir(const char *dir, dm_pub_table *t, dm_err *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return dm_err_set(err, DM_EINPUT, "%s: cannot read the directory: %s", dir,
                          strerror(errno));
    char **names = NULL, path[4096];
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".csv") != 0)
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *nn);
            if (!nn) {
                rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", dir);
                goto done;
            }
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", dir);
            goto done;
        }
        n++;
    }
    if (n == 0) {
        rc = dm_err_set(err, DM_EINPUT, "%s: no .csv file", dir);
        goto done;
    }
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n && rc == 0; i++) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= sizeof path)
            rc = dm_err_set(err, DM_EINPUT, "%s/%s: path too long", dir, names[i]);
        else
            rc = published_load(path, t, err);
    }
    if (rc == 0 && (size_t)snprintf(path, sizeof path, "%s/%s", dir, PUBLISHED_TARGETS) <
                   sizeof path && access(path, F_OK) == 0)
        rc = published_load_targets(path, t, err);
done:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return rc;
}

/* ---- writing ----------------------------------------------------------------------- */

static void put_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\r\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}

int published_write(const char *path, const dm_pub_table *t, dm_err *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return dm_err_set(err, DM_ERUNTIME, "%s: cannot create: %s", path, strerror(errno));
    fputs(PUBLISHED_HEADER "\n", f);
    for (size_t i = 0; i < t->n; i++) {
        const dm_pub_row *r = &t->rows[i];
        const char *v[NFIELDS] = { r->paper, r->table, r->row_key,
                                   r->column, r->value, r->unit, r->card, r->source };
        for (int k = 0; k < NFIELDS; k++)
            put_field(f, v[k], k == NFIELDS - 1);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return dm_err_set(err, DM_ERUNTIME, "%s: write error: %s", path, strerror(errno));
    return 0;
}

void published_free(dm_pub_table *t)
{
    rows_drop(t, 0);
    free(t->rows);
    for (size_t i = 0; i < t->ntargets; i++)
        free(t->targets[i].buf_);
    free(t->targets);
    *t = (dm_pub_table){ 0 };
}
