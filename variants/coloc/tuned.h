/* coloc's tuned block sizes: none yet (no GPU variant measured). `dmbench tune
 * coloc --header` rewrites this file from measured runs. */
#include "tuned_lookup.h"

static const dm_tuned dm_tuned_table[] = {
    /* none tuned yet */
    { 0 },
};
