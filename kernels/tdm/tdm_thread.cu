/* tdm_thread.cu - the paper's thread-parallel algorithms (§3.3.2): one thread per
 * episode, each scanning the whole database with its own counting machine.
 * version 1, thread-tex (Algorithm 1): the database is read through the read-only
 *   texture path, a texture object over linear memory, 16 letters per fetch; all
 *   threads start at the same place, so a fetch serves the whole warp.
 * version 2, thread-shared (Algorithm 2): each block stages the database through
 *   shared memory in tiles (all threads load, then all scan the tile).
 * Each thread's 32 transition masks (tdm_fsm.cuh) are where the launch's table says
 * (tdm_table): by default each thread builds them in shared memory, laid out
 * [letter][thread] so a warp reads 32 consecutive words (128 bytes a thread); or one
 * table of every episode, [letter][episode], built once at setup, is read from constant
 * memory or through the read-only cache, with no shared memory for the masks.
 *
 * Shared memory per block and the blocks per SM it allows on an H100 (228 KiB per SM,
 * 1 KiB more reserved per block; at most 2048 threads and 32 blocks), blocks 16, 32,
 * 64, 128, 256, 512, 1024:
 *   thread-tex, table shared: 128 * block bytes: 32, 32, 25, 13, 6, 3, 1 blocks
 *     (512, 1024, 1600, 1664, 1536, 1536, 1024 threads);
 *   thread-tex, constant or readonly: none: 32, 32, 32, 16, 8, 4, 2 by the thread and
 *     block limits; readonly's 36 registers (ptxas, CUDA 13) then allow 48 warps, so
 *     32, 32, 24, 12, 6, 3, 1 blocks (at most 1536 threads), the other kernels' 28-32
 *     registers allow all 64;
 *   thread-shared adds its tile (4096 letters by default): shared 32, 25, 17, 10, 6, 3,
 *     1 blocks; constant or readonly 32, 32, 32, 16, 8, 4, 2.
 * At 393,019 letters and levels 1-3 (26 to 15,600 threads, at most 8 blocks of 16 per
 * SM on 132 SMs) every grid fits in one wave under each table, so these limits do not
 * bind there (docs/records/tdm-performance.md, "Shared memory and occupancy"). */
#include <stdint.h>

#include <cuda_runtime.h>

#include "tdm/tdm.h"
#include "tdm/tdm_fsm.cuh"

/* The CONSTANT table: 32 rows of pitch words, row c holding letter c's masks. */
__constant__ uint32_t tdm_thread_cmask[32 * TDM_THREAD_CONST_EPISODES];
static_assert(sizeof tdm_thread_cmask <= 64 * 1024, "constant memory holds 64 KiB");

/* The device table whose masks tdm_thread_cmask holds (host side). */
static const uint32_t *tdm_thread_cmask_holds;

/* A thread's masks, mask of letter c at [c]: a column of shared memory or of the
 * READONLY table (rows stride words apart, read through the read-only cache), or of
 * the CONSTANT table (column col). */
template <int kTable>
struct tdm_masks;

template <>
struct tdm_masks<TDM_TABLE_SHARED> {
    const uint32_t *col;
    int stride;
    __device__ uint32_t operator[](uint32_t c) const { return col[c * stride]; }
};

template <>
struct tdm_masks<TDM_TABLE_READONLY> {
    const uint32_t *col;
    int stride; /* pitch <= 2^24 (TDM_MAX_EPISODES): 31 rows of it fit in an int */
    __device__ uint32_t operator[](uint32_t c) const { return __ldg(col + c * stride); }
};

template <>
struct tdm_masks<TDM_TABLE_CONSTANT> {
    int col;
    int stride;
    __device__ uint32_t operator[](uint32_t c) const { return tdm_thread_cmask[c * stride + col]; }
};

/* Writes the 32 masks of episode e (level letters at eps + e * level) to
 * col[c * stride]: zero, then for each letter of the episode the residues it is waited
 * for at; all zero when not active (a thread past the last episode). */
__device__ __forceinline__ void tdm_thread_fill(uint32_t *col, int stride,
                                                const uint8_t *eps, int64_t e, bool active,
                                                int level)
{
    for (int c = 0; c < 32; c++)
        col[c * stride] = 0;
    if (active)
        for (int k = 0; k < level; k++)
            col[eps[e * level + k] * stride] |= tdm_residue_mask(k, level);
}

/* Advances m over the 16 letters of q with the thread's masks. The masks are loaded
 * first, so the loads do not wait on the machine. */
template <int kTable>
__device__ __forceinline__ void tdm_thread_vec(uint4 q, const tdm_masks<kTable> &masks,
                                               tdm_word &m, int shift)
{
    const uint32_t words[4] = {q.x, q.y, q.z, q.w};
    uint32_t d[16];
#pragma unroll
    for (int i = 0; i < 16; i++)
        d[i] = masks[(words[i / 4] >> (8 * (i % 4))) & 0xff];
#pragma unroll
    for (int half = 0; half < 2; half++) {
#pragma unroll
        for (int i = 0; i < 8; i++)
            m.w += m.w & d[8 * half + i];
        tdm_renorm(m, shift);
    }
}

/* One thread per column of the CONSTANT and READONLY tables: fills the column of
 * episode e (zero past neps). */
__global__ void tdm_thread_table_kernel(const uint8_t *__restrict__ eps, int64_t neps,
                                        int level, int pitch, uint32_t *__restrict__ table)
{
    const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e < pitch)
        tdm_thread_fill(table + e, pitch, eps, e, e < neps, level);
}

/* kTex: read the database through tex; else stage tile_vecs vectors per tile from db.
 * kTable: where the masks are (tdm_table); table and pitch are the READONLY table's. */
template <bool kTex, int kTable>
__global__ void tdm_thread_kernel(const uint4 *__restrict__ db, cudaTextureObject_t tex,
                                  int64_t nvec, const uint8_t *__restrict__ eps, int64_t neps,
                                  int level, int tile_vecs, const uint32_t *__restrict__ table,
                                  int pitch, uint32_t *__restrict__ out)
{
    extern __shared__ uint4 tdm_thread_shmem[];
    const int t = threadIdx.x, block = blockDim.x;
    uint4 *tile = tdm_thread_shmem;
    const int64_t e = (int64_t)blockIdx.x * block + t;
    const bool active = e < neps;
    tdm_masks<kTable> masks;
    if constexpr (kTable == TDM_TABLE_SHARED) { /* after the tile */
        uint32_t *col =
            reinterpret_cast<uint32_t *>(tdm_thread_shmem + (kTex ? 0 : tile_vecs)) + t;
        tdm_thread_fill(col, block, eps, e, active, level);
        masks = {col, block};
    } else if constexpr (kTable == TDM_TABLE_READONLY) {
        masks = {table + e, pitch};
    } else {
        masks = {(int)e, pitch};
    }
    const int shift = tdm_renorm_shift(level);
    tdm_word m = {1u, 0u};
    if (kTex) {
        if (!active)
            return;
        uint4 q = tex1Dfetch<uint4>(tex, 0);
        for (int64_t v = 0; v < nvec; v++) {
            uint4 next = tex1Dfetch<uint4>(tex, (int)(v + 1)); /* the pad vector at the end */
            tdm_thread_vec(q, masks, m, shift);
            q = next;
        }
    } else {
        for (int64_t first = 0; first < nvec; first += tile_vecs) {
            int nv = nvec - first < tile_vecs ? (int)(nvec - first) : tile_vecs;
            __syncthreads(); /* the previous tile is scanned */
            for (int i = t; i < nv; i += block)
                tile[i] = db[first + i];
            __syncthreads();
            if (active)
#pragma unroll 2
                for (int i = 0; i < nv; i++)
                    tdm_thread_vec(tile[i], masks, m, shift);
        }
        if (!active)
            return;
    }
    out[e] = tdm_progress(m) / (uint32_t)level;
}

extern "C" int tdm_texture_create(const void *db, int64_t bytes, uint64_t *tex, dm_err *err)
{
    int dev = 0, limit = 0;
    cudaTextureObject_t obj = 0;
    if (DM_CUDA(err, cudaGetDevice(&dev)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&limit, cudaDevAttrMaxTexture1DLinearWidth, dev)))
        return DM_ERUNTIME;
    if (bytes / 16 > limit)
        return dm_err_set(err, DM_EINPUT,
                          "the database's %lld 16-letter texels exceed the device's limit of "
                          "%d for a texture over linear memory",
                          (long long)(bytes / 16), limit);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = const_cast<void *>(db);
    res.res.linear.desc = cudaCreateChannelDesc<uint4>();
    res.res.linear.sizeInBytes = (size_t)bytes;
    cudaTextureDesc desc = {};
    desc.readMode = cudaReadModeElementType;
    if (DM_CUDA(err, cudaCreateTextureObject(&obj, &res, &desc, NULL)))
        return DM_ERUNTIME;
    *tex = (uint64_t)obj;
    return 0;
}

extern "C" void tdm_texture_destroy(uint64_t tex)
{
    if (tex)
        DM_CUDA_WARN(cudaDestroyTextureObject((cudaTextureObject_t)tex));
}

static int tdm_thread_tile_vecs(const tdm_launch *a)
{
    return a->tex ? 0 : (int)(a->tile / 16);
}

static unsigned tdm_thread_ceil_div(int64_t n, int block)
{
    return (unsigned)((n + block - 1) / block);
}

typedef void (*tdm_thread_fn)(const uint4 *, cudaTextureObject_t, int64_t, const uint8_t *,
                              int64_t, int, int, const uint32_t *, int, uint32_t *);

template <bool kTex>
static tdm_thread_fn tdm_thread_kernel_of(tdm_table table)
{
    switch (table) {
    case TDM_TABLE_CONSTANT:
        return tdm_thread_kernel<kTex, TDM_TABLE_CONSTANT>;
    case TDM_TABLE_READONLY:
        return tdm_thread_kernel<kTex, TDM_TABLE_READONLY>;
    default:
        return tdm_thread_kernel<kTex, TDM_TABLE_SHARED>;
    }
}

/* The kernel instance a launch runs. */
static tdm_thread_fn tdm_thread_kernel_for(const tdm_launch *a)
{
    return a->tex ? tdm_thread_kernel_of<true>(a->table) : tdm_thread_kernel_of<false>(a->table);
}

/* Copies a's table into tdm_thread_cmask on a's stream. Returns 0, or -1 with err set. */
static int tdm_thread_cmask_load(const tdm_launch *a, dm_err *err)
{
    size_t bytes = (size_t)(32 * tdm_thread_table_pitch(a->neps)) * sizeof(uint32_t);
    if (DM_CUDA(err, cudaMemcpyToSymbolAsync(tdm_thread_cmask, a->masks, bytes, 0,
                                             cudaMemcpyDeviceToDevice,
                                             (cudaStream_t)a->stream)))
        return DM_ERUNTIME;
    tdm_thread_cmask_holds = a->masks;
    return 0;
}

extern "C" int tdm_thread_prepare(const tdm_launch *a, dm_err *err)
{
    int smem = (int)tdm_thread_smem(a->block, a->tex ? 0 : a->tile, a->table);
    int64_t pitch = tdm_thread_table_pitch(a->neps);
    if (DM_CUDA(err, cudaFuncSetAttribute(tdm_thread_kernel_for(a),
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, smem)))
        return DM_ERUNTIME;
    if (a->table == TDM_TABLE_SHARED)
        return 0;
    if (a->table == TDM_TABLE_CONSTANT && pitch > TDM_THREAD_CONST_EPISODES)
        return dm_err_set(err, DM_EINPUT,
                          "table constant holds at most %d episodes (64 KiB of constant "
                          "memory, 128 bytes each); the problem has %lld",
                          TDM_THREAD_CONST_EPISODES, (long long)a->neps);
    tdm_thread_table_kernel<<<tdm_thread_ceil_div(pitch, 256), 256, 0,
                              (cudaStream_t)a->stream>>>(a->eps, a->neps, a->level, (int)pitch,
                                                         a->masks);
    if (DM_CUDA(err, cudaGetLastError()))
        return DM_ERUNTIME;
    return a->table == TDM_TABLE_CONSTANT ? tdm_thread_cmask_load(a, err) : 0;
}

extern "C" int tdm_thread_launch(const tdm_launch *a, dm_err *err)
{
    size_t smem = (size_t)tdm_thread_smem(a->block, a->tex ? 0 : a->tile, a->table);
    if (a->table == TDM_TABLE_CONSTANT && tdm_thread_cmask_holds != a->masks &&
        tdm_thread_cmask_load(a, err))
        return DM_ERUNTIME;
    tdm_thread_kernel_for(a)<<<tdm_thread_ceil_div(a->neps, a->block), a->block, smem,
                               (cudaStream_t)a->stream>>>(
        static_cast<const uint4 *>(a->db), (cudaTextureObject_t)a->tex, a->nvec, a->eps,
        a->neps, a->level, tdm_thread_tile_vecs(a), a->masks,
        (int)tdm_thread_table_pitch(a->neps), a->out);
    return DM_CUDA(err, cudaGetLastError());
}
