/* study.h - what a workload brings about the papers it reproduces (dm_workload.study):
 * their claims as data, each judged by a rule on measured medians; the tables and figures
 * `dmbench reproduce` remakes and the sweeps that measure them; the default sweep. Rules
 * read medians only through dm_study_data, which results/analysis implements. */
#ifndef DM_STUDY_H
#define DM_STUDY_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- verdicts ---------------------------------------------------------------------- */

typedef enum dm_verdict {
    DM_HOLDS,      /* the measurement bears the claim out */
    DM_PARTLY,     /* some of it holds (some levels, or the trend but not its shape) */
    DM_BREAKS,     /* the measurement contradicts it */
    DM_UNMEASURED, /* the databases lack what the rule needs */
} dm_verdict;
#define DM_NVERDICTS 4

/* The verdict in words: "holds", "partly holds", "does not hold", "not measurable here". */
const char *study_verdict_name(dm_verdict v);
/* "N hold, N partly hold, N do not hold, N not measurable here" into buf. */
void study_counts_text(const int counts[DM_NVERDICTS], char *buf, size_t n);

/* A rule's judgement of one claim. */
typedef struct dm_claim_result {
    dm_verdict verdict;
    char evidence[2048]; /* the measured numbers and the rule they were judged by */
    char hardware[1024]; /* where the claim (partly) breaks: the hardware change behind it */
    char sweeps[256];    /* the sweeps the rule found medians in, comma-separated, each
                            once, as whoever gave it its data records them */
} dm_claim_result;

/* ---- what rules read ----------------------------------------------------------------- */

/* One median read back, with the card and run it comes from. */
typedef struct dm_median {
    int found;
    double median;      /* seconds */
    char params[512];   /* the point's parameters, "name=value,..." */
    double sm_mhz;      /* the run's SM clock at its start, NAN when unknown */
    double mem_bus_bits; /* the memory bus width the run noted, NAN when not noted */
    double mem_gbps;    /* peak DRAM bandwidth from the run's device notes, 2 x memory
                           clock x bus width (as papers' card tables give it); NAN when
                           the run did not note both */
    double l2_bytes;
    int sms;
    char gpu[128];
    char cc[16];
    char started[32];   /* the run's start, ISO 8601 UTC */
} dm_median;

/* The measured medians a rule may read: the card under study and the sweep whose runs
 * it reads, and two queries over whatever holds the runs (ctx is theirs). */
typedef struct dm_study_data {
    const char *card;  /* a part of the card's name; "": the runs without a GPU */
    const char *sweep; /* the sweep whose latest complete run on a card is read */
    void *ctx;
    /* The fastest median of variant among the ok points whose parameters match where
     * ("name=value,...", see study_params_match; "" matches every point) in the latest
     * complete run of sweep on a card whose name contains card that has such a point.
     * Returns 0 with out->found 0 when there is none, or DM_ERUNTIME. */
    int (*median)(void *ctx, const char *card, const char *sweep, const char *variant,
                  const char *where, dm_median *out, dm_err *err);
    /* The name of the most recent card with complete runs of sweep whose name does not
     * contain exclude, into out (empty when there is none). Returns 0 or DM_ERUNTIME. */
    int (*other_card)(void *ctx, const char *sweep, const char *exclude, char *out,
                      size_t n, dm_err *err);
} dm_study_data;

/* 1 when every "name=value" of where is in params ("name=value,...", as points store
 * them), numbers compared as numbers; else 0. */
int study_params_match(const char *params, const char *where);
/* The value of parameter name in params as a number; NAN when absent or not a number. */
double study_param(const char *params, const char *name);

/* The median of variant at where ("name=value,...") from the newest complete run, among
 * the runs of sweeps (NULL-terminated) on d's card, that has an ok point of it, into *m.
 * Returns 0 (m->found 0 when no run has one) or DM_ERUNTIME. */
int study_newest_median(const dm_study_data *d, const char *const *sweeps,
                        const char *variant, const char *where, dm_median *m, dm_err *err);
/* Marks r not measurable: its evidence says that no complete run of sweeps on d's card
 * has an ok point of variant at what (a setting's name; where, its parameters). */
void study_unmeasured(const dm_study_data *d, const char *const *sweeps, const char *variant,
                      const char *what, const char *where, dm_claim_result *r);

/* ---- claims, targets, studies ---------------------------------------------------------- */

typedef struct dm_paper {
    const char *file; /* the paper's text file without .txt, as results/published names it */
    const char *cite; /* "Author et al., VENUE YEAR" */
} dm_paper;

/* One claim of a paper. Tables of these end with an entry whose id is NULL. */
typedef struct dm_claim {
    const char *id;      /* "C1" */
    const char *title;   /* the paper's heading */
    const char *wording; /* the paper's words the verdict is about */
    int line;            /* the heading's line in the paper's text */
    int quote_line;      /* the line where the quoted wording starts */
    const char *metric;  /* the CUPTI metric that would back the verdict */
    const char *const *shorts; /* its short names, as stored: shown when a run has them */
    int cross_card;      /* 1 when it compares the card with another card */
    /* Judges the claim on d's medians into r (evidence first, then the verdict). Returns
     * 0, or DM_ERUNTIME from a query. */
    int (*judge)(const dm_study_data *d, dm_claim_result *r, dm_err *err);
} dm_claim;

typedef enum dm_target_kind {
    DM_TARGET_CARDS,     /* a table of card facts: the run's device beside the paper's cards */
    DM_TARGET_FIGURE,    /* a figure of medians: the measured grid and the claims about it */
    DM_TARGET_PUBLISHED, /* numbers nothing measures yet: listed only */
} dm_target_kind;

/* A published quantity's counterpart measured on d's card: for the row row_key and the
 * column column (as results/published names them), its value in the row's unit into
 * *value, NAN when nothing measured here stands for it, and how it was measured (variant,
 * setting) into how. Returns 0, or DM_ERUNTIME from a query. */
typedef int (*dm_pub_measure_fn)(const dm_study_data *d, const char *row_key,
                                 const char *column, double *value, char *how, size_t n,
                                 dm_err *err);

/* One published figure the main job's summary sets beside its measured counterpart (both
 * through results/published and dm_target.measured): the value in row and column, or
 * with base, base's value over column's in the same row (a speedup from two times). */
typedef struct dm_headline {
    const char *label;  /* what it is, "1 GPU over 1 CPU core" */
    const char *row;    /* a row_key of the target's published rows */
    const char *column;
    const char *base;   /* NULL: the value itself */
} dm_headline;

/* One table or figure of a paper that `dmbench reproduce NAME` remakes. */
typedef struct dm_target {
    const char *name;    /* the command's argument, "<paper>-table2" */
    const char *paper;   /* the paper's text file without .txt */
    const char *item;    /* "Table 2", "Fig. 6" as the paper numbers it */
    const char *caption; /* what it shows */
    const char *sweep;   /* sweeps/SWEEP.yaml measures it; NULL when nothing does yet */
    const char *table;   /* its rows in results/published: their `table` field; NULL: none */
    const char *rows;    /* of those, the ones whose row_key starts with this (a table the
                            paper prints whole, its targets a part each); NULL: all */
    dm_pub_measure_fn measured; /* DM_TARGET_FIGURE with a table: each published value's
                                   measured counterpart, set beside it; NULL: listed alone */
    dm_target_kind kind;
    const char *note;    /* DM_TARGET_CARDS: what a reader must know of the published
                            values (written in brackets after them); may be NULL */
    /* DM_TARGET_FIGURE: the grid's row axis (a row per value), the axis that with the
     * variant makes its columns, and the ids of the study's claims judged with it. */
    const char *row_axis, *col_axis;
    const char *const *claims;
    /* The main job (`dmbench reproduce --main`): the `-a AXIS=VALUES` overrides that make
     * the sweep a few minutes' work on one GPU, keeping the points its claims and
     * headlines read (NULL-terminated); NULL: not in the main job. */
    const char *const *small;
    const dm_headline *headlines; /* the summary's figures, ending with a zeroed entry */
} dm_target;

struct dm_study {
    const dm_paper *papers;    /* ends with a zeroed entry */
    const dm_claim *claims;    /* NULL when the workload has no claims to judge */
    const char *claims_title;  /* "the paper's eight claims" */
    const char *times_note;    /* how the medians the claims read were measured */
    /* The sweeps the claims read, the default first, then the alternates that measure
     * the same points (NULL-terminated). */
    const char *const *claim_sweeps;
    /* The CUPTI lines under a claim: per variant, the mean at its fastest best_axis for
     * each value of group_axis, printed group_prefix VALUE. */
    const char *group_axis, *group_prefix, *best_axis;
    const dm_target *targets;  /* ends with a zeroed entry; NULL: none */
    const char *default_sweep; /* sweeps/SWEEP.yaml: the workload's main sweep */
};

/* The claim of s with this id, or NULL. */
const dm_claim *study_claim(const dm_study *s, const char *id);

#ifdef __cplusplus
}
#endif

#endif
