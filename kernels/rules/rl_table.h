/* rl_table.h - the tables the rules workload evaluates rules on: columns stored
 * column-major (numbers as doubles, categorical values as integer codes with the
 * code -> string mapping kept), read from CSV or TSV files, gzip-compressed or not, or
 * generated (random Poker hands, uniform synthetic attributes). */
#ifndef DM_RL_TABLE_H
#define DM_RL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rl_kind { RL_NUMERIC = 1, RL_CATEGORICAL } rl_kind;

typedef struct rl_column {
    char *name;
    rl_kind kind;
    double *num;   /* RL_NUMERIC: one value per row */
    int32_t *code; /* RL_CATEGORICAL: one code per row, an index into levels */
    char **levels; /* RL_CATEGORICAL: code -> its text, in order of first appearance */
    int nlevels;
} rl_column;

typedef struct rl_table {
    int64_t n; /* rows (instances) */
    int ncols;
    rl_column *cols;
} rl_table;

/* ---- tables (rl_table.c) ----------------------------------------------------------- */

/* Makes an empty table of ncols columns of n rows, named name_fmt with the column's
 * index ("a%d"), all numeric and zero. Returns 0, or DM_ERUNTIME without memory. */
int rl_table_init(rl_table *t, int64_t n, int ncols, const char *name_fmt, dm_err *err);
void rl_table_free(rl_table *t);
/* Rows [i0, i0 + n) of t as a table of their own in view (0 <= i0, i0 + n <= t->n): its
 * columns point into t's values and share t's names and levels, so t must outlive it and
 * only rl_table_view_free frees it. Returns 0, or DM_ERUNTIME without memory. */
int rl_table_rows(const rl_table *t, int64_t i0, int64_t n, rl_table *view, dm_err *err);
void rl_table_view_free(rl_table *view);
/* Slice k of n rows cut into parts contiguous slices, in *i0 and *len: the first n % parts
 * slices have one row more than the others, so sizes differ by one at most, and when n <
 * parts the last parts - n are empty (0 <= k < parts). */
void rl_table_slice(int64_t n, int parts, int k, int64_t *i0, int64_t *len);
/* The index of the column called name, or -1. */
int rl_table_column(const rl_table *t, const char *name);
/* The code of the level text in categorical column c, or -1. */
int rl_column_level(const rl_column *c, const char *text);

/* ---- files (rl_load.c) ------------------------------------------------------------- */

enum { RL_HEADER_AUTO = 0, RL_HEADER_YES, RL_HEADER_NO };

typedef struct rl_load_opts {
    char sep;   /* ',' or '\t'; 0: a tab if the first line holds one, else a comma */
    int header; /* RL_HEADER_*; AUTO: the first line is a header when some column has a
                   cell there that is not a number and a number in the second line */
} rl_load_opts;

/* Reads a table from the file at path through the common reader (csv.h: RFC 4180
 * quoting, CRLF or LF, a byte-order mark, gzip when the file is); opts may be NULL
 * (detect both). Cells are trimmed of blanks outside their quotes. A number is decimal:
 * [+-]digits[.digits][e[+-]digits] (or .digits). A column's first data cell decides
 * its kind: a number makes it numeric, and then every cell of it must be a number;
 * anything else makes it categorical, whose cells (numbers too) are levels. Columns are
 * named by the header, else a0, a1, ... Empty lines at the end are ignored. Returns 0;
 * DM_EINPUT with a one-line err naming path:line:column (the physical line, the byte
 * column, and the field by number and name) for: an empty file, a header with no rows
 * after it, an empty or repeated column name, a row with more or fewer cells than the
 * first, an empty line followed by more rows, a missing value (an empty cell), a cell
 * that is not a number in a numeric column, malformed text (a quote never closed, text
 * after a closing quote, a NUL byte); DM_EINPUT naming the file for a bad gzip stream
 * or a file that cannot be opened; DM_ERUNTIME without memory. */
int rl_table_load(const char *path, const rl_load_opts *opts, rl_table *t, dm_err *err);
/* The same from text in memory ([text, text + len), not compressed); what names it in
 * messages. */
int rl_table_parse(const char *text, size_t len, const char *what, const rl_load_opts *opts,
                   rl_table *t, dm_err *err);
/* 1 when [b, e) is a number as rl_table_load reads them, its value in *v. */
int rl_parse_number(const char *b, const char *e, double *v);

/* ---- generated tables (rl_poker.c, rl_synth.c) ------------------------------------- */

/* The class of a 5-card Poker hand (suits 1-4, ranks 1-13 with 1 the ace) by the
 * standard rules, as the UCI Poker Hand data label them: 0 nothing, 1 one pair, 2 two
 * pairs, 3 three of a kind, 4 straight, 5 flush, 6 full house, 7 four of a kind,
 * 8 straight flush, 9 royal flush. A straight may run ace-low (A-2-3-4-5) or ace-high
 * (10-J-Q-K-A); the ace-high straight flush is the royal flush. */
int rl_poker_class(const int suit[5], const int rank[5]);
/* n random hands of 5 different cards (each hand drawn from a full deck), columns S1, C1,
 * ..., S5, C5, CLASS numeric and coded as in poker-hand-training.csv; deterministic by
 * seed. Returns 0, DM_EINPUT for n < 1, DM_ERUNTIME without memory. */
int rl_poker_generate(int64_t n, uint64_t seed, rl_table *t, dm_err *err);

/* n rows of nattrs numeric attributes a0, a1, ... uniform in [0, 1), and when nclasses >
 * 0 a last numeric column "class" uniform over the integers 0 .. nclasses - 1;
 * deterministic by seed. Returns 0, DM_EINPUT for n < 1 or nattrs < 1 (or nclasses < 0),
 * DM_ERUNTIME without memory. */
int rl_synth_generate(int64_t n, int nattrs, int nclasses, uint64_t seed, rl_table *t,
                      dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
