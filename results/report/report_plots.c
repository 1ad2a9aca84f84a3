/* report_plots.c - the report's plots section: for each run, the plots that apply to it
 * (time-vs-block, throughput-vs-size, speedup-vs-size, and from CUPTI data
 * occupancy-vs-block and timeline: those whose export finds the axis and two points),
 * drawn by gnuplot to outdir/plots/NAME-runID.svg and inlined in the HTML. Without
 * gnuplot or the scripts the section says so and the report goes on. */
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

typedef struct plot_state {
    char scripts[PATH_MAX + 128];
    char dir[PATH_MAX];
    int stop;  /* gnuplot is missing: no more tries */
    int drawn; /* figures in the report */
} plot_state;

/* Draws plot kind of run into the report when it applies. Returns 0 (a plot that does
 * not apply, or gnuplot failing, is not an error: the latter is a note) or DM_ERUNTIME. */
static int draw(const dm_report_ctx *c, plot_state *ps, const dm_plot_kind *k, int64_t run,
                int *headed, dm_err *err)
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
    if (!*headed) {
        char title[64], anchor[48];
        snprintf(title, sizeof title, "Run %lld", (long long)run);
        snprintf(anchor, sizeof anchor, "plots-run-%lld", (long long)run);
        report_heading(c->doc, 3, anchor, title);
        *headed = 1;
    }
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
    ps->drawn++;
done:
    free(svg);
    free(data);
    return rc;
}

int report_plots(const dm_report_ctx *c, dm_err *err)
{
    plot_state ps = { .stop = 0 };
    dm_err serr = { 0 };
    int rc = 0;
    if (!c->o->plots) {
        report_para(c->doc, "Plots left out (--no-plots).");
        return 0;
    }
    if (plotdraw_find_scripts(report_plot_kinds[0], ps.scripts, sizeof ps.scripts, &serr) != 0) {
        report_para(c->doc, "Plots left out: %s", serr.msg);
        return 0;
    }
    snprintf(ps.dir, sizeof ps.dir, "%s/plots", c->o->outdir);
    if ((rc = dm_make_dirs(ps.dir, err)))
        return rc;
    for (size_t i = 0; i < c->nruns && rc == 0 && !ps.stop; i++) {
        int headed = 0;
        for (const char *const *name = report_plot_kinds; *name && rc == 0 && !ps.stop; name++)
            rc = draw(c, &ps, plotdata_find(*name), c->runs[i], &headed, err);
    }
    if (rc == 0 && ps.drawn == 0 && !ps.stop)
        report_para(c->doc, "No run has a block-size or problem-size axis to plot.");
    return rc;
}
