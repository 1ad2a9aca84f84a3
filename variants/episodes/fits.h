/* episodes' crossover fits: none yet (the hybrid variant that reads them is to come).
 * `dmbench crossover --header` rewrites this file once fits of episodes are stored
 * (`dmbench crossover episodes ... --store`). */
#include "crossover_lookup.h"

static const dm_crossover_fit dm_crossover_fit_table[] = {
    /* none stored yet */
    { 0 },
};
