/* membw_study.c - membw's study: no paper of its own (it calibrates the engine), so no claims
 * and no reproduce targets; its default sweep is the copy and triad bandwidth job. */
#include "study.h"

const dm_study membw_study = {
    .default_sweep = "default",
};
