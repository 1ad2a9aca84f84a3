/* rl_bitmap.cu - the bitmap evaluation's kernels (rl_bitmap.h). conditions: a block per
 * (64 words of the chunk, column): its warps sort each word's 32 values of the column
 * with their bits across the lanes (bitonic, by shuffles) and keep, per word, the sorted
 * values and M[k], the bits of the k smallest; then two words a lane, a warp per run of
 * the column's conditions in the plan's order, along which a side's count never falls:
 * each lane walks its words' sorted values to the next counts, and each condition's
 * words M[upper] & ~M[lower] are stored coalesced. rules: a warp per
 * (rule, 256 words), eight words a lane, every lane on the same token: the RPN over the
 * conditions' words with the stack in shared memory (its top in registers), the next
 * condition's words loaded while the current one is used, each token's popcount summed
 * over the warp (redux) and added to its sum. fitness:
 * the contingency table and measures of each rule from the sums, with the host's
 * rl_measures. Then the launchers. */
#include <cuda_runtime.h>

#include "kernel_block.cuh"
#include "rules/rl_bitmap.h"
#include "rules/rl_measures.h"

#define RL_FULL 0xffffffffu

/* ---- conditions ------------------------------------------------------------------- */

/* Words a lane of the conditions kernel takes: lane l words l and l + 32 of its block's
 * 64, so that a condition's decoding and its walk's steps serve two words (three were
 * slower, docs/records/rules-bitmap.md). */
#define RL_BM_LANE_WORDS 2
#define RL_BM_BLOCK_WORDS (32 * RL_BM_LANE_WORDS)

/* A block's words' sorted values, s[rank][word] (a NaN past the last), and the bits of
 * their k smallest, m[k][word]. A lane reads its words' columns at its own ranks: one
 * bank a lane. */
struct rl_bm_sorted {
    double s[33][RL_BM_BLOCK_WORDS];
    uint32_t m[33][RL_BM_BLOCK_WORDS];
};

/* How many of word w's sorted values are below v: binary search. */
__device__ static int rl_bm_search(const rl_bm_sorted &b, int w, double v)
{
    int t = 0;
#pragma unroll
    for (int step = 16; step >= 1; step >>= 1)
        if (b.s[t + step - 1][w] < v)
            t += step;
    /* t is the count capped at 31: the last value decides the 32nd. */
    return t + (b.s[t][w] < v);
}

/* The counts of the lane's words' values below v, from t[] (at most those counts) and the
 * values at t[] in xt[], walked forward: the warp goes on while a lane moves. */
__device__ static void rl_bm_walk(const rl_bm_sorted &b, int lane, double v, int *t, double *xt)
{
    for (;;) {
        bool more[RL_BM_LANE_WORDS], any = false;
#pragma unroll
        for (int j = 0; j < RL_BM_LANE_WORDS; j++)
            any |= more[j] = xt[j] < v;
        if (!__any_sync(RL_FULL, any))
            return;
#pragma unroll
        for (int j = 0; j < RL_BM_LANE_WORDS; j++)
            if (more[j])
                xt[j] = b.s[++t[j]][lane + 32 * j];
    }
}

/* The bits of instances [32 w, 32 w + 32) that exist among n. */
__device__ static uint32_t rl_bm_valid(int64_t w, int64_t n)
{
    int64_t i = w * 32;
    return i + 32 <= n ? RL_FULL : i < n ? (1u << (n - i)) - 1u : 0u;
}

#define RL_BM_COND_WARPS 8

__global__ void __launch_bounds__(RL_BM_COND_WARPS * 32)
    rl_bm_conditions_kernel(const double *table, int64_t pitch, int64_t n, int64_t w0,
                            int64_t width, const int32_t *col, const int32_t *first,
                            const rl_bm_cond *cond, uint32_t *bm)
{
    __shared__ rl_bm_sorted b;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int64_t wb = (int64_t)blockIdx.x * RL_BM_BLOCK_WORDS; /* its first in the chunk */
    const double *x = table + (int64_t)col[blockIdx.y] * pitch;
    for (int k = warp; k < RL_BM_BLOCK_WORDS; k += RL_BM_COND_WARPS) {
        int64_t i = (w0 + wb + k) * 32 + lane;
        double v = i < n ? x[i] : __longlong_as_double(0x7ff0000000000000LL);
        uint32_t id = (uint32_t)lane;
#pragma unroll
        for (int size = 2; size <= 32; size <<= 1)
#pragma unroll
            for (int stride = size >> 1; stride > 0; stride >>= 1) {
                double u = __shfl_xor_sync(RL_FULL, v, stride);
                uint32_t uid = __shfl_xor_sync(RL_FULL, id, stride);
                /* The lower lane of a pair keeps the smaller in an ascending run. */
                bool ascending = (lane & size) == 0, lower = (lane & stride) == 0;
                if (lower == ascending ? u < v : u > v) {
                    v = u;
                    id = uid;
                }
            }
        b.s[lane][k] = v;
        uint32_t bits = 1u << id;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            uint32_t o = __shfl_up_sync(RL_FULL, bits, d);
            if (lane >= d)
                bits |= o;
        }
        b.m[lane + 1][k] = bits;
        if (lane == 0) {
            b.m[0][k] = 0;
            b.s[32][k] = __longlong_as_double(0x7ff8000000000000LL);
        }
    }
    __syncthreads();
    /* A warp a run of the column's conditions, in their order (rl_bitmap_plan.c): those
     * with an upper side only, by it, then those with a lower side, by it. Along each,
     * the side's count never falls: each lane walks its words' sorted values from the
     * last counts (t, the values there in xt), after one search where the run or the
     * kind of side begins. */
    uint32_t valid[RL_BM_LANE_WORDS];
    uint32_t *out = bm + wb + lane;
    for (int j = 0; j < RL_BM_LANE_WORDS; j++)
        valid[j] = rl_bm_valid(w0 + wb + lane + 32 * j, n);
    const int c0 = first[blockIdx.y], c1 = first[blockIdx.y + 1];
    const int per = (c1 - c0 + RL_BM_COND_WARPS - 1) / RL_BM_COND_WARPS;
    const int cb = c0 + warp * per, ce = cb + per < c1 ? cb + per : c1;
    int t[RL_BM_LANE_WORDS] = {}, walking = -1; /* the side walked (-1: none yet) */
    double xt[RL_BM_LANE_WORDS] = {};
    for (int c = cb; c < ce; c++) {
        const rl_bm_cond q = cond[c];
        const int lower = q.has[RL_BM_LOWER];
        const double v = lower ? q.v[RL_BM_LOWER] : q.v[RL_BM_UPPER];
        if (lower != walking) {
#pragma unroll
            for (int j = 0; j < RL_BM_LANE_WORDS; j++) {
                t[j] = rl_bm_search(b, lane + 32 * j, v);
                xt[j] = b.s[t[j]][lane + 32 * j];
            }
            walking = lower;
        } else {
            rl_bm_walk(b, lane, v, t, xt);
        }
        int lo[RL_BM_LANE_WORDS], hi[RL_BM_LANE_WORDS];
#pragma unroll
        for (int j = 0; j < RL_BM_LANE_WORDS; j++)
            lo[j] = lower ? t[j] : 0, hi[j] = lower ? 32 : t[j];
        if (lower && q.has[RL_BM_UPPER]) {
            if (q.near) { /* = and !=: the values equal to v follow */
                double xh[RL_BM_LANE_WORDS];
#pragma unroll
                for (int j = 0; j < RL_BM_LANE_WORDS; j++)
                    hi[j] = t[j], xh[j] = xt[j];
                rl_bm_walk(b, lane, q.v[RL_BM_UPPER], hi, xh);
            } else {
#pragma unroll
                for (int j = 0; j < RL_BM_LANE_WORDS; j++)
                    hi[j] = rl_bm_search(b, lane + 32 * j, q.v[RL_BM_UPPER]);
            }
        }
#pragma unroll
        for (int j = 0; j < RL_BM_LANE_WORDS; j++)
            if (wb + lane + 32 * j < width) /* the chunk's last block may pass its end */
                out[(int64_t)c * width + 32 * j] =
                    b.m[hi[j]][lane + 32 * j] & ~b.m[lo[j]][lane + 32 * j] & valid[j];
    }
}

extern "C" int rl_bm_conditions(const double *table, int64_t pitch, int64_t n, int64_t w0,
                                int64_t width, int ncols, const int32_t *col,
                                const int32_t *first, const rl_bm_cond *cond, uint32_t *bm,
                                void *stream, dm_err *err)
{
    dim3 grid((unsigned)((width + RL_BM_BLOCK_WORDS - 1) / RL_BM_BLOCK_WORDS), (unsigned)ncols);
    rl_bm_conditions_kernel<<<grid, RL_BM_COND_WARPS * 32, 0, (cudaStream_t)stream>>>(
        table, pitch, n, w0, width, col, first, cond, bm);
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

/* The lane's eight words, from quad q, of the bitmap at bm + off. */
__device__ static rl_w8 rl_w8_load(const uint32_t *bm, uint32_t off, int64_t q)
{
    const uint4 *row = reinterpret_cast<const uint4 *>(bm + off);
    return {__ldcg(row + q), __ldcg(row + q + 32)};
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
 * w of the table's, nins instances): the stack's top in top, the rest in
 * stack[0..)[lane]; each token's support on them added to sup[k] (lane 0, a reduction the
 * sums' adds wait for no answer of). The conditions' bitmaps come in order from off (ncl
 * of them; next: the loaded words of the next one, *ci its index); the next token's
 * code is read while one is applied. */
template <bool FULL>
__device__ static rl_w8 rl_bm_expr(const uint8_t *code, int n, const uint32_t *off, int ncl,
                                   int *ci, rl_w8 *next, const uint32_t *bm, int64_t q,
                                   int64_t w, int64_t nins, rl_w8 *stack,
                                   unsigned long long *sup, int lane)
{
    rl_w8 top = {};
    int sp = 0;
    unsigned op = __ldg(code);
    for (int k = 0; k < n; k++) {
        const unsigned cur = op;
        if (k + 1 < n)
            op = __ldg(code + k + 1);
        if ((cur & 3u) == RL_BM_COND) {
            if (k > 0)
                stack[(sp++) * 32 + lane] = top;
            top = *next;
            if (++*ci < ncl)
                *next = rl_w8_load(bm, __ldg(off + *ci), q);
            if (cur & RL_BM_NEG)
                top = rl_w8_not<FULL>(top, w, nins);
        } else if (cur == RL_BM_NOT) {
            top = rl_w8_not<FULL>(top, w, nins);
        } else {
            top = rl_w8_op(top, stack[(--sp) * 32 + lane], (int)cur);
        }
        unsigned s = rl_w8_popc(top);
        if (lane == 0)
            atomicAdd(sup + k, (unsigned long long)s);
    }
    return top;
}

/* Rule u (index r) on the lane's eight words from quad q of the chunk, the first w of the
 * table's (FULL: every instance of the warp's words exists). */
template <bool FULL>
__device__ static void rl_bm_rule_run(const rl_bm_rules_args &a, const rl_bm_rule &u, int r,
                                      const uint32_t *bm, int64_t q, int64_t w, int64_t nins,
                                      rl_w8 *stack, int lane)
{
    const uint8_t *code = a.code + u.tok0;
    const uint32_t *off = a.off + u.cl0;
    int ci = 0;
    rl_w8 next = rl_w8_load(bm, __ldg(off), q);
    rl_w8 ante = rl_bm_expr<FULL>(code, u.nante, off, u.ncl, &ci, &next, bm, q, w, nins,
                                  stack, a.sup + u.tok0, lane);
    rl_w8 cons = rl_bm_expr<FULL>(code + u.nante, u.ncons, off, u.ncl, &ci, &next, bm, q, w,
                                  nins, stack, a.sup + u.tok0 + u.nante, lane);
    unsigned s = rl_w8_popc(rl_w8_op(ante, cons, RL_BM_AND));
    if (lane == 0)
        atomicAdd(a.nac + r, (unsigned long long)s);
}

/* Shared memory a warp: its stack, depth - 1 levels of 32 lanes' eight words. */
__host__ __device__ static int rl_bm_stack_levels(int depth)
{
    return depth > 1 ? depth - 1 : 0;
}

extern "C" int rl_bm_warp_smem(const rl_bm_rules_args *a)
{
    return rl_bm_stack_levels(a->depth) * 32 * (int)sizeof(rl_w8);
}

/* A warp a rule, over quads runs of 256 words (the chunk's width a multiple of 256).
 * Bounded to 64 registers a thread, so that a block may have 1,024. */
__global__ void __launch_bounds__(1024)
    rl_bm_rules_kernel(rl_bm_rules_args a, const uint32_t *bm, int64_t n, int64_t w0,
                       int64_t width, int quads)
{
    extern __shared__ rl_w8 smem[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int r = blockIdx.y * (blockDim.x >> 5) + warp;
    if (r >= a.nrules)
        return;
    rl_w8 *stack = smem + warp * rl_bm_stack_levels(a.depth) * 32;
    const rl_bm_rule u = a.rule[r];
    const int64_t runs = width / 256;
    for (int j = 0; j < quads; j++) {
        const int64_t run = (int64_t)blockIdx.x * quads + j;
        if (run >= runs)
            break;
        const int64_t q = run * 64 + lane, w = w0 + 4 * q;
        if ((w0 + run * 256 + 256) * 32 <= n)
            rl_bm_rule_run<true>(a, u, r, bm, q, w, n, stack, lane);
        else
            rl_bm_rule_run<false>(a, u, r, bm, q, w, n, stack, lane);
    }
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

extern "C" int rl_bm_allow(int bytes, dm_err *err)
{
    return DM_CUDA(err, cudaFuncSetAttribute(rl_bm_rules_kernel,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             bytes))
               ? DM_ERUNTIME
               : 0;
}

extern "C" int rl_bm_rules(const rl_bm_rules_args *a, const uint32_t *bm, int64_t n,
                           int64_t w0, int64_t width, int warps, int quads, void *stream,
                           dm_err *err)
{
    const int64_t runs = (width / 256 + quads - 1) / quads;
    dim3 grid((unsigned)runs, (unsigned)((a->nrules + warps - 1) / warps));
    rl_bm_rules_kernel<<<grid, warps * 32, (size_t)warps * (size_t)rl_bm_warp_smem(a),
                         (cudaStream_t)stream>>>(*a, bm, n, w0, width, quads);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

extern "C" int rl_bm_max_block(void)
{
    return dm_kernel_max_block(rl_bm_rules_kernel, 1024) / 32 * 32;
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
