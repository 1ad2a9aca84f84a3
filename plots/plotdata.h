/* plotdata.h - the data behind each `dmbench plot`, exported from the results database to
 * a whitespace-separated .dat file: a header comment naming the run, card and columns,
 * then one block per series (gnuplot `index`), each opening with its quoted title (for
 * `title columnheader(1)`). The plots/NAME.gp scripts draw them; plots are listed in one
 * table, so a new plot is an export function and a script. */
#ifndef DM_PLOTDATA_H
#define DM_PLOTDATA_H

#include <stdio.h>

#include "store.h"

#define PLOTDATA_MAX_WHERE 8

typedef struct dm_plot_opts {
    int64_t run_id;    /* 0: the newest run */
    const char *axis;  /* NULL: the plot's default axis */
    /* "name=value": points that have the parameter must have that value (points without
     * it stay, as with a sweep's constraints) */
    const char *where[PLOTDATA_MAX_WHERE];
    int nwhere;
    const char *variant_a, *variant_b; /* crossover: NULL for the run's two variants */
    const char *group;                 /* crossover: the grouping axis */
    const char *metric;                /* metric-vs-axis: the metric's short name */
    /* plots whose series keep each variant's fastest configuration (kind->by): a
     * parameter whose every value gets its own series; NULL for none */
    const char *by;
    const char *command;               /* the command line, for the header; may be NULL */
} dm_plot_opts;

/* What the script needs besides the data, filled in by the export. */
typedef struct dm_plot_meta {
    int64_t run_id;
    char card[128];
    char title[512];     /* what, workload, run, card, date */
    char subtitle[1024]; /* parameters constant over the plot, the --where filters */
    char xlabel[256], ylabel[256];
    char baseline[64];  /* the variant speedups are against ("" when none) */
    char xformat[16], yformat[16]; /* gnuplot tic formats ("" for the default) */
    int logx, logy;     /* log scale base (2 or 10), 0 for linear */
    int series;         /* blocks of points */
    int fits;           /* blocks of fitted curves after them (crossover) */
    int rows;           /* data rows in all blocks */
} dm_plot_meta;

struct pd_ctx; /* the plot being made (plotdata_int.h) */

typedef struct dm_plot_kind {
    const char *name;    /* also the script's name: plots/NAME.gp */
    const char *summary;
    const char *axis;    /* the default axis; NULL: the run's first numeric dataset or
                            problem parameter that varies */
    int no_axis;         /* the plot has no parameter axis (a timeline) */
    int by;              /* takes --by: its series keep each variant's fastest configuration */
    /* Writes the header and blocks to out and fills m; returns 0 or a dm_err code. */
    int (*export)(struct pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err);
} dm_plot_kind;

/* The plots, ending with a zeroed entry. */
extern const dm_plot_kind plotdata_kinds[];

/* The plot called name, or NULL. */
const dm_plot_kind *plotdata_find(const char *name);

/* Writes the data of plot k for o to out and fills m. Returns 0; DM_EINPUT when there
 * is no such run, the axis is not a numeric parameter of the run (the message lists
 * those that are), a --where or --by names no parameter of the run, --by is given to a
 * plot that does not take it or names the axis, or no point is left to plot;
 * DM_ERUNTIME when SQLite fails. */
int plotdata_export(dm_store *st, const dm_plot_kind *k, const dm_plot_opts *o, FILE *out,
                    dm_plot_meta *m, dm_err *err);

#endif
