/* test_tune.c - `dmbench tune` on fixture databases with a known best block size and
 * planted ties; the per-workload header it writes (only that workload's rows, into its
 * own variants/<w>/tuned.h); the bucket key, the same for a point as tune stores; and
 * the sweep expansion filling an open block size from the workload's compiled-in table.
 * The lookup's fallbacks: test_tuned_lookup.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sqlite3.h>

#include <sys/stat.h>
#include <unistd.h>

#include "store_fixture.h"
#include "cli_fixture.h"
#include "kept.h"
#include "registry.h"
#include "sweep.h"
#include "tune.h"
#include "tuned_lookup.h"

#define NS 40
#define H100 "NVIDIA H100 80GB HBM3"

/* Stores kernel points of one bucket (n) with the given block sizes and medians. */
static void plant(afx *f, int64_t run, int64_t n, const int64_t *blocks, const double *t,
                  int count, double spread)
{
    double x[NS];
    for (int i = 0; i < count; i++) {
        afx_samples(x, NS, t[i], spread);
        afx_point(f, run, n * 100 + i, n, "copy", blocks[i], x, NS);
    }
}

static const dm_tune_opts opts = { .workload = "toy", .axis = "block", .alpha = 0.05,
                                   .tolerance = 0.01 };

/* The header tune writes for workload from r, with *rows the choices in it. */
static char *header_of(const dm_tune_result *r, const dm_tune_opts *o, const char *workload,
                       int *rows)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    *rows = tune_write_header(r, o, workload, "fixture", out);
    fclose(out);
    return text;
}

static void best_block_wins_when_clearly_faster(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, H100, 9, 0);
    const int64_t blocks[] = { 32, 64, 128, 256 };
    const double t[] = { 2.0e-3, 1.5e-3, 1.0e-3, 1.3e-3 };
    plant(f, run, 4096, blocks, t, 4, 0.002);
    dm_tune_result r;
    dm_err err = { 0 };
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.c[0].cand[r.c[0].chosen].block, 128);
    assert_int_equal(r.c[0].chosen, r.c[0].best);
    assert_string_equal(r.c[0].bucket, "n=4096,op=copy,scale=0.5");
    assert_string_equal(r.c[0].cc, "9.0");
    tune_free(&r);
}

/* Points whose block the store chose (a check of the choice: points.chosen says so) are
 * no candidates: two such runs at two blocks make no choice of their own. */
static void points_at_a_chosen_block_are_not_candidates(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, H100, 9, 0);
    const int64_t blocks[] = { 32, 64 };
    const double t[] = { 2.0e-3, 1.0e-3 };
    plant(f, run, 4096, blocks, t, 2, 0.002);
    dm_tune_result r;
    dm_err err = { 0 };
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0);
    assert_int_equal(r.n, 1);
    tune_free(&r);
    assert_int_equal(sqlite3_exec(store_db(f->st), "UPDATE points SET chosen = 'block: ' ||"
                                  " (SELECT value_num FROM point_params WHERE point_id = id AND"
                                  " name = 'block') || ', the default'", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0);
    assert_int_equal(r.n, 0);
    tune_free(&r);
    /* another value chosen (the point's block was the sweep's) leaves it a candidate */
    assert_int_equal(sqlite3_exec(store_db(f->st), "UPDATE points SET chosen ="
                                  " 'blocks_per_sm: 4, the default'", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0);
    assert_int_equal(r.n, 1);
    tune_free(&r);
}

static void planted_ties_go_to_the_smallest_block(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, H100, 9, 0);
    /* 128 is best; 256 is 0.5 % slower (a tie by the tolerance); 64's samples overlap
     * 128's (the test cannot tell them apart); 32 is clearly slower */
    const int64_t blocks[] = { 32, 64, 128, 256 };
    const double t[] = { 1.5e-3, 1.002e-3, 1.0e-3, 1.005e-3 };
    plant(f, run, 4096, blocks, t, 4, 0.05);
    dm_tune_result r;
    dm_err err = { 0 };
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0);
    const dm_tune_choice *c = &r.c[0];
    assert_int_equal(c->cand[c->best].block, 128);
    assert_false(c->cand[0].tie);
    assert_true(c->cand[1].tie);
    assert_true(c->cand[1].p >= 0.05);
    assert_true(c->cand[3].tie);
    assert_int_equal(c->cand[c->chosen].block, 64);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    tune_print(&r, &opts, 1, out);
    fclose(out);
    assert_non_null(strstr(text, "chosen (smallest of the ties)"));
    assert_non_null(strstr(text, "block=32"));
    assert_non_null(strstr(text, "slower"));
    free(text);
    tune_free(&r);
}

static void cards_and_buckets_are_tuned_apart_newest_point_first(void **state)
{
    afx *f = *state;
    int64_t h100 = afx_run(f, H100, 9, 0), h200 = afx_run(f, "NVIDIA H200", 9, 0);
    const int64_t blocks[] = { 64, 128 };
    const double fast64[] = { 1.0e-3, 2.0e-3 }, fast128[] = { 2.0e-3, 1.0e-3 };
    plant(f, h100, 4096, blocks, fast64, 2, 0.002);
    plant(f, h100, 8192, blocks, fast128, 2, 0.002);
    plant(f, h200, 4096, blocks, fast128, 2, 0.002);
    /* a newer H100 run of n=4096 where 128 wins replaces the older points */
    int64_t again = afx_run(f, H100, 9, 0);
    plant(f, again, 4096, blocks, fast128, 2, 0.002);
    dm_tune_result r;
    dm_err err = { 0 };
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0);
    assert_int_equal(r.n, 3);
    for (size_t i = 0; i < r.n; i++)
        assert_int_equal(r.c[i].cand[r.c[i].chosen].block, 128);
    assert_string_equal(r.c[0].card, H100);
    assert_non_null(strstr(r.c[0].bucket, "n=4096"));
    assert_non_null(strstr(r.c[1].bucket, "n=8192"));
    assert_string_equal(r.c[2].card, "NVIDIA H200");

    int rows;
    char *text = header_of(&r, &opts, "toy", &rows);
    assert_int_equal(rows, 3);
    assert_non_null(strstr(text, "runs 1 2 3."));
    assert_non_null(strstr(text, "#include \"tuned_lookup.h\"\n"));
    assert_non_null(strstr(text, "{ \"NVIDIA H200\", \"9.0\", \"kernel\", \"block\", "
                                 "\"n=4096,op=copy,scale=0.5\", 128 },"));
    free(text);
    tune_free(&r);
}

static void several_workloads_are_tuned_in_one_call(void **state)
{
    afx *f = *state;
    int64_t toy = afx_run(f, H100, 9, 0), other = afx_run(f, H100, 9, 0);
    const int64_t blocks[] = { 64, 128 };
    const double fast64[] = { 1.0e-3, 2.0e-3 }, fast128[] = { 2.0e-3, 1.0e-3 };
    plant(f, toy, 4096, blocks, fast64, 2, 0.002);
    plant(f, other, 4096, blocks, fast128, 2, 0.002);
    char sql[96];
    snprintf(sql, sizeof sql, "UPDATE runs SET workload = 'other' WHERE id = %lld", (long long)other);
    assert_int_equal(sqlite3_exec(store_db(f->st), sql, NULL, NULL, NULL), SQLITE_OK);
    dm_tune_opts both = opts;
    both.workload = "toy,other";
    dm_tune_result r;
    dm_err err = { 0 };
    assert_int_equal(tune_compute(f->st, &both, &r, &err), 0);
    assert_int_equal(r.n, 2); /* the same card, variant and bucket, apart by workload */
    assert_string_equal(r.c[0].workload, "other");
    assert_int_equal(r.c[0].cand[r.c[0].chosen].block, 128);
    assert_string_equal(r.c[1].workload, "toy");
    assert_int_equal(r.c[1].cand[r.c[1].chosen].block, 64);
    /* each workload's header holds its own rows and runs, and names no other workload */
    int rows;
    char *text = header_of(&r, &both, "toy", &rows);
    assert_int_equal(rows, 1);
    assert_non_null(strstr(text, "`dmbench tune toy --axis block --header`"));
    assert_non_null(strstr(text, " fixture, runs 1.\n"));
    assert_non_null(strstr(text, "\"kernel\", \"block\", \"n=4096,op=copy,scale=0.5\", 64 },\n"
                                 "    { 0 },\n};\n"));
    assert_null(strstr(text, "other"));
    free(text);
    text = header_of(&r, &both, "other", &rows);
    assert_int_equal(rows, 1);
    assert_non_null(strstr(text, "`dmbench tune other --axis block --header`"));
    assert_non_null(strstr(text, " fixture, runs 2.\n"));
    assert_non_null(strstr(text, "\"n=4096,op=copy,scale=0.5\", 128 },\n    { 0 },\n};\n"));
    assert_null(strstr(text, "toy"));
    free(text);
    text = header_of(&r, &both, "third", &rows);
    assert_int_equal(rows, 0);
    assert_non_null(strstr(text, "= {\n    { 0 },\n};\n"));
    free(text);
    tune_free(&r);
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0); /* toy alone */
    assert_int_equal(r.n, 1);
    tune_free(&r);
}

static void bucket_is_the_key_tune_stores_and_the_header_round_trips(void **state)
{
    afx *f = *state;
    int64_t run = afx_run(f, H100, 9, 0);
    dm_point pt;
    dm_err err = { 0 };
    double x[NS];
    assert_int_equal(registry_point_defaults(&toy, &toy_variants[1], &pt, &err), 0);
    dm_point_set_int(&pt, "n", 8192);
    dm_point_set_str(&pt, "op", "triad");
    for (int64_t block = 64; block <= 128; block += 64) {
        dm_point_set_int(&pt, "block", block);
        afx_samples(x, NS, block == 128 ? 1.0e-3 : 2.0e-3, 0.002);
        afx_point_params(f, run, block, 1, pt.specs, pt.values, pt.nparams, x, NS);
    }
    char key[512];
    tuned_bucket(&pt, "block", NULL, key, sizeof key);
    assert_string_equal(key, "n=8192,op=triad,scale=0.5");
    dm_tune_result r;
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0);
    assert_int_equal(r.n, 1);
    assert_string_equal(r.c[0].bucket, key);
    /* the header's row, compiled into the workload, is the point's by card and bucket */
    int rows;
    char *text = header_of(&r, &opts, "toy", &rows);
    assert_non_null(strstr(text, "    { \"" H100 "\", \"9.0\", \"kernel\", \"block\", "
                                 "\"n=8192,op=triad,scale=0.5\", 128 },\n"));
    free(text);
    const dm_tuned back[] = { { r.c[0].card, r.c[0].cc, r.c[0].variant, "block", r.c[0].bucket,
                                r.c[0].cand[r.c[0].chosen].block },
                              { 0 } };
    dm_workload tuned_toy = toy;
    tuned_toy.tuned = back;
    pt.workload = &tuned_toy;
    dm_point_set_int(&pt, "block", 256);
    dm_device h100 = { .cc_major = 9 };
    strcpy(h100.name, H100);
    int64_t v;
    char how[DM_HOW_MAX];
    assert_true(tuned_lookup(&pt, NULL, &h100, "block", &v, how, sizeof how));
    assert_int_equal(v, 128);
    assert_string_equal(how, "this card, this bucket (shipped)");
    tune_free(&r);
}

static void command_writes_each_tuned_workloads_header_file(void **state)
{
    fixture *f = *state;
    const dm_workload *const *ws = registry_workloads();
    assert_non_null(ws[0]);
    assert_non_null(ws[1]);
    const char *tuned = ws[0]->name, *kept = ws[1]->name;
    char path[256], sql[128];
    fake_variants(f->dir, "tuned.h");
    /* points of the toy workload's kernel, stored as the first registered workload's */
    afx a = { 0 };
    dm_err err = { 0 };
    assert_int_equal(store_open(f->db, &a.st, &err), 0);
    int64_t run = afx_run(&a, H100, 9, 0);
    const int64_t blocks[] = { 64, 128 };
    const double fast128[] = { 2.0e-3, 1.0e-3 };
    plant(&a, run, 4096, blocks, fast128, 2, 0.002);
    snprintf(sql, sizeof sql, "UPDATE runs SET workload = '%s'", tuned);
    assert_int_equal(sqlite3_exec(store_db(a.st), sql, NULL, NULL, NULL), SQLITE_OK);
    store_close(a.st);

    assert_int_equal(dmbench(f, "tune %s,%s --header --db %s", tuned, kept, f->db), 0);
    snprintf(path, sizeof path, "%s/variants/%s/tuned.h", f->dir, tuned);
    assert_non_null(strstr(slurp(f->out), "wrote 1 tuned value of"));
    const char *text = slurp(path);
    assert_non_null(strstr(text, "    { \"" H100 "\", \"9.0\", \"kernel\", \"block\", "
                                 "\"n=4096,op=copy,scale=0.5\", 128 },\n    { 0 },\n};\n"));
    assert_null(strstr(text, kept));
    snprintf(path, sizeof path, "%s/variants/%s/tuned.h", f->dir, kept);
    assert_string_equal(slurp(path), "untouched\n"); /* no choices: left alone */
    assert_non_null(strstr(slurp(f->out), "has no choices in"));
    /* --header takes no value */
    assert_int_equal(dmbench(f, "tune %s --header=x.h --db %s", tuned, f->db), 2);
    /* a directory where the header file is: bad input, one line, the database kept */
    snprintf(path, sizeof path, "%s/variants/%s/tuned.h", f->dir, tuned);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    struct kept ks = { 0 }; /* "kept" names a workload here */
    keep(&ks, 2, (const char *[]){ f->db, path });
    refused_keeping(f, &ks, "tuned.h: is a directory, expected a file", "tune %s --header --db %s",
                    tuned, f->db);
    kept_free(&ks);
    unsetenv("DMBENCH_VARIANTS");
}

static void expansion_fills_an_open_block_from_the_table(void **st)
{
    (void)st;
    static const char bucket[] = "n=4096,seed=1,op=copy,blocks_per_sm=0";
    dm_err err = { 0 };
    const dm_workload *w = registry_workload("membw", &err);
    const dm_tuned *entry = NULL;
    assert_non_null(w);
    for (const dm_tuned *t = w->tuned; t && t->card && !entry; t++)
        if (!strcmp(t->variant, "kernel") && !strcmp(t->bucket, bucket))
            entry = t;
    if (!entry)
        skip(); /* membw's compiled-in table has no entry to test with */
    dm_device dev = { .cc_major = 9, .max_threads_per_block = 1024, .sms = 132 };
    snprintf(dev.name, sizeof dev.name, "%s", entry->card);
    sscanf(entry->cc, "%d.%d", &dev.cc_major, &dev.cc_minor);
    dm_sweep *s;
    dm_expansion e, fixed;
    assert_int_equal(sweep_parse_string("workload: membw\ndataset: { generator: random }\n"
                                        "variants: [kernel]\naxes: { n: 4096 }\n",
                                        "t", &s, &err), 0);
    assert_int_equal(sweep_expand(s, &dev, &e, &err), 0);
    char key[256];
    const dm_point *pt = &e.points[0].point;
    tuned_bucket(pt, "block", NULL, key, sizeof key);
    assert_string_equal(key, bucket);
    assert_int_equal(dm_point_int(pt, "block"), entry->value);
    /* without a device the default stays */
    dm_expansion bare;
    assert_int_equal(sweep_expand(s, NULL, &bare, &err), 0);
    assert_int_equal(dm_point_int(&bare.points[0].point, "block"), 256);
    sweep_expansion_free(&bare);
    /* an axis that sets the block size wins over the table */
    assert_int_equal(sweep_override(s, "block=[1024]", &err), 0);
    assert_int_equal(sweep_expand(s, &dev, &fixed, &err), 0);
    assert_int_equal(dm_point_int(&fixed.points[0].point, "block"), 1024);
    sweep_expansion_free(&fixed);
    sweep_expansion_free(&e);
    sweep_free(s);
}

/* Every compiled-in choice is reachable: the point its bucket describes, built from
 * today's variant (its defaults, less the generator's parameters where the bucket's data
 * is a file, then the bucket's values), has exactly that bucket. A
 * variant that gained a parameter since its table was generated fails here, as its
 * points would no longer find their own bucket. */
static void every_compiled_in_bucket_is_a_point_of_todays_variant(void **state)
{
    (void)state;
    int rows = 0;
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        for (const dm_tuned *t = (*w)->tuned; t && t->card; t++, rows++) {
            dm_err err = { 0 };
            const dm_variant *v = registry_variant(*w, t->variant, &err);
            assert_non_null(v);
            dm_point pt;
            assert_int_equal(registry_point_defaults(*w, v, &pt, &err), 0);
            if (strstr(t->bucket, "data=") == t->bucket || strstr(t->bucket, ",data="))
                registry_point_on_file(&pt);
            char params[1024], data[256] = "", *save = NULL;
            snprintf(params, sizeof params, "%s", t->bucket);
            for (char *kv = strtok_r(params, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(kv, '=');
                assert_non_null(eq);
                *eq = '\0';
                if (strcmp(kv, "data") == 0) { /* the data file's name, last */
                    snprintf(data, sizeof data, "%s", eq + 1);
                    continue;
                }
                int i = 0;
                while (i < pt.nparams && strcmp(pt.specs[i]->name, kv) != 0)
                    i++;
                if (i == pt.nparams)
                    fail_msg("%s %s: bucket names '%s', which the variant lacks", (*w)->name,
                             t->variant, kv);
                assert_int_equal(dm_value_parse(pt.specs[i], eq + 1, &pt.values[i], &err), 0);
            }
            char bucket[1024];
            tuned_bucket(&pt, t->axis, data, bucket, sizeof bucket);
            if (strcmp(bucket, t->bucket) != 0)
                fail_msg("%s %s: compiled-in bucket\n  %s\nbut today's point is\n  %s",
                         (*w)->name, t->variant, t->bucket, bucket);
        }
    }
    assert_true(rows > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(best_block_wins_when_clearly_faster, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(points_at_a_chosen_block_are_not_candidates, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(planted_ties_go_to_the_smallest_block, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(cards_and_buckets_are_tuned_apart_newest_point_first, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(several_workloads_are_tuned_in_one_call, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(bucket_is_the_key_tune_stores_and_the_header_round_trips, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(command_writes_each_tuned_workloads_header_file, setup, teardown),
        cmocka_unit_test(expansion_fills_an_open_block_from_the_table),
        cmocka_unit_test(every_compiled_in_bucket_is_a_point_of_todays_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
