/* sweep_yaml.c - YAML text to a tree whose nodes know their line and column, built from
 * libfyaml's event stream (libfyaml 0.7 keeps no public start mark on document nodes),
 * with libfyaml's diagnostics collected rather than printed. Also the "FILE:LINE:COL:"
 * message helpers of the sweep module. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfyaml.h>

#include "sweep_int.h"

static int sweep_vfail(const sweep_src *src, int line, int col, dm_err *err, const char *fmt,
                       va_list ap)
{
    char msg[DM_ERR_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (char *c = msg; *c; c++) /* a message is one line, whatever text it quotes */
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    if (src->positions)
        return dm_err_set(err, DM_EINPUT, "%s:%d:%d: %s", src->name, line, col, msg);
    return dm_err_set(err, DM_EINPUT, "%s: %s", src->name, msg);
}

int sweep_fail(const sweep_src *src, const sy_node *at, dm_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sweep_vfail(src, at ? at->line : 1, at ? at->col : 1, err, fmt, ap);
    va_end(ap);
    return rc;
}

int sweep_fail_at(const sweep_src *src, int line, int col, dm_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sweep_vfail(src, line, col, err, fmt, ap);
    va_end(ap);
    return rc;
}

void sy_free(sy_node *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->n; i++)
        sy_free(n->items[i]);
    free(n->items);
    free(n->text);
    free(n);
}

int sy_is_null(const sy_node *n)
{
    return n->kind == SY_SCALAR && !n->quoted &&
           (!n->text[0] || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0);
}

const char *sy_kind_name(const sy_node *n)
{
    return n->kind == SY_MAP ? "a mapping" : n->kind == SY_SEQ ? "a list" : "a scalar";
}

/* libfyaml's output callback: errors are collected, everything else is dropped. */
static void sy_quiet(struct fy_diag *diag, void *user, const char *buf, size_t len)
{
    (void)diag;
    (void)user;
    (void)buf;
    (void)len;
}

/* A node for a scalar or collection start event; NULL when out of memory. An event
 * without a mark (the empty value of "key:") takes the position of prev. */
static sy_node *sy_node_new(struct fy_event *ev, const sy_node *prev)
{
    sy_node *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    const struct fy_mark *m = fy_event_start_mark(ev);
    n->line = m ? m->line + 1 : prev ? prev->line : 1;
    n->col = m ? m->column + 1 : prev ? prev->col : 1;
    if (ev->type == FYET_MAPPING_START || ev->type == FYET_SEQUENCE_START) {
        n->kind = ev->type == FYET_MAPPING_START ? SY_MAP : SY_SEQ;
        return n;
    }
    n->kind = SY_SCALAR;
    struct fy_token *tok = fy_event_get_token(ev);
    size_t len = 0;
    const char *text = fy_token_get_text(tok, &len);
    if (!(n->text = strndup(text ? text : "", len))) {
        free(n);
        return NULL;
    }
    enum fy_scalar_style style = fy_token_scalar_style(tok);
    n->quoted = style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED;
    const struct fy_mark *e = fy_event_end_mark(ev);
    if (m && e && (style == FYSS_PLAIN || n->quoted) && e->line == m->line &&
        (size_t)(e->column - m->column) == len && strlen(n->text) == len)
        n->text_col = n->col; /* the marks of a quoted scalar exclude the quotes */
    return n;
}

/* Adds child to parent (a collection); DM_EINPUT on a duplicate or non-scalar key. */
static int sy_attach(const sweep_src *src, sy_node *parent, sy_node *child, dm_err *err)
{
    if (parent->kind == SY_MAP && parent->n % 2 == 0) {
        if (child->kind != SY_SCALAR) {
            sweep_fail(src, child, err, "a key must be a name, not %s", sy_kind_name(child));
            sy_free(child);
            return DM_EINPUT;
        }
        for (int i = 0; i < parent->n; i += 2)
            if (strcmp(parent->items[i]->text, child->text) == 0) {
                sweep_fail(src, child, err, "duplicate key '%s' (first at line %d); "
                           "expected each key once", child->text, parent->items[i]->line);
                sy_free(child);
                return DM_EINPUT;
            }
    }
    sy_node **items = realloc(parent->items, (size_t)(parent->n + 1) * sizeof *items);
    if (!items) {
        sy_free(child);
        return dm_err_set(err, DM_ERUNTIME, "%s: out of memory", src->name);
    }
    parent->items = items;
    parent->items[parent->n++] = child;
    return 0;
}

/* Turns libfyaml's first collected error into err. */
static int sy_syntax_error(const sweep_src *src, struct fy_diag *diag, dm_err *err)
{
    void *iter = NULL;
    struct fy_diag_error *de;
    while ((de = fy_diag_errors_iterate(diag, &iter)))
        if (de->type == FYET_ERROR)
            return sweep_fail_at(src, de->line, de->column, err, "invalid YAML: %s; "
                                 "expected well-formed YAML", de->msg);
    return sweep_fail_at(src, 1, 1, err, "invalid YAML; expected well-formed YAML");
}

static int sy_oom(const sweep_src *src, dm_err *err)
{
    return dm_err_set(err, DM_ERUNTIME, "%s: out of memory reading YAML", src->name);
}

int sy_parse(const sweep_src *src, const char *text, size_t len, sy_node **out, dm_err *err)
{
    struct fy_diag *diag = NULL;
    struct fy_parser *parser = NULL;
    struct fy_event *ev = NULL;
    sy_node *root = NULL, **stack = NULL, *prev = NULL;
    int depth = 0, cap = 0, ndocs = 0, rc;
    *out = NULL;

    struct fy_diag_cfg dcfg;
    fy_diag_cfg_default(&dcfg);
    dcfg.fp = NULL;
    dcfg.output_fn = sy_quiet;
    dcfg.colorize = false;
    if (!(diag = fy_diag_create(&dcfg))) {
        rc = sy_oom(src, err);
        goto fail;
    }
    fy_diag_set_collect_errors(diag, true);
    struct fy_parse_cfg pcfg = {.flags = FYPCF_QUIET, .diag = diag};
    if (!(parser = fy_parser_create(&pcfg)) || fy_parser_set_string(parser, text, len)) {
        rc = sy_oom(src, err);
        goto fail;
    }

    while ((ev = fy_parser_parse(parser))) {
        const struct fy_mark *m = fy_event_start_mark(ev);
        int line = m ? m->line + 1 : 1, col = m ? m->column + 1 : 1;
        sy_node *n;
        switch (ev->type) {
        case FYET_DOCUMENT_START:
            if (ndocs++) {
                rc = sweep_fail_at(src, line, col, err, "a second YAML document; expected "
                                   "one document");
                goto fail;
            }
            break;
        case FYET_ALIAS:
            rc = sweep_fail_at(src, line, col, err, "aliases are not supported; expected "
                               "the value written out");
            goto fail;
        case FYET_SCALAR:
        case FYET_SEQUENCE_START:
        case FYET_MAPPING_START:
            if (!(n = sy_node_new(ev, prev))) {
                rc = sy_oom(src, err);
                goto fail;
            }
            if (depth == 0)
                root = n;
            else if ((rc = sy_attach(src, stack[depth - 1], n, err)))
                goto fail;
            prev = n;
            if (n->kind != SY_SCALAR) {
                if (depth == cap) {
                    cap = cap ? 2 * cap : 16;
                    sy_node **st = realloc(stack, (size_t)cap * sizeof *st);
                    if (!st) {
                        rc = sy_oom(src, err);
                        goto fail;
                    }
                    stack = st;
                }
                stack[depth++] = n;
            }
            break;
        case FYET_SEQUENCE_END:
        case FYET_MAPPING_END:
            depth--;
            break;
        default:
            break;
        }
        fy_parser_event_free(parser, ev);
    }
    if (fy_parser_get_stream_error(parser) || fy_diag_got_error(diag)) {
        rc = sy_syntax_error(src, diag, err);
        goto fail;
    }
    *out = root;
    root = NULL;
    rc = 0;
fail:
    if (ev) {
        /* Events after a syntax error are unreliable: if the rest of the stream has one,
         * it is the error to report, not a duplicate key among the debris. */
        fy_parser_event_free(parser, ev);
        while ((ev = fy_parser_parse(parser)))
            fy_parser_event_free(parser, ev);
        if (rc == DM_EINPUT && (fy_parser_get_stream_error(parser) || fy_diag_got_error(diag)))
            rc = sy_syntax_error(src, diag, err);
    }
    sy_free(root);
    free(stack);
    if (parser)
        fy_parser_destroy(parser);
    if (diag)
        fy_diag_destroy(diag);
    return rc;
}
