/* cl_gpu_hash.cu - the prefix-based hash join refinement (Algorithm 4): the table of a
 * size-(k+1) candidate from the two size-k tables of its subsets without its last and
 * without its second-to-last feature, which share their first k - 1 ids. A hash on the
 * second table's prefixes (open addressing, each prefix group's first row) lets a thread
 * per row of the first find the rows it joins. The paper hashes the first id only; the
 * whole prefix is hashed here, so a thread reads only the rows it may join. Two runs, as
 * the grid search. */
#include "coloc/cl_gpu.cuh"

#define CLG_EMPTY (~0ull)

/* Whether rows a and b share their first p ids. */
__device__ static inline bool clg_prefix_eq(const uint32_t *a, const uint32_t *b, int p)
{
    for (int m = 0; m < p; m++)
        if (a[m] != b[m])
            return false;
    return true;
}

/* The slot a prefix of p ids hashes to (FNV-1a over the ids, then a finalising mix). */
__device__ static inline uint64_t clg_prefix_hash(const uint32_t *row, int p, uint64_t slots)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int m = 0; m < p; m++)
        h = (h ^ row[m]) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h & (slots - 1);
}

/* Whether row r of t (k ids a row) begins a prefix group. */
__device__ static inline bool clg_group_start(const uint32_t *t, uint64_t r, int k)
{
    return r == 0 || !clg_prefix_eq(t + r * k, t + (r - 1) * k, k - 1);
}

__global__ void clg_groups_kernel(const uint32_t *t, uint64_t rows, int k,
                                  unsigned long long *groups)
{
    const uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && clg_group_start(t, r, k))
        atomicAdd(groups, 1ull);
}

/* Each group's first row into a free slot from its prefix's on (a group has one first
 * row, so the table holds each prefix once, whatever order the threads run in). */
__global__ void clg_build_kernel(const uint32_t *t, uint64_t rows, int k,
                                 unsigned long long *hash, uint64_t slots)
{
    const uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows || !clg_group_start(t, r, k))
        return;
    for (uint64_t h = clg_prefix_hash(t + r * k, k - 1, slots);; h = (h + 1) & (slots - 1))
        if (atomicCAS(&hash[h], CLG_EMPTY, (unsigned long long)r) == CLG_EMPTY)
            return;
}

/* Thread t's rows: its input row with the last id b of each row of t2 sharing its prefix
 * whose b neighbours the input row's last id (the prefix ids neighbour both already), in
 * t2's order, so b ascends. WRITE: to out from offsets[t]; else counted into counts[t]
 * and *rows, ids marked in bits, the rows of points they stand for added to *points. */
template <bool WRITE>
__global__ void clg_hash_kernel(clg_pass a)
{
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long points = 0;
    uint64_t n = 0;
    if (t < a.n) {
        const int k = a.k, p = k - 1;
        const uint32_t *row = a.in + t * (uint64_t)k;
        uint64_t g = CLG_EMPTY;
        for (uint64_t h = clg_prefix_hash(row, p, a.slots);; h = (h + 1) & (a.slots - 1)) {
            g = a.hash[h];
            if (g == CLG_EMPTY || clg_prefix_eq(a.t2 + g * k, row, p))
                break;
        }
        unsigned long long w = 1; /* the points the input row stands for */
        for (int m = 0; a.points && m < k; m++)
            w *= a.s.weight[row[m]];
        uint32_t *out = WRITE ? a.out + a.offsets[t] * (uint64_t)(k + 1) : nullptr;
        for (uint64_t r = g;
             g != CLG_EMPTY && r < a.rows2 && clg_prefix_eq(a.t2 + r * k, row, p); r++) {
            const uint32_t b = a.t2[r * k + p];
            if (!clg_near(a.s, row[p], b))
                continue;
            if (WRITE) {
                for (int m = 0; m < k; m++)
                    out[m] = row[m];
                out[k] = b;
                out += k + 1;
            } else {
                if (a.bits)
                    clg_mark(a.bits, b);
                if (a.points)
                    points += w * a.s.weight[b];
            }
            n++;
        }
        if (!WRITE) {
            if (a.counts)
                a.counts[t] = n;
            if (n && a.bits)
                for (int m = 0; m < k; m++)
                    clg_mark(a.bits, row[m]);
        }
    }
    if (!WRITE && a.points)
        clg_block_add(a.points, points);
    if (!WRITE && a.rows)
        clg_block_add(a.rows, n);
}

extern "C" int clg_hash_groups(const uint32_t *t, uint64_t rows, int k,
                               unsigned long long *groups, int block, void *stream,
                               dm_err *err)
{
    if (rows == 0)
        return 0;
    clg_groups_kernel<<<clg_blocks(rows, block), block, 0, (cudaStream_t)stream>>>(t, rows, k,
                                                                                  groups);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

extern "C" int clg_hash_build(const uint32_t *t, uint64_t rows, int k, unsigned long long *hash,
                              uint64_t slots, int block, void *stream, dm_err *err)
{
    if (rows == 0)
        return 0;
    clg_build_kernel<<<clg_blocks(rows, block), block, 0, (cudaStream_t)stream>>>(t, rows, k,
                                                                                 hash, slots);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}

extern "C" int clg_hash_count(const clg_pass *a, dm_err *err)
{
    return clg_launch_pass(clg_hash_kernel<false>, a, err);
}

extern "C" int clg_hash_write(const clg_pass *a, dm_err *err)
{
    return clg_launch_pass(clg_hash_kernel<true>, a, err);
}
