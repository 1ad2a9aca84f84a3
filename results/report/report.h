/* report.h - `dmbench report`: everything in a results database as one document, written
 * twice, as markdown and as self-contained HTML (inline CSS, plots inlined as SVG). The
 * document is a table of sections, each one generator, so a section is one function. */
#ifndef DM_REPORT_H
#define DM_REPORT_H

#include <stdio.h>

#include "characterize.h"
#include "store.h"

typedef struct dm_report_opts {
    const int64_t *runs; /* the runs to report, in this order; NULL: every run */
    size_t nruns;
    int plots;           /* draw plots with gnuplot (0: the section says they were left out) */
    const char *outdir;  /* the report's folder: plots' .dat and .svg go to outdir/plots */
} dm_report_opts;

typedef struct dm_report_doc dm_report_doc; /* the two outputs being written (report_int.h) */

/* The runs a section reports (o->runs resolved), and where it writes. */
typedef struct dm_report_ctx {
    dm_store *st;
    const dm_report_opts *o;
    const int64_t *runs;
    size_t nruns;
    dm_report_doc *doc;
} dm_report_ctx;

typedef struct dm_report_section {
    const char *id;    /* the HTML anchor */
    const char *title;
    /* Writes the section's body (its heading is written for it). Returns 0 or a dm_err
     * code. */
    int (*write)(const dm_report_ctx *c, dm_err *err);
} dm_report_section;

/* The sections in document order, ending with a zeroed entry. */
extern const dm_report_section report_sections[];

/* Writes the report of o's runs to md and html. Returns 0; DM_EINPUT when a run of
 * o->runs is not in the database or the database has no runs; DM_ERUNTIME when SQLite,
 * writing, or a plot's files fail (gnuplot missing or failing is a note in the report,
 * not an error). */
int report_write(dm_store *st, const dm_report_opts *o, FILE *md, FILE *html, dm_err *err);

/* `dmbench characterize`: every claim of study s judged on x's stores for x->card and
 * x->sweep, written to out as a markdown section headed "## title" and the text of
 * preamble, then the verdicts and each claim's evidence (report_claims); counts[v] gets
 * the number of claims of each verdict. Returns 0, or the first failing rule's status
 * with err set (nothing written then). */
int report_characterize_write(FILE *out, const chz_ctx *x, const dm_study *s,
                              const char *title, const char *preamble,
                              int counts[DM_NVERDICTS], dm_err *err);

#endif
