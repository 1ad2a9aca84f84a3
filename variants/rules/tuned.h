/* rules' tuned block sizes: none yet (no GPU variant measured). `dmbench tune rules
 * --header` rewrites this file from measured runs. */
#include "tuned_lookup.h"

static const dm_tuned dm_tuned_table[] = {
    /* none tuned yet */
    { 0 },
};
