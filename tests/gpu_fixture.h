/* gpu_fixture.h - what the GPU tests of variants share: the first device's properties, a
 * non-blocking stream for the group, and the execution context on them that
 * check_variant (variant_check.h) runs variants in. Static functions, included by one
 * test file each, after cmocka.h. */
#ifndef DM_TEST_GPU_FIXTURE_H
#define DM_TEST_GPU_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "device.h"
#include "variant_check.h"

typedef struct gpu_fixture {
    dm_device dev;
    cudaStream_t stream;
    dm_exec ex; /* on dev and stream */
} gpu_fixture;

static inline int setup(void **state)
{
    gpu_fixture *f = calloc(1, sizeof *f);
    dm_err err = {0};
    if (!f || device_query(0, &f->dev, &err) ||
        DM_CUDA(&err, cudaStreamCreateWithFlags(&f->stream, cudaStreamNonBlocking))) {
        fprintf(stderr, "setup: %s\n", err.msg);
        free(f);
        return -1;
    }
    f->ex = (dm_exec){.device = &f->dev, .stream = f->stream};
    *state = f;
    return 0;
}

static inline int teardown(void **state)
{
    gpu_fixture *f = *state;
    DM_CUDA_WARN(cudaStreamDestroy(f->stream));
    free(f);
    return 0;
}

#endif
