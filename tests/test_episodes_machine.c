/* test_episodes_machine.c - the GPU variants' machines (ep_machine.h) run on the host:
 * PTPE's lists as runs, PreElim's relaxed count and MTPE's segments and merge, reading
 * the whole stream or only the episode's types, each against Algorithm 1 (ep_count) on thousands of random streams with ties and gaps on
 * the bounds, and MTPE's merge on occurrences straddling one and many boundaries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "episodes/ep_machine.h"
#include "episodes_fixture.h"

static const double units[] = {1.0, 0.001};

/* PTPE's machine gives Algorithm 1's count whenever ep_runs_needed allows it, and a
 * list never holds more runs than ep_runs_needed says. */
static void test_runs_equal_algorithm1(void **state)
{
    (void)state;
    uint64_t rng = 31;
    int64_t trials = 0, counted = 0, refused = 0;
    for (int round = 0; round < 3000; round++) {
        double unit = units[round % 2];
        int ntypes = 1 + rng_below(&rng, 3);
        ep_stream s = random_stream(&rng, rng_below(&rng, 40), ntypes, unit);
        for (int level = 1; level <= 5; level++) {
            ep_episode e = random_episode(&rng, level, ntypes, unit);
            double margin = ep_stream_margin(&s, &e, 1);
            if (ep_runs_needed(&e, margin) > EP_RUNS) {
                refused++;
                continue;
            }
            for (int iv = EP_OPEN_CLOSED; iv <= EP_CLOSED; iv++) {
                int64_t want = ep_count(&s, &e, (ep_interval)iv);
                for (int read = EP_READ_STREAM; read <= EP_READ_TYPES; read++) {
                    int64_t got = ep_count_runs(&s, &e, (ep_interval)iv, margin, read);
                    if (got != want)
                        fail_msg("round %d level %d interval %d read %d: runs %lld, "
                                 "Algorithm 1 %lld", round, level, iv, read, (long long)got,
                                 (long long)want);
                }
                trials++;
                counted += want > 0;
            }
        }
        stream_drop(&s);
    }
    assert_true(counted > trials / 3);
    assert_true(refused > 0); /* hi == lo: no width to merge runs in */
}

/* Dense events of one type against a narrow interval: the lists need their most runs,
 * and never more. hi = 6 ticks, lo = 5: up to floor(6 / (1 - margin)) + 1 = 7 runs. */
static void test_runs_at_capacity(void **state)
{
    (void)state;
    uint64_t rng = 5;
    for (int round = 0; round < 200; round++) {
        ep_stream s = stream_new(400, 2);
        int64_t tick = 0;
        for (int64_t i = 0; i < s.n; i++) {
            tick += rng_below(&rng, 3) == 0;
            s.type[i] = rng_below(&rng, 5) == 0;
            s.time[i] = (double)tick * 0.001;
        }
        ep_episode e = episode_of("AAB", 0.005, 0.006);
        double margin = ep_stream_margin(&s, &e, 1);
        assert_int_equal(ep_runs_needed(&e, margin), 7);
        for (int iv = EP_OPEN_CLOSED; iv <= EP_CLOSED; iv++)
            for (int read = EP_READ_STREAM; read <= EP_READ_TYPES; read++)
                assert_int_equal(ep_count_runs(&s, &e, (ep_interval)iv, margin, read),
                                 ep_count(&s, &e, (ep_interval)iv));
        stream_drop(&s);
    }
}

/* PreElim is Algorithm 1 on the relaxed episode (every link [0, hi]) and never below the
 * exact count of either interval kind (Theorem 4.1); it is often above. */
static void test_preelim_bounds(void **state)
{
    (void)state;
    uint64_t rng = 77;
    int64_t trials = 0, above = 0;
    for (int round = 0; round < 3000; round++) {
        double unit = units[round % 2];
        int ntypes = 1 + rng_below(&rng, 3);
        ep_stream s = random_stream(&rng, rng_below(&rng, 40), ntypes, unit);
        for (int level = 1; level <= 5; level++) {
            ep_episode e = random_episode(&rng, level, ntypes, unit);
            ep_episode relaxed = ep_episode_relaxed(&e);
            int64_t bound = ep_count_preelim(&s, &e, EP_READ_TYPES), mt = -1;
            assert_int_equal(bound, ep_count(&s, &relaxed, EP_CLOSED));
            assert_int_equal(ep_count_preelim(&s, &e, EP_READ_STREAM), bound);
            /* the CPU two-pass's bound, across threads over the events of e's types */
            dm_err err = {0};
            assert_int_equal(ep_bound_all_mt(&s, &e, 1, 2, &mt, &err), 0);
            assert_int_equal(mt, bound);
            for (int iv = EP_OPEN_CLOSED; iv <= EP_CLOSED; iv++) {
                int64_t exact = ep_count(&s, &e, (ep_interval)iv);
                if (bound < exact)
                    fail_msg("round %d level %d: PreElim %lld below the count %lld", round,
                             level, (long long)bound, (long long)exact);
                above += bound > exact;
                trials++;
            }
        }
        stream_drop(&s);
    }
    assert_true(above > trials / 10);
}

/* MTPE over every way of cutting, 1 to more segments than events, with 1 machine a
 * segment (a chain entering anywhere but afresh is missed and read again) to 16, equals
 * Algorithm 1. These streams are dense (ties common, many first-node events within a
 * span), so misses are common with 1 machine and fall as machines are added. */
static void test_mtpe_equal_algorithm1(void **state)
{
    (void)state;
    uint64_t rng = 2026;
    int64_t trials = 0, misses[5] = {0};
    const int machines[5] = {1, 2, 3, 5, 16};
    for (int round = 0; round < 800; round++) {
        double unit = units[round % 2];
        int ntypes = 1 + rng_below(&rng, 3);
        ep_stream s = random_stream(&rng, rng_below(&rng, 60), ntypes, unit);
        const int64_t cuts[] = {1, 2, 3, 5, 8, 17, 64, s.n + 3};
        for (int level = 1; level <= 5; level++) {
            ep_episode e = random_episode(&rng, level, ntypes, unit);
            double margin = ep_stream_margin(&s, &e, 1);
            if (ep_runs_needed(&e, margin) > EP_RUNS)
                continue;
            for (int iv = EP_OPEN_CLOSED; iv <= EP_CLOSED; iv++) {
                int64_t want = ep_count(&s, &e, (ep_interval)iv);
                for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++)
                    for (size_t m = 0; m < sizeof machines / sizeof *machines; m++) {
                        const int k = machines[m];
                        int64_t missed = 0;
                        int64_t got = ep_count_mtpe(&s, &e, (ep_interval)iv, margin,
                                                    (ep_read)(c % 2), cuts[c], k, &missed);
                        if (got != want)
                            fail_msg("round %d level %d interval %d R %lld K %d: MTPE %lld, "
                                     "Algorithm 1 %lld", round, level, iv,
                                     (long long)cuts[c], k, (long long)got, (long long)want);
                        misses[m] += missed;
                        trials++;
                    }
            }
        }
        stream_drop(&s);
    }
    assert_true(trials > 10000);
    assert_true(misses[0] > 1000);
    for (int m = 1; m < 5; m++)
        assert_true(misses[m] < misses[m - 1]);
    assert_true(misses[4] * 50 < misses[0]);
}

/* Occurrences of A -> B -> C, gaps (1, 3], that straddle one boundary and, with many
 * small segments, several; segments with no events; the same stream cut every way. */
static void test_mtpe_straddling(void **state)
{
    (void)state;
    ep_stream s = stream_of("A0 B2 C4 A5 B7 C9 A20 B22 A23 C24 B26 C28 A40 B42 C44", 3);
    ep_episode e = episode_of("ABC", 1, 3);
    double margin = ep_stream_margin(&s, &e, 1);
    int64_t want = ep_count(&s, &e, EP_OPEN_CLOSED);
    assert_int_equal(want, 4); /* A23 B26 C28 overlaps A20 B22 C24 */
    for (int64_t r = 1; r <= 40; r++)
        for (int k = 1; k <= 4; k++)
            for (int read = EP_READ_STREAM; read <= EP_READ_TYPES; read++)
                assert_int_equal(ep_count_mtpe(&s, &e, EP_OPEN_CLOSED, margin, read, r, k,
                                               NULL), want);
    stream_drop(&s);
}

/* Reading by type across the masks' 64-event blocks: long streams over many types, so an
 * episode's events are sparse and whole blocks hold none of them; lengths at and around
 * multiples of 64, and segments starting anywhere within a block. Every way of reading
 * gives Algorithm 1's count (PTPE, MTPE) or the stream's bound (PreElim). */
static void test_types_across_blocks(void **state)
{
    (void)state;
    uint64_t rng = 64;
    const int64_t lengths[] = {63, 64, 65, 128, 129, 200, 400};
    int64_t counted = 0;
    for (int round = 0; round < 140; round++) {
        const int64_t n = lengths[round % 7];
        const int ntypes = 2 + rng_below(&rng, 11);
        ep_stream s = random_stream(&rng, n, ntypes, 1.0);
        for (int level = 1; level <= 4; level++) {
            ep_episode e = random_episode(&rng, level, ntypes, 1.0);
            double margin = ep_stream_margin(&s, &e, 1);
            if (ep_runs_needed(&e, margin) > EP_RUNS)
                continue;
            const int64_t want = ep_count(&s, &e, EP_CLOSED);
            assert_int_equal(ep_count_runs(&s, &e, EP_CLOSED, margin, EP_READ_TYPES), want);
            assert_int_equal(ep_count_preelim(&s, &e, EP_READ_TYPES),
                             ep_count_preelim(&s, &e, EP_READ_STREAM));
            for (int64_t r = 1; r <= 33; r += 4)
                for (int k = 1; k <= level; k += level > 1 ? level - 1 : 1)
                    assert_int_equal(ep_count_mtpe(&s, &e, EP_CLOSED, margin, EP_READ_TYPES,
                                                   r, k, NULL), want);
            counted += want > 0;
        }
        stream_drop(&s);
    }
    assert_true(counted > 100);
}

/* The stream's end: no segment reads past it, and an empty stream counts 0. */
static void test_mtpe_empty(void **state)
{
    (void)state;
    ep_stream s = stream_new(0, 1);
    ep_episode e = episode_of("AA", 0, 1);
    for (int64_t r = 1; r <= 4; r++)
        for (int read = EP_READ_STREAM; read <= EP_READ_TYPES; read++)
            assert_int_equal(ep_count_mtpe(&s, &e, EP_CLOSED, 1e-12, read, r, 2, NULL), 0);
    stream_drop(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_equal_algorithm1),
        cmocka_unit_test(test_runs_at_capacity),
        cmocka_unit_test(test_preelim_bounds),
        cmocka_unit_test(test_mtpe_equal_algorithm1),
        cmocka_unit_test(test_mtpe_straddling),
        cmocka_unit_test(test_types_across_blocks),
        cmocka_unit_test(test_mtpe_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
