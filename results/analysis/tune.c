/* tune.c - best block size per card, variant and problem bucket: candidates from the
 * database, ties by the Mann-Whitney U test or a median tolerance, the smallest tie
 * chosen, and the table, JSON and C header that carry the choice. */
#define _GNU_SOURCE /* strverscmp: buckets in natural order (n=2^20 before n=2^24) */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "json.h"
#include "mwu.h"
#include "samples.h"
#include "tune.h"
#include "tuned_lookup.h"

/* One ok point that has the axis, as read from the database. */
typedef struct row {
    char workload[32], card[128], cc[16], variant[64], bucket[512];
    dm_tune_cand c;
} row;

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c;
    if ((c = strcmp(x->workload, y->workload)) || (c = strcmp(x->card, y->card)) ||
        (c = strcmp(x->cc, y->cc)) ||
        (c = strcmp(x->variant, y->variant)) || (c = strverscmp(x->bucket, y->bucket)))
        return c;
    if (x->c.block != y->c.block)
        return x->c.block < y->c.block ? -1 : 1;
    return (x->c.point_id < y->c.point_id) - (x->c.point_id > y->c.point_id); /* newest first */
}

static int same_group(const row *a, const row *b)
{
    return !strcmp(a->workload, b->workload) && !strcmp(a->card, b->card) &&
           !strcmp(a->cc, b->cc) && !strcmp(a->variant, b->variant) &&
           !strcmp(a->bucket, b->bucket);
}

static int read_rows(dm_store *st, const dm_tune_opts *o, row **rows, size_t *nrows, dm_err *err)
{
    static const char sql[] =
        "SELECT r.gpu_name, coalesce(r.gpu_cc, ''), p.variant, p.params, p.id, p.run_id,"
        " pp.value_num, s.median, s.n, r.workload,"
        " (SELECT d.name FROM datasets d WHERE d.id = p.dataset_id AND d.path <> '')"
        " FROM points p JOIN runs r ON r.id = p.run_id"
        " JOIN point_params pp ON pp.point_id = p.id AND pp.name = ?2"
        " JOIN point_stats s ON s.point_id = p.id"
        " WHERE instr(',' || ?1 || ',', ',' || r.workload || ',') > 0"
        " AND p.status = 'ok' AND r.gpu_name IS NOT NULL"
        " AND (?3 IS NULL OR p.variant = ?3) AND s.median > 0"
        /* a point whose axis value the store chose checks a choice; it measured no
           alternative (a sweep that checks the choices) */
        " AND NOT (coalesce(p.chosen, '') LIKE ?2 || ': %'"
        "          OR instr(coalesce(p.chosen, ''), '; ' || ?2 || ': ') > 0)";
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;
    *rows = NULL;
    *nrows = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_text(q, 1, o->workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, o->axis, -1, SQLITE_STATIC);
    if (o->variant)
        sqlite3_bind_text(q, 3, o->variant, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*nrows == cap) {
            cap = cap ? 2 * cap : 64;
            row *grown = realloc(*rows, cap * sizeof *grown);
            if (!grown) {
                sqlite3_finalize(q);
                return dm_err_set(err, DM_ERUNTIME, "out of memory reading points");
            }
            *rows = grown;
        }
        row *w = &(*rows)[(*nrows)++];
        memset(w, 0, sizeof *w);
        snprintf(w->workload, sizeof w->workload, "%s", (const char *)sqlite3_column_text(q, 9));
        snprintf(w->card, sizeof w->card, "%s", (const char *)sqlite3_column_text(q, 0));
        snprintf(w->cc, sizeof w->cc, "%s", (const char *)sqlite3_column_text(q, 1));
        snprintf(w->variant, sizeof w->variant, "%s", (const char *)sqlite3_column_text(q, 2));
        tuned_bucket_params((const char *)sqlite3_column_text(q, 3), o->axis,
                            (const char *)sqlite3_column_text(q, 10), w->bucket,
                            sizeof w->bucket);
        w->c.point_id = sqlite3_column_int64(q, 4);
        w->c.run_id = sqlite3_column_int64(q, 5);
        w->c.block = (int64_t)sqlite3_column_double(q, 6);
        w->c.median = sqlite3_column_double(q, 7);
        w->c.n = (size_t)sqlite3_column_int64(q, 8);
        w->c.p = 1;
    }
    if (rc != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(q);
    return 0;
fail:
    dm_err_set(err, DM_ERUNTIME, "%s: reading the points to tune: %s", store_path(st),
               sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return DM_ERUNTIME;
}

/* Marks the ties of choice c against its best and picks the smallest. */
static int decide(dm_store *st, const dm_tune_opts *o, dm_tune_choice *c, dm_err *err)
{
    double *best = NULL, *x = NULL;
    size_t nbest, nx;
    int rc;
    c->best = 0;
    for (size_t i = 1; i < c->ncand; i++)
        if (c->cand[i].median < c->cand[c->best].median)
            c->best = i;
    if ((rc = samples_load(st, c->cand[c->best].point_id, &best, &nbest, err)))
        return rc;
    c->chosen = c->best;
    for (size_t i = 0; i < c->ncand; i++) {
        dm_tune_cand *k = &c->cand[i];
        if (i != c->best) {
            dm_mwu t;
            if ((rc = samples_load(st, k->point_id, &x, &nx, err)))
                break;
            k->p = nx && nbest && mwu_test(x, nx, best, nbest, &t) == 0 ? t.p : NAN;
            free(x);
            x = NULL;
        }
        k->tie = i == c->best || k->p >= o->alpha ||
                 fabs(k->median / c->cand[c->best].median - 1) <= o->tolerance;
        /* candidates are sorted by block size: the first tie is the smallest */
        if (k->tie && i < c->chosen)
            c->chosen = i;
    }
    free(best);
    return rc;
}

int tune_compute(dm_store *st, const dm_tune_opts *o, dm_tune_result *r, dm_err *err)
{
    row *rows;
    size_t nrows;
    int rc;
    memset(r, 0, sizeof *r);
    if ((rc = read_rows(st, o, &rows, &nrows, err)))
        return rc;
    if (nrows) /* no rows may come as NULL, which qsort must not be given */
        qsort(rows, nrows, sizeof *rows, row_cmp);
    for (size_t i = 0; i < nrows && rc == 0;) {
        size_t j = i;
        while (j < nrows && same_group(&rows[i], &rows[j]))
            j++;
        dm_tune_choice *grown = realloc(r->c, (r->n + 1) * sizeof *grown);
        dm_tune_cand *cand = calloc(j - i, sizeof *cand);
        if (!grown || !cand) {
            free(cand);
            if (grown)
                r->c = grown;
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory tuning");
            break;
        }
        r->c = grown;
        dm_tune_choice *c = &r->c[r->n++];
        memset(c, 0, sizeof *c);
        memcpy(c->workload, rows[i].workload, sizeof c->workload);
        memcpy(c->card, rows[i].card, sizeof c->card);
        memcpy(c->cc, rows[i].cc, sizeof c->cc);
        memcpy(c->variant, rows[i].variant, sizeof c->variant);
        memcpy(c->bucket, rows[i].bucket, sizeof c->bucket);
        c->cand = cand;
        for (size_t k = i; k < j; k++) /* the newest point of each block value */
            if (k == i || rows[k].c.block != rows[k - 1].c.block)
                c->cand[c->ncand++] = rows[k].c;
        rc = decide(st, o, c, err);
        i = j;
    }
    free(rows);
    if (rc)
        tune_free(r);
    return rc;
}

void tune_free(dm_tune_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->c[i].cand);
    free(r->c);
    memset(r, 0, sizeof *r);
}

void tune_print(const dm_tune_result *r, const dm_tune_opts *o, int explain, FILE *out)
{
    if (r->n == 0) {
        fprintf(out, "no ok GPU points of workload %s with parameter '%s'\n", o->workload, o->axis);
        return;
    }
    fprintf(out, "%-8s %-24s %-4s %-14s %-48s %6s %10s  %s\n", "workload", "card", "cc",
            "variant", "bucket", o->axis, "median", "ties");
    for (size_t i = 0; i < r->n; i++) {
        const dm_tune_choice *c = &r->c[i];
        char med[32], ties[256] = "";
        samples_fmt_seconds(c->cand[c->chosen].median, med, sizeof med);
        for (size_t k = 0; k < c->ncand; k++)
            if (c->cand[k].tie && k != c->chosen)
                snprintf(ties + strlen(ties), sizeof ties - strlen(ties), "%s%lld",
                         ties[0] ? "," : "", (long long)c->cand[k].block);
        fprintf(out, "%-8s %-24.24s %-4s %-14s %-48s %6lld %10s  %s\n", c->workload, c->card,
                c->cc, c->variant, c->bucket, (long long)c->cand[c->chosen].block, med, ties[0] ? ties : "-");
        if (!explain)
            continue;
        for (size_t k = 0; k < c->ncand; k++) {
            const dm_tune_cand *k_ = &c->cand[k];
            samples_fmt_seconds(k_->median, med, sizeof med);
            fprintf(out, "    %s=%-6lld median %10s  n %6zu  %+7.2f%% vs best  p %-9.3g %s%s\n",
                    o->axis, (long long)k_->block, med, k_->n,
                    (k_->median / c->cand[c->best].median - 1) * 100, k_->p,
                    k == c->best ? "best" : k_->tie ? "tie" : "slower",
                    k == c->chosen ? ", chosen (smallest of the ties)" : "");
        }
    }
}

void tune_write_json(const dm_tune_result *r, const dm_tune_opts *o, FILE *out)
{
    const char *const keys[] = { "workload", "axis" };
    json_write_members(out, "{", ", ", keys, (const char *const[]){ o->workload, o->axis }, 2);
    fputs(", \"alpha\": ", out);
    json_write_number(out, o->alpha);
    fputs(", \"tolerance\": ", out);
    json_write_number(out, o->tolerance);
    fputs(", \"choices\": [", out);
    for (size_t i = 0; i < r->n; i++) {
        const dm_tune_choice *c = &r->c[i];
        static const char *const ckeys[] = { "workload", "card", "cc", "variant", "bucket" };
        json_write_members(out, i ? ",\n  {" : "\n  {", ", ", ckeys,
                           (const char *const[]){ c->workload, c->card, c->cc, c->variant,
                                                  c->bucket }, 5);
        fprintf(out, ", \"block\": %lld, \"median\": ", (long long)c->cand[c->chosen].block);
        json_write_number(out, c->cand[c->chosen].median);
        fputs(", \"candidates\": [", out);
        for (size_t k = 0; k < c->ncand; k++) {
            fprintf(out, "%s{\"block\": %lld, \"median\": ", k ? ", " : "",
                    (long long)c->cand[k].block);
            json_write_number(out, c->cand[k].median);
            fprintf(out, ", \"n\": %zu, \"p\": ", c->cand[k].n);
            json_write_number(out, c->cand[k].p);
            fprintf(out, ", \"tie\": %s}", c->cand[k].tie ? "true" : "false");
        }
        fputs("]}", out);
    }
    fputs("\n]}\n", out);
}

int tune_is_choice(const dm_tune_choice *c)
{
    return c->ncand >= 2;
}

int tune_write_header(const dm_tune_result *r, const dm_tune_opts *o, const char *workload,
                      const char *source, FILE *out)
{
    char when[32];
    time_t now = time(NULL);
    int rows = 0;
    strftime(when, sizeof when, "%Y-%m-%d", gmtime(&now));
    fprintf(out, "/* Generated by `dmbench tune %s%s%s --axis %s --header` on %s (alpha %g,\n"
                 " * tolerance %g) from %s, runs",
            workload, o->variant ? " --variant " : "", o->variant ? o->variant : "", o->axis,
            when, o->alpha, o->tolerance, source);
    for (int64_t id = 0;;) { /* each run id of the workload's choices once, ascending */
        int64_t next = INT64_MAX;
        for (size_t i = 0; i < r->n; i++)
            for (size_t k = 0; k < r->c[i].ncand && !strcmp(r->c[i].workload, workload) &&
                               tune_is_choice(&r->c[i]); k++)
                if (r->c[i].cand[k].run_id > id && r->c[i].cand[k].run_id < next)
                    next = r->c[i].cand[k].run_id;
        if (next == INT64_MAX)
            break;
        fprintf(out, " %lld", (long long)next);
        id = next;
    }
    fprintf(out, ".\n * The sweep expansion uses these values when a sweep of %s leaves the\n"
                 " * parameter open. Regenerate rather than edit. */\n"
                 "#include \"tuned_lookup.h\"\n\n"
                 "static const dm_tuned dm_tuned_table[] = {\n",
            workload);
    for (size_t i = 0; i < r->n; i++) {
        const dm_tune_choice *c = &r->c[i];
        if (strcmp(c->workload, workload) != 0 || !tune_is_choice(c))
            continue;
        json_write_members(out, "    { ", ", ", NULL,
                           (const char *const[]){ c->card, c->cc, c->variant, o->axis,
                                                  c->bucket }, 5);
        fprintf(out, ", %lld },\n", (long long)c->cand[c->chosen].block);
        rows++;
    }
    fputs("    { 0 },\n};\n", out);
    return rows;
}
