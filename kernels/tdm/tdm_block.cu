/* tdm_block.cu - the paper's block-parallel algorithms (§3.3.3): one block per episode,
 * each thread counting its own stretch of the database, then the stretches' results
 * resolved across their boundaries and summed.
 * version 1, block-tex (Algorithm 3): each thread takes one contiguous chunk of
 *   ceil(vectors / threads) 16-letter vectors, read through a texture object.
 * version 2, block-shared (Algorithm 4): the block stages tiles of threads x piece
 *   letters in shared memory; thread i always takes the i-th piece of a tile. Each
 *   piece is padded to an odd number of 16-byte vectors, so the eight threads of a
 *   quarter-warp read eight different groups of four banks.
 * The step between map and reduce is exact (tdm_span.c has the argument): each thread
 * runs its machine from every entry state at once (one word per state, tdm_fsm.cuh;
 * the extra machines stop once they meet machine 0, see tdm_block_map), keeps the span
 * table (count, exit) per entry state in shared memory, and the block composes the
 * tables as a tree in chunk order (pairs at distance 1, 2, 4, ...), so the table at
 * entry 0 is the count a single machine makes over the whole database.
 * block-shared composes each tile's table that way and carries the machine's state and
 * count from tile to tile. */
#include <stdint.h>

#include <cuda_runtime.h>

#include "tdm/tdm.h"
#include "tdm/tdm_fsm.cuh"

/* Advances machines 0..K-1 over the 16 letters of q; the masks are loaded first, so
 * the loads do not wait on the machines. */
template <int L, int K>
__device__ __forceinline__ void tdm_block_vec(uint4 q, const uint32_t *lut, tdm_word (&m)[L])
{
    constexpr int shift = tdm_renorm_shift(L);
    const uint32_t words[4] = {q.x, q.y, q.z, q.w};
    uint32_t d[16];
#pragma unroll
    for (int i = 0; i < 16; i++)
        d[i] = lut[(words[i / 4] >> (8 * (i % 4))) & 0xff];
#pragma unroll
    for (int half = 0; half < 2; half++) {
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int s = 0; s < K; s++)
                m[s].w += m[s].w & d[8 * half + i];
#pragma unroll
        for (int s = 0; s < K; s++)
            tdm_renorm(m[s], shift);
    }
}

/* 1 when every machine is in machine 0's state (P_s - P_0 a multiple of L). */
template <int L>
__device__ __forceinline__ bool tdm_block_met(const tdm_word (&m)[L])
{
    const uint32_t p0 = tdm_progress(m[0]);
    bool met = true;
#pragma unroll
    for (int s = 1; s < L; s++)
        met = met && (tdm_progress(m[s]) - p0) % L == 0;
    return met;
}

/* Runs the machines from every entry state over n vectors (at(i) gives vector i) and
 * leaves P_s, entry state s plus its advances, in p. Machines 1..L-1 stop once every
 * machine of every thread in the warp is in machine 0's state: as tdm_packed.cu
 * argues, from there P_s - P_0 (0 or L) never changes, so machine 0 alone goes on.
 * Every thread of the warp (lanes in mask) must call it with the same n. */
template <int L, typename At>
__device__ __forceinline__ void tdm_block_map(int64_t n, unsigned mask, const uint32_t *lut,
                                              At at, uint32_t (&p)[L])
{
    tdm_word m[L];
#pragma unroll
    for (int s = 0; s < L; s++)
        m[s] = tdm_word{1u << s, 0u};
    int64_t i = 0;
    bool met = L == 1;
    while (!met && i < n) {
        tdm_block_vec<L, L>(at(i), lut, m);
        i++;
        met = __all_sync(mask, tdm_block_met<L>(m));
    }
    uint32_t gap[L];
#pragma unroll
    for (int s = 0; s < L; s++)
        gap[s] = tdm_progress(m[s]) - tdm_progress(m[0]);
    for (; i < n; i++)
        tdm_block_vec<L, 1>(at(i), lut, m);
#pragma unroll
    for (int s = 0; s < L; s++)
        p[s] = met ? tdm_progress(m[0]) + gap[s] : tdm_progress(m[s]);
}

/* Writes thread t's span table from its machines' P, then composes all threads' tables
 * into thread 0's. Every thread of the block must call it. */
template <int L>
__device__ void tdm_block_reduce(const uint32_t (&p)[L], uint32_t *cnt, uint8_t *ext, int t,
                                 int block)
{
#pragma unroll
    for (int s = 0; s < L; s++) {
        cnt[t * L + s] = p[s] / L;
        ext[t * L + s] = (uint8_t)(p[s] % L);
    }
    for (int d = 1; d < block; d <<= 1) {
        __syncthreads();
        if ((t & (2 * d - 1)) == 0 && t + d < block) {
#pragma unroll
            for (int s = 0; s < L; s++) {
                int mid = ext[t * L + s];
                cnt[t * L + s] += cnt[(t + d) * L + mid];
                ext[t * L + s] = ext[(t + d) * L + mid];
            }
        }
    }
    __syncthreads();
}

/* A uint4 of padding letters, which move no machine. */
#define TDM_PAD_VEC make_uint4(0x1f1f1f1fu, 0x1f1f1f1fu, 0x1f1f1f1fu, 0x1f1f1f1fu)

template <int L, bool kTex>
__global__ void tdm_block_kernel(const uint4 *__restrict__ db, cudaTextureObject_t tex,
                                 int64_t nvec, const uint8_t *__restrict__ eps, int piece_vecs,
                                 uint32_t *__restrict__ out)
{
    extern __shared__ uint4 tdm_block_shmem[];
    const int t = threadIdx.x, block = blockDim.x;
    const int stride = piece_vecs | 1;
    uint4 *tile = tdm_block_shmem;
    uint32_t *lut = reinterpret_cast<uint32_t *>(tdm_block_shmem + (kTex ? 0 : block * stride));
    uint32_t *cnt = lut + 32;
    uint8_t *ext = reinterpret_cast<uint8_t *>(cnt + block * L);
    const int64_t e = blockIdx.x;
    /* the lanes of this thread's warp (the block's last warp may be partial) */
    const int lanes = block - (t & ~31) < 32 ? block - (t & ~31) : 32;
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    for (int c = t; c < 32; c += block)
        lut[c] = 0;
    __syncthreads();
    for (int k = t; k < L; k += block) /* distinct letters: one writer per mask */
        lut[eps[e * L + k]] = tdm_residue_mask(k, L);
    __syncthreads();
    uint32_t p[L];
    if (kTex) {
        /* Every thread runs the same number of vectors; past the end it reads the pad
         * vector (index nvec). */
        const int64_t per = (nvec + block - 1) / block, lo = t * per;
        tdm_block_map<L>(per, mask, lut,
                         [&](int64_t i) {
                             int64_t v = lo + i < nvec ? lo + i : nvec;
                             return tex1Dfetch<uint4>(tex, (int)v);
                         },
                         p);
        tdm_block_reduce<L>(p, cnt, ext, t, block);
        if (t == 0)
            out[e] = cnt[0];
        return;
    }
    const int64_t tile_vecs = (int64_t)block * piece_vecs;
    uint32_t total = 0;
    int state = 0;
    for (int64_t first = 0; first < nvec; first += tile_vecs) {
        const int64_t nv = nvec - first < tile_vecs ? nvec - first : tile_vecs;
        for (int64_t i = t; i < tile_vecs; i += block) /* a short last tile is padded */
            tile[(i / piece_vecs) * stride + i % piece_vecs] = i < nv ? db[first + i]
                                                                      : TDM_PAD_VEC;
        __syncthreads();
        const uint4 *mine = tile + (int64_t)t * stride;
        tdm_block_map<L>(piece_vecs, mask, lut, [&](int64_t i) { return mine[i]; }, p);
        tdm_block_reduce<L>(p, cnt, ext, t, block);
        if (t == 0) {
            total += cnt[state];
            state = ext[state];
        }
        __syncthreads(); /* thread 0 has read the tables; the tile may be overwritten */
    }
    if (t == 0)
        out[e] = total;
}

template <int L>
static int tdm_block_prepare_at(const tdm_launch *a, dm_err *err)
{
    int smem = (int)tdm_block_smem(a->block, a->tex ? 0 : a->tile, L);
    if (a->tex)
        return DM_CUDA(err, cudaFuncSetAttribute(tdm_block_kernel<L, true>,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 smem));
    return DM_CUDA(err, cudaFuncSetAttribute(tdm_block_kernel<L, false>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
}

template <int L>
static int tdm_block_launch_at(const tdm_launch *a, dm_err *err)
{
    size_t smem = (size_t)tdm_block_smem(a->block, a->tex ? 0 : a->tile, L);
    cudaStream_t s = (cudaStream_t)a->stream;
    const uint4 *db = static_cast<const uint4 *>(a->db);
    unsigned grid = (unsigned)a->neps;
    if (a->tex)
        tdm_block_kernel<L, true><<<grid, a->block, smem, s>>>(
            db, (cudaTextureObject_t)a->tex, a->nvec, a->eps, 0, a->out);
    else
        tdm_block_kernel<L, false><<<grid, a->block, smem, s>>>(db, 0, a->nvec, a->eps,
                                                               (int)(a->tile / 16), a->out);
    return DM_CUDA(err, cudaGetLastError());
}

/* Calls fn<level>(a, err) for level 1..TDM_THREAD_MAX_LEVEL. */
#define TDM_BLOCK_DISPATCH(fn, a, err)                                                       \
    switch ((a)->level) {                                                                    \
    case 1: return fn<1>(a, err);                                                            \
    case 2: return fn<2>(a, err);                                                            \
    case 3: return fn<3>(a, err);                                                            \
    case 4: return fn<4>(a, err);                                                            \
    case 5: return fn<5>(a, err);                                                            \
    case 6: return fn<6>(a, err);                                                            \
    case 7: return fn<7>(a, err);                                                            \
    case 8: return fn<8>(a, err);                                                            \
    case 9: return fn<9>(a, err);                                                            \
    case 10: return fn<10>(a, err);                                                          \
    case 11: return fn<11>(a, err);                                                          \
    case 12: return fn<12>(a, err);                                                          \
    }                                                                                        \
    return dm_err_set(err, DM_EINPUT, "block kernels count episodes of 1 to %d letters, not %d", \
                      TDM_THREAD_MAX_LEVEL, (a)->level)

extern "C" int tdm_block_prepare(const tdm_launch *a, dm_err *err)
{
    TDM_BLOCK_DISPATCH(tdm_block_prepare_at, a, err);
}

extern "C" int tdm_block_launch(const tdm_launch *a, dm_err *err)
{
    TDM_BLOCK_DISPATCH(tdm_block_launch_at, a, err);
}
