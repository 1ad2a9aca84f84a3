/* test_tune.c - `dmbench tune` on fixture databases with a known best block size and
 * planted ties, the lookup with its fallbacks, and the sweep expansion filling an open
 * block size from the compiled-in table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "registry.h"
#include "sweep.h"
#include "tune.h"
#include "tuned.h"

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

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    tune_write_header(&r, &opts, "fixture", out);
    fclose(out);
    assert_non_null(strstr(text, "runs 1 2 3"));
    assert_non_null(strstr(text, "{ \"NVIDIA H200\", \"9.0\", \"toy\", \"kernel\", \"block\", "
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
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    tune_write_header(&r, &both, "fixture", out);
    fclose(out);
    assert_non_null(strstr(text, "`dmbench tune toy,other --axis block`"));
    assert_non_null(strstr(text, "\"9.0\", \"other\", \"kernel\""));
    assert_non_null(strstr(text, "\"9.0\", \"toy\", \"kernel\""));
    free(text);
    tune_free(&r);
    assert_int_equal(tune_compute(f->st, &opts, &r, &err), 0); /* toy alone */
    assert_int_equal(r.n, 1);
    tune_free(&r);
}

static const dm_tuned table[] = {
    { "NVIDIA H100 80GB HBM3", "9.0", "w", "k", "block", "n=1", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "w", "k", "block", "n=2", 256 },
    { "NVIDIA H100 80GB HBM3", "9.0", "w", "k", "block", "n=3", 256 },
    { "NVIDIA A100", "8.0", "w", "k", "block", "n=1", 512 },
    { 0 },
};

static void lookup_falls_back_from_bucket_to_card_to_family(void **st)
{
    (void)st;
    dm_device h100 = { .cc_major = 9, .cc_minor = 0 }, h200 = h100, v100 = { .cc_major = 7 };
    strcpy(h100.name, H100);
    strcpy(h200.name, "NVIDIA H200");
    strcpy(v100.name, "Tesla V100");
    int64_t v;
    const char *how;
    assert_true(tuned_lookup(table, &h100, "w", "k", "block", "n=1", &v, &how));
    assert_int_equal(v, 128);
    assert_string_equal(how, "card and bucket");
    assert_true(tuned_lookup(table, &h100, "w", "k", "block", "n=9", &v, &how));
    assert_int_equal(v, 256); /* the card's most frequent choice */
    assert_string_equal(how, "card");
    assert_true(tuned_lookup(table, &h200, "w", "k", "block", "n=1", &v, &how));
    assert_int_equal(v, 256);
    assert_string_equal(how, "architecture family");
    assert_false(tuned_lookup(table, &v100, "w", "k", "block", "n=1", &v, &how));
    assert_false(tuned_lookup(table, &h100, "w", "other", "block", "n=1", &v, &how));
}

static void expansion_fills_an_open_block_from_the_table(void **st)
{
    (void)st;
    const dm_tuned *t = tuned_table();
    const dm_tuned *entry = NULL;
    for (; t->card && !entry; t++)
        if (!strcmp(t->workload, "membw") && !strcmp(t->variant, "kernel"))
            entry = t;
    if (!entry)
        skip(); /* the compiled-in table has no membw entry to test with */
    dm_device dev = { .cc_major = 9, .max_threads_per_block = 1024, .sms = 132 };
    snprintf(dev.name, sizeof dev.name, "%s", entry->card);
    sscanf(entry->cc, "%d.%d", &dev.cc_major, &dev.cc_minor);
    dm_sweep *s;
    dm_expansion e, fixed;
    dm_err err = { 0 };
    assert_int_equal(sweep_parse_string("workload: membw\ndataset: { generator: random }\n"
                                        "variants: [kernel]\naxes: { n: 4096 }\n",
                                        "t", &s, &err), 0);
    assert_int_equal(sweep_expand(s, &dev, &e, &err), 0);
    int64_t want;
    const char *how;
    char bucket[256];
    const dm_point *pt = &e.points[0].point;
    snprintf(bucket, sizeof bucket, "n=4096,seed=1,op=copy,blocks_per_sm=0");
    assert_true(tuned_lookup(tuned_table(), &dev, "membw", "kernel", "block", bucket, &want, &how));
    assert_int_equal(dm_point_int(pt, "block"), want);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(best_block_wins_when_clearly_faster, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(planted_ties_go_to_the_smallest_block, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(cards_and_buckets_are_tuned_apart_newest_point_first, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(several_workloads_are_tuned_in_one_call, afx_setup, afx_teardown),
        cmocka_unit_test(lookup_falls_back_from_bucket_to_card_to_family),
        cmocka_unit_test(expansion_fills_an_open_block_from_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
