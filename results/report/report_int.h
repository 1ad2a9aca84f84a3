/* report_int.h - what the report's sections share: a document writer that writes each
 * heading, paragraph, table and figure both as markdown and as HTML, escaping text for
 * each, and the section generators. */
#ifndef DM_REPORT_INT_H
#define DM_REPORT_INT_H

#include <limits.h>
#include <stdio.h>

#include "characterize.h"
#include "report.h"

#define REPORT_MAX_COLS 64
#define REPORT_MAX_AXES 48 /* parameters of one run's points that a table tells apart */

struct dm_report_doc {
    FILE *md, *html; /* html may be NULL: markdown only */
    int ncols; /* columns of the open table, 0 when none is open */
};

/* A heading of level 1-4 with an HTML anchor id (NULL for none); text is escaped. */
void report_heading(dm_report_doc *d, int level, const char *id, const char *text);
/* A paragraph of plain text (escaped). */
void report_para(dm_report_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A table of ncols columns (at most REPORT_MAX_COLS) with these headers; rows are
 * ncols cells each (NULL cells print "-"); every cell is escaped. */
void report_table_begin(dm_report_doc *d, int ncols, const char *const *headers);
void report_table_row(dm_report_doc *d, const char *const *cells);
void report_table_end(dm_report_doc *d);
/* A figure: svg (a gnuplot SVG file's text, from its <svg element on) inlined in the
 * HTML, and a markdown image linking md_path (relative to the report). */
void report_figure(dm_report_doc *d, const char *svg, const char *md_path, const char *caption);
/* HTML only: a <div class="cls"> holding what follows up to report_div_end (the layout's
 * boxes; markdown has none). */
void report_div_begin(dm_report_doc *d, const char *cls);
void report_div_end(dm_report_doc *d);
/* A folded block showing summary, open on a click, up to report_details_end: HTML's
 * <details> in both formats (GitHub's markdown folds it too). */
void report_details_begin(dm_report_doc *d, const char *summary);
void report_details_end(dm_report_doc *d);
/* A paragraph of text, then a link reading label to the anchor id. */
void report_para_link(dm_report_doc *d, const char *text, const char *id, const char *label);
/* Writes s escaped for HTML text and attributes. */
void report_html_text(FILE *out, const char *s);

/* A run's parameters as axes (report_axes.c): those of its ok, failed and skipped
 * points, in the order of the first point that has each. */
typedef struct report_axes {
    int n;
    char name[REPORT_MAX_AXES][64];
    int varies[REPORT_MAX_AXES]; /* a point has another value, or none */
    size_t npoints;
    int64_t *idx;  /* the points' idx, ascending */
    char **value;  /* value[p * n + k]: point p's value of axis k; NULL when it has none */
} report_axes;

/* Reads the axes of run into *a (report_axes_free frees them). Returns 0 or DM_ERUNTIME. */
int report_axes_read(dm_store *st, int64_t run, report_axes *a, dm_err *err);
void report_axes_free(report_axes *a);
/* The value of axis of the point at idx; NULL when it has none. */
const char *report_axes_value(const report_axes *a, int64_t idx, int axis);
/* Whether axis is one of the parameters of key ("name=value,...", a problem key). */
int report_axes_in_key(const report_axes *a, int axis, const char *key);
/* "name=value, ..." of the axes that do not vary (only those in key, unless NULL) into
 * buf; "" when none. */
void report_axes_constants(const report_axes *a, const char *key, char *buf, size_t n);

/* Claims cls[0..n) of study s judged (res) on x's stores: a verdict table, then under a
 * heading of level each claim's words, evidence, hardware note and CUPTI lines
 * (report_characterize.c). Returns 0, or DM_ERUNTIME when reading the metrics fails. */
int report_claims(dm_report_doc *d, int level, const chz_ctx *x, const dm_study *s,
                  const dm_claim *const *cls, const dm_claim_result *res, int n, dm_err *err);

/* The facts of run's points (report_facts.c), folded: a row per point and group, a
 * column per fact name; nothing when they have none. Returns 0 or DM_ERUNTIME. */
int report_facts(const dm_report_ctx *c, long long run, dm_err *err);

/* The verdicts of the claims that run's sweep feeds, judged on its card, as a table with a
 * line saying what they were judged on (nothing when the run is not a complete GPU run of
 * a sweep claims read). Returns 0 or the first failing rule's status. */
int report_run_verdicts(const dm_report_ctx *c, int64_t run, dm_err *err);

/* The headline's findings of run (report_headline.c): the fastest verified variant per
 * problem, with its median, speedup over baseline (NULL: the run has none) and noise;
 * and the points not measured, grouped by why. Return 0 or DM_ERUNTIME. */
int report_fastest(const dm_report_ctx *c, int64_t run, const char *baseline, dm_err *err);
int report_unmeasured(const dm_report_ctx *c, int64_t run, dm_err *err);
/* Run's multi-GPU points against the fastest one GPU of each problem (report_scaling.c,
 * scaling.h); nothing when the run has none. Returns 0 or DM_ERUNTIME. */
int report_scaling(const dm_report_ctx *c, int64_t run, dm_err *err);

/* Drawing the runs' plots (report_plots.c). */
typedef struct report_plotter {
    char scripts[PATH_MAX + 128];
    char dir[PATH_MAX];
    int stop; /* plots are off, or gnuplot is missing: no more tries */
} report_plotter;

/* Finds gnuplot's scripts and makes outdir/plots; when plots are off or the scripts are
 * missing, says so in a paragraph (no plots are drawn then). Returns 0 or DM_ERUNTIME. */
int report_plots_open(const dm_report_ctx *c, report_plotter *ps, dm_err *err);
/* Draws the plots that apply to run as figures (a note when none does, or when gnuplot
 * fails). Returns 0 or DM_ERUNTIME. */
int report_run_plots(const dm_report_ctx *c, report_plotter *ps, int64_t run, dm_err *err);

/* The sections (report_findings.c, report_reproduce.c, report_tune.c, report_fits.c,
 * report_characterize.c, report_runs.c). */
int report_findings(const dm_report_ctx *c, dm_err *err);
int report_reproduce(const dm_report_ctx *c, dm_err *err);
int report_tuning(const dm_report_ctx *c, dm_err *err);
int report_fits(const dm_report_ctx *c, dm_err *err);
int report_characterize(const dm_report_ctx *c, dm_err *err);
int report_runs(const dm_report_ctx *c, dm_err *err);

#endif
