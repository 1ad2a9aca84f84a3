/* tdm_thread.cu - the paper's thread-parallel algorithms (§3.3.2): one thread per
 * episode, each scanning the whole database with its own counting machine.
 * version 1, thread-tex (Algorithm 1): the database is read through the read-only
 *   texture path, a texture object over linear memory, 16 letters per fetch; all
 *   threads start at the same place, so a fetch serves the whole warp.
 * version 2, thread-shared (Algorithm 2): each block stages the database through
 *   shared memory in tiles (all threads load, then all scan the tile).
 * Both keep each thread's 32 transition masks (tdm_fsm.cuh) in shared memory, laid out
 * [letter][thread] so a warp reads 32 consecutive words. */
#include <stdint.h>

#include <cuda_runtime.h>

#include "tdm/tdm.h"
#include "tdm/tdm_fsm.cuh"

/* Advances m over the 16 letters of q; col is the thread's mask column, rows block
 * words apart. The masks are loaded first, so the loads do not wait on the machine. */
__device__ __forceinline__ void tdm_thread_vec(uint4 q, const uint32_t *col, int block,
                                               tdm_word &m, int shift)
{
    const uint32_t words[4] = {q.x, q.y, q.z, q.w};
    uint32_t d[16];
#pragma unroll
    for (int i = 0; i < 16; i++)
        d[i] = col[((words[i / 4] >> (8 * (i % 4))) & 0xff) * block];
#pragma unroll
    for (int half = 0; half < 2; half++) {
#pragma unroll
        for (int i = 0; i < 8; i++)
            m.w += m.w & d[8 * half + i];
        tdm_renorm(m, shift);
    }
}

/* kTex: read the database through tex; else stage tile_vecs vectors per tile from db. */
template <bool kTex>
__global__ void tdm_thread_kernel(const uint4 *__restrict__ db, cudaTextureObject_t tex,
                                  int64_t nvec, const uint8_t *__restrict__ eps, int64_t neps,
                                  int level, int tile_vecs, uint32_t *__restrict__ out)
{
    extern __shared__ uint4 tdm_thread_shmem[];
    const int t = threadIdx.x, block = blockDim.x;
    uint4 *tile = tdm_thread_shmem;
    uint32_t *col = reinterpret_cast<uint32_t *>(tdm_thread_shmem + (kTex ? 0 : tile_vecs)) + t;
    const int64_t e = (int64_t)blockIdx.x * block + t;
    const bool active = e < neps;
    for (int c = 0; c < 32; c++)
        col[c * block] = 0;
    if (active)
        for (int k = 0; k < level; k++)
            col[eps[e * level + k] * block] |= tdm_residue_mask(k, level);
    const int shift = tdm_renorm_shift(level);
    tdm_word m = {1u, 0u};
    if (kTex) {
        if (!active)
            return;
        uint4 q = tex1Dfetch<uint4>(tex, 0);
        for (int64_t v = 0; v < nvec; v++) {
            uint4 next = tex1Dfetch<uint4>(tex, (int)(v + 1)); /* the pad vector at the end */
            tdm_thread_vec(q, col, block, m, shift);
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
                    tdm_thread_vec(tile[i], col, block, m, shift);
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

extern "C" int tdm_thread_prepare(const tdm_launch *a, dm_err *err)
{
    int smem = (int)tdm_thread_smem(a->block, a->tex ? 0 : a->tile);
    if (a->tex)
        return DM_CUDA(err, cudaFuncSetAttribute(tdm_thread_kernel<true>,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 smem));
    return DM_CUDA(err, cudaFuncSetAttribute(tdm_thread_kernel<false>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
}

extern "C" int tdm_thread_launch(const tdm_launch *a, dm_err *err)
{
    size_t smem = (size_t)tdm_thread_smem(a->block, a->tex ? 0 : a->tile);
    unsigned grid = (unsigned)((a->neps + a->block - 1) / a->block);
    cudaStream_t s = (cudaStream_t)a->stream;
    const uint4 *db = static_cast<const uint4 *>(a->db);
    if (a->tex)
        tdm_thread_kernel<true><<<grid, a->block, smem, s>>>(
            db, (cudaTextureObject_t)a->tex, a->nvec, a->eps, a->neps, a->level, 0, a->out);
    else
        tdm_thread_kernel<false><<<grid, a->block, smem, s>>>(
            db, 0, a->nvec, a->eps, a->neps, a->level, tdm_thread_tile_vecs(a), a->out);
    return DM_CUDA(err, cudaGetLastError());
}
