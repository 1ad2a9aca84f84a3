/* card_store.c - the per-card store in the results database: tuned choices and crossover
 * fits read, checked against the registry and handed to card_choices; tuned choices
 * written by `dmbench tune --store`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "card_choices.h"
#include "card_store.h"
#include "crossover.h"
#include "registry.h"

/* The text of column c, "" for NULL. */
static const char *col(sqlite3_stmt *q, int c)
{
    const unsigned char *t = sqlite3_column_text(q, c);
    return t ? (const char *)t : "";
}

/* 1 when cc reads "major.minor". */
static int cc_ok(const char *cc)
{
    int major, minor, used = 0;
    return sscanf(cc, "%d.%d%n", &major, &minor, &used) == 2 && cc[used] == '\0' && major > 0;
}

/* Refuses the entry id of table as damaged or foreign: what is wrong in why. */
static int refuse(dm_store *st, const char *table, sqlite3_int64 id, const char *why,
                  dm_err *err)
{
    return dm_err_set(err, DM_EINPUT, "%s: %s row %lld is damaged or from another dmbench: %s; "
                      "look with: sqlite3 '%s' 'SELECT * FROM %s WHERE id = %lld'",
                      store_path(st), table, (long long)id, why, store_path(st), table,
                      (long long)id);
}

/* Checks bucket's names against w's and v's parameters. 0, or -1 with why. */
static int bucket_ok(const dm_workload *w, const dm_variant *v, const char *bucket, char *why,
                     size_t n)
{
    char name[128];
    for (const char *p = bucket; *p;) {
        size_t len = strcspn(p, ","), eq = strcspn(p, "=");
        if (eq >= len || eq >= sizeof name) {
            snprintf(why, n, "bucket '%s' is not name=value,...", bucket);
            return -1;
        }
        snprintf(name, sizeof name, "%.*s", (int)eq, p);
        if (strcmp(name, "data") != 0 && !registry_param(w, v, name)) {
            snprintf(why, n, "bucket names '%s', no parameter of %s %s", name, w->name, v->name);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Reads and checks tuned_choices into card_choices. */
static int load_tuned(dm_store *st, int *count, dm_err *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    char why[512];
    int rc = 0, step;
    if (sqlite3_prepare_v2(db, "SELECT id, workload, card, cc, variant, axis, bucket, value,"
                           " typeof(value) FROM tuned_choices ORDER BY id", -1, &q,
                           NULL) != SQLITE_OK)
        goto fail;
    while (rc == 0 && (step = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 id = sqlite3_column_int64(q, 0);
        const dm_workload *w = registry_workload(col(q, 1), NULL);
        const dm_variant *v = w ? registry_variant(w, col(q, 4), NULL) : NULL;
        const dm_param_spec *axis = v ? registry_param(w, v, col(q, 5)) : NULL;
        dm_tuned t = { col(q, 2), col(q, 3), col(q, 4), col(q, 5), col(q, 6),
                       sqlite3_column_int64(q, 7) };
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)t.value);
        if (!w)
            snprintf(why, sizeof why, "no workload '%s' here", col(q, 1));
        else if (!v)
            snprintf(why, sizeof why, "no variant '%s' of %s here", t.variant, w->name);
        else if (!axis || axis->type != DM_P_INT)
            snprintf(why, sizeof why, "'%s' is no integer parameter of %s %s", t.axis, w->name,
                     v->name);
        else if (!t.card[0] || !cc_ok(t.cc))
            snprintf(why, sizeof why, "card '%s' of compute capability '%s'", t.card, t.cc);
        else if (strcmp(col(q, 8), "integer") != 0)
            snprintf(why, sizeof why, "value '%s' is not an integer", col(q, 7));
        else if (dm_value_parse(axis, text, &(dm_value){ 0 }, NULL) != 0)
            snprintf(why, sizeof why, "%s %s is outside what the parameter allows (%s)", t.axis,
                     text, axis->allowed ? axis->allowed : "?");
        else if (bucket_ok(w, v, t.bucket, why, sizeof why) == 0) {
            rc = card_choices_add_tuned(w, &t, err);
            *count += rc == 0;
            continue;
        }
        rc = refuse(st, "tuned_choices", id, why, err);
    }
    if (rc == 0 && step != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(q);
    return rc;
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "%s: reading the tuned choices: %s", store_path(st),
                    sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return rc;
}

/* Frees n groups of load_groups. */
static void free_groups(dm_crossover_measured *m, int n)
{
    for (int i = 0; i < n; i++)
        free((char *)m[i].faster);
    free(m);
}

/* Reads fit g's groups (statement crossover_groups_sql) into *m (malloc'd, free_groups).
 * Returns 0 or -1. */
static int load_groups(sqlite3_stmt *g, sqlite3_int64 fit_id, dm_crossover_measured **m,
                       int *n)
{
    int rc;
    *m = NULL;
    *n = 0;
    sqlite3_reset(g);
    sqlite3_bind_int64(g, 1, fit_id);
    while ((rc = sqlite3_step(g)) == SQLITE_ROW) {
        dm_crossover_measured *grown = realloc(*m, (size_t)(*n + 1) * sizeof *grown);
        if (!grown)
            return -1;
        *m = grown;
        double v[4];
        for (int c = 0; c < 4; c++)
            v[c] = sqlite3_column_type(g, c) == SQLITE_NULL ? NAN : sqlite3_column_double(g, c);
        char *faster = strdup(col(g, 4));
        if (!faster)
            return -1;
        (*m)[(*n)++] = (dm_crossover_measured){ v[0], v[1], v[2], v[3], faster };
    }
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Reads and checks workload w's newest fits (q: crossover_newest_sql) into card_choices. */
static int load_fits_of(dm_store *st, const dm_workload *w, sqlite3_stmt *q, sqlite3_stmt *g,
                        int *count, dm_err *err)
{
    char why[256];
    int rc = 0, step;
    sqlite3_reset(q);
    sqlite3_bind_text(q, 1, w->name, -1, SQLITE_TRANSIENT);
    while (rc == 0 && (step = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 id = sqlite3_column_int64(q, 12);
        dm_crossover_fit f = { col(q, 0), col(q, 1), col(q, 2), col(q, 3), col(q, 4), col(q, 5),
                               col(q, 6), sqlite3_column_double(q, 7),
                               sqlite3_column_double(q, 8),
                               sqlite3_column_type(q, 9) == SQLITE_NULL
                                   ? NAN : sqlite3_column_double(q, 9),
                               sqlite3_column_int(q, 10),
                               sqlite3_column_type(q, 11) == SQLITE_NULL ? NULL : col(q, 11),
                               NULL, 0 };
        if (!registry_variant(w, f.variant_a, NULL) || !registry_variant(w, f.variant_b, NULL))
            snprintf(why, sizeof why, "variants %s and %s: not both variants of %s here",
                     f.variant_a, f.variant_b, w->name);
        else if (!isfinite(f.a) || !isfinite(f.b))
            snprintf(why, sizeof why, "coefficients a %g and b %g", f.a, f.b);
        else if (f.cc[0] && !cc_ok(f.cc))
            snprintf(why, sizeof why, "compute capability '%s'", f.cc);
        else {
            dm_crossover_measured *m;
            if (load_groups(g, id, &m, &f.nmeasured) != 0) {
                free_groups(m, f.nmeasured);
                return dm_err_set(err, DM_ERUNTIME, "%s: reading the groups of crossover fit "
                                  "%lld: %s", store_path(st), (long long)id,
                                  sqlite3_errmsg(store_db(st)));
            }
            f.measured = m;
            rc = card_choices_add_fit(w, &f, err);
            free_groups(m, f.nmeasured);
            *count += rc == 0;
            continue;
        }
        rc = refuse(st, "crossover_fits", id, why, err);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = dm_err_set(err, DM_ERUNTIME, "%s: reading the crossover fits: %s", store_path(st),
                        sqlite3_errmsg(store_db(st)));
    return rc;
}

/* Reads every workload's newest fits into card_choices; a workload this binary has not
 * refuses the first of its fits. */
static int load_fits(dm_store *st, int *count, dm_err *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *names = NULL, *q = NULL, *g = NULL;
    int rc = 0, step;
    if (sqlite3_prepare_v2(db, "SELECT workload, min(id) FROM crossover_fits WHERE card <> ''"
                           " GROUP BY workload", -1, &names, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, crossover_newest_sql, -1, &q, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, crossover_groups_sql, -1, &g, NULL) != SQLITE_OK) {
        rc = dm_err_set(err, DM_ERUNTIME, "%s: reading the crossover fits: %s", store_path(st),
                        sqlite3_errmsg(db));
        goto out;
    }
    while (rc == 0 && (step = sqlite3_step(names)) == SQLITE_ROW) {
        const dm_workload *w = registry_workload(col(names, 0), NULL);
        char why[160];
        snprintf(why, sizeof why, "no workload '%s' here", col(names, 0));
        rc = w ? load_fits_of(st, w, q, g, count, err)
               : refuse(st, "crossover_fits", sqlite3_column_int64(names, 1), why, err);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = dm_err_set(err, DM_ERUNTIME, "%s: reading the crossover fits: %s", store_path(st),
                        sqlite3_errmsg(db));
out:
    sqlite3_finalize(names);
    sqlite3_finalize(q);
    sqlite3_finalize(g);
    return rc;
}

int card_store_load(dm_store *st, int *ntuned, int *nfits, dm_err *err)
{
    int t = 0, f = 0;
    int rc = load_tuned(st, &t, err);
    if (rc == 0)
        rc = load_fits(st, &f, err);
    if (rc)
        card_choices_clear();
    if (ntuned)
        *ntuned = rc ? 0 : t;
    if (nfits)
        *nfits = rc ? 0 : f;
    return rc;
}

int card_store_put_tuned(dm_store *st, const dm_tune_result *r, const dm_tune_opts *o,
                         const char *card, int *stored, dm_err *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    char when[32], runs[512];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    *stored = 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO tuned_choices (created_at, workload,"
                           " card, cc, variant, axis, bucket, value, runs)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", -1, &q,
                           NULL) != SQLITE_OK)
        goto fail;
    for (size_t i = 0; i < r->n; i++) {
        const dm_tune_choice *c = &r->c[i];
        if (!tune_is_choice(c) || (card && strcmp(c->card, card) != 0))
            continue;
        runs[0] = '\0';
        for (size_t k = 0; k < c->ncand; k++) {
            char id[24];
            snprintf(id, sizeof id, " %lld ", (long long)c->cand[k].run_id);
            char spaced[sizeof runs + 2];
            snprintf(spaced, sizeof spaced, " %s ", runs);
            if (!strstr(spaced, id))
                dm_append(runs, sizeof runs, "%s%lld", runs[0] ? " " : "",
                          (long long)c->cand[k].run_id);
        }
        const char *text[] = { when, c->workload, c->card, c->cc, c->variant, o->axis,
                               c->bucket };
        sqlite3_reset(q);
        for (int k = 0; k < 7; k++)
            sqlite3_bind_text(q, k + 1, text[k], -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(q, 8, c->cand[c->chosen].block);
        sqlite3_bind_text(q, 9, runs, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(q) != SQLITE_DONE)
            goto fail;
        (*stored)++;
    }
    sqlite3_finalize(q);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        q = NULL;
        goto fail;
    }
    return 0;
fail:
    dm_err_set(err, DM_ERUNTIME, "%s: storing the tuned choices: %s", store_path(st),
               sqlite3_errmsg(db));
    sqlite3_finalize(q);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    *stored = 0;
    return DM_ERUNTIME;
}
