/* characterize.h - a published paper's characterizations checked one by one against the
 * medians in results databases: a table of claims, each with a check that queries the
 * stores and returns a verdict with the numbers behind it, and a markdown writer. */
#ifndef DM_CHARACTERIZE_H
#define DM_CHARACTERIZE_H

#include <stdio.h>

#include "store.h"

#define CHZ_MAX_DB 4

typedef enum chz_verdict { CHZ_HOLDS, CHZ_BREAKS, CHZ_UNMEASURED } chz_verdict;

/* The databases to read (points of several cards may sit in several files), the card
 * under study (a substring of runs.gpu_name) and the sweep whose runs the claims read
 * (NULL: the table's default, CHZ_TDM_SWEEP for tdm). */
typedef struct chz_ctx {
    dm_store *st[CHZ_MAX_DB];
    int nst;
    const char *card;
    const char *sweep;
} chz_ctx;

/* One median read back: the latest complete run of the sweep on the card. */
typedef struct chz_point {
    int found;
    double median;     /* seconds */
    int block;         /* the block of the point (the best one when asked for any) */
    double sm_mhz;     /* runs.sm_clock_mhz_start, NAN when unknown */
    double mem_mhz;    /* runs.mem_clock_mhz_start, NAN when unknown */
    double l2_bytes;
    int sms;
    char gpu[128];
    char cc[16];
    char started[32];  /* the run's start, ISO 8601 UTC */
} chz_point;

typedef struct chz_result {
    chz_verdict verdict;
    char evidence[2048]; /* the measured numbers and the rule they were judged by */
    char hardware[1024]; /* where the claim breaks: the hardware change that explains it */
} chz_result;

typedef struct chz_claim {
    const char *id;      /* "C1" */
    const char *title;   /* the paper's heading */
    const char *wording; /* the paper's words the verdict is about */
    int line;            /* the heading's line in the paper's text */
    int quote_line;      /* the line where the quoted wording starts */
    const char *metric;  /* the CUPTI metric that would back the verdict */
    const char *const *shorts; /* its short names, as stored: shown when a run has them */
    int (*check)(const chz_ctx *c, chz_result *r, dm_err *err);
} chz_claim;

/* The paper's eight characterizations of tdm, ended by an entry with id NULL. */
extern const chz_claim chz_tdm_claims[];
/* The sweep whose runs the tdm claims read by default; tdm-fig6 and tdm-fig9 measure
 * the same variants, levels and blocks (and more blocks), so the claims read them too. */
#define CHZ_TDM_SWEEP "tdm-fig7"

/* The sweep c's claims read: c->sweep, or CHZ_TDM_SWEEP. */
const char *chz_sweep(const chz_ctx *c);

/* The median of variant at level and block (block < 0: the fastest block) from the latest
 * complete run of sweep on a card whose name contains card, searched over every store.
 * Returns 0 with out->found 0 when there is no such ok point, or DM_ERUNTIME. */
int chz_median(const chz_ctx *c, const char *card, const char *sweep, const char *variant,
               int level, int block, chz_point *out, dm_err *err);
/* The name of the most recent card with complete runs of sweep whose name does not contain
 * exclude (NULL: any card), searched over the stores in order, into out (empty when there is
 * none). Returns 0 or DM_ERUNTIME. */
int chz_card(const chz_ctx *c, const char *sweep, const char *exclude, char *out, size_t n,
             dm_err *err);
/* The verdict in words: "holds", "does not hold", "not measurable here". */
const char *chz_verdict_name(chz_verdict v);

/* The most claims a table may have; the checks and writers read no further. */
#define CHZ_MAX_CLAIMS 16
/* The size of chz_metric_lines' buffer that holds every line of a claim's metrics. */
#define CHZ_METRIC_TEXT 4096

/* Runs every check of table into res (one per claim, in order); counts[v] gets the number
 * of claims of each verdict. Returns 0, or the first failing check's status with err set. */
int chz_check(const chz_ctx *c, const chz_claim *table, chz_result res[CHZ_MAX_CLAIMS],
              int counts[3], dm_err *err);
/* The CUPTI lines of claim cl into buf (n bytes, CHZ_METRIC_TEXT holds them all), each
 * ended by a newline: for each of cl->shorts that the newest complete run of the sweep on
 * the card has values of, its mean per variant and level at the variant's fastest block;
 * when none has, which metric would back the claim. Returns 0 or DM_ERUNTIME. */
int chz_metric_lines(const chz_ctx *c, const chz_claim *cl, char *buf, size_t n, dm_err *err);
/* Checks every claim of table and writes the markdown section to out, headed by title and
 * the lines of preamble; counts[v] gets the number of claims of each verdict. Returns 0,
 * or the first failing check's status with err set (nothing written then). */
int chz_write(const chz_ctx *c, const chz_claim *table, const char *title,
              const char *preamble, FILE *out, int counts[3], dm_err *err);

#endif
