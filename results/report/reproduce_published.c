/* reproduce_published.c - a target's published numbers listed one per line (row, quantity,
 * value, unit, card, source), for targets this build cannot measure yet and above the
 * measured grid of a table the reproduce figures as a grid. */
#include <string.h>

#include "reproduce.h"

void repro_write_published(const dm_pub_table *pub, const dm_target *t, int empty,
                           dm_report_doc *d)
{
    static const char *const head[] = { "row", "quantity", "published", "unit",
                                        "their card", "source", "measured here" };
    size_t n = 0;
    report_table_begin(d, empty ? 7 : 6, head);
    for (size_t i = 0; i < pub->n; i++) {
        const dm_pub_row *r = &pub->rows[i];
        if (strcmp(r->paper, t->paper) || strcmp(r->table, t->table) ||
            (t->rows && strncmp(r->row_key, t->rows, strlen(t->rows))))
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
