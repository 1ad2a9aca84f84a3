/* ep_prefix.c - counting by prefix on the host (ep_prefix.h): a batch's plan (each
 * episode one step from a kept prefix, else one step a link from its first node), a step
 * run as a merge of two types' events, and the rounds of a plan across the cores on
 * threads that live from batch to batch (dm_handoff). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "episodes/ep_prefix.h"

/* How many events of type y b holds (at b->pos and b->time from b->first[y]). */
static inline int64_t ep_type_events(const ep_by_type *b, int32_t y)
{
    return b->first[y + 1] - 1 - b->first[y];
}

int ep_prefix_open(ep_prefix_state *st, const ep_stream *s, int64_t keep, dm_err *err)
{
    *st = (ep_prefix_state){.keep = keep};
    if (s->n > EP_PREFIX_MAX_EVENTS)
        return dm_err_set(err, DM_EINPUT, "counting by prefix keeps positions in 32 bits: "
                          "the stream has %lld events, more than %lld", (long long)s->n,
                          (long long)EP_PREFIX_MAX_EVENTS);
    const size_t types = (size_t)(s->ntypes ? s->ntypes : 1);
    int32_t *order = malloc(types * sizeof *order);
    if (ep_by_type_build(s, &st->by) != 0 || !order ||
        !(st->rank = malloc(types * sizeof *st->rank))) {
        free(order);
        ep_prefix_close(st);
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for the stream by type");
    }
    st->ntypes = s->ntypes;
    /* The types by their events, most first: insertion, stable (a stream has few types). */
    for (int y = 0; y < s->ntypes; y++) {
        int at = y;
        for (; at > 0 && ep_type_events(&st->by, order[at - 1]) < ep_type_events(&st->by, y);
             at--)
            order[at] = order[at - 1];
        order[at] = y;
    }
    for (int i = 0; i < s->ntypes; i++)
        st->rank[order[i]] = i;
    free(order);
    return 0;
}

void ep_prefix_close(ep_prefix_state *st)
{
    ep_by_type_free(&st->by);
    free(st->rank);
    free(st->kept);
    free(st->kept_off);
    free(st->plan.tasks);
    free(st->plan.off);
    free(st->plan.parent);
    free(st->plan.chain);
    free(st->plan.sorted);
    free(st->plan.fetch);
    *st = (ep_prefix_state){0};
}

/* 1 when k is e less its last node: its types and links equal (a fast test, in loops
 * rather than memcmp calls, which cost more at these sizes; 0 for links that are NaN,
 * which ep_episode_cmp then decides). */
static int ep_prefix_same(const ep_episode *k, const ep_episode *e)
{
    if (k->n != e->n - 1)
        return 0;
    int same = 1;
    for (int i = 0; i < k->n; i++)
        same &= k->ev[i] == e->ev[i];
    for (int i = 0; i + 1 < k->n; i++)
        same &= k->lo[i] == e->lo[i] && k->hi[i] == e->hi[i];
    return same;
}

/* The index in st's kept episodes of e (of two nodes or more) less its last node, or -1;
 * *hint, the index the last search found, and the next are tried first (a batch in
 * ep_episode_cmp order, as mining's, finds most prefixes there) and *hint set to what this
 * one found. */
static int64_t ep_prefix_find(const ep_prefix_state *st, const ep_episode *e, int64_t *hint)
{
    for (int64_t h = *hint; h < *hint + 2 && h < st->nkept; h++)
        if (ep_prefix_same(&st->kept[h], e))
            return *hint = h;
    ep_episode prefix = *e;
    prefix.n--;
    int64_t lo = 0, hi = st->nkept;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = ep_episode_cmp(&st->kept[mid], &prefix);
        if (c == 0)
            return *hint = mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

int ep_room(void **buf, int64_t *cap, int64_t n, size_t size)
{
    if (n <= *cap)
        return 0;
    void *grown = realloc(*buf, (size_t)n * size);
    if (!grown)
        return -1;
    *buf = grown;
    *cap = n;
    return 0;
}

/* The step that makes e's node k (>= 1) from its first k nodes' starts at parent (-1: a
 * node, its starts its positions), writing its own at out; count: the batch index whose
 * count it is (its final step), else -1. */
static ep_prefix_task ep_prefix_step(const ep_episode *e, int k, int64_t parent, int64_t out,
                                     int64_t count)
{
    return (ep_prefix_task){.parent = parent, .out = out, .count = count,
                            .ptype = e->ev[k - 1], .type = e->ev[k], .lo = e->lo[k - 1],
                            .hi = e->hi[k - 1]};
}

/* The rounds of st's plan whose longest step is long against the round, ordered longest
 * first: their tasks by the events of their type, most first (stable: a counting sort
 * over the types). A step's time grows with its type's events, and a round takes its
 * longest step's at least: started first, the long steps run beside the short instead of
 * after them (on the GPU, a block a step, blocks start in order). Only where that step
 * costs at least EP_PREFIX_LONGEST of what each of the st->slots steps run at once costs
 * on average, a step costing its type's events and EP_PREFIX_STEP more: elsewhere the
 * plan's order, a prefix's extensions together (reading its starts while they are in
 * cache), is faster (on an H200, 2026-11-29: ordered, levels 4 and 5 of Sym26 at support
 * 30, steps of at most 720 events, took 7 and 10 % longer; docs/records/episodes-prefix.md).
 * Of an ordered round, the first steps that each cost at least the average per slot
 * (which alone would trail it) are counted in plan.longest: the GPU runs them with the
 * kernel for few beside the rest (ep_prefix_dev.h). Returns 0, or -1 without memory. */
#define EP_PREFIX_LONGEST 0.2
#define EP_PREFIX_STEP 1024 /* about a tile of the GPU kernel's (EP_PREFIX_TILE) */
static int64_t ep_prefix_step_cost(const ep_prefix_state *st, const ep_prefix_task *t)
{
    return ep_type_events(&st->by, t->type) + EP_PREFIX_STEP;
}

static int ep_prefix_plan_longest(ep_prefix_state *st)
{
    ep_prefix_plan *p = &st->plan;
    const int nt = st->ntypes;
    const int32_t *rank = st->rank;
    int64_t *at = calloc((size_t)nt + 1, sizeof *at);
    if (!at || ep_room((void **)&p->sorted, &p->cap_sorted, p->ntasks, sizeof *p->sorted)) {
        free(at);
        return -1;
    }
    for (int r = 0; r < p->rounds; r++) {
        ep_prefix_task *t = p->tasks + p->first[r];
        const int64_t n = p->first[r + 1] - p->first[r];
        int64_t most = 0, all = 0;
        for (int64_t i = 0; i < n; i++) {
            const int64_t e = ep_prefix_step_cost(st, &t[i]);
            most = e > most ? e : most;
            all += e;
        }
        p->longest[r] = 0;
        if ((double)most * (double)st->slots < EP_PREFIX_LONGEST * (double)all)
            continue;
        memset(at, 0, ((size_t)nt + 1) * sizeof *at);
        for (int64_t i = 0; i < n; i++)
            at[rank[t[i].type] + 1]++;
        for (int k = 0; k < nt; k++)
            at[k + 1] += at[k];
        for (int64_t i = 0; i < n; i++)
            p->sorted[at[rank[t[i].type]]++] = t[i];
        memcpy(t, p->sorted, (size_t)n * sizeof *t);
        while (p->longest[r] < n && (double)ep_prefix_step_cost(st, &t[p->longest[r]]) *
                                            (double)st->slots >= (double)all)
            p->longest[r]++;
    }
    free(at);
    return 0;
}

int ep_prefix_plan_build(ep_prefix_state *st, const ep_episode *eps, int64_t n,
                         int64_t *counts, dm_err *err)
{
    ep_prefix_plan *p = &st->plan;
    /* parent[i]: the kept prefix of episode i, or -1 (counted from its first node). */
    if (ep_room((void **)&p->parent, &p->cap_eps, n, sizeof *p->parent) ||
        ep_room((void **)&p->off, &p->cap_off, n, sizeof *p->off))
        goto nomem;
    int64_t per_round[EP_MAX_LEVEL] = {0};
    int64_t hint = 0;
    p->ntasks = p->arena = p->scratch[0] = p->scratch[1] = p->nfetch = p->fetched = 0;
    p->rounds = 0;
    for (int64_t i = 0; i < n; i++) {
        const ep_episode *e = &eps[i];
        p->parent[i] = e->n > 1 ? ep_prefix_find(st, e, &hint) : -1;
        const int steps = e->n == 1 ? 0 : p->parent[i] >= 0 ? 1 : e->n - 1;
        for (int r = 0; r < steps; r++)
            per_round[r]++;
        if (steps > p->rounds)
            p->rounds = steps;
        p->ntasks += steps;
    }
    if (ep_room((void **)&p->tasks, &p->cap_tasks, p->ntasks, sizeof *p->tasks))
        goto nomem;
    int64_t at[EP_MAX_LEVEL], used[EP_MAX_LEVEL] = {0};
    p->first[0] = 0;
    for (int r = 0; r < p->rounds; r++) {
        p->first[r + 1] = p->first[r] + per_round[r];
        at[r] = p->first[r];
    }
    for (int64_t i = 0; i < n; i++) {
        const ep_episode *e = &eps[i];
        p->off[i] = -1;
        if (e->n == 1) {
            counts[i] = ep_type_events(&st->by, e->ev[0]);
            continue;
        }
        /* Steps to nodes k0..n-1; the first from the kept prefix or from node 0. */
        const int k0 = p->parent[i] >= 0 ? e->n - 1 : 1;
        int64_t parent = p->parent[i] >= 0 ? st->kept_off[p->parent[i]] : -1;
        for (int k = k0, r = 0; k < e->n; k++, r++) {
            const int final = k == e->n - 1;
            const int64_t len = ep_type_events(&st->by, e->ev[k]);
            int64_t out;
            if (final) {
                out = p->off[i] = p->arena;
                p->arena += len;
            } else {
                out = used[r];
                used[r] += len;
            }
            p->tasks[at[r]++] = ep_prefix_step(e, k, parent, out, final ? i : -1);
            parent = out;
        }
    }
    for (int r = 0; r < p->rounds; r++)
        if (used[r] > p->scratch[r & 1])
            p->scratch[r & 1] = used[r];
    if (ep_prefix_plan_longest(st))
        goto nomem;
    return 0;
nomem:
    return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory planning %lld episodes",
                      (long long)n);
}

/* Marks of ep_prefix_plan_ext's chain[j] for a prefix whose starts st does not hold,
 * until its steps or its fetch are planned (then the offset of its starts in the scratch
 * or in the fetched starts): no extension of it seen yet, or seen (its steps or its fetch
 * counted). */
#define EP_CHAIN_UNSEEN (-2)
#define EP_CHAIN_SEEN (-1)

/* 1 when ep_prefix_plan_ext fetches the starts of prefix freq[j]: st does not hold them,
 * src names where they are, and it has links (a one-node prefix's are its positions). */
static int ep_prefix_fetches(const ep_episode *freq, const int64_t *held,
                             const int32_t *const *src, int64_t j)
{
    return held && held[j] < 0 && src && src[j] && freq[j].n > 1;
}

int ep_prefix_plan_ext(ep_prefix_state *st, const ep_episode *freq, int64_t nfreq,
                       const int64_t *held, const int32_t *const *src, const ep_ext *ext,
                       int64_t n, dm_err *err)
{
    ep_prefix_plan *p = &st->plan;
    if (!held && nfreq != st->nkept)
        return dm_err_set(err, DM_EINPUT, "counting by prefix: %lld prefixes given, %lld "
                          "kept from the batch before", (long long)nfreq,
                          (long long)st->nkept);
    for (int64_t j = 0; held && j < nfreq; j++)
        if (held[j] < -1 || held[j] >= st->nkept)
            return dm_err_set(err, DM_EINPUT, "counting by prefix: prefix %lld given as kept "
                              "episode %lld of the %lld kept from the batch before",
                              (long long)j, (long long)held[j], (long long)st->nkept);
    if (ep_room((void **)&p->off, &p->cap_off, n, sizeof *p->off) ||
        (held && ep_room((void **)&p->chain, &p->cap_chain, nfreq, sizeof *p->chain)))
        goto nomem;
    /* Rounds: every extension of a held or fetched prefix in round 0, from the kept arena
     * or the fetched starts; a prefix neither made step by step from its first node in
     * rounds 0 .. k - 1 (k its links), once for all its extensions, which take their step
     * in round k. */
    int64_t per_round[EP_MAX_LEVEL] = {0};
    p->ntasks = n;
    p->rounds = n > 0;
    p->nfetch = p->fetched = 0;
    for (int64_t j = 0; held && j < nfreq; j++)
        p->chain[j] = EP_CHAIN_UNSEEN;
    for (int64_t i = 0; i < n; i++) {
        const int64_t j = ext[i].prefix;
        const int mine = !held || held[j] >= 0, fetch = ep_prefix_fetches(freq, held, src, j);
        const int k = mine || fetch ? 0 : freq[j].n - 1;
        per_round[k]++;
        if (!mine && p->chain[j] == EP_CHAIN_UNSEEN) {
            p->chain[j] = EP_CHAIN_SEEN;
            for (int r = 0; r < k; r++)
                per_round[r]++;
            p->ntasks += k;
            p->nfetch += fetch;
        }
        if (k + 1 > p->rounds)
            p->rounds = k + 1;
    }
    if (ep_room((void **)&p->tasks, &p->cap_tasks, p->ntasks, sizeof *p->tasks) ||
        ep_room((void **)&p->fetch, &p->cap_fetch, p->nfetch, sizeof *p->fetch))
        goto nomem;
    p->nfetch = 0;
    int64_t at[EP_MAX_LEVEL], used[EP_MAX_LEVEL] = {0};
    p->first[0] = 0;
    for (int r = 0; r < p->rounds; r++) {
        p->first[r + 1] = p->first[r] + per_round[r];
        at[r] = p->first[r];
    }
    p->arena = p->scratch[0] = p->scratch[1] = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t j = ext[i].prefix;
        const ep_episode *a = &freq[j];
        const int mine = !held || held[j] >= 0, fetch = ep_prefix_fetches(freq, held, src, j);
        const int k = mine || fetch ? 0 : a->n - 1;
        int64_t parent = -1; /* a one-node prefix not held: its starts are its positions */
        if (mine) {
            parent = st->kept_off[held ? held[j] : j];
        } else if (fetch) {
            if (p->chain[j] == EP_CHAIN_SEEN) {
                const int64_t len = ep_type_events(&st->by, a->ev[a->n - 1]);
                p->fetch[p->nfetch++] = (ep_prefix_fetch){src[j], p->fetched, len};
                p->chain[j] = p->fetched;
                p->fetched += len;
            }
            parent = EP_PREFIX_FETCHED(p->chain[j]);
        } else if (k > 0 && p->chain[j] == EP_CHAIN_SEEN) {
            for (int r = 0; r < k; r++) {
                p->tasks[at[r]++] = ep_prefix_step(a, r + 1, parent, used[r], -1);
                parent = used[r];
                used[r] += ep_type_events(&st->by, a->ev[r + 1]);
            }
            p->chain[j] = parent;
        } else if (k > 0) {
            parent = p->chain[j];
        }
        p->off[i] = p->arena;
        p->tasks[at[k]++] = (ep_prefix_task){
            .parent = parent, .out = p->arena, .count = i, .ptype = a->ev[a->n - 1],
            .type = ext[i].type, .lo = ext[i].lo, .hi = ext[i].hi};
        p->arena += ep_type_events(&st->by, ext[i].type);
    }
    for (int r = 0; r < p->rounds; r++)
        if (used[r] > p->scratch[r & 1])
            p->scratch[r & 1] = used[r];
    if (ep_prefix_plan_longest(st))
        goto nomem;
    return 0;
nomem:
    return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory planning %lld episodes",
                      (long long)n);
}

/* A kept episode of the batch, sorted by its episode (ep_prefix_keep). */
typedef struct ep_keeping {
    const ep_episode *e;
    int64_t i;
} ep_keeping;

static int ep_keeping_cmp(const void *a, const void *b)
{
    return ep_episode_cmp(((const ep_keeping *)a)->e, ((const ep_keeping *)b)->e);
}

/* *m: how many of counts[0..n) st keeps, with room for them in st's kept episodes.
 * Returns 0, or DM_ERUNTIME without memory. */
static int ep_prefix_keep_room(ep_prefix_state *st, const int64_t *counts, int64_t n,
                               int64_t *m, dm_err *err)
{
    *m = 0;
    for (int64_t i = 0; i < n; i++)
        *m += counts[i] >= st->keep;
    if (ep_room((void **)&st->kept, &st->cap_kept, *m, sizeof *st->kept) ||
        ep_room((void **)&st->kept_off, &st->cap_kept_off, *m, sizeof *st->kept_off))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory keeping %lld episodes",
                          (long long)*m);
    return 0;
}

int ep_prefix_keep(ep_prefix_state *st, const ep_episode *eps, int64_t n,
                   const int64_t *counts, dm_err *err)
{
    const ep_prefix_plan *p = &st->plan;
    int64_t m, sorted = 1;
    if (ep_prefix_keep_room(st, counts, n, &m, err))
        return err->code;
    ep_keeping *order = malloc((size_t)(m ? m : 1) * sizeof *order);
    if (!order)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory keeping %lld episodes",
                          (long long)m);
    m = 0;
    for (int64_t i = 0; i < n; i++)
        if (counts[i] >= st->keep) {
            sorted = sorted && (m == 0 || ep_episode_cmp(order[m - 1].e, &eps[i]) <= 0);
            order[m++] = (ep_keeping){.e = &eps[i], .i = i};
        }
    if (!sorted) /* mining's batches come in order */
        qsort(order, (size_t)m, sizeof *order, ep_keeping_cmp);
    for (int64_t i = 0; i < m; i++) {
        st->kept[i] = *order[i].e;
        st->kept_off[i] = p->off[order[i].i];
    }
    st->nkept = m;
    free(order);
    return 0;
}

int ep_prefix_keep_ext(ep_prefix_state *st, const ep_episode *freq, const ep_ext *ext,
                       int64_t n, const int64_t *counts, dm_err *err)
{
    int64_t m;
    if (ep_prefix_keep_room(st, counts, n, &m, err))
        return err->code;
    m = 0;
    for (int64_t i = 0; i < n; i++)
        if (counts[i] >= st->keep) {
            ep_ext_episode(freq, &ext[i], &st->kept[m]);
            st->kept_off[m] = st->plan.off[i];
            if (m > 0 && ep_episode_cmp(&st->kept[m - 1], &st->kept[m]) > 0) {
                st->nkept = 0;
                return dm_err_set(err, DM_EINPUT, "counting by prefix: extension %lld out "
                                  "of order", (long long)i);
            }
            m++;
        }
    st->nkept = m;
    return 0;
}

int ep_prefix_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts, dm_err *err)
{
    ep_prefix_state *st = ctx;
    if (ep_prefix_plan_build(st, eps, n, counts, err) ||
        st->rounds(st->rounds_ctx, n, counts, err) || ep_prefix_keep(st, eps, n, counts, err))
        return err->code;
    return 0;
}

int ep_prefix_count_ext(ep_prefix_state *st, const ep_episode *freq, int64_t nfreq,
                        const int64_t *held, const int32_t *const *src, const ep_ext *ext,
                        int64_t n, int64_t *counts, dm_err *err)
{
    if (ep_prefix_plan_ext(st, freq, nfreq, held, src, ext, n, err) ||
        st->rounds(st->rounds_ctx, n, counts, err) ||
        ep_prefix_keep_ext(st, freq, ext, n, counts, err))
        return err->code;
    return 0;
}

int ep_prefix_ext_cb(void *ctx, const ep_episode *freq, int64_t nfreq, const ep_ext *ext,
                     int64_t n, int64_t *counts, dm_err *err)
{
    return ep_prefix_count_ext(ctx, freq, nfreq, NULL, NULL, ext, n, counts, err);
}

/* Runs task t on the host: its starts written at to + t->out, its count (when final) to
 * counts[t->count]. from, fetched: the round's parents' and the batch's fetched starts
 * (ep_prefix_parent). */
static void ep_prefix_run_task(const ep_by_type *b, const ep_prefix_task *t,
                               const int32_t *from, const int32_t *fetched, int32_t *to,
                               ep_interval iv, int64_t *counts)
{
    const int f32 = (iv & EP_FLOAT) != 0;
    const int64_t pb = b->first[t->ptype], m = ep_type_events(b, t->ptype);
    const int64_t qb = b->first[t->type], len = ep_type_events(b, t->type);
    const int32_t *st = ep_prefix_parent(t->parent, from, fetched);
    int32_t *out = to + t->out;
    const double lo = f32 ? (double)(float)t->lo : t->lo;
    const double hi = f32 ? (double)(float)t->hi : t->hi;
    int64_t j = 0, last = -1, count = 0;
    for (int64_t i = 0; i < len; i++) {
        const int64_t q = b->pos[qb + i];
        const double tq = b->time[qb + i];
        /* The window's first event only moves on as tq grows. */
        while (j < m && ep_prefix_gap(tq, b->time[pb + j], f32) > hi)
            j++;
        const int64_t s =
            ep_prefix_latest(b->pos + pb, b->time + pb, st, j, m, q, tq, lo, iv);
        out[i] = (int32_t)s;
        if (s > last) {
            count++;
            last = q;
        }
    }
    if (t->count >= 0)
        counts[t->count] = count;
}

/* ---- across the cores ---------------------------------------------------------------- */

/* One round of a plan, its tasks taken EP_PREFIX_GRAB at a time by the workers. */
#define EP_PREFIX_GRAB 8

typedef struct ep_prefix_round {
    const ep_prefix_cpu *c;
    const ep_prefix_task *tasks;
    int64_t n;
    const int32_t *from, *fetched;
    int32_t *scratch, *arena;
    int64_t *counts;
    atomic_int_fast64_t next;
} ep_prefix_round;

static int ep_prefix_work(void *ctx, int worker, dm_err *err)
{
    (void)worker;
    (void)err;
    ep_prefix_round *r = ctx;
    for (;;) {
        int64_t i = atomic_fetch_add_explicit(&r->next, EP_PREFIX_GRAB, memory_order_relaxed);
        if (i >= r->n)
            return 0;
        for (int64_t e = i + EP_PREFIX_GRAB < r->n ? i + EP_PREFIX_GRAB : r->n; i < e; i++) {
            const ep_prefix_task *t = &r->tasks[i];
            ep_prefix_run_task(&r->c->st.by, t, r->from, r->fetched,
                               t->count >= 0 ? r->arena : r->scratch, r->c->iv, r->counts);
        }
    }
}

/* The rounds of a batch's plan across c's workers (ep_prefix_rounds_fn), c an
 * ep_prefix_cpu, after its fetches; the arenas swapped after. */
static int ep_prefix_cpu_rounds(void *ctx, int64_t n, int64_t *counts, dm_err *err)
{
    ep_prefix_cpu *c = ctx;
    const ep_prefix_plan *p = &c->st.plan;
    if (ep_room((void **)&c->arena[c->cur], &c->cap_arena[c->cur], p->arena, sizeof(int32_t)) ||
        ep_room((void **)&c->scratch[0], &c->cap_scratch[0], p->scratch[0], sizeof(int32_t)) ||
        ep_room((void **)&c->scratch[1], &c->cap_scratch[1], p->scratch[1], sizeof(int32_t)) ||
        ep_room((void **)&c->fetched, &c->cap_fetched, p->fetched, sizeof(int32_t)))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for the starts of %lld "
                          "episodes (%lld of them)", (long long)n, (long long)p->arena);
    for (int64_t f = 0; f < p->nfetch; f++)
        memcpy(c->fetched + p->fetch[f].off, p->fetch[f].src,
               (size_t)p->fetch[f].len * sizeof(int32_t));
    int rc = 0;
    for (int r = 0; r < p->rounds && rc == 0; r++) {
        ep_prefix_round round = {
            .c = c, .tasks = p->tasks + p->first[r], .n = p->first[r + 1] - p->first[r],
            .from = r ? c->scratch[(r - 1) & 1] : c->arena[!c->cur], .fetched = c->fetched,
            .scratch = c->scratch[r & 1], .arena = c->arena[c->cur], .counts = counts};
        atomic_init(&round.next, 0);
        rc = dm_handoff_round(c->workers, ep_prefix_work, &round, err);
    }
    if (rc == 0) {
        c->st.kept_starts = c->arena[c->cur];
        c->cur = !c->cur;
    }
    return rc;
}

int ep_prefix_cpu_open(ep_prefix_cpu *c, const ep_stream *s, ep_interval iv, int64_t keep,
                       int threads, dm_err *err)
{
    *c = (ep_prefix_cpu){.iv = iv};
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)cores : 1;
    }
    if (threads > DM_HANDOFF_MAX)
        threads = DM_HANDOFF_MAX;
    if (ep_prefix_open(&c->st, s, keep, err) || dm_handoff_start(threads, &c->workers, err)) {
        ep_prefix_cpu_close(c);
        return err->code;
    }
    c->st.rounds = ep_prefix_cpu_rounds;
    c->st.rounds_ctx = c;
    c->st.slots = threads;
    return 0;
}

void ep_prefix_cpu_close(ep_prefix_cpu *c)
{
    ep_prefix_close(&c->st);
    for (int k = 0; k < 2; k++) {
        free(c->arena[k]);
        free(c->scratch[k]);
    }
    free(c->fetched);
    dm_handoff_stop(c->workers);
    *c = (ep_prefix_cpu){0};
}

int64_t ep_count_prefix(const ep_stream *s, const ep_episode *e, ep_interval iv)
{
    ep_prefix_cpu c;
    dm_err err = {0};
    int64_t count = -1;
    if (ep_prefix_cpu_open(&c, s, iv, INT64_MAX, 1, &err) == 0 &&
        ep_prefix_cb(&c.st, e, 1, &count, &err) != 0)
        count = -1;
    ep_prefix_cpu_close(&c);
    return count;
}
