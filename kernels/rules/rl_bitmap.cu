/* rl_bitmap.cu - the bitmap evaluation's kernels (rl_bitmap.h). conditions: a block per
 * (32 words of the chunk, column): its warps sort each word's 32 values of the column
 * with their bits across the lanes (bitonic, by shuffles) and keep, per word, the sorted
 * values and M[k], the bits of the k smallest; then a lane per word, a warp per condition
 * of the column, each side of the condition is a count by binary search in the lane's
 * word and its bitmap word M[upper] & ~M[lower], stored coalesced. rules: a warp per
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

/* A lane's word's 32 sorted values: the seven the first three steps of a binary search
 * can read, in registers (s[15]; s[7], s[23]; s[3], s[11], s[19], s[27]), the rest read
 * from the block's array s[0..32)[lane]. */
struct rl_bm_sorted {
    const double (*s)[32];
    int lane;
    double r15, r7, r23, r3, r11, r19, r27;
};

/* How many of the lane's sorted values a side counts: below v, or at most v. Binary
 * search, its first three steps on registers. */
template <int KIND> __device__ static int rl_bm_count(const rl_bm_sorted &w, double v)
{
    auto counted = [v](double x) { return KIND == RL_BM_BELOW ? x < v : x <= v; };
    int t = counted(w.r15) ? 16 : 0;
    t += counted(t ? w.r23 : w.r7) ? 8 : 0;
    t += counted(t & 16 ? (t & 8 ? w.r27 : w.r19) : (t & 8 ? w.r11 : w.r3)) ? 4 : 0;
    t += counted(w.s[t + 1][w.lane]) ? 2 : 0;
    t += counted(w.s[t][w.lane]) ? 1 : 0;
    /* t is the count capped at 31: the last value decides the 32nd. */
    return t + counted(w.s[t][w.lane]);
}

__device__ static int rl_bm_side(const rl_bm_sorted &w, int kind, double v, int none)
{
    if (kind == RL_BM_BELOW)
        return rl_bm_count<RL_BM_BELOW>(w, v);
    if (kind == RL_BM_ATMOST)
        return rl_bm_count<RL_BM_ATMOST>(w, v);
    return none;
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
    __shared__ double s[32][32];    /* [rank][word]: each word's values, sorted */
    __shared__ uint32_t m[33][32];  /* [k][word]: the bits of its k smallest */
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
        if (lane == 0)
            m[0][k] = 0;
    }
    __syncthreads();
    const uint32_t valid = rl_bm_valid(w0 + wb + lane, n);
    const rl_bm_sorted w = {s, lane, s[15][lane], s[7][lane], s[23][lane], s[3][lane],
                            s[11][lane], s[19][lane], s[27][lane]};
    uint32_t *out = bm + wb + lane;
    /* Two conditions at a time, their searches independent (the second, past the last,
     * repeats the first and is not stored). */
    const int end = first[blockIdx.y + 1];
    for (int c = first[blockIdx.y] + warp; c < end; c += 2 * RL_BM_COND_WARPS) {
        const int d = c + RL_BM_COND_WARPS < end ? c + RL_BM_COND_WARPS : c;
        const rl_bm_cond q = cond[c], e = cond[d];
        int lo = rl_bm_side(w, q.kind[RL_BM_LOWER], q.v[RL_BM_LOWER], 0);
        int lo2 = rl_bm_side(w, e.kind[RL_BM_LOWER], e.v[RL_BM_LOWER], 0);
        int hi = rl_bm_side(w, q.kind[RL_BM_UPPER], q.v[RL_BM_UPPER], 32);
        int hi2 = rl_bm_side(w, e.kind[RL_BM_UPPER], e.v[RL_BM_UPPER], 32);
        out[(int64_t)c * width] = m[hi][lane] & ~m[lo][lane] & valid;
        if (d != c)
            out[(int64_t)d * width] = m[hi2][lane] & ~m[lo2][lane] & valid;
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

/* A lane's four words of condition c's bitmap. */
__device__ static uint4 rl_bm_load(const uint32_t *bm, int64_t width, int32_t c, int64_t q)
{
    return __ldcg(reinterpret_cast<const uint4 *>(bm + (int64_t)c * width) + q);
}

/* A warp's walk of one expression's RPN, code[0..n), on its lane's four words: the
 * stack's top in top, the rest in stack[0..)[lane]; each token's support on them added to
 * sup[k] (lane 0, a reduction the sums' adds wait for no answer of). The conditions'
 * bitmaps come in order from cl (ncl of them; next: the loaded words of the next one,
 * *ci its index). */
__device__ static uint4 rl_bm_expr(const uint8_t *code, int n, const int32_t *cl, int ncl,
                                   int *ci, uint4 *next, const uint32_t *bm, int64_t width,
                                   int64_t q, uint4 valid, uint4 *stack,
                                   unsigned long long *sup, int lane)
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
                *next = rl_bm_load(bm, width, __ldg(cl + *ci), q);
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
    const int32_t *cl = a.cl + u.cl0;
    int ncl = 0;
    for (int k = 0; k < u.nante + u.ncons; k++)
        ncl += (__ldg(code + k) & 3u) == RL_BM_COND;
    const int64_t words = width / 4; /* quads of four words in a row */
    for (int j = 0; j < quads; j++) {
        const int64_t q = ((int64_t)blockIdx.x * quads + j) * 32 + lane;
        if (q - lane >= words)
            break;
        const int64_t w = w0 + 4 * q;
        const uint4 valid = make_uint4(rl_bm_valid(w, n), rl_bm_valid(w + 1, n),
                                       rl_bm_valid(w + 2, n), rl_bm_valid(w + 3, n));
        int ci = 0;
        uint4 next = rl_bm_load(bm, width, __ldg(cl), q);
        uint4 ante = rl_bm_expr(code, u.nante, cl, ncl, &ci, &next, bm, width, q, valid, stack,
                                a.sup + u.tok0, lane);
        uint4 cons = rl_bm_expr(code + u.nante, u.ncons, cl, ncl, &ci, &next, bm, width, q,
                                valid, stack, a.sup + u.tok0 + u.nante, lane);
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
