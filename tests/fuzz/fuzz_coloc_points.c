/* fuzz_coloc_points.c - libFuzzer target: coloc's point loaders, the Seattle format and
 * plain CSV, on the same input. */
#include "coloc/coloc.h"
#include "fuzz_loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *path = fuzz_file(data, n, ".csv");
    int (*const load[2])(const char *, cl_points *, dm_err *) = {cl_points_load_seattle,
                                                                  cl_points_load_csv};
    for (int i = 0; i < 2; i++) {
        cl_points p;
        dm_err err = {0};
        int rc = load[i](path, &p, &err);
        fuzz_check(rc, &err);
        if (rc == 0)
            cl_points_free(&p);
    }
    return 0;
}
