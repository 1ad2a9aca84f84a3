/* tdm_fsm.cuh - the counting machine as the thread- and block-parallel kernels run it:
 * one bit moving up a 32-bit word, with the transition masks that move it.
 *
 * A machine for episode a_0..a_{L-1} that has advanced P times (P = L * count + state)
 * is the word w = 1 << (P - base): bit m stands for "P - base = m", so the letter it
 * waits for is a_{(m + base) mod L}, and base is kept a multiple of L. The transition
 * mask of letter c has bit m set for every m whose residue r = m mod L has a_r == c,
 * so one step is
 *
 *     w += w & mask[c]
 *
 * (the bit moves up one place exactly when c is the letter it waits for). After every 8
 * letters the bit is brought back down by shift = L * ceil(8 / L) places when it has
 * reached them (base += shift), so it never passes bit shift + 7 <= 21 (L <= 12). At
 * the end P = base + index of the bit: count = P / L, state = P mod L. The machine is
 * tdm_fsm_count's, with its advance-only transitions. Letter codes are 0..25; the
 * padding code TDM_PAD (31) has an all-zero mask. */
#ifndef DM_TDM_FSM_CUH
#define DM_TDM_FSM_CUH

#include <stdint.h>

#include "tdm/tdm.h"

/* Bits m of a word with m mod level == r. */
__host__ __device__ inline uint32_t tdm_residue_mask(int r, int level)
{
    uint32_t m = 0;
    for (int b = r; b < 32; b += level)
        m |= 1u << b;
    return m;
}

/* How far the bit is brought down, a multiple of level and at least 8. */
__host__ __device__ constexpr int tdm_renorm_shift(int level)
{
    return level * ((8 + level - 1) / level);
}

/* One machine word: the bit and how far it has been brought down. */
struct tdm_word {
    uint32_t w;
    uint32_t base;
};

__device__ __forceinline__ void tdm_renorm(tdm_word &m, int shift)
{
    if (m.w >> shift) {
        m.w >>= shift;
        m.base += shift;
    }
}

/* P, the machine's advances (plus its entry state). */
__device__ __forceinline__ uint32_t tdm_progress(const tdm_word &m)
{
    return m.base + (uint32_t)(__ffs(m.w) - 1);
}

#endif
