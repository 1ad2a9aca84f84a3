/* rl_text.c - writing rules in their plain text form (described in rl_rules.h): RPN
 * back to infix with only the parentheses that parsing needs to give the same tokens
 * (rl_parse.c reads it). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_rules.h"
#include "rules/rl_words.h"

/* ---- writing ----------------------------------------------------------------------- */

typedef struct rl_str {
    char *s;
    size_t len, cap;
    int oom;
} rl_str;

static void rl_put(rl_str *b, const char *text, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void rl_puts(rl_str *b, const char *text)
{
    rl_put(b, text, strlen(text));
}

/* Writes a name or level bare when it is a plain word, else quoted. */
static void rl_put_word(rl_str *b, const char *w)
{
    size_t n = strlen(w);
    int bare = n > 0 && !rl_is_keyword(w, n);
    for (size_t i = 0; bare && i < n; i++)
        bare = !rl_special((unsigned char)w[i]);
    if (bare) {
        rl_put(b, w, n);
        return;
    }
    rl_puts(b, "\"");
    for (size_t i = 0; i < n; i++) {
        if (w[i] == '"' || w[i] == '\\')
            rl_puts(b, "\\");
        rl_put(b, w + i, 1);
    }
    rl_puts(b, "\"");
}

static void rl_put_num(rl_str *b, double v)
{
    char num[40];
    dm_format_double(v, num, sizeof num);
    rl_puts(b, num);
}

static void rl_put_cond(rl_str *b, const rl_token *k, const rl_table *t)
{
    static const char *ops[] = {[RL_EQ] = " = ", [RL_NE] = " != ", [RL_LT] = " < ",
                                [RL_LE] = " <= ", [RL_GT] = " > ", [RL_GE] = " >= "};
    const rl_column *c = &t->cols[k->attr];
    rl_put_word(b, c->name);
    if (k->op == RL_IN) {
        rl_puts(b, " in [");
        rl_put_num(b, k->lo);
        rl_puts(b, ", ");
        rl_put_num(b, k->hi);
        rl_puts(b, "]");
        return;
    }
    rl_puts(b, ops[k->op]);
    if (c->kind == RL_CATEGORICAL)
        rl_put_word(b, c->levels[(int)k->lo]);
    else
        rl_put_num(b, k->lo);
}

/* Binding strength: OR 1, AND 2, NOT and conditions 3. */
static int rl_prec(int op)
{
    return op == RL_OR ? 1 : op == RL_AND ? 2 : 3;
}

/* Writes the subexpression ending at token k; start[j] is where the one ending at j
 * starts. Parentheses go round a left operand binding looser than its operator and a
 * right one binding no tighter, so parsing gives the same RPN back. */
static void rl_put_node(rl_str *b, const rl_token *tok, const int *start, int k,
                        const rl_table *t)
{
    int op = tok[k].op;
    if (RL_IS_COND(op)) {
        rl_put_cond(b, &tok[k], t);
        return;
    }
    int right = k - 1, left = op == RL_NOT ? -1 : start[right] - 1;
    if (left >= 0) {
        int paren = rl_prec(tok[left].op) < rl_prec(op);
        rl_puts(b, paren ? "(" : "");
        rl_put_node(b, tok, start, left, t);
        rl_puts(b, paren ? ")" : "");
        rl_puts(b, op == RL_AND ? " AND " : " OR ");
    } else {
        rl_puts(b, "NOT ");
    }
    int paren = op == RL_NOT ? rl_prec(tok[right].op) < 3
                             : rl_prec(tok[right].op) <= rl_prec(op);
    rl_puts(b, paren ? "(" : "");
    rl_put_node(b, tok, start, right, t);
    rl_puts(b, paren ? ")" : "");
}

/* Writes expression tok[0..n) (well formed). Returns 0, or -1 without memory. */
static int rl_put_expr(rl_str *b, const rl_token *tok, int n, const rl_table *t)
{
    int *start = malloc((size_t)n * sizeof *start), *stack = malloc((size_t)n * sizeof *stack);
    if (!start || !stack) {
        free(start);
        free(stack);
        return -1;
    }
    int sp = 0;
    for (int k = 0; k < n; k++) {
        int op = tok[k].op;
        if (RL_IS_COND(op))
            stack[sp++] = k;
        else if (op != RL_NOT)
            sp--;
        start[k] = stack[sp - 1]; /* an operator starts where its left operand does */
    }
    rl_put_node(b, tok, start, n - 1, t);
    free(start);
    free(stack);
    return 0;
}

char *rl_rule_text(const rl_ruleset *rs, int r, const rl_table *t)
{
    const rl_rule *rule = &rs->rules[r];
    rl_str b = {0};
    rl_puts(&b, "IF ");
    if (rl_put_expr(&b, rs->tok + rule->ante, rule->nante, t))
        b.oom = 1;
    rl_puts(&b, " THEN ");
    if (rl_put_expr(&b, rs->tok + rule->cons, rule->ncons, t))
        b.oom = 1;
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

int rl_rules_write(const rl_ruleset *rs, const rl_table *t, FILE *f, dm_err *err)
{
    for (int r = 0; r < rs->nrules; r++) {
        char *text = rl_rule_text(rs, r, t);
        if (!text)
            return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
        int bad = fprintf(f, "%s\n", text) < 0;
        free(text);
        if (bad)
            return dm_err_set(err, DM_ERUNTIME, "rules: writing rule %d failed", r + 1);
    }
    return 0;
}
