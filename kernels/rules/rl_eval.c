/* rl_eval.c - the CPU stack interpreter of rules: each RPN token applied to a block of
 * instances at once (a stack of byte vectors), its true instances counted as it goes;
 * work items of (rule, run of blocks) spread over pthreads and summed in a fixed order. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/rl_eval.h"
#include "rules/rl_measures.h"

#define RL_BLOCK 1024         /* instances a token is applied to at once */
#define RL_ITEM_BLOCKS 64     /* blocks per work item */

/* The counts of one work item: rule r over instances [i0, i1). */
typedef struct rl_item {
    int r;
    int64_t i0, i1;
    int64_t a, c, ac; /* instances satisfying A, C, both */
    int64_t *tok;     /* per token of the rule (antecedent then consequent) */
} rl_item;

typedef struct rl_job {
    const rl_table *t;
    const rl_ruleset *rs;
    int depth;
    rl_item *items;
    int64_t nitems;
    atomic_llong next;
    atomic_int oom;
} rl_job;

/* Sets o[0..m) to whether rows i0.. satisfy condition k. */
static void rl_cond(const rl_table *t, const rl_token *k, int64_t i0, int m, uint8_t *o)
{
    const rl_column *c = &t->cols[k->attr];
    if (c->kind == RL_CATEGORICAL) {
        const int32_t *x = c->code + i0, v = (int32_t)k->lo;
        if (k->op == RL_EQ)
            for (int i = 0; i < m; i++)
                o[i] = x[i] == v;
        else
            for (int i = 0; i < m; i++)
                o[i] = x[i] != v;
        return;
    }
    const double *x = c->num + i0, v = k->lo, hi = k->hi;
    switch (k->op) {
    case RL_EQ: for (int i = 0; i < m; i++) o[i] = x[i] == v; break;
    case RL_NE: for (int i = 0; i < m; i++) o[i] = x[i] != v; break;
    case RL_LT: for (int i = 0; i < m; i++) o[i] = x[i] < v; break;
    case RL_LE: for (int i = 0; i < m; i++) o[i] = x[i] <= v; break;
    case RL_GT: for (int i = 0; i < m; i++) o[i] = x[i] > v; break;
    case RL_GE: for (int i = 0; i < m; i++) o[i] = x[i] >= v; break;
    case RL_IN: for (int i = 0; i < m; i++) o[i] = (x[i] >= v) & (x[i] <= hi); break;
    }
}

/* The true rows among o[0..m), m <= RL_BLOCK (a 32-bit sum vectorises well). */
static int64_t rl_sum(const uint8_t *o, int m)
{
    uint32_t s = 0;
    for (int i = 0; i < m; i++)
        s += o[i];
    return s;
}

/* Interprets expression tok[0..n) on the m rows from i0 with the stack (RL_BLOCK bytes
 * per level), adding each token's true rows to count[]. The result is stack[0..m). */
static void rl_expr(const rl_table *t, const rl_token *tok, int n, int64_t i0, int m,
                    uint8_t *stack, int64_t *count)
{
    int sp = 0; /* values on the stack */
    for (int k = 0; k < n; k++) {
        uint8_t *top;
        if (RL_IS_COND(tok[k].op)) {
            top = stack + (size_t)sp++ * RL_BLOCK;
            rl_cond(t, &tok[k], i0, m, top);
        } else if (tok[k].op == RL_NOT) {
            top = stack + (size_t)(sp - 1) * RL_BLOCK;
            for (int i = 0; i < m; i++)
                top[i] ^= 1;
        } else {
            top = stack + (size_t)(sp - 2) * RL_BLOCK;
            const uint8_t *b = top + RL_BLOCK;
            if (tok[k].op == RL_AND)
                for (int i = 0; i < m; i++)
                    top[i] &= b[i];
            else
                for (int i = 0; i < m; i++)
                    top[i] |= b[i];
            sp--;
        }
        count[k] += rl_sum(top, m);
    }
}

/* Counts one work item; stack has depth + 1 levels (the last keeps A's coverage). */
static void rl_run_item(const rl_job *job, rl_item *it, uint8_t *stack)
{
    const rl_rule *rule = &job->rs->rules[it->r];
    const rl_token *ante = job->rs->tok + rule->ante, *cons = job->rs->tok + rule->cons;
    uint8_t *a = stack + (size_t)job->depth * RL_BLOCK;
    for (int64_t i0 = it->i0; i0 < it->i1; i0 += RL_BLOCK) {
        int m = (int)(it->i1 - i0 < RL_BLOCK ? it->i1 - i0 : RL_BLOCK);
        rl_expr(job->t, ante, rule->nante, i0, m, stack, it->tok);
        memcpy(a, stack, (size_t)m);
        rl_expr(job->t, cons, rule->ncons, i0, m, stack, it->tok + rule->nante);
        uint32_t ac = 0;
        for (int i = 0; i < m; i++)
            ac += a[i] & stack[i];
        it->ac += ac;
    }
    it->a = it->tok[rule->nante - 1];
    it->c = it->tok[rule->nante + rule->ncons - 1];
}

/* A thread: takes items until none is left. */
static void *rl_worker(void *arg)
{
    rl_job *job = arg;
    uint8_t *stack = malloc((size_t)(job->depth + 1) * RL_BLOCK);
    if (!stack) {
        atomic_store(&job->oom, 1);
        return NULL;
    }
    for (;;) {
        long long k = atomic_fetch_add(&job->next, 1);
        if (k >= job->nitems)
            break;
        rl_run_item(job, &job->items[k], stack);
    }
    free(stack);
    return NULL;
}

/* Runs job on threads threads (1: this one). Returns 0, or DM_ERUNTIME. */
static int rl_run_job(rl_job *job, int threads, dm_err *err)
{
    if (threads <= 1) {
        rl_worker(job);
    } else {
        pthread_t *tid = malloc((size_t)threads * sizeof *tid);
        if (!tid)
            return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
        int started = 0;
        while (started < threads && pthread_create(&tid[started], NULL, rl_worker, job) == 0)
            started++;
        if (started == 0) /* no thread at all: do the work here */
            rl_worker(job);
        for (int k = 0; k < started; k++)
            pthread_join(tid[k], NULL);
        free(tid);
    }
    if (atomic_load(&job->oom))
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    return 0;
}

/* Sums the items into res in item order (per rule, instance blocks ascending). */
static void rl_sum_items(const rl_job *job, rl_result *res)
{
    for (int64_t k = 0; k < job->nitems; k++) {
        const rl_item *it = &job->items[k];
        const rl_rule *rule = &job->rs->rules[it->r];
        rl_rule_result *r = &res->rule[it->r];
        r->n_a += it->a;
        r->n_c += it->c;
        r->n_ac += it->ac;
        int64_t *dst = res->tok_support + rule->ante;
        for (int j = 0; j < rule->nante + rule->ncons; j++)
            dst[j] += it->tok[j];
    }
    for (int q = 0; q < res->nrules; q++) {
        rl_rule_result *r = &res->rule[q];
        r->n_anc = r->n_a - r->n_ac;
        r->n_nac = r->n_c - r->n_ac;
        r->n_nanc = res->n - r->n_a - r->n_c + r->n_ac;
        rl_measures(r, res->n);
        res->gpops += (int64_t)(job->rs->rules[q].nante + job->rs->rules[q].ncons) * res->n;
    }
}

int rl_evaluate(const rl_table *t, const rl_ruleset *rs, int threads, rl_result *res,
                dm_err *err)
{
    memset(res, 0, sizeof *res);
    rl_job job = {.t = t, .rs = rs};
    atomic_init(&job.next, 0);
    atomic_init(&job.oom, 0);
    int rc = rl_ruleset_check(rs, t, &job.depth, err);
    if (rc)
        return rc;
    if (t->n < 1 || rs->nrules < 1)
        return dm_err_set(err, DM_EINPUT, "rules: nothing to evaluate (%lld rows, %d rules)",
                          (long long)t->n, rs->nrules);
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)cores : 1;
    }
    int64_t span = (int64_t)RL_BLOCK * RL_ITEM_BLOCKS, per_rule = (t->n + span - 1) / span;
    job.nitems = per_rule * rs->nrules;
    if (threads > job.nitems)
        threads = (int)job.nitems;
    if ((rc = rl_result_init(res, rs, err)) != 0)
        return rc;
    res->n = t->n;
    job.items = calloc((size_t)job.nitems, sizeof *job.items);
    int64_t *counts = calloc((size_t)(per_rule * rs->ntok), sizeof *counts);
    if (!job.items || !counts) {
        rc = dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
        goto done;
    }
    int64_t k = 0, off = 0;
    for (int r = 0; r < rs->nrules; r++) {
        int64_t len = rs->rules[r].nante + rs->rules[r].ncons;
        for (int64_t b = 0; b < per_rule; b++, k++, off += len) {
            job.items[k].r = r;
            job.items[k].i0 = b * span;
            job.items[k].i1 = (b + 1) * span < t->n ? (b + 1) * span : t->n;
            job.items[k].tok = counts + off;
        }
    }
    rc = rl_run_job(&job, threads, err);
    if (!rc)
        rl_sum_items(&job, res);
done:
    free(job.items);
    free(counts);
    if (rc)
        rl_result_free(res);
    return rc;
}

void rl_result_free(rl_result *res)
{
    free(res->rule);
    free(res->tok_support);
    memset(res, 0, sizeof *res);
}

int rl_result_init(rl_result *res, const rl_ruleset *rs, dm_err *err)
{
    memset(res, 0, sizeof *res);
    res->nrules = rs->nrules;
    res->ntok = rs->ntok;
    res->rule = calloc((size_t)rs->nrules, sizeof *res->rule);
    res->tok_support = calloc((size_t)rs->ntok, sizeof *res->tok_support);
    if (!res->rule || !res->tok_support) {
        rl_result_free(res);
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
    }
    return 0;
}

void rl_result_sum(rl_result *sum, const rl_result *const *parts, int nparts)
{
    sum->n = 0;
    sum->gpops = 0;
    memset(sum->rule, 0, (size_t)sum->nrules * sizeof *sum->rule);
    memset(sum->tok_support, 0, (size_t)sum->ntok * sizeof *sum->tok_support);
    for (int k = 0; k < nparts; k++) {
        const rl_result *p = parts[k];
        sum->n += p->n;
        sum->gpops += p->gpops;
        for (int q = 0; q < sum->nrules; q++) {
            rl_rule_result *r = &sum->rule[q];
            const rl_rule_result *x = &p->rule[q];
            r->n_a += x->n_a;
            r->n_c += x->n_c;
            r->n_ac += x->n_ac;
            r->n_anc += x->n_anc;
            r->n_nac += x->n_nac;
            r->n_nanc += x->n_nanc;
        }
        for (int64_t j = 0; j < sum->ntok; j++)
            sum->tok_support[j] += p->tok_support[j];
    }
    for (int q = 0; q < sum->nrules; q++)
        rl_measures(&sum->rule[q], sum->n);
}
