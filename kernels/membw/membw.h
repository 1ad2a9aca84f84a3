/* membw.h - the memory-bandwidth calibration workload: three float arrays a, b, c made
 * from a seed, copy (out = a) and triad (out = 3c + b, fused), its CPU reference, and
 * the CUDA launchers (membw.cu) the GPU variants call. */
#ifndef DM_MEMBW_H
#define DM_MEMBW_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dataset's data (dm_dataset.data): n floats in each array. */
typedef struct membw_data {
    int64_t n;
    float *a, *b, *c;
} membw_data;

typedef enum membw_op { MEMBW_COPY = 0, MEMBW_TRIAD = 1 } membw_op;

/* The op named by the point's "op" parameter. */
membw_op membw_point_op(const dm_point *pt);

/* Fills a, b, c (n floats each) with uniform floats in [-1, 1) drawn from seed
 * (splitmix64); equal seeds give equal arrays. */
void membw_generate(uint64_t seed, int64_t n, float *a, float *b, float *c);

/* out = a (copy) or out[i] = fmaf(3, c[i], b[i]) (triad), on the CPU. */
void membw_cpu(membw_op op, const membw_data *d, float *out);

/* ---- the dm_workload callbacks ---- */

/* Generates the "random" dataset of pt's n and seed. Returns 0, DM_EINPUT for a file or
 * an unknown generator, or DM_ERUNTIME when memory runs out. */
int membw_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                       dm_err *err);
void membw_dataset_close(dm_dataset *ds);
/* The reference output (n floats). Returns 0, or DM_ERUNTIME when memory runs out. */
int membw_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err);
void membw_reference_free(void *ref);
/* 0 when out equals ref bit for bit; else 1 with why naming the first differing index
 * and both values. */
int membw_compare(const void *ref, const void *out, const dm_point *pt, char *why,
                  size_t n);
/* Bytes moved: copy 2*n*4 (read a, write out), triad 3*n*4; no ops. */
void membw_work(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w);
/* Writes out (pt's n floats, as from a variant's output or the reference) to f as
 * CSV: the header "index,value", then one row per element, each value in %.9g (which
 * reads back as the same float). Returns 0, or DM_ERUNTIME when a write fails. */
int membw_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err);

/* ---- CUDA launchers (membw.cu) ---- */

/* Enqueues op over n elements on stream with block threads per block and grid blocks
 * (grid-stride; grid 0: one thread per element, per float4 when vectorised). b and c
 * are read by triad only, a by copy only. Returns 0, or -1 with err set when the
 * launch fails. */
int membw_launch(membw_op op, const float *a, const float *b, const float *c, float *out,
                 int64_t n, int block, int64_t grid, void *stream, dm_err *err);

/* The plain cudaMemcpy loop the engine's copy bandwidth is checked against: iters
 * back-to-back device-to-device copies of bytes, timed by one pair of CUDA events after
 * one untimed copy. *gbps = 2 * bytes * iters / seconds / 1e9 (read + write). Returns
 * 0, DM_EINPUT when bytes or iters is below 1, or -1 with err set on a CUDA failure. */
int membw_plain_memcpy(int64_t bytes, int iters, double *gbps, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
