/* reproduce.c - the table of what `dmbench reproduce` can reproduce (every published
 * table of the four papers, and the tdm figures), finding a target's latest run, and the
 * writer's frame: what the target is, which run measured it, then its kind's body. */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "reproduce.h"

#define TDM "tdm-characterization-ipdps09"
#define CF10 "episodes-chip-on-chip-cf10"
#define JOURNAL "episodes-gpu-multigpu-journal"
#define RULES "rules-gpu-evaluation-cano2013"
#define COLOC "colocation-grid-gpu-sstd17"

static const char *const fig6_claims[] = { "C1", "C2", "C3", NULL };
static const char *const fig7_claims[] = { "C4", "C5", "C6", NULL };
static const char *const fig8_claims[] = { "C7", "C8", NULL };
static const char *const all_claims[] = { "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", NULL };

#define FIGURE(n, cap, cl)                                                                 \
    { .name = "tdm-fig" #n, .paper = TDM, .item = "Fig. " #n, .caption = cap,               \
      .workload = "tdm", .sweep = "tdm-fig" #n, .kind = REPRO_FIGURE, .row_axis = "block",  \
      .col_axis = "level", .claims = cl }
#define LISTED(nm, pp, it, tb, wl, cap)                                                    \
    { .name = nm, .paper = pp, .item = it, .caption = cap, .workload = wl, .table = tb,     \
      .kind = REPRO_PUBLISHED }

const repro_target repro_targets[] = {
    { .name = "tdm-table2", .paper = TDM, .item = "Table 2", .table = "Table 2",
      .caption = "the three GPUs of the study: memory, bandwidth, multiprocessors, cores, "
                 "clock, compute capability and per-multiprocessor limits",
      .workload = "membw", .sweep = "tdm-table2", .kind = REPRO_CARDS },
    FIGURE(6, "impact of problem size on the GTX 280: time against threads per block for "
              "each algorithm, a curve per level", fig6_claims),
    FIGURE(7, "impact of algorithm: time against threads per block at each level, a curve "
              "per algorithm", fig7_claims),
    FIGURE(8, "impact of hardware: the thread-parallel algorithms at levels 1 and 2 follow "
              "the clock, block-tex at level 3 the memory", fig8_claims),
    FIGURE(9, "the complete grid: algorithm x level x threads per block, a curve per card",
           all_claims),
    LISTED("episodes-cf10-table1", CF10, "Table 1", "Table 1", "episodes",
           "crossover points between PTPE and MTPE on the number of episodes, per level"),
    LISTED("episodes-cf10-text", CF10, "sections 5.2-5.4", "text", "episodes",
           "speedups and elimination figures quoted in the text"),
    LISTED("episodes-journal-table1", JOURNAL, "Table 1", "Table 1", "episodes",
           "crossover points between PTPE and MTPE on the number of episodes, per level"),
    LISTED("episodes-journal-text", JOURNAL, "sections 7.2-7.5", "text", "episodes",
           "speedups and elimination figures quoted in the text"),
    LISTED("rules-table3", RULES, "Table 3", "Table 3", "rules",
           "threads per block and multiprocessor occupancy"),
    LISTED("rules-table4", RULES, "Table 4", "Table 4", "rules",
           "RPN interpreter: times and GPops/s over instances and rules"),
    LISTED("rules-table5", RULES, "Table 5", "Table 5", "rules",
           "UCI data sets: evaluation times and speedups"),
    LISTED("rules-table6", RULES, "Table 6", "Table 6", "rules",
           "runtime of the kernels and transfers"),
    LISTED("colocation-table1", COLOC, "Table 1", "Table 1", "coloc",
           "filter and refinement times, synthetic data"),
    LISTED("colocation-table2", COLOC, "Table 2", "Table 2", "coloc",
           "filter and refinement times, Seattle crime data"),
    { 0 },
};

const repro_target *repro_find(const char *name)
{
    for (const repro_target *t = repro_targets; t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

const repro_target *repro_find_sweep(const char *sweep)
{
    for (const repro_target *t = repro_targets; t->name; t++)
        if (t->sweep && strcmp(t->sweep, sweep) == 0)
            return t;
    return NULL;
}

/* Copies column i of q (NULL: "") into buf. */
static void text_col(sqlite3_stmt *q, int i, char *buf, size_t n)
{
    const unsigned char *s = sqlite3_column_text(q, i);
    snprintf(buf, n, "%s", s ? (const char *)s : "");
}

/* The columns of a run that repro_run holds, then its sweep's name. */
#define RUN_COLUMNS "SELECT id, gpu_name, no_gpu_reason, started_at, git_commit, sweep_name FROM runs"

/* Fills run from a row of RUN_COLUMNS. */
static void run_from_row(sqlite3_stmt *q, int store, repro_run *run)
{
    run->store = store;
    run->id = sqlite3_column_int64(q, 0);
    text_col(q, 1, run->gpu, sizeof run->gpu);
    text_col(q, 2, run->no_gpu, sizeof run->no_gpu);
    text_col(q, 3, run->started, sizeof run->started);
    text_col(q, 4, run->commit, sizeof run->commit);
}

int repro_read_run(const chz_ctx *c, int store, int64_t id, repro_run *run, char *sweep,
                   size_t n, dm_err *err)
{
    sqlite3 *db = store_db(c->st[store]);
    sqlite3_stmt *q = NULL;
    memset(run, 0, sizeof *run);
    sweep[0] = '\0';
    if (sqlite3_prepare_v2(db, RUN_COLUMNS " WHERE id = ?1 AND status = 'complete'", -1, &q,
                           NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[store]),
                          sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        run_from_row(q, store, run);
        text_col(q, 5, sweep, n);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[store]),
                          sqlite3_errmsg(db));
    return 0;
}

int repro_latest_run(const chz_ctx *c, const char *sweep, const char *card, repro_run *run,
                     dm_err *err)
{
    static const char sql[] = RUN_COLUMNS
        " WHERE sweep_name = ?1 AND status = 'complete'"
        " AND (?2 IS NULL OR instr(gpu_name, ?2) > 0)"
        " ORDER BY started_at DESC, id DESC LIMIT 1";
    memset(run, 0, sizeof *run);
    for (int i = 0; i < c->nst; i++) {
        sqlite3 *db = store_db(c->st[i]);
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
            return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[i]),
                              sqlite3_errmsg(db));
        sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
        if (card && card[0])
            sqlite3_bind_text(q, 2, card, -1, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        char started[32];
        if (rc == SQLITE_ROW) {
            text_col(q, 3, started, sizeof started);
            if (!run->id || strcmp(started, run->started) > 0)
                run_from_row(q, i, run);
        }
        sqlite3_finalize(q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(c->st[i]),
                              sqlite3_errmsg(db));
    }
    return 0;
}

int repro_write(const chz_ctx *c, const dm_pub_table *pub, const repro_target *t,
                const repro_run *run, dm_report_doc *d, dm_err *err)
{
    char head[256], anchor[96];
    snprintf(head, sizeof head, "%s: %s", t->name, t->item);
    snprintf(anchor, sizeof anchor, "%s-run%lld", t->name, (long long)(run ? run->id : 0));
    report_heading(d, 3, run && run->id ? anchor : t->name, head);
    report_para(d, "%s, %s (papers/%s.txt): %s.", t->paper, t->item, t->paper, t->caption);
    if (!t->sweep) {
        report_para(d, "Not measurable here: this build has no %s workload, so nothing "
                       "measures it yet. The published values are listed so that measured "
                       "ones can be set beside them when it comes.", t->workload);
        repro_write_published(pub, t, d);
        return 0;
    }
    if (!run || !run->id) {
        report_para(d, "Not measured: the database holds no complete run of sweeps/%s.yaml "
                       "on this card; `dmbench reproduce %s` runs it.", t->sweep, t->name);
        if (t->table)
            repro_write_published(pub, t, d);
        return 0;
    }
    report_para(d, "Measured: run %lld of sweeps/%s.yaml in %s, started %s, commit %.12s, "
                   "on %s.", (long long)run->id, t->sweep, store_path(c->st[run->store]),
                run->started, run->commit[0] ? run->commit : "unknown",
                run->gpu[0] ? run->gpu : "no GPU");
    if (!run->gpu[0]) {
        report_para(d, "Not measurable here: the run had no GPU (%s).",
                    run->no_gpu[0] ? run->no_gpu : "no reason recorded");
        if (t->table)
            repro_write_published(pub, t, d);
        return 0;
    }
    return t->kind == REPRO_CARDS ? repro_write_cards(c, pub, t, run, d, err)
                                  : repro_write_figure(c, t, run, d, err);
}
