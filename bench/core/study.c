/* study.c - what the study types share: verdicts in words, the match of a point's
 * "name=value,..." parameters against a rule's constraints, the newest median among
 * several sweeps and the evidence of a missing one, and claim lookup. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"

const char *study_verdict_name(dm_verdict v)
{
    static const char *const names[DM_NVERDICTS] = {
        [DM_HOLDS] = "holds",
        [DM_PARTLY] = "partly holds",
        [DM_BREAKS] = "does not hold",
        [DM_UNMEASURED] = "not measurable here",
    };
    return (unsigned)v < DM_NVERDICTS ? names[v] : "?";
}

void study_counts_text(const int counts[DM_NVERDICTS], char *buf, size_t n)
{
    snprintf(buf, n, "%d hold, %d partly hold, %d do not hold, %d not measurable here",
             counts[DM_HOLDS], counts[DM_PARTLY], counts[DM_BREAKS], counts[DM_UNMEASURED]);
}

/* The value text of name in params ("name=value,..."): a pointer to it and its length in
 * *len, or NULL when params has no such parameter. */
static const char *value_of(const char *params, const char *name, size_t nlen, size_t *len)
{
    for (const char *p = params; *p;) {
        size_t plen = strcspn(p, ",");
        if (plen > nlen && strncmp(p, name, nlen) == 0 && p[nlen] == '=') {
            *len = plen - nlen - 1;
            return p + nlen + 1;
        }
        p += plen + (p[plen] == ',');
    }
    return NULL;
}

/* Text of length n as a number into *out; 0, or -1 when it is not all a number. */
static int number(const char *text, size_t n, double *out)
{
    char buf[64], *end;
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, text, n);
    buf[n] = '\0';
    *out = strtod(buf, &end);
    return *end ? -1 : 0;
}

int study_params_match(const char *params, const char *where)
{
    for (const char *w = where; *w;) {
        size_t wlen = strcspn(w, ","), nlen = strcspn(w, "="), vlen;
        if (nlen >= wlen)
            return 0; /* a constraint without '=' matches nothing */
        const char *want = w + nlen + 1, *have = value_of(params, w, nlen, &vlen);
        size_t want_len = wlen - nlen - 1;
        double a, b;
        if (!have)
            return 0;
        if (number(have, vlen, &a) == 0 && number(want, want_len, &b) == 0 ? a != b
            : vlen != want_len || strncmp(have, want, vlen) != 0)
            return 0;
        w += wlen + (w[wlen] == ',');
    }
    return 1;
}

double study_param(const char *params, const char *name)
{
    size_t len;
    double v;
    const char *text = value_of(params, name, strlen(name), &len);
    return text && number(text, len, &v) == 0 ? v : NAN;
}

int study_newest_median(const dm_study_data *d, const char *const *sweeps,
                        const char *variant, const char *where, dm_median *m, dm_err *err)
{
    dm_median each;
    m->found = 0;
    for (const char *const *sw = sweeps; *sw; sw++) {
        if (d->median(d->ctx, d->card, *sw, variant, where, &each, err))
            return err->code;
        if (each.found && (!m->found || strcmp(each.started, m->started) > 0))
            *m = each;
    }
    return 0;
}

void study_unmeasured(const dm_study_data *d, const char *const *sweeps, const char *variant,
                      const char *what, const char *where, dm_claim_result *r)
{
    r->verdict = DM_UNMEASURED;
    dm_append(r->evidence, sizeof r->evidence, "no ok point of %s at %s (%s) on a card named "
              "like \"%s\" in complete runs of", variant, what, where, d->card);
    for (const char *const *sw = sweeps; *sw; sw++)
        dm_append(r->evidence, sizeof r->evidence, "%s %s", sw == sweeps ? "" : " or", *sw);
    dm_append(r->evidence, sizeof r->evidence, ".");
}

const dm_claim *study_claim(const dm_study *s, const char *id)
{
    for (const dm_claim *cl = s && s->claims ? s->claims : NULL; cl && cl->id; cl++)
        if (strcmp(cl->id, id) == 0)
            return cl;
    return NULL;
}
