/* gpu_fixture.h - what the GPU tests of variants share: the first device's properties and
 * a non-blocking stream for the group, and a count of variant runs checked against the
 * reference. Static functions, included by one test file each. */
#ifndef DM_TEST_GPU_FIXTURE_H
#define DM_TEST_GPU_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "device.h"

typedef struct gpu_fixture {
    dm_device dev;
    cudaStream_t stream;
    int checked; /* variant runs compared with the reference */
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
    *state = f;
    return 0;
}

static inline int teardown(void **state)
{
    gpu_fixture *f = *state;
    if (f->checked)
        fprintf(stderr, "%d variant runs matched the reference\n", f->checked);
    DM_CUDA_WARN(cudaStreamDestroy(f->stream));
    free(f);
    return 0;
}

#endif
