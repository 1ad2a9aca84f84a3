/* test_episodes_prefix.c - counting by prefix (ep_prefix.h) on the host, in batches:
 * batches that extend the episodes a batch before kept, mixed with episodes counted from
 * their first node, on one thread and across the cores; mining over several parts
 * (ep_prefix_split.h, as multigpu shares a level over GPUs); what it refuses. (One episode at
 * a time against Algorithm 1 and the brute force: test_episodes_count.c; mining:
 * test_episodes_mine.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "episodes_fixture.h"
#include "episodes/ep_prefix.h"
#include "episodes/ep_prefix_split.h"

/* n random episodes of levels 1 to 6 over ntypes types, gaps wider than the small
 * streams', so that long episodes still occur on a long stream. */
static ep_episode *random_batch(uint64_t *rng, int64_t n, int ntypes)
{
    ep_episode *eps = malloc((size_t)n * sizeof *eps);
    assert_non_null(eps);
    for (int64_t i = 0; i < n; i++) {
        eps[i] = random_episode(rng, 1 + (int)(i % 6), ntypes, 0.001);
        for (int k = 0; k + 1 < eps[i].n; k++)
            eps[i].hi[k] += 0.02;
    }
    return eps;
}

/* Each episode's count by Algorithm 1 equals got's. */
static void assert_counts(const ep_stream *s, const ep_episode *eps, int64_t n,
                          ep_interval iv, const int64_t *got, const char *what)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t want = ep_count(s, &eps[i], iv);
        if (got[i] != want)
            fail_msg("%s, episode %lld of %d nodes: %lld, Algorithm 1 %lld", what,
                     (long long)i, eps[i].n, (long long)got[i], (long long)want);
    }
}

/* A 20,000-event stream of 12 types. Batch one: 600 random episodes of levels 1 to 6,
 * unsorted; batch two: each of them with one more node (kept when it counted at least
 * keep), and 200 new random ones (counted from their first node). On 1, 2 and every
 * core, both interval kinds, every count is Algorithm 1's; the second batch's plan
 * extends exactly the kept ones in one step. */
static void test_batches_extend_kept_episodes(void **state)
{
    (void)state;
    uint64_t rng = 77;
    const int ntypes = 12;
    const int64_t n1 = 600, n2 = 800, keep = 3;
    ep_stream s = random_stream(&rng, 20000, ntypes, 0.001);
    ep_episode *one = random_batch(&rng, n1, ntypes);
    ep_episode *two = random_batch(&rng, n2, ntypes);
    for (int64_t i = 0; i < n1; i++) {
        if (one[i].n == EP_MAX_LEVEL)
            continue;
        two[i] = one[i];
        two[i].ev[two[i].n] = rng_below(&rng, ntypes);
        two[i].lo[two[i].n - 1] = 0.001 * rng_below(&rng, 3);
        two[i].hi[two[i].n - 1] = two[i].lo[two[i].n - 1] + 0.02;
        two[i].n++;
    }
    int64_t *c1 = malloc((size_t)n1 * sizeof *c1), *c2 = malloc((size_t)n2 * sizeof *c2);
    assert_non_null(c1);
    assert_non_null(c2);
    const int threads[] = {1, 2, 0};
    int64_t extended = 0;
    for (int iv = EP_OPEN_CLOSED; iv <= EP_CLOSED; iv++)
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            ep_prefix_cpu c;
            dm_err err = {0};
            const ep_interval kind = (ep_interval)iv;
            assert_int_equal(ep_prefix_cpu_open(&c, &s, kind, keep, threads[t], &err), 0);
            assert_int_equal(ep_prefix_cb(&c.st, one, n1, c1, &err), 0);
            assert_counts(&s, one, n1, kind, c1, "batch one");
            /* What the second batch's plan does with the kept ones. */
            int64_t *scratch = malloc((size_t)n2 * sizeof *scratch);
            assert_non_null(scratch);
            assert_int_equal(ep_prefix_plan_build(&c.st, two, n2, scratch, &err), 0);
            int64_t want_tasks = 0, kept = 0, want_kept = 0;
            for (int64_t j = 0; j < n1; j++)
                want_kept += c1[j] >= keep;
            assert_int_equal(c.st.nkept, want_kept);
            for (int64_t i = 0; i < n2; i++) {
                int from_kept = 0;
                ep_episode prefix = two[i];
                prefix.n--;
                for (int64_t j = 0; j < n1 && two[i].n > 1 && !from_kept; j++)
                    from_kept = c1[j] >= keep && ep_episode_cmp(&one[j], &prefix) == 0;
                kept += from_kept;
                want_tasks += two[i].n == 1 ? 0 : from_kept ? 1 : two[i].n - 1;
            }
            assert_int_equal(c.st.plan.ntasks, want_tasks);
            extended += kept;
            free(scratch);
            assert_int_equal(ep_prefix_cb(&c.st, two, n2, c2, &err), 0);
            assert_counts(&s, two, n2, kind, c2, "batch two");
            ep_prefix_cpu_close(&c);
        }
    print_message("%lld episodes extended from kept ones\n", (long long)extended);
    assert_true(extended > 6 * 200);
    free(one);
    free(two);
    free(c1);
    free(c2);
    stream_drop(&s);
}

/* Extensions (ep_prefix_ext_cb): the one-node episodes of a 5,000-event stream of 6
 * types, then every kept one extended by each type at two links, then those kept again
 * by each type: each count Algorithm 1's for the episode the extension makes. Refused
 * by name: prefixes other than the kept ones, extensions kept out of order. */
static void test_extensions_of_kept_episodes(void **state)
{
    (void)state;
    uint64_t rng = 5;
    const int ntypes = 6;
    ep_stream s = random_stream(&rng, 5000, ntypes, 0.001);
    ep_episode freq[64 * 64], one[8];
    ep_ext ext[64 * 64 * 2];
    int64_t counts[64 * 64 * 2], nfreq = 0, checked = 0;
    for (int y = 0; y < ntypes; y++)
        one[y] = (ep_episode){.n = 1, .ev = {y}};
    ep_prefix_cpu c;
    dm_err err = {0};
    const int64_t keep = 40;
    assert_int_equal(ep_prefix_cpu_open(&c, &s, EP_OPEN_CLOSED, keep, 2, &err), 0);
    assert_int_equal(ep_prefix_cb(&c.st, one, ntypes, counts, &err), 0);
    for (int y = 0; y < ntypes; y++)
        if (counts[y] >= keep)
            freq[nfreq++] = one[y];
    for (int level = 2; level <= 3; level++) {
        int64_t n = 0;
        for (int64_t a = 0; a < nfreq; a++)
            for (int g = 0; g < 2; g++)
                for (int y = 0; y < ntypes; y++)
                    ext[n++] = (ep_ext){a, 0.001 * g, 0.001 * g + 0.004, y};
        assert_int_equal(ep_prefix_ext_cb(&c.st, freq, nfreq, ext, n, counts, &err), 0);
        ep_episode *made = malloc((size_t)n * sizeof *made);
        assert_non_null(made);
        int64_t kept = 0;
        for (int64_t i = 0; i < n; i++)
            ep_ext_episode(freq, &ext[i], &made[i]);
        assert_counts(&s, made, n, EP_OPEN_CLOSED, counts, "extensions");
        for (int64_t i = 0; i < n; i++)
            if (counts[i] >= keep)
                freq[kept++] = made[i];
        assert_int_equal(c.st.nkept, kept);
        checked += n;
        nfreq = kept;
        free(made);
    }
    print_message("%lld extensions counted, %lld kept at level 3\n", (long long)checked,
                  (long long)nfreq);
    assert_true(nfreq > 10);
    ep_prefix_cpu_close(&c);
    /* Keeping every episode (keep 0), the one-node ones all kept. */
    ep_ext two[2] = {{1, 0, 0.004, 0}, {0, 0, 0.004, 0}};
    assert_int_equal(ep_prefix_cpu_open(&c, &s, EP_OPEN_CLOSED, 0, 1, &err), 0);
    assert_int_equal(ep_prefix_cb(&c.st, one, ntypes, counts, &err), 0);
    assert_int_equal(ep_prefix_ext_cb(&c.st, one, ntypes - 1, two, 2, counts, &err),
                     DM_EINPUT);
    assert_non_null(strstr(err.msg, "kept from the batch before"));
    assert_int_equal(ep_prefix_ext_cb(&c.st, one, ntypes, two, 2, counts, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "out of order"));
    ep_prefix_cpu_close(&c);
    stream_drop(&s);
}

/* Every extension of nfreq prefixes by each of ntypes types at two links, into *ext
 * (malloc'd); returns how many. */
static int64_t extend_all(int64_t nfreq, int ntypes, ep_ext **ext)
{
    int64_t n = 0;
    *ext = malloc((size_t)(nfreq ? nfreq : 1) * 2 * (size_t)ntypes * sizeof **ext);
    assert_non_null(*ext);
    for (int64_t a = 0; a < nfreq; a++)
        for (int g = 0; g < 2; g++)
            for (int y = 0; y < ntypes; y++)
                (*ext)[n++] = (ep_ext){a, 0.001 * g, 0.001 * g + 0.004, y};
    return n;
}

/* ext[0..n) of *freq (*nfreq of them) counted on st with held and src
 * (ep_prefix_count_ext), each count Algorithm 1's; the kept ones into *freq
 * (reallocated), *nfreq of them. */
static void count_and_keep(ep_prefix_state *st, ep_episode **freq, int64_t *nfreq,
                           const int64_t *held, const int32_t *const *src, const ep_ext *ext,
                           int64_t n, const ep_stream *s, int64_t keep, const char *what)
{
    int64_t *counts = malloc((size_t)(n ? n : 1) * sizeof *counts), kept = 0;
    ep_episode *made = malloc((size_t)(n ? n : 1) * sizeof *made);
    dm_err err = {0};
    assert_non_null(counts);
    assert_non_null(made);
    if (ep_prefix_count_ext(st, *freq, *nfreq, held, src, ext, n, counts, &err))
        fail_msg("%s: %s", what, err.msg);
    for (int64_t i = 0; i < n; i++)
        ep_ext_episode(*freq, &ext[i], &made[i]);
    assert_counts(s, made, n, EP_OPEN_CLOSED, counts, what);
    for (int64_t i = 0; i < n; i++)
        if (counts[i] >= keep)
            made[kept++] = made[i];
    assert_int_equal(st->nkept, kept);
    free(*freq);
    *freq = made;
    *nfreq = kept;
    free(counts);
}

/* Extensions of prefixes whose starts the state does not hold (held -1: moved to it from
 * another part): on a 5,000-event stream of 6 types, level 3 counted from the kept level
 * 2 with every other prefix made again from its first node, each prefix's step taken
 * once for all its extensions, in a round before theirs; then level 4 from what that
 * kept; on a state that kept only level 1, level 3 from level 2's episodes all made
 * there; and on another, level 3 with the starts of three prefixes in four fetched from
 * the state that kept them (once each, its extensions in round 0), the fourth made
 * again. Every count is Algorithm 1's. Refused by name: a held index past the kept. */
static void test_extensions_of_prefixes_held_elsewhere(void **state)
{
    (void)state;
    uint64_t rng = 5;
    const int ntypes = 6;
    const int64_t keep = 40;
    ep_stream s = random_stream(&rng, 5000, ntypes, 0.001);
    ep_episode *freq = malloc(ntypes * sizeof *freq), *level2, one[8];
    ep_ext *ext;
    int64_t counts[8], nfreq = 0, nfreq2;
    assert_non_null(freq);
    for (int y = 0; y < ntypes; y++)
        one[y] = (ep_episode){.n = 1, .ev = {y}};
    ep_prefix_cpu c, fresh, fetcher;
    dm_err err = {0};
    assert_int_equal(ep_prefix_cpu_open(&c, &s, EP_OPEN_CLOSED, keep, 2, &err), 0);
    assert_int_equal(ep_prefix_cpu_open(&fresh, &s, EP_OPEN_CLOSED, keep, 2, &err), 0);
    assert_int_equal(ep_prefix_cpu_open(&fetcher, &s, EP_OPEN_CLOSED, keep, 2, &err), 0);
    assert_int_equal(ep_prefix_cb(&c.st, one, ntypes, counts, &err), 0);
    assert_int_equal(ep_prefix_cb(&fresh.st, one, ntypes, counts, &err), 0);
    assert_int_equal(ep_prefix_cb(&fetcher.st, one, ntypes, counts, &err), 0);
    for (int y = 0; y < ntypes; y++)
        if (counts[y] >= keep)
            freq[nfreq++] = one[y];
    int64_t n = extend_all(nfreq, ntypes, &ext);
    count_and_keep(&c.st, &freq, &nfreq, NULL, NULL, ext, n, &s, keep, "level 2");
    free(ext);
    assert_true(nfreq > 4);
    level2 = malloc((size_t)nfreq * sizeof *level2);
    int64_t *held = malloc((size_t)nfreq * sizeof *held);
    const int32_t **src = malloc((size_t)nfreq * sizeof *src);
    assert_non_null(level2);
    assert_non_null(held);
    assert_non_null(src);
    memcpy(level2, freq, (size_t)nfreq * sizeof *level2);
    nfreq2 = nfreq;
    /* level 3 on a state that holds none of level 2: three prefixes in four fetched from
     * c, which kept them, the fourth made again from its first node */
    n = extend_all(nfreq, ntypes, &ext);
    for (int64_t j = 0; j < nfreq; j++) {
        held[j] = -1;
        src[j] = j % 4 == 3 ? NULL : c.st.kept_starts + c.st.kept_off[j];
    }
    assert_int_equal(ep_prefix_plan_ext(&fetcher.st, freq, nfreq, held, src, ext, n, &err), 0);
    assert_int_equal(fetcher.st.plan.nfetch, nfreq - nfreq / 4);
    assert_int_equal(fetcher.st.plan.rounds, 2);
    assert_int_equal(fetcher.st.plan.ntasks, n + nfreq / 4);
    assert_int_equal(fetcher.st.plan.first[1],
                     (nfreq - nfreq / 4) * 2 * ntypes + nfreq / 4);
    ep_episode *fetched = malloc((size_t)nfreq * sizeof *fetched);
    int64_t nfetched = nfreq;
    assert_non_null(fetched);
    memcpy(fetched, freq, (size_t)nfreq * sizeof *fetched);
    count_and_keep(&fetcher.st, &fetched, &nfetched, held, src, ext, n, &s, keep,
                   "level 3, fetched");
    free(fetched);
    free(ext);
    /* level 3: the odd prefixes made again from their first node */
    n = extend_all(nfreq, ntypes, &ext);
    for (int64_t j = 0; j < nfreq; j++)
        held[j] = j % 2 ? -1 : j;
    assert_int_equal(ep_prefix_plan_ext(&c.st, freq, nfreq, held, NULL, ext, n, &err), 0);
    assert_int_equal(c.st.plan.ntasks, n + nfreq / 2);
    assert_int_equal(c.st.plan.rounds, 2);
    assert_int_equal(c.st.plan.first[1], (nfreq + 1) / 2 * 2 * ntypes + nfreq / 2);
    count_and_keep(&c.st, &freq, &nfreq, held, NULL, ext, n, &s, keep, "level 3, half moved");
    free(ext);
    assert_true(nfreq > 4);
    n = extend_all(nfreq, ntypes, &ext);
    count_and_keep(&c.st, &freq, &nfreq, NULL, NULL, ext, n, &s, keep, "level 4 after it");
    free(ext);
    /* level 3 on a state that holds none of level 2 */
    n = extend_all(nfreq2, ntypes, &ext);
    for (int64_t j = 0; j < nfreq2; j++)
        held[j] = -1;
    count_and_keep(&fresh.st, &level2, &nfreq2, held, NULL, ext, n, &s, keep,
                   "level 3, all moved");
    held[0] = fresh.st.nkept;
    assert_int_equal(ep_prefix_plan_ext(&fresh.st, level2, 1, held, NULL, ext, 1, &err),
                     DM_EINPUT);
    assert_non_null(strstr(err.msg, "given as kept episode"));
    free(ext);
    ep_prefix_cpu_close(&c);
    ep_prefix_cpu_close(&fresh);
    ep_prefix_cpu_close(&fetcher);
    free(src);
    free(held);
    free(level2);
    free(freq);
    stream_drop(&s);
}

/* A round whose longest step is long against what the steps run at once read on average
 * is ordered longest first (its tasks by their type's events, most first, a type's in
 * plan order), others keep the plan's order: level 2 of a 4,000-event stream of 5 types
 * planned with 1,000 slots, then with 1, then with 50; the steps that alone would trail
 * the round counted; counted each way, every count Algorithm 1's. */
static void test_rounds_longest_first(void **state)
{
    (void)state;
    uint64_t rng = 9;
    const int ntypes = 5;
    ep_stream s = random_stream(&rng, 4000, ntypes, 0.001);
    ep_episode one[5];
    int64_t counts[5];
    for (int y = 0; y < ntypes; y++)
        one[y] = (ep_episode){.n = 1, .ev = {y}};
    static const int64_t slots_of[] = {1000, 1, 50};
    for (int k = 0; k < 3; k++) {
        const int64_t slots = slots_of[k];
        ep_prefix_cpu c;
        ep_episode *freq = malloc(ntypes * sizeof *freq);
        ep_ext *ext;
        int64_t nfreq = ntypes;
        dm_err err = {0};
        assert_non_null(freq);
        memcpy(freq, one, sizeof one);
        assert_int_equal(ep_prefix_cpu_open(&c, &s, EP_OPEN_CLOSED, 1, 2, &err), 0);
        assert_int_equal(ep_prefix_cb(&c.st, one, ntypes, counts, &err), 0);
        c.st.slots = slots;
        const int64_t n = extend_all(nfreq, ntypes, &ext);
        assert_int_equal(ep_prefix_plan_ext(&c.st, freq, nfreq, NULL, NULL, ext, n, &err), 0);
        const ep_prefix_plan *p = &c.st.plan;
        assert_int_equal(p->rounds, 1);
        assert_int_equal(p->ntasks, n);
        int sorted = 1, planned = 1;
        for (int64_t i = 1; i < n; i++) {
            const ep_prefix_task *a = &p->tasks[i - 1], *b = &p->tasks[i];
            const int64_t ea = counts[a->type], eb = counts[b->type]; /* events */
            sorted &= ea > eb || (ea == eb && a->count < b->count);
            planned &= a->count < b->count;
        }
        assert_true(k == 1 ? planned && !sorted : sorted && !planned);
        /* The steps that alone would trail the round lead it: every one of 1,000 slots'
         * average, none of one slot's (unordered), some of 50 slots' (50 steps). */
        const int64_t longest = p->longest[0];
        if (k == 2) {
            assert_true(longest > 0 && longest < n);
            assert_true(counts[p->tasks[longest - 1].type] > counts[p->tasks[longest].type]);
        } else
            assert_int_equal(longest, k ? 0 : n);
        count_and_keep(&c.st, &freq, &nfreq, NULL, NULL, ext, n, &s, 1,
                       k == 1 ? "level 2, plan order" : "level 2, longest first");
        free(ext);
        free(freq);
        ep_prefix_cpu_close(&c);
    }
    stream_drop(&s);
}

/* Parts counted one after the other on the calling thread (ep_prefix_parts_fn), each on
 * a state of its own, with how many extensions each was given at the last level and the
 * weight of the largest share and of an even one, summed over the levels of extensions,
 * and how many prefixes were moved to another part. */
typedef struct parts_ctx {
    ep_prefix_split sp;
    ep_prefix_cpu c[5];
    int64_t given[5];
    int64_t busiest, even, moved;
    int rounds; /* the most rounds a part's plan of extensions took */
} parts_ctx;

static int count_parts(void *ctx, dm_err *err)
{
    parts_ctx *p = ctx;
    const ep_prefix_split *sp = &p->sp;
    int64_t load[5] = {0}, total = 0, most = 0;
    for (int64_t u = 0; !sp->eps && u < sp->nunits; u++) {
        load[sp->part[u]] += sp->w[u];
        total += sp->w[u];
    }
    for (int i = 0; i < sp->parts; i++) {
        if (!sp->eps)
            p->given[i] = sp->share[i].n;
        most = load[i] > most ? load[i] : most;
        if (ep_prefix_split_count(&p->sp, i, &p->c[i].st, err))
            return err->code;
        if (!sp->eps && p->c[i].st.plan.rounds > p->rounds)
            p->rounds = p->c[i].st.plan.rounds;
        for (int64_t j = 0; !sp->eps && sp->share[i].held && j < sp->share[i].nfreq; j++)
            p->moved += sp->share[i].held[j] < 0;
    }
    p->busiest += most;
    p->even += (total + sp->parts - 1) / sp->parts;
    return 0;
}

/* Mining a 6,000-event stream of 8 types to level 4 over 1, 2, 3 and 5 parts, both
 * interval kinds, moved prefixes made again and fetched: the same episodes and counts as
 * mining on one state, each count Algorithm 1's, and at the last level every part given
 * extensions; over several parts some prefixes were moved to balance a level, and the
 * busiest part's estimated work, over the levels, is within 15 % of an even share;
 * fetched, every plan of extensions is one round. Refused by name: extensions of other
 * prefixes than those kept. */
static void test_mining_over_parts(void **state)
{
    (void)state;
    uint64_t rng = 41;
    ep_stream s = random_stream(&rng, 6000, 8, 0.001);
    const ep_mine_spec spec = {.support = 22, .max_level = 4, .links = EP_LINKS_ANY,
                               .ngaps = 2, .lo = {0, 0.002}, .hi = {0.003, 0.006}};
    static const int parts[] = {1, 2, 3, 5};
    dm_err err = {0};
    for (int k = 0; k < 2; k++) {
        const ep_interval iv = k ? EP_CLOSED : EP_OPEN_CLOSED;
        ep_prefix_cpu one;
        ep_mine_result want;
        ep_mine_spec run = spec;
        assert_int_equal(ep_prefix_cpu_open(&one, &s, iv, spec.support, 1, &err), 0);
        run.extend = ep_prefix_ext_cb;
        run.extend_ctx = &one.st;
        assert_int_equal(ep_mine(&s, &run, ep_prefix_cb, &one.st, &want, &err), 0);
        ep_prefix_cpu_close(&one);
        assert_int_equal(want.nlevels, 4);
        assert_true(want.levels[3].frequent > 20);
        print_message("%s: %lld, %lld, %lld, %lld frequent at levels 1 to 4\n",
                      k ? "closed" : "open-closed", (long long)want.levels[0].frequent,
                      (long long)want.levels[1].frequent, (long long)want.levels[2].frequent,
                      (long long)want.levels[3].frequent);
        assert_counts(&s, want.eps, want.n, iv, want.counts, "mining on one state");
        for (size_t q = 0; q < 2 * sizeof parts / sizeof *parts; q++) {
            const size_t p = q / 2;
            const int fetch = q % 2;
            parts_ctx *pc = calloc(1, sizeof *pc);
            ep_prefix_state *states[5];
            ep_mine_result got;
            assert_non_null(pc);
            assert_int_equal(ep_prefix_split_init(&pc->sp, parts[p], spec.support, &s, 1,
                                                  count_parts, pc, &err), 0);
            for (int i = 0; i < parts[p]; i++) {
                assert_int_equal(ep_prefix_cpu_open(&pc->c[i], &s, iv, spec.support, 1, &err),
                                 0);
                states[i] = &pc->c[i].st;
            }
            if (fetch)
                ep_prefix_split_fetching(&pc->sp, states);
            run.extend = ep_prefix_split_ext_cb;
            run.extend_ctx = &pc->sp;
            assert_int_equal(ep_mine(&s, &run, ep_prefix_split_cb, &pc->sp, &got, &err), 0);
            assert_int_equal(got.n, want.n);
            for (int64_t i = 0; i < want.n; i++) {
                assert_int_equal(ep_episode_cmp(&got.eps[i], &want.eps[i]), 0);
                assert_int_equal(got.counts[i], want.counts[i]);
            }
            for (int i = 0; i < parts[p]; i++)
                if (pc->given[i] == 0)
                    fail_msg("%d parts: part %d given no extension at level 4", parts[p], i);
            print_message("%d parts, %s: %lld prefixes moved; busiest %lld, even %lld; at most "
                          "%d rounds\n", parts[p], fetch ? "fetched" : "made again",
                          (long long)pc->moved, (long long)pc->busiest, (long long)pc->even,
                          pc->rounds);
            assert_true(parts[p] == 1 ? pc->moved == 0 : pc->moved > 0);
            assert_true(pc->busiest <= pc->even * 115 / 100);
            assert_true(fetch || parts[p] == 1 ? pc->rounds == 1 : pc->rounds > 1);
            /* Extensions of one prefix fewer than the last level kept: refused. */
            ep_ext x = {0, 0, 0.003, 0};
            int64_t count;
            assert_int_equal(ep_prefix_split_ext_cb(&pc->sp, got.eps, pc->sp.nowner - 1, &x,
                                                    1, &count, &err), DM_EINPUT);
            assert_non_null(strstr(err.msg, "kept from the batch before"));
            ep_mine_result_free(&got);
            for (int i = 0; i < parts[p]; i++)
                ep_prefix_cpu_close(&pc->c[i]);
            ep_prefix_split_free(&pc->sp);
            free(pc);
        }
        ep_mine_result_free(&want);
    }
    stream_drop(&s);
}

/* A stream past 32-bit positions is refused by name, before anything is built. */
static void test_refuses_streams_past_32_bits(void **state)
{
    (void)state;
    ep_stream s = {.n = (int64_t)EP_PREFIX_MAX_EVENTS + 1, .ntypes = 1};
    ep_prefix_state st;
    dm_err err = {0};
    assert_int_equal(ep_prefix_open(&st, &s, 1, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "32 bits"));
    assert_null(st.by.first);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batches_extend_kept_episodes),
        cmocka_unit_test(test_extensions_of_kept_episodes),
        cmocka_unit_test(test_extensions_of_prefixes_held_elsewhere),
        cmocka_unit_test(test_rounds_longest_first),
        cmocka_unit_test(test_mining_over_parts),
        cmocka_unit_test(test_refuses_streams_past_32_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
