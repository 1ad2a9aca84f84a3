/* report_scaling.c - a run's multi-GPU points in its findings, each against the fastest
 * verified one-GPU point of its problem in the run, its own variant at gpus=1 beside it,
 * labelled (scaling.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_int.h"
#include "samples.h"
#include "scaling.h"

int report_scaling(const dm_report_ctx *c, int64_t run, dm_err *err)
{
    static const char *const head[] = {"point", "variant", "GPUs", "median",
                                       "speedup over the fastest one GPU", "fastest one GPU",
                                       "its median", "over its own variant on 1 GPU"};
    scaling_row *rows;
    size_t n;
    if (scaling_rows(c->st, run, &rows, &n, err))
        return err->code;
    if (n == 0)
        return 0;
    report_para(c->doc, "Several GPUs: each point against the fastest verified one-GPU point "
                "of the same problem in this run (any variant), and, labelled, against its "
                "own variant at gpus=1:");
    report_table_begin(c->doc, 8, head);
    for (size_t i = 0; i < n; i++) {
        const scaling_row *r = &rows[i];
        char idx[24], gpus[24], median[32], speedup[32] = "-", best[1100] = "none in the run",
             best_median[32] = "-", own[32] = "-";
        snprintf(idx, sizeof idx, "%lld", (long long)r->idx);
        snprintf(gpus, sizeof gpus, "%lld", (long long)r->gpus);
        samples_fmt_seconds(r->median, median, sizeof median);
        if (!isnan(r->best_median)) {
            snprintf(speedup, sizeof speedup, "%.2fx", r->best_median / r->median);
            snprintf(best, sizeof best, "%s (%s)", r->best_variant, r->best_params);
            samples_fmt_seconds(r->best_median, best_median, sizeof best_median);
        }
        if (!isnan(r->own_median))
            snprintf(own, sizeof own, "%.2fx", r->own_median / r->median);
        const char *cells[] = {idx, r->variant, gpus, median, speedup, best, best_median, own};
        report_table_row(c->doc, cells);
    }
    report_table_end(c->doc);
    free(rows);
    return 0;
}
