/* report_int.h - what the report's sections share: a document writer that writes each
 * heading, paragraph, table and figure both as markdown and as HTML, escaping text for
 * each, and the section generators. */
#ifndef DM_REPORT_INT_H
#define DM_REPORT_INT_H

#include <stdio.h>

#include "characterize.h"
#include "report.h"

#define REPORT_MAX_COLS 16

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
/* Writes s escaped for HTML text and attributes. */
void report_html_text(FILE *out, const char *s);

/* Claims cls[0..n) of study s judged (res) on x's stores: a verdict table, then under a
 * heading of level each claim's words, evidence, hardware note and CUPTI lines
 * (report_characterize.c). Returns 0, or DM_ERUNTIME when reading the metrics fails. */
int report_claims(dm_report_doc *d, int level, const chz_ctx *x, const dm_study *s,
                  const dm_claim *const *cls, const dm_claim_result *res, int n, dm_err *err);

/* The sections (report_runs.c, report_reproduce.c, report_tune.c, report_fits.c,
 * report_characterize.c, report_plots.c). */
int report_runs(const dm_report_ctx *c, dm_err *err);
int report_reproduce(const dm_report_ctx *c, dm_err *err);
int report_tuning(const dm_report_ctx *c, dm_err *err);
int report_fits(const dm_report_ctx *c, dm_err *err);
int report_characterize(const dm_report_ctx *c, dm_err *err);
int report_plots(const dm_report_ctx *c, dm_err *err);

#endif
