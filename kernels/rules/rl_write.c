/* rl_write.c - the answer of the rules workload as CSV, one row per rule: its text, the
 * contingency table and the five measures, plain enough to check by hand against any
 * association-rule tool. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rl_eval.h"

/* Writes v as its shortest exact text; "inf" for conviction's +infinity, "nan" for the
 * 0/0 measures (rl_measures.h). */
static void rl_put_measure(FILE *f, double v)
{
    char num[40];
    if (isnan(v))
        strcpy(num, "nan");
    else if (isinf(v))
        strcpy(num, v > 0 ? "inf" : "-inf");
    else
        dm_format_double(v, num, sizeof num);
    fprintf(f, ",%s", num);
}

int rl_result_write(const rl_result *res, const rl_ruleset *rs, const rl_table *t, FILE *f,
                    dm_err *err)
{
    fprintf(f, "rule,n_ac,n_anc,n_nac,n_nanc,support,confidence,lift,leverage,conviction\n");
    for (int r = 0; r < res->nrules; r++) {
        char *text = rl_rule_text(rs, r, t);
        if (!text)
            return dm_err_set(err, DM_ERUNTIME, "rules: out of memory");
        /* The rule's text holds commas and quotes: one CSV field, quotes doubled. */
        fputc('"', f);
        for (const char *p = text; *p; p++) {
            if (*p == '"')
                fputc('"', f);
            fputc(*p, f);
        }
        fputc('"', f);
        free(text);
        const rl_rule_result *q = &res->rule[r];
        fprintf(f, ",%lld,%lld,%lld,%lld", (long long)q->n_ac, (long long)q->n_anc,
                (long long)q->n_nac, (long long)q->n_nanc);
        rl_put_measure(f, q->support);
        rl_put_measure(f, q->confidence);
        rl_put_measure(f, q->lift);
        rl_put_measure(f, q->leverage);
        rl_put_measure(f, q->conviction);
        fputc('\n', f);
    }
    if (fflush(f) != 0 || ferror(f))
        return dm_err_set(err, DM_ERUNTIME, "rules: writing the result failed");
    return 0;
}
