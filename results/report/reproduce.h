/* reproduce.h - `dmbench reproduce`: the papers' tables and figures, each with the sweep
 * that measures it on this card, written beside the published numbers (their card,
 * this card, the ratio) with the paper's claims about it judged on the measurement.
 * Everything is read back from results databases, so `dmbench report` writes the same
 * sections for the runs it covers. */
#ifndef DM_REPRODUCE_H
#define DM_REPRODUCE_H

#include "characterize.h"
#include "published.h"
#include "report_int.h"

typedef enum repro_kind {
    REPRO_CARDS,     /* a table of card facts: the run's device beside the paper's cards */
    REPRO_FIGURE,    /* a figure of medians: the measured grid and the claims about it */
    REPRO_PUBLISHED, /* numbers of a workload this build does not have: listed only */
} repro_kind;

typedef struct repro_target {
    const char *name;     /* "tdm-table2": the command's argument */
    const char *paper;    /* the paper's text file without .txt, as in results/published */
    const char *item;     /* "Table 2", "Fig. 6" as the paper numbers it */
    const char *caption;  /* what it shows */
    const char *workload; /* the workload that measures it */
    const char *sweep;    /* sweeps/SWEEP.yaml measures it; NULL when nothing does yet */
    const char *table;    /* its rows in results/published: their `table` field; NULL: none */
    repro_kind kind;
    /* REPRO_FIGURE: the grid's row axis (one row per value) and the axis that, with the
     * variant, makes its columns; the ids of the chz_tdm_claims judged with it. */
    const char *row_axis, *col_axis;
    const char *const *claims;
} repro_target;

/* The targets, ending with a zeroed entry. */
extern const repro_target repro_targets[];

/* The target called name, or NULL. */
const repro_target *repro_find(const char *name);

/* One run of a target's sweep, found in one of the stores. */
typedef struct repro_run {
    int store;          /* index into the chz_ctx's stores */
    int64_t id;
    char gpu[128];      /* "" for a run without a GPU */
    char no_gpu[256];   /* then why */
    char started[32];
    char commit[48];
} repro_run;

/* The newest complete run of sweep on a card whose name contains card (NULL or "": any
 * card, or none) in c's stores, into *run. Returns 0 with run->id 0 when there is none,
 * or DM_ERUNTIME. */
int repro_latest_run(const chz_ctx *c, const char *sweep, const char *card, repro_run *run,
                     dm_err *err);

/* The target whose sweep is sweep, or NULL. */
const repro_target *repro_find_sweep(const char *sweep);

/* Run id of store c->st[store] into *run when it is complete, with its sweep's name in
 * sweep. Returns 0 (run->id 0 when the run is not complete or not there), or
 * DM_ERUNTIME. */
int repro_read_run(const chz_ctx *c, int store, int64_t id, repro_run *run, char *sweep,
                   size_t n, dm_err *err);

/* Writes target t to d: what it is, the published values beside those of run (NULL:
 * not measured, said so), and for figures the claims judged on c's stores with the run's
 * card. pub holds results/published. Returns 0, or DM_ERUNTIME when a query fails. */
int repro_write(const chz_ctx *c, const dm_pub_table *pub, const repro_target *t,
                const repro_run *run, dm_report_doc *d, dm_err *err);

/* The kinds' writers (reproduce_cards.c, reproduce_figure.c, reproduce_published.c);
 * run is never NULL for the first two. */
int repro_write_cards(const chz_ctx *c, const dm_pub_table *pub, const repro_target *t,
                      const repro_run *run, dm_report_doc *d, dm_err *err);
int repro_write_figure(const chz_ctx *c, const repro_target *t, const repro_run *run,
                       dm_report_doc *d, dm_err *err);
/* The published rows of t, one line each, with an empty measured column. */
void repro_write_published(const dm_pub_table *pub, const repro_target *t, dm_report_doc *d);

#endif
