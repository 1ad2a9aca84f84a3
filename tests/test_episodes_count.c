/* test_episodes_count.c - the episodes workload's counts: Algorithm 1 (ep_count) on
 * hand-worked streams, against the exhaustive count (ep_count_brute), the papers'
 * printed algorithm and the count by prefix (ep_count_prefix) on thousands of random
 * ones (and with more than 64 types), its
 * memory bound on a long stream, and the multi-threaded count (ep_count_all_mt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "episodes/episodes.h"
#include "episodes/ep_prefix.h"
#include "episodes_fixture.h"

/* ---- the papers' Algorithm 1, as printed --------------------------------------------- */

/* Algorithm 1 line by line (lists of times, scanned from the newest entry, nothing
 * pruned), with line 12 read as i = |alpha|: the printed i = |alpha| - 1 would count at
 * the last-but-one node (it counts A -> B -> C in the stream "A B"). Episodes of two
 * nodes and more; -1 without memory. */
static int64_t paper_algorithm1(const ep_stream *s, const ep_episode *e, ep_interval iv)
{
    int n = e->n;
    double *lists = malloc((size_t)n * ((size_t)s->n + 1) * sizeof *lists);
    int64_t len[EP_MAX_LEVEL] = {0};
    if (!lists)
        return -1;
    int64_t count = 0;
    for (int64_t j = 0; j < s->n; j++) {
        double t = s->time[j];
        for (int i = n; i >= 1; i--) {
            if (s->type[j] != e->ev[i - 1])
                continue;
            if (i == 1) {
                lists[0 * (s->n + 1) + len[0]++] = t;
                continue;
            }
            int prev = i - 1, matched = 0;
            for (int64_t k = len[prev - 1]; k > 0 && !matched; k--) {
                double gap = t - lists[(prev - 1) * (s->n + 1) + k - 1];
                double lo = e->lo[prev - 1], hi = e->hi[prev - 1];
                matched = (iv == EP_CLOSED ? lo <= gap : lo < gap) && gap <= hi;
            }
            if (!matched)
                continue;
            if (i == n) {
                count++;
                memset(len, 0, sizeof len);
                break;
            }
            lists[(i - 1) * (s->n + 1) + len[i - 1]++] = t;
        }
    }
    free(lists);
    return count;
}

/* ---- hand-worked counts -------------------------------------------------------------- */

/* The papers' example (1) and their Figure 3. */
static void test_papers_example(void **state)
{
    (void)state;
    ep_stream s = stream_of("A1 A2 B5 B8 A10 A13 C15 B18 C20", 3);
    /* A -> B with no effective constraint: 8 occurrences, at most 2 non-overlapped
     * (A1 B5, then A10 B18; B8 cannot start anything). */
    ep_episode ab = episode_of("AB", 0, 100);
    assert_int_equal(ep_count(&s, &ab, EP_CLOSED), 2);
    assert_int_equal(ep_count_brute(&s, &ab, EP_CLOSED), 2);
    /* A -(5,10]-> B -(10,15]-> C: B8 joins s[B] (8 - 1 = 7), B5 does not (gaps 4 and 3);
     * C15 is 7 after B8, too close; B18 joins (18 - 10 = 8; 18 - 13 = 5 is not > 5); C20
     * is 12 after B8: one occurrence. */
    ep_episode abc = episode_of("ABC", 5, 10);
    abc.lo[1] = 10;
    abc.hi[1] = 15;
    assert_int_equal(ep_count(&s, &abc, EP_OPEN_CLOSED), 1);
    assert_int_equal(ep_count_brute(&s, &abc, EP_OPEN_CLOSED), 1);
    stream_drop(&s);
}

/* A gap exactly on lo counts only with EP_CLOSED; a gap exactly on hi counts in both. */
static void test_gap_on_bounds(void **state)
{
    (void)state;
    ep_episode e = episode_of("AB", 1, 2);
    ep_stream on_lo = stream_of("A0 B1", 2), on_hi = stream_of("A0 B2", 2);
    ep_stream past_hi = stream_of("A0 B3", 2);
    assert_int_equal(ep_count(&on_lo, &e, EP_OPEN_CLOSED), 0);
    assert_int_equal(ep_count(&on_lo, &e, EP_CLOSED), 1);
    assert_int_equal(ep_count(&on_hi, &e, EP_OPEN_CLOSED), 1);
    assert_int_equal(ep_count(&on_hi, &e, EP_CLOSED), 1);
    assert_int_equal(ep_count(&past_hi, &e, EP_CLOSED), 0);
    /* (1,1] is empty; [1,1] is the one gap 1. */
    ep_episode point = episode_of("AB", 1, 1);
    assert_int_equal(ep_count(&on_lo, &point, EP_OPEN_CLOSED), 0);
    assert_int_equal(ep_count(&on_lo, &point, EP_CLOSED), 1);
    stream_drop(&on_lo);
    stream_drop(&on_hi);
    stream_drop(&past_hi);
}

/* Gaps on the bounds in each interval kind and precision, the link (4, 6] ms or [4, 6]
 * ms, the times decimals as a CSV gives them (strtod): 0.007 - 0.003 is 0.004 and 0.007 -
 * 0.001 is 0.006 in double and in float; 0.016 - 0.010 is 0.006 in double but above
 * 0.006f in float, 0.021 - 0.015 above 0.006 in double and 0.006f in float; 0.013 - 0.009
 * is 0.004 in double, above 0.004f in float, 0.005 - 0.001 is 0.004 in double, below in
 * float, 0.037 - 0.033 below 0.004 in double, above 0.004f in float. */
static void test_gap_on_bounds_by_precision(void **state)
{
    (void)state;
    const struct {
        const char *t0, *t1;
        int64_t oc, closed, oc_float, closed_float; /* the count in each */
    } cases[] = {
        {"0.010", "0.016", 1, 1, 0, 0}, /* on hi in double, out in float */
        {"0.015", "0.021", 0, 0, 1, 1}, /* out in double, on hi in float */
        {"0.009", "0.013", 0, 1, 1, 1}, /* on lo in double, inside in float */
        {"0.001", "0.005", 0, 1, 0, 0}, /* on lo in double, below in float */
        {"0.033", "0.037", 0, 0, 1, 1}, /* below lo in double, inside in float */
        {"0.003", "0.007", 0, 1, 0, 1}, /* on lo in both */
        {"0.001", "0.007", 1, 1, 1, 1}, /* on hi in both */
    };
    ep_episode e = episode_of("AB", 0.004, 0.006);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ep_stream s = stream_new(2, 2);
        s.type[0] = 0;
        s.type[1] = 1;
        s.time[0] = strtod(cases[i].t0, NULL);
        s.time[1] = strtod(cases[i].t1, NULL);
        const int64_t want[4] = {cases[i].oc, cases[i].closed, cases[i].oc_float,
                                 cases[i].closed_float};
        for (int iv = 0; iv < 4; iv++) {
            if (ep_count(&s, &e, (ep_interval)iv) != want[iv] ||
                ep_count_brute(&s, &e, (ep_interval)iv) != want[iv])
                fail_msg("A at %s, B at %s, interval %d: expected %lld", cases[i].t0,
                         cases[i].t1, iv, (long long)want[iv]);
        }
        stream_drop(&s);
    }
}

/* Events at one time keep their stream order: with [0, 0], A then B at one time is an
 * occurrence of A -> B and B then A is not; one event never plays two nodes, so a lone
 * A is no A -> A, two are one, three still one (the third has no partner left after the
 * count), four are two. */
static void test_equal_times_distinct_events(void **state)
{
    (void)state;
    ep_episode ab = episode_of("AB", 0, 0), aa = episode_of("AA", 0, 0);
    const struct {
        const char *stream;
        const ep_episode *e;
        int64_t count;
    } cases[] = {
        {"A1 B1", &ab, 1}, {"B1 A1", &ab, 0},    {"A1", &aa, 0},
        {"A1 A1", &aa, 1}, {"A1 A1 A1", &aa, 1}, {"A1 A1 A1 A1", &aa, 2},
        /* The next occurrence may start at the time the last one ended, one event on. */
        {"A1 B1 A1 B1", &ab, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ep_stream s = stream_of(cases[i].stream, 2);
        assert_int_equal(ep_count(&s, cases[i].e, EP_CLOSED), cases[i].count);
        assert_int_equal(ep_count_brute(&s, cases[i].e, EP_CLOSED), cases[i].count);
        /* (0, 0] allows no gap at all. */
        assert_int_equal(ep_count(&s, cases[i].e, EP_OPEN_CLOSED), 0);
        stream_drop(&s);
    }
}

/* Repeated types and the choice of events. */
static void test_hand_worked(void **state)
{
    (void)state;
    const struct {
        const char *stream, *episode;
        double lo, hi;
        int64_t count;
    } cases[] = {
        /* A1 A2 B3: A -> A -> B needs A1, A2, B3 (gaps 1, 1). */
        {"A1 A2 B3", "AAB", 0, 5, 1},
        /* A single A cannot be both As. */
        {"A1 B3", "AAB", 0, 5, 0},
        /* Interleaved: A0 A1 B2 B3 holds 4 occurrences of A -> B, all overlapping. */
        {"A0 A1 B2 B3", "AB", 0, 10, 1},
        /* (2,3]: B3 pairs with A0 (gap 3), not with A1 (gap 2). */
        {"A0 A1 B3", "AB", 2, 3, 1},
        /* (0,1]: A0 is gone by B5. */
        {"A0 B5", "AB", 0, 1, 0},
        /* The earliest end wins: A0 B1 counts at B1, then A2 B4 (gap 2) at B4; ending at
         * B4 with A0 instead would leave only one. */
        {"A0 B1 A2 B4", "AB", 0, 4, 2},
        /* A -> B -> A: A0 B1 A2, then A3 B4 A5; A2 cannot start the second one. */
        {"A0 B1 A2 B4 A5", "ABA", 0, 2, 1},
        {"A0 B1 A2 A3 B4 A5", "ABA", 0, 2, 2},
        /* C2 ends the first occurrence; C5 has no B left to follow. */
        {"A0 B1 C2 C5", "ABC", 0, 4, 1},
        /* (1,4]: C6 links only to the older B2 (gap 4), not to B5 (gap 1), so every
         * entry of a list counts, not only the newest; B5 itself links to A3 (gap 2),
         * A0 being 5 before it. */
        {"A0 B2 A3 B5 C6", "ABC", 1, 4, 1},
        /* C3 is 1 after B2: too close. B5 is 5 after A0: too late. */
        {"A0 B2 C3", "ABC", 1, 4, 0},
        {"A0 B5 C6", "ABC", 1, 4, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ep_stream s = stream_of(cases[i].stream, 3);
        ep_episode e = episode_of(cases[i].episode, cases[i].lo, cases[i].hi);
        assert_int_equal(ep_count(&s, &e, EP_OPEN_CLOSED), cases[i].count);
        assert_int_equal(ep_count_brute(&s, &e, EP_OPEN_CLOSED), cases[i].count);
        stream_drop(&s);
    }
}

/* A one-node episode occurs at every event of its type. */
static void test_one_node_counts_events(void **state)
{
    (void)state;
    ep_stream s = stream_of("A0 B0 A0 A7 C9", 3);
    ep_episode a = episode_of("A", 0, 0), b = episode_of("B", 0, 0);
    assert_int_equal(ep_count(&s, &a, EP_OPEN_CLOSED), 3);
    assert_int_equal(ep_count_brute(&s, &a, EP_OPEN_CLOSED), 3);
    assert_int_equal(ep_count(&s, &b, EP_CLOSED), 1);
    ep_stream empty = stream_new(0, 1);
    assert_int_equal(ep_count(&empty, &a, EP_CLOSED), 0);
    assert_int_equal(ep_count_brute(&empty, &a, EP_CLOSED), 0);
    stream_drop(&empty);
    stream_drop(&s);
}

/* ---- random streams ------------------------------------------------------------------ */

/* Thousands of small streams, levels 1 to 5, both interval kinds, in double and in
 * float: Algorithm 1, the exhaustive count and the count by prefix agree, and (from two
 * nodes, in double) the printed algorithm. The counts must be interesting: many occurrences, the two interval
 * kinds often apart (gaps land on lo), the two precisions apart now and then. */
static void test_random_against_brute(void **state)
{
    (void)state;
    uint64_t rng = 12;
    int64_t trials = 0, counted = 0, several = 0, kinds_apart = 0, precisions_apart = 0;
    /* Integer seconds hit the bounds exactly; milliseconds as decimals check that the
     * floating-point gaps are still taken the same way by every count. */
    const double units[] = {1.0, 0.001};
    for (int round = 0; round < 3000; round++) {
        double unit = units[round % 2];
        int ntypes = 1 + rng_below(&rng, 3);
        ep_stream s = random_stream(&rng, rng_below(&rng, 21), ntypes, unit);
        for (int level = 1; level <= 5; level++) {
            ep_episode e = random_episode(&rng, level, ntypes, unit);
            int64_t by_kind[4];
            for (int iv = EP_OPEN_CLOSED; iv <= (EP_CLOSED | EP_FLOAT); iv++) {
                int64_t c = ep_count(&s, &e, (ep_interval)iv);
                int64_t b = ep_count_brute(&s, &e, (ep_interval)iv);
                int64_t p = ep_count_prefix(&s, &e, (ep_interval)iv);
                if (c != b || p != c)
                    fail_msg("round %d level %d interval %d: ep_count %lld, brute %lld, "
                             "prefix %lld", round, level, iv, (long long)c, (long long)b,
                             (long long)p);
                if (level > 1 && !(iv & EP_FLOAT))
                    assert_int_equal(paper_algorithm1(&s, &e, (ep_interval)iv), c);
                by_kind[iv] = c;
                trials++;
                counted += c > 0;
                several += c > 1;
            }
            kinds_apart += by_kind[0] != by_kind[1];
            precisions_apart += by_kind[0] != by_kind[2] || by_kind[1] != by_kind[3];
        }
        stream_drop(&s);
    }
    print_message("%lld counts; precisions apart %lld times\n", (long long)trials,
                  (long long)precisions_apart);
    assert_true(counted > trials / 3);
    assert_true(several > trials / 10);
    assert_true(kinds_apart > trials / 40);
    assert_true(precisions_apart > 0);
}

/* More than 64 types: types 1, 65 and 129 agree in their low 6 bits, which ep_count's
 * first filter looks at; the counts must still tell them apart. */
static void test_types_beyond_64(void **state)
{
    (void)state;
    uint64_t rng = 64;
    const int32_t alike[] = {1, 65, 129};
    int64_t counted = 0;
    for (int round = 0; round < 300; round++) {
        ep_stream small = random_stream(&rng, rng_below(&rng, 21), 3, 1.0);
        ep_stream s = stream_new(small.n, 130);
        for (int64_t i = 0; i < s.n; i++) {
            s.type[i] = alike[small.type[i]];
            s.time[i] = small.time[i];
        }
        stream_drop(&small);
        for (int level = 1; level <= 4; level++) {
            ep_episode e = random_episode(&rng, level, 3, 1.0);
            for (int k = 0; k < level; k++)
                e.ev[k] = alike[e.ev[k]];
            int64_t c = ep_count(&s, &e, EP_CLOSED), mt = -1;
            dm_err err = {0};
            assert_int_equal(ep_count_brute(&s, &e, EP_CLOSED), c);
            assert_int_equal(ep_count_all_mt(&s, &e, 1, EP_CLOSED, 2, &mt, &err), 0);
            assert_int_equal(mt, c);
            counted += c > 0;
        }
        stream_drop(&s);
    }
    assert_true(counted > 300);
}

/* ---- memory -------------------------------------------------------------------------- */

/* The bytes of address space this process holds now. */
static uint64_t address_space_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%llu", &pages), 1);
    fclose(f);
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* A million events A B A B ... one second apart, then C: with (0,1] links, only the
 * newest A and B can ever be linked, so the lists must stay a few entries long even for
 * D, which never occurs (its predecessor's list is pruned as it grows). Kept, the lists
 * would need megabytes: with the address space capped 2 MB above what the process holds,
 * such a count runs out of memory and returns -1. */
static void test_pruning_bounds_memory(void **state)
{
    (void)state;
    const int64_t n = INT64_C(1) << 20;
    ep_stream s = stream_new(n, 4);
    for (int64_t i = 0; i < n; i++) {
        s.type[i] = i == n - 1 ? 2 : (int32_t)(i % 2);
        s.time[i] = (double)i;
    }
    ep_episode abc = episode_of("ABC", 0, 1), ad = episode_of("AD", 0, 1);
    abc.hi[1] = 2; /* C (at n - 1) follows the last B (at n - 3) by 2 */
    ep_episode ab = episode_of("AB", 0, 1);

    struct rlimit old, capped;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    capped = old;
    capped.rlim_cur = address_space_bytes() + (2u << 20);
    assert_int_equal(setrlimit(RLIMIT_AS, &capped), 0);
    int64_t c_abc = ep_count(&s, &abc, EP_OPEN_CLOSED);
    int64_t c_ad = ep_count(&s, &ad, EP_OPEN_CLOSED);
    int64_t c_ab = ep_count(&s, &ab, EP_OPEN_CLOSED);
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    assert_int_equal(c_abc, 1);
    assert_int_equal(c_ad, 0);
    assert_int_equal(c_ab, n / 2 - 1); /* A0 B1, A2 B3, ..., A(n-4) B(n-3) */
    stream_drop(&s);
}

/* ---- many episodes on many threads --------------------------------------------------- */

/* 600 random episodes of levels 1 to 6 over a 20,000-event stream of 12 types:
 * ep_count_all_mt on 1, 2 and every core gives ep_count's count for each. */
static void test_mt_equals_single(void **state)
{
    (void)state;
    uint64_t rng = 2026;
    const int ntypes = 12;
    ep_stream s = random_stream(&rng, 20000, ntypes, 0.001);
    const int64_t n = 600;
    ep_episode *eps = malloc((size_t)n * sizeof *eps);
    int64_t *want = malloc((size_t)n * sizeof *want);
    int64_t *got = malloc((size_t)n * sizeof *got);
    assert_non_null(eps);
    assert_non_null(want);
    assert_non_null(got);
    int64_t nonzero = 0;
    for (int64_t i = 0; i < n; i++) {
        eps[i] = random_episode(&rng, 1 + (int)(i % 6), ntypes, 0.001);
        /* Wider gaps than the small streams use, so long episodes still occur. */
        for (int k = 0; k + 1 < eps[i].n; k++)
            eps[i].hi[k] += 0.02;
    }
    for (int iv = EP_OPEN_CLOSED; iv <= EP_CLOSED; iv++) {
        for (int64_t i = 0; i < n; i++) {
            want[i] = ep_count(&s, &eps[i], (ep_interval)iv);
            nonzero += want[i] > 0;
        }
        const int threads[] = {1, 2, 0, 7};
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            dm_err err = {0};
            memset(got, 0xff, (size_t)n * sizeof *got);
            assert_int_equal(
                ep_count_all_mt(&s, eps, n, (ep_interval)iv, threads[t], got, &err), 0);
            for (int64_t i = 0; i < n; i++)
                if (got[i] != want[i])
                    fail_msg("threads %d interval %d episode %lld: %lld, ep_count %lld",
                             threads[t], iv, (long long)i, (long long)got[i],
                             (long long)want[i]);
        }
        /* More threads than episodes, and no episode at all. */
        dm_err err = {0};
        assert_int_equal(ep_count_all_mt(&s, eps, 3, (ep_interval)iv, 16, got, &err), 0);
        for (int64_t i = 0; i < 3; i++)
            assert_int_equal(got[i], want[i]);
        assert_int_equal(ep_count_all_mt(&s, eps, 0, (ep_interval)iv, 0, got, &err), 0);
    }
    assert_true(nonzero > n); /* most episodes occur, in one interval kind or the other */
    free(eps);
    free(want);
    free(got);
    stream_drop(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_papers_example),
        cmocka_unit_test(test_gap_on_bounds),
        cmocka_unit_test(test_gap_on_bounds_by_precision),
        cmocka_unit_test(test_equal_times_distinct_events),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_one_node_counts_events),
        cmocka_unit_test(test_random_against_brute),
        cmocka_unit_test(test_types_beyond_64),
        cmocka_unit_test(test_pruning_bounds_memory),
        cmocka_unit_test(test_mt_equals_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
