/* plotdata_int.h - what the plot exports share inside results/ (prefix pd_): the run
 * being plotted, rows read from a query and turned into titled series, the .dat header. */
#ifndef DM_PLOTDATA_INT_H
#define DM_PLOTDATA_INT_H

#include "plotdata.h"

#define PD_MAXV 4 /* value columns per row after x */

typedef struct pd_run {
    int64_t id;
    char card[128]; /* "" without a GPU */
    char cc[16];
    char workload[64];
    char sweep[128];
    char started[40];
    char baseline[64]; /* "" when the run has none */
    char axis[64];     /* the default axis, when one was chosen */
} pd_run;

/* One plot being made: the database, the options, the run and the resolved axis. */
typedef struct pd_ctx {
    dm_store *st;
    const dm_plot_kind *kind;
    const dm_plot_opts *o;
    pd_run run;
    const char *axis;
} pd_ctx;

/* One point as a plot sees it: its series (variant and key), x, and the values. */
typedef struct pd_row {
    char variant[64];
    char key[512]; /* the series' parameters, without the axis */
    double x;
    double order;  /* the lowest wins when a series has several rows at one x */
    double v[PD_MAXV];
} pd_row;

typedef struct pd_rows {
    pd_row *r;
    size_t n, cap;
} pd_rows;

/* Runs sql with ?1 bound to the run id and ?2 to the axis; its columns must be variant,
 * params (for the --where filters and --by), key (params or problem key), x, order and
 * nv values (NULL reads as NAN). Appends the rows that pass the filters, the --by
 * parameter added to a key that lacks it. Returns 0, or DM_ERUNTIME. */
int pd_rows_read(pd_ctx *c, const char *sql, int nv, pd_rows *rows, dm_err *err);
void pd_rows_free(pd_rows *rows);
/* Whether a "name=value,..." list passes every --where filter of c. */
int pd_passes(const pd_ctx *c, const char *params);

/* Sorts rows into series (variant, then key in natural order, then x), keeps the lowest
 * order of each (series, x), titles each series by its variant and the parameters that
 * vary over the plot, puts those that do not in m->subtitle, and writes the header
 * (columns: the column names) and one block per series. Returns 0; DM_EINPUT when
 * there are no rows. */
int pd_series_write(pd_ctx *c, pd_rows *rows, int nv, const char *columns, FILE *out,
                    dm_plot_meta *m, dm_err *err);

/* The names in keys[0..n) ("name=value,...") whose value is the same in every key, as
 * "name=value, ..." in out. */
void pd_constants(const char *const *keys, size_t n, char *out, size_t len);
/* A series title: prefix, then the entries of key not in constants, space-separated. */
void pd_title(const char *prefix, const char *key, const char *constants, char *out, size_t n);

/* m->title = what, then " - workload run N on CARD, DATE". */
void pd_set_title(const pd_ctx *c, dm_plot_meta *m, const char *what);
/* Appends to m->subtitle "constant: " the constants ("name=value, ...") that no --where
 * filter selected, then "selected: " the filters. */
void pd_subtitle(const pd_ctx *c, dm_plot_meta *m, const char *constants);
/* Chooses m->logx/xformat (or logy/yformat) for values lo..hi of which pow2 says
 * whether all are powers of two: a log scale when lo > 0 and hi / lo >= 8 (base 2 for
 * powers of two), else linear with gnuplot's own format. */
void pd_scale(double lo, double hi, int pow2, int *log, char *format, size_t n);
/* The axis label of parameter name: "name (its help text)" when the workload is
 * registered and the parameter has help, else the name. */
void pd_param_label(const pd_ctx *c, const char *name, char *out, size_t n);
/* Checks that name is a numeric parameter of the run's ok points. Returns 0, or
 * DM_EINPUT naming the numeric parameters it has. */
int pd_check_numeric(pd_ctx *c, const char *what, const char *name, dm_err *err);
/* Writes the header comment: plot, command, run, card, constants, filters, labels,
 * columns, the scripts' settings. m must be complete but for its rows. */
void pd_header(const pd_ctx *c, const dm_plot_meta *m, const char *columns, FILE *out);
/* Writes a series title line as gnuplot reads it for columnheader(1). */
void pd_block_title(FILE *out, const char *title);

/* The crossover plot (plotdata_crossover.c). */
int pd_export_crossover(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err);
/* The stream timeline of one traced point (plotdata_timeline.c). */
int pd_export_timeline(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err);
/* Each traced point's time per stage, their sum and the wall time (plotdata_stages.c). */
int pd_export_stages(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err);

#endif
