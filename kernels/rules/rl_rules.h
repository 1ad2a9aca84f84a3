/* rl_rules.h - association rules as the paper holds them (Cano, Luna & Ventura 2013,
 * Sect. 5.1): an antecedent and a consequent, each an expression of conditions joined by
 * AND, OR, NOT in reverse Polish notation; the plain text form they are read and written
 * in, and a seeded generator of rule sets of a given size. */
#ifndef DM_RL_RULES_H
#define DM_RL_RULES_H

#include <stdint.h>
#include <stdio.h>

#include "dm.h"
#include "rules/rl_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A token's operation: a condition (pushes whether an instance satisfies it) or an
 * operator (pops its operands, pushes the result). */
typedef enum rl_op {
    RL_EQ = 1, /* attr = lo */
    RL_NE,     /* attr != lo */
    RL_LT,     /* attr < lo */
    RL_LE,     /* attr <= lo */
    RL_GT,     /* attr > lo */
    RL_GE,     /* attr >= lo */
    RL_IN,     /* lo <= attr <= hi */
    RL_AND,    /* binary */
    RL_OR,     /* binary */
    RL_NOT,    /* unary */
} rl_op;

#define RL_IS_COND(op) ((op) >= RL_EQ && (op) <= RL_IN)

/* One RPN symbol. A categorical condition (= or != only) holds the level's code in lo. */
typedef struct rl_token {
    int32_t op;   /* rl_op */
    int32_t attr; /* conditions: the column */
    double lo, hi;
} rl_token;

/* A rule: antecedent -> consequent, each a run of tokens of its rule set. */
typedef struct rl_rule {
    int64_t ante, cons; /* first token of each */
    int32_t nante, ncons;
} rl_rule;

typedef struct rl_ruleset {
    int nrules;
    rl_rule *rules;
    int64_t ntok;
    rl_token *tok; /* each rule's antecedent then its consequent, rule after rule */
    int caprules;
    int64_t captok;
} rl_ruleset;

/* ---- rule sets (rl_rules.c) -------------------------------------------------------- */

/* Appends the rule ante (na tokens) -> cons (nc tokens), unchecked. Returns 0, or
 * DM_ERUNTIME without memory. */
int rl_ruleset_add(rl_ruleset *rs, const rl_token *ante, int na, const rl_token *cons, int nc,
                   dm_err *err);
void rl_ruleset_free(rl_ruleset *rs);
/* The stack depth expression tok[0..n) needs, or -1 when it is not one well-formed RPN
 * expression (an operator short of operands, or not exactly one value left). */
int rl_expr_depth(const rl_token *tok, int n);
/* Checks every rule against t: well-formed expressions, conditions on existing columns,
 * = and != only (and a code of the column) on categorical ones, finite values, ranges
 * with lo <= hi. Returns 0, or DM_EINPUT with err naming the rule (from 1), its part
 * and the token. *depth (when not NULL) gets the deepest stack any expression needs. */
int rl_ruleset_check(const rl_ruleset *rs, const rl_table *t, int *depth, dm_err *err);

/* ---- text (rl_text.c) -------------------------------------------------------------- */

/* The text form, one rule per line:
 *
 *     IF a1 <= 3.5 AND (colour = red OR NOT a3 in [1, 2]) THEN target = 1
 *
 * Conditions are `attribute op value` with op one of = != < <= > >=, or `attribute in
 * [lo, hi]` (both ends included); NOT binds tightest, then AND, then OR, both left to
 * right; parentheses group. Attributes are the table's column names (a0, a1, ... for a
 * file without a header); categorical values are their level text, numbers are decimal
 * (written in the shortest form that reads back as the same double, up to %.17g). A name
 * or level that is not a plain word (empty, holding a space or one of ()[],=!<>"#, or
 * one of IF THEN AND OR NOT in) is written in double quotes, with \" and \\ inside.
 * Lines that are blank or start with # are skipped. Writing and parsing again gives the
 * same tokens. */

/* Rule r of rs as text (malloc'd, no line end), or NULL without memory. rs must check
 * against t (rl_ruleset_check), as parsed and generated sets do. */
char *rl_rule_text(const rl_ruleset *rs, int r, const rl_table *t);
/* Writes every rule, one per line. Returns 0, or DM_ERUNTIME when a write fails. */
int rl_rules_write(const rl_ruleset *rs, const rl_table *t, FILE *f, dm_err *err);
/* Parses rules from [text, text + len) against t's columns into rs (emptied first).
 * Returns 0; DM_EINPUT with a one-line err "what:line:column: ..." for a syntax error, an
 * unknown attribute or level, a number that is not one, an operator the attribute's kind
 * does not allow, an empty range; "what: no rules" when there is none; DM_ERUNTIME
 * without memory. */
int rl_rules_parse(const char *text, size_t len, const char *what, const rl_table *t,
                   rl_ruleset *rs, dm_err *err);
/* The same from the file at path (DM_EINPUT also when it cannot be opened). */
int rl_rules_load(const char *path, const rl_table *t, rl_ruleset *rs, dm_err *err);

/* ---- generated rule sets (rl_gen.c) ------------------------------------------------ */

/* nrules random rules of exactly symbols RPN tokens each (antecedent and consequent
 * together; the paper's Table 4 has 58: its GPops column over instances x rules),
 * deterministic by seed: the antecedent's share uniform in 1 .. symbols - 1, each
 * expression a random tree of that size (an inner node is NOT with probability 1/5, or
 * whenever its subtree has two symbols, else AND or OR evenly, the symbols split
 * uniformly between its operands), each condition on a random column of t with a value taken from a
 * random row (a range between two rows' values): numeric columns any of the seven
 * conditions, categorical ones = or !=. Returns 0; DM_EINPUT for nrules < 1, symbols < 2,
 * or a table without rows or columns; DM_ERUNTIME without memory. */
int rl_rules_generate(const rl_table *t, int nrules, int symbols, uint64_t seed,
                      rl_ruleset *rs, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
