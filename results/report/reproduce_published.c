/* reproduce_published.c - a target's published numbers listed one per line (row, quantity,
 * value, unit, card, source), for targets this build cannot measure yet and above the
 * measured grid of a table the reproduce figures as a grid; or, where its study says what
 * measured here stands for each, beside their measured counterparts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reproduce.h"

/* 1 when r is one of t's published rows: its paper's table, and of it t's rows. */
static int pub_row_of(const dm_pub_row *r, const dm_target *t)
{
    return !strcmp(r->paper, t->paper) && !strcmp(r->table, t->table) &&
           (!t->rows || !strncmp(r->row_key, t->rows, strlen(t->rows)));
}

void repro_write_published(const dm_pub_table *pub, const dm_target *t, int empty,
                           dm_report_doc *d)
{
    static const char *const head[] = { "row", "quantity", "published", "unit",
                                        "their card", "source", "measured here" };
    size_t n = 0;
    report_table_begin(d, empty ? 7 : 6, head);
    for (size_t i = 0; i < pub->n; i++) {
        const dm_pub_row *r = &pub->rows[i];
        if (!pub_row_of(r, t))
            continue;
        const char *cells[] = { r->row_key, r->column, r->value, r->unit,
                                r->card[0] ? r->card : NULL, r->source, NULL }; /* the last only when empty */
        report_table_row(d, cells);
        n++;
    }
    report_table_end(d);
    report_para(d, "%zu published value%s (results/published, %s %s%s%s).", n,
                n == 1 ? "" : "s", t->paper, t->table, t->rows ? ", rows " : "",
                t->rows ? t->rows : "");
}

double repro_pub_number(const char *text)
{
    char buf[64];
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < sizeof buf; p++)
        if (*p != ',')
            buf[k++] = *p;
    buf[k] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (end == buf)
        return NAN;
    if (strncmp(end, "\u00d710^", strlen("\u00d710^")) == 0)
        v *= pow(10.0, strtod(end + strlen("\u00d710^"), NULL));
    else if (*end)
        return NAN;
    return v;
}

int repro_write_beside(const dm_pub_table *pub, const dm_target *t, const dm_study_data *sd,
                       dm_report_doc *d, dm_err *err)
{
    static const char *const head[] = { "row", "quantity", "published", "their card",
                                        "measured here", "unit", "here / published",
                                        "measured as" };
    size_t n = 0, set = 0;
    report_table_begin(d, 8, head);
    for (size_t i = 0; i < pub->n; i++) {
        const dm_pub_row *r = &pub->rows[i];
        if (!pub_row_of(r, t))
            continue;
        double v = NAN, was = repro_pub_number(r->value);
        char how[256] = "", here[32] = "", ratio[32] = "";
        if (t->measured(sd, r->row_key, r->column, &v, how, sizeof how, err))
            return err->code;
        if (!isnan(v)) {
            snprintf(here, sizeof here, "%.4g", v);
            set++;
            if (!isnan(was) && was != 0)
                snprintf(ratio, sizeof ratio, "%.3g", v / was);
        }
        const char *cells[] = { r->row_key, r->column, r->value, r->card[0] ? r->card : NULL,
                                here[0] ? here : NULL, r->unit, ratio[0] ? ratio : NULL,
                                how[0] ? how : NULL };
        report_table_row(d, cells);
        n++;
    }
    report_table_end(d);
    report_para(d, "%zu published value%s (results/published, %s %s%s%s), %zu measured here; "
                   "a dash where nothing measured here stands for the value.",
                n, n == 1 ? "" : "s", t->paper, t->table, t->rows ? ", rows " : "",
                t->rows ? t->rows : "", set);
    return 0;
}
