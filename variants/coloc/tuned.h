/* coloc's tuned block sizes: none yet (sweeps/coloc-tune-seattle.yaml and
 * coloc-tune-synthetic.yaml have not run; docs/coloc.md, "Tuning"). `dmbench tune coloc
 * --header` rewrites this file from their runs. */
#include "tuned_lookup.h"

static const dm_tuned dm_tuned_table[] = {
    /* none tuned yet */
    { 0 },
};
