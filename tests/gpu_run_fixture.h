/* gpu_run_fixture.h - what the GPU tests that run sweeps through the runner share: the
 * first device's properties and a scratch folder for the runs' database. Static
 * functions, included by one test file each, after cmocka.h. */
#ifndef DM_TEST_GPU_RUN_FIXTURE_H
#define DM_TEST_GPU_RUN_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "store_fixture.h"

typedef struct gpu_run_fixture {
    dm_device dev;
    afx db; /* the runs' database, opened after a run by afx_open_store */
} gpu_run_fixture;

static int setup(void **state)
{
    gpu_run_fixture *f = calloc(1, sizeof *f);
    dm_err err = {0};
    if (!f || device_query(0, &f->dev, &err)) {
        fprintf(stderr, "setup: %s\n", err.msg);
        free(f);
        return -1;
    }
    *state = f;
    return afx_make(&f->db);
}

static int teardown(void **state)
{
    gpu_run_fixture *f = *state;
    int rc = afx_close(&f->db);
    free(f);
    return rc;
}

#endif
