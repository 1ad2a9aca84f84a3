/* tdm_plan.c - sizes the tdm GPU variants' supports() and launchers must agree on:
 * the padded database, each kernel's dynamic shared memory, the packed kernel's
 * chunk and span entry. */
#include "tdm/tdm.h"

int64_t tdm_padded_bytes(int64_t n)
{
    return (n + 15) / 16 * 16 + 16;
}

int64_t tdm_thread_smem(int block, int64_t tile, tdm_table table)
{
    return tile + (table == TDM_TABLE_SHARED ? 32 * (int64_t)block * 4 : 0);
}

int64_t tdm_thread_table_pitch(int64_t neps)
{
    return (neps + 31) / 32 * 32;
}

int64_t tdm_block_smem(int block, int64_t piece, int level)
{
    int64_t stride = (piece / 16) | 1; /* vectors per piece, odd: see tdm_block.cu */
    int64_t tile = piece ? (int64_t)block * stride * 16 : 0;
    return tile + 32 * 4 + (int64_t)block * level * 5;
}

int64_t tdm_packed_chunk(int64_t n, int64_t groups, int sms, int64_t chunk_param)
{
    if (chunk_param > 0)
        return chunk_param;
    int64_t warps_per_chunk = (groups + 31) / 32;
    int64_t target = 32 * (int64_t)(sms > 0 ? sms : 1);
    int64_t nchunks = (target + warps_per_chunk - 1) / warps_per_chunk;
    int64_t chunk = (n + nchunks - 1) / nchunks;
    chunk = (chunk + 15) / 16 * 16;
    return chunk < 64 ? 64 : chunk > 32768 ? 32768 : chunk;
}

void tdm_packed_plan_segments(int64_t nchunks, int64_t *seglen, int64_t *nseg)
{
    if (nchunks <= 32) {
        *seglen = nchunks;
        *nseg = 1;
        return;
    }
    int64_t len = 1;
    while (len * len < nchunks)
        len++;
    *seglen = len;
    *nseg = (nchunks + len - 1) / len;
}

int tdm_packed_entry_bytes(int level)
{
    return level <= 4 ? 4 : 8;
}
