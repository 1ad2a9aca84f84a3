/* gpu_fixture.h - what the GPU tests of variants share: the first device's properties and
 * a non-blocking stream for the group, and checking a variant against the reference with
 * a count of the runs checked. Static functions, included by one test file each, after
 * cmocka.h. */
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

/* Runs v of workload w at pt twice (the second run over the first's output) and checks
 * both against the reference; a point v does not support is skipped. Needs cmocka. */
static inline void check_variant(gpu_fixture *f, const dm_workload *w, const dm_variant *v,
                                 const dm_point *pt, const dm_dataset *ds, const void *ref)
{
    dm_exec ex = {.device = &f->dev, .stream = f->stream};
    dm_err err = {0};
    char why[512] = "", where[512];
    void *st;
    const void *out;
    dm_point_format(pt, where, sizeof where);
    if (v->supports && v->supports(pt, &f->dev, why, sizeof why))
        return;
    if (v->setup(&ex, ds, pt, &st, &err))
        fail_msg("%s %s: setup: %s", v->name, where, err.msg);
    for (int rep = 0; rep < 2; rep++) {
        if (v->run(st, &err) || v->output(st, &out, &err))
            fail_msg("%s %s: %s", v->name, where, err.msg);
        if (w->compare(ref, out, pt, why, sizeof why))
            fail_msg("%s %s: %s", v->name, where, why);
    }
    f->checked++;
    v->teardown(st);
}

#endif
