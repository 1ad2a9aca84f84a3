/* study.c - the rules workload's study (Cano, Luna & Ventura 2013): the paper, the
 * tables `dmbench reproduce` remakes and the default sweep. Table 4 (the interpreter's
 * times over instances x rules) is sweeps/rules-table4.yaml; Table 5 (evaluation times on
 * ten data sets x 25-200 rules) is one sweep per data set, as a sweep reads one dataset,
 * so one target each. Table 6 (serial against concurrent, and the time per stage, which
 * each point stores as facts) is sweeps/rules-table6.yaml. The paper's claims (the GPU's
 * GPops/s and its speedups over the CPU) are left until GPU medians exist, and so is
 * Table 3 (occupancy by block size), which results/published lists meanwhile. */
#include "study.h"

#define RL_PAPER "rules-gpu-evaluation-cano2013"

static const dm_paper rules_papers[] = {
    {.file = RL_PAPER, .cite = "Cano, Luna & Ventura, Springer 2013"},
    {0},
};

/* Table 5's rows of one data set: a row per number of rules, a column per variant. */
#define RL_TABLE5(ds, cap)                                                                 \
    {.name = "rules-table5-" ds, .paper = RL_PAPER, .item = "Table 5", .table = "Table 5", \
     .caption = cap, .sweep = "rules-table5-" ds, .kind = DM_TARGET_FIGURE,                \
     .row_axis = "rules", .col_axis = "symbols"}

static const dm_target rules_targets[] = {
    {.name = "rules-table4", .paper = RL_PAPER, .item = "Table 4", .table = "Table 4",
     .caption = "RPN interpreter performance: times over instances and rules (GPops/s is "
                "58 x instances x rules over the time)",
     .sweep = "rules-table4", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
     .col_axis = "rules"},
    RL_TABLE5("wdbc", "evaluation time on WDBC (569 instances, 31 attributes) over 25-200 "
                      "rules"),
    RL_TABLE5("abalone", "evaluation time on Abalone (4,177 instances, 9 attributes) over "
                         "25-200 rules"),
    RL_TABLE5("spambase", "evaluation time on Spambase (4,601 instances, 58 attributes) "
                          "over 25-200 rules"),
    RL_TABLE5("page-blocks", "evaluation time on Page-blocks (5,473 instances, 11 "
                             "attributes) over 25-200 rules"),
    RL_TABLE5("thyroid", "evaluation time on Thyroid (7,200 instances, 22 attributes) over "
                         "25-200 rules"),
    RL_TABLE5("magic", "evaluation time on Magic (19,020 instances, 11 attributes) over "
                       "25-200 rules"),
    RL_TABLE5("house-16h", "evaluation time on House_16H (22,784 instances, 17 attributes) "
                           "over 25-200 rules"),
    RL_TABLE5("shuttle", "evaluation time on Shuttle (58,000 instances, 10 attributes) "
                         "over 25-200 rules"),
    RL_TABLE5("kddcup", "evaluation time on Kddcup (494,020 instances, 42 attributes) over "
                        "25-200 rules"),
    RL_TABLE5("poker", "evaluation time on Poker (1,025,010 generated hands, 11 "
                       "attributes) over 25-200 rules"),
    {.name = "rules-table6", .paper = RL_PAPER, .item = "Table 6", .table = "Table 6",
     .caption = "serial against concurrent GPU evaluation (the paper's Fig. 3): times over "
                "instances and rules; each point's time per stage is among its facts",
     .sweep = "rules-table6", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
     .col_axis = "rules"},
    {0},
};

const dm_study rules_study = {
    .papers = rules_papers,
    .targets = rules_targets,
    .default_sweep = "rules-table4",
};
