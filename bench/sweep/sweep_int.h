/* sweep_int.h - private to the sweep module: the YAML tree with positions that
 * sweep_yaml.c builds from libfyaml's events, and the parsed sweep that sweep.c and
 * sweep_axis.c fill and sweep_expand.c expands. */
#ifndef DM_SWEEP_INT_H
#define DM_SWEEP_INT_H

#include "dm.h"
#include "expr.h"
#include "sweep.h"

/* Bounds that keep a typo ({range: [1, 1e12, 1]}) from exhausting memory. */
#define SWEEP_MAX_VALUES 1000000 /* values of one axis */
#define SWEEP_MAX_POINTS 1000000 /* points of one expansion */

/* ---- YAML tree (sweep_yaml.c) -------------------------------------------------------- */

typedef enum sy_kind { SY_SCALAR, SY_SEQ, SY_MAP } sy_kind;

/* A YAML node and where it starts (1-based). A mapping's items are key, value, key, ... */
typedef struct sy_node {
    sy_kind kind;
    int line, col;
    int quoted;    /* scalar written in quotes */
    int text_col;  /* scalar on one line whose text appears verbatim: the column of its
                      first character; else 0 */
    char *text;    /* scalar text */
    int n;         /* items (a mapping has 2 per pair) */
    struct sy_node **items;
} sy_node;

/* Where messages point: "FILE:LINE:COL: ..." for a file, or "-a block=[64]: ..." for a
 * command-line override (positions 0). */
typedef struct sweep_src {
    const char *name;
    int positions;
} sweep_src;

/* Parses one YAML document into a tree. Returns 0 with *out set (NULL for an empty
 * stream), or DM_EINPUT with err at libfyaml's first error position. */
int sy_parse(const sweep_src *src, const char *text, size_t len, sy_node **out, dm_err *err);
void sy_free(sy_node *n);
/* 1 when n is a plain empty scalar (YAML null: "key:" with nothing after it). */
int sy_is_null(const sy_node *n);
/* "a scalar", "a list" or "a mapping", for messages. */
const char *sy_kind_name(const sy_node *n);

/* Sets err to DM_EINPUT "SRC:LINE:COL: message" (line and col of at, or the given ones
 * when at is NULL); returns DM_EINPUT. */
int sweep_fail(const sweep_src *src, const sy_node *at, dm_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int sweep_fail_at(const sweep_src *src, int line, int col, dm_err *err, const char *fmt,
                  ...) __attribute__((format(printf, 5, 6)));

/* ---- the parsed sweep ---------------------------------------------------------------- */

typedef struct sweep_axis {
    char *name;
    int nvalues;
    char **values; /* as text (ranges expanded), parsed per parameter spec on expansion */
    int zip;       /* zip group, or -1 */
} sweep_axis;

typedef struct sweep_constraint {
    char *text;
    dm_expr *expr;
} sweep_constraint;

struct dm_sweep {
    char *path;
    char *text;
    char *name;
    char *description;
    const dm_workload *workload;
    dm_data_source source;
    int nvariants;
    const dm_variant **variants;
    const dm_variant *baseline;
    int naxes;
    sweep_axis *axes;
    int nzips;
    int nconstraints;
    sweep_constraint *constraints;
    dm_measure_opts measure;
    int nmetrics;
    char **metrics;    /* as written; known names (sweep.c checks them) */
    int *metric_line, *metric_col;
    int timeline;
};

/* ---- axes (sweep_axis.c) --------------------------------------------------------------- */

/* Parses the axis named by key (a scalar) with values val (list, {range: [from, to,
 * step]}, {pow2: [from, to]} or a scalar) into *out (zip -1). Returns 0, or DM_EINPUT
 * when the name is not a parameter of any listed variant or a value does not parse or is
 * not allowed for some listed variant having that parameter. */
int sweep_axis_parse(const dm_sweep *s, const sweep_src *src, const sy_node *key,
                     const sy_node *val, sweep_axis *out, dm_err *err);
void sweep_axis_free(sweep_axis *a);

/* Writes "n, seed, op, block, ..." : the parameters of the listed variants (dataset,
 * problem, then variant parameters), each once. */
void sweep_known_params(const dm_sweep *s, char *buf, size_t n);

#endif
