/* sweep.c - sweep matrix files: the top-level sections (workload, dataset, variants,
 * baseline, axes, zip, constraints, measure), command-line axis overrides, and the
 * accessors. The YAML tree comes from sweep_yaml.c and the axes from sweep_axis.c;
 * sweep_expand.c turns a sweep into points. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti_dm.h"
#include "device.h"
#include "registry.h"
#include "sweep_int.h"

static const char *const sweep_sections[] = {
    "name", "description", "workload", "dataset", "variants", "baseline", "axes", "zip",
    "constraints", "measure", "metrics", "timeline", NULL,
};

void sweep_measure_defaults(dm_measure_opts *o)
{
    o->mode = DM_MODE_COLD;
    o->min_samples = 10;
    o->max_noise = 0.005;
    o->max_time = 2.0;
    o->max_samples = 100000;
    o->criterion = DM_CRIT_MEDIAN;
    o->outlier_k = DM_OUTLIER_K_DEFAULT;
}

/* Writes "a, b, c" from a NULL-terminated list. */
static void sweep_join(const char *const *names, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; names[i]; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0 || (size_t)w >= n - used)
            return;
        used += (size_t)w;
    }
}

/* The value under key in map, or NULL. */
static const sy_node *sweep_lookup(const sy_node *map, const char *key)
{
    for (int i = 0; i < map->n; i += 2)
        if (strcmp(map->items[i]->text, key) == 0)
            return map->items[i + 1];
    return NULL;
}

/* DM_EINPUT at the first key of map not in known. */
static int sweep_check_keys(const sweep_src *src, const sy_node *map,
                            const char *const *known, const char *where, dm_err *err)
{
    for (int i = 0; i < map->n; i += 2) {
        const char *key = map->items[i]->text;
        size_t k = 0;
        while (known[k] && strcmp(known[k], key) != 0)
            k++;
        if (!known[k]) {
            char list[256];
            sweep_join(known, list, sizeof list);
            return sweep_fail(src, map->items[i], err, "unknown key '%s'%s; expected one of: %s",
                              key, where, list);
        }
    }
    return 0;
}

/* A non-empty scalar's text, or DM_EINPUT saying what was expected instead. */
static int sweep_scalar(const sweep_src *src, const sy_node *val, const char *key,
                        const char *expected, const char **text, dm_err *err)
{
    if (val->kind != SY_SCALAR || sy_is_null(val))
        return sweep_fail(src, val, err, "'%s' is %s; expected %s", key,
                          val->kind == SY_SCALAR ? "empty" : sy_kind_name(val), expected);
    *text = val->text;
    return 0;
}

/* A non-empty list, or DM_EINPUT saying what was expected instead. */
static int sweep_list(const sweep_src *src, const sy_node *val, const char *key,
                      const char *expected, dm_err *err)
{
    if (val->kind != SY_SEQ)
        return sweep_fail(src, val, err, "'%s' is %s; expected %s", key,
                          sy_is_null(val) ? "empty" : sy_kind_name(val), expected);
    if (val->n == 0)
        return sweep_fail(src, val, err, "empty list for '%s'; expected %s", key, expected);
    return 0;
}

static int sweep_oom(dm_err *err)
{
    return dm_err_set(err, DM_ERUNTIME, "out of memory reading a sweep");
}

/* ---- sections --------------------------------------------------------------------- */

static int sweep_parse_workload(dm_sweep *s, const sweep_src *src, const sy_node *root,
                                dm_err *err)
{
    const dm_workload *const *all = registry_workloads();
    const char *names[64];
    size_t n = 0;
    for (; all[n] && n < 63; n++)
        names[n] = all[n]->name;
    names[n] = NULL;
    char list[512];
    sweep_join(names, list, sizeof list);

    const sy_node *val = sweep_lookup(root, "workload");
    const char *name = NULL;
    dm_err why;
    int rc;
    if (!val)
        return sweep_fail(src, root, err, "missing 'workload'; expected the name of a "
                          "workload (known: %s)", list);
    if ((rc = sweep_scalar(src, val, "workload", "the name of a workload", &name, err)))
        return rc;
    if (!(s->workload = registry_workload(name, &why)))
        return sweep_fail(src, val, err, "%s", why.msg);
    return 0;
}

static int sweep_parse_variants(dm_sweep *s, const sweep_src *src, const sy_node *root,
                                dm_err *err)
{
    const char *names[128];
    size_t n = 0;
    for (; s->workload->variants[n].name && n < 127; n++)
        names[n] = s->workload->variants[n].name;
    names[n] = NULL;
    char list[1024], expected[1200];
    sweep_join(names, list, sizeof list);
    snprintf(expected, sizeof expected, "a list of variants of workload '%s' (known: %s)",
             s->workload->name, list);

    const sy_node *val = sweep_lookup(root, "variants");
    int rc;
    if (!val)
        return sweep_fail(src, root, err, "missing 'variants'; expected %s", expected);
    if ((rc = sweep_list(src, val, "variants", expected, err)))
        return rc;
    if (!(s->variants = calloc((size_t)val->n, sizeof *s->variants)))
        return sweep_oom(err);
    for (int i = 0; i < val->n; i++) {
        const sy_node *item = val->items[i];
        const char *name = NULL;
        dm_err why;
        if ((rc = sweep_scalar(src, item, "variants", expected, &name, err)))
            return rc;
        const dm_variant *v = registry_variant(s->workload, name, &why);
        if (!v)
            return sweep_fail(src, item, err, "%s", why.msg);
        for (int j = 0; j < s->nvariants; j++)
            if (s->variants[j] == v)
                return sweep_fail(src, item, err, "variant '%s' listed twice; expected each "
                                  "variant once", name);
        s->variants[s->nvariants++] = v;
    }
    return 0;
}

/* "a, b, c": the sweep's variants into buf. */
static void sweep_variant_list(const dm_sweep *s, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 0; i < s->nvariants; i++)
        dm_append(buf, n, "%s%s", i ? ", " : "", s->variants[i]->name);
}

static int sweep_parse_baseline(dm_sweep *s, const sweep_src *src, const sy_node *root,
                                dm_err *err)
{
    const sy_node *val = sweep_lookup(root, "baseline");
    const char *name = NULL;
    int rc;
    if (!val)
        return 0;
    if ((rc = sweep_scalar(src, val, "baseline", "one of the listed variants", &name, err)))
        return rc;
    for (int i = 0; i < s->nvariants; i++)
        if (strcmp(s->variants[i]->name, name) == 0) {
            s->baseline = s->variants[i];
            return 0;
        }
    char list[1024];
    sweep_variant_list(s, list, sizeof list);
    return sweep_fail(src, val, err, "baseline '%s' is not among the listed variants; "
                      "expected one of: %s", name, list);
}

/* dataset: {generator: NAME} or {path: FILE}; a relative path is taken from dir (the
 * sweep file's folder; NULL: as written). */
static int sweep_parse_dataset(dm_sweep *s, const sweep_src *src, const sy_node *root,
                               const char *dir, dm_err *err)
{
    static const char *const keys[] = {"generator", "path", NULL};
    char gens[512];
    sweep_join(s->workload->generators, gens, sizeof gens);
    char expected[700];
    snprintf(expected, sizeof expected, "exactly one of {generator: NAME} (known: %s) or "
             "{path: FILE}", gens);

    const sy_node *val = sweep_lookup(root, "dataset");
    int rc;
    if (!val)
        return sweep_fail(src, root, err, "missing 'dataset'; expected %s", expected);
    if (val->kind != SY_MAP)
        return sweep_fail(src, val, err, "'dataset' is %s; expected %s",
                          sy_is_null(val) ? "empty" : sy_kind_name(val), expected);
    if ((rc = sweep_check_keys(src, val, keys, " in 'dataset'", err)))
        return rc;
    const sy_node *gen = sweep_lookup(val, "generator");
    const sy_node *path = sweep_lookup(val, "path");
    if (!gen == !path)
        return sweep_fail(src, val, err, "'dataset' has %s; expected %s",
                          gen ? "both a generator and a path" : "neither a generator nor a path",
                          expected);
    const char *text = NULL;
    if (gen) {
        if ((rc = sweep_scalar(src, gen, "generator", expected, &text, err)))
            return rc;
        const char *const *g = s->workload->generators;
        while (g && *g && strcmp(*g, text) != 0)
            g++;
        if (!g || !*g)
            return sweep_fail(src, gen, err, "unknown generator '%s' of workload '%s'; "
                              "expected one of: %s", text, s->workload->name, gens);
        snprintf(s->source.generator, sizeof s->source.generator, "%s", text);
        return 0;
    }
    if ((rc = sweep_scalar(src, path, "path", "a file name", &text, err)))
        return rc;
    int w = text[0] != '/' && dir && dir[0]
                ? snprintf(s->source.path, sizeof s->source.path, "%s/%s", dir, text)
                : snprintf(s->source.path, sizeof s->source.path, "%s", text);
    if (w < 0 || (size_t)w >= sizeof s->source.path)
        return sweep_fail(src, path, err, "dataset path is %d characters long; expected "
                          "fewer than %zu", w, sizeof s->source.path);
    return 0;
}

static int sweep_parse_axes(dm_sweep *s, const sweep_src *src, const sy_node *root,
                            dm_err *err)
{
    const sy_node *val = sweep_lookup(root, "axes");
    if (!val)
        return 0;
    if (val->kind != SY_MAP)
        return sweep_fail(src, val, err, "'axes' is %s; expected a mapping of parameter "
                          "names to values", sy_is_null(val) ? "empty" : sy_kind_name(val));
    if (!(s->axes = calloc((size_t)val->n / 2 + 1, sizeof *s->axes)))
        return sweep_oom(err);
    for (int i = 0; i < val->n; i += 2) {
        int rc = sweep_axis_parse(s, src, val->items[i], val->items[i + 1],
                                  &s->axes[s->naxes], err);
        if (rc)
            return rc;
        s->naxes++;
    }
    return 0;
}

static int sweep_axis_index(const dm_sweep *s, const char *name)
{
    for (int i = 0; i < s->naxes; i++)
        if (strcmp(s->axes[i].name, name) == 0)
            return i;
    return -1;
}

static int sweep_parse_zip(dm_sweep *s, const sweep_src *src, const sy_node *root,
                           dm_err *err)
{
    const char *expected = "a list of groups of axis names, e.g. [[n, chunk]]";
    const sy_node *val = sweep_lookup(root, "zip");
    const sy_node **first = NULL; /* where each axis was zipped, for messages */
    int rc;
    if (!val)
        return 0;
    if ((rc = sweep_list(src, val, "zip", expected, err)))
        return rc;
    if (!(first = calloc((size_t)s->naxes + 1, sizeof *first)))
        return sweep_oom(err);
    for (int g = 0; g < val->n; g++) {
        const sy_node *group = val->items[g];
        if (group->kind != SY_SEQ) {
            rc = sweep_fail(src, group, err, "zip group is %s; expected a list of two or more "
                            "axis names", sy_kind_name(group));
            goto fail;
        }
        if (group->n < 2) {
            rc = sweep_fail(src, group, err, "zip group of %d axis; expected two or more "
                            "axes that advance together", group->n);
            goto fail;
        }
        int len0 = -1;
        const char *name0 = NULL;
        for (int m = 0; m < group->n; m++) {
            const sy_node *item = group->items[m];
            const char *name = NULL;
            if ((rc = sweep_scalar(src, item, "zip", "an axis name", &name, err)))
                goto fail;
            int a = sweep_axis_index(s, name);
            if (a < 0) {
                char list[1024] = "";
                for (int i = 0; i < s->naxes; i++)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                             i ? ", " : "", s->axes[i].name);
                rc = sweep_fail(src, item, err, "zip names '%s', which is not an axis; "
                                "expected one of the axes (%s)", name,
                                s->naxes ? list : "there are none");
                goto fail;
            }
            if (first[a]) {
                rc = sweep_fail(src, item, err, "axis '%s' is zipped twice (first at line %d, "
                                "column %d); expected each axis in one zip group at most",
                                name, first[a]->line, first[a]->col);
                goto fail;
            }
            if (len0 >= 0 && s->axes[a].nvalues != len0) {
                rc = sweep_fail(src, item, err, "zipped axes of different lengths: '%s' has %d "
                                "values, '%s' has %d; expected equal lengths", name,
                                s->axes[a].nvalues, name0, len0);
                goto fail;
            }
            len0 = s->axes[a].nvalues;
            name0 = s->axes[a].name;
            first[a] = item;
            s->axes[a].zip = s->nzips;
        }
        s->nzips++;
    }
    rc = 0;
fail:
    free(first);
    return rc;
}

/* DM_EINPUT about a constraint, at column col of its text when the text appears verbatim
 * on one line, else at the constraint. */
static int sweep_fail_in(const sweep_src *src, const sy_node *node, int col, dm_err *err,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int sweep_fail_in(const sweep_src *src, const sy_node *node, int col, dm_err *err,
                         const char *fmt, ...)
{
    char msg[DM_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sweep_fail_at(src, node->line, node->text_col ? node->text_col + col - 1 : node->col,
                         err, "constraint '%s': %s", node->text, msg);
}

/* Checks the names a constraint reads, and its types for each variant it applies to. */
static int sweep_check_constraint(const dm_sweep *s, const sweep_src *src,
                                  const sy_node *node, const dm_expr *e, dm_err *err)
{
    const char *const *props = device_prop_names();
    int nid = expr_nidents(e);
    for (int i = 0; i < nid; i++) {
        const char *id = expr_ident(e, i);
        if (strncmp(id, "device.", 7) == 0) {
            size_t k = 0;
            while (props[k] && strcmp(props[k], id + 7) != 0)
                k++;
            if (props[k])
                continue;
            char list[512];
            sweep_join(props, list, sizeof list);
            return sweep_fail_in(src, node, expr_ident_col(e, i), err, "unknown device "
                                 "property '%s'; expected device. followed by one of: %s",
                                 id, list);
        }
        int known = 0;
        for (int v = 0; v < s->nvariants && !known; v++)
            known = registry_param(s->workload, s->variants[v], id) != NULL;
        if (!known) {
            char list[512];
            sweep_known_params(s, list, sizeof list);
            return sweep_fail_in(src, node, expr_ident_col(e, i), err, "unknown name '%s'; "
                                 "expected a parameter of a listed variant (%s) or "
                                 "device.PROPERTY", id, list);
        }
    }
    expr_type types[nid > 0 ? nid : 1];
    int applies_somewhere = 0;
    for (int v = 0; v < s->nvariants; v++) {
        int applies = 1;
        for (int i = 0; i < nid && applies; i++) {
            const char *id = expr_ident(e, i);
            const dm_param_spec *spec = registry_param(s->workload, s->variants[v], id);
            if (strncmp(id, "device.", 7) == 0)
                types[i] = EXPR_NUM;
            else if (spec)
                types[i] = spec->type == DM_P_ENUM ? EXPR_STR : EXPR_NUM;
            else
                applies = 0;
        }
        if (!applies)
            continue;
        applies_somewhere = 1;
        expr_type result;
        int col;
        dm_err why;
        if (expr_check(e, types, &result, &col, &why))
            return sweep_fail_in(src, node, col, err, "%s", why.msg);
        if (result != EXPR_NUM)
            return sweep_fail_in(src, node, 1, err, "a string is not a condition; expected "
                                 "a comparison such as op == \"triad\"");
    }
    if (!applies_somewhere)
        return sweep_fail_in(src, node, 1, err, "no listed variant has all the parameters "
                             "it reads; expected parameters of one variant");
    return 0;
}

static int sweep_parse_constraints(dm_sweep *s, const sweep_src *src, const sy_node *root,
                                   dm_err *err)
{
    const char *expected = "a list of conditions such as \"block <= device.max_threads\"";
    const sy_node *val = sweep_lookup(root, "constraints");
    int rc;
    if (!val)
        return 0;
    if ((rc = sweep_list(src, val, "constraints", expected, err)))
        return rc;
    if (!(s->constraints = calloc((size_t)val->n, sizeof *s->constraints)))
        return sweep_oom(err);
    for (int i = 0; i < val->n; i++) {
        const sy_node *item = val->items[i];
        const char *text = NULL;
        sweep_constraint *c = &s->constraints[s->nconstraints];
        int col;
        dm_err why;
        if ((rc = sweep_scalar(src, item, "constraints", expected, &text, err)))
            return rc;
        if ((rc = expr_compile(text, &c->expr, &col, &why)))
            return rc == DM_EINPUT ? sweep_fail_in(src, item, col, err, "%s", why.msg)
                                   : dm_err_set(err, rc, "%s", why.msg);
        s->nconstraints++;
        if (!(c->text = strdup(text)))
            return sweep_oom(err);
        for (char *ch = c->text; *ch; ch++) /* reasons are shown on one line */
            if (*ch == '\n' || *ch == '\r' || *ch == '\t')
                *ch = ' ';
        if ((rc = sweep_check_constraint(s, src, item, c->expr, err)))
            return rc;
    }
    return 0;
}

/* The measure section, over the defaults already in s->measure. */
static int sweep_parse_measure(dm_sweep *s, const sweep_src *src, const sy_node *root,
                               dm_err *err)
{
    enum { M_MODE, M_MIN_SAMPLES, M_MAX_NOISE, M_MAX_TIME, M_MAX_SAMPLES, M_CRITERION,
           M_OUTLIER_K, M_N };
    static const char *const keys[M_N + 1] = {
        [M_MODE] = "mode", [M_MIN_SAMPLES] = "min_samples", [M_MAX_NOISE] = "max_noise",
        [M_MAX_TIME] = "max_time", [M_MAX_SAMPLES] = "max_samples",
        [M_CRITERION] = "criterion", [M_OUTLIER_K] = "outlier_k", [M_N] = NULL,
    };
    static const dm_param_spec specs[M_N] = {
        [M_MODE] = {.name = "mode", .type = DM_P_ENUM, .allowed = "cold|hot"},
        [M_MIN_SAMPLES] = {.name = "min_samples", .type = DM_P_INT, .allowed = "1..2147483647"},
        [M_MAX_NOISE] = {.name = "max_noise", .type = DM_P_REAL, .allowed = "0.."},
        [M_MAX_TIME] = {.name = "max_time", .type = DM_P_REAL},
        [M_MAX_SAMPLES] = {.name = "max_samples", .type = DM_P_INT, .allowed = "1..2147483647"},
        [M_CRITERION] = {.name = "criterion", .type = DM_P_ENUM, .allowed = "median|stdrel"},
        [M_OUTLIER_K] = {.name = "outlier_k", .type = DM_P_REAL, .allowed = "0.1..1000"},
    };
    const sy_node *val = sweep_lookup(root, "measure");
    dm_measure_opts *o = &s->measure;
    int rc;
    if (!val)
        return 0;
    if (val->kind != SY_MAP)
        return sweep_fail(src, val, err, "'measure' is %s; expected a mapping of mode, "
                          "min_samples, max_noise, max_time, max_samples, criterion, "
                          "outlier_k",
                          sy_is_null(val) ? "empty" : sy_kind_name(val));
    if ((rc = sweep_check_keys(src, val, keys, " in 'measure'", err)))
        return rc;
    for (int k = 0; k < M_N; k++) {
        const sy_node *v = sweep_lookup(val, specs[k].name);
        const char *text = NULL;
        dm_value x;
        dm_err why;
        if (!v)
            continue;
        if ((rc = sweep_scalar(src, v, specs[k].name, "a value", &text, err)))
            return rc;
        if (dm_value_parse(&specs[k], text, &x, &why))
            return sweep_fail(src, v, err, "measure: %s", why.msg);
        switch (k) {
        case M_MODE:
            o->mode = strcmp(x.s, "hot") == 0 ? DM_MODE_HOT : DM_MODE_COLD;
            break;
        case M_MIN_SAMPLES:
            o->min_samples = (int)x.i;
            break;
        case M_MAX_NOISE:
            o->max_noise = x.r;
            break;
        case M_MAX_TIME:
            if (!(x.r > 0))
                return sweep_fail(src, v, err, "measure: max_time=%s is not positive; "
                                  "expected seconds > 0", text);
            o->max_time = x.r;
            break;
        case M_MAX_SAMPLES:
            o->max_samples = (int)x.i;
            break;
        case M_CRITERION:
            o->criterion = strcmp(x.s, "stdrel") == 0 ? DM_CRIT_STDREL : DM_CRIT_MEDIAN;
            break;
        case M_OUTLIER_K:
            o->outlier_k = x.r;
            break;
        }
    }
    if (o->max_samples < o->min_samples) {
        const sy_node *at = sweep_lookup(val, "max_samples");
        if (!at)
            at = sweep_lookup(val, "min_samples");
        return sweep_fail(src, at, err, "measure: max_samples %d is below min_samples %d; "
                          "expected max_samples >= min_samples", o->max_samples,
                          o->min_samples);
    }
    return 0;
}

/* metrics: a list of metric sets, short names or perfworks names. Names shaped like
 * perfworks metrics are confirmed later, against the GPU's chip (cmd_run.c). */
static int sweep_parse_metrics(dm_sweep *s, const sweep_src *src, const sy_node *root,
                               dm_err *err)
{
    const char *expected = "a list of metric sets (occupancy, divergence, ...), short "
                           "names or perfworks names";
    const sy_node *val = sweep_lookup(root, "metrics");
    cupti_metric_list known = {0};
    int rc;
    if (!val)
        return 0;
    if ((rc = sweep_list(src, val, "metrics", expected, err)))
        return rc;
    if (!(s->metrics = calloc((size_t)val->n, sizeof *s->metrics)) ||
        !(s->metric_line = calloc((size_t)val->n, sizeof *s->metric_line)) ||
        !(s->metric_col = calloc((size_t)val->n, sizeof *s->metric_col)))
        return sweep_oom(err);
    for (int i = 0; i < val->n; i++) {
        const sy_node *item = val->items[i];
        const char *name = NULL;
        dm_err why;
        if ((rc = sweep_scalar(src, item, "metrics", expected, &name, err)))
            return rc;
        if ((rc = cupti_metrics_add(&known, name, &why)))
            return rc == DM_EINPUT ? sweep_fail(src, item, err, "%s", why.msg)
                                   : dm_err_set(err, rc, "%s", why.msg);
        if (!(s->metrics[s->nmetrics] = strdup(name)))
            return sweep_oom(err);
        s->metric_line[s->nmetrics] = item->line;
        s->metric_col[s->nmetrics] = item->col;
        s->nmetrics++;
    }
    return 0;
}

static int sweep_parse_timeline(dm_sweep *s, const sweep_src *src, const sy_node *root,
                                dm_err *err)
{
    const sy_node *val = sweep_lookup(root, "timeline");
    const char *text = NULL;
    int rc;
    if (!val)
        return 0;
    if ((rc = sweep_scalar(src, val, "timeline", "true or false", &text, err)))
        return rc;
    if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0)
        return sweep_fail(src, val, err, "'timeline' is '%s'; expected true or false", text);
    s->timeline = strcmp(text, "true") == 0;
    return 0;
}

/* The name: the file's base name without .yaml or .yml. */
static int sweep_parse_name(dm_sweep *s, const sweep_src *src, const sy_node *root,
                            dm_err *err)
{
    const sy_node *name = sweep_lookup(root, "name");
    const sy_node *desc = sweep_lookup(root, "description");
    const char *text = NULL;
    int rc;
    if (desc && (rc = sweep_scalar(src, desc, "description", "a line of text", &text, err)))
        return rc;
    if (desc && !(s->description = strdup(text)))
        return sweep_oom(err);
    if (name) {
        if ((rc = sweep_scalar(src, name, "name", "a name for the sweep", &text, err)))
            return rc;
        return (s->name = strdup(text)) ? 0 : sweep_oom(err);
    }
    const char *base = strrchr(s->path, '/');
    base = base ? base + 1 : s->path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
        len -= 5;
    else if (len > 4 && strcmp(base + len - 4, ".yml") == 0)
        len -= 4;
    return (s->name = strndup(base, len)) ? 0 : sweep_oom(err);
}

/* Parses text (len bytes) named path; dir is where relative dataset paths start. */
/* The offset of the first byte of text[0..len) that is not well-formed UTF-8, or len.
 * (libfyaml loops forever on some malformed bytes in a directive line, so they never
 * reach it.) */
static size_t sweep_bad_utf8(const unsigned char *t, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = t[i];
        size_t more = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2
                                   : c >= 0xf0 && c <= 0xf4                              ? 3
                                                                                         : 4;
        if (more == 4 || i + more >= len + (more == 0))
            return i;
        /* the second byte's range excludes overlong forms, surrogates and past U+10FFFF */
        unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
        unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
        for (size_t k = 1; k <= more; k++)
            if (t[i + k] < (k == 1 ? lo : 0x80) || t[i + k] > (k == 1 ? hi : 0xbf))
                return i;
        i += more + 1;
    }
    return len;
}

static int sweep_parse(const char *text, size_t len, const char *path, const char *dir,
                       dm_sweep **out, dm_err *err)
{
    sy_node *root = NULL;
    dm_sweep *s = calloc(1, sizeof *s);
    int rc;
    *out = NULL;
    if (!s || !(s->path = strdup(path)) || !(s->text = strndup(text, len))) {
        rc = sweep_oom(err);
        goto fail;
    }
    sweep_measure_defaults(&s->measure);
    sweep_src src = {.name = s->path, .positions = 1};
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        rc = dm_err_set(err, DM_EINPUT, "%s: a NUL byte at offset %zu: not a text file; "
                        "expected a YAML sweep", path, (size_t)(nul - text));
        goto fail;
    }
    size_t bad = sweep_bad_utf8((const unsigned char *)text, len);
    if (bad < len) {
        int line = 1, col = 1;
        for (size_t i = 0; i < bad; i++, col++)
            if (text[i] == '\n')
                line++, col = 0;
        rc = dm_err_set(err, DM_EINPUT, "%s:%d:%d: byte 0x%02x is not UTF-8 text; expected "
                        "a YAML sweep in UTF-8", path, line, col, (unsigned char)text[bad]);
        goto fail;
    }
    if ((rc = sy_parse(&src, text, len, &root, err)))
        goto fail;
    if (!root || root->kind != SY_MAP) {
        char list[256];
        sweep_join(sweep_sections, list, sizeof list);
        rc = sweep_fail(&src, root, err, "the file is %s; expected a mapping of sections "
                        "(%s)", root ? sy_kind_name(root) : "empty", list);
        goto fail;
    }
    if ((rc = sweep_check_keys(&src, root, sweep_sections, "", err)) ||
        (rc = sweep_parse_workload(s, &src, root, err)) ||
        (rc = sweep_parse_variants(s, &src, root, err)) ||
        (rc = sweep_parse_baseline(s, &src, root, err)) ||
        (rc = sweep_parse_dataset(s, &src, root, dir, err)) ||
        (rc = sweep_parse_axes(s, &src, root, err)) ||
        (rc = sweep_parse_zip(s, &src, root, err)) ||
        (rc = sweep_parse_constraints(s, &src, root, err)) ||
        (rc = sweep_parse_measure(s, &src, root, err)) ||
        (rc = sweep_parse_metrics(s, &src, root, err)) ||
        (rc = sweep_parse_timeline(s, &src, root, err)) ||
        (rc = sweep_parse_name(s, &src, root, err)))
        goto fail;
    sy_free(root);
    *out = s;
    return 0;
fail:
    sy_free(root);
    sweep_free(s);
    return rc;
}

int sweep_parse_string(const char *text, const char *name, dm_sweep **out, dm_err *err)
{
    return sweep_parse(text, strlen(text), name, NULL, out, err);
}

int sweep_load(const char *path, dm_sweep **out, dm_err *err)
{
    char *buf = NULL, *dir = NULL;
    size_t len = 0;
    int rc;
    *out = NULL;
    if ((rc = dm_read_file(path, &buf, &len, err)) != 0)
        return rc;
    const char *slash = strrchr(path, '/');
    if (slash && !(dir = strndup(path, (size_t)(slash - path) + (slash == path)))) {
        rc = sweep_oom(err);
        goto fail;
    }
    rc = sweep_parse(buf, len, path, dir, out, err);
fail:
    free(buf);
    free(dir);
    return rc;
}

void sweep_free(dm_sweep *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->naxes; i++)
        sweep_axis_free(&s->axes[i]);
    for (int i = 0; i < s->nconstraints; i++) {
        free(s->constraints[i].text);
        expr_free(s->constraints[i].expr);
    }
    for (int i = 0; i < s->nmetrics; i++)
        free(s->metrics[i]);
    free(s->metrics);
    free(s->metric_line);
    free(s->metric_col);
    free(s->axes);
    free(s->constraints);
    free(s->variants);
    free(s->path);
    free(s->text);
    free(s->name);
    free(s->description);
    free(s);
}

/* ---- overrides -------------------------------------------------------------------- */

int sweep_override(dm_sweep *s, const char *assignment, dm_err *err)
{
    char label[512];
    snprintf(label, sizeof label, "-a %s", assignment);
    sweep_src src = {.name = label, .positions = 0};
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment || !eq[1])
        return sweep_fail(&src, NULL, err, "expected AXIS=VALUES, e.g. block=[64,128] or "
                          "n={pow2: [1024, 4096]}");
    sy_node *val = NULL;
    sy_node key = {.kind = SY_SCALAR, .line = 1, .col = 1};
    sweep_axis axis = {.zip = -1};
    int rc;
    if (!(key.text = strndup(assignment, (size_t)(eq - assignment)))) {
        rc = sweep_oom(err);
        goto fail;
    }
    if ((rc = sy_parse(&src, eq + 1, strlen(eq + 1), &val, err)))
        goto fail;
    if (!val) {
        rc = sweep_fail(&src, NULL, err, "no values after '='; expected e.g. block=[64,128]");
        goto fail;
    }
    if ((rc = sweep_axis_parse(s, &src, &key, val, &axis, err)))
        goto fail;
    int a = sweep_axis_index(s, key.text);
    if (a >= 0) {
        for (int i = 0; i < s->naxes; i++)
            if (i != a && s->axes[a].zip >= 0 && s->axes[i].zip == s->axes[a].zip &&
                s->axes[i].nvalues != axis.nvalues) {
                rc = sweep_fail(&src, NULL, err, "axis '%s' is zipped with '%s', which has %d "
                                "values; expected %d values, not %d", key.text,
                                s->axes[i].name, s->axes[i].nvalues, s->axes[i].nvalues,
                                axis.nvalues);
                goto fail;
            }
        axis.zip = s->axes[a].zip;
        sweep_axis_free(&s->axes[a]);
        s->axes[a] = axis;
    } else {
        sweep_axis *axes = realloc(s->axes, (size_t)(s->naxes + 1) * sizeof *axes);
        if (!axes) {
            rc = sweep_oom(err);
            goto fail;
        }
        s->axes = axes;
        s->axes[s->naxes++] = axis;
    }
    sy_free(val);
    free(key.text);
    return 0;
fail:
    sweep_axis_free(&axis);
    sy_free(val);
    free(key.text);
    return rc;
}

/* 1 when name is one of list's comma-separated names, else 0. */
static int sweep_in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len;
        if (!*p)
            return 0;
    }
}

int sweep_keep_variants(dm_sweep *s, const char *list, dm_err *err)
{
    char listed[1024];
    sweep_variant_list(s, listed, sizeof listed);
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        int i = 0;
        if (len == 0)
            return dm_err_set(err, DM_EINPUT, "--variants %s: an empty name; expected some of "
                              "the sweep's variants, separated by commas: %s", list, listed);
        while (i < s->nvariants &&
               (strlen(s->variants[i]->name) != len || strncmp(s->variants[i]->name, p, len)))
            i++;
        if (i == s->nvariants)
            return dm_err_set(err, DM_EINPUT, "--variants %s: the sweep lists no variant "
                              "'%.*s'; expected some of: %s", list, (int)len, p, listed);
        p += len;
        if (!*p)
            break;
    }
    int n = 0;
    for (int i = 0; i < s->nvariants; i++) {
        if (sweep_in_list(list, s->variants[i]->name))
            s->variants[n++] = s->variants[i];
        else if (s->variants[i] == s->baseline)
            s->baseline = NULL;
    }
    s->nvariants = n;
    return 0;
}

/* ---- accessors -------------------------------------------------------------------- */

const char *sweep_name(const dm_sweep *s) { return s->name; }
const char *sweep_path(const dm_sweep *s) { return s->path; }
const char *sweep_text(const dm_sweep *s) { return s->text; }
const dm_workload *sweep_workload(const dm_sweep *s) { return s->workload; }
const dm_data_source *sweep_data_source(const dm_sweep *s) { return &s->source; }
int sweep_nvariants(const dm_sweep *s) { return s->nvariants; }
const dm_variant *sweep_variant(const dm_sweep *s, int i) { return s->variants[i]; }
const dm_variant *sweep_baseline(const dm_sweep *s) { return s->baseline; }
const dm_measure_opts *sweep_measure(const dm_sweep *s) { return &s->measure; }
void sweep_set_measure(dm_sweep *s, const dm_measure_opts *o) { s->measure = *o; }
int sweep_nmetrics(const dm_sweep *s) { return s->nmetrics; }
int sweep_timeline(const dm_sweep *s) { return s->timeline; }

const char *sweep_metric(const dm_sweep *s, int i, int *line, int *col)
{
    if (line)
        *line = s->metric_line[i];
    if (col)
        *col = s->metric_col[i];
    return s->metrics[i];
}
