/* test_episodes_mine.c - level-wise episode mining (ep_mine): candidate generation
 * against a naive enumeration, whole minings against every episode counted by brute
 * force, the pre-elimination slot, bad specs, and the chains of Sym26 mined back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "episodes/ep_mine.h"
#include "episodes/ep_prefix.h"

static uint64_t rng_next(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int rng_below(uint64_t *x, int n)
{
    return (int)(rng_next(x) % (uint64_t)n);
}

/* A random spec: 1..3 gaps (ms on a grid of 1 ms, in seconds), either link mode. Per
 * link position it has at least max_level - 1 gaps. */
static ep_mine_spec spec_random(uint64_t *x, int max_level)
{
    ep_mine_spec sp = {.support = 1 + rng_below(x, 3), .max_level = max_level,
                       .links = (ep_links)rng_below(x, 2)};
    sp.ngaps = sp.links == EP_LINKS_PER_POSITION ? max_level - 1 : 1 + rng_below(x, 3);
    if (sp.ngaps == 0)
        sp.ngaps = 1;
    for (int g = 0; g < sp.ngaps; g++) {
        int lo, hi;
        do { /* distinct intervals, as EP_LINKS_ANY requires */
            lo = rng_below(x, 3);
            hi = lo + rng_below(x, 4);
            int dup = 0;
            for (int h = 0; h < g; h++)
                dup |= sp.lo[h] == lo * 1e-3 && sp.hi[h] == hi * 1e-3;
            if (!dup || sp.links == EP_LINKS_PER_POSITION)
                break;
        } while (1);
        sp.lo[g] = lo * 1e-3;
        sp.hi[g] = hi * 1e-3;
    }
    return sp;
}

static int cmp_qsort(const void *a, const void *b)
{
    return ep_episode_cmp(a, b);
}

/* Every episode of `level` nodes over ntypes types with the spec's links, sorted. */
static ep_episode *all_episodes(const ep_mine_spec *sp, int ntypes, int level, int64_t *n)
{
    int choices = sp->links == EP_LINKS_ANY ? sp->ngaps : 1;
    int64_t total = 1;
    for (int k = 0; k < level; k++)
        total *= ntypes * (k ? choices : 1);
    ep_episode *e = calloc((size_t)total + 1, sizeof *e);
    assert_non_null(e);
    for (int64_t i = 0; i < total; i++) {
        int64_t rest = i;
        e[i].n = level;
        for (int k = 0; k < level; k++) {
            e[i].ev[k] = (int32_t)(rest % ntypes);
            rest /= ntypes;
            if (k + 1 < level) {
                int g = sp->links == EP_LINKS_ANY ? (int)(rest % choices) : k;
                rest /= choices;
                e[i].lo[k] = sp->lo[g];
                e[i].hi[k] = sp->hi[g];
            }
        }
    }
    qsort(e, (size_t)total, sizeof *e, cmp_qsort);
    *n = total;
    return e;
}

static int member(const ep_episode *set, int64_t n, const ep_episode *e)
{
    return bsearch(e, set, (size_t)n, sizeof *set, cmp_qsort) != NULL;
}

/* e without its first node (shift 1) or its last (shift 0). */
static ep_episode sub_episode(const ep_episode *e, int drop_first)
{
    ep_episode s = {.n = e->n - 1};
    for (int k = 0; k < s.n; k++) {
        s.ev[k] = e->ev[k + drop_first];
        if (k + 1 < s.n) {
            s.lo[k] = e->lo[k + drop_first];
            s.hi[k] = e->hi[k + drop_first];
        }
    }
    return s;
}

static void assert_same_episodes(const ep_episode *got, int64_t ngot, const ep_episode *want,
                                 int64_t nwant)
{
    assert_int_equal(ngot, nwant);
    for (int64_t i = 0; i < nwant; i++)
        assert_int_equal(ep_episode_cmp(&got[i], &want[i]), 0);
}

/* ---- candidate generation ------------------------------------------------------------ */

/* On random frequent sets: the candidates are exactly the episodes of the next level
 * whose prefix is frequent and whose suffix is frequent (EP_LINKS_ANY) or whose last type
 * is (per link position), in order. */
static void test_candidates_against_enumeration(void **state)
{
    (void)state;
    uint64_t x = 11;
    int64_t total_cands = 0;
    for (int round = 0; round < 3000; round++) {
        int ntypes = 1 + rng_below(&x, 4), level = 2 + rng_below(&x, 3);
        ep_mine_spec sp = spec_random(&x, level);
        int64_t nall, nall1;
        ep_episode *all = all_episodes(&sp, ntypes, level - 1, &nall);
        ep_episode *all1 = all_episodes(&sp, ntypes, 1, &nall1);
        /* random frequent sets, kept in order */
        int64_t nf = 0, nf1 = 0;
        int keep = 1 + rng_below(&x, 4); /* in 4 */
        for (int64_t i = 0; i < nall; i++)
            if (rng_below(&x, 4) < keep)
                all[nf++] = all[i];
        for (int64_t i = 0; i < nall1; i++)
            if (rng_below(&x, 4) < keep)
                all1[nf1++] = all1[i];
        const ep_episode *f1 = level == 2 ? all : all1;
        int64_t n1 = level == 2 ? nf : nf1;

        ep_episode *cand;
        int64_t ncand;
        dm_err err = {0};
        assert_int_equal(ep_mine_candidates(&sp, level, all, nf, f1, n1, &cand, &ncand, &err),
                         0);
        int64_t nnext;
        ep_episode *next = all_episodes(&sp, ntypes, level, &nnext), *want = next;
        int64_t nwant = 0;
        for (int64_t i = 0; i < nnext; i++) {
            ep_episode pre = sub_episode(&next[i], 0), suf = sub_episode(&next[i], 1);
            ep_episode last = {.n = 1, .ev = {next[i].ev[level - 1]}};
            int ok = member(all, nf, &pre) &&
                     (sp.links == EP_LINKS_ANY ? member(all, nf, &suf) : member(f1, n1, &last));
            if (ok)
                want[nwant++] = next[i];
        }
        assert_same_episodes(cand, ncand, want, nwant);
        total_cands += ncand;
        free(cand);
        free(next);
        free(all);
        free(all1);
    }
    print_message("candidates: %lld over 3000 random frequent sets\n", (long long)total_cands);
    assert_true(total_cands > 10000);
}

/* ---- mining against brute force ------------------------------------------------------ */

static ep_stream stream_random(uint64_t *x, int64_t n, int ntypes)
{
    ep_stream s = {.n = n, .ntypes = ntypes};
    s.type = malloc(((size_t)n + 1) * sizeof *s.type);
    s.time = malloc(((size_t)n + 1) * sizeof *s.time);
    s.names = calloc((size_t)ntypes, sizeof *s.names);
    assert_true(s.type && s.time && s.names);
    for (int y = 0; y < ntypes; y++)
        s.names[y][0] = (char)('A' + y);
    int ms = 0;
    for (int64_t i = 0; i < n; i++) {
        ms += rng_below(x, 3); /* equal times now and then, gaps on the bounds */
        s.type[i] = rng_below(x, ntypes);
        s.time[i] = ms * 1e-3;
    }
    return s;
}

static void stream_drop(ep_stream *s)
{
    free(s->type);
    free(s->time);
    free(s->names);
}

/* The relaxed count (every link's lower bound dropped, [0, hi]), an upper bound of the
 * exact one (Theorem 4.1's PreElim count), as a pre-elimination callback. */
static int relaxed_bound(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                         dm_err *err)
{
    (void)err;
    const ep_stream *s = ctx;
    for (int64_t i = 0; i < n; i++) {
        ep_episode e = ep_episode_relaxed(&eps[i]);
        counts[i] = ep_count(s, &e, EP_CLOSED);
    }
    return 0;
}

/* Every episode of every level up to max_level over few types counted by ep_count_brute,
 * those with count >= support kept: ep_mine (with ep_count, again with a
 * pre-elimination, counting by prefix on two threads, and so with the levels after the
 * first as extensions) finds the same episodes with the same counts, level by level. */
static void test_mining_against_brute(void **state)
{
    (void)state;
    uint64_t x = 5;
    int64_t found = 0, deepest = 0;
    for (int round = 0; round < 300; round++) {
        int ntypes = 2 + rng_below(&x, 2), max_level = 2 + rng_below(&x, 3);
        ep_stream s = stream_random(&x, 12 + rng_below(&x, 30), ntypes);
        ep_mine_spec sp = spec_random(&x, max_level);
        ep_interval iv = (ep_interval)rng_below(&x, 2);
        ep_episode *want = calloc(1, sizeof *want);
        int64_t *wcount = NULL, nwant = 0, per_level[EP_MAX_LEVEL + 1] = {0};
        for (int level = 1; level <= max_level; level++) {
            int64_t nall;
            ep_episode *all = all_episodes(&sp, ntypes, level, &nall);
            want = realloc(want, (size_t)(nwant + nall) * sizeof *want);
            wcount = realloc(wcount, (size_t)(nwant + nall) * sizeof *wcount);
            assert_true(want && wcount);
            for (int64_t i = 0; i < nall; i++) {
                int64_t c = ep_count_brute(&s, &all[i], iv);
                if (c >= sp.support) {
                    want[nwant] = all[i];
                    wcount[nwant++] = c;
                    per_level[level]++;
                }
            }
            free(all);
        }
        ep_count_ctx ctx = {.s = &s, .iv = iv, .mt = 0};
        /* Pass 0: Algorithm 1; 1: with the pre-elimination; 2: counted by prefix; 3: by
         * prefix, as extensions. */
        for (int pass = 0; pass < 4; pass++) {
            const int with_bound = pass == 1;
            ep_mine_spec run = sp;
            if (with_bound) {
                run.bound = relaxed_bound;
                run.bound_ctx = &s;
            }
            ep_mine_result r;
            dm_err err = {0};
            ep_prefix_cpu prefix;
            if (pass >= 2) {
                assert_int_equal(ep_prefix_cpu_open(&prefix, &s, iv, sp.support, 2, &err), 0);
                if (pass == 3) {
                    run.extend = ep_prefix_ext_cb;
                    run.extend_ctx = &prefix.st;
                }
                assert_int_equal(ep_mine(&s, &run, ep_prefix_cb, &prefix.st, &r, &err), 0);
                ep_prefix_cpu_close(&prefix);
            } else {
                assert_int_equal(ep_mine(&s, &run, ep_count_cb, &ctx, &r, &err), 0);
            }
            assert_same_episodes(r.eps, r.n, want, nwant);
            for (int64_t i = 0; i < nwant; i++)
                assert_int_equal(r.counts[i], wcount[i]);
            assert_true(r.nlevels >= 1 && r.nlevels <= max_level);
            assert_int_equal(r.levels[0].candidates, ntypes);
            for (int l = 0; l < r.nlevels; l++) {
                const ep_mine_level *lv = &r.levels[l];
                assert_int_equal(lv->level, l + 1);
                assert_int_equal(lv->frequent, per_level[l + 1]);
                if (with_bound)
                    assert_true(lv->survivors >= lv->frequent &&
                                lv->survivors <= lv->candidates);
                else
                    assert_int_equal(lv->survivors, -1);
                assert_true(lv->generate_s >= 0 && lv->bound_s >= 0 && lv->count_s >= 0);
            }
            /* it stopped because nothing was left, or at max_level */
            const ep_mine_level *top = &r.levels[r.nlevels - 1];
            assert_true(top->frequent == 0 || top->level == max_level);
            if (r.nlevels > deepest)
                deepest = r.nlevels;
            ep_mine_result_free(&r);
        }
        found += nwant;
        free(want);
        free(wcount);
        stream_drop(&s);
    }
    print_message("mining: %lld frequent episodes over 300 streams, up to level %lld\n",
                  (long long)found, (long long)deepest);
    assert_true(found > 3000);
    assert_int_equal(deepest, 4);
}

/* A count callback that fails: ep_mine passes the status and message on, leaves an empty
 * result. */
static int failing_count(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                         dm_err *err)
{
    (void)ctx, (void)eps, (void)n, (void)counts;
    return dm_err_set(err, DM_ERUNTIME, "the device fell over");
}

static void test_bad_specs_and_failures(void **state)
{
    (void)state;
    uint64_t x = 3;
    ep_stream s = stream_random(&x, 20, 3);
    ep_count_ctx ctx = {.s = &s, .iv = EP_OPEN_CLOSED, .mt = 0};
    const ep_mine_spec good = {.support = 2, .max_level = 3, .ngaps = 2, .lo = {0, 0.001},
                               .hi = {0.002, 0.003}};
    struct {
        ep_mine_spec sp;
        const char *says;
    } bad[] = {
        {good, "support 0: expected at least 1"},
        {good, "level 17: expected 1 to 16"},
        {good, "level 4 has 3 links, and 2 gap intervals are given, one per link"},
        {good, "gap interval (1, 2] ms given twice"},
        {good, "gap interval 2 (3, 1] ms: expected 0 <= lo <= hi"},
        {good, "0 gap intervals: expected 1 to 15"},
    };
    bad[0].sp.support = 0;
    bad[1].sp.max_level = 17;
    bad[2].sp.links = EP_LINKS_PER_POSITION;
    bad[2].sp.max_level = 4;
    bad[3].sp.lo[0] = 0.001;
    bad[3].sp.hi[0] = 0.002;
    bad[3].sp.lo[1] = 0.001;
    bad[3].sp.hi[1] = 0.002;
    bad[4].sp.lo[1] = 0.003;
    bad[4].sp.hi[1] = 0.001;
    bad[5].sp.ngaps = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ep_mine_result r;
        dm_err err = {0};
        assert_int_equal(ep_mine(&s, &bad[i].sp, ep_count_cb, &ctx, &r, &err), DM_EINPUT);
        assert_string_equal(err.msg, bad[i].says);
        assert_null(r.eps);
    }
    ep_mine_result r;
    dm_err err = {0};
    assert_int_equal(ep_mine(&s, &good, failing_count, NULL, &r, &err), DM_ERUNTIME);
    assert_string_equal(err.msg, "the device fell over");
    assert_null(r.eps);
    assert_int_equal(r.nlevels, 0);
    assert_int_equal(ep_mine(&s, &good, ep_count_cb, &ctx, &r, &err), 0);
    assert_true(r.n > 0);
    ep_mine_result_free(&r);
    stream_drop(&s);
    /* A level past EP_MAX_CANDIDATES is refused before anything is allocated for it
     * (5 GB): 4,097 frequent types give 4,097^2 = 16,785,409 pairs, 8,193 more than 2^24. */
    enum { TYPES = 4097 };
    ep_episode *types = calloc(TYPES, sizeof *types), *cand = NULL;
    assert_non_null(types);
    for (int y = 0; y < TYPES; y++)
        types[y] = (ep_episode){.n = 1, .ev = {y}};
    int64_t n = -1;
    ep_mine_spec one = good;
    one.ngaps = 1;
    assert_int_equal(ep_mine_candidates(&one, 2, types, TYPES, types, TYPES, &cand, &n, &err),
                     DM_EINPUT);
    assert_string_equal(err.msg, "level 2 has 16785409 candidates, more than 16777216; raise "
                        "the support");
    assert_null(cand);
    assert_int_equal(n, 0);
    free(types);
}

/* ---- Sym26 ------------------------------------------------------------------------- */

/* 1 when e is among eps[0..n) (a mining result: sorted level by level, not as a whole). */
static int found_in(const ep_episode *eps, int64_t n, const ep_episode *e)
{
    for (int64_t i = 0; i < n; i++)
        if (ep_episode_cmp(&eps[i], e) == 0)
            return 1;
    return 0;
}

/* 1 when e is a contiguous piece (two nodes or more) of chain c. */
static int in_chain(const ep_episode *e, const ep_chain *c)
{
    for (int at = 0; at + e->n <= c->n; at++) {
        int same = 1;
        for (int k = 0; k < e->n; k++)
            same &= e->ev[k] == c->type[at + k];
        if (same)
            return 1;
    }
    return 0;
}

/* Sym26 (seed 1, 60 s, 20 Hz), gap (4, 6] ms, mined up to level 8 at support 150. Why
 * 150: the long chain's head fires at the basal rate only, some 1,200 times in 60 s, and
 * each of its 7 links goes on with probability 0.75, so about 1,200 * 0.75^7 = 160
 * complete occurrences are expected (189 are counted: basal spikes complete some chains
 * whose link failed); a support just below 160 keeps the chain and, as the sub-chains
 * occur at least as often, every piece of both chains. The mining reaches level 8, where
 * the long chain is the one frequent episode, and its two 7-node pieces are the only
 * frequent ones of level 7: the chains are what stands out. */
static void test_sym26_chains_are_mined(void **state)
{
    (void)state;
    ep_stream s;
    ep_chain chains[2];
    dm_err err = {0};
    assert_int_equal(ep_sym26(1, 60, 20, 26, &s, chains, &err), 0);
    ep_mine_spec sp = {.support = 150, .max_level = 8, .ngaps = 1, .lo = {0.004},
                       .hi = {0.006}};
    ep_count_ctx ctx = {.s = &s, .iv = EP_OPEN_CLOSED, .mt = 1};
    ep_mine_result r;
    assert_int_equal(ep_mine(&s, &sp, ep_count_cb, &ctx, &r, &err), 0);
    assert_int_equal(r.nlevels, 8);
    for (int c = 0; c < 2; c++)
        for (int len = 2; len <= chains[c].n; len++)
            for (int at = 0; at + len <= chains[c].n; at++) {
                ep_episode piece = {.n = len};
                for (int k = 0; k < len; k++) {
                    piece.ev[k] = chains[c].type[at + k];
                    if (k + 1 < len) {
                        piece.lo[k] = 0.004;
                        piece.hi[k] = 0.006;
                    }
                }
                assert_true(found_in(r.eps, r.n, &piece));
            }
    int64_t high = 0;
    for (int64_t i = 0; i < r.n; i++)
        if (r.eps[i].n >= 7) {
            assert_true(in_chain(&r.eps[i], &chains[1]));
            high++;
        }
    assert_int_equal(high, 3);
    assert_int_equal(r.levels[7].frequent, 1);
    print_message("sym26: long chain counted %lld times\n", (long long)r.counts[r.n - 1]);
    ep_mine_result_free(&r);
    ep_stream_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_candidates_against_enumeration),
        cmocka_unit_test(test_mining_against_brute),
        cmocka_unit_test(test_bad_specs_and_failures),
        cmocka_unit_test(test_sym26_chains_are_mined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
