/* rl_parse.c - reading rules in their plain text form (described in rl_rules.h): a
 * lexer over one line and a recursive-descent parser (OR over AND over NOT) that emits
 * RPN, with one-line errors naming file:line:column. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_rules.h"
#include "rules/rl_words.h"

enum { T_END, T_WORD, T_STRING, T_LP, T_RP, T_LB, T_RB, T_COMMA, T_CMP };

typedef struct rl_parser {
    const char *what;
    int64_t line;
    const char *lb, *le; /* the line */
    const char *p;       /* the next character */
    /* The current token: kind, [b, e) (a string's text without its quotes, escapes
     * kept), its column, and a comparison's operation. */
    int kind, cmp;
    const char *b, *e;
    int col;
    const rl_table *t;
    rl_token *out; /* the expression being emitted */
    int n, cap;
    dm_err *err;
} rl_parser;

/* Sets err to "what:line:col: message" at the current token. Returns DM_EINPUT. */
static int rl_syntax(rl_parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rl_syntax(rl_parser *ps, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dm_err_set(ps->err, DM_EINPUT, "%s:%lld:%d: %s", ps->what, (long long)ps->line,
                      ps->col, msg);
}

/* Reads the next token. Returns 0, or DM_EINPUT for a stray character or an unended
 * string. */
static int rl_lex(rl_parser *ps)
{
    while (ps->p < ps->le && isspace((unsigned char)*ps->p))
        ps->p++;
    ps->b = ps->p;
    ps->col = (int)(ps->p - ps->lb) + 1;
    if (ps->p == ps->le) {
        ps->kind = T_END;
        ps->e = ps->p;
        return 0;
    }
    char c = *ps->p++, next = ps->p < ps->le ? *ps->p : '\0';
    static const char single[] = "()[],";
    const char *s = strchr(single, c);
    if (s) {
        ps->kind = T_LP + (int)(s - single);
    } else if (c == '=' || c == '<' || c == '>' || c == '!') {
        ps->kind = T_CMP;
        int eq = next == '=';
        if (c == '!' && !eq)
            return rl_syntax(ps, "'!' without '=' after it");
        ps->cmp = c == '=' ? RL_EQ : c == '!' ? RL_NE : c == '<' ? (eq ? RL_LE : RL_LT)
                                                                  : (eq ? RL_GE : RL_GT);
        ps->p += eq && c != '=';
    } else if (c == '"') {
        ps->kind = T_STRING;
        ps->b = ps->p;
        while (ps->p < ps->le && *ps->p != '"')
            ps->p += *ps->p == '\\' && ps->p + 1 < ps->le ? 2 : 1;
        if (ps->p >= ps->le)
            return rl_syntax(ps, "string without its closing quote");
        ps->e = ps->p++;
        return 0;
    } else if (c == '#') {
        return rl_syntax(ps, "'#' inside a rule (quote the word that holds it)");
    } else {
        ps->kind = T_WORD;
        while (ps->p < ps->le && !rl_special((unsigned char)*ps->p))
            ps->p++;
    }
    ps->e = ps->p;
    return 0;
}

static int rl_is(const rl_parser *ps, const char *keyword)
{
    size_t n = (size_t)(ps->e - ps->b);
    return ps->kind == T_WORD && strlen(keyword) == n && memcmp(ps->b, keyword, n) == 0;
}

/* The current token's text as a C string (a string's escapes undone), in buf. */
static void rl_text_of(const rl_parser *ps, char *buf, size_t size)
{
    size_t n = 0;
    for (const char *q = ps->b; q < ps->e && n + 1 < size; q++) {
        if (ps->kind == T_STRING && *q == '\\' && q + 1 < ps->e)
            q++;
        buf[n++] = *q;
    }
    buf[n] = '\0';
}

/* A short description of the current token for messages. */
static const char *rl_what_token(const rl_parser *ps, char *buf, size_t size)
{
    if (ps->kind == T_END)
        return "the end of the line";
    snprintf(buf, size, "'%.*s'", (int)(ps->e - ps->b > 40 ? 40 : ps->e - ps->b), ps->b);
    return buf;
}

static int rl_emit(rl_parser *ps, rl_token k)
{
    if (ps->n == ps->cap) {
        int cap = ps->cap ? ps->cap * 2 : 64;
        rl_token *o = realloc(ps->out, (size_t)cap * sizeof *o);
        if (!o)
            return dm_err_set(ps->err, DM_ERUNTIME, "%s: out of memory", ps->what);
        ps->out = o;
        ps->cap = cap;
    }
    ps->out[ps->n++] = k;
    return 0;
}

/* A number token of a numeric attribute into *v. Returns 0 or DM_EINPUT. */
static int rl_number(rl_parser *ps, const char *attr, double *v)
{
    char buf[64];
    if (ps->kind != T_WORD || !rl_parse_number(ps->b, ps->e, v))
        return rl_syntax(ps, "expected a number for numeric attribute %s, got %s", attr,
                         rl_what_token(ps, buf, sizeof buf));
    return rl_lex(ps);
}

/* condition := name op value | name in [ number , number ] */
static int rl_cond(rl_parser *ps)
{
    char name[256], buf[64];
    if (ps->kind == T_WORD && rl_is_keyword(ps->b, (size_t)(ps->e - ps->b)))
        return rl_syntax(ps, "expected a condition, got keyword %s",
                         rl_what_token(ps, buf, sizeof buf));
    if (ps->kind != T_WORD && ps->kind != T_STRING)
        return rl_syntax(ps, "expected a condition, got %s", rl_what_token(ps, buf, sizeof buf));
    rl_text_of(ps, name, sizeof name);
    rl_token k = {0};
    k.attr = rl_table_column(ps->t, name);
    if (k.attr < 0)
        return rl_syntax(ps, "unknown attribute '%s'", name);
    const rl_column *c = &ps->t->cols[k.attr];
    int rc = rl_lex(ps);
    if (rc)
        return rc;
    if (rl_is(ps, "in")) {
        if (c->kind == RL_CATEGORICAL)
            return rl_syntax(ps, "'in' needs a numeric attribute (%s is categorical)", name);
        k.op = RL_IN;
        if ((rc = rl_lex(ps)))
            return rc;
        if (ps->kind != T_LB)
            return rl_syntax(ps, "expected '[' after 'in'");
        int col = ps->col;
        if ((rc = rl_lex(ps)) || (rc = rl_number(ps, name, &k.lo)))
            return rc;
        if (ps->kind != T_COMMA)
            return rl_syntax(ps, "expected ',' in the range");
        if ((rc = rl_lex(ps)) || (rc = rl_number(ps, name, &k.hi)))
            return rc;
        if (ps->kind != T_RB)
            return rl_syntax(ps, "expected ']' to end the range");
        if (k.lo > k.hi) {
            ps->col = col;
            return rl_syntax(ps, "empty range (its low end is above its high end)");
        }
        return (rc = rl_lex(ps)) ? rc : rl_emit(ps, k);
    }
    if (ps->kind != T_CMP)
        return rl_syntax(ps, "expected = != < <= > >= or 'in' after %s, got %s", name,
                         rl_what_token(ps, buf, sizeof buf));
    k.op = ps->cmp;
    if (c->kind == RL_CATEGORICAL && k.op != RL_EQ && k.op != RL_NE)
        return rl_syntax(ps, "%.*s needs a numeric attribute (%s is categorical)",
                         (int)(ps->e - ps->b), ps->b, name);
    if ((rc = rl_lex(ps)))
        return rc;
    if (c->kind == RL_NUMERIC) {
        if ((rc = rl_number(ps, name, &k.lo)))
            return rc;
        return rl_emit(ps, k);
    }
    if (ps->kind != T_WORD && ps->kind != T_STRING)
        return rl_syntax(ps, "expected a value of %s, got %s", name,
                         rl_what_token(ps, buf, sizeof buf));
    char level[256];
    rl_text_of(ps, level, sizeof level);
    int code = rl_column_level(c, level);
    if (code < 0)
        return rl_syntax(ps, "'%s' is not a value of attribute %s", level, name);
    k.lo = code;
    return (rc = rl_lex(ps)) ? rc : rl_emit(ps, k);
}

static int rl_or(rl_parser *ps);

/* factor := NOT factor | ( expr ) | condition */
static int rl_factor(rl_parser *ps)
{
    int rc;
    if (rl_is(ps, "NOT")) {
        rl_token k = {.op = RL_NOT};
        return (rc = rl_lex(ps)) || (rc = rl_factor(ps)) ? rc : rl_emit(ps, k);
    }
    if (ps->kind == T_LP) {
        if ((rc = rl_lex(ps)) || (rc = rl_or(ps)))
            return rc;
        if (ps->kind != T_RP) {
            char buf[64];
            return rl_syntax(ps, "expected ')', got %s", rl_what_token(ps, buf, sizeof buf));
        }
        return rl_lex(ps);
    }
    return rl_cond(ps);
}

/* term := factor { AND factor } */
static int rl_and(rl_parser *ps)
{
    int rc = rl_factor(ps);
    while (!rc && rl_is(ps, "AND")) {
        rl_token k = {.op = RL_AND};
        if (!(rc = rl_lex(ps)) && !(rc = rl_factor(ps)))
            rc = rl_emit(ps, k);
    }
    return rc;
}

/* expr := term { OR term } */
static int rl_or(rl_parser *ps)
{
    int rc = rl_and(ps);
    while (!rc && rl_is(ps, "OR")) {
        rl_token k = {.op = RL_OR};
        if (!(rc = rl_lex(ps)) && !(rc = rl_and(ps)))
            rc = rl_emit(ps, k);
    }
    return rc;
}

/* rule := IF expr THEN expr, the whole line. Appends it to rs. */
static int rl_rule_line(rl_parser *ps, rl_ruleset *rs)
{
    char buf[64];
    int rc = rl_lex(ps);
    if (rc)
        return rc;
    if (!rl_is(ps, "IF"))
        return rl_syntax(ps, "expected IF, got %s", rl_what_token(ps, buf, sizeof buf));
    ps->n = 0;
    if ((rc = rl_lex(ps)) || (rc = rl_or(ps)))
        return rc;
    int na = ps->n;
    if (!rl_is(ps, "THEN"))
        return rl_syntax(ps, "expected AND, OR or THEN, got %s",
                         rl_what_token(ps, buf, sizeof buf));
    if ((rc = rl_lex(ps)) || (rc = rl_or(ps)))
        return rc;
    if (ps->kind != T_END)
        return rl_syntax(ps, "expected AND, OR or the end of the rule, got %s",
                         rl_what_token(ps, buf, sizeof buf));
    return rl_ruleset_add(rs, ps->out, na, ps->out + na, ps->n - na, ps->err);
}

int rl_rules_parse(const char *text, size_t len, const char *what, const rl_table *t,
                   rl_ruleset *rs, dm_err *err)
{
    memset(rs, 0, sizeof *rs);
    rl_parser ps = {.what = what, .t = t, .err = err};
    const char *p = text, *end = text + len;
    int rc = 0;
    while (!rc && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        ps.lb = p;
        ps.le = nl ? nl : end;
        p = nl ? nl + 1 : end;
        if (ps.le > ps.lb && ps.le[-1] == '\r')
            ps.le--;
        ps.line++;
        ps.p = ps.lb;
        while (ps.p < ps.le && isspace((unsigned char)*ps.p))
            ps.p++;
        if (ps.p == ps.le || *ps.p == '#')
            continue;
        rc = rl_rule_line(&ps, rs);
    }
    if (!rc && rs->nrules == 0)
        rc = dm_err_set(err, DM_EINPUT, "%s: no rules", what);
    free(ps.out);
    if (rc)
        rl_ruleset_free(rs);
    return rc;
}

int rl_rules_load(const char *path, const rl_table *t, rl_ruleset *rs, dm_err *err)
{
    memset(rs, 0, sizeof *rs);
    char *text;
    size_t len;
    int rc = dm_read_file(path, &text, &len, err);
    if (rc)
        return rc;
    rc = rl_rules_parse(text, len, path, t, rs, err);
    free(text);
    return rc;
}
