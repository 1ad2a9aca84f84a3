/* report_doc.c - the report's document writer: each element written as markdown and as
 * HTML at once, text escaped for each (HTML: & < > " '; markdown tables: | and line
 * breaks, and < > & so that no text is taken for HTML); HTML's boxes (a layout's div,
 * a folded details block) too. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

void report_html_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* Writes s for markdown: HTML's specials as entities, | escaped, line breaks as
 * spaces (a table row is one line). */
static void md_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '|': fputs("\\|", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': case '\r': fputc(' ', out); break;
        default: fputc(*s, out);
        }
    }
}

void report_heading(dm_report_doc *d, int level, const char *id, const char *text)
{
    fprintf(d->md, "\n%.*s ", level, "####");
    md_text(d->md, text);
    fputs("\n\n", d->md);
    if (!d->html)
        return;
    fprintf(d->html, "<h%d", level);
    if (id) {
        fputs(" id=\"", d->html);
        report_html_text(d->html, id);
        fputc('"', d->html);
    }
    fputc('>', d->html);
    report_html_text(d->html, text);
    fprintf(d->html, "</h%d>\n", level);
}

void report_para(dm_report_doc *d, const char *fmt, ...)
{
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    md_text(d->md, text);
    fputs("\n\n", d->md);
    if (!d->html)
        return;
    fputs("<p>", d->html);
    report_html_text(d->html, text);
    fputs("</p>\n", d->html);
}

/* One markdown row of n cells. */
static void md_row(FILE *out, int n, const char *const *cells)
{
    fputc('|', out);
    for (int i = 0; i < n; i++) {
        fputc(' ', out);
        md_text(out, cells[i] ? cells[i] : "-");
        fputs(" |", out);
    }
    fputc('\n', out);
}

void report_table_begin(dm_report_doc *d, int ncols, const char *const *headers)
{
    d->ncols = ncols < REPORT_MAX_COLS ? ncols : REPORT_MAX_COLS;
    md_row(d->md, d->ncols, headers);
    fputc('|', d->md);
    for (int i = 0; i < d->ncols; i++)
        fputs(" --- |", d->md);
    fputc('\n', d->md);
    if (!d->html)
        return;
    fputs("<div class=\"wide\"><table>\n<thead><tr>", d->html);
    for (int i = 0; i < d->ncols; i++) {
        fputs("<th>", d->html);
        report_html_text(d->html, headers[i]);
        fputs("</th>", d->html);
    }
    fputs("</tr></thead>\n<tbody>\n", d->html);
}

void report_table_row(dm_report_doc *d, const char *const *cells)
{
    md_row(d->md, d->ncols, cells);
    if (!d->html)
        return;
    fputs("<tr>", d->html);
    for (int i = 0; i < d->ncols; i++) {
        fputs("<td>", d->html);
        report_html_text(d->html, cells[i] ? cells[i] : "-");
        fputs("</td>", d->html);
    }
    fputs("</tr>\n", d->html);
}

void report_table_end(dm_report_doc *d)
{
    fputc('\n', d->md);
    d->ncols = 0;
    if (d->html)
        fputs("</tbody>\n</table></div>\n", d->html);
}

void report_figure(dm_report_doc *d, const char *svg, const char *md_path, const char *caption)
{
    fputs("![", d->md);
    md_text(d->md, caption);
    fprintf(d->md, "](%s)\n\n", md_path);
    if (!d->html)
        return;
    fputs("<figure>\n", d->html);
    fputs(svg, d->html);
    fputs("\n<figcaption>", d->html);
    report_html_text(d->html, caption);
    fputs("</figcaption>\n</figure>\n", d->html);
}

void report_div_begin(dm_report_doc *d, const char *cls)
{
    if (d->html)
        fprintf(d->html, "<div class=\"%s\">\n", cls);
}

void report_div_end(dm_report_doc *d)
{
    if (d->html)
        fputs("</div>\n", d->html);
}

void report_details_begin(dm_report_doc *d, const char *summary)
{
    fputs("<details><summary>", d->md); /* GitHub's markdown folds it as HTML does */
    report_html_text(d->md, summary);
    fputs("</summary>\n\n", d->md);
    if (!d->html)
        return;
    fputs("<details>\n<summary>", d->html);
    report_html_text(d->html, summary);
    fputs("</summary>\n", d->html);
}

void report_details_end(dm_report_doc *d)
{
    fputs("</details>\n\n", d->md);
    if (d->html)
        fputs("</details>\n", d->html);
}

void report_para_link(dm_report_doc *d, const char *text, const char *id, const char *label)
{
    md_text(d->md, text);
    fputs(" [", d->md);
    md_text(d->md, label);
    fprintf(d->md, "](#%s)\n\n", id);
    if (!d->html)
        return;
    fputs("<p>", d->html);
    report_html_text(d->html, text);
    fputs(" <a href=\"#", d->html);
    report_html_text(d->html, id);
    fputs("\">", d->html);
    report_html_text(d->html, label);
    fputs("</a></p>\n", d->html);
}
