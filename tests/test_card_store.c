/* test_card_store.c - the per-card store through the binary, with stand-in cards: `tune
 * --store` keeps a choice in the database and the next process (`run --dry-run --card
 * NAME --cc X.Y`) uses it, with no rebuild, for this card and then for another card of
 * the same architecture, saying which rule chose each block; a card nothing was measured
 * on is told once; a damaged or foreign entry (tuned choice or fit) is refused with one
 * line and exit 2, the database left as it was, byte for byte; what `tune --card` runs
 * exists, and without a GPU it is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "cli_fixture.h"
#include "card_choices.h"
#include "registry.h"
#include "sweep.h"

#define NS 40
#define CARD "NVIDIA Stand-In"
#define SWEEP DM_SOURCE_DIR "/sweeps/tdm-choice.yaml"

/* Stores tdm block-tex points at level 1 on CARD (cc 9.9), block 96 clearly the faster. */
static void plant_tdm(const char *db)
{
    afx a = { 0 };
    dm_err err = { 0 };
    dm_point pt;
    double x[NS];
    const dm_workload *w = registry_workload("tdm", &err);
    assert_int_equal(store_open(db, &a.st, &err), 0);
    int64_t run = afx_run(&a, CARD, 9, 9);
    assert_int_equal(sqlite3_exec(store_db(a.st), "UPDATE runs SET workload = 'tdm'", NULL,
                                  NULL, NULL), SQLITE_OK);
    assert_int_equal(registry_point_defaults(w, registry_variant(w, "block-tex", &err), &pt,
                                             &err), 0);
    dm_point_set_int(&pt, "level", 1);
    for (int64_t block = 64; block <= 96; block += 32) {
        dm_point_set_int(&pt, "block", block);
        afx_samples(x, NS, block == 96 ? 1.0e-3 : 2.0e-3, 0.002);
        afx_store_point(&a, run, block, &pt, x, NS);
    }
    store_close(a.st);
}

/* The file's bytes, malloc'd, their count in *n. */
static char *bytes_of(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *n = (size_t)ftell(fp);
    rewind(fp);
    char *b = malloc(*n ? *n : 1);
    assert_int_equal(fread(b, 1, *n, fp), *n);
    fclose(fp);
    return b;
}

static void a_stored_choice_is_used_by_the_next_process(void **state)
{
    fixture *f = *state;
    plant_tdm(f->db);
    assert_int_equal(dmbench(f, "tune tdm --store --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "stored 1 tuned choice in"));
    /* this card: level 1 from its own bucket; levels 2 and 3 were never tuned anywhere on
     * architecture 9.9: the default, said so */
    assert_int_equal(dmbench(f, "run %s --dry-run --card '" CARD "' --cc 9.9 --db %s "
                             "--variants block-tex", SWEEP, f->db), 0);
    const char *out = slurp(f->out);
    assert_non_null(strstr(out, "level=1,episodes=all,count=0,block=96\n"
                                "         chosen: block: 96, this card, this bucket (stored)\n"));
    assert_non_null(strstr(out, "level=2,episodes=all,count=0,block=64\n"
                                "         chosen: block: 64, the default: no tuning of "
                                "block-tex for this problem on this card or its "
                                "architecture\n"));
    assert_null(strstr(slurp(f->errf), "nothing is tuned"));
    /* another card of the architecture: the same bucket, named; told once it has none */
    assert_int_equal(dmbench(f, "run %s --dry-run --card 'NVIDIA Stand-In Max' --cc 9.9 "
                             "--db %s --variants block-tex", SWEEP, f->db), 0);
    assert_non_null(strstr(slurp(f->out), "chosen: block: 96, this bucket on " CARD ", the same "
                                          "architecture 9.9 (stored)\n"));
    const char *err = slurp(f->errf);
    assert_non_null(strstr(err, "nothing is tuned for NVIDIA Stand-In Max (compute capability "
                                "9.9)"));
    assert_non_null(strstr(err, "`dmbench tune --card`"));
    assert_int_equal(count_lines(err), 1);
    /* a fit stored for the card (block-tex faster below a million letters) hands packed's
     * level 1 to block-tex, at block-tex's stored block */
    db_exec(f->db, "INSERT INTO crossover_fits (created_at, card, workload, variant_a,"
                    " variant_b, axis, grp, form, a, b, n, better, below) VALUES ('2026-11-27',"
                    " '" CARD "', 'tdm', 'block-tex', 'packed', 'length', 'level', 'a*N + b', 0,"
                    " 1000000, 3, 1, 'block-tex')");
    assert_int_equal(dmbench(f, "run %s --dry-run --card '" CARD "' --cc 9.9 --db %s "
                             "--variants packed -a level=1", SWEEP, f->db), 0);
    out = slurp(f->out);
    assert_non_null(strstr(out, "small: block-tex below the crossover, fit of this card "
                                "(stored); small_block: 96, block-tex's block: this card, this "
                                "bucket (stored)"));
    /* --card without --dry-run, or without --cc, is a usage error */
    assert_int_equal(dmbench(f, "run %s --card X --cc 9.0 --db %s", SWEEP, f->db), 2);
    assert_int_equal(dmbench(f, "run %s --dry-run --card X --db %s", SWEEP, f->db), 2);
    assert_int_equal(dmbench(f, "run %s --dry-run --card X --cc nine --db %s", SWEEP, f->db),
                     2);
}

/* Damages the store with sql, then expects run and mine to refuse it with one line
 * holding want, exit 2, and the database unchanged. */
static void refused(fixture *f, const char *sql, const char *want)
{
    size_t n0, n1;
    db_exec(f->db, sql);
    char *before = bytes_of(f->db, &n0);
    assert_int_equal(dmbench(f, "run %s --dry-run --card '" CARD "' --cc 9.9 --db %s", SWEEP,
                             f->db), 2);
    const char *err = slurp(f->errf);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, "is damaged or from another dmbench"));
    assert_int_equal(count_lines(err), 1);
    assert_int_equal(dmbench(f, "mine tdm --variant cpu -p length=2000 --db %s", f->db), 2);
    assert_non_null(strstr(slurp(f->errf), want));
    char *after = bytes_of(f->db, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

static void a_damaged_or_foreign_entry_is_refused(void **state)
{
    fixture *f = *state;
    plant_tdm(f->db);
    assert_int_equal(dmbench(f, "tune tdm --store --db %s", f->db), 0);
    refused(f, "UPDATE tuned_choices SET variant = 'warp-tex'",
            "tuned_choices row 1 is damaged or from another dmbench: no variant 'warp-tex' of "
            "tdm here; look with: sqlite3 ");
    refused(f, "UPDATE tuned_choices SET variant = 'block-tex', value = -5",
            "block -5 is outside what the parameter allows (1..)");
    refused(f, "UPDATE tuned_choices SET value = 'big'", "value 'big' is not an integer");
    refused(f, "UPDATE tuned_choices SET value = 96, workload = 'tdm2'", "no workload 'tdm2'");
    refused(f, "UPDATE tuned_choices SET workload = 'tdm', cc = 'nine'",
            "card '" CARD "' of compute capability 'nine'");
    refused(f, "UPDATE tuned_choices SET cc = '9.9', bucket = 'length=1,warp=2'",
            "bucket names 'warp', no parameter of tdm block-tex");
    db_exec(f->db, "DELETE FROM tuned_choices");
    refused(f, "INSERT INTO crossover_fits (created_at, card, workload, variant_a, variant_b,"
               " axis, grp, form, a, b, n, better) VALUES ('2026-11-27', '" CARD "', 'tdm',"
               " 'block-tex', 'warp-tex', 'count', 'level', 'a/N + b', 1, 2, 3, 1)",
            "crossover_fits row 1 is damaged or from another dmbench: variants block-tex and "
            "warp-tex: not both variants of tdm here");
}

/* 1 when sweep s runs variant name. */
static int sweep_runs(const dm_sweep *s, const char *name)
{
    for (int i = 0; i < sweep_nvariants(s); i++)
        if (!strcmp(sweep_variant(s, i)->name, name))
            return 1;
    return 0;
}

static void every_card_tuning_names_sweeps_and_variants_that_exist(void **state)
{
    (void)state;
    int tuned = 0;
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        const dm_card_tuning *t = (*w)->card_tuning;
        if (!t)
            continue;
        tuned++;
        dm_sweep *s[8];
        int n = 0;
        for (const char *const *name = t->sweeps; *name; name++) {
            char path[512];
            dm_err err = { 0 };
            snprintf(path, sizeof path, "%s/sweeps/%s.yaml", DM_SOURCE_DIR, *name);
            assert_true(n < 8);
            if (sweep_load(path, &s[n], &err) != 0)
                fail_msg("%s: %s", (*w)->name, err.msg);
            assert_ptr_equal(sweep_workload(s[n]), *w);
            n++;
        }
        assert_true(n > 0);
        /* each crossover's pair is measured together in one of the sweeps, over its axis */
        for (const dm_card_crossover *x = t->crossovers; x && x->variant_a; x++) {
            int found = 0;
            for (int i = 0; i < n && !found; i++)
                found = sweep_runs(s[i], x->variant_a) && sweep_runs(s[i], x->variant_b);
            if (!found)
                fail_msg("%s: no tuning sweep runs both %s and %s", (*w)->name, x->variant_a,
                         x->variant_b);
            const dm_variant *a = registry_variant(*w, x->variant_a, NULL);
            assert_non_null(registry_param(*w, a, x->axis));
            assert_non_null(registry_param(*w, a, x->group));
        }
        for (int i = 0; i < n; i++)
            sweep_free(s[i]);
    }
    assert_true(tuned >= 2);
}

static void tuning_a_card_needs_one(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "tune --card --db %s", f->db), 2);
    const char *err = slurp(f->errf);
    assert_non_null(strstr(err, "tune --card tunes the GPU at hand, and there is none ("));
    assert_int_equal(count_lines(err), 1);
    assert_int_equal(dmbench(f, "tune --card membw --db %s", f->db), 2);
    assert_int_equal(dmbench(f, "tune --card tdm --store --db %s", f->db), 2);
    assert_int_equal(access(f->db, F_OK), -1); /* nothing made */
    /* --store with nothing measured at two blocks says it stored nothing */
    plant_tdm(f->db);
    db_exec(f->db, "DELETE FROM points WHERE idx = 64");
    assert_int_equal(dmbench(f, "tune tdm --store --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "stored nothing in "));
    assert_null(strstr(slurp(f->out), "the next run on it uses them"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_stored_choice_is_used_by_the_next_process, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_damaged_or_foreign_entry_is_refused, setup, teardown),
        cmocka_unit_test(every_card_tuning_names_sweeps_and_variants_that_exist),
        cmocka_unit_test_setup_teardown(tuning_a_card_needs_one, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
