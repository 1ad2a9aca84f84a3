/* cl_table.c - instance tables as Huang et al. build them: size 2 from the grid (each
 * instance against the neighbouring cells' instances of the other feature), size k + 1 by
 * the sort-merge join of two size-k tables sharing a (k-1)-prefix. A counting pass gives
 * the participation index and the rows per chunk; a filling pass writes the rows of the
 * tables the next level joins. Both are the same whether one thread or many run them. */
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_index.h"

/* Marks instance i as participating (a relaxed atomic store: threads may mark the same). */
static inline void cl_mark(uint8_t *flags, uint32_t i)
{
    if (!__atomic_load_n(&flags[i], __ATOMIC_RELAXED))
        __atomic_store_n(&flags[i], 1, __ATOMIC_RELAXED);
}

/* One pass over a table's work, split in chunks: chunk c covers lo[c] .. lo[c+1]-1 (size
 * 2: instances of feat[0], counted from its first; joins: rows of t1). The counting pass
 * (ids NULL) counts each chunk's rows into rows[c] and marks flags; the filling pass
 * writes chunk c's rows from row at[c] of ids. */
typedef struct cl_job {
    const cl_inst *s;
    const int *feat;
    int k; /* the size of the tables joined (1 for size 2) */
    const cl_table *t1, *t2;
    uint8_t *flags;
    const uint64_t *lo;
    uint64_t *rows;
    const uint64_t *at;
    uint32_t *ids;
    int *oom;
} cl_job;

/* Emits row (the k ids of head, then last) of chunk c: counts it, or writes it. */
static inline void cl_emit(cl_job *job, int c, uint64_t *n, const uint32_t *head,
                           uint32_t last)
{
    if (job->ids) {
        uint32_t *row = job->ids + (job->at[c] + *n) * (uint64_t)(job->k + 1);
        memcpy(row, head, (size_t)job->k * sizeof *row);
        row[job->k] = last;
    }
    (*n)++;
}

int cl_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Size 2, one chunk: the rows (i, j), i of feat[0] and j of feat[1] neighbours, by i then
 * j. j is looked for in the 3 x 3 cells around i's (see cl_index.h on why that is all). */
static void cl_job_grid(void *ctx, int c)
{
    cl_job *job = ctx;
    const cl_inst *s = job->s;
    uint32_t a0 = s->start[job->feat[0]], blo = s->start[job->feat[1]],
             bhi = s->start[job->feat[1] + 1];
    uint32_t *near = NULL;
    size_t ncap = 0;
    uint64_t rows = 0;
    for (uint64_t ii = job->lo[c]; ii < job->lo[c + 1]; ii++) {
        uint32_t i = a0 + (uint32_t)ii;
        size_t nn = 0;
        for (int32_t r = s->row[i] - 1; r <= s->row[i] + 1; r++) {
            if (r < 0 || r >= s->grid.nrows)
                continue;
            for (int32_t q = s->col[i] - 1; q <= s->col[i] + 1; q++) {
                if (q < 0 || q >= s->grid.ncols)
                    continue;
                size_t cell = (size_t)r * s->grid.ncols + q;
                const uint32_t *it = s->cell_items + s->cell_start[cell],
                               *end = s->cell_items + s->cell_start[cell + 1];
                for (; it < end && *it < bhi; it++) {
                    if (*it < blo || !cl_inst_near(s, i, *it))
                        continue;
                    if (nn == ncap) {
                        size_t cap = ncap ? ncap * 2 : 64;
                        uint32_t *p = realloc(near, cap * sizeof *p);
                        if (!p) {
                            __atomic_store_n(job->oom, 1, __ATOMIC_RELAXED);
                            free(near);
                            return;
                        }
                        near = p;
                        ncap = cap;
                    }
                    near[nn++] = *it;
                }
            }
        }
        if (nn == 0)
            continue;
        if (job->ids) {
            qsort(near, nn, sizeof *near, cl_cmp_u32);
            for (size_t m = 0; m < nn; m++)
                cl_emit(job, c, &rows, &i, near[m]);
        } else {
            cl_mark(job->flags, i);
            for (size_t m = 0; m < nn; m++)
                cl_mark(job->flags, near[m]);
            rows += nn;
        }
    }
    free(near);
    job->rows[c] = rows;
}

/* -1, 0 or 1 as row a's first n ids compare with row b's. */
static inline int cl_prefix_cmp(const uint32_t *a, const uint32_t *b, int n)
{
    for (int m = 0; m < n; m++)
        if (a[m] != b[m])
            return a[m] < b[m] ? -1 : 1;
    return 0;
}

/* The first row of t whose first n ids are not below key's. */
static uint64_t cl_lower_bound(const cl_table *t, const uint32_t *key, int n)
{
    uint64_t lo = 0, hi = t->rows;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (cl_prefix_cmp(t->ids + mid * t->k, key, n) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The last ids of a group of t2's rows with their places (fine: x and y; coarse: column
 * and row), side by side for the join's inner loop. */
typedef struct cl_group {
    uint32_t *id;
    double *px, *py;
    uint64_t n, cap;
} cl_group;

/* Loads t2's rows q .. qg-1 into g. Returns 0, or -1 without memory. */
static int cl_group_load(cl_group *g, const cl_inst *s, const cl_table *t2, uint64_t q,
                         uint64_t qg)
{
    g->n = qg - q;
    if (g->n > g->cap) {
        uint64_t cap = g->n * 2;
        uint32_t *id = realloc(g->id, cap * sizeof *id);
        if (id)
            g->id = id;
        double *px = realloc(g->px, cap * sizeof *px);
        if (px)
            g->px = px;
        double *py = realloc(g->py, cap * sizeof *py);
        if (py)
            g->py = py;
        if (!id || !px || !py)
            return -1;
        g->cap = cap;
    }
    int p = t2->k - 1;
    for (uint64_t j = 0; j < g->n; j++) {
        uint32_t b = t2->ids[(q + j) * t2->k + p];
        g->id[j] = b;
        g->px[j] = s->coarse ? s->col[b] : s->x[b];
        g->py[j] = s->coarse ? s->row[b] : s->y[b];
    }
    return 0;
}

/* Whether places (ax, ay) and (bx, by) are neighbours: cl_near() for points, cells at most
 * one apart for coarse instances (whole numbers, so the doubles compare exactly). */
static inline int cl_place_near(int coarse, double ax, double ay, double bx, double by,
                                double d2)
{
    if (coarse)
        return ax - bx <= 1 && bx - ax <= 1 && ay - by <= 1 && by - ay <= 1;
    return cl_near(ax, ay, bx, by, d2);
}

/* Size k + 1, one chunk: the sort-merge join of t1's rows lo[c] .. lo[c+1]-1 with t2.
 * Equal (k-1)-prefixes are merged group against group; a pair of rows whose last ids are
 * neighbours makes the row (t1 row, t2's last id). */
static void cl_job_join(void *ctx, int c)
{
    cl_job *job = ctx;
    const cl_inst *s = job->s;
    const cl_table *t1 = job->t1, *t2 = job->t2;
    int k = job->k, p = k - 1, coarse = s->coarse;
    uint64_t r = job->lo[c], end = job->lo[c + 1], rows = 0;
    cl_group g = {0};
    uint64_t q = r < end ? cl_lower_bound(t2, t1->ids + r * k, p) : t2->rows;
    while (r < end && q < t2->rows) {
        const uint32_t *a = t1->ids + r * k, *b = t2->ids + q * k;
        int cmp = cl_prefix_cmp(a, b, p);
        if (cmp != 0) { /* skip the side that is behind to the next group */
            if (cmp < 0)
                while (r < end && cl_prefix_cmp(t1->ids + r * k, b, p) < 0)
                    r++;
            else
                while (q < t2->rows && cl_prefix_cmp(t2->ids + q * k, a, p) < 0)
                    q++;
            continue;
        }
        uint64_t rg = r, qg = q;
        while (rg < end && cl_prefix_cmp(t1->ids + rg * k, a, p) == 0)
            rg++;
        while (qg < t2->rows && cl_prefix_cmp(t2->ids + qg * k, a, p) == 0)
            qg++;
        if (cl_group_load(&g, s, t2, q, qg)) {
            __atomic_store_n(job->oom, 1, __ATOMIC_RELAXED);
            break;
        }
        for (uint64_t i = r; i < rg; i++) {
            const uint32_t *row = t1->ids + i * k;
            uint32_t last = row[p];
            double ax = coarse ? s->col[last] : s->x[last];
            double ay = coarse ? s->row[last] : s->y[last];
            uint64_t before = rows;
            for (uint64_t j = 0; j < g.n; j++) {
                if (!cl_place_near(coarse, ax, ay, g.px[j], g.py[j], s->d2))
                    continue;
                if (!job->ids)
                    cl_mark(job->flags, g.id[j]);
                cl_emit(job, c, &rows, row, g.id[j]);
            }
            if (rows > before && !job->ids)
                for (int m = 0; m < k; m++)
                    cl_mark(job->flags, row[m]);
        }
        r = rg;
        q = qg;
    }
    free(g.id);
    free(g.px);
    free(g.py);
    job->rows[c] = rows;
}

/* Chunk bounds over n items: one chunk for one thread, else about 64 per thread (a join
 * group of t1 may span chunks: a chunk joins its own rows with the whole group of t2, so
 * clumps of rows sharing a prefix still spread over the threads), at least min_chunk
 * items each. Returns the number of chunks, or -1 without memory; *lo gets nchunks + 1
 * bounds. */
static int cl_chunks(uint64_t n, int threads, uint64_t min_chunk, uint64_t **lo)
{
    uint64_t step = threads > 1 ? n / ((uint64_t)threads * 64) : n;
    if (step < min_chunk)
        step = min_chunk;
    uint64_t nchunks = n == 0 ? 1 : (n + step - 1) / step;
    *lo = malloc((size_t)(nchunks + 1) * sizeof **lo);
    if (!*lo)
        return -1;
    for (uint64_t c = 0; c <= nchunks; c++)
        (*lo)[c] = c == nchunks ? n : c * step;
    return (int)nchunks;
}

/* PI from the flags of the pattern's features, clearing them. */
static double cl_flags_pi(const cl_inst *s, const int *feat, int k1, uint8_t *flags)
{
    double pi = 1;
    for (int m = 0; m < k1; m++) {
        int f = feat[m];
        uint64_t count = 0;
        for (uint32_t i = s->start[f]; i < s->start[f + 1]; i++)
            if (flags[i]) {
                count += s->weight ? s->weight[i] : 1;
                flags[i] = 0;
            }
        double ratio = cl_ratio(count, s->total[f]);
        if (ratio < pi)
            pi = ratio;
    }
    return pi;
}

int cl_table_count(const cl_inst *s, const int *feat, int k1, const cl_table *t1,
                   const cl_table *t2, int threads, uint8_t *flags, cl_plan *plan,
                   double *pi, dm_err *err)
{
    memset(plan, 0, sizeof *plan);
    uint64_t n = k1 == 2 ? s->start[feat[0] + 1] - s->start[feat[0]] : t1->rows;
    plan->nchunks = cl_chunks(n, threads, k1 == 2 ? 64 : 256, &plan->lo);
    if (plan->nchunks > 0)
        plan->chunk_rows = malloc((size_t)plan->nchunks * sizeof *plan->chunk_rows);
    if (!plan->chunk_rows) {
        cl_plan_free(plan);
        return dm_err_set(err, DM_ERUNTIME, "out of memory for an instance table");
    }
    int oom = 0;
    cl_job job = {.s = s, .feat = feat, .k = k1 - 1, .t1 = t1, .t2 = t2, .flags = flags,
                  .lo = plan->lo, .rows = plan->chunk_rows, .oom = &oom};
    cl_par_for(threads, plan->nchunks, k1 == 2 ? cl_job_grid : cl_job_join, &job);
    *pi = cl_flags_pi(s, feat, k1, flags);
    for (int c = 0; c < plan->nchunks; c++)
        plan->rows += plan->chunk_rows[c];
    if (oom) {
        cl_plan_free(plan);
        return dm_err_set(err, DM_ERUNTIME, "out of memory for an instance table");
    }
    return 0;
}

int cl_table_fill(const cl_inst *s, const int *feat, int k1, const cl_table *t1,
                  const cl_table *t2, int threads, const cl_plan *plan, cl_table *out,
                  dm_err *err)
{
    memset(out, 0, sizeof *out);
    out->k = k1;
    uint64_t *at = malloc(((size_t)plan->nchunks + 1) * sizeof *at),
             *rows = malloc(((size_t)plan->nchunks + 1) * sizeof *rows);
    out->ids = malloc((size_t)(plan->rows * (uint64_t)k1 + 1) * sizeof *out->ids);
    int oom = !at || !rows || !out->ids;
    if (!oom) {
        at[0] = 0;
        for (int c = 1; c < plan->nchunks; c++)
            at[c] = at[c - 1] + plan->chunk_rows[c - 1];
        cl_job job = {.s = s, .feat = feat, .k = k1 - 1, .t1 = t1, .t2 = t2, .lo = plan->lo,
                      .rows = rows, .at = at, .ids = out->ids, .oom = &oom};
        cl_par_for(threads, plan->nchunks, k1 == 2 ? cl_job_grid : cl_job_join, &job);
    }
    free(at);
    free(rows);
    if (oom) {
        cl_table_free(out);
        return dm_err_set(err, DM_ERUNTIME, "out of memory for an instance table of %llu rows",
                          (unsigned long long)plan->rows);
    }
    out->rows = plan->rows;
    return 0;
}

void cl_plan_free(cl_plan *plan)
{
    free(plan->lo);
    free(plan->chunk_rows);
    memset(plan, 0, sizeof *plan);
}

void cl_table_free(cl_table *t)
{
    free(t->ids);
    t->ids = NULL;
    t->rows = 0;
}
