/* variant_check.h - running a variant at a point against its workload's reference, and
 * accounting for the cases a test tries: a case the variant refuses (supports()) must be
 * one the test expects to be refused, every expected refusal must happen, and a test
 * whose cases are all refused fails. Static functions, included after cmocka.h. */
#ifndef DM_TEST_VARIANT_CHECK_H
#define DM_TEST_VARIANT_CHECK_H

#include <stdio.h>
#include <string.h>

#include "dm.h"

/* A refusal a test expects: of variant, at points with every "name=value" of params
 * (comma-separated; "" for any point), with a reason containing reason. */
typedef struct check_skip {
    const char *variant;
    const char *params;
    const char *reason;
} check_skip;

#define CHECK_MAX_SKIPS 8

/* The cases of one test. */
typedef struct check_cases {
    const check_skip *expected; /* zero-ended; NULL: the test expects every case to run */
    int cases, run, skipped;
    int hits[CHECK_MAX_SKIPS];
    char first_why[CHECK_MAX_SKIPS][512]; /* the first reason given for each expected refusal */
} check_cases;

/* Starts counting a test's cases, with the refusals it expects (NULL: none). Needs
 * cmocka. */
static inline void check_begin(check_cases *c, const check_skip *expected)
{
    int n = 0;
    while (expected && expected[n].variant)
        n++;
    assert_true(n <= CHECK_MAX_SKIPS);
    memset(c, 0, sizeof *c);
    c->expected = expected;
}

/* 1 when pt has the value of every "name=value" in params. */
static inline int check_point_has(const dm_point *pt, const char *params)
{
    char terms[256], text[DM_TEXT_MAX];
    snprintf(terms, sizeof terms, "%s", params);
    for (char *save = NULL, *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        if (!eq)
            return 0;
        *eq = '\0';
        const dm_value *v = dm_point_get(pt, t);
        if (!v)
            return 0;
        dm_value_format(v, text, sizeof text);
        if (strcmp(text, eq + 1) != 0)
            return 0;
    }
    return 1;
}

/* The expected refusal that v's refusal of pt for why matches, or -1. */
static inline int check_matching_skip(const check_cases *c, const dm_variant *v, const dm_point *pt,
                                 const char *why)
{
    for (int i = 0; c->expected && c->expected[i].variant; i++) {
        const check_skip *s = &c->expected[i];
        if (strcmp(s->variant, v->name) == 0 && check_point_has(pt, s->params) &&
            strstr(why, s->reason))
            return i;
    }
    return -1;
}

/* One case: v of w at pt on ex's device (NULL: none). A refused case is counted when the
 * test expects it and fails the test when not; else v runs twice (the second run over the
 * first's output) and each output must equal ds's reference ref. Needs cmocka. */
static inline void check_variant(check_cases *c, const dm_exec *ex, const dm_workload *w,
                                 const dm_variant *v, const dm_point *pt, const dm_dataset *ds,
                                 const void *ref)
{
    dm_err err = {0};
    char why[512] = "", where[512];
    void *st;
    const void *out;
    c->cases++;
    dm_point_format(pt, where, sizeof where);
    if (v->supports && v->supports(pt, ex->device, why, sizeof why)) {
        int k = check_matching_skip(c, v, pt, why);
        if (k < 0)
            fail_msg("%s %s: refused (%s), which the test does not expect", v->name, where,
                     why);
        if (c->hits[k]++ == 0)
            snprintf(c->first_why[k], sizeof c->first_why[k], "%s", why);
        c->skipped++;
        return;
    }
    if (v->setup(ex, ds, pt, &st, &err))
        fail_msg("%s %s: setup: %s", v->name, where, err.msg);
    for (int rep = 0; rep < 2; rep++) {
        if (v->run(st, &err) || v->output(st, &out, &err))
            fail_msg("%s %s: %s", v->name, where, err.msg);
        if (w->compare(ref, out, pt, why, sizeof why))
            fail_msg("%s %s: %s", v->name, where, why);
    }
    v->teardown(st);
    c->run++;
}

/* Ends the test's cases: prints "what: N of M cases skipped: reasons" and fails when no
 * case ran or an expected refusal never happened. */
static inline void check_end(const check_cases *c, const char *what)
{
    char reasons[1024] = "";
    int missing = -1;
    for (int i = 0; c->expected && c->expected[i].variant; i++) {
        const check_skip *s = &c->expected[i];
        if (!c->hits[i] && missing < 0)
            missing = i;
        if (c->hits[i])
            dm_append(reasons, sizeof reasons, "%s%s %s: %s (%d)", reasons[0] ? "; " : "",
                      s->variant, s->params, c->first_why[i], c->hits[i]);
    }
    fprintf(stderr, "%s: %d of %d cases skipped%s%s; %d ran and matched the reference\n", what,
            c->skipped, c->cases, reasons[0] ? ": " : "", reasons, c->run);
    if (c->run == 0)
        fail_msg("%s: none of its %d cases ran", what, c->cases);
    if (missing >= 0)
        fail_msg("%s: expected %s to refuse a point with '%s' (%s), and it never did", what,
                 c->expected[missing].variant, c->expected[missing].params,
                 c->expected[missing].reason);
}

#endif
