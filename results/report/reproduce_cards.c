/* reproduce_cards.c - a paper's table of its cards with this card beside them: the device
 * properties the run noted (device.NAME), the peak memory bandwidth from the memory
 * clock and bus, and the bandwidth the run's copy points measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "reproduce.h"

#define MAX_CARDS 4
#define MAX_FEATURES 24

/* What the run recorded about its device. */
typedef struct card_facts {
    char name[128], cc[16];
    char keys[48][40];
    double vals[48];
    int n;
    double copy_gbps; /* the best copy bandwidth of the run's points, NAN when none */
    char copy_variant[64];
} card_facts;

/* The noted property name (device.NAME without "device."), or NAN. */
static double fact(const card_facts *f, const char *name)
{
    for (int i = 0; i < f->n; i++)
        if (strcmp(f->keys[i], name) == 0)
            return f->vals[i];
    return NAN;
}

/* The peak memory bandwidth in GB/s the run's notes give (chz_peak_gbps). */
static double peak_gbps(const card_facts *f)
{
    return chz_peak_gbps(fact(f, "mem_clock_mhz"), fact(f, "mem_bus_bits"));
}

/* FP32 cores per multiprocessor by compute capability (CUDA's _ConvertSMVer2Cores), or
 * 0 when this build does not know the architecture. */
static int cores_per_sm(int major, int minor)
{
    static const struct { int cc, cores; } table[] = {
        { 10, 8 },   { 11, 8 },   { 12, 8 },   { 13, 8 },   { 20, 32 },  { 21, 48 },
        { 30, 192 }, { 32, 192 }, { 35, 192 }, { 37, 192 }, { 50, 128 }, { 52, 128 },
        { 53, 128 }, { 60, 64 },  { 61, 128 }, { 62, 128 }, { 70, 64 },  { 72, 64 },
        { 75, 64 },  { 80, 64 },  { 86, 128 }, { 87, 128 }, { 89, 128 }, { 90, 128 },
        { 100, 128 }, { 101, 128 }, { 103, 128 }, { 120, 128 }, { 121, 128 },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].cc == major * 10 + minor)
            return table[i].cores;
    return 0;
}

/* Reads the run's name, compute capability, device notes and best copy bandwidth.
 * Returns 0 or DM_ERUNTIME. */
static int read_facts(dm_store *st, int64_t run, card_facts *f, dm_err *err)
{
    static const char *const sql[] = {
        "SELECT gpu_name, gpu_cc FROM runs WHERE id = ?1",
        "SELECT substr(key, 8), value FROM run_notes WHERE run_id = ?1"
        " AND key LIKE 'device.%' ORDER BY key",
        "SELECT p.variant, p.bytes_per_run / s.median AS bw FROM points p"
        " JOIN point_stats s ON s.point_id = p.id WHERE p.run_id = ?1 AND p.status = 'ok'"
        " AND p.bytes_per_run > 0 AND s.median > 0 ORDER BY bw DESC LIMIT 1",
    };
    sqlite3 *db = store_db(st);
    memset(f, 0, sizeof *f);
    f->copy_gbps = NAN;
    for (int k = 0; k < 3; k++) {
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(db, sql[k], -1, &q, NULL) != SQLITE_OK)
            return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(st), sqlite3_errmsg(db));
        sqlite3_bind_int64(q, 1, run);
        int rc;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            const char *a = (const char *)sqlite3_column_text(q, 0);
            if (k == 0) {
                const char *cc = (const char *)sqlite3_column_text(q, 1);
                snprintf(f->name, sizeof f->name, "%s", a ? a : "");
                snprintf(f->cc, sizeof f->cc, "%s", cc ? cc : "");
            } else if (k == 1 && f->n < (int)(sizeof f->vals / sizeof f->vals[0])) {
                snprintf(f->keys[f->n], sizeof f->keys[0], "%s", a ? a : "");
                f->vals[f->n++] = sqlite3_column_double(q, 1);
            } else if (k == 2) {
                snprintf(f->copy_variant, sizeof f->copy_variant, "%s", a ? a : "");
                f->copy_gbps = sqlite3_column_double(q, 1) / 1e9;
            }
        }
        sqlite3_finalize(q);
        if (rc != SQLITE_DONE)
            return dm_err_set(err, DM_ERUNTIME, "%s: %s", store_path(st), sqlite3_errmsg(db));
    }
    return 0;
}

/* This card's value of the paper's feature (a Table 2 row header) as text, and as a
 * number in *num (NAN for text). Returns 0, or -1 when the run did not record it. */
static int measured(const card_facts *f, const char *feature, char *text, size_t n,
                    double *num)
{
    static const struct { const char *feature, *note; double scale; } direct[] = {
        { "Memory (MB)", "mem_bytes", 1.0 / (1024 * 1024) },
        { "Multiprocessors", "sms", 1 },
        { "Processor Clock (MHz)", "sm_clock_mhz", 1 },
        { "Registers per Multiprocessor", "regs_per_sm", 1 },
        { "Threads per Block (Max)", "max_threads", 1 },
        { "Active Threads per Multiprocessor (Max)", "max_threads_per_sm", 1 },
        { "Active Blocks per Multiprocessor (Max)", "max_blocks_per_sm", 1 },
    };
    *num = NAN;
    if (strcmp(feature, "GPU") == 0 || strcmp(feature, "Compute Capability") == 0) {
        const char *s = feature[0] == 'G' ? f->name : f->cc;
        if (!s[0])
            return -1;
        snprintf(text, n, "%s", s);
        return 0;
    }
    for (size_t i = 0; i < sizeof direct / sizeof direct[0]; i++)
        if (strcmp(feature, direct[i].feature) == 0)
            *num = fact(f, direct[i].note) * direct[i].scale;
    if (strcmp(feature, "Memory Bandwidth (GBps)") == 0)
        *num = peak_gbps(f);
    else if (strcmp(feature, "Cores") == 0) {
        int per = cores_per_sm((int)fact(f, "cc_major"), (int)fact(f, "cc_minor"));
        *num = per ? per * fact(f, "sms") : NAN;
    } else if (strcmp(feature, "Active Warps per Multiprocessor (Max)") == 0)
        *num = fact(f, "max_threads_per_sm") / fact(f, "warp_size");
    if (isnan(*num))
        return -1;
    snprintf(text, n, "%.*f", *num == floor(*num) || fabs(*num) >= 100 ? 0 : 1, *num);
    return 0;
}

/* The distinct values of t's published rows: row keys (the cards) when cards is set,
 * else columns (the features), in file order, at most max. */
static int distinct(const dm_pub_table *pub, const dm_target *t, int cards,
                    const char **out, int max)
{
    int n = 0;
    for (size_t i = 0; i < pub->n; i++) {
        const dm_pub_row *r = &pub->rows[i];
        if (strcmp(r->paper, t->paper) || strcmp(r->table, t->table))
            continue;
        const char *v = cards ? r->card : r->column;
        int k = 0;
        while (k < n && strcmp(out[k], v))
            k++;
        if (k == n && n < max)
            out[n++] = v;
    }
    return n;
}

/* The published value of feature for card, or NULL. */
static const dm_pub_row *published(const dm_pub_table *pub, const dm_target *t,
                                   const char *card, const char *feature)
{
    char key[192];
    snprintf(key, sizeof key, "card=%s", card);
    return published_find(pub, t->paper, t->table, key, feature);
}

int repro_write_cards(const chz_ctx *c, const dm_pub_table *pub, const dm_target *t,
                      const chz_run *run, dm_report_doc *d, dm_err *err)
{
    const char *cards[MAX_CARDS], *features[MAX_FEATURES];
    int ncards = distinct(pub, t, 1, cards, MAX_CARDS);
    int nfeat = distinct(pub, t, 0, features, MAX_FEATURES);
    card_facts f;
    if (read_facts(c->st[run->store], run->id, &f, err))
        return err->code;
    if (!ncards)
        return dm_err_set(err, DM_ERUNTIME, "results/published holds no rows of %s %s",
                          t->paper, t->table);
    const char *ref = cards[ncards - 1];
    char head_this[160], head_ratio[160];
    const char *head[MAX_CARDS + 3] = { "feature" };
    for (int i = 0; i < ncards; i++)
        head[1 + i] = cards[i];
    snprintf(head_this, sizeof head_this, "%s (this run)", f.name);
    snprintf(head_ratio, sizeof head_ratio, "this / %s", ref);
    head[1 + ncards] = head_this;
    head[2 + ncards] = head_ratio;
    report_table_begin(d, ncards + 3, head);
    int unrecorded = 0;
    for (int k = 0; k < nfeat; k++) {
        const char *cells[MAX_CARDS + 3] = { features[k] };
        char text[160] = "", ratio[32] = "";
        double num;
        for (int i = 0; i < ncards; i++) {
            const dm_pub_row *r = published(pub, t, cards[i], features[k]);
            cells[1 + i] = r ? r->value : NULL;
        }
        if (measured(&f, features[k], text, sizeof text, &num) == 0)
            cells[1 + ncards] = text;
        else
            unrecorded++;
        const dm_pub_row *r = published(pub, t, ref, features[k]);
        if (!isnan(num) && r && !isnan(r->num) && r->num > 0) {
            snprintf(ratio, sizeof ratio, "%.3g", num / r->num);
            cells[2 + ncards] = ratio;
        }
        report_table_row(d, cells);
    }
    char copy[96] = "", copy_ratio[32] = "";
    const char *cells[MAX_CARDS + 3] = { "Memory Bandwidth measured, device copy (GBps)" };
    if (!isnan(f.copy_gbps)) {
        snprintf(copy, sizeof copy, "%.0f (%s, %.0f%% of peak)", f.copy_gbps, f.copy_variant,
                 100 * f.copy_gbps / peak_gbps(&f));
        cells[1 + ncards] = copy;
        const dm_pub_row *r = published(pub, t, ref, "Memory Bandwidth (GBps)");
        if (r && !isnan(r->num) && r->num > 0) {
            snprintf(copy_ratio, sizeof copy_ratio, "%.3g", f.copy_gbps / r->num);
            cells[2 + ncards] = copy_ratio;
        }
    }
    report_table_row(d, cells);
    report_table_end(d);
    report_para(d, "Published values as printed%s%s%s. This card's peak bandwidth is "
                   "2 x memory clock x bus width, as the paper's are; the measured row is the "
                   "fastest device-to-device copy of the run (bytes read and written over the "
                   "median time), which the paper did not measure. The ratio is this card's "
                   "value over the %s's.%s", t->note ? " (" : "", t->note ? t->note : "",
                t->note ? ")" : "", ref,
                unrecorded ? " A missing value is one this run did not record (a run of an "
                             "older dmbench, or a property the runtime does not report)."
                           : "");
    const dm_pub_row *sms = published(pub, t, ref, "Multiprocessors");
    const dm_pub_row *tpm = published(pub, t, ref, "Active Threads per Multiprocessor (Max)");
    double here = fact(&f, "sms") * fact(&f, "max_threads_per_sm");
    if (sms && tpm && !isnan(here) && !isnan(sms->num) && !isnan(tpm->num))
        report_para(d, "Threads the card keeps active at once (multiprocessors x active "
                       "threads per multiprocessor): %.0f x %.0f = %.0f on the %s, %.0f x %.0f = "
                       "%.0f here (%.3gx).", sms->num, tpm->num, sms->num * tpm->num, ref,
                    fact(&f, "sms"), fact(&f, "max_threads_per_sm"), here,
                    here / (sms->num * tpm->num));
    return 0;
}
