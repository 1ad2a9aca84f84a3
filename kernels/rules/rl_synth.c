/* rl_synth.c - the synthetic tables of the interpreter sweep (the paper's Table 4):
 * instances x numeric attributes uniform in [0, 1), and an optional class column,
 * deterministic by seed. */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "rules/rl_table.h"

int rl_synth_generate(int64_t n, int nattrs, int nclasses, uint64_t seed, rl_table *t,
                      dm_err *err)
{
    memset(t, 0, sizeof *t);
    if (n < 1 || nattrs < 1 || nclasses < 0)
        return dm_err_set(err, DM_EINPUT,
                          "synthetic table: %lld rows, %d attributes, %d classes: at least 1 "
                          "row and 1 attribute, classes 0 (none) or more",
                          (long long)n, nattrs, nclasses);
    int ncols = nattrs + (nclasses > 0);
    int rc = rl_table_init(t, n, ncols, "a%d", err);
    if (rc)
        return rc;
    if (nclasses > 0) {
        free(t->cols[nattrs].name);
        if (!(t->cols[nattrs].name = strdup("class"))) {
            rl_table_free(t);
            return dm_err_set(err, DM_ERUNTIME, "synthetic table: out of memory");
        }
    }
    /* Row by row, so a longer table starts with the rows of a shorter one. */
    dm_rng r = dm_rng_seed(seed);
    for (int64_t i = 0; i < n; i++) {
        for (int j = 0; j < nattrs; j++)
            t->cols[j].num[i] = dm_rng_unit(&r);
        if (nclasses > 0)
            t->cols[nattrs].num[i] = dm_rng_below(&r, (uint32_t)nclasses);
    }
    return 0;
}
