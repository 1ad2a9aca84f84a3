/* cl_mine.c - the colocation miner of Huang et al. as the paper ran it on the CPU: Apriori
 * candidates level by level, an optional upper-bound filter (M: multi-resolution, C: cell
 * aggregates), instance tables from the grid (size 2) and by sort-merge joins (above),
 * written only where the next level joins them. One thread, or chunks on many. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_index.h"

/* A prevalent pattern: its rows counted (plans), and its tables when the next level
 * joins them (coarse: filter M). */
typedef struct cl_prev {
    uint64_t mask;
    int feat[CL_MAX_FEATURES];
    cl_plan fine_plan, coarse_plan;
    cl_table fine, coarse;
    int needed;
} cl_prev;

/* The miner's state across levels. */
typedef struct cl_miner {
    const cl_mine_opts *o;
    int threads;
    cl_grid grid;
    cl_inst fine, coarse;
    uint8_t *fine_flags, *coarse_flags;
    cl_prev *prev, *next;
    int nprev, nnext;
    cl_result *res;
    int64_t cand_cap;
} cl_miner;

/* The pattern of arr[0..n-1] with this mask, or NULL. */
static const cl_prev *cl_prev_find(const cl_prev *arr, int n, uint64_t mask)
{
    for (int i = 0; i < n; i++)
        if (arr[i].mask == mask)
            return &arr[i];
    return NULL;
}

/* The size-(k+1) candidates from the masks of arr[0..n-1], patterns of size k, and their
 * level opened (cl_next_candidates): how many, or -1 without memory. */
static int cl_prev_candidates(cl_miner *m, const cl_prev *arr, int n, int k, uint64_t **cands,
                              int64_t *base)
{
    uint64_t *masks = malloc(((size_t)n + 1) * sizeof *masks);
    if (!masks)
        return -1;
    for (int i = 0; i < n; i++)
        masks[i] = arr[i].mask;
    int got = cl_next_candidates(m->res, &m->cand_cap, masks, n, k, cands, base);
    free(masks);
    return got;
}

/* The patterns among par[0..npar-1] that a size-k1 candidate with features feat joins:
 * *p1 without its last feature, *p2 without its second-to-last; NULL for size 2. */
static void cl_parents(const cl_prev *par, int npar, const int *feat, uint64_t mask, int k1,
                       const cl_prev **p1, const cl_prev **p2)
{
    *p1 = *p2 = NULL;
    if (k1 > 2) {
        *p1 = cl_prev_find(par, npar, mask & ~(1ULL << feat[k1 - 1]));
        *p2 = cl_prev_find(par, npar, mask & ~(1ULL << feat[k1 - 2]));
    }
}

/* The filter's bound on each candidate cc[0..n-1] of size k1, whose size-(k1-1) subsets
 * are par[0..npar-1], and whether it is pruned; filter M keeps each candidate's coarse
 * counts in cplan[i]. Returns 0, or DM_ERUNTIME without memory. */
static int cl_filter_level(cl_miner *m, const cl_prev *par, int npar, cl_candidate *cc,
                           cl_plan *cplan, int n, int k1, cl_level *lv, dm_err *err)
{
    double t0 = dm_now();
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        cl_candidate *c = &cc[i];
        int feat[CL_MAX_FEATURES];
        cl_mask_features(c->mask, feat);
        if (m->o->filter == CL_FILTER_MULTIRES) {
            const cl_prev *p1, *p2;
            cl_parents(par, npar, feat, c->mask, k1, &p1, &p2);
            rc = cl_table_count(&m->coarse, feat, k1, p1 ? &p1->coarse : NULL,
                                p2 ? &p2->coarse : NULL, m->threads, m->coarse_flags, &cplan[i],
                                &c->bound, err);
        } else if (m->o->filter == CL_FILTER_CELLAGG) {
            c->bound = cl_cellagg_bound(&m->fine, &m->coarse, c->mask, m->threads);
        }
        c->pruned = m->o->filter != CL_FILTER_NONE && c->bound < m->o->prevalence;
        lv->pruned += c->pruned;
    }
    lv->filter_s += dm_now() - t0;
    return rc;
}

/* Counts the rows of each candidate cc[0..n-1] of size k1 the filter kept (its subsets'
 * tables in m->prev): its PI, and whether it is prevalent. The prevalent ones join m->next
 * with their plans (cplan[i] moves along). Returns 0, or DM_ERUNTIME without memory. */
static int cl_refine_level(cl_miner *m, cl_candidate *cc, cl_plan *cplan, int n, int k1,
                           cl_level *lv, dm_err *err)
{
    double t0 = dm_now();
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        cl_candidate *c = &cc[i];
        if (c->pruned)
            continue;
        cl_prev *np = &m->next[m->nnext];
        memset(np, 0, sizeof *np);
        np->mask = c->mask;
        cl_mask_features(c->mask, np->feat);
        const cl_prev *p1, *p2;
        cl_parents(m->prev, m->nprev, np->feat, c->mask, k1, &p1, &p2);
        rc = cl_table_count(&m->fine, np->feat, k1, p1 ? &p1->fine : NULL,
                            p2 ? &p2->fine : NULL, m->threads, m->fine_flags, &np->fine_plan,
                            &c->pi, err);
        if (rc)
            break;
        c->rows = np->fine_plan.rows;
        lv->rows += c->rows;
        c->prevalent = c->pi >= m->o->prevalence;
        lv->prevalent += c->prevalent;
        if (c->prevalent) {
            np->coarse_plan = cplan[i];
            memset(&cplan[i], 0, sizeof cplan[i]);
            m->nnext++;
        } else {
            cl_plan_free(&np->fine_plan);
        }
    }
    lv->refine_s += dm_now() - t0;
    return rc;
}

/* Writes the tables of the size-k1 patterns m->next that the candidates cands[0..n-1] of
 * size k1 + 1 join (each candidate's subsets without its last and without its
 * second-to-last feature): with coarse, the coarse tables (filter M) for all candidates,
 * ahead of filtering them; else the fine ones for those the filter kept (cc says which).
 * Their own subsets' tables are in m->prev. Returns 0, or DM_ERUNTIME without memory. */
static int cl_fill(cl_miner *m, const uint64_t *cands, const cl_candidate *cc, int n, int k1,
                   int coarse, cl_level *lv, dm_err *err)
{
    double t0 = dm_now();
    for (int j = 0; j < m->nnext; j++)
        m->next[j].needed = 0;
    for (int i = 0; i < n; i++) {
        if (!coarse && cc[i].pruned)
            continue;
        int feat[CL_MAX_FEATURES];
        cl_mask_features(cands[i], feat);
        for (int drop = k1 - 1; drop <= k1; drop++)
            for (int j = 0; j < m->nnext; j++)
                if (m->next[j].mask == (cands[i] & ~(1ULL << feat[drop])))
                    m->next[j].needed = 1;
    }
    int rc = 0;
    for (int j = 0; j < m->nnext && rc == 0; j++) {
        cl_prev *np = &m->next[j];
        if (!np->needed)
            continue;
        const cl_prev *p1, *p2;
        cl_parents(m->prev, m->nprev, np->feat, np->mask, k1, &p1, &p2);
        if (coarse)
            rc = cl_table_fill(&m->coarse, np->feat, k1, p1 ? &p1->coarse : NULL,
                               p2 ? &p2->coarse : NULL, m->threads, &np->coarse_plan,
                               &np->coarse, err);
        else
            rc = cl_table_fill(&m->fine, np->feat, k1, p1 ? &p1->fine : NULL,
                               p2 ? &p2->fine : NULL, m->threads, &np->fine_plan, &np->fine,
                               err);
    }
    *(coarse ? &lv->filter_s : &lv->refine_s) += dm_now() - t0;
    return rc;
}

static void cl_prev_free(cl_prev *p, int n)
{
    for (int i = 0; i < n; i++) {
        cl_table_free(&p[i].fine);
        cl_table_free(&p[i].coarse);
        cl_plan_free(&p[i].fine_plan);
        cl_plan_free(&p[i].coarse_plan);
    }
}

static void cl_plans_free(cl_plan *plans, int n)
{
    for (int i = 0; plans && i < n; i++)
        cl_plan_free(&plans[i]);
    free(plans);
}

/* Filters the size-k1 candidates of the level just opened, n of them from index base of
 * the result (subsets par[0..npar-1]): *cplan gets their coarse plans. Returns 0, or
 * DM_ERUNTIME without memory. */
static int cl_next_level(cl_miner *m, const cl_prev *par, int npar, int n, int k1,
                         int64_t base, cl_plan **cplan, dm_err *err)
{
    if (!(*cplan = calloc((size_t)n + 1, sizeof **cplan)))
        return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    cl_level *lv = &m->res->levels[m->res->nlevels - 1];
    return cl_filter_level(m, par, npar, m->res->cand + base, *cplan, n, k1, lv, err);
}

/* Mines level after level until no candidate is left. Each level filters its candidates
 * and counts the rows of those kept (PI); then the next level's candidates are made and
 * their level opened, the coarse tables they join written and the candidates filtered,
 * and only then the fine tables that the kept ones join written. Returns 0 or the
 * error. */
static int cl_levels(cl_miner *m, dm_err *err)
{
    for (int f = 0; f < m->fine.nfeat; f++) {
        m->prev[f] = (cl_prev){.mask = 1ULL << f, .feat = {f}};
        m->nprev++;
    }
    uint64_t *cands = NULL;
    cl_plan *cplan = NULL, *next_cplan = NULL;
    int64_t base = 0;
    int ncand = cl_prev_candidates(m, m->prev, m->nprev, 1, &cands, &base), rc = 0;
    if (ncand < 0)
        return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    if (ncand > 0)
        rc = cl_next_level(m, m->prev, m->nprev, ncand, 2, base, &cplan, err);
    for (int k1 = 2; ncand > 0 && rc == 0; k1++) {
        cl_level *lv = &m->res->levels[m->res->nlevels - 1];
        m->next = calloc((size_t)ncand, sizeof *m->next);
        m->nnext = 0;
        if (!m->next) {
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
            break;
        }
        rc = cl_refine_level(m, m->res->cand + base, cplan, ncand, k1, lv, err);
        cl_plans_free(cplan, ncand);
        cplan = NULL;
        free(cands);
        cands = NULL;
        int nnext = 0;
        int64_t next_base = 0;
        if (rc == 0 && (nnext = cl_prev_candidates(m, m->next, m->nnext, k1, &cands,
                                                   &next_base)) < 0)
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
        if (rc == 0 && nnext > 0) { /* coarse tables first: the next filter reads them */
            if (m->o->filter == CL_FILTER_MULTIRES)
                rc = cl_fill(m, cands, NULL, nnext, k1, 1, lv, err);
            if (rc == 0)
                rc = cl_next_level(m, m->next, m->nnext, nnext, k1 + 1, next_base,
                                   &next_cplan, err);
            if (rc == 0)
                rc = cl_fill(m, cands, m->res->cand + next_base, nnext, k1, 0, lv, err);
        }
        cl_prev_free(m->prev, m->nprev);
        free(m->prev);
        m->prev = m->next;
        m->nprev = m->nnext;
        m->next = NULL;
        for (int j = 0; j < m->nprev; j++) { /* the plans were for writing the tables */
            cl_plan_free(&m->prev[j].fine_plan);
            cl_plan_free(&m->prev[j].coarse_plan);
        }
        cplan = next_cplan;
        next_cplan = NULL;
        ncand = nnext;
        base = next_base;
    }
    cl_plans_free(cplan, ncand);
    free(cands);
    return rc;
}

int cl_mine(const cl_points *p, const cl_mine_opts *opts, cl_result *out, dm_err *err)
{
    double t0 = dm_now();
    memset(out, 0, sizeof *out);
    if (!(opts->prevalence >= 0 && opts->prevalence <= 1))
        return dm_err_set(err, DM_EINPUT, "prevalence %g is not in [0, 1]", opts->prevalence);
    if (opts->filter < CL_FILTER_NONE || opts->filter > CL_FILTER_CELLAGG)
        return dm_err_set(err, DM_EINPUT, "unknown filter %d", (int)opts->filter);
    if (opts->threads < 0)
        return dm_err_set(err, DM_EINPUT, "%d threads", opts->threads);
    cl_miner m = {.o = opts, .res = out};
    m.threads = opts->threads ? opts->threads : cl_par_cores();
    int rc = cl_grid_make(p, opts->distance, &m.grid, err);
    if (rc)
        return rc;
    rc = cl_inst_fine(p, &m.grid, opts->distance, &m.fine, err);
    if (rc == 0 && opts->filter != CL_FILTER_NONE)
        rc = cl_inst_coarse(&m.fine, &m.coarse, err);
    if (rc)
        goto done;
    m.fine_flags = calloc((size_t)m.fine.n + 1, 1);
    m.coarse_flags = calloc((size_t)m.coarse.n + 1, 1);
    m.prev = calloc((size_t)p->nfeat, sizeof *m.prev);
    if (!m.fine_flags || !m.coarse_flags || !m.prev) {
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory for %u points", p->n);
        goto done;
    }
    rc = cl_levels(&m, err);
done:
    if (m.prev)
        cl_prev_free(m.prev, m.nprev);
    free(m.prev);
    free(m.fine_flags);
    free(m.coarse_flags);
    cl_inst_free(&m.fine);
    cl_inst_free(&m.coarse);
    if (rc)
        cl_result_free(out);
    else
        out->wall_s = dm_now() - t0;
    return rc;
}
