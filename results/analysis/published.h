/* published.h - the numbers the papers publish, copied into CSV files in
 * results/published/ (one per table; its README.md says where each comes from): loading
 * with every row checked, lookup by paper, table, row key and column, writing back. */
#ifndef DM_PUBLISHED_H
#define DM_PUBLISHED_H

#include <stddef.h>

#include "dm.h"
#include "study.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The header line every file starts with. */
#define PUBLISHED_HEADER "paper,table,row_key,column,value,unit,card,source"

/* One number (or text cell) of a paper's table. */
typedef struct dm_pub_row {
    const char *paper;   /* the paper's file name without .txt */
    const char *table;   /* "Table 2", or "text" for figures quoted in the prose */
    const char *row_key; /* "key=value;key=value": what the row is (level=3;rules=25) */
    const char *column;  /* the quantity, "/" joining the paper's header levels */
    const char *value;   /* as printed: "1,076", "3.62×10^5", "G92" */
    const char *unit;    /* "ms", "x", "%", ...; "text" when the value is not a number */
    const char *card;    /* the device it was measured on; "" when not stated */
    const char *source;  /* "paper.txt:LINE", the line of the paper's text file */
    double num;          /* the value as a number; NAN when unit is "text" */
    const char *file;    /* the CSV file it was loaded from, as given */
    int line;            /* the line of that file the record starts on */
    char *buf_;          /* owns the strings above */
} dm_pub_row;

/* A published table that no registered workload's study measures yet, so that
 * `dmbench reproduce` can list it: a line of results/published/targets.tsv. */
typedef struct dm_pub_target {
    dm_target target;     /* kind DM_TARGET_PUBLISHED, no sweep */
    const char *workload; /* the workload that will measure it */
    const char *file;     /* the file it was loaded from, as given */
    int line;             /* its line there */
    char *buf_;           /* owns the strings above */
} dm_pub_target;

/* Rows of one or more files, and the listed targets. Start from a zeroed struct;
 * published_free releases it. */
typedef struct dm_pub_table {
    dm_pub_row *rows;
    size_t n, cap;
    dm_pub_target *targets;
    size_t ntargets;
} dm_pub_table;

/* The listed targets' file in results/published, and its header line (tab-separated). */
#define PUBLISHED_TARGETS "targets.tsv"
#define PUBLISHED_TARGETS_HEADER "name\tpaper\titem\ttable\tworkload\tcaption"

/* Appends the rows of the CSV file at path (RFC 4180 quoting, LF or CRLF line ends).
 * Checks the header, the field count, the required fields (all but card), the row key's
 * form, the unit (known, and a numeric unit's value parses), that source names the
 * paper's text file, and that no row repeats one already in t. Returns 0; DM_EINPUT with
 * "PATH:LINE: what is wrong" (t unchanged) for a bad file or one that cannot be opened;
 * DM_ERUNTIME when memory runs out. */
int published_load(const char *path, dm_pub_table *t, dm_err *err);

/* Appends every file of dir whose name ends in .csv, in name order, then the targets of
 * dir/PUBLISHED_TARGETS when there is one. Returns 0; DM_EINPUT when dir cannot be read,
 * holds no .csv file, or a file is bad (the rows of earlier files stay); DM_ERUNTIME when
 * memory runs out. */
int published_load_dir(const char *dir, dm_pub_table *t, dm_err *err);

/* Appends the listed targets of the file at path (published_targets.c): after the header
 * PUBLISHED_TARGETS_HEADER, one target a line, six tab-separated fields, none empty.
 * Returns 0; DM_EINPUT with "PATH:LINE: what is wrong" (t unchanged) for a bad file, a
 * name given twice, or one that cannot be opened; DM_ERUNTIME when memory runs out. */
int published_load_targets(const char *path, dm_pub_table *t, dm_err *err);

/* The row with this paper, table, row key (its key=value pairs in any order) and column,
 * or NULL when there is none. */
const dm_pub_row *published_find(const dm_pub_table *t, const char *paper,
                                 const char *table, const char *row_key,
                                 const char *column);

/* Writes t's rows, header first, as a CSV file that published_load reads back equal
 * (fields quoted only where they hold a comma, a quote or a line end; LF line ends).
 * Returns 0, or DM_ERUNTIME with the reason when the file cannot be written. */
int published_write(const char *path, const dm_pub_table *t, dm_err *err);

/* Parses a value as the papers print numbers: "-12.5", "1,097,670" (thousands
 * separators in groups of three), "3.62×10^5". Returns 0 with *out set, or -1. */
int published_parse_number(const char *s, double *out);

void published_free(dm_pub_table *t);

#ifdef __cplusplus
}
#endif

#endif
