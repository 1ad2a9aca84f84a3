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
        const dm_workload *w = *wp;
        check_cases c;
        check_begin(&c, NULL);
        for (const char *const *g = w->generators; *g; g++) {
            dm_point pt;
            dm_dataset ds;
            void *ref;
            wfx_smallest_point(w, &w->variants[0], NULL, &pt);
            wfx_open(w, *g, &pt, &ds, &ref);
            for (const dm_variant *v = w->variants; v->name; v++) {
                if (!v->needs_gpu)
                    continue;
                wfx_smallest_point(w, v, &f->dev, &pt);
                check_variant(&c, &f->ex, w, v, &pt, &ds, ref);
            }
            wfx_close(w, &ds, ref);
        }
        check_end(&c, w->name);
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
    return cmocka_run_group_tests(tests, setup, teardown);
}
