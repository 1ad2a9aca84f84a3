/* rl_bitmap.cu - the bitmap evaluation's kernels (rl_bitmap.h). conditions: a block per
 * (32 words of the chunk, column): its warps sort each word's 32 values of the column
 * with their bits across the lanes (bitonic, by shuffles) and keep, per word, the sorted
 * values and M[k], the bits of the k smallest; then a lane per word, a warp per run of
 * the column's conditions in the plan's order, along which a side's count never falls:
 * each lane walks its word's sorted values to the next count, and the condition's word
 * M[upper] & ~M[lower] is stored coalesced. rules: a warp per
 * (rule, 128 words), four words a lane, every lane on the same token: the RPN over the
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

/* Whether a side of kind counts the value x: below v, or at most v (a NaN, the sentinel
 * past a word's last value, never). */
__device__ static bool rl_bm_counted(int kind, double x, double v)
{
    return kind == RL_BM_BELOW ? x < v : x <= v;
}

/* How many of a lane's sorted values, s[0..32)[lane], a side counts: binary search. */
__device__ static int rl_bm_search(const double (*s)[33], int lane, int kind, double v)
{
    int t = 0;
#pragma unroll
    for (int step = 16; step >= 1; step >>= 1)
        if (rl_bm_counted(kind, s[t + step - 1][lane], v))
            t += step;
    /* t is the count capped at 31: the last value decides the 32nd. */
    return t + rl_bm_counted(kind, s[t][lane], v);
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
    /* [rank][word]: each word's values sorted, a NaN past the last; [k][word]: the bits of
     * its k smallest. Rows of 33 keep a warp's writes of one word's column apart. */
    __shared__ double s[33][33];
    __shared__ uint32_t m[33][33];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int64_t wb = (int64_t)blockIdx.x * 32; /* the block's first word in the chunk */
    const double *x = table + (int64_t)col[blockIdx.y] * pitch;
    for (int k = warp; k < 32; k += RL_BM_COND_WARPS) {
        int64_t i = (w0 + wb + k) * 32 + lane;
        double v = i < n ? x[i] : __longlong_as_double(0x7ff0000000000000LL);
        uint32_t id = (uint32_t)lane;
        for (int size = 2; size <= 32; size <<= 1)
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
        s[lane][k] = v;
        uint32_t bits = 1u << id;
        for (int d = 1; d < 32; d <<= 1) {
            uint32_t o = __shfl_up_sync(RL_FULL, bits, d);
            if (lane >= d)
                bits |= o;
        }
        m[lane + 1][k] = bits;
        if (lane == 0) {
            m[0][k] = 0;
            s[32][k] = __longlong_as_double(0x7ff8000000000000LL);
        }
    }
    __syncthreads();
    /* A warp a run of the column's conditions, in their order (rl_bitmap_plan.c): those
     * with an upper side only, by it, then those with a lower side, by it. Along each,
     * the side's count t never falls: the lane walks its sorted values from the last
     * count (its value at t in xt), after one search where the run or the kind of side
     * begins. */
    const uint32_t valid = rl_bm_valid(w0 + wb + lane, n);
    uint32_t *out = bm + wb + lane;
    const int c0 = first[blockIdx.y], c1 = first[blockIdx.y + 1];
    const int per = (c1 - c0 + RL_BM_COND_WARPS - 1) / RL_BM_COND_WARPS;
    const int cb = c0 + warp * per, ce = cb + per < c1 ? cb + per : c1;
    int t = 0, walking = -1; /* the side walked (-1: none yet) */
    double xt = 0;
    for (int c = cb; c < ce; c++) {
        const rl_bm_cond q = cond[c];
        const int side = q.kind[RL_BM_LOWER] != RL_BM_NONE ? RL_BM_LOWER : RL_BM_UPPER;
        const int kind = side == RL_BM_LOWER ? q.kind[RL_BM_LOWER] : q.kind[RL_BM_UPPER];
        const double v = side == RL_BM_LOWER ? q.v[RL_BM_LOWER] : q.v[RL_BM_UPPER];
        if (side != walking) {
            t = rl_bm_search(s, lane, kind, v);
            xt = s[t][lane];
            walking = side;
        } else {
            for (;;) {
                bool more = rl_bm_counted(kind, xt, v);
                if (!__any_sync(RL_FULL, more))
                    break;
                if (more)
                    xt = s[++t][lane];
            }
        }
        int lo = 0, hi = t;
        if (side == RL_BM_LOWER) {
            lo = t;
            const int uk = q.kind[RL_BM_UPPER];
            const double uv = q.v[RL_BM_UPPER];
            if (uk == RL_BM_NONE) {
                hi = 32;
            } else if (uv == v) { /* = and !=: the values equal to v follow */
                hi = t;
                for (;;) {
                    bool more = rl_bm_counted(uk, s[hi][lane], uv);
                    if (!__any_sync(RL_FULL, more))
                        break;
                    hi += more;
                }
            } else {
                hi = rl_bm_search(s, lane, uk, uv);
            }
        }
        out[(int64_t)c * width] = m[hi][lane] & ~m[lo][lane] & valid;
    }
}

extern "C" int rl_bm_conditions(const double *table, int64_t pitch, int64_t n, int64_t w0,
                                int64_t width, int ncols, const int32_t *col,
                                const int32_t *first, const rl_bm_cond *cond, uint32_t *bm,
                                void *stream, dm_err *err)
{
    dim3 grid((unsigned)(width / 32), (unsigned)ncols);
    rl_bm_conditions_kernel<<<grid, RL_BM_COND_WARPS * 32, 0, (cudaStream_t)stream>>>(
        table, pitch, n, w0, width, col, first, cond, bm);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

/* ---- rules ------------------------------------------------------------------------ */

__device__ static uint4 rl_bm_and(uint4 a, uint4 b)
{
    return make_uint4(a.x & b.x, a.y & b.y, a.z & b.z, a.w & b.w);
}

__device__ static uint4 rl_bm_or(uint4 a, uint4 b)
{
    return make_uint4(a.x | b.x, a.y | b.y, a.z | b.z, a.w | b.w);
}

__device__ static uint4 rl_bm_xor(uint4 a, uint4 b)
{
    return make_uint4(a.x ^ b.x, a.y ^ b.y, a.z ^ b.z, a.w ^ b.w);
}

/* The instances of a whole warp's four words a lane: their popcounts summed over the
 * warp (one redux instruction from 8.0 on). */
__device__ static unsigned rl_bm_popc(uint4 a)
{
    unsigned c = (unsigned)(__popc(a.x) + __popc(a.y) + __popc(a.z) + __popc(a.w));
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(RL_FULL, c);
#else
    for (int d = 16; d > 0; d >>= 1)
        c += __shfl_xor_sync(RL_FULL, c, d);
    return c;
#endif
}

/* A lane's four words, quad q, of the bitmap at bm + off. */
__device__ static uint4 rl_bm_load(const uint32_t *bm, uint32_t off, int64_t q)
{
    return __ldcg(reinterpret_cast<const uint4 *>(bm + off) + q);
}

/* A warp's walk of one expression's RPN, code[0..n), on its lane's four words: the
 * stack's top in top, the rest in stack[0..)[lane]; each token's support on them added to
 * sup[k] (lane 0, a reduction the sums' adds wait for no answer of). The conditions'
 * bitmaps come in order from off (ncl of them; next: the loaded words of the next one,
 * *ci its index). */
__device__ static uint4 rl_bm_expr(const uint8_t *code, int n, const uint32_t *off, int ncl,
                                   int *ci, uint4 *next, const uint32_t *bm, int64_t q,
                                   uint4 valid, uint4 *stack, unsigned long long *sup,
                                   int lane)
{
    uint4 top = make_uint4(0, 0, 0, 0);
    int sp = 0;
    for (int k = 0; k < n; k++) {
        unsigned op = __ldg(code + k);
        if ((op & 3u) == RL_BM_COND) {
            if (k > 0)
                stack[(sp++) * 32 + lane] = top;
            top = *next;
            if (++*ci < ncl)
                *next = rl_bm_load(bm, __ldg(off + *ci), q);
            if (op & RL_BM_NEG)
                top = rl_bm_xor(top, valid);
        } else if (op == RL_BM_NOT) {
            top = rl_bm_xor(top, valid);
        } else {
            uint4 b = stack[(--sp) * 32 + lane];
            top = op == RL_BM_AND ? rl_bm_and(top, b) : rl_bm_or(top, b);
        }
        unsigned s = rl_bm_popc(top);
        if (lane == 0)
            atomicAdd(sup + k, (unsigned long long)s);
    }
    return top;
}

/* Shared memory a warp: its stack, depth - 1 levels of 32 lanes' four words. */
extern "C" int rl_bm_warp_smem(const rl_bm_rules_args *a)
{
    return (a->depth > 1 ? a->depth - 1 : 0) * 32 * (int)sizeof(uint4);
}

__global__ void rl_bm_rules_kernel(rl_bm_rules_args a, const uint32_t *bm, int64_t n,
                                   int64_t w0, int64_t width, int quads)
{
    extern __shared__ uint4 smem[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int r = blockIdx.y * (blockDim.x >> 5) + warp;
    if (r >= a.nrules)
        return;
    uint4 *stack = smem + warp * (a.depth > 1 ? a.depth - 1 : 0) * 32;
    const rl_bm_rule u = a.rule[r];
    const uint8_t *code = a.code + u.tok0;
    const uint32_t *off = a.off + u.cl0;
    const int64_t words = width / 4; /* quads of four words in a row */
    for (int j = 0; j < quads; j++) {
        const int64_t q = ((int64_t)blockIdx.x * quads + j) * 32 + lane;
        if (q - lane >= words)
            break;
        const int64_t w = w0 + 4 * q;
        const uint4 valid = make_uint4(rl_bm_valid(w, n), rl_bm_valid(w + 1, n),
                                       rl_bm_valid(w + 2, n), rl_bm_valid(w + 3, n));
        int ci = 0;
        uint4 next = rl_bm_load(bm, __ldg(off), q);
        uint4 ante = rl_bm_expr(code, u.nante, off, u.ncl, &ci, &next, bm, q, valid, stack,
                                a.sup + u.tok0, lane);
        uint4 cons = rl_bm_expr(code + u.nante, u.ncons, off, u.ncl, &ci, &next, bm, q, valid,
                                stack, a.sup + u.tok0 + u.nante, lane);
        unsigned s = rl_bm_popc(rl_bm_and(ante, cons));
        if (lane == 0)
            atomicAdd(a.nac + r, (unsigned long long)s);
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
    const int64_t runs = (width / 128 + quads - 1) / quads;
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
