/* expr.h - the constraint expressions of sweep files ("block * level <= 1024"): compiled
 * once at load time to a small tree, type-checked against the parameters they read, then
 * evaluated at every point of the expansion. */
#ifndef DM_EXPR_H
#define DM_EXPR_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dm_expr dm_expr;

typedef enum expr_type { EXPR_NUM = 1, EXPR_STR } expr_type;

/* A value: a number (comparisons and logic give 0 or 1) or a string (ENUM parameters). */
typedef struct expr_val {
    expr_type type;
    double num;      /* EXPR_NUM */
    const char *str; /* EXPR_STR; not owned */
} expr_val;

/* Compiles text. Returns 0 with *out set, or DM_EINPUT with err saying what is wrong and
 * what was expected, and *col the 1-based column in text where it went wrong. */
int expr_compile(const char *text, dm_expr **out, int *col, dm_err *err);
void expr_free(dm_expr *e);

/* The identifiers the expression reads ("block", "device.sms"), each once, in order of
 * first appearance; expr_ident_col gives the 1-based column of the first appearance. */
int expr_nidents(const dm_expr *e);
const char *expr_ident(const dm_expr *e, int i);
int expr_ident_col(const dm_expr *e, int i);

/* Checks operand types given types[i], the type of identifier i. Returns 0 with *result
 * the expression's type, or DM_EINPUT with err and *col at the offending operator. */
int expr_check(const dm_expr *e, const expr_type *types, expr_type *result, int *col,
               dm_err *err);

/* Evaluates with vals[i] the value of identifier i. Returns 0 with *out set, or DM_EINPUT
 * with err naming what is undefined ("division by zero", "log2 of a non-positive value")
 * or the mismatched types. */
int expr_eval(const dm_expr *e, const expr_val *vals, expr_val *out, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
