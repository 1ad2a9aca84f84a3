/* rl_table.c - the rules workload's column-major tables: making an empty one, freeing it,
 * a view of some of its rows and the slices that cut it across GPUs, and finding a column
 * by name or a categorical level by its text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_table.h"

int rl_table_init(rl_table *t, int64_t n, int ncols, const char *name_fmt, dm_err *err)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->cols = calloc((size_t)ncols, sizeof *t->cols);
    if (!t->cols)
        return dm_err_set(err, DM_ERUNTIME, "table: out of memory");
    t->ncols = ncols;
    for (int j = 0; j < ncols; j++) {
        rl_column *c = &t->cols[j];
        char name[32];
        snprintf(name, sizeof name, name_fmt, j);
        c->kind = RL_NUMERIC;
        c->name = strdup(name);
        c->num = calloc(n > 0 ? (size_t)n : 1, sizeof *c->num);
        if (!c->name || !c->num) {
            rl_table_free(t);
            return dm_err_set(err, DM_ERUNTIME, "table: out of memory");
        }
    }
    return 0;
}

void rl_table_free(rl_table *t)
{
    for (int j = 0; j < t->ncols; j++) {
        rl_column *c = &t->cols[j];
        free(c->name);
        free(c->num);
        free(c->code);
        for (int k = 0; k < c->nlevels; k++)
            free(c->levels[k]);
        free(c->levels);
    }
    free(t->cols);
    memset(t, 0, sizeof *t);
}

int rl_table_rows(const rl_table *t, int64_t i0, int64_t n, rl_table *view, dm_err *err)
{
    memset(view, 0, sizeof *view);
    view->cols = calloc((size_t)t->ncols, sizeof *view->cols);
    if (!view->cols)
        return dm_err_set(err, DM_ERUNTIME, "table: out of memory");
    view->n = n;
    view->ncols = t->ncols;
    for (int j = 0; j < t->ncols; j++) {
        view->cols[j] = t->cols[j];
        if (t->cols[j].kind == RL_NUMERIC)
            view->cols[j].num += i0;
        else
            view->cols[j].code += i0;
    }
    return 0;
}

void rl_table_view_free(rl_table *view)
{
    free(view->cols);
    memset(view, 0, sizeof *view);
}

void rl_table_slice(int64_t n, int parts, int k, int64_t *i0, int64_t *len)
{
    const int64_t base = n / parts, extra = n % parts;
    *len = base + (k < extra);
    *i0 = k * base + (k < extra ? k : extra);
}

int rl_table_column(const rl_table *t, const char *name)
{
    for (int j = 0; j < t->ncols; j++)
        if (strcmp(t->cols[j].name, name) == 0)
            return j;
    return -1;
}

int rl_column_level(const rl_column *c, const char *text)
{
    for (int k = 0; k < c->nlevels; k++)
        if (strcmp(c->levels[k], text) == 0)
            return k;
    return -1;
}
