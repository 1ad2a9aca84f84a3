/* report_reproduce.c - the report's "Reproduced tables" section: each complete run of a
 * sweep that reproduces a paper's table or figure (reproduce.h), the newest per
 * sweep and card among the report's runs, set beside the published values. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"
#include "reproduce.h"
#include "srcdir.h"

int report_reproduce(const dm_report_ctx *c, dm_err *err)
{
    chz_ctx cz = { .st = { c->st }, .nst = 1 };
    dm_pub_table pub = { 0 };
    char dir[PATH_MAX], sweep[128], later[128];
    int rc, written = 0;
    if ((rc = dm_find_source_dir("DMBENCH_PUBLISHED", "results/published", "README.md", dir,
                                 sizeof dir, err)) ||
        (rc = published_load_dir(dir, &pub, err)))
        return rc;
    for (size_t i = 0; i < c->nruns && rc == 0; i++) {
        chz_run run, next;
        repro_target t;
        if ((rc = chz_read_run(&cz, 0, c->runs[i], &run, sweep, sizeof sweep, err)) ||
            !run.id || !repro_find_sweep(sweep, &t))
            continue;
        size_t j = i + 1; /* a later run of the same sweep on the same card replaces it */
        for (; j < c->nruns && rc == 0; j++)
            if ((rc = chz_read_run(&cz, 0, c->runs[j], &next, later, sizeof later, err)) ||
                (next.id && !strcmp(later, sweep) && !strcmp(next.gpu, run.gpu) &&
                 strcmp(next.started, run.started) >= 0))
                break;
        if (rc == 0 && j == c->nruns) {
            rc = repro_write(&cz, &pub, &t, &run, c->doc, err);
            written++;
        }
    }
    if (rc == 0 && !written)
        report_para(c->doc, "No run reproduces a published table or figure (`dmbench "
                            "reproduce --list` names them and the sweeps that do).");
    published_free(&pub);
    return rc;
}
