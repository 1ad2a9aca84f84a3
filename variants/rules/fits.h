/* rules' crossover fits: none yet (no hybrid variant reads them). `dmbench crossover
 * --header` rewrites this file, in the form of variants/<w>/fits.h, once fits of rules
 * are stored (`dmbench crossover rules ... --store`). */
#include "crossover_lookup.h"

static const dm_crossover_fit dm_crossover_fit_table[] = {
    /* none stored yet */
    { 0 },
};
