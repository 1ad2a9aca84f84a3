/* report.c - the report's frame: the table of sections, the runs it covers, the title,
 * contents list and HTML head with its inline style; the sections write the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "report_int.h"

/* Findings first (a reader's question is what each run found), then the papers' tables
 * reproduced, then the analyses over the whole database, and last each run's fingerprint
 * and every point, folded. */
const dm_report_section report_sections[] = {
    { .id = "findings", .title = "Findings", .write = report_findings },
    { .id = "reproduced", .title = "Reproduced tables", .write = report_reproduce },
    { .id = "tuning", .title = "Tuning", .write = report_tuning },
    { .id = "fits", .title = "Crossover fits", .write = report_fits },
    { .id = "characterization", .title = "Characterization", .write = report_characterize },
    { .id = "runs", .title = "Runs: fingerprints and every point", .write = report_runs },
    { 0 },
};

/* Readable at 1280 px without sideways scrolling: the contents on one line, a run's
 * headline and plots side by side (stacked below about 1000 px), long words broken, and
 * a table wider than the page scrolling inside its own box. */
static const char report_css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;"
    "max-width:1200px;margin:1em auto;padding:0 1em;color:#222;line-height:1.4;"
    "overflow-wrap:break-word}"
    "h1,h2{border-bottom:1px solid #ddd;padding-bottom:.2em}"
    "h1{margin:.2em 0 .4em}h2{margin-top:1.6em}h3{margin:1.6em 0 .6em}"
    ".wide{max-width:100%;overflow-x:auto}"
    "table{border-collapse:collapse;margin:.8em 0;font-size:.9em}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
    "th{background:#f3f3f3}tbody tr:nth-child(even){background:#fafafa}"
    "td{font-variant-numeric:tabular-nums}"
    "figure{margin:0 0 1em}figure svg{width:100%;height:auto}"
    "figcaption{font-size:.9em;color:#555}"
    ".finding{display:flex;flex-wrap:wrap;gap:0 2em;align-items:flex-start}"
    ".headline{flex:1 1 400px;min-width:0}.headline p{margin:.4em 0}"
    ".headline table{font-size:.85em}.headline th,.headline td{padding:.2em .4em}"
    ".figs{flex:1.6 1 560px;min-width:0}"
    "details{margin:.8em 0}summary{cursor:pointer;font-weight:600}"
    "nav ul{display:flex;flex-wrap:wrap;gap:.2em 1.4em;list-style:none;padding:0;margin:.3em 0}"
    "nav p{margin:.6em 0 0}";

/* The ids of every run, oldest first, in *ids (malloc'd). Returns 0 or DM_ERUNTIME. */
static int all_runs(dm_store *st, int64_t **ids, size_t *n, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    size_t cap = 0;
    int rc;
    *ids = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(store_db(st), "SELECT id FROM runs ORDER BY id", -1, &s, NULL) !=
        SQLITE_OK)
        goto fail;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            int64_t *grown = realloc(*ids, cap * sizeof *grown);
            if (!grown) {
                sqlite3_finalize(s);
                free(*ids);
                *ids = NULL;
                return dm_err_set(err, DM_ERUNTIME, "out of memory listing the runs");
            }
            *ids = grown;
        }
        (*ids)[(*n)++] = sqlite3_column_int64(s, 0);
    }
    if (rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(s);
    return 0;
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "%s: listing the runs: %s", store_path(st),
                    sqlite3_errmsg(store_db(st)));
    sqlite3_finalize(s);
    free(*ids);
    *ids = NULL;
    return rc;
}

/* Checks that every run of o->runs is in the database (all, the whole list). Returns 0
 * or DM_EINPUT naming the first missing one. */
static int check_runs(const dm_report_opts *o, const int64_t *all, size_t nall, dm_err *err)
{
    for (size_t i = 0; i < o->nruns; i++) {
        size_t j = 0;
        while (j < nall && all[j] != o->runs[i])
            j++;
        if (j == nall)
            return dm_err_set(err, DM_EINPUT, "run %lld is not in the database",
                              (long long)o->runs[i]);
    }
    return 0;
}

/* The title, what the report covers, and the contents list. */
static void write_front(const dm_report_ctx *c)
{
    dm_report_doc *d = c->doc;
    char when[64];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>dmbench report: ", d->html);
    report_html_text(d->html, store_path(c->st));
    fprintf(d->html, "</title>\n<style>%s</style>\n</head>\n<body>\n", report_css);
    fputs("# dmbench report\n", d->md);
    fputs("<h1>dmbench report</h1>\n", d->html);
    report_para(d, "Database %s, %zu run%s, written %s by dmbench report.", store_path(c->st),
                c->nruns, c->nruns == 1 ? "" : "s", when);
    fputs("**Contents**\n\n", d->md);
    fputs("<nav>\n<p><strong>Contents</strong></p>\n<ul>\n", d->html);
    for (const dm_report_section *s = report_sections; s->id; s++) {
        fprintf(d->md, "- [%s](#%s)\n", s->title, s->id);
        fprintf(d->html, "<li><a href=\"#%s\">%s</a></li>\n", s->id, s->title);
    }
    fputs("\n", d->md);
    fputs("</ul>\n</nav>\n", d->html);
}

int report_write(dm_store *st, const dm_report_opts *o, FILE *md, FILE *html, dm_err *err)
{
    dm_report_doc doc = { .md = md, .html = html };
    int64_t *all = NULL;
    size_t nall = 0;
    int rc;
    if ((rc = all_runs(st, &all, &nall, err)) || (rc = check_runs(o, all, nall, err)))
        goto done;
    if (nall == 0) {
        rc = dm_err_set(err, DM_EINPUT, "%s: no runs to report", store_path(st));
        goto done;
    }
    dm_report_ctx c = { .st = st, .o = o, .runs = o->runs ? o->runs : all,
                     .nruns = o->runs ? o->nruns : nall, .doc = &doc };
    write_front(&c);
    for (const dm_report_section *s = report_sections; s->id && rc == 0; s++) {
        report_heading(&doc, 2, s->id, s->title);
        rc = s->write(&c, err);
    }
    fputs("</body>\n</html>\n", html);
    if (rc == 0 && (ferror(md) || ferror(html)))
        rc = dm_err_set(err, DM_ERUNTIME, "writing the report failed");
done:
    free(all);
    return rc;
}
