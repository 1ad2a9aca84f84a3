/* sweep_expand.c - a sweep's points: for each listed variant in order, the axes it has
 * crossed in file order (last fastest; a zip group advances as one axis at the place of
 * its first member), other parameters at their defaults or tuned values, open ones
 * resolved by the variant for the device (a hybrid's switch point); then pruned by the
 * constraints and by the variant's supports(). Pruned points stay with their reason; a
 * constraint undefined at a point is an error.
 * Also one point made the same way from NAME=VALUE assignments (`dmbench mine`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "device.h"
#include "registry.h"
#include "sweep_int.h"
#include "tuned_lookup.h"

/* One parameter an axis sets, with the axis's values parsed for this variant. */
typedef struct xmember {
    int param; /* index in the point */
    dm_value *vals;
} xmember;

/* An axis, or a zip group, as one dimension: members[first .. first + count). */
typedef struct xdim {
    int len, first, count;
} xdim;

/* A constraint that applies to the variant: slot[i] is the point's index of identifier
 * i, or -1 for a device property whose value is already in vals[i]. */
typedef struct xcon {
    const sweep_constraint *c;
    int *slot;
    expr_val *vals;
} xcon;

/* How one variant expands. */
typedef struct xplan {
    dm_point tmpl; /* the defaults */
    int ndims, nmembers, ncons;
    xdim *dims;
    xmember *members;
    xcon *cons;
    size_t count;
    int ntuned, tuned[DM_MAX_PARAMS]; /* parameters no axis sets that have tuned values */
} xplan;

static int xparam(const dm_point *pt, const char *name)
{
    for (int i = 0; i < pt->nparams; i++)
        if (strcmp(pt->specs[i]->name, name) == 0)
            return i;
    return -1;
}

static void xplan_free(xplan *p)
{
    for (int m = 0; m < p->nmembers; m++)
        free(p->members[m].vals);
    for (int c = 0; c < p->ncons; c++) {
        free(p->cons[c].slot);
        free(p->cons[c].vals);
    }
    free(p->dims);
    free(p->members);
    free(p->cons);
}

static int xoom(dm_err *err)
{
    return dm_err_set(err, DM_ERUNTIME, "out of memory expanding a sweep");
}

/* Adds axis a as a member of the last dimension, its values parsed for the variant. */
static int xplan_member(const dm_sweep *s, const sweep_axis *a, int param, xplan *p,
                        dm_err *err)
{
    xmember *m = &p->members[p->nmembers];
    if (!(m->vals = malloc((size_t)a->nvalues * sizeof *m->vals)))
        return xoom(err);
    m->param = param;
    p->nmembers++;
    p->dims[p->ndims - 1].count++;
    for (int i = 0; i < a->nvalues; i++)
        if (dm_value_parse(p->tmpl.specs[param], a->values[i], &m->vals[i], err))
            return dm_err_prefix(err, "%s: axis '%s'", s->path, a->name);
    return 0;
}

/* The dimensions of variant v: its axes in file order, a zip group at its first member. */
static int xplan_dims(const dm_sweep *s, xplan *p, dm_err *err)
{
    size_t n = (size_t)s->naxes + 1;
    if (!(p->dims = calloc(n, sizeof *p->dims)) || !(p->members = calloc(n, sizeof *p->members)))
        return xoom(err);
    p->count = 1;
    for (int a = 0; a < s->naxes; a++) {
        const sweep_axis *ax = &s->axes[a];
        int earlier = 0; /* the zip group was placed at an earlier member */
        for (int b = 0; b < a && ax->zip >= 0 && !earlier; b++)
            earlier = s->axes[b].zip == ax->zip && xparam(&p->tmpl, s->axes[b].name) >= 0;
        int param = xparam(&p->tmpl, ax->name);
        if (earlier || param < 0)
            continue;
        if (p->count > SWEEP_MAX_POINTS / (size_t)ax->nvalues)
            return dm_err_set(err, DM_EINPUT, "%s: variant '%s' expands to more than %d "
                              "points; expected at most %d (narrow the axes or split the "
                              "sweep)", s->path, p->tmpl.variant->name, SWEEP_MAX_POINTS,
                              SWEEP_MAX_POINTS);
        p->count *= (size_t)ax->nvalues;
        p->dims[p->ndims++] = (xdim){.len = ax->nvalues, .first = p->nmembers};
        for (int b = a; b < s->naxes; b++) {
            int pb = xparam(&p->tmpl, s->axes[b].name);
            int rc;
            if ((b == a || (ax->zip >= 0 && s->axes[b].zip == ax->zip)) && pb >= 0 &&
                (rc = xplan_member(s, &s->axes[b], pb, p, err)))
                return rc;
        }
    }
    return 0;
}

/* The constraints that apply to the variant and can be evaluated on dev. */
static int xplan_constraints(const dm_sweep *s, const dm_device *dev, xplan *p, dm_err *err)
{
    if (!(p->cons = calloc((size_t)s->nconstraints + 1, sizeof *p->cons)))
        return xoom(err);
    for (int c = 0; c < s->nconstraints; c++) {
        const dm_expr *e = s->constraints[c].expr;
        int nid = expr_nidents(e);
        xcon *x = &p->cons[p->ncons];
        if (!(x->slot = calloc((size_t)nid + 1, sizeof *x->slot)) ||
            !(x->vals = calloc((size_t)nid + 1, sizeof *x->vals))) {
            free(x->slot);
            return xoom(err);
        }
        int applies = 1;
        for (int i = 0; i < nid && applies; i++) {
            const char *id = expr_ident(e, i);
            x->slot[i] = -1;
            x->vals[i].type = EXPR_NUM;
            if (strncmp(id, "device.", 7) == 0)
                applies = dev && device_prop(dev, id + 7, &x->vals[i].num) == 0;
            else
                applies = (x->slot[i] = xparam(&p->tmpl, id)) >= 0;
        }
        if (!applies) {
            free(x->slot);
            free(x->vals);
            continue;
        }
        x->c = &s->constraints[c];
        p->ncons++;
    }
    return 0;
}

/* The parameters of the variant that no axis sets and that `dmbench tune` has chosen
 * values for (the workload's variants/<w>/tuned.h): their defaults give way to the
 * tuned values. */
static void xplan_tuned(const dm_device *dev, xplan *p)
{
    if (!dev)
        return;
    for (int i = 0; i < p->tmpl.nparams; i++) {
        int set = 0;
        for (int m = 0; m < p->nmembers && !set; m++)
            set = p->members[m].param == i;
        if (!set && tuned_has(p->tmpl.workload, p->tmpl.variant->name, p->tmpl.specs[i]->name))
            p->tuned[p->ntuned++] = i;
    }
}

/* Gives parameter i of pt, whose data come from src, the value `dmbench tune` chose for
 * dev, pt's other parameters and its data file (tuned_choose: stored, else shipped; its
 * rule noted in the point). */
static void xtune_param(const dm_data_source *src, const dm_device *dev, dm_point *pt, int i)
{
    const char *data = src && src->path[0] ? dm_path_base(src->path) : NULL;
    tuned_choose(pt, data, dev, pt->specs[i]->name);
}

/* Gives pt (of sweep s) the tuned values of the plan's open parameters, where there are
 * any. */
static void xapply_tuned(const dm_sweep *s, const xplan *p, const dm_device *dev, dm_point *pt)
{
    for (int k = 0; k < p->ntuned; k++)
        xtune_param(&s->source, dev, pt, p->tuned[k]);
}

/* Prunes sp (the k-th point of sweep s) by the first constraint that is false, then by
 * supports(). Returns 0, or DM_EINPUT when a constraint is undefined at the point
 * (division by zero, say): an error in the sweep, named with the point. */
static int xprune(const dm_sweep *s, const xplan *p, const dm_device *dev, size_t k,
                  dm_sweep_point *sp, dm_err *err)
{
    const dm_point *pt = &sp->point;
    for (int c = 0; c < p->ncons; c++) {
        const xcon *x = &p->cons[c];
        int nid = expr_nidents(x->c->expr);
        for (int i = 0; i < nid; i++) {
            if (x->slot[i] < 0)
                continue;
            const dm_value *v = &pt->values[x->slot[i]];
            x->vals[i].type = v->type == DM_P_ENUM ? EXPR_STR : EXPR_NUM;
            x->vals[i].str = v->s;
            x->vals[i].num = dm_value_num(v);
        }
        expr_val r;
        dm_err why;
        if (expr_eval(x->c->expr, x->vals, &r, &why)) {
            char params[DM_KEY_MAX];
            dm_point_format(pt, params, sizeof params);
            return dm_err_set(err, DM_EINPUT, "%s: constraint '%s' is undefined at point #%zu "
                              "(%s %s): %s", s->path, x->c->text, k, pt->variant->name,
                              params, why.msg);
        }
        if (r.type != EXPR_NUM || r.num == 0) {
            sp->pruned = 1;
            snprintf(sp->reason, sizeof sp->reason, "constraint '%s' is false", x->c->text);
            return 0;
        }
    }
    const dm_variant *v = pt->variant;
    if (v->supports && v->supports(pt, dev, sp->reason, sizeof sp->reason)) {
        sp->pruned = 2;
        if (!sp->reason[0])
            snprintf(sp->reason, sizeof sp->reason, "variant '%s' does not support it",
                     v->name);
    }
    return 0;
}

/* Writes p's points to out (the sweep's from its point first on), odometer style: the
 * last dimension fastest. Returns 0, or xprune's error. */
static int xplan_fill(const dm_sweep *s, const xplan *p, const dm_device *dev,
                      dm_sweep_point *out, size_t first, size_t *n_pruned, dm_err *err)
{
    int idx[p->ndims + 1];
    memset(idx, 0, sizeof idx);
    for (size_t k = 0; k < p->count; k++) {
        dm_sweep_point *sp = &out[k];
        sp->point = p->tmpl;
        sp->pruned = 0;
        sp->reason[0] = '\0';
        for (int d = 0; d < p->ndims; d++)
            for (int m = p->dims[d].first; m < p->dims[d].first + p->dims[d].count; m++)
                sp->point.values[p->members[m].param] = p->members[m].vals[idx[d]];
        xapply_tuned(s, p, dev, &sp->point);
        if (dev && sp->point.variant->resolve)
            sp->point.variant->resolve(&sp->point, dev);
        int rc = xprune(s, p, dev, first + k, sp, err);
        if (rc)
            return rc;
        *n_pruned += sp->pruned != 0;
        for (int d = p->ndims - 1; d >= 0 && ++idx[d] == p->dims[d].len; d--)
            idx[d] = 0;
    }
    return 0;
}

void sweep_limit_gpus(dm_expansion *e, int ngpus)
{
    for (size_t i = 0; ngpus > 0 && i < e->n; i++) {
        dm_sweep_point *sp = &e->points[i];
        if (sp->pruned || !sp->point.variant->multi_gpu)
            continue;
        int64_t want = dm_point_int(&sp->point, "gpus");
        if (want <= ngpus)
            continue;
        sp->pruned = 2;
        snprintf(sp->reason, sizeof sp->reason, "gpus %lld exceeds the %d GPU%s this run has "
                 "(run --devices)", (long long)want, ngpus, ngpus == 1 ? "" : "s");
        e->n_pruned++;
    }
}

/* pt at the defaults of w and v, less the parameters of generated data when src is a
 * file. Returns 0 or registry_point_defaults' error. */
static int xdefaults(const dm_workload *w, const dm_variant *v, const dm_data_source *src,
                     dm_point *pt, dm_err *err)
{
    int rc = registry_point_defaults(w, v, pt, err);
    if (rc == 0 && src && src->path[0])
        registry_point_on_file(pt);
    return rc;
}

int sweep_expand(const dm_sweep *s, const dm_device *dev, dm_expansion *out, dm_err *err)
{
    xplan *plans = calloc((size_t)s->nvariants, sizeof *plans);
    size_t total = 0;
    int rc = 0;
    memset(out, 0, sizeof *out);
    if (!plans)
        return xoom(err);
    for (int v = 0; v < s->nvariants; v++) {
        xplan *p = &plans[v];
        if ((rc = xdefaults(s->workload, s->variants[v], &s->source, &p->tmpl, err)) ||
            (rc = xplan_dims(s, p, err)) || (rc = xplan_constraints(s, dev, p, err)))
            goto fail;
        xplan_tuned(dev, p);
        total += p->count;
        if (total > SWEEP_MAX_POINTS) {
            rc = dm_err_set(err, DM_EINPUT, "%s: the sweep expands to more than %d points; "
                            "expected at most %d (narrow the axes or split the sweep)",
                            s->path, SWEEP_MAX_POINTS, SWEEP_MAX_POINTS);
            goto fail;
        }
    }
    /* Mapped with MAP_POPULATE: a point is 2 KiB, and faulting 100k points' pages in one
     * at a time took most of a second on virtual machines; populating takes a few ms. */
    if (total == 0)
        goto fail;
    void *mem = mmap(NULL, total * sizeof *out->points, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (mem == MAP_FAILED) {
        rc = xoom(err);
        goto fail;
    }
    out->points = mem;
    for (int v = 0; v < s->nvariants && rc == 0; v++) {
        rc = xplan_fill(s, &plans[v], dev, out->points + out->n, out->n, &out->n_pruned, err);
        out->n += plans[v].count;
    }
    if (rc) {
        munmap(mem, total * sizeof *out->points);
        memset(out, 0, sizeof *out);
    }
fail:
    for (int v = 0; v < s->nvariants; v++)
        xplan_free(&plans[v]);
    free(plans);
    return rc;
}

void sweep_expansion_free(dm_expansion *e)
{
    if (e->points)
        munmap(e->points, e->n * sizeof *e->points);
    memset(e, 0, sizeof *e);
}

/* Sets err to name's being no parameter of pt, with the close ones (else all). */
static int xunknown(const dm_point *pt, const char *name, dm_err *err)
{
    const char *names[DM_MAX_PARAMS];
    char list[512];
    int close;
    for (int i = 0; i < pt->nparams; i++)
        names[i] = pt->specs[i]->name;
    registry_suggest(name, names, (size_t)pt->nparams, list, sizeof list, &close);
    return dm_err_set(err, DM_EINPUT, "unknown parameter '%s' of variant '%s' of workload "
                      "'%s'; %s: %s", name, pt->variant->name, pt->workload->name,
                      close ? "did you mean" : "its parameters are", list);
}

int sweep_point(const dm_workload *w, const dm_variant *v, const char *const *assign,
                int nassign, const dm_data_source *src, const dm_device *dev, dm_point *pt,
                dm_err *err)
{
    int set[DM_MAX_PARAMS] = {0}, rc;
    char name[128], why[256] = "";
    if ((rc = xdefaults(w, v, src, pt, err)) != 0)
        return rc;
    for (int a = 0; a < nassign; a++) {
        const char *eq = strchr(assign[a], '=');
        if (!eq || eq == assign[a])
            return dm_err_set(err, DM_EINPUT, "'%s': expected NAME=VALUE", assign[a]);
        snprintf(name, sizeof name, "%.*s", (int)(eq - assign[a]), assign[a]);
        int i = xparam(pt, name);
        const dm_param_spec *gen = i < 0 && src && src->path[0]
                                       ? registry_generated_param(w, name) : NULL;
        if (gen)
            return dm_err_set(err, DM_EINPUT, "parameter '%s' describes generated data (%s); "
                              "the data is the file %s", name, gen->help, src->path);
        if (i < 0)
            return xunknown(pt, name, err);
        if ((rc = dm_value_parse(pt->specs[i], eq + 1, &pt->values[i], err)) != 0)
            return rc;
        set[i] = 1;
    }
    for (int i = 0; dev && i < pt->nparams; i++)
        if (!set[i] && tuned_has(w, v->name, pt->specs[i]->name))
            xtune_param(src, dev, pt, i);
    if (dev && v->resolve)
        v->resolve(pt, dev);
    if (v->supports && v->supports(pt, dev, why, sizeof why))
        return dm_err_set(err, DM_EINPUT, "variant '%s' of workload '%s' does not run this "
                          "point: %s", v->name, w->name, why);
    return 0;
}
