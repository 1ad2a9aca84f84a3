/* gpu_fixture.h - what the GPU tests of variants share: the first device's properties, a
 * non-blocking stream for the group, and the execution context on them that
 * check_variant (variant_check.h) runs variants in, with every GPU of the machine as the
 * run's GPUs (multi-GPU variants); and a filter on the cases to run. Static functions,
 * included by one test file each, after cmocka.h. */
#ifndef DM_TEST_GPU_FIXTURE_H
#define DM_TEST_GPU_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "device.h"
#include "variant_check.h"

#define GPU_FIXTURE_MAX 8
typedef struct gpu_fixture {
    dm_device dev; /* devs[0] */
    cudaStream_t stream;
    dm_exec ex; /* on dev and stream, the machine's GPUs (up to 8) as the run's */
    dm_device devs[GPU_FIXTURE_MAX];
    const dm_device *gpus[GPU_FIXTURE_MAX];
} gpu_fixture;

static inline int setup(void **state)
{
    gpu_fixture *f = calloc(1, sizeof *f);
    dm_err err = {0};
    int n = 0;
    if (!f || DM_CUDA(&err, cudaGetDeviceCount(&n)) || device_query(0, &f->dev, &err) ||
        DM_CUDA(&err, cudaStreamCreateWithFlags(&f->stream, cudaStreamNonBlocking)))
        goto fail;
    f->gpus[0] = &f->dev;
    for (int i = 1; i < n && i < GPU_FIXTURE_MAX; i++) {
        if (device_query(i, &f->devs[i], &err))
            goto fail;
        f->gpus[i] = &f->devs[i];
    }
    if (DM_CUDA(&err, cudaSetDevice(0)))
        goto fail;
    f->ex = (dm_exec){.device = &f->dev, .stream = f->stream, .gpus = f->gpus,
                      .ngpus = n < GPU_FIXTURE_MAX ? n : GPU_FIXTURE_MAX};
    *state = f;
    return 0;
fail:
    fprintf(stderr, "setup: %s\n", err.msg);
    free(f);
    return -1;
}

static inline int teardown(void **state)
{
    gpu_fixture *f = *state;
    DM_CUDA_WARN(cudaStreamDestroy(f->stream));
    free(f);
    return 0;
}

/* Runs only the cases whose names match $DMBENCH_TEST_FILTER (cmocka's pattern, * and ?)
 * when it is set: one case under compute-sanitizer, say. Call before running the group. */
static inline void gpu_test_filter(void)
{
    const char *pattern = getenv("DMBENCH_TEST_FILTER");
    if (pattern && pattern[0])
        cmocka_set_test_filter(pattern);
}

#endif
