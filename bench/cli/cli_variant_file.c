/* cli_variant_file.c - writing a workload's generated table into its own folder of the
 * source tree (variants/<w>/tuned.h from `dmbench tune --header`, variants/<w>/fits.h
 * from `dmbench crossover --header`), which the workload compiles in once rebuilt. */
#include <stdio.h>

#include "cli.h"
#include "srcdir.h"

int cli_write_variant_file(const char *workload, const char *file, const char *text,
                           size_t len, char *path, size_t n, dm_err *err)
{
    char rel[256], dir[4096];
    int rc;
    snprintf(rel, sizeof rel, "%s/%s", workload, file);
    if ((rc = dm_find_source_dir("DMBENCH_VARIANTS", "variants", rel, dir, sizeof dir, err)))
        return rc;
    snprintf(path, n, "%s/%s", dir, rel);
    FILE *f;
    if ((rc = dm_open_output(path, "w", &f, err)))
        return rc;
    size_t put = fwrite(text, 1, len, f);
    if (fclose(f) != 0 || put != len)
        return dm_err_set(err, DM_ERUNTIME, "%s: write failed", path);
    return 0;
}
