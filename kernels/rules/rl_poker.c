/* rl_poker.c - the Poker Hand data of the paper's Table 5 (1,025,010 rows in the paper;
 * generated here): random 5-card hands without repeated cards, deterministic by seed,
 * labelled by the standard rules the way the UCI Poker Hand files label them. */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "rules/rl_table.h"

/* The ranks 10, J, Q, K, A (A is 1) as a mask of bits 1..13. */
#define RL_ACE_HIGH ((1 << 1) | (1 << 10) | (1 << 11) | (1 << 12) | (1 << 13))

int rl_poker_class(const int suit[5], const int rank[5])
{
    int count[14] = {0}, mask = 0, lo = 13, hi = 1, flush = 1;
    for (int i = 0; i < 5; i++) {
        count[rank[i]]++;
        mask |= 1 << rank[i];
        lo = rank[i] < lo ? rank[i] : lo;
        hi = rank[i] > hi ? rank[i] : hi;
        flush &= suit[i] == suit[0];
    }
    int pairs = 0, three = 0, four = 0, distinct = 0;
    for (int r = 1; r <= 13; r++) {
        distinct += count[r] > 0;
        pairs += count[r] == 2;
        three += count[r] == 3;
        four += count[r] == 4;
    }
    int straight = distinct == 5 && (hi - lo == 4 || mask == RL_ACE_HIGH);
    if (straight && flush)
        return mask == RL_ACE_HIGH ? 9 : 8;
    if (four)
        return 7;
    if (three && pairs)
        return 6;
    if (flush)
        return 5;
    if (straight)
        return 4;
    if (three)
        return 3;
    return pairs; /* 2 two pairs, 1 one pair, 0 nothing */
}

int rl_poker_generate(int64_t n, uint64_t seed, rl_table *t, dm_err *err)
{
    memset(t, 0, sizeof *t);
    if (n < 1)
        return dm_err_set(err, DM_EINPUT, "poker: %lld hands, at least 1", (long long)n);
    int rc = rl_table_init(t, n, 11, "a%d", err);
    if (rc)
        return rc;
    static const char *names[11] = {"S1", "C1", "S2", "C2", "S3", "C3",
                                    "S4", "C4", "S5", "C5", "CLASS"};
    for (int j = 0; j < 11; j++) {
        free(t->cols[j].name);
        if (!(t->cols[j].name = strdup(names[j]))) {
            rl_table_free(t);
            return dm_err_set(err, DM_ERUNTIME, "poker: out of memory");
        }
    }
    dm_rng r = dm_rng_seed(seed);
    int deck[52];
    for (int c = 0; c < 52; c++)
        deck[c] = c;
    for (int64_t i = 0; i < n; i++) {
        /* The first five places of a partial Fisher-Yates shuffle: five different
         * cards, uniform over all hands whatever order the deck was left in. */
        int suit[5], rank[5];
        for (int k = 0; k < 5; k++) {
            int j = k + (int)dm_rng_below(&r, (uint32_t)(52 - k));
            int c = deck[j];
            deck[j] = deck[k];
            deck[k] = c;
            suit[k] = c / 13 + 1;
            rank[k] = c % 13 + 1;
            t->cols[2 * k].num[i] = suit[k];
            t->cols[2 * k + 1].num[i] = rank[k];
        }
        t->cols[10].num[i] = rl_poker_class(suit, rank);
    }
    return 0;
}
