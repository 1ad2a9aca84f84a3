/* cl_mine.c - the colocation miner of Huang et al. as the paper ran it on the CPU: Apriori
 * candidates level by level, an optional upper-bound filter (M: multi-resolution, C: cell
 * aggregates), instance tables from the grid (size 2) and by sort-merge joins (above). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coloc/cl_index.h"

/* A prevalent pattern of the level last mined, with its tables (coarse: filter M). */
typedef struct cl_prev {
    uint64_t mask;
    int feat[CL_MAX_FEATURES];
    cl_table fine, coarse;
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

/* The size-(k+1) candidates from the last level's prevalent patterns of size k (in
 * lexicographic order, so those sharing their first k - 1 features are neighbours): each
 * pair sharing them, joined, when all its size-k subsets are prevalent. Into *cands (in
 * lexicographic order); returns how many, or -1 without memory. */
static int cl_apriori(const cl_miner *m, int k, uint64_t **cands)
{
    uint64_t *sorted = malloc(((size_t)m->nprev + 1) * sizeof *sorted);
    size_t cap = 64, n = 0;
    *cands = malloc(cap * sizeof **cands);
    if (!sorted || !*cands) {
        free(sorted);
        free(*cands);
        return -1;
    }
    for (int i = 0; i < m->nprev; i++)
        sorted[i] = m->prev[i].mask;
    qsort(sorted, (size_t)m->nprev, sizeof *sorted, cl_cmp_u64);
    for (int i = 0; i < m->nprev; i++) {
        const cl_prev *a = &m->prev[i];
        for (int j = i + 1; j < m->nprev; j++) {
            const cl_prev *b = &m->prev[j];
            if (k > 1 && memcmp(a->feat, b->feat, (size_t)(k - 1) * sizeof *a->feat) != 0)
                break;
            uint64_t c = a->mask | b->mask;
            int all = 1;
            for (int d = 0; d < k - 1 && all; d++) {
                uint64_t sub = c & ~(1ULL << a->feat[d]);
                all = bsearch(&sub, sorted, (size_t)m->nprev, sizeof *sorted, cl_cmp_u64) != NULL;
            }
            if (!all)
                continue;
            if (n == cap) {
                uint64_t *p = realloc(*cands, 2 * cap * sizeof *p);
                if (!p) {
                    free(sorted);
                    free(*cands);
                    return -1;
                }
                *cands = p;
                cap *= 2;
            }
            (*cands)[n++] = c;
        }
    }
    free(sorted);
    return (int)n;
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

/* Filters and refines one candidate of size k1 into *c; a prevalent one is added to the
 * next level with its tables. Returns 0, or DM_ERUNTIME without memory. */
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
        rc = cl_table_build(&m->coarse, np->feat, k1, p1 ? &p1->coarse : NULL,
                            p2 ? &p2->coarse : NULL, m->threads, m->coarse_flags, &np->coarse,
                            &c->bound, err);
    else if (m->o->filter == CL_FILTER_CELLAGG)
        c->bound = cl_cellagg_bound(&m->fine, &m->coarse, mask, m->threads);
    double t1 = cl_now();
    lv->filter_s += t1 - t0;
    if (rc)
        return rc;
    c->pruned = m->o->filter != CL_FILTER_NONE && c->bound < m->o->prevalence;
    if (!c->pruned) {
        rc = cl_table_build(&m->fine, np->feat, k1, p1 ? &p1->fine : NULL, p2 ? &p2->fine : NULL,
                            m->threads, m->fine_flags, &np->fine, &c->pi, err);
        c->rows = np->fine.rows;
        c->prevalent = rc == 0 && c->pi >= m->o->prevalence;
    }
    lv->refine_s += cl_now() - t1;
    if (c->prevalent) {
        m->nnext++;
    } else {
        cl_table_free(&np->fine);
        cl_table_free(&np->coarse);
    }
    return rc;
}

static void cl_prev_free(cl_prev *p, int n)
{
    for (int i = 0; i < n; i++) {
        cl_table_free(&p[i].fine);
        cl_table_free(&p[i].coarse);
    }
}

/* Mines level after level until no candidate is left. Returns 0 or the error. */
static int cl_levels(cl_miner *m, dm_err *err)
{
    for (int f = 0; f < m->fine.nfeat; f++) {
        m->prev[f] = (cl_prev){.mask = 1ULL << f, .feat = {f}};
        m->nprev++;
    }
    for (int k1 = 2;; k1++) {
        uint64_t *cands;
        int ncand = cl_apriori(m, k1 - 1, &cands);
        if (ncand < 0)
            return dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
        if (ncand == 0) {
            free(cands);
            return 0;
        }
        cl_level *lv = &m->res->levels[m->res->nlevels++];
        *lv = (cl_level){.size = k1, .candidates = ncand};
        m->next = calloc((size_t)ncand, sizeof *m->next);
        m->nnext = 0;
        int rc = m->next ? 0 : dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
        for (int i = 0; i < ncand && rc == 0; i++) {
            cl_candidate c;
            rc = cl_evaluate(m, cands[i], k1, lv, &c, err);
            if (rc == 0 && cl_push_candidate(m, &c))
                rc = dm_err_set(err, DM_ERUNTIME, "out of memory for the candidates");
            lv->pruned += c.pruned;
            lv->prevalent += c.prevalent;
        }
        free(cands);
        cl_prev_free(m->prev, m->nprev);
        free(m->prev);
        m->prev = m->next;
        m->nprev = m->nnext;
        m->next = NULL;
        if (rc)
            return rc;
    }
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
