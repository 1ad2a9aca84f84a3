/* plotdata_series.c - points read for a plot become series: the --where filters, --by
 * splitting series by a parameter, sorting by variant and parameters, one row per x,
 * titles from the parameters that vary, and the .dat text (header comment, then one
 * titled block per series). */
#define _GNU_SOURCE /* strverscmp: n=2^20 before n=2^24 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "plotdata_int.h"

/* The value of name in a "name=value,..." list, copied to out; 1 when found. */
static int param_value(const char *params, const char *name, char *out, size_t n)
{
    size_t len = strlen(name);
    for (const char *p = params; p && *p;) {
        const char *end = strchr(p, ',');
        size_t elen = end ? (size_t)(end - p) : strlen(p);
        if (elen > len && p[len] == '=' && strncmp(p, name, len) == 0) {
            size_t vlen = elen - len - 1;
            if (vlen >= n)
                vlen = n - 1;
            memcpy(out, p + len + 1, vlen);
            out[vlen] = '\0';
            return 1;
        }
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* Whether two parameter values are equal: as numbers when both are, else as text. */
static int same_value(const char *a, const char *b)
{
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    if (ea != a && *ea == '\0' && eb != b && *eb == '\0')
        return x == y;
    return strcmp(a, b) == 0;
}

int pd_passes(const pd_ctx *c, const char *params)
{
    for (int i = 0; i < c->o->nwhere; i++) {
        const char *eq = strchr(c->o->where[i], '=');
        char name[64], have[DM_TEXT_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(eq - c->o->where[i]), c->o->where[i]);
        if (param_value(params, name, have, sizeof have) && !same_value(have, eq + 1))
            return 0;
    }
    return 1;
}

/* --by: appends "by=value" from params to a series key that lacks it, so that each of
 * its values is a series of its own. */
static void by_key(const pd_ctx *c, const char *params, char *key, size_t n)
{
    char value[DM_TEXT_MAX], have[DM_TEXT_MAX];
    if (!c->o->by || !param_value(params, c->o->by, value, sizeof value) ||
        param_value(key, c->o->by, have, sizeof have))
        return;
    size_t used = strlen(key);
    snprintf(key + used, n - used, "%s%s=%s", used ? "," : "", c->o->by, value);
}

int pd_rows_read(pd_ctx *c, const char *sql, int nv, pd_rows *rows, dm_err *err)
{
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    int rc;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, c->run.id);
    sqlite3_bind_text(q, 2, c->axis, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *params = (const char *)sqlite3_column_text(q, 1);
        if (!pd_passes(c, params))
            continue;
        if (rows->n == rows->cap) {
            size_t cap = rows->cap ? 2 * rows->cap : 64;
            pd_row *grown = realloc(rows->r, cap * sizeof *grown);
            if (!grown) {
                sqlite3_finalize(q);
                return dm_err_set(err, DM_ERUNTIME, "out of memory reading points");
            }
            rows->r = grown;
            rows->cap = cap;
        }
        pd_row *w = &rows->r[rows->n++];
        snprintf(w->variant, sizeof w->variant, "%s", (const char *)sqlite3_column_text(q, 0));
        dm_params_without((const char *)sqlite3_column_text(q, 2), c->axis, w->key,
                          sizeof w->key);
        by_key(c, params, w->key, sizeof w->key);
        w->x = sqlite3_column_double(q, 3);
        w->order = sqlite3_column_double(q, 4);
        for (int i = 0; i < PD_MAXV; i++)
            w->v[i] = i < nv && sqlite3_column_type(q, 5 + i) != SQLITE_NULL
                          ? sqlite3_column_double(q, 5 + i) : NAN;
    }
    if (rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(q);
    return 0;
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "reading points for plot %s: %s", c->kind->name,
                    sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return rc;
}

void pd_rows_free(pd_rows *rows)
{
    free(rows->r);
    memset(rows, 0, sizeof *rows);
}

static int same_series(const pd_row *a, const pd_row *b)
{
    return !strcmp(a->variant, b->variant) && !strcmp(a->key, b->key);
}

static int row_cmp(const void *p, const void *q)
{
    const pd_row *a = p, *b = q;
    int c;
    if ((c = strcmp(a->variant, b->variant)) || (c = strverscmp(a->key, b->key)))
        return c;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* Reads the entry at p of a "name=value,..." list into name and value; returns where the
 * next entry starts, or NULL after the last one. */
static const char *next_entry(const char *p, char *name, size_t nn, char *value, size_t nv)
{
    const char *end = strchr(p, ','), *eq = strchr(p, '=');
    size_t elen = end ? (size_t)(end - p) : strlen(p);
    size_t klen = eq && (size_t)(eq - p) < elen ? (size_t)(eq - p) : elen;
    snprintf(name, nn, "%.*s", (int)klen, p);
    snprintf(value, nv, "%.*s", klen < elen ? (int)(elen - klen - 1) : 0, p + klen + (klen < elen));
    return end ? end + 1 : NULL;
}

void pd_constants(const char *const *keys, size_t n, char *out, size_t len)
{
    char name[64], value[DM_TEXT_MAX], other[DM_TEXT_MAX];
    out[0] = '\0';
    for (const char *p = n ? keys[0] : NULL; p && *p;) {
        p = next_entry(p, name, sizeof name, value, sizeof value);
        size_t i = 1;
        while (i < n && param_value(keys[i], name, other, sizeof other) && !strcmp(other, value))
            i++;
        if (i == n) {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s=%s", used ? ", " : "", name, value);
        }
    }
}

/* Whether name is one of constants ("name=value, ..."). */
static int is_constant(const char *constants, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = constants; (p = strstr(p, name)); p += len)
        if ((p == constants || (p >= constants + 2 && p[-2] == ',' && p[-1] == ' ')) &&
            p[len] == '=')
            return 1;
    return 0;
}

void pd_title(const char *prefix, const char *key, const char *constants, char *out, size_t n)
{
    char name[64], value[DM_TEXT_MAX];
    snprintf(out, n, "%s", prefix);
    for (const char *p = key; p && *p;) {
        p = next_entry(p, name, sizeof name, value, sizeof value);
        if (is_constant(constants, name))
            continue;
        size_t used = strlen(out);
        snprintf(out + used, n - used, "%s%s=%s", used ? " " : "", name, value);
    }
}

void pd_subtitle(const pd_ctx *c, dm_plot_meta *m, const char *constants)
{
    char name[64], value[DM_TEXT_MAX];
    const char *sep = m->subtitle[0] ? "; constant: " : "constant: ";
    for (const char *p = constants; p && *p;) {
        p = next_entry(p, name, sizeof name, value, sizeof value);
        while (p && *p == ' ')
            p++;
        int selected = 0;
        for (int i = 0; i < c->o->nwhere; i++)
            selected |= !strncmp(c->o->where[i], name, strlen(name)) &&
                        c->o->where[i][strlen(name)] == '=';
        if (selected)
            continue;
        size_t used = strlen(m->subtitle);
        snprintf(m->subtitle + used, sizeof m->subtitle - used, "%s%s=%s", sep, name, value);
        sep = ", ";
    }
    for (int i = 0; i < c->o->nwhere; i++) {
        size_t used = strlen(m->subtitle);
        snprintf(m->subtitle + used, sizeof m->subtitle - used, "%s%s",
                 i ? ", " : used ? "; selected: " : "selected: ", c->o->where[i]);
    }
}

void pd_block_title(FILE *out, const char *title)
{
    fputc('"', out);
    for (const char *p = title; *p; p++)
        fputc(*p == '"' ? '\'' : *p, out);
    fputs("\"\n", out);
}

int pd_series_write(pd_ctx *c, pd_rows *rows, int nv, const char *columns, FILE *out,
                    dm_plot_meta *m, dm_err *err)
{
    if (rows->n == 0)
        return dm_err_set(err, DM_EINPUT, "no ok points of run %lld to plot against %s%s",
                          (long long)c->run.id, c->axis,
                          c->o->nwhere ? " with those --where filters" : "");
    qsort(rows->r, rows->n, sizeof *rows->r, row_cmp);
    size_t k = 0;
    for (size_t i = 0; i < rows->n; i++)
        if (k == 0 || !same_series(&rows->r[k - 1], &rows->r[i]) || rows->r[k - 1].x != rows->r[i].x)
            rows->r[k++] = rows->r[i];
    rows->n = k;

    const char **keys = malloc(rows->n * sizeof *keys);
    if (!keys)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    for (size_t i = 0; i < rows->n; i++)
        keys[i] = rows->r[i].key;
    char constants[512];
    pd_constants(keys, rows->n, constants, sizeof constants);
    free(keys);
    pd_subtitle(c, m, constants);

    m->series = 0;
    m->rows = (int)rows->n;
    for (size_t i = 0; i < rows->n; i++)
        m->series += i == 0 || !same_series(&rows->r[i - 1], &rows->r[i]);
    pd_header(c, m, columns, out);
    char title[640];
    for (size_t i = 0, s = 0; i < rows->n; i++)
        if (i == 0 || !same_series(&rows->r[i - 1], &rows->r[i])) {
            pd_title(rows->r[i].variant, rows->r[i].key, constants, title, sizeof title);
            fprintf(out, "# series %zu: %s\n", s++, title);
        }
    for (size_t i = 0; i < rows->n; i++) {
        const pd_row *r = &rows->r[i];
        if (i == 0 || !same_series(&rows->r[i - 1], r)) {
            pd_title(r->variant, r->key, constants, title, sizeof title);
            fputs(i ? "\n\n" : "\n", out);
            pd_block_title(out, title);
        }
        fprintf(out, "%.9g", r->x);
        for (int j = 0; j < nv; j++)
            fprintf(out, " %.9g", r->v[j]);
        fputc('\n', out);
    }
    return 0;
}
