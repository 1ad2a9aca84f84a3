/* report_plots.c - a run's plots in its findings: those that apply to it
 * (time-vs-block, throughput-vs-size, speedup-vs-size, and from CUPTI data
 * occupancy-vs-block, timeline and stage-times: those whose export finds the axis and
 * two points), drawn by gnuplot to outdir/plots/NAME-runID.svg and inlined in the HTML.
 * Without gnuplot or the scripts the report says so once and goes on. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plotdata.h"
#include "plotdraw.h"
#include "report_int.h"

static const char *const report_plot_kinds[] = { "time-vs-block", "throughput-vs-size",
                                                 "speedup-vs-size", "occupancy-vs-block",
                                                 "timeline", "stage-times", NULL };

/* Draws plot kind of run into the report when it applies. Returns 0 (a plot that does
 * not apply, or gnuplot failing, is not an error: the latter is a note) or DM_ERUNTIME. */
static int draw(const dm_report_ctx *c, report_plotter *ps, const dm_plot_kind *k, int64_t run,
                int *drawn, dm_err *err)
{
    dm_plot_opts po = { .run_id = run };
    dm_plot_meta m;
    dm_err perr = { 0 };
    char *data = NULL, *svg = NULL, dat[PATH_MAX + 300], path[PATH_MAX + 300], rel[300];
    size_t len = 0;
    FILE *fp = open_memstream(&data, &len);
    int rc;
    if (!fp)
        return dm_err_set(err, DM_ERUNTIME, "open_memstream: %s", strerror(errno));
    rc = plotdata_export(c->st, k, &po, fp, &m, &perr);
    fclose(fp);
    if (rc == DM_EINPUT || (rc == 0 && m.rows < 2)) { /* no such axis, or nothing to draw */
        rc = 0;
        goto done;
    }
    if (rc) {
        *err = perr;
        goto done;
    }
    snprintf(rel, sizeof rel, "plots/%s-run%lld.svg", k->name, (long long)run);
    snprintf(dat, sizeof dat, "%s/%s-run%lld.dat", ps->dir, k->name, (long long)run);
    snprintf(path, sizeof path, "%s/%s-run%lld.svg", ps->dir, k->name, (long long)run);
    if ((rc = dm_write_file(dat, data, len, err)))
        goto done;
    if (plotdraw_render(&m, ps->scripts, k->name, dat, path, "svg", &perr) != 0) {
        ps->stop = strstr(perr.msg, "gnuplot not found") != NULL;
        report_para(c->doc, "%s not drawn: %s", k->name, perr.msg);
        goto done;
    }
    if ((rc = dm_read_file(path, &svg, NULL, err))) {
        rc = err->code = DM_ERUNTIME; /* the file is gnuplot's output, not the user's */
        goto done;
    }
    const char *start = strstr(svg, "<svg");
    char caption[1600];
    snprintf(caption, sizeof caption, "%s%s%s", m.title, m.subtitle[0] ? ". " : "", m.subtitle);
    report_figure(c->doc, start ? start : "", rel, caption);
    ++*drawn;
done:
    free(svg);
    free(data);
    return rc;
}

int report_plots_open(const dm_report_ctx *c, report_plotter *ps, dm_err *err)
{
    dm_err serr = { 0 };
    memset(ps, 0, sizeof *ps);
    ps->stop = 1;
    if (!c->o->plots) {
        report_para(c->doc, "Plots left out (--no-plots).");
        return 0;
    }
    if (plotdraw_find_scripts(report_plot_kinds[0], ps->scripts, sizeof ps->scripts, &serr) != 0) {
        report_para(c->doc, "Plots left out: %s", serr.msg);
        return 0;
    }
    snprintf(ps->dir, sizeof ps->dir, "%s/plots", c->o->outdir);
    ps->stop = 0;
    return dm_make_dirs(ps->dir, err);
}

int report_run_plots(const dm_report_ctx *c, report_plotter *ps, int64_t run, dm_err *err)
{
    int rc = 0, drawn = 0;
    if (ps->stop)
        return 0;
    for (const char *const *name = report_plot_kinds; *name && rc == 0 && !ps->stop; name++)
        rc = draw(c, ps, plotdata_find(*name), run, &drawn, err);
    if (rc == 0 && drawn == 0 && !ps->stop)
        report_para(c->doc, "No plot: the run has no block-size or problem-size axis with two "
                    "points on it.");
    return rc;
}
