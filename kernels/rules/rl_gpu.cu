/* rl_gpu.cu - the rules workload's kernels (Cano, Luna & Ventura 2013, Sect. 5):
 * coverage (Listing 1) interprets each expression's RPN from constant memory, a thread
 * per (expression, 1, 2 or 4 instances), a stack of booleans per thread (two registers, or
 * bytes in local memory for deep expressions), and writes every token's value as bits, a
 * warp's 32 instances a word (__ballot_sync); or a thread per (expression, 32 instances),
 * the bits of one word, its stack of words in shared memory; reduction (Listing 2) sums a token's row,
 * per-thread partial sums then one pass over the warps' sums; fitness (Listing 3) does
 * the same for a rule's n(A), n(C), n(AC) and computes its contingency table and
 * measures in double with the host's rl_measures. Then the launchers. */
#include <cuda_runtime.h>

#include "kernel_block.cuh"
#include "rules/rl_gpu.h"
#include "rules/rl_measures.h"

/* Each side's chunk: its tokens and its expressions' starts (Listing 1's `expression`). */
__constant__ rl_token rl_c_tok_a[RL_GPU_CHUNK_TOKENS];
__constant__ rl_token rl_c_tok_c[RL_GPU_CHUNK_TOKENS];
__constant__ int32_t rl_c_start_a[RL_GPU_CHUNK_RULES + 1];
__constant__ int32_t rl_c_start_c[RL_GPU_CHUNK_RULES + 1];

template <int SIDE> __device__ static rl_token rl_tok(int k)
{
    return SIDE == RL_SIDE_A ? rl_c_tok_a[k] : rl_c_tok_c[k];
}

template <int SIDE> __device__ static int rl_start(int e)
{
    return SIDE == RL_SIDE_A ? rl_c_start_a[e] : rl_c_start_c[e];
}

/* The stack in two 32-bit registers: the top (0 or 1) in t, the 32 levels below it in s
 * (bit 0 the next). The coverage kernel is bound by the ALU pipe
 * (docs/records/rules-interpreter.md), and a 64-bit stack in one register spent several
 * ALU instructions on every push and operator; here a push is one multiply-add
 * (s = 2s + t) and an operator one logic instruction and a shift. */
struct rl_reg_stack {
    uint32_t s = 0, t = 0;
    __device__ void push(unsigned v)
    {
        s = s * 2u + t;
        t = v;
    }
    __device__ void negate() { t ^= 1u; }
    __device__ void and_top()
    {
        t &= s; /* t is 0 or 1: the bit of s below it */
        s >>= 1;
    }
    __device__ void or_top()
    {
        t |= s & 1u;
        s >>= 1;
    }
    __device__ unsigned top() const { return t; }
};

/* The stack in local memory, for expressions deeper than RL_GPU_SHALLOW. */
struct rl_mem_stack {
    unsigned char v[RL_GPU_DEEP];
    int sp = 0;
    __device__ void push(unsigned b) { v[sp++] = (unsigned char)b; }
    __device__ void negate() { v[sp - 1] ^= 1; }
    __device__ void and_top() { sp--; v[sp - 1] &= v[sp]; }
    __device__ void or_top() { sp--; v[sp - 1] |= v[sp]; }
    __device__ unsigned top() const { return v[sp - 1]; }
};

/* Calls each(test) with test(x) whether x satisfies condition t, as rl_eval.c's rl_cond
 * (a categorical code compares as the double it converts to exactly): the operation is
 * the same for the whole warp, so it is picked once and each applies it to all its
 * values. */
template <class Each> __device__ static void rl_cond_each(const rl_token &t, Each each)
{
    const double lo = t.lo, hi = t.hi;
    switch (t.op) {
    case RL_EQ: each([lo](double x) { return x == lo; }); break;
    case RL_NE: each([lo](double x) { return x != lo; }); break;
    case RL_LT: each([lo](double x) { return x < lo; }); break;
    case RL_LE: each([lo](double x) { return x <= lo; }); break;
    case RL_GT: each([lo](double x) { return x > lo; }); break;
    case RL_GE: each([lo](double x) { return x >= lo; }); break;
    case RL_IN: each([lo, hi](double x) { return (x >= lo) & (x <= hi); }); break;
    default: each([](double) { return false; });
    }
}

/* Whether each x[j] satisfies condition t. */
template <int V>
__device__ static void rl_cond(const rl_token &t, const double (&x)[V], unsigned (&c)[V])
{
    rl_cond_each(t, [&](auto test) {
#pragma unroll
        for (int j = 0; j < V; j++)
            c[j] = test(x[j]);
    });
}

/* Stores the V words w to p (V consecutive, aligned to V words: one vector store). */
template <int V> __device__ static void rl_store_words(uint32_t *p, const unsigned (&w)[V])
{
    if (V == 4)
        *reinterpret_cast<uint4 *>(p) = make_uint4(w[0], w[1 % V], w[2 % V], w[3 % V]);
    else if (V == 2)
        *reinterpret_cast<uint2 *>(p) = make_uint2(w[0], w[1 % V]);
    else
        *p = w[0];
}

/* One warp's interpretation of expression e over its V x 32 instances: lane l's are
 * l, l + 32, ... from the warp's first, column a's values of them at cols + a x stride +
 * 32 j (so each of the V loads of a column is coalesced), valid[j] whether instance j is
 * one (those that are not are not read, and vote 0 whatever their stack holds). Each
 * token is decoded once for the V instances, and its V ballots are V consecutive words,
 * stored at once by lane 0 at out + k x row (out: row 0's word of the first instance).
 * Every thread of the warp must call it (the ballots are whole). */
template <int SIDE, class Stack, int V>
__device__ static void rl_interpret(int e, const double *__restrict__ cols, int64_t stride,
                                    const bool (&valid)[V], int lane, uint32_t *__restrict__ out,
                                    int64_t row)
{
    const int k0 = rl_start<SIDE>(e), k1 = rl_start<SIDE>(e + 1);
    Stack st[V];
    for (int k = k0; k < k1; k++) {
        const rl_token t = rl_tok<SIDE>(k);
        if (RL_IS_COND(t.op)) {
            const double *col = cols + (int64_t)t.attr * stride;
            double x[V];
            unsigned c[V];
#pragma unroll
            for (int j = 0; j < V; j++)
                x[j] = valid[j] ? col[j * 32] : 0.0;
            rl_cond<V>(t, x, c);
#pragma unroll
            for (int j = 0; j < V; j++)
                st[j].push(c[j]);
        } else {
#pragma unroll
            for (int j = 0; j < V; j++) {
                if (t.op == RL_NOT)
                    st[j].negate();
                else if (t.op == RL_AND)
                    st[j].and_top();
                else
                    st[j].or_top();
            }
        }
        unsigned word[V];
#pragma unroll
        for (int j = 0; j < V; j++)
            word[j] = __ballot_sync(0xffffffffu, valid[j] && st[j].top());
        if (lane == 0)
            rl_store_words<V>(out + (int64_t)k * row, word);
    }
}

/* Which of the V instances of a warp whose first is base are below n, for lane. */
template <int V> __device__ static void rl_valid(int64_t base, int lane, int64_t n, bool (&valid)[V])
{
#pragma unroll
    for (int j = 0; j < V; j++)
        valid[j] = base + j * 32 + lane < n;
}

/* Block (e, y): expression e (gridDim.x of them) over the runs of blockDim.x x V
 * instances y, y + gridDim.y, ... (the paper's 2-D grid: expressions wide, instances
 * high), a warp 32 x V consecutive instances. A warp wholly past n writes nothing. */
template <int SIDE, class Stack, int V>
__global__ void rl_coverage_kernel(const double *__restrict__ table, int64_t n, int64_t pitch,
                                   int64_t row, uint32_t *__restrict__ bits)
{
    const int lane = threadIdx.x & 31;
    const int64_t span = (int64_t)blockDim.x * V;
    const int64_t runs = (n + span - 1) / span;
    for (int64_t y = blockIdx.y; y < runs; y += gridDim.y) {
        const int64_t base = y * span + (int64_t)(threadIdx.x >> 5) * 32 * V;
        if (base >= n)
            continue; /* the whole warp */
        bool valid[V];
        rl_valid<V>(base, lane, n, valid);
        rl_interpret<SIDE, Stack, V>(blockIdx.x, table + base + lane, pitch, valid, lane,
                                     bits + (base >> 5), row);
    }
}

/* Coverage at 32 instances a thread (per_thread 32): a warp takes 1,024 consecutive
 * instances and lane g the word of instances 32g .. 32g + 31 of them, so an operator is one
 * logic instruction on a word, a token is decoded once for 1,024 instances, and lane g
 * stores its row's word itself (a warp's 32 words, 128 bytes at once). A condition is read
 * as the other kernel reads it, a warp's 32 consecutive instances a load, 32 loads, each
 * compared and voted (__ballot_sync) into group g's word, which passes through the warp's
 * 32 words of shared memory to lane g. The stack's top is in a register, the levels below
 * in the warp's shared memory (level d of lane l at below[32 d + l]); bits past the
 * instances are cleared as a word is stored (vm). Every thread of the warp calls it. */
template <int SIDE>
__device__ static void rl_interpret_words(int e, const double *__restrict__ cols, int64_t stride,
                                          int64_t m, int lane, uint32_t *stage, uint32_t *below,
                                          uint32_t *__restrict__ out, int64_t row)
{
    const int64_t mine = m - 32 * (int64_t)lane; /* instances of lane's word */
    const uint32_t vm = mine >= 32 ? ~0u : mine <= 0 ? 0u : (1u << mine) - 1u;
    const bool whole = m >= 1024;
    const int k0 = rl_start<SIDE>(e), k1 = rl_start<SIDE>(e + 1);
    uint32_t t = 0;
    int sp = 0;
    for (int k = k0; k < k1; k++) {
        const rl_token tok = rl_tok<SIDE>(k);
        if (RL_IS_COND(tok.op)) {
            const double *col = cols + (int64_t)tok.attr * stride;
            rl_cond_each(tok, [&](auto test) {
#pragma unroll
                for (int g0 = 0; g0 < 32; g0 += 8) { /* eight loads in flight */
                    double x[8];
#pragma unroll
                    for (int g = 0; g < 8; g++)
                        x[g] = whole || 32 * (g0 + g) + lane < m ? col[32 * (g0 + g)] : 0.0;
#pragma unroll
                    for (int g = 0; g < 8; g++)
                        stage[g0 + g] = __ballot_sync(0xffffffffu, test(x[g]));
                }
            });
            __syncwarp();
            below[32 * sp++ + lane] = t;
            t = stage[lane];
            __syncwarp(); /* the stage is read before the next condition writes it */
        } else if (tok.op == RL_NOT) {
            t = ~t;
        } else {
            const uint32_t u = below[32 * --sp + lane];
            t = tok.op == RL_AND ? t & u : t | u;
        }
        out[(int64_t)k * row] = t & vm;
    }
}

/* Shared memory per warp of the per_thread 32 coverage at stack depth: the stage's 32
 * words, and 32 words a level (the first push stores the empty stack's top, unread). */
__host__ __device__ static int64_t rl_words_smem(int depth)
{
    return (int64_t)32 * (1 + depth) * 4;
}

/* Block (x, y): its W warps take expressions x W .. x W + W - 1 over the same 1,024
 * instances, tiles y, y + gridDim.y, ... (rl_interpret_words), so the columns a tile's
 * conditions read come into L1 once for W expressions, where a grid of expressions wide
 * and a warp's instances high had each warp fetch its own from L2. At most 64 registers,
 * so a block of 1,024 threads runs. */
template <int SIDE>
__global__ void __launch_bounds__(1024)
    rl_coverage_words_kernel(const double *__restrict__ table, int64_t n, int64_t pitch,
                             int64_t row, int nexpr, int depth, uint32_t *__restrict__ bits)
{
    extern __shared__ uint32_t rl_words_sh[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int e = blockIdx.x * (blockDim.x >> 5) + warp;
    if (e >= nexpr)
        return; /* the whole warp */
    uint32_t *stage = rl_words_sh + (int64_t)warp * (rl_words_smem(depth) / 4);
    const int64_t tiles = (n + 1023) / 1024;
    for (int64_t y = blockIdx.y; y < tiles; y += gridDim.y) {
        const int64_t base = y * 1024;
        rl_interpret_words<SIDE>(e, table + base + lane, pitch, n - base, lane, stage,
                                 stage + 32, bits + (base >> 5) + lane, row);
    }
}

/* The sum of v over the block, in thread 0 (0 elsewhere): each warp's by shuffles, then
 * thread 0 adds the warps' in one pass. Every thread of the block must call it. */
__device__ static unsigned long long rl_block_sum(unsigned long long v)
{
    __shared__ unsigned long long warp_sum[32];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    __syncthreads(); /* a previous call's sums are read */
    if ((threadIdx.x & 31) == 0)
        warp_sum[threadIdx.x >> 5] = v;
    __syncthreads();
    v = 0;
    if (threadIdx.x == 0)
        for (unsigned w = 0; w < blockDim.x >> 5; w++)
            v += warp_sum[w];
    return v;
}

/* Block k: token k's support, its row's set bits. */
__global__ void rl_reduction_kernel(const uint32_t *__restrict__ bits, int64_t words,
                                    int64_t row, unsigned long long *__restrict__ support)
{
    const uint32_t *r = bits + (int64_t)blockIdx.x * row;
    unsigned long long s = 0;
    for (int64_t w = threadIdx.x; w < words; w += blockDim.x)
        s += (unsigned)__popc(r[w]);
    s = rl_block_sum(s);
    if (threadIdx.x == 0)
        support[blockIdx.x] = s;
}

/* Block j: rule j of the chunk, its antecedent's and consequent's last tokens' rows. */
__global__ void rl_fitness_kernel(const uint32_t *__restrict__ bits_a,
                                  const uint32_t *__restrict__ bits_c, int64_t n,
                                  int64_t words, int64_t row, rl_rule_result *__restrict__ fit)
{
    const int j = blockIdx.x;
    const uint32_t *ra = bits_a + (int64_t)(rl_c_start_a[j + 1] - 1) * row;
    const uint32_t *rc = bits_c + (int64_t)(rl_c_start_c[j + 1] - 1) * row;
    unsigned long long a = 0, c = 0, ac = 0;
    for (int64_t w = threadIdx.x; w < words; w += blockDim.x) {
        const uint32_t x = ra[w], y = rc[w];
        a += (unsigned)__popc(x);
        c += (unsigned)__popc(y);
        ac += (unsigned)__popc(x & y);
    }
    a = rl_block_sum(a);
    c = rl_block_sum(c);
    ac = rl_block_sum(ac);
    if (threadIdx.x != 0)
        return;
    rl_rule_result r;
    r.n_a = (int64_t)a;
    r.n_c = (int64_t)c;
    r.n_ac = (int64_t)ac;
    r.n_anc = r.n_a - r.n_ac;
    r.n_nac = r.n_c - r.n_ac;
    r.n_nanc = n - r.n_a - r.n_c + r.n_ac;
    rl_measures(&r, n);
    fit[j] = r;
}

/* ---- launchers ------------------------------------------------------------------- */

/* The most blocks a grid's y may have. */
#define RL_GPU_MAX_GRID_Y 65535

extern "C" int rl_gpu_put_rules(int side, const rl_token *tok, int ntok, const int32_t *start,
                                int nexpr, void *stream, dm_err *err)
{
    cudaStream_t st = (cudaStream_t)stream;
    const void *tsym = side == RL_SIDE_A ? (const void *)&rl_c_tok_a : (const void *)&rl_c_tok_c;
    const void *ssym = side == RL_SIDE_A ? (const void *)&rl_c_start_a
                                         : (const void *)&rl_c_start_c;
    return DM_CUDA(err, cudaMemcpyToSymbolAsync(tsym, tok, (size_t)ntok * sizeof *tok, 0,
                                                cudaMemcpyHostToDevice, st)) ||
                   DM_CUDA(err, cudaMemcpyToSymbolAsync(ssym, start,
                                                        (size_t)(nexpr + 1) * sizeof *start, 0,
                                                        cudaMemcpyHostToDevice, st))
               ? DM_ERUNTIME
               : 0;
}

template <int SIDE, class Stack, int V>
static void rl_coverage_launch(const rl_gpu_launch *a, int nexpr, uint32_t *bits)
{
    const int64_t span = (int64_t)a->block * V, runs = (a->n + span - 1) / span;
    const dim3 grid((unsigned)nexpr, (unsigned)(runs < RL_GPU_MAX_GRID_Y ? runs : RL_GPU_MAX_GRID_Y));
    rl_coverage_kernel<SIDE, Stack, V><<<grid, a->block, 0, (cudaStream_t)a->stream>>>(
        a->table, a->n, a->pitch, a->row, bits);
}

/* per_thread 32: words, the stack in shared memory. Returns 0, or a CUDA error. */
template <int SIDE>
static cudaError_t rl_coverage_words_launch(const rl_gpu_launch *a, int nexpr, int depth,
                                            uint32_t *bits)
{
    const int warps = a->block / 32;
    const int64_t tiles = (a->n + 1023) / 1024;
    const dim3 grid((unsigned)((nexpr + warps - 1) / warps),
                    (unsigned)(tiles < RL_GPU_MAX_GRID_Y ? tiles : RL_GPU_MAX_GRID_Y));
    const size_t smem = (size_t)warps * (size_t)rl_words_smem(depth);
    rl_coverage_words_kernel<SIDE><<<grid, a->block, smem, (cudaStream_t)a->stream>>>(
        a->table, a->n, a->pitch, a->row, nexpr, depth, bits);
    return cudaGetLastError();
}

extern "C" int rl_gpu_allow(const rl_gpu_launch *a, int depth, dm_err *err)
{
    if (a->per_thread != 32)
        return 0;
    const int smem = a->block / 32 * (int)rl_words_smem(depth < RL_GPU_SHALLOW ? depth
                                                                             : RL_GPU_SHALLOW);
    int dev, optin;
    if (DM_CUDA(err, cudaGetDevice(&dev)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                            dev)))
        return DM_ERUNTIME;
    if (smem > optin) {
        dm_err_set(err, DM_ENOMEM,
                   "per_thread 32 at block %d keeps %d bytes of stacks (expressions %d deep) "
                   "in a block's shared memory; GPU %d allows %d",
                   a->block, smem, depth, dev, optin);
        return DM_ERUNTIME;
    }
    return DM_CUDA(err, cudaFuncSetAttribute(rl_coverage_words_kernel<RL_SIDE_A>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             smem)) ||
                   DM_CUDA(err, cudaFuncSetAttribute(rl_coverage_words_kernel<RL_SIDE_C>,
                                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                     smem))
               ? DM_ERUNTIME
               : 0;
}

/* The register stack at a->per_thread instances a thread (1, 2 or 4), words at 32, or
 * the stack in local memory at one for an expression deeper than RL_GPU_SHALLOW. */
template <int SIDE>
static cudaError_t rl_coverage_side(const rl_gpu_launch *a, int nexpr, int depth, uint32_t *bits)
{
    if (depth > RL_GPU_SHALLOW)
        rl_coverage_launch<SIDE, rl_mem_stack, 1>(a, nexpr, bits);
    else if (a->per_thread == 32)
        return rl_coverage_words_launch<SIDE>(a, nexpr, depth, bits);
    else if (a->per_thread == 4)
        rl_coverage_launch<SIDE, rl_reg_stack, 4>(a, nexpr, bits);
    else if (a->per_thread == 2)
        rl_coverage_launch<SIDE, rl_reg_stack, 2>(a, nexpr, bits);
    else
        rl_coverage_launch<SIDE, rl_reg_stack, 1>(a, nexpr, bits);
    return cudaGetLastError();
}

extern "C" int rl_gpu_coverage(const rl_gpu_launch *a, int side, int nexpr, int depth,
                               uint32_t *bits, dm_err *err)
{
    cudaError_t e = side == RL_SIDE_A ? rl_coverage_side<RL_SIDE_A>(a, nexpr, depth, bits)
                                      : rl_coverage_side<RL_SIDE_C>(a, nexpr, depth, bits);
    return DM_CUDA(err, e) ? DM_ERUNTIME : 0;
}

extern "C" int rl_gpu_reduction(const rl_gpu_launch *a, int ntok, const uint32_t *bits,
                                unsigned long long *support, dm_err *err)
{
    rl_reduction_kernel<<<(unsigned)ntok, a->block, 0, (cudaStream_t)a->stream>>>(
        bits, a->words, a->row, support);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

extern "C" int rl_gpu_fitness(const rl_gpu_launch *a, int nrules, const uint32_t *bits_a,
                              const uint32_t *bits_c, rl_rule_result *fit, dm_err *err)
{
    rl_fitness_kernel<<<(unsigned)nrules, a->block, 0, (cudaStream_t)a->stream>>>(
        bits_a, bits_c, a->n, a->words, a->row, fit);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

extern "C" int rl_gpu_max_block(void)
{
    int most = 1024;
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_A, rl_reg_stack, 1>, most);
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_C, rl_reg_stack, 1>, most);
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_A, rl_reg_stack, 2>, most);
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_C, rl_reg_stack, 2>, most);
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_A, rl_reg_stack, 4>, most);
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_C, rl_reg_stack, 4>, most);
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_A, rl_mem_stack, 1>, most);
    most = dm_kernel_max_block(rl_coverage_kernel<RL_SIDE_C, rl_mem_stack, 1>, most);
    most = dm_kernel_max_block(rl_coverage_words_kernel<RL_SIDE_A>, most);
    most = dm_kernel_max_block(rl_coverage_words_kernel<RL_SIDE_C>, most);
    most = dm_kernel_max_block(rl_reduction_kernel, most);
    most = dm_kernel_max_block(rl_fitness_kernel, most);
    return most / 32 * 32;
}
