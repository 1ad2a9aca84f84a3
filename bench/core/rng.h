/* rng.h - the seeded pseudo-random numbers of every generator: splitmix64 (one 64-bit
 * state; also what seeds the others) and xoshiro256** (four words, for long streams of
 * draws), with uniform doubles in [0, 1) and integers below k. Equal seeds give equal
 * sequences on every machine. Not cryptographic. */
#ifndef DM_RNG_H
#define DM_RNG_H

#include <stdint.h>

/* The next splitmix64 output, advancing *state. */
static inline uint64_t dm_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform double in [0, 1) from a 64-bit draw (its top 53 bits). */
static inline double dm_rng_unit_of(uint64_t draw)
{
    return (double)(draw >> 11) * 0x1p-53;
}

/* A draw in [0, k) from a 64-bit draw: its top 32 bits times k, shifted back (bias
 * below k / 2^32). */
static inline uint32_t dm_rng_below_of(uint64_t draw, uint32_t k)
{
    return (uint32_t)(((draw >> 32) * k) >> 32);
}

typedef struct dm_rng {
    uint64_t s[4];
} dm_rng;

/* A xoshiro256** state seeded from seed through splitmix64. */
static inline dm_rng dm_rng_seed(uint64_t seed)
{
    dm_rng r;
    for (int i = 0; i < 4; i++)
        r.s[i] = dm_splitmix64(&seed);
    return r;
}

static inline uint64_t dm_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The next xoshiro256** output. */
static inline uint64_t dm_rng_next(dm_rng *r)
{
    uint64_t *s = r->s, out = dm_rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = dm_rng_rotl(s[3], 45);
    return out;
}

/* A uniform double in [0, 1). */
static inline double dm_rng_unit(dm_rng *r)
{
    return dm_rng_unit_of(dm_rng_next(r));
}

/* A uniform integer in [0, k). */
static inline uint32_t dm_rng_below(dm_rng *r, uint32_t k)
{
    return dm_rng_below_of(dm_rng_next(r), k);
}

#endif
