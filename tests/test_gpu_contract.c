/* test_gpu_contract.c - the GPU half of the workload contract (test_contract.c): every
 * GPU variant of every registered workload, resolved for this GPU as a sweep would,
 * matches the CPU reference on the smallest dataset of every generator, twice over, and
 * refuses none of them. Exits 77 (skip) without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "gpu_fixture.h"
#include "registry.h"
#include "workload_fixture.h"

static void test_gpu_variants_match_the_reference_on_the_smallest_dataset(void **state)
{
    gpu_fixture *f = *state;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        wfx_check_workload(*wp, &f->ex);
    }
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_contract: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_variants_match_the_reference_on_the_smallest_dataset),
    };
    gpu_test_filter();
    return cmocka_run_group_tests(tests, setup, teardown);
}
