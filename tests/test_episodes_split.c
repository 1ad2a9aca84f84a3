/* test_episodes_split.c - the host side of multi-GPU mining (ep_split): a level's
 * candidates split over the GPUs land each in exactly one slice, in order, the slices
 * differing by one at most (uneven counts; more GPUs than candidates, empty slices);
 * units of skewed weights balanced over the GPUs, each placed once, moving few; a
 * level's passes keep each GPU's largest figures; and a mining's facts carry them per
 * level under the names the docs give, only when the mining ran over several GPUs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "episodes/ep_split.h"
#include "episodes/ep_workload.h"

/* Splits n over parts and checks the slices tile [0, n) in order, larger ones first. */
static void check_split(int64_t n, int parts)
{
    int64_t next = 0, prev = -1, empty = 0;
    for (int p = 0; p < parts; p++) {
        int64_t first, count;
        ep_split(n, parts, p, &first, &count);
        if (first != next || count < 0)
            fail_msg("n %lld over %d: slice %d is [%lld, +%lld), expected it at %lld",
                     (long long)n, parts, p, (long long)first, (long long)count,
                     (long long)next);
        if (prev >= 0 && (count > prev || prev - count > 1))
            fail_msg("n %lld over %d: slice %d has %lld after %lld", (long long)n, parts, p,
                     (long long)count, (long long)prev);
        next += count;
        prev = count;
        empty += count == 0;
    }
    assert_int_equal(next, n);
    assert_int_equal(empty, n < parts ? parts - n : 0);
}

static void every_candidate_is_in_exactly_one_slice(void **state)
{
    (void)state;
    for (int64_t n = 0; n <= 200; n++)
        for (int parts = 1; parts <= 16; parts++)
            check_split(n, parts);
    check_split(EP_MAX_CANDIDATES, 16);
    check_split(EP_MAX_CANDIDATES - 1, 7);
    /* 10 over 4: 3, 3, 2, 2; 3 over 8: one each for the first three, then none */
    int64_t first, count;
    ep_split(10, 4, 2, &first, &count);
    assert_int_equal(first, 6);
    assert_int_equal(count, 2);
    ep_split(3, 8, 5, &first, &count);
    assert_int_equal(first, 3);
    assert_int_equal(count, 0);
}

/* Places n units with ep_split_balance and checks that each got one part of parts; the
 * loads (a unit's weight, plus its move away from its holder) into load[0..parts), the
 * units that left their holder into *moved, the largest load returned. */
static int64_t place(const int64_t *w, const int64_t *move, const int *held, int64_t n,
                     int parts, int can_move, int *part, int64_t *load, int64_t *moved)
{
    for (int64_t i = 0; i < n; i++)
        part[i] = -2;
    assert_int_equal(ep_split_balance(w, move, held, n, parts, can_move, part), 0);
    int64_t most = 0;
    *moved = 0;
    for (int p = 0; p < parts; p++)
        load[p] = 0;
    for (int64_t i = 0; i < n; i++) {
        if (part[i] < 0 || part[i] >= parts)
            fail_msg("unit %lld of %lld placed on part %d of %d", (long long)i, (long long)n,
                     part[i], parts);
        const int away = held[i] != EP_SPLIT_ANY && part[i] != held[i];
        load[part[i]] += w[i] + (away ? move[i] : 0);
        *moved += away;
    }
    for (int p = 0; p < parts; p++)
        most = load[p] > most ? load[p] : most;
    return most;
}

static int heavier_first(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x > y ? -1 : x < y;
}

/* Skewed weights (a few heavy units, many light ones, as a level's prefixes are), all
 * held by one part: over 2 to 8 parts, every unit gets one part, the busiest is within
 * the largest unit and its move of an even share of the weights and the moves paid, and
 * within 10 % of an even share of the weights alone; few units move (the heavy ones
 * first); the same input gives the same placement. Held units already even stay where
 * they are; without moves only the units every part holds are placed, around them; units
 * every part holds are dealt as evenly as their weights allow. */
static void balance_spreads_skewed_work_moving_few(void **state)
{
    (void)state;
    enum { N = 1000 };
    static int64_t w[N], move[N], sorted[N], load[8], again_load[8];
    static int held[N], part[N], again[N];
    int64_t total = 0, heaviest = 0, moved, again_moved;
    for (int64_t i = 0; i < N; i++) {
        w[i] = 1 + 4000 / (i + 1) + (i * 7919) % 13; /* a heavy head, a long tail */
        move[i] = 3 + i % 5;
        held[i] = 0;
        total += w[i];
        heaviest = w[i] + move[i] > heaviest ? w[i] + move[i] : heaviest;
        sorted[i] = w[i];
    }
    qsort(sorted, N, sizeof *sorted, heavier_first);
    for (int parts = 2; parts <= 8; parts++) {
        const int64_t most = place(w, move, held, N, parts, 1, part, load, &moved);
        int64_t paid = 0;
        for (int64_t i = 0; i < N; i++)
            paid += part[i] != held[i] ? move[i] : 0;
        if (most > (total + paid + parts - 1) / parts + heaviest ||
            most > (total + parts - 1) / parts * 110 / 100)
            fail_msg("%d parts: busiest %lld, total %lld, moves paid %lld", parts,
                     (long long)most, (long long)total, (long long)paid);
        /* few units move: hardly more than the fewest (the heaviest) that carry what
         * part 0 holds above an even share; dealing all afresh would move most */
        int64_t carried = 0, fewest = 0;
        while (carried < total - total / parts)
            carried += sorted[fewest++];
        if (moved > fewest + parts)
            fail_msg("%d parts: %lld units moved, %lld would carry the excess", parts,
                     (long long)moved, (long long)fewest);
        assert_int_equal(place(w, move, held, N, parts, 1, again, again_load, &again_moved),
                         most);
        assert_memory_equal(part, again, sizeof part);
    }
    /* one heavy unit and fifty light ones on part 0, nothing on part 1: the heavy one
     * moves, alone */
    int64_t w2[51], move2[51];
    int held2[51], part2[51];
    for (int i = 0; i < 51; i++) {
        w2[i] = i ? 1 : 50;
        move2[i] = 2;
        held2[i] = 0;
    }
    assert_int_equal(place(w2, move2, held2, 51, 2, 1, part2, load, &moved), 52);
    assert_int_equal(moved, 1);
    assert_int_equal(part2[0], 1);
    /* held about evenly already (every fourth unit on each part): nothing moves */
    for (int64_t i = 0; i < N; i++)
        held[i] = (int)(i % 4);
    place(w, move, held, N, 4, 1, part, load, &moved);
    assert_int_equal(moved, 0);
    /* without moves: part 0 keeps its 50, the units every part holds go around it */
    for (int i = 0; i < 51; i++)
        held2[i] = i ? EP_SPLIT_ANY : 0;
    assert_int_equal(place(w2, move2, held2, 51, 2, 0, part2, load, &moved), 50);
    assert_int_equal(part2[0], 0);
    assert_int_equal(load[1], 50);
    /* 4,096 equal units every part holds, over 3 parts: 1,366, 1,365, 1,365 */
    int64_t *ones = calloc(4096, sizeof *ones);
    int *any = malloc(4096 * sizeof *any), *got = malloc(4096 * sizeof *got);
    assert_non_null(ones);
    assert_non_null(any);
    assert_non_null(got);
    for (int i = 0; i < 4096; i++) {
        ones[i] = 1;
        any[i] = EP_SPLIT_ANY;
    }
    assert_int_equal(place(ones, ones, any, 4096, 3, 1, got, load, &moved), 1366);
    assert_int_equal(load[1], 1365);
    assert_int_equal(load[2], 1365);
    assert_int_equal(moved, 0);
    free(ones);
    free(any);
    free(got);
    /* nothing to place, and one part */
    assert_int_equal(place(w, move, held, 0, 3, 1, part, load, &moved), 0);
    for (int64_t i = 0; i < N; i++)
        held[i] = 0;
    assert_int_equal(place(w, move, held, N, 1, 1, part, load, &moved), total);
    assert_int_equal(moved, 0);
}

static void a_level_keeps_each_gpus_largest_figures(void **state)
{
    (void)state;
    ep_split_pass level = {0};
    const ep_split_pass gpus[] = {
        {.per_gpu = 5, .wall_s = 1.0, .transfer_s = 0.25, .kernel_s = 0.5, .timed = 1},
        {.per_gpu = 6, .wall_s = 0.875, .transfer_s = 0.125, .kernel_s = 0.75, .timed = 1},
        {.per_gpu = 0}};
    for (size_t i = 0; i < sizeof gpus / sizeof *gpus; i++)
        ep_split_pass_merge(&level, &gpus[i]);
    assert_int_equal(level.per_gpu, 6);
    assert_true(level.wall_s == 1.0);
    assert_true(level.transfer_s == 0.25);
    assert_true(level.kernel_s == 0.75);
    assert_int_equal(level.timed, 1);
}

/* The value of fact (group, name) among f[0..n), which must be there once. */
static double fact(const dm_fact *f, int n, const char *group, const char *name,
                   const char *unit)
{
    int at = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(f[i].group, group) == 0 && strcmp(f[i].name, name) == 0) {
            if (at >= 0)
                fail_msg("%s %s twice", group, name);
            at = i;
        }
    if (at < 0)
        fail_msg("%s %s missing", group, name);
    if (unit ? !f[at].unit || strcmp(f[at].unit, unit) != 0 : f[at].unit != NULL)
        fail_msg("%s %s: unit %s, expected %s", group, name, f[at].unit ? f[at].unit : "none",
                 unit ? unit : "none");
    return f[at].value;
}

static void facts_give_each_level_its_gpus_transfer_and_counting(void **state)
{
    (void)state;
    /* Two levels of a two-pass mining over the GPUs, then one counted without a bound. */
    const ep_mine_level levels[] = {
        {.level = 1, .candidates = 26, .survivors = 20, .frequent = 18, .count_s = 0.5},
        {.level = 2, .candidates = 324, .survivors = 300, .frequent = 40, .count_s = 0.25},
    };
    const ep_split_level split[] = {
        {.bound = {.per_gpu = 13, .wall_s = 0.01, .transfer_s = 0.001, .kernel_s = 0.002,
                   .timed = 1},
         .count = {.per_gpu = 10, .wall_s = 0.02, .transfer_s = 0.003, .kernel_s = 0.004,
                   .timed = 1}},
        {.bound = {.per_gpu = 162, .wall_s = 0.03, .transfer_s = 0.005, .kernel_s = 0.006,
                   .timed = 1},
         .count = {.per_gpu = 150, .wall_s = 0.04, .transfer_s = 0.007, .kernel_s = 0.008,
                   .timed = 1}},
    };
    ep_result r = {.nlevels = 2, .levels = levels, .split = split};
    dm_fact f[DM_MAX_FACTS];
    int n = ep_facts(&r, NULL, f, DM_MAX_FACTS);
    /* each level: candidates, survivors, eliminated, frequent, three times, and three
     * figures for each of the two passes */
    assert_int_equal(n, 2 * (7 + 8));
    assert_true(fact(f, n, "level 1", "bound_per_gpu", NULL) == 13);
    assert_true(fact(f, n, "level 1", "count_per_gpu", NULL) == 10);
    assert_true(fact(f, n, "level 2", "bound_transfer_s", "s") == 0.005);
    assert_true(fact(f, n, "level 2", "bound_kernel_s", "s") == 0.006);
    assert_true(fact(f, n, "level 2", "count_transfer_s", "s") == 0.007);
    assert_true(fact(f, n, "level 2", "count_kernel_s", "s") == 0.008);
    assert_true(fact(f, n, "level 2", "count_s", "s") == 0.25);
    assert_true(fact(f, n, "level 2", "count_wall_s", "s") == 0.04);
    /* PTPE alone (no pre-elimination): the count's figures only */
    const ep_mine_level plain[] = {{.level = 1, .candidates = 26, .survivors = -1,
                                    .frequent = 18}};
    r = (ep_result){.nlevels = 1, .levels = plain, .split = split};
    n = ep_facts(&r, NULL, f, DM_MAX_FACTS);
    assert_int_equal(n, 4 + 4);
    assert_true(fact(f, n, "level 1", "count_per_gpu", NULL) == 10);
    /* counted without events on the streams (by prefix): no transfer or kernel time, and
     * the prefixes moved and fetched */
    const ep_split_level untimed[] = {
        {.count = {.per_gpu = 7, .wall_s = 0.5}, .by_prefix = 1, .moved = 3, .fetched = 2}};
    r.split = untimed;
    n = ep_facts(&r, NULL, f, DM_MAX_FACTS);
    assert_int_equal(n, 4 + 2 + 2);
    assert_true(fact(f, n, "level 1", "count_wall_s", "s") == 0.5);
    assert_true(fact(f, n, "level 1", "moved", NULL) == 3);
    assert_true(fact(f, n, "level 1", "fetched", NULL) == 2);
    /* one GPU's mining (no split): none of them */
    r.split = NULL;
    assert_int_equal(ep_facts(&r, NULL, f, DM_MAX_FACTS), 4);
}

/* Units every part holds are placed heaviest first, ties by index, each on the part its
 * load is least on (the lowest on a tie): 5,000 units, weights from 0 to past 2^40 with
 * many ties, on 3 parts, against the same greedy placement over a comparison sort. */
static void balance_places_heaviest_first(void **state)
{
    (void)state;
    enum { N = 5000, P = 3 };
    static int64_t w[N], move[N], load[P];
    static int held[N], part[N], want[N];
    static int64_t order[N];
    uint64_t x = 12345;
    for (int64_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        w[i] = (int64_t)((x >> 33) % 97) << (int)(x % 42); /* ties, and many radix digits */
        move[i] = 0;
        held[i] = EP_SPLIT_ANY;
        order[i] = i;
    }
    /* insertion sort by weight, heavier first, stable: the index breaks ties */
    for (int64_t i = 1; i < N; i++)
        for (int64_t k = i; k > 0 && w[order[k - 1]] < w[order[k]]; k--) {
            const int64_t t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    for (int64_t k = 0; k < N; k++) {
        const int64_t i = order[k];
        int best = 0;
        for (int p = 1; p < P; p++)
            if (load[p] + w[i] < load[best] + w[i])
                best = p;
        want[i] = best;
        load[best] += w[i];
    }
    assert_int_equal(ep_split_balance(w, move, held, N, P, 1, part), 0);
    assert_memory_equal(part, want, sizeof part);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_candidate_is_in_exactly_one_slice),
        cmocka_unit_test(balance_spreads_skewed_work_moving_few),
        cmocka_unit_test(balance_places_heaviest_first),
        cmocka_unit_test(a_level_keeps_each_gpus_largest_figures),
        cmocka_unit_test(facts_give_each_level_its_gpus_transfer_and_counting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
