/* tdm_packed.cu - our own variant, packed: many episodes per thread, one bit each, and
 * the database cut into chunks so the whole GPU is busy.
 *
 * Grouping. Episodes that share every letter but the first (the suffix a_2..a_L) form a
 * group (tdm_groups.c); one thread advances a whole group at once. The group's state is
 * kept as nested sets, one word each: g[m] (m = 1..L-1) holds the first letters f whose
 * episode (f, suffix) has matched at least m letters, so g[1] >= g[2] >= ... and an
 * episode's state is the number of sets it is in. A letter x, as the word 1 << x, moves
 *   - a first letter:         g[1] |= 1 << x           (state 0 -> 1 for that episode)
 *   - suffix letter a_{m+1}:  g[m+1] = g[m]             (every episode in state m -> m+1)
 *   - the last letter a_L:    done = g[L-1], every g[m] &= ~done, count done.
 * An episode's letters are distinct, so a letter is one of these. Bits for letters that
 * are no first letter of the group (the suffix's own, the padding) ride along as junk:
 * every operation is bitwise, so they never touch another bit, and they are never read.
 * At level 3 that is an OR and a compare-and-move per letter for the group's 24
 * episodes, plus a compare and a branch for the last letter, which the threads of a
 * warp mostly share (groups are ordered by it); compiled, about 12 instructions per
 * letter (docs/records/tdm-performance.md). Completions are counted in bit-sliced
 * counters (bit i of
 * every episode's count in one word); their ripple carry rarely goes past a level or
 * two. The database is first expanded to one word 1 << x per letter (one small kernel
 * per run), so no thread decodes letters.
 *
 * Chunks. Thread (chunk j, group g) counts chunk j for group g. As in the block variants
 * (tdm_span.c), a chunk's result must be known for every state the machine may enter it
 * in; running one copy of the machine per entry state k would cost L times the work.
 * Instead copies 1..L-1 run only until they meet copy 0. With P_k = k + (advances of
 * copy k), while two copies are in different states at most one of them advances on a
 * letter (distinct letters), so P_k - P_0 starts in 1..L-1, moves by at most 1 per
 * letter, and once it reaches 0 or L the states are equal and stay equal. Hence
 * P_0 <= P_k <= P_0 + L throughout, and copy k's count is copy 0's plus d_k, where
 * d_k = (completions of k) - (completions of 0) is 0 or 1: a bit per episode, flipped
 * whenever exactly one of the two completes. When every copy of every thread in a warp
 * equals copy 0 (a warp vote every 16 letters; a few hundred letters at level 3), the
 * copies stop and only copy 0 runs on. The chunk's table for episode f is then
 * count[k] = count_0 + d_k and exit[k] = the state of copy k, packed into one entry: a
 * 32x32 bit transpose turns the counter and state bit planes into one entry per first
 * letter.
 *
 * Compose. One thread per episode walks the chunks in order from state 0:
 * total += count[state], state = exit[state] (tdm_span.c's composition at one entry
 * state). With many chunks, segments of consecutive chunks are composed first, a thread
 * per (segment, episode) from every entry state at once (tdm_packed_plan_segments), and
 * the thread per episode walks the segments. */
#include <stdint.h>

#include <type_traits>

#include <cuda_runtime.h>

#include "tdm/tdm.h"

#define TDM_NB 16 /* counter bits: a chunk of at most 32768 letters completes fewer */

/* Span entries: copy 0's count in the low kShift bits, then per copy k a nibble at
 * kShift + 4k: exit state (3 bits) and d_k (bit 3). */
template <int L>
struct tdm_entry {
    typedef typename std::conditional<(L <= 4), uint32_t, unsigned long long>::type type;
    static constexpr int shift = L <= 4 ? 16 : 32;
};

/* The sets of one group: copy k entered the chunk in state k. */
template <int L>
struct tdm_group_state {
    uint32_t g[L][L > 1 ? L - 1 : 1]; /* g[k][m-1]: at least m letters matched */
    uint32_t d[L];                    /* d_k per episode */
    uint32_t cnt[TDM_NB];
};

__device__ __forceinline__ void tdm_count_add(uint32_t (&cnt)[TDM_NB], uint32_t carry)
{
#pragma unroll
    for (int i = 0; i < TDM_NB; i++) {
        uint32_t c = cnt[i] & carry;
        cnt[i] ^= carry;
        carry = c;
        if (!carry)
            break;
    }
}

/* One letter, bit = 1 << x, for a group with first-letter set first and suffix letter
 * words sb[0..L-2] (sb[m-1] = 1 << a_{m+1}); kCopies: advance copies 1..L-1 too. */
template <int L, bool kCopies>
__device__ __forceinline__ void tdm_packed_letter(uint32_t bit, uint32_t first,
                                                  const uint32_t *sb, tdm_group_state<L> &s)
{
    constexpr int K = kCopies ? L : 1;
    if constexpr (L == 1) {
        uint32_t done = first & bit; /* every machine completes on its only letter */
        if (done)
            tdm_count_add(s.cnt, done);
    } else {
#pragma unroll
        for (int k = 0; k < K; k++)
            s.g[k][0] |= bit;
#pragma unroll
        for (int m = 1; m < L - 1; m++) /* a_{m+1}: state m -> m + 1 */
            if (bit == sb[m - 1])
#pragma unroll
                for (int k = 0; k < K; k++)
                    s.g[k][m] = s.g[k][m - 1];
        if (__builtin_expect(bit == sb[L - 2], 0)) {
            uint32_t done = s.g[0][L - 2];
#pragma unroll
            for (int m = 0; m < L - 1; m++)
                s.g[0][m] &= ~done;
#pragma unroll
            for (int k = 1; k < K; k++) {
                uint32_t dk = s.g[k][L - 2];
                s.d[k] ^= dk ^ done;
#pragma unroll
                for (int m = 0; m < L - 1; m++)
                    s.g[k][m] &= ~dk;
            }
            if (done)
                tdm_count_add(s.cnt, done);
        }
    }
}

/* The 16 letters of four consecutive word vectors. */
template <int L, bool kCopies>
__device__ __forceinline__ void tdm_packed_16(const uint4 (&q)[4], uint32_t first,
                                              const uint32_t *sb, tdm_group_state<L> &s)
{
#pragma unroll
    for (int k = 0; k < 4; k++) {
        tdm_packed_letter<L, kCopies>(q[k].x, first, sb, s);
        tdm_packed_letter<L, kCopies>(q[k].y, first, sb, s);
        tdm_packed_letter<L, kCopies>(q[k].z, first, sb, s);
        tdm_packed_letter<L, kCopies>(q[k].w, first, sb, s);
    }
}

/* Transposes the 32x32 bit matrix a (row i, bit j) in place: afterwards bit i of a[j]
 * is what bit j of a[i] was. */
__device__ __forceinline__ void tdm_transpose32(uint32_t (&a)[32])
{
    uint32_t m = 0x0000ffffu;
#pragma unroll
    for (int w = 16; w >= 1; w >>= 1, m ^= m << w) {
#pragma unroll
        for (int i = 0; i < 32; i++) {
            if (i & w)
                continue;
            uint32_t x = a[i], y = a[i + w];
            a[i] = (x & m) | ((y << w) & ~m);
            a[i + w] = ((x >> w) & m) | (y & ~m);
        }
    }
}

/* Bit b of copy k's state, per episode: the state is the number of nested sets an
 * episode is in (at most L - 1 <= 5, so three bits). */
template <int L>
__device__ __forceinline__ uint32_t tdm_state_plane(const tdm_group_state<L> &s, int k, int b)
{
    uint32_t plane = 0;
#pragma unroll
    for (int m = 1; m < L; m++) { /* episodes in state exactly m */
        uint32_t exact = s.g[k][m - 1] & (m < L - 1 ? ~s.g[k][m] : ~0u);
        if ((m >> b) & 1)
            plane |= exact;
    }
    return plane;
}

/* Expands the database to one word per letter: bits[i] = 1 << sym[i]. */
__global__ void tdm_packed_expand(const uchar4 *__restrict__ db, uint4 *__restrict__ bits,
                                  int64_t nquads)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nquads)
        return;
    uchar4 c = db[i];
    bits[i] = make_uint4(1u << c.x, 1u << c.y, 1u << c.z, 1u << c.w);
}

/* Registers per level: as few as hold the level's state without a spill (ptxas -v,
 * CUDA 13.0, sm_90), so more warps fit an SM; 128 lets a block of 512 threads run. */
template <int L>
__global__ void __maxnreg__(L == 1 ? 48 : L == 2 ? 56 : L == 3 ? 64 : 128)
    tdm_packed_map(const uint4 *__restrict__ bits, int64_t nvec, int64_t chunk_vecs,
                   int64_t nchunks, int gpad, int ngroups, const uint32_t *__restrict__ firsts,
                   const uint32_t *__restrict__ suffixes,
                   typename tdm_entry<L>::type *__restrict__ table)
{
    typedef typename tdm_entry<L>::type entry;
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nchunks * gpad) /* whole warps: gpad and the block are multiples of 32 */
        return;
    const int gi = (int)(tid % gpad);
    const int64_t j = tid / gpad;
    const bool real = gi < ngroups;
    const uint32_t first = real ? firsts[gi] : 0;
    uint32_t sb[L > 1 ? L - 1 : 1];
#pragma unroll
    for (int k = 0; k < L - 1; k++) /* padding lanes wait for letter 30, which never comes */
        sb[k] = 1u << (real ? (suffixes[gi] >> (5 * k)) & 31 : 30);
    tdm_group_state<L> s;
#pragma unroll
    for (int k = 0; k < L; k++) {
#pragma unroll
        for (int m = 1; m < L; m++) /* copy k starts in state k; chunk 0 only in state 0 */
            s.g[k][m - 1] = j > 0 && m <= k ? first : 0;
        s.d[k] = 0;
    }
#pragma unroll
    for (int i = 0; i < TDM_NB; i++)
        s.cnt[i] = 0;

    /* A vector is 4 letters; a step is 16. */
    int64_t v = j * chunk_vecs;
    const int64_t vend = v + chunk_vecs < nvec ? v + chunk_vecs : nvec;
    bool merged = j == 0 || L == 1;
    uint4 q[4];
    while (!merged && v < vend) {
#pragma unroll
        for (int k = 0; k < 4; k++)
            q[k] = __ldg(bits + v + k);
        tdm_packed_16<L, true>(q, first, sb, s);
        v += 4;
        uint32_t diff = 0;
#pragma unroll
        for (int k = 1; k < L; k++)
#pragma unroll
            for (int m = 0; m < L - 1; m++)
                diff |= s.g[k][m] ^ s.g[0][m];
        merged = __all_sync(0xffffffffu, diff == 0);
    }
    for (; v < vend; v += 4) {
#pragma unroll
        for (int k = 0; k < 4; k++)
            q[k] = __ldg(bits + v + k);
        tdm_packed_16<L, false>(q, first, sb, s);
    }
    if (merged)
#pragma unroll
        for (int k = 1; k < L; k++)
#pragma unroll
            for (int m = 0; m < L - 1; m++)
                s.g[k][m] = s.g[0][m];

    /* Counter planes in rows 0..15, then per copy its three state planes and d_k:
     * transposed, row f is the entry of first letter f (in two halves past level 4). */
    uint32_t a[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        a[i] = i < TDM_NB ? s.cnt[i] : 0;
    if constexpr (L > 4) {
        tdm_transpose32(a);
        uint32_t b[32];
#pragma unroll
        for (int i = 0; i < 32; i++) {
            int k = i / 4, p = i % 4;
            b[i] = k >= L ? 0 : p == 3 ? s.d[k] : tdm_state_plane<L>(s, k, p);
        }
        tdm_transpose32(b);
#pragma unroll
        for (int f = 0; f < TDM_ALPHABET; f++)
            table[(j * TDM_ALPHABET + f) * gpad + gi] = (entry)a[f] | (entry)b[f] << 32;
    } else {
#pragma unroll
        for (int k = 0; k < L; k++) {
            a[TDM_NB + 4 * k] = tdm_state_plane<L>(s, k, 0);
            a[TDM_NB + 4 * k + 1] = tdm_state_plane<L>(s, k, 1);
            a[TDM_NB + 4 * k + 2] = tdm_state_plane<L>(s, k, 2);
            a[TDM_NB + 4 * k + 3] = s.d[k];
        }
        tdm_transpose32(a);
#pragma unroll
        for (int f = 0; f < TDM_ALPHABET; f++)
            table[(j * TDM_ALPHABET + f) * gpad + gi] = a[f];
    }
}

/* A run of span entries (chunks or segments: count from state 0 in the low kShift bits,
 * then per entry state k a nibble at kShift + 4k: exit state, and bit 3 the extra
 * completion d_k) walked in order from state *state, adding to *total. The loads do not
 * depend on the state, so several are kept in flight. */
template <typename E, int kShift>
__device__ __forceinline__ void tdm_span_walk(const E *__restrict__ p, int64_t stride, int64_t n,
                                              uint32_t &total, uint32_t &state)
{
    const E low = ((E)1 << kShift) - 1;
#pragma unroll 8
    for (int64_t j = 0; j < n; j++) {
        E v = p[j * stride];
        uint32_t nib = (uint32_t)(v >> (kShift + 4 * state)) & 15;
        total += (uint32_t)(v & low) + (nib >> 3);
        state = nib & 7;
    }
}

/* Segments: thread (segment s, first letter f, group gi) composes chunks
 * [s * seglen, (s + 1) * seglen) of entry (f, gi) from every entry state k at once, into
 * one entry of the same form with 32 count bits. The completions from state k exceed
 * those from state 0 by 0 or 1 over any stretch of letters (the argument of the chunks'
 * copies, above), so the form holds. */
template <int L>
__global__ void tdm_packed_segment(const typename tdm_entry<L>::type *__restrict__ table,
                                   int64_t nchunks, int64_t seglen, int64_t nseg, int gpad,
                                   unsigned long long *__restrict__ seg)
{
    typedef typename tdm_entry<L>::type entry;
    constexpr int kShift = tdm_entry<L>::shift;
    const int64_t slots = (int64_t)TDM_ALPHABET * gpad;
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nseg * slots)
        return;
    const int64_t sg = i / slots, r = i % slots, j0 = sg * seglen;
    const int64_t n = j0 + seglen < nchunks ? seglen : nchunks - j0;
    const entry *p = table + j0 * slots + r;
    const entry low = ((entry)1 << kShift) - 1;
    uint32_t total[L], state[L];
#pragma unroll
    for (int k = 0; k < L; k++)
        total[k] = 0, state[k] = (uint32_t)k;
#pragma unroll 4
    for (int64_t j = 0; j < n; j++) {
        entry v = p[j * slots];
#pragma unroll
        for (int k = 0; k < L; k++) {
            uint32_t nib = (uint32_t)(v >> (kShift + 4 * state[k])) & 15;
            total[k] += (uint32_t)(v & low) + (nib >> 3);
            state[k] = nib & 7;
        }
    }
    unsigned long long e = total[0];
#pragma unroll
    for (int k = 0; k < L; k++)
        e |= (unsigned long long)(state[k] | (total[k] - total[0]) << 3) << (32 + 4 * k);
    seg[i] = e;
}

/* Compose: one thread per episode walks the spans (the chunks, or the segments when
 * there are some) in order from state 0. */
template <typename E, int kShift>
__global__ void tdm_packed_compose(const E *__restrict__ table, int64_t nspans, int gpad,
                                   int ngroups, const int32_t *__restrict__ slot,
                                   uint32_t *__restrict__ out)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (int64_t)TDM_ALPHABET * gpad)
        return;
    const int f = (int)(i / gpad), gi = (int)(i % gpad);
    if (gi >= ngroups)
        return;
    const int32_t e = slot[gi * TDM_ALPHABET + f];
    if (e < 0)
        return;
    uint32_t total = 0, state = 0;
    tdm_span_walk<E, kShift>(table + i, (int64_t)TDM_ALPHABET * gpad, nspans, total, state);
    out[e] = total;
}

template <int L>
static int tdm_packed_run_at(const tdm_packed_launch *a, dm_err *err)
{
    typedef typename tdm_entry<L>::type entry;
    cudaStream_t s = (cudaStream_t)a->stream;
    int64_t nquads = (a->nvec + 1) * 4; /* the database and its pad vector */
    tdm_packed_expand<<<(unsigned)((nquads + 255) / 256), 256, 0, s>>>(
        static_cast<const uchar4 *>(a->db), static_cast<uint4 *>(a->bits), nquads);
    if (DM_CUDA(err, cudaGetLastError()))
        return -1;
    int64_t threads = a->nchunks * a->gpad;
    tdm_packed_map<L><<<(unsigned)((threads + a->block - 1) / a->block), a->block, 0, s>>>(
        static_cast<const uint4 *>(a->bits), a->nvec * 4, a->chunk / 4, a->nchunks,
        (int)a->gpad, (int)a->ngroups, a->first, a->suffix, static_cast<entry *>(a->table));
    if (DM_CUDA(err, cudaGetLastError()))
        return -1;
    int64_t slots = TDM_ALPHABET * a->gpad;
    unsigned grid = (unsigned)((slots + 255) / 256);
    if (a->nseg > 1) {
        int64_t segs = a->nseg * slots;
        tdm_packed_segment<L><<<(unsigned)((segs + 255) / 256), 256, 0, s>>>(
            static_cast<const entry *>(a->table), a->nchunks, a->seglen, a->nseg,
            (int)a->gpad, static_cast<unsigned long long *>(a->seg));
        if (DM_CUDA(err, cudaGetLastError()))
            return -1;
        tdm_packed_compose<unsigned long long, 32><<<grid, 256, 0, s>>>(
            static_cast<const unsigned long long *>(a->seg), a->nseg, (int)a->gpad,
            (int)a->ngroups, a->slot, a->out);
    } else {
        tdm_packed_compose<entry, tdm_entry<L>::shift><<<grid, 256, 0, s>>>(
            static_cast<const entry *>(a->table), a->nchunks, (int)a->gpad, (int)a->ngroups,
            a->slot, a->out);
    }
    return DM_CUDA(err, cudaGetLastError());
}

extern "C" int tdm_packed_run(const tdm_packed_launch *a, dm_err *err)
{
    if (a->block % 32 != 0 || a->block > TDM_PACKED_MAX_BLOCK || a->gpad % 32 != 0 ||
        a->chunk % 16 != 0)
        return dm_err_set(err, DM_EINPUT,
                          "packed: block %d must be a multiple of 32 up to %d, groups %lld a "
                          "multiple of 32, chunk %lld of 16",
                          a->block, TDM_PACKED_MAX_BLOCK, (long long)a->gpad,
                          (long long)a->chunk);
    switch (a->level) {
    case 1: return tdm_packed_run_at<1>(a, err);
    case 2: return tdm_packed_run_at<2>(a, err);
    case 3: return tdm_packed_run_at<3>(a, err);
    case 4: return tdm_packed_run_at<4>(a, err);
    case 5: return tdm_packed_run_at<5>(a, err);
    case 6: return tdm_packed_run_at<6>(a, err);
    }
    return dm_err_set(err, DM_EINPUT, "packed counts episodes of 1 to %d letters, not %d",
                      TDM_PACKED_MAX_LEVEL, a->level);
}
