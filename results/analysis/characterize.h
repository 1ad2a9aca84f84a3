/* characterize.h - the claims engine: a workload's study (bench/core/study.h) judged on
 * the medians in results databases. It implements the rules' view of the measurements
 * (dm_study_data) over the stores, runs a study's rules, and reads the CUPTI counters
 * that would back each claim; results/report writes the verdicts. */
#ifndef DM_CHARACTERIZE_H
#define DM_CHARACTERIZE_H

#include "store.h"
#include "study.h"

#define CHZ_MAX_DB 4

/* The databases to read (points of several cards may sit in several files), the card
 * under study (a substring of runs.gpu_name) and the sweep whose runs the claims read. */
typedef struct chz_ctx {
    dm_store *st[CHZ_MAX_DB];
    int nst;
    const char *card;
    const char *sweep;
    dm_claim_result *reading; /* when set, the sweeps the rules find medians in are noted
                                 in its sweeps (chz_judge sets it) */
} chz_ctx;

/* One complete run, found in one of the stores. */
typedef struct chz_run {
    int store;          /* index into the chz_ctx's stores */
    int64_t id;
    char gpu[128];      /* "" for a run without a GPU */
    char no_gpu[256];   /* then why */
    char cc[16];
    int sms;
    char started[32];
    char commit[48];
} chz_run;

/* The newest complete run of sweep on a card whose name contains card (NULL or "": any
 * card, or none) in c's stores, into *run. Returns 0 with run->id 0 when there is none,
 * or DM_ERUNTIME. */
int chz_latest_run(const chz_ctx *c, const char *sweep, const char *card, chz_run *run,
                   dm_err *err);
/* Run id of store c->st[store] into *run when it is complete, with its sweep's name in
 * sweep. Returns 0 (run->id 0 when the run is not complete or not there), or
 * DM_ERUNTIME. */
int chz_read_run(const chz_ctx *c, int store, int64_t id, chz_run *run, char *sweep,
                 size_t n, dm_err *err);

/* dm_study_data's median over c's stores (see study.h), searched over every store.
 * Returns 0 with out->found 0 when there is no such ok point, or DM_ERUNTIME. */
int chz_median(const chz_ctx *c, const char *card, const char *sweep, const char *variant,
               const char *where, dm_median *out, dm_err *err);
/* dm_study_data's other_card over c's stores, searched in order. Returns 0 or
 * DM_ERUNTIME. */
int chz_card(const chz_ctx *c, const char *sweep, const char *exclude, char *out, size_t n,
             dm_err *err);
/* The rules' view of c's stores for c->card and c->sweep into *d (d->ctx is c). */
void chz_data(const chz_ctx *c, dm_study_data *d);

/* Peak DRAM bandwidth in GB/s from the memory clock and the bus width: two transfers a
 * clock (DDR), as the papers' card tables count it. NAN when either is NAN. */
double chz_peak_gbps(double mem_clock_mhz, double bus_bits);

/* The most claims a study may have; the checks and writers read no further. */
#define CHZ_MAX_CLAIMS 16
/* The size of chz_metric_lines' buffer that holds every line of a claim's metrics. */
#define CHZ_METRIC_TEXT 4096

/* Judges claim cl on c's stores into *r (zeroed first), with the sweeps the rule found
 * medians in. Returns 0 or the rule's error. */
int chz_judge(const chz_ctx *c, const dm_claim *cl, dm_claim_result *r, dm_err *err);
/* Judges every claim of s into res (one per claim, in order); counts[v] gets the number
 * of claims of each verdict (their sum is the number judged). Returns 0, or the first
 * failing rule's status with err set. */
int chz_check(const chz_ctx *c, const dm_study *s, dm_claim_result res[CHZ_MAX_CLAIMS],
              int counts[DM_NVERDICTS], dm_err *err);
/* The CUPTI lines of claim cl of study s, judged into r by chz_judge, into buf (n bytes,
 * CHZ_METRIC_TEXT holds them all), each ended by a newline: for each of cl->shorts, from
 * the newest complete run on c->card of the sweeps the rule read (r->sweeps; c->sweep
 * when it read none) that has values of it, its mean per variant and value of
 * s->group_axis at the variant's fastest point; when none has, which metric would back
 * the claim. Returns 0 or DM_ERUNTIME. */
int chz_metric_lines(const chz_ctx *c, const dm_study *s, const dm_claim *cl,
                     const dm_claim_result *r, char *buf, size_t n, dm_err *err);

#endif
