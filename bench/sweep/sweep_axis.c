/* sweep_axis.c - one axis of a sweep: its name checked against the listed variants'
 * parameters, its values (a list, {range: [from, to, step]}, {pow2: [from, to]} or one
 * scalar) expanded to text and checked against every listed variant's spec. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "sweep_int.h"

void sweep_known_params(const dm_sweep *s, char *buf, size_t n)
{
    const dm_param_spec *tabs[2 + 64];
    int ntabs = 0;
    tabs[ntabs++] = s->workload->dataset_params;
    tabs[ntabs++] = s->workload->problem_params;
    for (int v = 0; v < s->nvariants && ntabs < 2 + 64; v++)
        tabs[ntabs++] = s->variants[v]->params;
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < ntabs; t++) {
        for (const dm_param_spec *p = tabs[t]; p && p->name; p++) {
            int seen = 0;
            for (int u = 0; u < t && !seen; u++)
                for (const dm_param_spec *q = tabs[u]; q && q->name && !seen; q++)
                    seen = strcmp(p->name, q->name) == 0;
            if (seen)
                continue;
            int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", p->name);
            if (w < 0 || (size_t)w >= n - used)
                return;
            used += (size_t)w;
        }
    }
}

void sweep_axis_free(sweep_axis *a)
{
    for (int i = 0; i < a->nvalues; i++)
        free(a->values[i]);
    free(a->values);
    free(a->name);
    memset(a, 0, sizeof *a);
    a->zip = -1;
}

/* Appends a value; DM_ERUNTIME when out of memory. cap is the room in a->values. */
static int axis_push(sweep_axis *a, int *cap, const char *text, dm_err *err)
{
    if (a->nvalues == *cap) {
        int ncap = *cap ? 2 * *cap : 8;
        char **v = realloc(a->values, (size_t)ncap * sizeof *v);
        if (!v)
            return dm_err_set(err, DM_ERUNTIME, "out of memory reading axis '%s'", a->name);
        a->values = v;
        *cap = ncap;
    }
    if (!(a->values[a->nvalues] = strdup(text)))
        return dm_err_set(err, DM_ERUNTIME, "out of memory reading axis '%s'", a->name);
    a->nvalues++;
    return 0;
}

/* The bounds of {range: ...} or {pow2: ...}: want scalars read as integers. */
static int axis_bounds(const sweep_src *src, const char *form, const sy_node *list, int want,
                       const char *shape, int64_t *out, dm_err *err)
{
    if (list->kind != SY_SEQ)
        return sweep_fail(src, list, err, "%s takes a list of %d integers, found %s; "
                          "expected %s", form, want, sy_kind_name(list), shape);
    if (list->n != want)
        return sweep_fail(src, list, err, "%s takes %d integers, found %d; expected %s", form,
                          want, list->n, shape);
    dm_param_spec int_spec = {.name = form, .type = DM_P_INT};
    for (int i = 0; i < want; i++) {
        const sy_node *b = list->items[i];
        dm_value v;
        if (b->kind != SY_SCALAR || dm_value_parse(&int_spec, b->text, &v, NULL))
            return sweep_fail(src, b, err, "%s bound '%s' is not an integer; expected %s",
                              form, b->kind == SY_SCALAR ? b->text : sy_kind_name(b),
                              shape);
        out[i] = v.i;
    }
    return 0;
}

static int is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

static int axis_range(const sweep_src *src, const sy_node *list, sweep_axis *a, int *cap,
                      dm_err *err)
{
    const char *shape = "{range: [from, to, step]}";
    int64_t b[3];
    int rc = axis_bounds(src, "range", list, 3, shape, b, err);
    if (rc)
        return rc;
    if (b[2] <= 0)
        return sweep_fail(src, list->items[2], err, "range step %" PRId64 " is not positive; "
                          "expected a step > 0", b[2]);
    if (b[0] > b[1])
        return sweep_fail(src, list->items[0], err, "range from %" PRId64 " is greater than "
                          "to %" PRId64 "; expected from <= to", b[0], b[1]);
    uint64_t count = ((uint64_t)b[1] - (uint64_t)b[0]) / (uint64_t)b[2] + 1;
    if (count > SWEEP_MAX_VALUES)
        return sweep_fail(src, list, err, "range gives %" PRIu64 " values; expected at most "
                          "%d", count, SWEEP_MAX_VALUES);
    for (uint64_t i = 0; i < count; i++) {
        char text[32];
        snprintf(text, sizeof text, "%" PRId64, (int64_t)((uint64_t)b[0] + i * (uint64_t)b[2]));
        if ((rc = axis_push(a, cap, text, err)))
            return rc;
    }
    return 0;
}

static int axis_pow2(const sweep_src *src, const sy_node *list, sweep_axis *a, int *cap,
                     dm_err *err)
{
    int64_t b[2];
    int rc = axis_bounds(src, "pow2", list, 2, "{pow2: [from, to]}", b, err);
    if (rc)
        return rc;
    for (int i = 0; i < 2; i++) {
        if (is_pow2(b[i]))
            continue;
        int64_t lo = 1;
        while (b[i] > 0 && lo <= b[i] / 2)
            lo *= 2;
        if (lo > INT64_MAX / 2) /* the next power of two is beyond int64 */
            return sweep_fail(src, list->items[i], err, "pow2 bound %" PRId64 " is not a "
                              "power of two; expected one such as %" PRId64, b[i], lo);
        return sweep_fail(src, list->items[i], err, "pow2 bound %" PRId64 " is not a power of "
                          "two; expected one such as %" PRId64 " or %" PRId64, b[i], lo,
                          lo * 2);
    }
    if (b[0] > b[1])
        return sweep_fail(src, list->items[0], err, "pow2 from %" PRId64 " is greater than to "
                          "%" PRId64 "; expected from <= to", b[0], b[1]);
    for (int64_t x = b[0];; x *= 2) {
        char text[32];
        snprintf(text, sizeof text, "%" PRId64, x);
        if ((rc = axis_push(a, cap, text, err)))
            return rc;
        if (x == b[1])
            break;
    }
    return 0;
}

/* Checks that every value of a parses and is allowed for each listed variant having the
 * parameter (and, for ranges, that the parameter is an integer). */
static int axis_check(const dm_sweep *s, const sweep_src *src, const sy_node *val,
                      const sweep_axis *a, const char *form, dm_err *err)
{
    const dm_param_spec *done[64];
    int ndone = 0;
    for (int v = 0; v < s->nvariants; v++) {
        const dm_param_spec *spec = registry_param(s->workload, s->variants[v], a->name);
        int seen = 0;
        for (int d = 0; d < ndone && !seen; d++)
            seen = done[d] == spec;
        if (!spec || seen)
            continue;
        if (ndone < 64)
            done[ndone++] = spec;
        int dataset_wide = registry_param(s->workload, NULL, a->name) != NULL;
        char whose[128] = "";
        if (!dataset_wide)
            snprintf(whose, sizeof whose, " of variant '%s'", s->variants[v]->name);
        if (form && spec->type != DM_P_INT)
            return sweep_fail(src, val, err, "{%s: ...} needs an integer parameter, and '%s'%s "
                              "is %s; expected a list of values", form, a->name, whose,
                              spec->type == DM_P_REAL ? "a real number" : "an enum");
        for (int i = 0; i < a->nvalues; i++) {
            dm_value parsed;
            dm_err why;
            if (dm_value_parse(spec, a->values[i], &parsed, &why) == 0)
                continue;
            const sy_node *at = val->kind == SY_SEQ ? val->items[i] : val;
            return sweep_fail(src, at, err, "bad value for axis '%s'%s: %s", a->name, whose,
                              why.msg);
        }
    }
    return 0;
}

int sweep_axis_parse(const dm_sweep *s, const sweep_src *src, const sy_node *key,
                     const sy_node *val, sweep_axis *out, dm_err *err)
{
    int cap = 0, rc;
    const char *form = NULL;
    memset(out, 0, sizeof *out);
    out->zip = -1;
    int known = 0;
    for (int v = 0; v < s->nvariants && !known; v++)
        known = registry_param(s->workload, s->variants[v], key->text) != NULL;
    if (!known) {
        char list[512];
        sweep_known_params(s, list, sizeof list);
        return sweep_fail(src, key, err, "axis '%s' is not a parameter of any listed variant "
                          "of workload '%s' (known: %s)", key->text, s->workload->name, list);
    }
    const dm_param_spec *gen = registry_generated_param(s->workload, key->text);
    if (gen && s->source.path[0])
        return sweep_fail(src, key, err, "axis '%s' describes generated data (%s); the dataset "
                          "is the file %s", key->text, gen->help, s->source.path);
    if (!(out->name = strdup(key->text)))
        return dm_err_set(err, DM_ERUNTIME, "out of memory reading axis '%s'", key->text);

    if (val->kind == SY_SCALAR) {
        if (sy_is_null(val)) {
            rc = sweep_fail(src, val, err, "axis '%s' has no value; expected a value, a list, "
                            "{range: [from, to, step]} or {pow2: [from, to]}", out->name);
            goto fail;
        }
        if ((rc = axis_push(out, &cap, val->text, err)))
            goto fail;
    } else if (val->kind == SY_SEQ) {
        if (val->n == 0) {
            rc = sweep_fail(src, val, err, "empty list for axis '%s'; expected at least one "
                            "value", out->name);
            goto fail;
        }
        for (int i = 0; i < val->n; i++) {
            const sy_node *item = val->items[i];
            if (item->kind != SY_SCALAR || sy_is_null(item)) {
                rc = sweep_fail(src, item, err, "%s in the list of axis '%s'; expected a value",
                                item->kind == SY_SCALAR ? "an empty item" : sy_kind_name(item),
                                out->name);
                goto fail;
            }
            if ((rc = axis_push(out, &cap, item->text, err)))
                goto fail;
        }
    } else {
        const sy_node *k = val->n == 2 ? val->items[0] : NULL;
        if (k && strcmp(k->text, "range") == 0) {
            form = "range";
            rc = axis_range(src, val->items[1], out, &cap, err);
        } else if (k && strcmp(k->text, "pow2") == 0) {
            form = "pow2";
            rc = axis_pow2(src, val->items[1], out, &cap, err);
        } else if (k) {
            rc = sweep_fail(src, k, err, "unknown form '%s' for axis '%s'; expected "
                            "{range: [from, to, step]} or {pow2: [from, to]}", k->text,
                            out->name);
        } else {
            rc = sweep_fail(src, val, err, "a mapping of %d keys for axis '%s'; expected "
                            "{range: [from, to, step]} or {pow2: [from, to]}", val->n / 2,
                            out->name);
        }
        if (rc)
            goto fail;
    }
    if ((rc = axis_check(s, src, val, out, form, err)))
        goto fail;
    return 0;
fail:
    sweep_axis_free(out);
    return rc;
}
