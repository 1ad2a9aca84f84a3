/* expr.c - constraint expressions: a recursive-descent parser into an array of nodes, a
 * type check, and a recursive evaluator. Arithmetic is in double (integer literals are
 * exact up to 2^53); % takes integer values only. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

/* Nesting of parentheses and unary operators beyond this is refused (stack depth). */
#define EXPR_MAX_DEPTH 64

typedef enum enode_kind { E_NUM, E_STR, E_IDENT, E_NEG, E_NOT, E_BIN, E_CALL } enode_kind;

/* Binary operators, loosest first within each precedence level of expr_bin_prec. */
typedef enum ebin {
    B_OR, B_AND, B_EQ, B_NE, B_LT, B_LE, B_GT, B_GE, B_ADD, B_SUB, B_MUL, B_DIV, B_MOD
} ebin;

static const char *const expr_bin_text[] = {
    [B_OR] = "||", [B_AND] = "&&", [B_EQ] = "==", [B_NE] = "!=", [B_LT] = "<",
    [B_LE] = "<=", [B_GT] = ">",   [B_GE] = ">=", [B_ADD] = "+", [B_SUB] = "-",
    [B_MUL] = "*", [B_DIV] = "/",  [B_MOD] = "%",
};

static const int expr_bin_prec[] = {
    [B_OR] = 0,  [B_AND] = 1, [B_EQ] = 2,  [B_NE] = 2,  [B_LT] = 3,  [B_LE] = 3, [B_GT] = 3,
    [B_GE] = 3,  [B_ADD] = 4, [B_SUB] = 4, [B_MUL] = 5, [B_DIV] = 5, [B_MOD] = 5,
};
#define EXPR_PREC_UNARY 6

typedef enum efn { F_MIN, F_MAX, F_LOG2, F_POW2, F_CEIL_DIV } efn;

static const struct {
    const char *name;
    int nargs;
} expr_fns[] = {
    [F_MIN] = {"min", 2},   [F_MAX] = {"max", 2},           [F_LOG2] = {"log2", 1},
    [F_POW2] = {"pow2", 1}, [F_CEIL_DIV] = {"ceil_div", 2}, {NULL, 0},
};

typedef struct enode {
    enode_kind kind;
    int op;     /* ebin for E_BIN, efn for E_CALL */
    int col;    /* 1-based column of the literal, name or operator */
    double num; /* E_NUM */
    char *str;  /* E_STR, owned */
    int ident;  /* E_IDENT: index into idents */
    int a, b;   /* operand nodes, -1 when absent */
} enode;

typedef struct eident {
    char *name;
    int col;
} eident;

struct dm_expr {
    enode *nodes;
    int nnodes, cap;
    eident *idents;
    int nidents, identcap;
    int root;
};

/* ---- lexer ---------------------------------------------------------------------------- */

typedef enum etok { T_END, T_NUM, T_STR, T_IDENT, T_LP, T_RP, T_COMMA, T_NOT, T_BIN } etok;

typedef struct eparser {
    dm_expr *e;
    const char *text;
    const char *p; /* the character after the current token */
    etok tok;
    const char *start; /* the current token */
    size_t len;
    double num;
    ebin bin;
    int depth;
    int *col;
    dm_err *err;
} eparser;

static int expr_fail(eparser *ps, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int expr_fail(eparser *ps, const char *at, const char *fmt, ...)
{
    va_list ap;
    char msg[DM_ERR_MAX];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    *ps->col = (int)(at - ps->text) + 1;
    return dm_err_set(ps->err, DM_EINPUT, "%s", msg);
}

/* The current token for messages: "'x'" or "the end". */
static void expr_tok_desc(const eparser *ps, char *buf, size_t n)
{
    if (ps->tok == T_END)
        snprintf(buf, n, "the end");
    else
        snprintf(buf, n, "'%.*s'", (int)(ps->len > 40 ? 40 : ps->len), ps->start);
}

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident_char(int c) { return isalnum(c) || c == '_' || c == '.'; }

/* Reads the next token. Returns 0, or DM_EINPUT on a malformed one. */
static int expr_lex(eparser *ps)
{
    const char *p = ps->p;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    ps->start = p;
    unsigned char c = (unsigned char)*p;
    if (c == '\0') {
        ps->tok = T_END;
    } else if (isdigit(c) || (c == '.' && isdigit((unsigned char)p[1]))) {
        while (isdigit((unsigned char)*p))
            p++;
        if (*p == '.')
            for (p++; isdigit((unsigned char)*p); p++)
                ;
        if ((*p == 'e' || *p == 'E') &&
            (isdigit((unsigned char)p[1]) ||
             ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
            for (p += 2; isdigit((unsigned char)*p); p++)
                ;
        }
        if (is_ident_char((unsigned char)*p)) {
            while (is_ident_char((unsigned char)*p))
                p++;
            return expr_fail(ps, ps->start,
                             "malformed number '%.*s'; expected digits, a '.' and an exponent",
                             (int)(p - ps->start), ps->start);
        }
        ps->tok = T_NUM;
        ps->num = strtod(ps->start, NULL);
    } else if (is_ident_start(c)) {
        while (is_ident_char((unsigned char)*p))
            p++;
        ps->tok = T_IDENT;
    } else if (c == '"' || c == '\'') {
        const char *close = strchr(p + 1, c);
        if (!close)
            return expr_fail(ps, p, "string not closed; expected a closing %c", c);
        p = close + 1;
        ps->tok = T_STR;
    } else {
        static const struct {
            const char *text;
            etok tok;
            ebin bin;
        } ops[] = {
            {"||", T_BIN, B_OR}, {"&&", T_BIN, B_AND}, {"==", T_BIN, B_EQ},
            {"!=", T_BIN, B_NE}, {"<=", T_BIN, B_LE},  {">=", T_BIN, B_GE},
            {"<", T_BIN, B_LT},  {">", T_BIN, B_GT},   {"+", T_BIN, B_ADD},
            {"-", T_BIN, B_SUB}, {"*", T_BIN, B_MUL},  {"/", T_BIN, B_DIV},
            {"%", T_BIN, B_MOD}, {"!", T_NOT, B_OR},   {"(", T_LP, B_OR},
            {")", T_RP, B_OR},   {",", T_COMMA, B_OR},
        };
        size_t i;
        for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (strncmp(p, ops[i].text, strlen(ops[i].text)) == 0)
                break;
        if (i == sizeof ops / sizeof ops[0]) {
            if (c == '=')
                return expr_fail(ps, p, "'=' is not an operator; expected '=='");
            if (c == '&' || c == '|')
                return expr_fail(ps, p, "'%c' is not an operator; expected '%c%c'", c, c, c);
            return expr_fail(ps, p,
                             "unexpected character '%c'; expected a number, a name, a "
                             "quoted string, an operator or a parenthesis",
                             c);
        }
        p += strlen(ops[i].text);
        ps->tok = ops[i].tok;
        ps->bin = ops[i].bin;
    }
    ps->len = (size_t)(p - ps->start);
    ps->p = p;
    return 0;
}

/* ---- parser ----------------------------------------------------------------------------- */

/* Appends a node; returns its index, or -1 with err set when out of memory. */
static int expr_node(eparser *ps, enode_kind kind, int op, const char *at, int a, int b)
{
    dm_expr *e = ps->e;
    if (e->nnodes == e->cap) {
        int cap = e->cap ? 2 * e->cap : 16;
        enode *nodes = realloc(e->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes) {
            dm_err_set(ps->err, DM_ERUNTIME, "out of memory compiling an expression");
            return -1;
        }
        e->nodes = nodes;
        e->cap = cap;
    }
    enode *n = &e->nodes[e->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->op = op;
    n->col = (int)(at - ps->text) + 1;
    n->a = a;
    n->b = b;
    return e->nnodes++;
}

/* The index of identifier name (added on first use); -1 when out of memory. */
static int expr_intern(eparser *ps, const char *name, size_t len, const char *at)
{
    dm_expr *e = ps->e;
    for (int i = 0; i < e->nidents; i++)
        if (strlen(e->idents[i].name) == len && memcmp(e->idents[i].name, name, len) == 0)
            return i;
    if (e->nidents == e->identcap) {
        int cap = e->identcap ? 2 * e->identcap : 8;
        eident *ids = realloc(e->idents, (size_t)cap * sizeof *ids);
        if (!ids)
            goto fail;
        e->idents = ids;
        e->identcap = cap;
    }
    char *copy = strndup(name, len);
    if (!copy)
        goto fail;
    e->idents[e->nidents].name = copy;
    e->idents[e->nidents].col = (int)(at - ps->text) + 1;
    return e->nidents++;
fail:
    dm_err_set(ps->err, DM_ERUNTIME, "out of memory compiling an expression");
    return -1;
}

static int expr_parse_bin(eparser *ps, int prec, int *out);

/* A function call; the current token is '(' after the name at name/len. */
static int expr_parse_call(eparser *ps, const char *name, size_t len, int *out)
{
    int fn;
    for (fn = 0; expr_fns[fn].name; fn++)
        if (strlen(expr_fns[fn].name) == len && memcmp(expr_fns[fn].name, name, len) == 0)
            break;
    if (!expr_fns[fn].name)
        return expr_fail(ps, name,
                         "unknown function '%.*s'; expected min, max, log2, pow2 or ceil_div",
                         (int)len, name);
    int args[2] = {-1, -1}, nargs = 0, rc;
    if ((rc = expr_lex(ps)))
        return rc;
    if (ps->tok != T_RP) {
        for (;;) {
            int arg;
            if ((rc = expr_parse_bin(ps, 0, &arg)))
                return rc;
            if (nargs < 2)
                args[nargs] = arg;
            nargs++;
            if (ps->tok != T_COMMA)
                break;
            if ((rc = expr_lex(ps)))
                return rc;
        }
    }
    if (ps->tok != T_RP) {
        char found[64];
        expr_tok_desc(ps, found, sizeof found);
        return expr_fail(ps, ps->start, "expected ',' or ')' in the call of %s but found %s",
                         expr_fns[fn].name, found);
    }
    if (nargs != expr_fns[fn].nargs)
        return expr_fail(ps, name, "%s takes %d argument%s, not %d; expected %s(%s)",
                         expr_fns[fn].name, expr_fns[fn].nargs,
                         expr_fns[fn].nargs == 1 ? "" : "s", nargs, expr_fns[fn].name,
                         expr_fns[fn].nargs == 1 ? "x" : "a, b");
    if ((*out = expr_node(ps, E_CALL, fn, name, args[0], args[1])) < 0)
        return DM_ERUNTIME;
    return expr_lex(ps);
}

static int expr_parse_primary(eparser *ps, int *out)
{
    const char *at = ps->start;
    size_t len = ps->len;
    int rc;
    switch (ps->tok) {
    case T_NUM:
        if ((*out = expr_node(ps, E_NUM, 0, at, -1, -1)) < 0)
            return DM_ERUNTIME;
        ps->e->nodes[*out].num = ps->num;
        return expr_lex(ps);
    case T_STR:
        if ((*out = expr_node(ps, E_STR, 0, at, -1, -1)) < 0)
            return DM_ERUNTIME;
        if (!(ps->e->nodes[*out].str = strndup(at + 1, len - 2)))
            return dm_err_set(ps->err, DM_ERUNTIME, "out of memory compiling an expression");
        return expr_lex(ps);
    case T_IDENT: {
        if ((rc = expr_lex(ps)))
            return rc;
        if (ps->tok == T_LP)
            return expr_parse_call(ps, at, len, out);
        int id = expr_intern(ps, at, len, at);
        if (id < 0 || (*out = expr_node(ps, E_IDENT, 0, at, -1, -1)) < 0)
            return DM_ERUNTIME;
        ps->e->nodes[*out].ident = id;
        return 0;
    }
    case T_LP:
        if ((rc = expr_lex(ps)) || (rc = expr_parse_bin(ps, 0, out)))
            return rc;
        if (ps->tok != T_RP) {
            char found[64];
            expr_tok_desc(ps, found, sizeof found);
            return expr_fail(ps, ps->start, "expected ')' closing the '(' at column %d but "
                             "found %s", (int)(at - ps->text) + 1, found);
        }
        return expr_lex(ps);
    default: {
        char found[64];
        expr_tok_desc(ps, found, sizeof found);
        return expr_fail(ps, at, "expected a number, a name, a quoted string or '(' but "
                         "found %s", found);
    }
    }
}

static int expr_parse_unary(eparser *ps, int *out)
{
    if (++ps->depth > EXPR_MAX_DEPTH)
        return expr_fail(ps, ps->start, "expression nested more than %d deep; expected a "
                         "simpler expression", EXPR_MAX_DEPTH);
    int rc;
    if (ps->tok == T_NOT || (ps->tok == T_BIN && ps->bin == B_SUB)) {
        const char *at = ps->start;
        enode_kind kind = ps->tok == T_NOT ? E_NOT : E_NEG;
        int a;
        if ((rc = expr_lex(ps)) || (rc = expr_parse_unary(ps, &a)))
            return rc;
        if ((*out = expr_node(ps, kind, 0, at, a, -1)) < 0)
            return DM_ERUNTIME;
    } else if ((rc = expr_parse_primary(ps, out))) {
        return rc;
    }
    ps->depth--;
    return 0;
}

/* Operators of precedence prec and tighter, left-associative. */
static int expr_parse_bin(eparser *ps, int prec, int *out)
{
    if (prec == EXPR_PREC_UNARY)
        return expr_parse_unary(ps, out);
    int rc, left;
    if ((rc = expr_parse_bin(ps, prec + 1, &left)))
        return rc;
    while (ps->tok == T_BIN && expr_bin_prec[ps->bin] == prec) {
        ebin op = ps->bin;
        const char *at = ps->start;
        int right;
        if ((rc = expr_lex(ps)) || (rc = expr_parse_bin(ps, prec + 1, &right)))
            return rc;
        if ((left = expr_node(ps, E_BIN, (int)op, at, left, right)) < 0)
            return DM_ERUNTIME;
    }
    *out = left;
    return 0;
}

int expr_compile(const char *text, dm_expr **out, int *col, dm_err *err)
{
    *out = NULL;
    *col = 1;
    dm_expr *e = calloc(1, sizeof *e);
    if (!e)
        return dm_err_set(err, DM_ERUNTIME, "out of memory compiling an expression");
    eparser ps = {.e = e, .text = text, .p = text, .col = col, .err = err};
    int rc = expr_lex(&ps);
    if (rc)
        goto fail;
    if (ps.tok == T_END) {
        rc = expr_fail(&ps, ps.start, "empty expression; expected a condition such as "
                       "'block <= 1024'");
        goto fail;
    }
    if ((rc = expr_parse_bin(&ps, 0, &e->root)))
        goto fail;
    if (ps.tok != T_END) {
        char found[64];
        expr_tok_desc(&ps, found, sizeof found);
        rc = expr_fail(&ps, ps.start, "expected an operator or the end but found %s", found);
        goto fail;
    }
    *out = e;
    return 0;
fail:
    expr_free(e);
    return rc;
}

void expr_free(dm_expr *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nnodes; i++)
        free(e->nodes[i].str);
    for (int i = 0; i < e->nidents; i++)
        free(e->idents[i].name);
    free(e->nodes);
    free(e->idents);
    free(e);
}

int expr_nidents(const dm_expr *e) { return e->nidents; }
const char *expr_ident(const dm_expr *e, int i) { return e->idents[i].name; }
int expr_ident_col(const dm_expr *e, int i) { return e->idents[i].col; }

/* ---- type check ------------------------------------------------------------------------- */

static int expr_check_node(const dm_expr *e, int i, const expr_type *types, expr_type *t,
                           int *col, dm_err *err)
{
    const enode *n = &e->nodes[i];
    expr_type ta = EXPR_NUM, tb = EXPR_NUM;
    int rc;
    if (n->a >= 0 && (rc = expr_check_node(e, n->a, types, &ta, col, err)))
        return rc;
    if (n->b >= 0 && (rc = expr_check_node(e, n->b, types, &tb, col, err)))
        return rc;
    *t = EXPR_NUM;
    switch (n->kind) {
    case E_NUM:
        return 0;
    case E_STR:
        *t = EXPR_STR;
        return 0;
    case E_IDENT:
        *t = types[n->ident];
        return 0;
    case E_NEG:
    case E_NOT:
        if (ta == EXPR_NUM)
            return 0;
        *col = n->col;
        return dm_err_set(err, DM_EINPUT, "'%s' applied to a string; expected a number",
                          n->kind == E_NEG ? "-" : "!");
    case E_CALL:
        if (ta == EXPR_NUM && tb == EXPR_NUM)
            return 0;
        *col = n->col;
        return dm_err_set(err, DM_EINPUT, "%s() applied to a string; expected numbers",
                          expr_fns[n->op].name);
    case E_BIN:
        if ((n->op == B_EQ || n->op == B_NE) ? ta == tb : ta == EXPR_NUM && tb == EXPR_NUM)
            return 0;
        *col = n->col;
        if (n->op == B_EQ || n->op == B_NE)
            return dm_err_set(err, DM_EINPUT, "'%s' compares a string with a number; "
                              "expected two strings or two numbers", expr_bin_text[n->op]);
        return dm_err_set(err, DM_EINPUT, "'%s' applied to a string; expected %s",
                          expr_bin_text[n->op],
                          n->op == B_AND || n->op == B_OR ? "conditions" : "numbers");
    }
    return 0;
}

int expr_check(const dm_expr *e, const expr_type *types, expr_type *result, int *col,
               dm_err *err)
{
    return expr_check_node(e, e->root, types, result, col, err);
}

/* ---- evaluation -------------------------------------------------------------------------- */

static int expr_num_of(const expr_val *v, double *out, const char *what, dm_err *err)
{
    if (v->type != EXPR_NUM)
        return dm_err_set(err, DM_EINPUT, "'%s' applied to a string; expected numbers", what);
    *out = v->num;
    return 0;
}

static int expr_eval_node(const dm_expr *e, int i, const expr_val *vals, expr_val *out,
                          dm_err *err)
{
    const enode *n = &e->nodes[i];
    expr_val a, b;
    double x = 0, y = 0;
    int rc;
    out->type = EXPR_NUM;
    out->str = NULL;
    switch (n->kind) {
    case E_NUM:
        out->num = n->num;
        return 0;
    case E_STR:
        out->type = EXPR_STR;
        out->str = n->str;
        return 0;
    case E_IDENT:
        *out = vals[n->ident];
        return 0;
    case E_NEG:
    case E_NOT:
        if ((rc = expr_eval_node(e, n->a, vals, &a, err)) ||
            (rc = expr_num_of(&a, &x, n->kind == E_NEG ? "-" : "!", err)))
            return rc;
        out->num = n->kind == E_NEG ? -x : (x == 0);
        return 0;
    case E_CALL:
        if ((rc = expr_eval_node(e, n->a, vals, &a, err)) ||
            (rc = expr_num_of(&a, &x, expr_fns[n->op].name, err)))
            return rc;
        if (n->b >= 0 && ((rc = expr_eval_node(e, n->b, vals, &b, err)) ||
                          (rc = expr_num_of(&b, &y, expr_fns[n->op].name, err))))
            return rc;
        switch ((efn)n->op) {
        case F_MIN:
            out->num = x < y ? x : y;
            return 0;
        case F_MAX:
            out->num = x > y ? x : y;
            return 0;
        case F_LOG2:
            if (!(x > 0))
                return dm_err_set(err, DM_EINPUT, "log2 of a non-positive value");
            out->num = log2(x);
            return 0;
        case F_POW2:
            out->num = exp2(x);
            return 0;
        case F_CEIL_DIV:
            if (y == 0)
                return dm_err_set(err, DM_EINPUT, "division by zero");
            out->num = ceil(x / y);
            return 0;
        }
        return 0;
    case E_BIN:
        break;
    }
    if ((rc = expr_eval_node(e, n->a, vals, &a, err)))
        return rc;
    if (n->op == B_AND || n->op == B_OR) {
        if ((rc = expr_num_of(&a, &x, expr_bin_text[n->op], err)))
            return rc;
        if ((n->op == B_AND) == (x == 0)) { /* decided by the left side */
            out->num = n->op == B_OR;
            return 0;
        }
        if ((rc = expr_eval_node(e, n->b, vals, &b, err)) ||
            (rc = expr_num_of(&b, &y, expr_bin_text[n->op], err)))
            return rc;
        out->num = y != 0;
        return 0;
    }
    if ((rc = expr_eval_node(e, n->b, vals, &b, err)))
        return rc;
    if ((n->op == B_EQ || n->op == B_NE) && a.type == EXPR_STR && b.type == EXPR_STR) {
        out->num = (strcmp(a.str, b.str) == 0) == (n->op == B_EQ);
        return 0;
    }
    if (a.type != b.type && (n->op == B_EQ || n->op == B_NE))
        return dm_err_set(err, DM_EINPUT, "'%s' compares a string with a number; expected "
                          "two strings or two numbers", expr_bin_text[n->op]);
    if ((rc = expr_num_of(&a, &x, expr_bin_text[n->op], err)) ||
        (rc = expr_num_of(&b, &y, expr_bin_text[n->op], err)))
        return rc;
    switch ((ebin)n->op) {
    case B_ADD: out->num = x + y; break;
    case B_SUB: out->num = x - y; break;
    case B_MUL: out->num = x * y; break;
    case B_DIV:
        if (y == 0)
            return dm_err_set(err, DM_EINPUT, "division by zero");
        out->num = x / y;
        break;
    case B_MOD:
        if (x != floor(x) || y != floor(y))
            return dm_err_set(err, DM_EINPUT, "'%%' of a non-integer value; expected "
                              "integers");
        if (y == 0)
            return dm_err_set(err, DM_EINPUT, "division by zero");
        out->num = fmod(x, y);
        break;
    case B_LT: out->num = x < y; break;
    case B_LE: out->num = x <= y; break;
    case B_GT: out->num = x > y; break;
    case B_GE: out->num = x >= y; break;
    case B_EQ: out->num = x == y; break;
    case B_NE: out->num = x != y; break;
    case B_AND:
    case B_OR:
        break; /* handled above */
    }
    return 0;
}

int expr_eval(const dm_expr *e, const expr_val *vals, expr_val *out, dm_err *err)
{
    return expr_eval_node(e, e->root, vals, out, err);
}
