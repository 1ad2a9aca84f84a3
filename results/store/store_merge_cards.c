/* store_merge_cards.c - `dmbench merge`'s second half: the per-card store of each input
 * (tuned_choices, crossover_fits with their crossover_groups) copied into the output after
 * its runs, so that tuning several cards into databases of their own and merging them
 * gives one database that every card's runs read their choices from (docs/tuning.md). A
 * tuned choice keeps its key's newest (the output's stays when it is as new or newer);
 * a fit is copied once, and the readers take each key's newest by created_at. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_merge_int.h"

/* The output's id of src's run id, or 0 when the run was not merged (a shard left out of
 * a combined run). */
static int64_t run_to(const merge_src *src, int64_t id)
{
    for (size_t k = 0; k < src->nrun_to; k++)
        if (src->run_to[k][0] == id)
            return src->run_to[k][1];
    return 0;
}

/* Writes runs ("3 4", src's ids) as the output's ids into out, each once, in order. */
static void runs_renumbered(const merge_src *src, const char *runs, char *out, size_t n)
{
    int64_t seen[64];
    int nseen = 0;
    out[0] = '\0';
    for (const char *p = runs; *p;) {
        char *end;
        long long id = strtoll(p, &end, 10);
        if (end == p) {
            p++;
            continue;
        }
        p = end;
        int64_t to = run_to(src, id);
        int dup = !to;
        for (int k = 0; k < nseen && !dup; k++)
            dup = seen[k] == to;
        if (dup)
            continue;
        if (nseen < (int)(sizeof seen / sizeof *seen))
            seen[nseen++] = to;
        dm_append(out, n, "%s%lld", out[0] ? " " : "", (long long)to);
    }
}

/* Copies src's tuned choices. Returns 0 or DM_ERUNTIME. */
static int merge_tuned(merge_ctx *m, merge_src *src)
{
    sqlite3_stmt *sel = NULL, *ins = NULL;
    int rc = sqlite3_prepare_v2(src->db, "SELECT created_at, workload, card, cc, variant, axis,"
                                " bucket, value, runs FROM tuned_choices ORDER BY id", -1, &sel,
                                NULL);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(sel);
        return merge_fail(src->db, src->path, m->err, "reading its tuned choices");
    }
    if (sqlite3_prepare_v2(m->db, "INSERT INTO tuned_choices (created_at, workload, card, cc,"
                           " variant, axis, bucket, value, runs)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                           " ON CONFLICT (workload, card, variant, axis, bucket) DO UPDATE SET"
                           " created_at = excluded.created_at, cc = excluded.cc,"
                           " value = excluded.value, runs = excluded.runs"
                           " WHERE excluded.created_at > tuned_choices.created_at", -1, &ins,
                           NULL) != SQLITE_OK) {
        sqlite3_finalize(sel);
        return merge_fail(m->db, store_path(m->st), m->err, "preparing to write tuned choices");
    }
    while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
        char runs[512];
        runs_renumbered(src, merge_col_str(sel, 8), runs, sizeof runs);
        sqlite3_reset(ins);
        for (int i = 0; i < 8; i++)
            sqlite3_bind_value(ins, i + 1, sqlite3_column_value(sel, i));
        sqlite3_bind_text(ins, 9, runs, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(ins) != SQLITE_DONE) {
            rc = SQLITE_ERROR;
            break;
        }
        if (sqlite3_changes(m->db))
            m->counts->tuned_copied++;
        else
            m->counts->tuned_present++;
    }
    sqlite3_finalize(sel);
    sqlite3_finalize(ins);
    return rc == SQLITE_DONE ? 0
                             : merge_fail(m->db, store_path(m->st), m->err,
                                          "copying the tuned choices of %s", src->path);
}

/* q (fits_present_sql on the output) with the current row of c: 1 when the output has
 * that fit (the same card, workload, pair, axis, group, form and time), 0 when not, -1
 * on an error. */
static const char fits_present_sql[] =
    "SELECT 1 FROM crossover_fits WHERE created_at = ?1 AND card = ?2 AND workload = ?3 AND"
    " variant_a = ?4 AND variant_b = ?5 AND axis = ?6 AND grp = ?7 AND form = ?8";

static int fit_present(sqlite3_stmt *q, const merge_copy *c)
{
    static const char *const key[] = { "created_at", "card", "workload", "variant_a",
                                       "variant_b", "axis", "grp", "form" };
    int rc = sqlite3_reset(q);
    for (int i = 0; rc == SQLITE_OK && i < (int)(sizeof key / sizeof *key); i++)
        rc = sqlite3_bind_value(q, i + 1, sqlite3_column_value(c->sel, merge_copy_col(c, key[i])));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Copies src's crossover fits and their groups. Returns 0 or DM_ERUNTIME. */
static int merge_fits(merge_ctx *m, merge_src *src)
{
    merge_copy fits, groups[MERGE_MAX_TABLES];
    sqlite3_stmt *present_q = NULL;
    int ngroups = 0, rc = DM_ERUNTIME, step;
    memset(groups, 0, sizeof groups);
    if (merge_copy_make(&fits, m->db, src, "crossover_fits", "id > ?1 ORDER BY id", NULL, 0,
                        "id", m->err) ||
        merge_copies_under(src, m->db, "crossover_fits", NULL, groups, &ngroups, m->err))
        goto out;
    if (sqlite3_prepare_v2(m->db, fits_present_sql, -1, &present_q, NULL) != SQLITE_OK) {
        merge_fail(m->db, store_path(m->st), m->err, "looking up crossover fits");
        goto out;
    }
    int id_col = merge_copy_col(&fits, "id");
    sqlite3_bind_int64(fits.sel, 1, 0);
    while ((step = sqlite3_step(fits.sel)) == SQLITE_ROW) {
        int present = fit_present(present_q, &fits);
        if (present < 0 || (!present && merge_copy_row(&fits, NULL) != SQLITE_DONE)) {
            merge_fail(m->db, store_path(m->st), m->err, "copying the crossover fits of %s",
                       src->path);
            goto out;
        }
        if (present) {
            m->counts->fits_present++;
            continue;
        }
        int64_t to = sqlite3_last_insert_rowid(m->db);
        for (int i = 0; i < ngroups; i++)
            if (merge_copy_all(m, src, &groups[i], sqlite3_column_int64(fits.sel, id_col), to))
                goto out;
        m->counts->fits_copied++;
    }
    rc = step == SQLITE_DONE ? 0
                             : merge_fail(src->db, src->path, m->err, "reading its crossover fits");
out:
    sqlite3_finalize(present_q);
    merge_copy_free(&fits);
    for (int i = 0; i < ngroups; i++)
        merge_copy_free(&groups[i]);
    return rc;
}

int merge_cards(merge_ctx *m, merge_src *src)
{
    int rc = merge_tuned(m, src);
    return rc ? rc : merge_fits(m, src);
}
