/* study.c - the episodes workload's study (Cao et al.): the papers, and the default
 * sweep. Their claims and the tables and figures to reproduce (Fig. 8, Table 1,
 * Figs. 10-16) come with the GPU variants that measure them (issue 12); until then
 * results/published lists the papers' tables. */
#include "study.h"

static const dm_paper episodes_papers[] = {
    { .file = "episodes-chip-on-chip-cf10", .cite = "Cao et al., CF 2010" },
    { .file = "episodes-gpu-multigpu-journal", .cite = "Cao et al., journal version" },
    { 0 },
};

const dm_study episodes_study = {
    .papers = episodes_papers,
    .default_sweep = "episodes-cpu",
};
