/* rl_bitmap.cu - the bitmap evaluation's kernels (rl_bitmap.h). conditions, two kernels:
 * ranks, a block per (256 words of the chunk, segment of a column's thresholds), each
 * word's 32 values ranked down the segment's search tree, the ranks' bits kept as planes;
 * walk, a block per (256 words, segment, part of its conditions), four words a lane, the
 * ranks walked upwards down a binary trie of the planes, each condition's words stored
 * at its rank, coalesced. rules: a warp per (rule, 256 words), eight words a lane, every
 * lane on the same token: the RPN over the conditions' words with the stack in shared
 * memory (its top in registers), each condition's words copied into a ring in shared
 * memory conditions ahead of their use, each token's popcount summed over the warp
 * (redux) and added to its sum. fitness: the contingency table and measures of each rule
 * from the sums, with the host's rl_measures. Then the launchers. */
#include <cuda_runtime.h>

#include "kernel_block.cuh"
#include "rules/rl_bitmap.h"
#include "rules/rl_measures.h"

#define RL_FULL 0xffffffffu

/* ---- conditions ------------------------------------------------------------------- */

/* A block of the conditions kernel: 2 warps, each 128 words of one segment, four
 * neighbouring words a lane (loaded and stored as one 128-bit word): 256 words, a
 * chunk's width a multiple of them. */
#define RL_BM_COND_WARPS 2
#define RL_BM_LANE_WORDS 4
#define RL_BM_WARP_WORDS (32 * RL_BM_LANE_WORDS)
#define RL_BM_PARTS 4

/* The bits of instances [32 w, 32 w + 32) that exist among n. */
__device__ static uint32_t rl_bm_valid(int64_t w, int64_t n)
{
    int64_t i = w * 32;
    return i + 32 <= n ? RL_FULL : i < n ? (1u << (n - i)) - 1u : 0u;
}

/* A lane's words: for each, plane[b] the instances whose rank has bit b, node[k] those
 * whose rank has the current rank's bits from the top down to bit 3 - k (node[3]: that
 * rank), lt those of the ranks below it, valid those that exist. */
struct rl_bm_lane {
    uint32_t plane[RL_BM_LANE_WORDS][RL_BM_BITS], node[RL_BM_LANE_WORDS][4];
    uint32_t lt[RL_BM_LANE_WORDS], valid[RL_BM_LANE_WORDS];
};

/* The trie at rank v, a multiple of 8: its top bits' node from the planes (v the same in
 * every lane), then down its low three bits, all 0. */
__device__ static void rl_bm_group(rl_bm_lane &l, int v)
{
#pragma unroll
    for (int j = 0; j < RL_BM_LANE_WORDS; j++) {
        uint32_t t = l.valid[j];
#pragma unroll
        for (int b = RL_BM_BITS - 1; b >= 3; b--)
            t &= ~(l.plane[j][b] ^ (0u - (uint32_t)(v >> b & 1)));
        l.node[j][0] = t;
#pragma unroll
        for (int k = 1; k < 4; k++)
            l.node[j][k] = l.node[j][k - 1] & ~l.plane[j][3 - k];
    }
}

/* The trie from rank v - 1's leaf to v's, v's lowest set bit H (at most 2; v's bits below
 * it 0): only the levels of bit H and below change. */
template <int H> __device__ static void rl_bm_down(rl_bm_lane &l)
{
#pragma unroll
    for (int j = 0; j < RL_BM_LANE_WORDS; j++) {
        l.node[j][3 - H] = l.node[j][2 - H] & l.plane[j][H];
#pragma unroll
        for (int b = H - 1; b >= 0; b--)
            l.node[j][3 - b] = l.node[j][2 - b] & ~l.plane[j][b];
    }
}

/* The lane's instances whose rank is below v (the same in every lane), from the planes,
 * into lt: a comparison bit by bit from the top, each bit's branch taken by the whole
 * warp. */
__device__ static void rl_bm_below(const rl_bm_lane &l, int v, uint32_t (&lt)[RL_BM_LANE_WORDS])
{
    uint32_t eq[RL_BM_LANE_WORDS];
#pragma unroll
    for (int j = 0; j < RL_BM_LANE_WORDS; j++)
        lt[j] = 0, eq[j] = RL_FULL;
#pragma unroll
    for (int b = RL_BM_BITS - 1; b >= 0; b--)
        if (v >> b & 1) {
#pragma unroll
            for (int j = 0; j < RL_BM_LANE_WORDS; j++) {
                lt[j] |= eq[j] & ~l.plane[j][b];
                eq[j] &= l.plane[j][b];
            }
        } else {
#pragma unroll
            for (int j = 0; j < RL_BM_LANE_WORDS; j++)
                eq[j] &= ~l.plane[j][b];
        }
}

static_assert(RL_BM_BITS >= 3 && RL_BM_LT == 0 && RL_BM_GE == 1 && RL_BM_EQ == 2 &&
                  RL_BM_LANE_WORDS == 4,
              "rl_bm_group starts a group of eight ranks; rl_bm_emit_at decodes kinds by "
              "bits and loads and stores a lane's words as a uint4");

/* A warp's walk through its segment's emissions (put[0..n), by rank, each a uint2 of
 * rl_bm_put's): the current one, the next (loaded ahead), and the current one's rank
 * (past any rank after the last). */
struct rl_bm_walk {
    const uint2 *put;
    int n, k, at;
    uint2 cur, next;
};

__device__ static void rl_bm_walk_next(rl_bm_walk &w)
{
    w.cur = w.next;
    if (++w.k + 1 < w.n)
        w.next = w.put[w.k + 1];
    w.at = w.k < w.n ? RL_BM_EMIT_V(w.cur.y) : RL_BM_SEG + 1;
}

/* Stores the lane's words of each emission at rank v (the trie at its leaf) as one
 * 128-bit word, at out (the lane's first word) plus the emission's row. */
__device__ static void rl_bm_emit_at(rl_bm_walk &w, int v, const rl_bm_lane &l, uint32_t *out)
{
    while (w.at == v) {
        const uint32_t code = w.cur.y;
        const int kind = RL_BM_EMIT_KIND(code);
        uint32_t word[RL_BM_LANE_WORDS];
        if (kind == RL_BM_IN) {
            rl_bm_below(l, RL_BM_EMIT_W(code), word);
#pragma unroll
            for (int j = 0; j < RL_BM_LANE_WORDS; j++)
                word[j] = l.lt[j] & ~word[j];
        } else {
            /* LT: lt; GE: lt ^ valid; EQ: the leaf. */
            const uint32_t eq = 0u - (uint32_t)(kind >> 1), ge = 0u - (uint32_t)(kind & 1);
#pragma unroll
            for (int j = 0; j < RL_BM_LANE_WORDS; j++)
                word[j] = ((l.node[j][3] & eq) | (l.lt[j] & ~eq)) ^ (l.valid[j] & ge);
        }
        reinterpret_cast<uint4 *>(out)[w.cur.x / 4] =
            make_uint4(word[0], word[1], word[2], word[3]);
        rl_bm_walk_next(w);
    }
}

/* Rank v + J's leaf: its emissions, its instances added to lt, then the trie one rank on
 * (the next rank's lowest set bit H; none after the eighth). */
template <int J, int H>
__device__ static void rl_bm_leaf(rl_bm_walk &w, int v, rl_bm_lane &l, uint32_t *out)
{
    rl_bm_emit_at(w, v + J, l, out);
#pragma unroll
    for (int j = 0; j < RL_BM_LANE_WORDS; j++)
        l.lt[j] |= l.node[j][3];
    if constexpr (H >= 0)
        rl_bm_down<H>(l);
}

/* A block per (256 words of the chunk, segment), a warp 32 words: each word's values
 * ranked among the segment's thresholds (their tree in shared memory, rl_bm_rank's
 * descent), 32 instances at a time, each level's choices (the ranks' bits) gathered by
 * a ballot into the word's lane, then its planes stored: planes[(segment x RL_BM_BITS +
 * b) x width + word]. */
__global__ void __launch_bounds__(256)
    rl_bm_ranks_kernel(const double *table, int64_t pitch, int64_t n, int64_t w0,
                       int64_t width, const rl_bm_seg *seg, const double *thr,
                       uint32_t *planes)
{
    __shared__ double s[RL_BM_SEG];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const rl_bm_seg g = seg[blockIdx.y];
    for (int i = threadIdx.x; i < RL_BM_SEG; i += blockDim.x) {
        const int k = rl_bm_tree_at(i);
        s[i] = k < g.nthr ? thr[g.thr0 + k] : __longlong_as_double(0x7ff0000000000000LL);
    }
    __syncthreads();
    const int64_t wb = (int64_t)blockIdx.x * 256 + warp * 32; /* the warp's first word */
    const double *x = table + (int64_t)g.attr * pitch;
    uint32_t plane[RL_BM_BITS] = {};
#pragma unroll 4
    for (int w = 0; w < 32; w++) {
        const int64_t at = (w0 + wb + w) * 32 + lane;
        const double v = at < n ? __ldcs(x + at) : 0.0;
        int i = 0;
#pragma unroll
        for (int b = RL_BM_BITS - 1; b >= 0; b--) { /* a level down: the rank's bit b */
            i = rl_bm_descend(s, i, v);
            const uint32_t bits = __ballot_sync(RL_FULL, !(i & 1));
            plane[b] = lane == w ? bits : plane[b];
        }
    }
    uint32_t *out = planes + (int64_t)blockIdx.y * RL_BM_BITS * width + wb + lane;
#pragma unroll
    for (int b = 0; b < RL_BM_BITS; b++)
        out[b * width] = plane[b];
}

/* A block per (256 words of the chunk, segment, part of the segment's emissions: the
 * parts, RL_BM_PARTS of them, as many emissions each, give the GPU more warps than the
 * segments alone), a warp 128 words, four a lane: their planes loaded, the ranks below the
 * part's first compared at once, then the ranks walked to the part's last, eight a step
 * (the trie's top from the planes, its moves within the eight known when compiled), each
 * emission's words stored at its rank: a warp's stores are 512 bytes of one bitmap. */
__global__ void __launch_bounds__(RL_BM_COND_WARPS * 32)
    rl_bm_conditions_kernel(int64_t n, int64_t w0, int64_t width, const rl_bm_seg *seg,
                            const rl_bm_put *put, const uint32_t *planes, uint32_t *bm)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const rl_bm_seg g = seg[blockIdx.y];
    /* The lane's first word in the chunk. */
    const int64_t wl = ((int64_t)blockIdx.x * RL_BM_COND_WARPS + warp) * RL_BM_WARP_WORDS +
                       RL_BM_LANE_WORDS * lane;
    rl_bm_lane l;
    const uint32_t *pl = planes + (int64_t)blockIdx.y * RL_BM_BITS * width + wl;
#pragma unroll
    for (int b = 0; b < RL_BM_BITS; b++) {
        const uint4 four = __ldcs(reinterpret_cast<const uint4 *>(pl + b * width));
        l.plane[0][b] = four.x;
        l.plane[1][b] = four.y;
        l.plane[2][b] = four.z;
        l.plane[3][b] = four.w;
    }
#pragma unroll
    for (int j = 0; j < RL_BM_LANE_WORDS; j++)
        l.valid[j] = rl_bm_valid(w0 + wl + j, n);
    /* The block's part of the segment's emissions, from the group of eight ranks of its
     * first. */
    const int e0 = (int)((int64_t)g.nemit * blockIdx.z / gridDim.z),
              e1 = (int)((int64_t)g.nemit * (blockIdx.z + 1) / gridDim.z);
    if (e0 == e1)
        return;
    const uint2 *p = reinterpret_cast<const uint2 *>(put + g.emit0 + e0);
    rl_bm_walk e = {p, e1 - e0, -1, 0, {}, p[0]};
    rl_bm_walk_next(e);
    const int first = e.at & ~7, last = RL_BM_EMIT_V(put[g.emit0 + e1 - 1].code);
    rl_bm_below(l, first, l.lt);
#pragma unroll
    for (int j = 0; j < RL_BM_LANE_WORDS; j++)
        l.lt[j] &= l.valid[j];
    uint32_t *out = bm + wl;
    for (int v = first; v <= last; v += 8) {
        rl_bm_group(l, v);
        rl_bm_leaf<0, 0>(e, v, l, out);
        rl_bm_leaf<1, 1>(e, v, l, out);
        rl_bm_leaf<2, 0>(e, v, l, out);
        rl_bm_leaf<3, 2>(e, v, l, out);
        rl_bm_leaf<4, 0>(e, v, l, out);
        rl_bm_leaf<5, 1>(e, v, l, out);
        rl_bm_leaf<6, 0>(e, v, l, out);
        rl_bm_leaf<7, -1>(e, v, l, out);
    }
}

extern "C" int rl_bm_conditions(const double *table, int64_t pitch, int64_t n, int64_t w0,
                                int64_t width, int nsegs, const rl_bm_seg *seg,
                                const double *thr, const rl_bm_put *put, uint32_t *planes,
                                uint32_t *bm, void *stream, dm_err *err)
{
    static_assert(RL_BM_COND_WARPS * RL_BM_WARP_WORDS == 256, "a block is 256 words");
    const dim3 grid((unsigned)(width / 256), (unsigned)nsegs),
        parts((unsigned)(width / 256), (unsigned)nsegs, RL_BM_PARTS);
    cudaStream_t st = (cudaStream_t)stream;
    rl_bm_ranks_kernel<<<grid, 256, 0, st>>>(table, pitch, n, w0, width, seg, thr, planes);
    rl_bm_conditions_kernel<<<parts, RL_BM_COND_WARPS * 32, 0, st>>>(n, w0, width, seg, put,
                                                                     planes, bm);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

/* ---- rules ------------------------------------------------------------------------ */

/* A lane's eight words of a bitmap: quad q (words 4q .. 4q + 3 of the chunk) and quad
 * q + 32 (128 words on), so that a warp's loads of each half are 512 contiguous bytes. */
struct rl_w8 {
    uint4 a, b;
};

__device__ static uint4 rl_u4(uint4 x, uint4 y, int op)
{
    return op == RL_BM_AND ? make_uint4(x.x & y.x, x.y & y.y, x.z & y.z, x.w & y.w)
         : op == RL_BM_OR  ? make_uint4(x.x | y.x, x.y | y.y, x.z | y.z, x.w | y.w)
                           : make_uint4(x.x ^ y.x, x.y ^ y.y, x.z ^ y.z, x.w ^ y.w);
}

/* x op y, word by word, op RL_BM_AND, RL_BM_OR or (any other) exclusive or. */
__device__ static rl_w8 rl_w8_op(rl_w8 x, rl_w8 y, int op)
{
    return {rl_u4(x.a, y.a, op), rl_u4(x.b, y.b, op)};
}

/* The instances of a whole warp's eight words a lane: their popcounts summed over the
 * warp (one redux instruction from 8.0 on). */
__device__ static unsigned rl_w8_popc(rl_w8 x)
{
    unsigned c = (unsigned)(__popc(x.a.x) + __popc(x.a.y) + __popc(x.a.z) + __popc(x.a.w) +
                            __popc(x.b.x) + __popc(x.b.y) + __popc(x.b.z) + __popc(x.b.w));
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(RL_FULL, c);
#else
    for (int d = 16; d > 0; d >>= 1)
        c += __shfl_xor_sync(RL_FULL, c, d);
    return c;
#endif
}

/* A row of a warp's shared memory: its lanes' eight words each, a lane's first four at
 * row[lane] and the other four at row[32 + lane], so that a warp's 16-byte accesses are
 * 512 contiguous bytes (no bank conflict). */
#define RL_BM_ROW 64
__device__ static rl_w8 rl_row_get(const uint4 *row, int lane)
{
    return {row[lane], row[32 + lane]};
}

__device__ static void rl_row_set(uint4 *row, int lane, rl_w8 x)
{
    row[lane] = x.a;
    row[32 + lane] = x.b;
}

/* 16 bytes from global src to shared dst, asynchronously from 8.0 on (cp.async, through
 * the L2 cache only; complete after a wait for its group), else at once. */
__device__ static void rl_cp16(uint4 *dst, const uint4 *src)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                     (unsigned)__cvta_generic_to_shared(dst)),
                 "l"(__cvta_generic_to_global(src))
                 : "memory");
#else
    *dst = __ldcg(src);
#endif
}

/* The copies the thread has asked since its last commit, made a group. */
__device__ static void rl_cp_commit(void)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

/* Waits until at most N of the thread's groups of copies are incomplete. */
template <int N> __device__ static void rl_cp_wait(void)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/* A rule's conditions' words coming to a warp: condition k's (the rule's k-th of ncl, its
 * bitmap at bm + off[k]) into row k % A of the warp's ring in shared memory, asked for A
 * conditions before it is taken (A, rl_bm_rules_args.ahead, 1 or 2), a group of copies a
 * condition (empty past the last), so that a warp keeps loads in flight without holding
 * their words in registers. Each lane copies and reads only its own words. */
template <int A> struct rl_bm_feed {
    uint4 *ring;
    const uint32_t *bm, *off;
    int64_t q; /* the lane's first quad */
    int ncl, ci, lane; /* ci: the next condition to take */
};

template <int A> __device__ static void rl_bm_feed_ask(rl_bm_feed<A> &f, int k)
{
    if (k < f.ncl) {
        const uint4 *src = reinterpret_cast<const uint4 *>(f.bm + __ldg(f.off + k)) + f.q;
        uint4 *row = f.ring + (k % A) * RL_BM_ROW;
        rl_cp16(row + f.lane, src);
        rl_cp16(row + 32 + f.lane, src + 32);
    }
    rl_cp_commit();
}

/* The next condition's words (its group of copies complete). */
template <int A> __device__ static rl_w8 rl_bm_feed_take(const rl_bm_feed<A> &f)
{
    rl_cp_wait<A - 1>();
    return rl_row_get(f.ring + (f.ci % A) * RL_BM_ROW, f.lane);
}

/* The taken condition's row asked again, for the condition A on; called once its words
 * are used (the row's reads complete). */
template <int A> __device__ static void rl_bm_feed_done(rl_bm_feed<A> &f)
{
    rl_bm_feed_ask(f, f.ci + A);
    f.ci++;
}

/* The bits of the instances that exist among n of the lane's eight words, the first w. */
__device__ static rl_w8 rl_w8_valid(int64_t w, int64_t n)
{
    return {make_uint4(rl_bm_valid(w, n), rl_bm_valid(w + 1, n), rl_bm_valid(w + 2, n),
                       rl_bm_valid(w + 3, n)),
            make_uint4(rl_bm_valid(w + 128, n), rl_bm_valid(w + 129, n),
                       rl_bm_valid(w + 130, n), rl_bm_valid(w + 131, n))};
}

/* The complement of x among the instances that exist: ~x where every word is whole
 * (FULL), else x ^ their bits (the lane's first word w, n instances). */
template <bool FULL> __device__ static rl_w8 rl_w8_not(rl_w8 x, int64_t w, int64_t n)
{
    const uint4 ones = make_uint4(RL_FULL, RL_FULL, RL_FULL, RL_FULL);
    return FULL ? rl_w8_op(x, {ones, ones}, -1) : rl_w8_op(x, rl_w8_valid(w, n), -1);
}

/* A warp's walk of one expression's RPN, code[0..n), on its lane's eight words (the first
 * w of the table's, nins instances): the stack's top in top, the rest in rows of stack;
 * each token's support on them added to sup[k] (lane 0, a reduction the sums' adds wait
 * for no answer of). The conditions' words come in order from f; the next token's code
 * is read while one is applied. */
template <bool FULL, int A>
__device__ static rl_w8 rl_bm_expr(const uint8_t *code, int n, rl_bm_feed<A> &f, int64_t w,
                                   int64_t nins, uint4 *stack, unsigned long long *sup)
{
    rl_w8 top = {};
    int sp = 0;
    unsigned op = __ldg(code);
    for (int k = 0; k < n; k++) {
        const unsigned cur = op;
        if (k + 1 < n)
            op = __ldg(code + k + 1);
        const bool cond = (cur & 3u) == RL_BM_COND;
        if (cond) {
            if (k > 0)
                rl_row_set(stack + (sp++) * RL_BM_ROW, f.lane, top);
            top = rl_bm_feed_take(f);
            if (cur & RL_BM_NEG)
                top = rl_w8_not<FULL>(top, w, nins);
        } else if (cur == RL_BM_NOT) {
            top = rl_w8_not<FULL>(top, w, nins);
        } else {
            top = rl_w8_op(top, rl_row_get(stack + (--sp) * RL_BM_ROW, f.lane), (int)cur);
        }
        unsigned s = rl_w8_popc(top);
        if (f.lane == 0)
            atomicAdd(sup + k, (unsigned long long)s);
        if (cond)
            rl_bm_feed_done(f);
    }
    return top;
}

/* Rule u (index r) on the lane's eight words from quad q of the chunk, the first w of the
 * table's (FULL: every instance of the warp's words exists), its conditions' words
 * through the warp's ring. */
template <bool FULL, int A>
__device__ static void rl_bm_rule_run(const rl_bm_rules_args &a, const rl_bm_rule &u, int r,
                                      const uint32_t *bm, int64_t q, int64_t w, int64_t nins,
                                      uint4 *ring, uint4 *stack, int lane)
{
    const uint8_t *code = a.code + u.tok0;
    rl_bm_feed<A> f = {ring, bm, a.off + u.cl0, q, u.ncl, 0, lane};
    for (int k = 0; k < A; k++)
        rl_bm_feed_ask(f, k);
    rl_w8 ante = rl_bm_expr<FULL>(code, u.nante, f, w, nins, stack, a.sup + u.tok0);
    rl_w8 cons =
        rl_bm_expr<FULL>(code + u.nante, u.ncons, f, w, nins, stack, a.sup + u.tok0 + u.nante);
    unsigned s = rl_w8_popc(rl_w8_op(ante, cons, RL_BM_AND));
    if (lane == 0)
        atomicAdd(a.nac + r, (unsigned long long)s);
}

/* Shared memory a warp, in rows (RL_BM_ROW uint4s): its ring of conditions' words, ahead
 * rows, then its stack, depth - 1 levels. */
__host__ __device__ static int rl_bm_warp_rows(int ahead, int depth)
{
    return ahead + (depth > 1 ? depth - 1 : 0);
}

extern "C" int rl_bm_warp_smem(const rl_bm_rules_args *a)
{
    return rl_bm_warp_rows(a->ahead, a->depth) * RL_BM_ROW * (int)sizeof(uint4);
}

/* A warp a rule over a run of 256 words of the chunk (a block's runs along x, its rules
 * along y), its conditions' words copied A ahead (a.ahead). Bounded to 64 registers a
 * thread, so that a block may have 1,024. */
template <int A>
__global__ void __launch_bounds__(1024)
    rl_bm_rules_kernel(rl_bm_rules_args a, const uint32_t *bm, int64_t n, int64_t w0)
{
    extern __shared__ uint4 smem[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int r = blockIdx.y * (blockDim.x >> 5) + warp;
    if (r >= a.nrules)
        return;
    uint4 *ring = smem + warp * rl_bm_warp_rows(A, a.depth) * RL_BM_ROW,
          *stack = ring + A * RL_BM_ROW;
    const rl_bm_rule u = a.rule[r];
    const int64_t run = blockIdx.x, q = run * 64 + lane, w = w0 + 4 * q;
    if ((w0 + run * 256 + 256) * 32 <= n)
        rl_bm_rule_run<true, A>(a, u, r, bm, q, w, n, ring, stack, lane);
    else
        rl_bm_rule_run<false, A>(a, u, r, bm, q, w, n, ring, stack, lane);
}

extern "C" int rl_bm_smem_limit(int *bytes, dm_err *err)
{
    int dev;
    return DM_CUDA(err, cudaGetDevice(&dev)) ||
                   DM_CUDA(err, cudaDeviceGetAttribute(
                                    bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev))
               ? DM_ERUNTIME
               : 0;
}

extern "C" int rl_bm_allow(const rl_bm_rules_args *a, int warps, dm_err *err)
{
    return DM_CUDA(err, cudaFuncSetAttribute(a->ahead == 2 ? rl_bm_rules_kernel<2>
                                                           : rl_bm_rules_kernel<1>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             warps * rl_bm_warp_smem(a)))
               ? DM_ERUNTIME
               : 0;
}

extern "C" int rl_bm_rules(const rl_bm_rules_args *a, const uint32_t *bm, int64_t n,
                           int64_t w0, int64_t width, int warps, void *stream, dm_err *err)
{
    const dim3 grid((unsigned)(width / 256), (unsigned)((a->nrules + warps - 1) / warps));
    const size_t smem = (size_t)warps * (size_t)rl_bm_warp_smem(a);
    cudaStream_t st = (cudaStream_t)stream;
    if (a->ahead == 2)
        rl_bm_rules_kernel<2><<<grid, warps * 32, smem, st>>>(*a, bm, n, w0);
    else
        rl_bm_rules_kernel<1><<<grid, warps * 32, smem, st>>>(*a, bm, n, w0);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

extern "C" int rl_bm_max_block(void)
{
    return dm_kernel_max_block(rl_bm_rules_kernel<2>, 1024) / 32 * 32;
}

/* ---- fitness ---------------------------------------------------------------------- */

__global__ void rl_bm_fitness_kernel(rl_bm_rules_args a, int64_t n, rl_rule_result *fit)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= a.nrules)
        return;
    const rl_bm_rule u = a.rule[r];
    rl_rule_result f = {};
    f.n_a = (int64_t)a.sup[u.tok0 + u.nante - 1];
    f.n_c = (int64_t)a.sup[u.tok0 + u.nante + u.ncons - 1];
    f.n_ac = (int64_t)a.nac[r];
    f.n_anc = f.n_a - f.n_ac;
    f.n_nac = f.n_c - f.n_ac;
    f.n_nanc = n - f.n_a - f.n_c + f.n_ac;
    rl_measures(&f, n);
    fit[r] = f;
}

extern "C" int rl_bm_fitness(const rl_bm_rules_args *a, int64_t n, rl_rule_result *fit,
                             void *stream, dm_err *err)
{
    rl_bm_fitness_kernel<<<(unsigned)((a->nrules + 127) / 128), 128, 0,
                           (cudaStream_t)stream>>>(*a, n, fit);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}
