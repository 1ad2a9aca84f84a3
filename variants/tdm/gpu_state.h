/* gpu_state.h - what tdm's GPU variants share between tdm_variants.c (the paper's four algorithms,
 * the GPU state, the limits, the table) and choosers.c (hybrid and packed, which choose
 * their kernels and blocks per card): the state a GPU point keeps, and the functions one
 * file's variants call in the other's. */
#ifndef DM_TDM_GPU_STATE_H
#define DM_TDM_GPU_STATE_H

#include <cuda_runtime_api.h>

#include "tdm/tdm.h"

/* Threads per block of the paper's kernels unless a sweep or the per-card store sets it. */
#define TDM_BLOCK_DEFAULT "64"

typedef enum tdm_kind { TDM_THREAD, TDM_BLOCK, TDM_PACKED } tdm_kind;

typedef struct tdm_gpu_state {
    tdm_kind kind;
    cudaStream_t stream;
    tdm_episodes eps;
    void *db;        /* device: padded database */
    uint8_t *d_eps;  /* device: episodes (thread and block kinds) */
    uint32_t *d_out; /* device: one count per episode */
    uint64_t tex;    /* texture over db (*-tex), else 0 */
    uint32_t *d_masks; /* device: thread-* masks table (table constant or readonly) */
    tdm_launch la;
    tdm_groups groups; /* packed */
    uint32_t *d_first, *d_suffix;
    int32_t *d_slot;
    void *d_bits, *d_table, *d_seg;
    tdm_packed_launch pl;
    uint32_t *host_out;
} tdm_gpu_state;

/* ---- tdm_variants.c ---- */

/* Frees a GPU point's state (NULL is fine). */
void tdm_gpu_teardown(void *state);
/* Uploads n bytes from host to a new device buffer *dev on s's stream. */
int tdm_upload(tdm_gpu_state *s, const void *host, size_t n, void **dev, dm_err *err);
/* The episodes, the padded database on the device and a poisoned output, for kind. */
int tdm_gpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                  tdm_kind kind, tdm_gpu_state **out, dm_err *err);
/* One execution of the kernels s was set up for; their counts, on the host. */
int tdm_gpu_run(void *state, dm_err *err);
int tdm_gpu_output(void *state, const void **out, dm_err *err);
/* 1 with why set when pt's count, block, level (above max_level) or shared memory
 * (smem bytes a block) cannot run on dev (NULL: the count and level only). */
int tdm_refuse(const dm_point *pt, const dm_device *dev, int max_level, int64_t smem,
               char *why, size_t n);
/* The paper variants' supports() and setup() that hybrid and packed run through. */
int tdm_thread_tex_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n);
int tdm_block_tex_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n);
int tdm_thread_tex_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                         void **state, dm_err *err);
int tdm_block_tex_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        void **state, dm_err *err);
/* The packed kernels' limits on pt's parameters (held whichever kernels packed runs). */
int tdm_packed_refuse(const dm_point *pt, const dm_device *dev, char *why, size_t n);

/* ---- choosers.c: hybrid's and packed's resolve(), supports() and setup() ---- */

void tdm_hybrid_resolve(dm_point *pt, const dm_device *dev);
int tdm_hybrid_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n);
int tdm_hybrid_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                     void **state, dm_err *err);
void tdm_packed_resolve(dm_point *pt, const dm_device *dev);
int tdm_packed_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n);
int tdm_packed_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                     void **state, dm_err *err);

#endif
