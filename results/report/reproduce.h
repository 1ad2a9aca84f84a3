/* reproduce.h - `dmbench reproduce`: the papers' tables and figures, each with the sweep
 * that measures it on this card, written beside the published numbers (their card,
 * this card, the ratio) with the paper's claims about it judged on the measurement.
 * The targets are the registered workloads' studies' (study.h) and, for workloads still
 * to come, those results/published lists. Everything is read back from results
 * databases, so `dmbench report` writes the same sections for the runs it covers. */
#ifndef DM_REPRODUCE_H
#define DM_REPRODUCE_H

#include "characterize.h"
#include "published.h"
#include "report_int.h"

/* The most targets reproduce lists. */
#define REPRO_MAX_TARGETS 128

/* A target and where it comes from. */
typedef struct repro_target {
    const dm_target *t;
    const char *workload;  /* the workload whose study holds it, or that will measure it */
    const dm_study *study; /* that study (its claims); NULL for a listed target */
} repro_target;

/* Every target into out (at most max): each registered workload's study's, in registry
 * order, then pub's listed ones whose name no study uses. Returns how many. */
size_t repro_targets(const dm_pub_table *pub, repro_target *out, size_t max);
/* The target called name into *out. Returns 1, or 0 when there is none. */
int repro_find(const dm_pub_table *pub, const char *name, repro_target *out);
/* The study target whose sweep is sweep into *out. Returns 1, or 0 when there is none. */
int repro_find_sweep(const char *sweep, repro_target *out);

/* Writes target t to d: what it is, the published values beside those of run (NULL:
 * not measured, said so), and for figures the claims judged on c's stores with the run's
 * card. pub holds results/published. Returns 0, or DM_ERUNTIME when a query fails. */
int repro_write(const chz_ctx *c, const dm_pub_table *pub, const repro_target *t,
                const chz_run *run, dm_report_doc *d, dm_err *err);

/* A published value as a number: thousands separators and "x10^k" forms read; NAN when it
 * is not one (reproduce_published.c). */
double repro_pub_number(const char *text);

/* The main job's summary of target rt (reproduce_summary.c), a few lines to out: the
 * item, the card and run that measured it (run NULL or id 0: not measured; a run without
 * a GPU says its GPU points were skipped), each headline published beside measured, and
 * the verdict of each claim judged on c's stores with the run's card. Returns 0, or DM_ERUNTIME when a query fails. */
int repro_summary(const chz_ctx *c, const dm_pub_table *pub, const repro_target *rt,
                  const chz_run *run, FILE *out, dm_err *err);

/* The kinds' writers (reproduce_cards.c, reproduce_figure.c, reproduce_published.c);
 * run is never NULL for the first two. */
int repro_write_cards(const chz_ctx *c, const dm_pub_table *pub, const dm_target *t,
                      const chz_run *run, dm_report_doc *d, dm_err *err);
int repro_write_figure(const chz_ctx *c, const dm_pub_table *pub, const repro_target *t,
                       const chz_run *run, dm_report_doc *d, dm_err *err);
/* The published rows of t, one line each; with an empty measured column when empty is 1
 * (nothing measured), without when 0 (the measured grid follows). */
void repro_write_published(const dm_pub_table *pub, const dm_target *t, int empty,
                           dm_report_doc *d);
/* The published rows of t, each with its counterpart measured on sd's card (t->measured)
 * and the ratio of the two. Returns 0, or DM_ERUNTIME from a query. */
int repro_write_beside(const dm_pub_table *pub, const dm_target *t, const dm_study_data *sd,
                       dm_report_doc *d, dm_err *err);

#endif
