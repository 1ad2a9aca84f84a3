/* test_rules_poker.c - the Poker hand data: the classifier against every one of the
 * 2,598,960 hands (the textbook count of each class) and against the labels of the
 * 25,010 real rows (skipped when ../shared is absent), and the generator's hands
 * (five different cards, deterministic by seed, class frequencies as expected). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "rules/rl_table.h"

#define POKER_CSV DM_SOURCE_DIR "/../shared/datasets/rules/poker-hand-training.csv"

/* Hands of each class among all C(52, 5) (royal flushes apart from the other straight
 * flushes, ace-low and ace-high straights counted). */
static const int64_t class_hands[10] = {1302540, 1098240, 123552, 54912, 10200,
                                        5108,    3744,    624,    36,    4};

static void test_classifier_all_hands(void **state)
{
    (void)state;
    int64_t count[10] = {0};
    int c[5];
    for (c[0] = 0; c[0] < 52; c[0]++)
        for (c[1] = c[0] + 1; c[1] < 52; c[1]++)
            for (c[2] = c[1] + 1; c[2] < 52; c[2]++)
                for (c[3] = c[2] + 1; c[3] < 52; c[3]++)
                    for (c[4] = c[3] + 1; c[4] < 52; c[4]++) {
                        int suit[5], rank[5];
                        for (int k = 0; k < 5; k++) {
                            suit[k] = c[k] / 13 + 1;
                            rank[k] = c[k] % 13 + 1;
                        }
                        count[rl_poker_class(suit, rank)]++;
                    }
    for (int k = 0; k < 10; k++)
        if (count[k] != class_hands[k])
            fail_msg("class %d: %lld hands, expected %lld", k, (long long)count[k],
                     (long long)class_hands[k]);
}

static void test_classifier_known_hands(void **state)
{
    (void)state;
    static const struct {
        int suit[5], rank[5], cls;
    } hands[] = {
        {{1, 1, 1, 1, 1}, {1, 10, 11, 12, 13}, 9}, /* royal flush */
        {{2, 2, 2, 2, 2}, {1, 2, 3, 4, 5}, 8},     /* ace-low straight flush */
        {{3, 3, 3, 3, 3}, {9, 10, 11, 12, 13}, 8},
        {{1, 2, 3, 4, 1}, {1, 2, 3, 4, 5}, 4},     /* ace-low straight */
        {{1, 2, 3, 4, 1}, {13, 1, 12, 10, 11}, 4}, /* ace-high straight */
        {{1, 2, 3, 4, 1}, {12, 13, 1, 2, 3}, 0},   /* no wrap round the ace */
        {{1, 1, 1, 1, 1}, {2, 4, 6, 8, 13}, 5},
        {{1, 2, 3, 4, 1}, {7, 7, 7, 7, 2}, 7},
        {{1, 2, 3, 4, 1}, {7, 7, 7, 2, 2}, 6},
        {{1, 2, 3, 4, 1}, {7, 7, 7, 2, 3}, 3},
        {{1, 2, 3, 4, 1}, {7, 7, 2, 2, 3}, 2},
        {{1, 2, 3, 4, 1}, {7, 7, 2, 4, 3}, 1},
    };
    for (size_t i = 0; i < sizeof hands / sizeof *hands; i++)
        assert_int_equal(rl_poker_class(hands[i].suit, hands[i].rank), hands[i].cls);
}

/* Asserts that every row's CLASS is rl_poker_class of its cards. Returns the rows. */
static int64_t check_labels(const rl_table *t)
{
    for (int64_t i = 0; i < t->n; i++) {
        int suit[5], rank[5];
        for (int k = 0; k < 5; k++) {
            suit[k] = (int)t->cols[2 * k].num[i];
            rank[k] = (int)t->cols[2 * k + 1].num[i];
        }
        int want = (int)t->cols[10].num[i], got = rl_poker_class(suit, rank);
        if (got != want)
            fail_msg("row %lld: class %d, labelled %d", (long long)i + 1, got, want);
    }
    return t->n;
}

static void test_classifier_real_rows(void **state)
{
    (void)state;
    if (access(POKER_CSV, R_OK) != 0)
        skip();
    rl_table t;
    dm_err err = {0};
    assert_int_equal(rl_table_load(POKER_CSV, NULL, &t, &err), 0);
    assert_int_equal(t.ncols, 11);
    assert_int_equal(check_labels(&t), 25010);
    rl_table_free(&t);
}

static void test_generator(void **state)
{
    (void)state;
    const int64_t n = 1000000;
    rl_table t, u, v;
    dm_err err = {0};
    assert_int_equal(rl_poker_generate(n, 7, &t, &err), 0);
    assert_int_equal(rl_poker_generate(1000, 7, &u, &err), 0);
    assert_int_equal(rl_poker_generate(1000, 8, &v, &err), 0);
    assert_string_equal(t.cols[0].name, "S1");
    assert_string_equal(t.cols[9].name, "C5");
    assert_string_equal(t.cols[10].name, "CLASS");
    check_labels(&t);
    int64_t count[10] = {0}, differ = 0;
    for (int64_t i = 0; i < n; i++) {
        int seen[53] = {0};
        for (int k = 0; k < 5; k++) {
            int s = (int)t.cols[2 * k].num[i], r = (int)t.cols[2 * k + 1].num[i];
            assert_true(s >= 1 && s <= 4 && r >= 1 && r <= 13);
            assert_int_equal(seen[(s - 1) * 13 + r]++, 0); /* no card twice in a hand */
        }
        count[(int)t.cols[10].num[i]]++;
        if (i < 1000) {
            for (int j = 0; j < 11; j++)
                assert_true(t.cols[j].num[i] == u.cols[j].num[i]);
            differ += t.cols[1].num[i] != v.cols[1].num[i];
        }
    }
    assert_true(differ > 800);
    /* Each class within 5 standard deviations of its expected count (plus one hand for
     * the rarest). */
    for (int k = 0; k < 10; k++) {
        double p = (double)class_hands[k] / 2598960.0, mean = p * (double)n;
        double sd = sqrt(mean * (1 - p));
        if (fabs((double)count[k] - mean) > 5 * sd + 1)
            fail_msg("class %d: %lld hands of %lld, expected %.1f +- %.1f", k,
                     (long long)count[k], (long long)n, mean, sd);
    }
    rl_table_free(&t);
    rl_table_free(&u);
    rl_table_free(&v);
    assert_int_equal(rl_poker_generate(0, 7, &t, &err), DM_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classifier_known_hands),
        cmocka_unit_test(test_classifier_all_hands),
        cmocka_unit_test(test_classifier_real_rows),
        cmocka_unit_test(test_generator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
