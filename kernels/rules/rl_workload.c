/* rl_workload.c - the rules workload's dataset, rule set, evaluation (the CPU reference
 * with one thread, the CPU variants with more), comparison, work and result writer, for
 * variants/rules. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_workload.h"

int rl_point_rules(const rl_table *t, const dm_point *pt, rl_ruleset *rs, dm_err *err)
{
    const char *file = dm_point_str(pt, "rules_file");
    memset(rs, 0, sizeof *rs);
    if (strcmp(file, "-") != 0)
        return rl_rules_load(file, t, rs, err);
    return rl_rules_generate(t, (int)dm_point_int(pt, "rules"), (int)dm_point_int(pt, "symbols"),
                             (uint64_t)dm_point_int(pt, "rule_seed"), rs, err);
}

int rl_evaluation_open(const dm_dataset *ds, const dm_point *pt, int threads,
                       rl_eval_point **e, dm_err *err)
{
    rl_eval_point *x = calloc(1, sizeof *x);
    *e = NULL;
    if (!x)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    int rc = rl_point_rules(ds->data, pt, &x->rs, err);
    if (rc) {
        rl_evaluation_free(x);
        return rc;
    }
    x->out.t = ds->data;
    x->out.rs = &x->rs;
    x->threads = threads;
    *e = x;
    return 0;
}

int rl_evaluation_run(rl_eval_point *e, dm_err *err)
{
    rl_result_free(&e->out.res);
    return rl_evaluate(e->out.t, &e->rs, e->threads, &e->out.res, err);
}

void rl_evaluation_free(rl_eval_point *e)
{
    if (!e)
        return;
    rl_result_free(&e->out.res);
    rl_ruleset_free(&e->rs);
    free(e);
}

/* ---- datasets ---------------------------------------------------------------------- */

/* FNV-1a over every column: its name, kind, values and levels. */
static uint64_t rl_table_hash(const rl_table *t)
{
    uint64_t h = DM_HASH_INIT;
    for (int c = 0; c < t->ncols; c++) {
        const rl_column *col = &t->cols[c];
        h = dm_hash_bytes(h, col->name, strlen(col->name) + 1);
        h = dm_hash_bytes(h, &col->kind, sizeof col->kind);
        if (col->kind == RL_NUMERIC) {
            h = dm_hash_bytes(h, col->num, (size_t)t->n * sizeof *col->num);
            continue;
        }
        h = dm_hash_bytes(h, col->code, (size_t)t->n * sizeof *col->code);
        for (int l = 0; l < col->nlevels; l++)
            h = dm_hash_bytes(h, col->levels[l], strlen(col->levels[l]) + 1);
    }
    return h;
}

/* The bytes of t's values: 8 a number, 4 a categorical code. */
static int64_t rl_table_bytes(const rl_table *t)
{
    int64_t per_row = 0;
    for (int c = 0; c < t->ncols; c++)
        per_row += t->cols[c].kind == RL_NUMERIC ? (int64_t)sizeof(double)
                                                 : (int64_t)sizeof(int32_t);
    return per_row * t->n;
}

int rl_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                    dm_err *err)
{
    int rc;
    rl_table *t = calloc(1, sizeof *t);
    if (!t)
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    memset(ds, 0, sizeof *ds);
    if (src->path[0]) {
        if ((rc = rl_table_load(src->path, NULL, t, err)) != 0)
            goto fail;
        dm_dataset_file(ds, src->path);
    } else {
        int64_t n = dm_point_int(pt, "instances");
        uint64_t seed = (uint64_t)dm_point_int(pt, "seed");
        if (strcmp(src->generator, "synthetic") == 0)
            rc = rl_synth_generate(n, (int)dm_point_int(pt, "attributes"), 0, seed, t, err);
        else if (strcmp(src->generator, "poker") == 0)
            rc = rl_poker_generate(n, seed, t, err);
        else
            rc = dm_err_set(err, DM_EINPUT, "rules has no generator '%s'; the generators are: "
                            "synthetic, poker", src->generator);
        if (rc)
            goto fail;
        snprintf(ds->name, sizeof ds->name, "%s", src->generator);
    }
    dm_point_dataset_key(pt, ds->params, sizeof ds->params);
    snprintf(ds->shape, sizeof ds->shape, "%" PRId64 " instances, %d attributes",
             (int64_t)t->n, t->ncols);
    snprintf(ds->hash, sizeof ds->hash, "%016" PRIx64, rl_table_hash(t));
    ds->size_bytes = rl_table_bytes(t);
    ds->data = t;
    return 0;
fail:
    rl_table_free(t);
    free(t);
    return rc;
}

void rl_dataset_close(dm_dataset *ds)
{
    rl_table *t = ds->data;
    if (t)
        rl_table_free(t);
    free(t);
    ds->data = NULL;
}

/* ---- the reference and the comparison ----------------------------------------------- */

int rl_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    rl_eval_point *e;
    int rc = rl_evaluation_open(ds, pt, 0, &e, err);
    if (rc)
        return rc;
    if ((rc = rl_evaluation_run(e, err)) != 0) {
        rl_evaluation_free(e);
        return rc;
    }
    *ref = e;
    return 0;
}

void rl_reference_free(void *ref)
{
    rl_evaluation_free(ref);
}

/* a's place among the doubles in order: adjacent doubles differ by 1, -0 and +0 are
 * both 0. */
static int64_t rl_ordinal(double a)
{
    int64_t k;
    memcpy(&k, &a, sizeof k);
    return k < 0 ? INT64_MIN - k : k;
}

/* 1 when b is within RL_MEASURE_ULPS of a: NaN only to NaN, an infinity only to itself. */
static int rl_close(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    int64_t x = rl_ordinal(a), y = rl_ordinal(b);
    return (x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x) <= RL_MEASURE_ULPS;
}

/* Writes "rule R (TEXT)" of a into buf. */
static void rl_rule_name(const rl_answer *a, int r, char *buf, size_t n)
{
    char *text = rl_rule_text(a->rs, r, a->t);
    snprintf(buf, n, "rule %d (%s)", r + 1, text ? text : "?");
    free(text);
}

int rl_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n)
{
    (void)pt;
    const rl_answer *a = ref, *b = out;
    const rl_result *x = &a->res, *y = &b->res;
    if (x->n != y->n || x->nrules != y->nrules || x->ntok != y->ntok) {
        snprintf(why, n, "%" PRId64 " instances, %d rules, %" PRId64 " tokens; expected %"
                 PRId64 ", %d, %" PRId64, y->n, y->nrules, y->ntok, x->n, x->nrules, x->ntok);
        return 1;
    }
    static const char *const counts[] = {"n(A)", "n(C)", "n(AC)", "n(A not C)", "n(not A C)",
                                         "n(not A not C)"};
    static const char *const measures[] = {"support", "confidence", "lift", "leverage",
                                           "conviction"};
    char name[512];
    for (int r = 0; r < x->nrules; r++) {
        const rl_rule_result *p = &x->rule[r], *q = &y->rule[r];
        const int64_t want[] = {p->n_a, p->n_c, p->n_ac, p->n_anc, p->n_nac, p->n_nanc};
        const int64_t got[] = {q->n_a, q->n_c, q->n_ac, q->n_anc, q->n_nac, q->n_nanc};
        const double mw[] = {p->support, p->confidence, p->lift, p->leverage, p->conviction};
        const double mg[] = {q->support, q->confidence, q->lift, q->leverage, q->conviction};
        for (int k = 0; k < 6; k++)
            if (want[k] != got[k]) {
                rl_rule_name(a, r, name, sizeof name);
                snprintf(why, n, "%s: %s %" PRId64 ", expected %" PRId64, name, counts[k],
                         got[k], want[k]);
                return 1;
            }
        const rl_rule *rule = &a->rs->rules[r];
        for (int64_t k = rule->ante; k < rule->cons + rule->ncons; k++)
            if (x->tok_support[k] != y->tok_support[k]) {
                rl_rule_name(a, r, name, sizeof name);
                snprintf(why, n, "%s: token %" PRId64 " holds on %" PRId64 " instances, "
                         "expected %" PRId64, name, k - rule->ante + 1, y->tok_support[k],
                         x->tok_support[k]);
                return 1;
            }
        for (int k = 0; k < 5; k++)
            if (!rl_close(mw[k], mg[k])) {
                rl_rule_name(a, r, name, sizeof name);
                snprintf(why, n, "%s: %s %.17g, expected %.17g", name, measures[k], mg[k],
                         mw[k]);
                return 1;
            }
    }
    if (x->gpops != y->gpops) {
        snprintf(why, n, "%" PRId64 " GP operations, expected %" PRId64, y->gpops, x->gpops);
        return 1;
    }
    return 0;
}

/* The kernels' share of st: coverage, reduction and fitness. */
static double rl_compute_s(const rl_stages *st)
{
    return st->s[RL_STAGE_COVERAGE] + st->s[RL_STAGE_REDUCTION] + st->s[RL_STAGE_FITNESS];
}

/* The copies' share of st: the rules in, the supports and contingency tables out. */
static double rl_transfer_s(const rl_stages *st)
{
    return st->s[RL_STAGE_COPY_IN] + st->s[RL_STAGE_COPY_OUT];
}

/* Appends sp's facts (rl_facts) to f[0 .. *n). */
static void rl_split_facts(const rl_split *sp, dm_fact *f, int max, int *n)
{
    double compute = 0, transfer = 0;
    for (int k = 0; k < sp->gpus; k++) {
        compute = fmax(compute, rl_compute_s(&sp->stages[k]));
        transfer = fmax(transfer, rl_transfer_s(&sp->stages[k]));
    }
    dm_fact_add(f, max, n, "gpus", "gpus", sp->gpus, NULL);
    dm_fact_add(f, max, n, "gpus", "compute_s", compute, "s");
    dm_fact_add(f, max, n, "gpus", "transfer_s", transfer, "s");
    dm_fact_add(f, max, n, "gpus", "sum_s", sp->sum_s, "s");
    for (int k = 0; k < sp->gpus; k++) {
        char group[16];
        snprintf(group, sizeof group, "gpu %d", k);
        dm_fact_add(f, max, n, group, "instances", (double)sp->instances[k], NULL);
        dm_fact_add(f, max, n, group, "compute_s", rl_compute_s(&sp->stages[k]), "s");
        dm_fact_add(f, max, n, group, "transfer_s", rl_transfer_s(&sp->stages[k]), "s");
        dm_fact_add(f, max, n, group, "total_s", sp->stages[k].total_s, "s");
    }
}

int rl_facts(const void *out, const dm_point *pt, dm_fact *f, int max)
{
    static const char *const names[RL_STAGES] = {"copy_in_s", "coverage_s", "reduction_s",
                                                 "fitness_s", "copy_out_s"};
    const rl_answer *a = out;
    const rl_stages *st = a->stages;
    (void)pt;
    int n = 0;
    if (!st)
        return 0;
    double sum = 0;
    for (int k = 0; k < RL_STAGES; k++) {
        dm_fact_add(f, max, &n, "stages", names[k], st->s[k], "s");
        sum += st->s[k];
    }
    dm_fact_add(f, max, &n, "stages", "stages_s", sum, "s");
    dm_fact_add(f, max, &n, "stages", "total_s", st->total_s, "s");
    dm_fact_add(f, max, &n, "stages", "chunks", st->chunks, NULL);
    if (a->split)
        rl_split_facts(a->split, f, max, &n);
    return n;
}

/* ---- work and the result -------------------------------------------------------------- */

void rl_work(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w)
{
    (void)ref;
    double instances = (double)((const rl_table *)ds->data)->n;
    int generated = strcmp(dm_point_str(pt, "rules_file"), "-") == 0;
    w->bytes = (double)ds->size_bytes;
    w->ops = generated ? instances * (double)dm_point_int(pt, "rules") *
                             (double)dm_point_int(pt, "symbols")
                       : 0;
    w->ops_unit = generated ? "GPops" : NULL;
}

int rl_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err)
{
    (void)pt;
    const rl_answer *a = out;
    return rl_result_write(&a->res, a->rs, a->t, f, err);
}
