/* ep_mine.c - level-wise mining of frequent serial episodes: candidate generation on the
 * CPU (the join of serial episodes, or extension per link position), elimination by
 * support with an optional pre-elimination, and the per-level record. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/ep_mine.h"

/* Why the candidates are complete. A contiguous sub-episode keeps its links, so every
 * occurrence of (E1..EN+1) holds an occurrence of (E1..EN) and one of (E2..EN+1), and
 * non-overlapped ones stay non-overlapped: both counts are at least the episode's. With
 * EP_LINKS_ANY the links of (E2..EN+1) are intervals of the set, so it is a level-N
 * episode of the same spec and must be frequent too: the join below generates exactly
 * the episodes whose two N-node sub-episodes are frequent (every contiguous N-node
 * sub-episode: the Apriori check is the join itself). Per link position, dropping E1
 * shifts the links (link k of the sub-episode would need gaps[k], it has gaps[k + 1]),
 * so that sub-episode is no candidate of level N and nothing is known of it: only the
 * prefix, and the last type (a one-node sub-episode) are known frequent, so each
 * frequent prefix is extended by every frequent type. */

static int ep_cmp_real(double a, double b)
{
    return (a > b) - (a < b);
}

/* Compares the nodes a->ev[ai..ai+m) with their m - 1 links against b's from bi. */
static int ep_cmp_span(const ep_episode *a, int ai, const ep_episode *b, int bi, int m)
{
    for (int k = 0; k < m; k++) {
        if (a->ev[ai + k] != b->ev[bi + k])
            return a->ev[ai + k] < b->ev[bi + k] ? -1 : 1;
        if (k + 1 == m)
            break;
        int c = ep_cmp_real(a->lo[ai + k], b->lo[bi + k]);
        if (!c)
            c = ep_cmp_real(a->hi[ai + k], b->hi[bi + k]);
        if (c)
            return c;
    }
    return 0;
}

int ep_episode_cmp(const ep_episode *a, const ep_episode *b)
{
    int m = a->n < b->n ? a->n : b->n;
    int c = ep_cmp_span(a, 0, b, 0, m);
    if (c)
        return c;
    /* a prefix of the other: the shorter first */
    return (a->n > b->n) - (a->n < b->n);
}

/* Checks spec and writes into order[] its gap indexes sorted by (lo, hi). Returns 0 or
 * DM_EINPUT naming the problem. */
static int ep_spec_check(const ep_mine_spec *spec, int order[], dm_err *err)
{
    if (spec->support < 1)
        return dm_err_set(err, DM_EINPUT, "support %" PRId64 ": expected at least 1",
                          spec->support);
    if (spec->max_level < 1 || spec->max_level > EP_MAX_LEVEL)
        return dm_err_set(err, DM_EINPUT, "level %d: expected 1 to %d", spec->max_level,
                          EP_MAX_LEVEL);
    if (spec->ngaps < 1 || spec->ngaps > EP_MAX_LEVEL - 1)
        return dm_err_set(err, DM_EINPUT, "%d gap intervals: expected 1 to %d", spec->ngaps,
                          EP_MAX_LEVEL - 1);
    if (spec->links == EP_LINKS_PER_POSITION && spec->max_level > spec->ngaps + 1)
        return dm_err_set(err, DM_EINPUT, "level %d has %d links, and %d gap interval%s "
                          "given, one per link", spec->max_level, spec->max_level - 1,
                          spec->ngaps, spec->ngaps == 1 ? " is" : "s are");
    for (int g = 0; g < spec->ngaps; g++) {
        if (!isfinite(spec->lo[g]) || !isfinite(spec->hi[g]) || spec->lo[g] < 0 ||
            spec->lo[g] > spec->hi[g])
            return dm_err_set(err, DM_EINPUT, "gap interval %d (%g, %g] ms: expected 0 <= lo "
                              "<= hi", g + 1, spec->lo[g] * 1e3, spec->hi[g] * 1e3);
        int at = g;
        while (at > 0 && (spec->lo[order[at - 1]] > spec->lo[g] ||
                          (spec->lo[order[at - 1]] == spec->lo[g] &&
                           spec->hi[order[at - 1]] > spec->hi[g]))) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = g;
        if (spec->links == EP_LINKS_ANY && at > 0 && spec->lo[order[at - 1]] == spec->lo[g] &&
            spec->hi[order[at - 1]] == spec->hi[g])
            return dm_err_set(err, DM_EINPUT, "gap interval (%g, %g] ms given twice",
                              spec->lo[g] * 1e3, spec->hi[g] * 1e3);
    }
    return 0;
}

int ep_mine_spec_check(const ep_mine_spec *spec, dm_err *err)
{
    int order[EP_MAX_LEVEL - 1];
    return ep_spec_check(spec, order, err);
}

void ep_ext_episode(const ep_episode *freq, const ep_ext *x, ep_episode *e)
{
    *e = freq[x->prefix];
    e->lo[e->n - 1] = x->lo;
    e->hi[e->n - 1] = x->hi;
    e->ev[e->n++] = x->type;
}

/* The join's partners (m >= 1 shared nodes), found once a level: freq's runs of episodes
 * sharing their first m nodes and links (freq is sorted, so each run is contiguous), and
 * per run its episodes' last link and node, the new link and node of each extension. */
typedef struct ep_join {
    int64_t *run;   /* run r is freq[run[r]..run[r + 1]) */
    int64_t nruns;
    ep_ext *tail;   /* per episode of freq, its link m - 1 and node m (prefix unused) */
    int64_t *first; /* per alpha, its partners: freq[first[a]..end[a]) */
    int64_t *end;
} ep_join;

static void ep_join_free(ep_join *j)
{
    free(j->run);
    free(j->tail);
    free(j->first);
    free(j->end);
}

/* The run whose first m nodes and links are alpha's nodes 1..m, or -1. */
static int64_t ep_join_run(const ep_join *j, const ep_episode *freq, const ep_episode *alpha,
                           int m)
{
    int64_t lo = 0, hi = j->nruns;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const int c = ep_cmp_span(&freq[j->run[mid]], 0, alpha, 1, m);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Finds the partners of every alpha of freq[0..nfreq) among them, their number in
 * *total. Returns 0, or -1 without memory (j freed either way by the caller). */
static int ep_join_build(ep_join *j, const ep_episode *freq, int64_t nfreq, int m,
                         int64_t *total)
{
    const size_t n = (size_t)nfreq;
    if (!(j->run = malloc((n + 1) * sizeof *j->run)) || !(j->tail = malloc(n * sizeof *j->tail)) ||
        !(j->first = malloc(n * sizeof *j->first)) || !(j->end = malloc(n * sizeof *j->end)))
        return -1;
    j->nruns = 0;
    for (int64_t b = 0; b < nfreq; b++) {
        if (b == 0 || ep_cmp_span(&freq[b], 0, &freq[b - 1], 0, m) != 0)
            j->run[j->nruns++] = b;
        j->tail[b] = (ep_ext){0, freq[b].lo[m - 1], freq[b].hi[m - 1], freq[b].ev[m]};
    }
    j->run[j->nruns] = nfreq;
    *total = 0;
    for (int64_t a = 0; a < nfreq; a++) {
        const int64_t r = ep_join_run(j, freq, &freq[a], m);
        j->first[a] = r < 0 ? 0 : j->run[r];
        j->end[a] = r < 0 ? 0 : j->run[r + 1];
        *total += j->end[a] - j->first[a];
    }
    return 0;
}

int ep_mine_extensions(const ep_mine_spec *spec, int level, const ep_episode *freq,
                       int64_t nfreq, const ep_episode *freq1, int64_t nfreq1, ep_ext **ext,
                       int64_t *n, dm_err *err)
{
    int order[EP_MAX_LEVEL - 1];
    int rc = ep_spec_check(spec, order, err);
    *ext = NULL;
    *n = 0;
    if (rc)
        return rc;
    if (level < 2 || level > EP_MAX_LEVEL)
        return dm_err_set(err, DM_EINPUT, "candidates of level %d: expected 2 to %d", level,
                          EP_MAX_LEVEL);
    const int m = level - 2; /* nodes shared by alpha's suffix and beta's prefix */
    if (spec->links == EP_LINKS_PER_POSITION && m >= spec->ngaps)
        return dm_err_set(err, DM_EINPUT, "level %d needs %d gap intervals, one per link; %d "
                          "given", level, level - 1, spec->ngaps);
    /* How many, to allocate them at once: alpha extended by every frequent type (per
     * interval with several, EP_LINKS_ANY), or by each partner of the join. */
    const int join = spec->links == EP_LINKS_ANY && m > 0;
    ep_join j = {0};
    int64_t total = 0;
    if (!join)
        total = nfreq * (spec->links == EP_LINKS_PER_POSITION ? 1 : spec->ngaps) * nfreq1;
    else if (ep_join_build(&j, freq, nfreq, m, &total)) {
        rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory joining %" PRId64
                        " episodes", nfreq);
        goto done;
    }
    if (total == 0)
        goto done;
    if (total > EP_MAX_CANDIDATES) {
        rc = dm_err_set(err, DM_EINPUT, "level %d has %" PRId64 " candidates, more than %"
                        PRId64 "; raise the support", level, total, EP_MAX_CANDIDATES);
        goto done;
    }
    ep_ext *c = malloc((size_t)total * sizeof *c);
    if (!c) {
        rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64
                        " candidates", total);
        goto done;
    }
    /* Candidates come out in order: alphas in order, then for each the new link and the
     * new node in order (the link before the node, as ep_episode_cmp compares). */
    int64_t k = 0;
    for (int64_t a = 0; a < nfreq; a++) {
        if (spec->links == EP_LINKS_PER_POSITION) {
            for (int64_t y = 0; y < nfreq1; y++)
                c[k++] = (ep_ext){a, spec->lo[m], spec->hi[m], freq1[y].ev[0]};
        } else if (m == 0) {
            for (int g = 0; g < spec->ngaps; g++)
                for (int64_t y = 0; y < nfreq1; y++)
                    c[k++] = (ep_ext){a, spec->lo[order[g]], spec->hi[order[g]],
                                      freq1[y].ev[0]};
        } else {
            for (int64_t b = j.first[a]; b < j.end[a]; b++) {
                c[k] = j.tail[b];
                c[k++].prefix = a;
            }
        }
    }
    *ext = c;
    *n = total;
done:
    ep_join_free(&j);
    return rc;
}

int ep_mine_candidates(const ep_mine_spec *spec, int level, const ep_episode *freq,
                       int64_t nfreq, const ep_episode *freq1, int64_t nfreq1,
                       ep_episode **cand, int64_t *n, dm_err *err)
{
    ep_ext *ext;
    int rc = ep_mine_extensions(spec, level, freq, nfreq, freq1, nfreq1, &ext, n, err);
    *cand = NULL;
    if (rc || *n == 0)
        return rc;
    ep_episode *c = malloc((size_t)*n * sizeof *c);
    if (!c) {
        free(ext);
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64
                          " candidates", *n);
    }
    for (int64_t i = 0; i < *n; i++)
        ep_ext_episode(freq, &ext[i], &c[i]);
    free(ext);
    *cand = c;
    return 0;
}

/* Appends to r every candidate i whose count is >= support with its count: cand[i], or
 * (cand NULL) the extension ext[i] of r's episodes from index prefixes on (the level
 * before's frequent ones). Returns how many, or -1 without memory. */
static int64_t ep_keep_frequent(ep_mine_result *r, const ep_episode *cand, const ep_ext *ext,
                                int64_t prefixes, const int64_t *counts, int64_t n,
                                int64_t support)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++)
        kept += counts[i] >= support;
    if (kept == 0)
        return 0;
    ep_episode *eps = realloc(r->eps, (size_t)(r->n + kept) * sizeof *eps);
    if (eps)
        r->eps = eps;
    int64_t *cs = realloc(r->counts, (size_t)(r->n + kept) * sizeof *cs);
    if (cs)
        r->counts = cs;
    if (!eps || !cs)
        return -1;
    for (int64_t i = 0; i < n; i++)
        if (counts[i] >= support) {
            if (cand)
                r->eps[r->n] = cand[i];
            else
                ep_ext_episode(r->eps + prefixes, &ext[i], &r->eps[r->n]);
            r->counts[r->n++] = counts[i];
        }
    return kept;
}

/* Drops from cand[0..*n) every candidate whose bound is below support, keeping the
 * order. Returns 0 or the bound callback's status. */
static int ep_preeliminate(const ep_mine_spec *spec, ep_episode *cand, int64_t *n,
                           int64_t *counts, dm_err *err)
{
    int rc = spec->bound(spec->bound_ctx, cand, *n, counts, err);
    if (rc)
        return rc;
    int64_t kept = 0;
    for (int64_t i = 0; i < *n; i++)
        if (counts[i] >= spec->support)
            cand[kept++] = cand[i];
    *n = kept;
    return 0;
}

int ep_mine(const ep_stream *s, const ep_mine_spec *spec, ep_count_fn count, void *ctx,
            ep_mine_result *out, dm_err *err)
{
    int order[EP_MAX_LEVEL - 1];
    memset(out, 0, sizeof *out);
    int rc = ep_spec_check(spec, order, err);
    if (rc)
        return rc;
    /* A level's candidates: whole episodes (cand), or extensions (ext) of the level
     * before's frequent episodes, out->eps[prefixes..prefixes + nprefixes). */
    const int by_ext = spec->extend && !spec->bound;
    ep_episode *cand = NULL;
    ep_ext *ext = NULL;
    int64_t *counts = NULL, ncand = s->ntypes, prefixes = 0, nprefixes = 0;
    double t0 = dm_now();
    if (!(cand = calloc((size_t)(s->ntypes ? s->ntypes : 1), sizeof *cand))) {
        rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
        goto done;
    }
    for (int y = 0; y < s->ntypes; y++)
        cand[y] = (ep_episode){.n = 1, .ev = {y}};
    /* A level is recorded even when it has no candidates: its generation took time. */
    for (int level = 1;; level++) {
        ep_mine_level *lv = &out->levels[out->nlevels++];
        *lv = (ep_mine_level){.level = level, .candidates = ncand,
                              .survivors = spec->bound ? 0 : -1};
        double t1 = dm_now();
        lv->generate_s = t1 - t0;
        if (ncand == 0)
            break;
        free(counts);
        if (!(counts = malloc((size_t)ncand * sizeof *counts))) {
            rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64
                            " counts", ncand);
            goto done;
        }
        if (spec->bound) {
            if ((rc = ep_preeliminate(spec, cand, &ncand, counts, err)) != 0)
                goto done;
            lv->survivors = ncand;
        }
        double t2 = dm_now();
        lv->bound_s = t2 - t1;
        if (ncand > 0 &&
            (rc = ext ? spec->extend(spec->extend_ctx, out->eps + prefixes, nprefixes, ext,
                                     ncand, counts, err)
                      : count(ctx, cand, ncand, counts, err)) != 0)
            goto done;
        int64_t before = out->n;
        lv->frequent = ep_keep_frequent(out, cand, ext, prefixes, counts, ncand,
                                        spec->support);
        t0 = dm_now();
        lv->count_s = t0 - t2;
        if (lv->frequent < 0) {
            rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for the frequent "
                            "episodes");
            goto done;
        }
        free(cand);
        free(ext);
        cand = NULL;
        ext = NULL;
        if (level == spec->max_level || lv->frequent == 0)
            break;
        prefixes = before;
        nprefixes = lv->frequent;
        if ((rc = by_ext ? ep_mine_extensions(spec, level + 1, out->eps + before, lv->frequent,
                                              out->eps, out->levels[0].frequent, &ext, &ncand,
                                              err)
                         : ep_mine_candidates(spec, level + 1, out->eps + before, lv->frequent,
                                              out->eps, out->levels[0].frequent, &cand, &ncand,
                                              err)) != 0)
            goto done;
    }
done:
    free(cand);
    free(ext);
    free(counts);
    if (rc)
        ep_mine_result_free(out);
    return rc;
}

void ep_mine_result_free(ep_mine_result *r)
{
    free(r->eps);
    free(r->counts);
    memset(r, 0, sizeof *r);
}

int ep_count_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts, dm_err *err)
{
    const ep_count_ctx *c = ctx;
    if (c->mt)
        return ep_count_all_mt(c->s, eps, n, c->iv, c->threads, counts, err);
    for (int64_t i = 0; i < n; i++)
        if ((counts[i] = ep_count(c->s, &eps[i], c->iv)) < 0)
            return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory counting");
    return 0;
}

int ep_bound_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts, dm_err *err)
{
    const ep_count_ctx *c = ctx;
    return ep_bound_all_mt(c->s, eps, n, c->mt ? c->threads : 1, counts, err);
}
