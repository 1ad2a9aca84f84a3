/* membw_variants.c - the variants of the memory-bandwidth calibration workload and its table.
 * cpu is the reference loop; kernel is a grid-stride kernel (float4 loads when the
 * arrays allow); memcpy is cudaMemcpyAsync device-to-device, for op=copy only;
 * streams-serial and streams-concurrent run the kernel on the two halves of the arrays,
 * one after the other on one stream or at once on two, so a stream timeline has
 * something real to show (overlap 0 against overlap > 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "fits.h"
#include "membw/membw.h"
#include "tuned.h"

/* ---- cpu ---------------------------------------------------------------------- */

typedef struct membw_cpu_state {
    const membw_data *d;
    membw_op op;
    float *out;
} membw_cpu_state;

static int membw_cpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    (void)ex;
    const membw_data *d = ds->data;
    membw_cpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "membw cpu: out of memory");
    s->d = d;
    s->op = membw_point_op(pt);
    s->out = malloc((size_t)d->n * sizeof(float));
    if (!s->out) {
        free(s);
        return dm_err_set(err, DM_ERUNTIME, "membw cpu: out of memory for %lld floats",
                          (long long)d->n);
    }
    *state = s;
    return 0;
}

static int membw_cpu_run(void *state, dm_err *err)
{
    (void)err;
    membw_cpu_state *s = state;
    membw_cpu(s->op, s->d, s->out);
    return 0;
}

static int membw_cpu_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    membw_cpu_state *s = state;
    *out = s->out;
    return 0;
}

static void membw_cpu_teardown(void *state)
{
    membw_cpu_state *s = state;
    if (s)
        free(s->out);
    free(s);
}

/* ---- GPU state shared by kernel and memcpy ------------------------------------------ */

typedef struct membw_gpu_state {
    int64_t n;
    membw_op op;
    int block;
    int64_t grid; /* 0: one thread per element */
    cudaStream_t stream;
    float *a, *b, *c, *out; /* device */
    float *host_out;
} membw_gpu_state;

static void membw_gpu_teardown(void *state)
{
    membw_gpu_state *s = state;
    if (!s)
        return;
    dm_gpu_free(s->stream, s->a);
    dm_gpu_free(s->stream, s->b);
    dm_gpu_free(s->stream, s->c);
    dm_gpu_free(s->stream, s->out);
    free(s->host_out);
    free(s);
}

/* Allocates the three arrays and the output on the device, uploads the arrays and
 * poisons the output with 0xFF bytes (NaNs), so a variant that writes nothing fails
 * verification. Returns 0, or DM_ERUNTIME with err set. */
static int membw_gpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           void **state, dm_err *err)
{
    const membw_data *d = ds->data;
    size_t bytes = (size_t)d->n * sizeof(float);
    membw_gpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "membw: out of memory");
    s->n = d->n;
    s->op = membw_point_op(pt);
    s->stream = (cudaStream_t)ex->stream;
    s->host_out = malloc(bytes);
    if (!s->host_out) {
        dm_err_set(err, DM_ERUNTIME, "membw: out of memory for %lld floats",
                   (long long)d->n);
        goto fail;
    }
    /* On the variant's stream: a non-blocking stream does not wait for work on the
     * legacy default stream, so plain cudaMemcpy/cudaMemset could land after a run. */
    if (dm_gpu_alloc(s->stream, bytes, (void **)&s->a, err) ||
        dm_gpu_alloc(s->stream, bytes, (void **)&s->b, err) ||
        dm_gpu_alloc(s->stream, bytes, (void **)&s->c, err) ||
        dm_gpu_alloc(s->stream, bytes, (void **)&s->out, err) ||
        DM_CUDA(err, cudaMemcpyAsync(s->a, d->a, bytes, cudaMemcpyHostToDevice, s->stream)) ||
        DM_CUDA(err, cudaMemcpyAsync(s->b, d->b, bytes, cudaMemcpyHostToDevice, s->stream)) ||
        DM_CUDA(err, cudaMemcpyAsync(s->c, d->c, bytes, cudaMemcpyHostToDevice, s->stream)) ||
        DM_CUDA(err, cudaMemsetAsync(s->out, 0xFF, bytes, s->stream)) ||
        DM_CUDA(err, cudaStreamSynchronize(s->stream)))
        goto fail;
    *state = s;
    return 0;
fail:
    membw_gpu_teardown(s);
    return DM_ERUNTIME;
}

static int membw_gpu_output(void *state, const void **out, dm_err *err)
{
    membw_gpu_state *s = state;
    if (DM_CUDA(err, cudaMemcpyAsync(s->host_out, s->out, (size_t)s->n * sizeof(float),
                                     cudaMemcpyDeviceToHost, s->stream)) ||
        DM_CUDA(err, cudaStreamSynchronize(s->stream)))
        return DM_ERUNTIME;
    *out = s->host_out;
    return 0;
}

/* ---- kernel --------------------------------------------------------------------- */

static int membw_kernel_supports(const dm_point *pt, const dm_device *dev, char *why,
                                 size_t n)
{
    int64_t block = dm_point_int(pt, "block");
    if (dev && block > dev->max_threads_per_block) {
        snprintf(why, n, "block %lld exceeds the device's %d threads per block",
                 (long long)block, dev->max_threads_per_block);
        return 1;
    }
    return 0;
}

static int membw_kernel_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                              void **state, dm_err *err)
{
    if (membw_gpu_setup(ex, ds, pt, state, err))
        return DM_ERUNTIME;
    membw_gpu_state *s = *state;
    s->block = (int)dm_point_int(pt, "block");
    int64_t per_sm = dm_point_int(pt, "blocks_per_sm");
    s->grid = per_sm == 0 ? 0 : per_sm * ex->device->sms;
    return 0;
}

static int membw_kernel_run(void *state, dm_err *err)
{
    membw_gpu_state *s = state;
    return membw_launch(s->op, s->a, s->b, s->c, s->out, s->n, s->block, s->grid,
                        s->stream, err);
}

/* ---- memcpy --------------------------------------------------------------------- */

static int membw_memcpy_supports(const dm_point *pt, const dm_device *dev, char *why,
                                 size_t n)
{
    (void)dev;
    if (membw_point_op(pt) != MEMBW_COPY) {
        snprintf(why, n, "memcpy only copies (op=copy)");
        return 1;
    }
    return 0;
}

static int membw_memcpy_run(void *state, dm_err *err)
{
    membw_gpu_state *s = state;
    if (DM_CUDA(err, cudaMemcpyAsync(s->out, s->a, (size_t)s->n * sizeof(float),
                                     cudaMemcpyDeviceToDevice, s->stream)))
        return DM_ERUNTIME;
    return 0;
}

/* ---- streams-serial, streams-concurrent ------------------------------------------ */

/* The kernel variant's state and, for two streams, the second stream and the events that
 * fork it from the variant's stream and join it back, so the engine's events on the
 * variant's stream time both halves. */
typedef struct membw_streams_state {
    membw_gpu_state *g;
    cudaStream_t second;       /* NULL: both halves on g->stream */
    cudaEvent_t fork, join;
} membw_streams_state;

static void membw_streams_teardown(void *state)
{
    membw_streams_state *s = state;
    if (!s)
        return;
    if (s->fork)
        DM_CUDA_WARN(cudaEventDestroy(s->fork));
    if (s->join)
        DM_CUDA_WARN(cudaEventDestroy(s->join));
    if (s->second)
        DM_CUDA_WARN(cudaStreamDestroy(s->second));
    membw_gpu_teardown(s->g);
    free(s);
}

/* Sets up the kernel variant's arrays; with two streams, the second stream and events. */
static int membw_streams_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                               void **state, int two, dm_err *err)
{
    membw_streams_state *s = calloc(1, sizeof *s);
    void *g = NULL;
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "membw streams: out of memory");
    if (membw_kernel_setup(ex, ds, pt, &g, err))
        goto fail;
    s->g = g;
    if (two && (DM_CUDA(err, cudaStreamCreateWithFlags(&s->second, cudaStreamNonBlocking)) ||
                DM_CUDA(err, cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming)) ||
                DM_CUDA(err, cudaEventCreateWithFlags(&s->join, cudaEventDisableTiming))))
        goto fail;
    *state = s;
    return 0;
fail:
    membw_streams_teardown(s);
    return DM_ERUNTIME;
}

static int membw_streams_serial_setup(const dm_exec *ex, const dm_dataset *ds,
                                      const dm_point *pt, void **state, dm_err *err)
{
    return membw_streams_setup(ex, ds, pt, state, 0, err);
}

static int membw_streams_concurrent_setup(const dm_exec *ex, const dm_dataset *ds,
                                          const dm_point *pt, void **state, dm_err *err)
{
    return membw_streams_setup(ex, ds, pt, state, 1, err);
}

/* Enqueues op over elements [from, from + count) on stream; nothing when count is 0. */
static int membw_streams_half(const membw_gpu_state *g, int64_t from, int64_t count,
                              cudaStream_t stream, dm_err *err)
{
    if (count == 0)
        return 0;
    return membw_launch(g->op, g->a + from, g->b + from, g->c + from, g->out + from, count,
                        g->block, g->grid, stream, err);
}

static int membw_streams_run(void *state, dm_err *err)
{
    membw_streams_state *s = state;
    const membw_gpu_state *g = s->g;
    /* The first half ends on a multiple of 4 floats: both halves stay 16-byte aligned. */
    int64_t half = g->n / 2 / 4 * 4;
    cudaStream_t other = s->second ? s->second : g->stream;
    if (s->second && (DM_CUDA(err, cudaEventRecord(s->fork, g->stream)) ||
                      DM_CUDA(err, cudaStreamWaitEvent(s->second, s->fork, 0))))
        return DM_ERUNTIME;
    if (membw_streams_half(g, 0, half, g->stream, err) ||
        membw_streams_half(g, half, g->n - half, other, err))
        return DM_ERUNTIME;
    if (s->second && (DM_CUDA(err, cudaEventRecord(s->join, s->second)) ||
                      DM_CUDA(err, cudaStreamWaitEvent(g->stream, s->join, 0))))
        return DM_ERUNTIME;
    return 0;
}

static int membw_streams_output(void *state, const void **out, dm_err *err)
{
    membw_streams_state *s = state;
    return membw_gpu_output(s->g, out, err);
}

/* ---- the table ------------------------------------------------------------------ */

static const char *const membw_generators[] = {"random", NULL};

static const dm_param_spec membw_dataset_params[] = {
    {.name = "n", .type = DM_P_INT, .def = "16777216", .allowed = "1..4294967296",
     .help = "number of float elements in each array", .tune = DM_TUNE_SIZE },
    {.name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0..",
     .help = "seed of the generator", .tune = DM_TUNE_ANY },
    {0},
};

static const dm_param_spec membw_problem_params[] = {
    {.name = "op", .type = DM_P_ENUM, .def = "copy", .allowed = "copy|triad",
     .help = "copy: out = a; triad: out = 3*c + b (fused multiply-add)"},
    {0},
};

static const dm_param_spec membw_kernel_params[] = {
    {.name = "block", .type = DM_P_INT, .def = "256", .allowed = "32..1024",
     .help = "threads per block"},
    {.name = "blocks_per_sm", .type = DM_P_INT, .def = "0", .allowed = "0..64",
     .help = "grid = blocks_per_sm * SMs, grid-stride; 0: one thread per element"},
    {0},
};

static const dm_variant membw_variants[] = {
    {.name = "cpu", .description = "single-threaded CPU loop (the reference)",
     .needs_gpu = 0, .params = NULL, .supports = NULL, .setup = membw_cpu_setup,
     .run = membw_cpu_run, .output = membw_cpu_output, .teardown = membw_cpu_teardown},
    {.name = "kernel", .description = "grid-stride CUDA kernel, float4 loads when aligned",
     .needs_gpu = 1, .params = membw_kernel_params, .supports = membw_kernel_supports,
     .setup = membw_kernel_setup, .run = membw_kernel_run, .output = membw_gpu_output,
     .teardown = membw_gpu_teardown},
    {.name = "memcpy", .description = "cudaMemcpyAsync device to device (op=copy only)",
     .needs_gpu = 1, .params = NULL, .supports = membw_memcpy_supports,
     .setup = membw_gpu_setup, .run = membw_memcpy_run, .output = membw_gpu_output,
     .teardown = membw_gpu_teardown},
    {.name = "streams-serial",
     .description = "the kernel on each half of the arrays, one after the other on one stream",
     .needs_gpu = 1, .params = membw_kernel_params, .supports = membw_kernel_supports,
     .setup = membw_streams_serial_setup, .run = membw_streams_run,
     .output = membw_streams_output, .teardown = membw_streams_teardown},
    {.name = "streams-concurrent",
     .description = "the kernel on each half of the arrays at once, on two streams",
     .needs_gpu = 1, .params = membw_kernel_params, .supports = membw_kernel_supports,
     .setup = membw_streams_concurrent_setup, .run = membw_streams_run,
     .output = membw_streams_output, .teardown = membw_streams_teardown},
    {0},
};

/* The engine's copy bandwidth against a plain cudaMemcpy loop: one large copy, beyond any
 * L2, with the copy kernel at several block sizes and cudaMemcpyAsync, measured cold. */
static const char *const membw_calibrated[] = { "kernel", "memcpy", NULL };
static const dm_calibration membw_calibration = {
    .sweep = "name: calibrate\n"
             "description: membw copy bandwidth, checked against a plain cudaMemcpy loop\n"
             "workload: membw\n"
             "dataset: { generator: random }\n"
             "variants: [kernel, memcpy]\n"
             "axes:\n"
             "  n: %lld\n"
             "  op: copy\n"
             "  block: [128, 256, 512, 1024]\n"
             "measure: { mode: cold, min_samples: 20, max_noise: 0.005, max_time: 2.0 }\n",
    .item_bytes = 4,
    .variants = membw_calibrated,
    .key_part = "op=copy",
    .plain_name = "plain cudaMemcpy loop (events)",
    .plain_iters = 100,
    .plain = membw_plain_memcpy,
    .tolerance = 0.05,
};

extern const dm_study membw_study; /* membw_study.c */
const dm_workload membw_workload = {
    .name = "membw",
    .description = "memory bandwidth calibration: copy and triad over float arrays",
    .generators = membw_generators,
    .dataset_params = membw_dataset_params,
    .problem_params = membw_problem_params,
    .dataset_open = membw_dataset_open,
    .dataset_close = membw_dataset_close,
    .reference = membw_reference,
    .reference_free = membw_reference_free,
    .compare = membw_compare,
    .work = membw_work,
    .write_result = membw_write_result,
    .variants = membw_variants,
    .calibration = &membw_calibration,
    .tuned = dm_tuned_table,
    .fits = dm_crossover_fit_table,
    .study = &membw_study,
};
