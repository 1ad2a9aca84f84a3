/* cl_mine.c - the colocation miner of Huang et al. as the paper ran it on the CPU: Apriori
 * candidates level by level, an optional upper-bound filter (M: multi-resolution, C: cell
 * aggregates), instance tables from the grid (size 2) and by sort-merge joins (above). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static double cl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cl_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The prevalent pattern of the last level with this mask, or NULL. */
static const cl_prev *cl_prev_find(const cl_miner *m, uint64_t mask)
{
    for (int i = 0; i < m->nprev; i++)
        if (m->prev[i].mask == mask)
            return &m->prev[i];
    return NULL;
}

/* The size-(k+1) candidates from the prevalent patterns of size k, prev[0..nprev-1] (in
 * lexicographic order, so those sharing their first k - 1 features are neighbours): each
 * pair sharing them, joined, when all its size-k subsets are prevalent. Into *cands (in
 * lexicographic order); returns how many, or -1 without memory. */
static int cl_apriori(const cl_prev *prev, int nprev, int k, uint64_t **cands)
{
    uint64_t *sorted = malloc(((size_t)nprev + 1) * sizeof *sorted);
    size_t cap = 64, n = 0;
    *cands = malloc(cap * sizeof **cands);
    if (!sorted || !*cands)
        goto oom;
    for (int i = 0; i < nprev; i++)
        sorted[i] = prev[i].mask;
    qsort(sorted, (size_t)nprev, sizeof *sorted, cl_cmp_u64);
    for (int i = 0; i < nprev; i++) {
        const cl_prev *a = &prev[i];
        for (int j = i + 1; j < nprev; j++) {
            const cl_prev *b = &prev[j];
            if (k > 1 && memcmp(a->feat, b->feat, (size_t)(k - 1) * sizeof *a->feat) != 0)
                break;
            uint64_t c = a->mask | b->mask;
            int all = 1;
            for (int d = 0; d < k - 1 && all; d++) {
                uint64_t sub = c & ~(1ULL << a->feat[d]);
                all = bsearch(&sub, sorted, (size_t)nprev, sizeof *sorted, cl_cmp_u64) != NULL;
            }
            if (!all)
                continue;
            if (n == cap) {
                uint64_t *p = realloc(*cands, 2 * cap * sizeof *p);
                if (!p)
                    goto oom;
                *cands = p;
                cap *= 2;
            }
            (*cands)[n++] = c;
        }
    }
    free(sorted);
    return (int)n;
oom:
    free(sorted);
    free(*cands);
    *cands = NULL;
    return -1;
}

/* Appends a candidate to the result. Returns 0, or -1 without memory. */
static int cl_push_candidate(cl_miner *m, const cl_candidate *c)
{
    cl_result *r = m->res;
    if (r->ncand == m->cand_cap) {
        int64_t cap = m->cand_cap ? m->cand_cap * 2 : 256;
        cl_candidate *p = realloc(r->cand, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        r->cand = p;
        m->cand_cap = cap;
    }
    r->cand[r->ncand++] = *c;
    return 0;
}

/* Filters and refines one candidate of size k1 into *c (counting passes only); a
 * prevalent one is added to the next level. Returns 0, or DM_ERUNTIME without memory. */
static int cl_evaluate(cl_miner *m, uint64_t mask, int k1, cl_level *lv, cl_candidate *c,
                       dm_err *err)
{
    cl_prev *np = &m->next[m->nnext];
    memset(np, 0, sizeof *np);
    np->mask = mask;
    cl_mask_features(mask, np->feat);
    *c = (cl_candidate){.mask = mask, .size = k1, .bound = NAN, .pi = NAN};
    const cl_prev *p1 = NULL, *p2 = NULL;
    if (k1 > 2) {
        p1 = cl_prev_find(m, mask & ~(1ULL << np->feat[k1 - 1]));
        p2 = cl_prev_find(m, mask & ~(1ULL << np->feat[k1 - 2]));
    }
    double t0 = cl_now();
    int rc = 0;
    if (m->o->filter == CL_FILTER_MULTIRES)
        rc = cl_table_count(&m->coarse, np->feat, k1, p1 ? &p1->coarse : NULL,
                            p2 ? &p2->coarse : NULL, m->threads, m->coarse_flags,
                            &np->coarse_plan, &c->bound, err);
    else if (m->o->filter == CL_FILTER_CELLAGG)
        c->bound = cl_cellagg_bound(&m->fine, &m->coarse, mask, m->threads);
    double t1 = cl_now();
    lv->filter_s += t1 - t0;
    if (rc)
        return rc;
    c->pruned = m->o->filter != CL_FILTER_NONE && c->bound < m->o->prevalence;
    if (!c->pruned) {
        rc = cl_table_count(&m->fine, np->feat, k1, p1 ? &p1->fine : NULL,
                            p2 ? &p2->fine : NULL, m->threads, m->fine_flags, &np->fine_plan,
                            &c->pi, err);
        c->rows = np->fine_plan.rows;
        c->prevalent = rc == 0 && c->pi >= m->o->prevalence;
    }
    lv->refine_s += cl_now() - t1;
    if (c->prevalent) {
        m->nnext++;
    } else {
        cl_plan_free(&np->fine_plan);
        cl_plan_free(&np->coarse_plan);
    }
    return rc;
}

/* Writes the tables of the next level's patterns (m->next) that the candidates
 * cands[0..ncand-1] of size k1 + 1 join: each candidate's subsets without its last and
 * without its second-to-last feature. Then drops every plan. Returns 0, or DM_ERUNTIME
 * without memory. */
static int cl_fill_needed(cl_miner *m, int k1, const uint64_t *cands, int ncand, cl_level *lv,
                          dm_err *err)
{
    for (int i = 0; i < ncand; i++) {
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
        const cl_prev *p1 = NULL, *p2 = NULL;
        if (k1 > 2) {
            p1 = cl_prev_find(m, np->mask & ~(1ULL << np->feat[k1 - 1]));
            p2 = cl_prev_find(m, np->mask & ~(1ULL << np->feat[k1 - 2]));
        }
        double t0 = cl_now();
        if (m->o->filter == CL_FILTER_MULTIRES)
            rc = cl_table_fill(&m->coarse, np->feat, k1, p1 ? &p1->coarse : NULL,
                               p2 ? &p2->coarse : NULL, m->threads, &np->coarse_plan,
                               &np->coarse, err);
        double t1 = cl_now();
        lv->filter_s += t1 - t0;
        if (rc == 0)
            rc = cl_table_fill(&m->fine, np->feat, k1, p1 ? &p1->fine : NULL,
                               p2 ? &p2->fine : NULL, m->threads, &np->fine_plan, &np->fine,
                               err);
        lv->refine_s += cl_now() - t1;
    }
    for (int j = 0; j < m->nnext; j++) {
        cl_plan_free(&m->next[j].fine_plan);
        cl_plan_free(&m->next[j].coarse_plan);
    }
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

/* Mines level after level until no candidate is left: each level counts its candidates'
 * rows (PI, bounds), then writes only the tables the next level's candidates join.
 * Returns 0 or the error. */
static int cl_levels(cl_miner *m, dm_err *err)
{
    for (int f = 0; f < m->fine.nfeat; f++) {
        m->prev[f] = (cl_prev){.mask = 1ULL << f, .feat = {f}};
        m->nprev++;
    }
    uint64_t *cands = NULL, *next_cands = NULL;
    int ncand = cl_apriori(m->prev, m->nprev, 1, &cands), rc = 0;
    for (int k1 = 2; ncand > 0; k1++) {
        cl_level *lv = &m->res->levels[m->res->nlevels++];
        *lv = (cl_level){.size = k1, .candidates = ncand};
        m->next = calloc((size_t)ncand, sizeof *m->next);
        m->nnext = 0;
        if (!m->next)
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
        for (int i = 0; i < ncand && rc == 0; i++) {
            cl_candidate c;
            rc = cl_evaluate(m, cands[i], k1, lv, &c, err);
            if (rc == 0 && cl_push_candidate(m, &c))
                rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
            lv->pruned += c.pruned;
            lv->prevalent += c.prevalent;
        }
        int nnext_cand = 0;
        if (rc == 0 && (nnext_cand = cl_apriori(m->next, m->nnext, k1, &next_cands)) < 0)
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
        if (rc == 0)
            rc = cl_fill_needed(m, k1, next_cands, nnext_cand, lv, err);
        free(cands);
        cands = next_cands;
        next_cands = NULL;
        ncand = rc ? 0 : nnext_cand;
        cl_prev_free(m->prev, m->nprev);
        free(m->prev);
        m->prev = m->next;
        m->nprev = m->nnext;
        m->next = NULL;
    }
    free(cands);
    if (rc == 0 && ncand < 0)
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
    return rc;
}

int cl_mine(const cl_points *p, const cl_mine_opts *opts, cl_result *out, dm_err *err)
{
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
    return rc;
}
