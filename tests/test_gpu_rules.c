/* test_gpu_rules.c - the rules workload's GPU variants (serial, concurrent, bitmap, and
 * multigpu on one GPU) against the CPU reference, count for count and token
 * support for token support, at block sizes 32 to 1024 and 1, 2, 4 or 32 instances a
 * coverage thread (bitmap: every instance at once and chunks of 8,192 instances):
 * synthetic tables of 1 to 2.1 million instances (odd counts, off multiples of 32, more
 * runs of a block than a grid's height), rule sets beyond one constant-memory chunk (by rules and
 * by tokens), expressions deeper than a register's stack, categorical columns from a file
 * (and the shared Abalone table when present), Poker hands; then the stages each run
 * records, measures bit for bit, and an expression longer than a chunk refused by the
 * paper's pipelines and evaluated by bitmap. Then
 * multigpu over 1 GPU, over 2 where the machine has them (said so where not) and over
 * every GPU where it has more: instance counts not divisible by the GPUs and below them,
 * both pipelines, rule sets of several chunks, categorical rules from a file, and the
 * facts of the split. Exits 77 (skip) without a GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "gpu_fixture.h"
#include "point_set.h"
#include "registry.h"
#include "rules/rl_gpu.h"
#include "rules/rl_table.h"
#include "rules/rl_workload.h"
#include "tmpdir.h"

extern const dm_workload rules_workload;

#define ABALONE DM_SOURCE_DIR "/../shared/datasets/rules/abalone.csv"

/* A block of 48 is refused (not whole warps); nothing else is. */
static const check_skip expected_skips[] = {
    {.variant = "serial", .params = "block=48", .reason = "not a multiple of 32"},
    {.variant = "concurrent", .params = "block=48", .reason = "not a multiple of 32"},
    {.variant = "bitmap", .params = "block=48", .reason = "not a multiple of 32"},
    {.variant = "multigpu", .params = "block=48", .reason = "not a multiple of 32"},
    {0},
};

/* 1 when v has a parameter called name. */
static int has(const dm_variant *v, const char *name)
{
    return registry_param(&rules_workload, v, name) != NULL;
}

/* 1 when point vp of v evaluates by bitmaps: the bitmap variant, or multigpu with the
 * bitmap pipeline (its default). */
static int by_bitmap(const dm_variant *v, const dm_point *vp)
{
    return strcmp(v->name, "bitmap") == 0 ||
           (has(v, "pipeline") && strcmp(dm_point_str(vp, "pipeline"), "bitmap") == 0);
}

/* The cpu variant's point at its defaults with settings set[0..n). */
static void point(const char *const *set, int n, dm_point *pt)
{
    point_with("rules", "cpu", set, n, pt);
}

/* Opens generator's dataset (or the file at path) for pt. */
static void open_ds(const char *generator, const char *path, const dm_point *pt, dm_dataset *ds)
{
    dm_err err = {0};
    dm_data_source src = {0};
    snprintf(src.generator, sizeof src.generator, "%s", generator ? generator : "");
    snprintf(src.path, sizeof src.path, "%s", path ? path : "");
    if (rules_workload.dataset_open(&src, pt, ds, &err))
        fail_msg("dataset %s: %s", path ? path : generator, err.msg);
}

/* Every GPU variant at each block size (blocks[0..nblocks)) and each number of instances a
 * coverage thread takes (bitmap: each chunk) on pt's problem over ds. */
static void check_blocks(gpu_fixture *f, check_cases *c, const dm_point *pt,
                         const dm_dataset *ds, const int *blocks, int nblocks)
{
    static const int per_thread[] = {1, 2, 4, 32}, chunk[] = {0, 4096};
    dm_err err = {0};
    void *ref;
    if (rules_workload.reference(ds, pt, &ref, &err))
        fail_msg("reference: %s", err.msg);
    for (const dm_variant *v = rules_workload.variants; v->name; v++) {
        if (!v->needs_gpu)
            continue;
        const int bitmap = !has(v, "per_thread");
        for (int b = 0; b < nblocks; b++)
            for (int k = 0; k < (bitmap ? 2 : 4); k++) {
                dm_point vp;
                assert_int_equal(registry_point_defaults(&rules_workload, v, &vp, &err), 0);
                copy_problem(&vp, pt);
                set_int(&vp, "block", blocks[b]);
                set_int(&vp, bitmap ? "chunk" : "per_thread", bitmap ? chunk[k] : per_thread[k]);
                check_variant(c, &f->ex, &rules_workload, v, &vp, ds, ref);
            }
    }
    rules_workload.reference_free(ref);
}

/* The block sizes every problem is tried at: 32 to 1024, powers of two and not, and 48. */
static const int all_blocks[] = {32, 48, 96, 128, 256, 512, 1024};
#define NBLOCKS ((int)(sizeof all_blocks / sizeof *all_blocks))

static void check_all(gpu_fixture *f, check_cases *c, const dm_point *pt, const dm_dataset *ds)
{
    check_blocks(f, c, pt, ds, all_blocks, NBLOCKS);
}

/* Synthetic tables of 1 to 4099 instances, 25 rules of 58 symbols (one chunk); and 2.1
 * million instances, more runs of 32 than a grid's 65,535 rows, at blocks 32 and 1024. */
static void synthetic_tables_at_odd_instance_counts(void **state)
{
    static const int64_t counts[] = {1, 2, 31, 32, 33, 63, 65, 1000, 1025, 4099};
    gpu_fixture *f = *state;
    check_cases c;
    check_begin(&c, expected_skips);
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        dm_point pt;
        dm_dataset ds;
        point(NULL, 0, &pt);
        set_int(&pt, "instances", counts[i]);
        set_int(&pt, "attributes", 4);
        set_int(&pt, "seed", 10 + (int64_t)i);
        set_int(&pt, "rule_seed", 20 + (int64_t)i);
        open_ds("synthetic", NULL, &pt, &ds);
        check_all(f, &c, &pt, &ds);
        rules_workload.dataset_close(&ds);
    }
    dm_point pt;
    dm_dataset ds;
    static const int edge_blocks[] = {32, 1024};
    point((const char *const[]){"instances=2100001", "attributes=3", "rules=4", "symbols=9"},
          4, &pt);
    open_ds("synthetic", NULL, &pt, &ds);
    check_blocks(f, &c, &pt, &ds, edge_blocks, 2);
    rules_workload.dataset_close(&ds);
    check_end(&c, "synthetic tables");
}

/* Rule sets cut into chunks: 300 rules of 2 symbols (more rules than a chunk holds), 100
 * of 58 and 3 of 1000 (more tokens), on 33 and 1000 instances, over 6 attributes; and 100
 * of 58 over one attribute (bitmap: more thresholds on a column than a segment holds). */
static void rule_sets_beyond_one_chunk(void **state)
{
    static const int64_t sets[][3] = {{300, 2, 6}, {100, 58, 6}, {3, 1000, 6}, {100, 58, 1}};
    static const int64_t counts[] = {33, 1000};
    gpu_fixture *f = *state;
    check_cases c;
    check_begin(&c, expected_skips);
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++)
        for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
            dm_point pt;
            dm_dataset ds;
            point(NULL, 0, &pt);
            set_int(&pt, "instances", counts[i]);
            set_int(&pt, "attributes", sets[s][2]);
            set_int(&pt, "rules", sets[s][0]);
            set_int(&pt, "symbols", sets[s][1]);
            set_int(&pt, "rule_seed", (int64_t)(s * 10 + i));
            open_ds("synthetic", NULL, &pt, &ds);
            check_all(f, &c, &pt, &ds);
            rules_workload.dataset_close(&ds);
        }
    check_end(&c, "rule sets beyond one chunk");
}

/* A table of n rows with numeric and categorical columns, as CSV. */
static void write_table(const char *path, int n)
{
    static const char *const colour[] = {"red", "green", "blue"};
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "x,colour,y,size,class\n");
    for (int i = 0; i < n; i++)
        fprintf(fp, "%.1f,%s,%d,%s,%d\n", (double)(i * 37 % 101) / 10.0, colour[i * 7 % 3],
                i % 13, i % 5 == 0 ? "large" : "small", i % 3);
    fclose(fp);
}

/* An antecedent of `depth` conditions nested to the right, AND and OR alternating, every
 * third negated: its RPN pushes them all before the first operator. */
static void write_deep(FILE *fp, int depth)
{
    for (int k = 0; k < depth; k++)
        fprintf(fp, "%sx > %.1f %s (", k % 3 == 2 ? "NOT " : "", (double)(k % 90) / 10.0,
                k % 2 ? "AND" : "OR");
    fprintf(fp, "colour = red");
    for (int k = 0; k < depth; k++)
        fputc(')', fp);
}

/* Rules of every kind of condition, and deep ones (70 and 400 levels of stack). */
static void write_rules(const char *path)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "IF x <= 3 AND colour = red THEN class = 1\n"
                "IF y in [1, 4] OR NOT colour = blue THEN class = 0\n"
                "IF size != small AND x >= 5 THEN NOT class < 1\n"
                "IF x < 0 THEN class = 2\n"
                "IF x > -1 THEN y >= 0\n"
                "IF (x = 3.7 OR y = 12) AND NOT size = large THEN class != 2 OR colour = green\n");
    fprintf(fp, "IF ");
    write_deep(fp, 70);
    fprintf(fp, " THEN class = 1\nIF y < 7 THEN ");
    write_deep(fp, 400);
    fprintf(fp, "\n");
    fclose(fp);
}

/* A file's categorical columns: rules from a file (deep ones too, and ones exactly as
 * deep as the registers' stack and one level deeper) and generated rules (= and != on
 * the levels) on 777 rows; the shared Abalone table when present. */
static void categorical_tables_and_deep_rules(void **state)
{
    gpu_fixture *f = *state;
    char dir[64], table[96], rules[96];
    check_cases c;
    check_begin(&c, expected_skips);
    assert_int_equal(tmpdir_make(dir, sizeof dir, "gpurules"), 0);
    snprintf(table, sizeof table, "%s/t.csv", dir);
    snprintf(rules, sizeof rules, "%s/r.txt", dir);
    write_table(table, 777);
    write_rules(rules);
    dm_point pt;
    dm_dataset ds;
    point(NULL, 0, &pt);
    set_int(&pt, "instances", 777);
    set_int(&pt, "attributes", 5);
    open_ds(NULL, table, &pt, &ds);
    set_str(&pt, "rules_file", rules);
    check_all(f, &c, &pt, &ds);
    /* the registers' deepest stack, alone in its chunk, and one level more */
    for (int depth = RL_GPU_SHALLOW; depth <= RL_GPU_SHALLOW + 1; depth++) {
        FILE *fp = fopen(rules, "w");
        assert_non_null(fp);
        fprintf(fp, "IF ");
        write_deep(fp, depth - 1); /* depth - 1 nested conditions, then one more pushed */
        fprintf(fp, " THEN class = 1\n");
        fclose(fp);
        check_all(f, &c, &pt, &ds);
    }
    set_str(&pt, "rules_file", "-");
    set_int(&pt, "rules", 60);
    check_all(f, &c, &pt, &ds);
    rules_workload.dataset_close(&ds);
    if (access(ABALONE, R_OK) == 0) {
        set_int(&pt, "instances", 4177);
        set_int(&pt, "attributes", 9);
        set_int(&pt, "rules", 50);
        open_ds(NULL, ABALONE, &pt, &ds);
        check_all(f, &c, &pt, &ds);
        rules_workload.dataset_close(&ds);
    } else {
        fprintf(stderr, "%s absent: the Abalone table not tried\n", ABALONE);
    }
    assert_int_equal(tmpdir_remove(dir), 0);
    check_end(&c, "categorical tables and deep rules");
}

static void poker_hands(void **state)
{
    gpu_fixture *f = *state;
    check_cases c;
    dm_point pt;
    dm_dataset ds;
    check_begin(&c, expected_skips);
    point((const char *const[]){"instances=5003", "attributes=11", "rules=50"}, 3, &pt);
    open_ds("poker", NULL, &pt, &ds);
    check_all(f, &c, &pt, &ds);
    rules_workload.dataset_close(&ds);
    check_end(&c, "poker hands");
}

/* 1 when a and b are the same double (NaN equal to NaN). */
static int same(double a, double b)
{
    return a == b ? signbit(a) == signbit(b) : isnan(a) && isnan(b);
}

/* The facts past the stages of a multigpu answer on n instances over gpus GPUs (nfacts of
 * them in all): the GPU count, the largest compute and transfer among the GPUs, the
 * host's sum; each GPU's slice as rl_table_slice cuts it, a GPU with instances taking
 * some time for each, an idle one none. */
static void check_split_facts(const dm_fact *facts, int nfacts, int gpus, int64_t n)
{
    assert_int_equal(nfacts, 8 + 4 + 4 * gpus);
    const dm_fact *all = facts + 8;
    static const char *const names[] = {"gpus", "compute_s", "transfer_s", "sum_s"};
    for (int k = 0; k < 4; k++) {
        assert_string_equal(all[k].group, "gpus");
        assert_string_equal(all[k].name, names[k]);
    }
    assert_int_equal((int)all[0].value, gpus);
    assert_true(all[1].value > 0 && all[2].value > 0 && all[3].value >= 0);
    for (int k = 0; k < gpus; k++) {
        const dm_fact *g = all + 4 + 4 * k;
        char group[16];
        int64_t i0, len;
        snprintf(group, sizeof group, "gpu %d", k);
        rl_table_slice(n, gpus, k, &i0, &len);
        assert_string_equal(g[0].group, group);
        assert_string_equal(g[0].name, "instances");
        assert_true(g[0].value == (double)len);
        for (int j = 1; j < 4; j++)
            if (len ? !(g[j].value > 0) : g[j].value != 0)
                fail_msg("gpu %d of %d, %lld instances: %s %g", k, gpus, (long long)len,
                         g[j].name, g[j].value);
        assert_true(g[1].value <= all[1].value && g[2].value <= all[2].value);
    }
}

/* Each GPU variant's run on 100,000 instances and 100 rules of 58 symbols (chunks):
 * its measures equal the reference's bit for bit (the compare allows RL_MEASURE_ULPS), and
 * its facts are the five stages, their sum, the total and the chunks, every time positive
 * (multigpu's, on one GPU, followed by its split); serial's stages, one after another,
 * sum to no more than its total. */
static void stages_are_timed_and_measures_exact(void **state)
{
    gpu_fixture *f = *state;
    dm_err err = {0};
    dm_point pt;
    dm_dataset ds;
    void *ref;
    point((const char *const[]){"instances=100000", "attributes=10", "rules=100"}, 3, &pt);
    open_ds("synthetic", NULL, &pt, &ds);
    assert_int_equal(rules_workload.reference(&ds, &pt, &ref, &err), 0);
    const rl_answer *want = ref;
    rl_gpu_plan plan;
    assert_null(want->stages);
    assert_int_equal(rl_gpu_plan_make(want->rs, &plan, &err), 0);
    assert_true(plan.nchunks > 1);
    dm_fact facts[DM_MAX_FACTS];
    assert_int_equal(rules_workload.facts(ref, &pt, facts, DM_MAX_FACTS), 0);
    for (const dm_variant *v = rules_workload.variants; v->name; v++) {
        if (!v->needs_gpu)
            continue;
        dm_point vp;
        void *st;
        const void *out;
        assert_int_equal(registry_point_defaults(&rules_workload, v, &vp, &err), 0);
        copy_problem(&vp, &pt);
        if (v->resolve)
            v->resolve(&vp, &f->dev); /* multigpu's open block, as a sweep gives it */
        const int bm = by_bitmap(v, &vp);
        if (bm)
            set_int(&vp, "chunk", 4096);
        if (v->setup(&f->ex, &ds, &vp, &st, &err) || v->run(st, &err) ||
            v->output(st, &out, &err))
            fail_msg("%s: %s", v->name, err.msg);
        const rl_answer *got = out;
        for (int r = 0; r < want->res.nrules; r++) {
            const rl_rule_result *p = &want->res.rule[r], *q = &got->res.rule[r];
            if (!same(p->support, q->support) || !same(p->confidence, q->confidence) ||
                !same(p->lift, q->lift) || !same(p->leverage, q->leverage) ||
                !same(p->conviction, q->conviction))
                fail_msg("%s: rule %d: a measure differs from the CPU's in its bits", v->name,
                         r + 1);
        }
        int n = rules_workload.facts(out, &vp, facts, DM_MAX_FACTS);
        static const char *const names[] = {"copy_in_s", "coverage_s", "reduction_s",
                                            "fitness_s", "copy_out_s", "stages_s",
                                            "total_s", "chunks"};
        if (v->multi_gpu)
            check_split_facts(facts, n, 1, want->res.n);
        else
            assert_int_equal(n, 8);
        for (int k = 0; k < 8; k++) {
            assert_string_equal(facts[k].group, "stages");
            assert_string_equal(facts[k].name, names[k]);
            if (!(facts[k].value > 0))
                fail_msg("%s: %s is %g", v->name, names[k], facts[k].value);
        }
        if (!bm)
            assert_int_equal((int)facts[7].value, plan.nchunks);
        else /* bitmap's chunks of instances: 100,000 in 8,192s (4,096 rounded up) */
            assert_int_equal((int)facts[7].value, 13);
        if (strcmp(v->name, "serial") == 0 && facts[5].value > facts[6].value + 1e-5)
            fail_msg("serial: its stages sum to %g s, more than its total %g s", facts[5].value,
                     facts[6].value);
        fprintf(stderr, "%s: stages %g s in a total of %g s\n", v->name, facts[5].value,
                facts[6].value);
        v->teardown(st);
    }
    rl_gpu_plan_free(&plan);
    rules_workload.reference_free(ref);
    rules_workload.dataset_close(&ds);
}

/* An expression longer than constant memory holds: setup refuses it in one line, naming
 * the rule, for each GPU variant of the paper's pipeline; bitmap and multigpu at its
 * default (the bitmap pipeline), which have no such limit, evaluate it as the reference
 * does. */
static void an_expression_longer_than_a_chunk_is_input_error(void **state)
{
    gpu_fixture *f = *state;
    char dir[64], table[96], rules[96];
    dm_err err = {0};
    dm_point pt;
    dm_dataset ds;
    assert_int_equal(tmpdir_make(dir, sizeof dir, "gpurules"), 0);
    snprintf(table, sizeof table, "%s/t.csv", dir);
    snprintf(rules, sizeof rules, "%s/r.txt", dir);
    write_table(table, 40);
    FILE *fp = fopen(rules, "w");
    assert_non_null(fp);
    fprintf(fp, "IF x < 1 THEN class = 1\nIF x < 2 THEN y > 0");
    for (int k = 0; k < RL_GPU_CHUNK_TOKENS / 2; k++)
        fprintf(fp, " OR y > %d", k);
    fprintf(fp, "\n");
    fclose(fp);
    point(NULL, 0, &pt);
    open_ds(NULL, table, &pt, &ds);
    set_str(&pt, "rules_file", rules);
    for (const dm_variant *v = rules_workload.variants; v->name; v++) {
        if (!v->needs_gpu)
            continue;
        dm_point vp;
        void *st = NULL;
        assert_int_equal(registry_point_defaults(&rules_workload, v, &vp, &err), 0);
        copy_problem(&vp, &pt);
        if (v->resolve)
            v->resolve(&vp, &f->dev);
        if (by_bitmap(v, &vp)) {
            check_cases c;
            void *ref;
            check_begin(&c, NULL);
            assert_int_equal(rules_workload.reference(&ds, &pt, &ref, &err), 0);
            check_variant(&c, &f->ex, &rules_workload, v, &vp, &ds, ref);
            rules_workload.reference_free(ref);
            char what[96];
            snprintf(what, sizeof what, "%s on an expression longer than a chunk", v->name);
            check_end(&c, what);
            continue;
        }
        assert_int_equal(v->setup(&f->ex, &ds, &vp, &st, &err), DM_EINPUT);
        assert_string_equal(err.msg, "rule 2: its consequent has 1249 tokens, more than the "
                                     "1248 the GPU's constant memory holds");
        assert_null(st);
    }
    rules_workload.dataset_close(&ds);
    assert_int_equal(tmpdir_remove(dir), 0);
}

/* ---- multigpu over several GPUs ----------------------------------------------------- */

/* The GPU counts multigpu is tried at: 1, 2 where there are two GPUs (said so where
 * not), and every GPU where there are more; into counts, returning how many. */
static int gpu_counts(int *counts)
{
    int ndev = 0, n = 0;
    assert_int_equal(cudaGetDeviceCount(&ndev), cudaSuccess);
    counts[n++] = 1;
    if (ndev < 2)
        fprintf(stderr, "test_gpu_rules: one GPU here: multigpu over 2 GPUs not tried\n");
    else
        counts[n++] = 2;
    if (ndev > 2)
        counts[n++] = ndev < DM_MAX_GPUS ? ndev : DM_MAX_GPUS;
    return n;
}

/* The fixture's context over the first gpus GPUs: the fixture's device and stream first,
 * the others' properties in devs, listed in list. */
static void multi_exec(const gpu_fixture *f, int gpus, dm_device *devs, const dm_device **list,
                       dm_exec *ex)
{
    dm_err err = {0};
    list[0] = &f->dev;
    for (int k = 1; k < gpus; k++) {
        if (device_query(k, &devs[k], &err))
            fail_msg("device %d: %s", k, err.msg);
        list[k] = &devs[k];
    }
    *ex = (dm_exec){.device = &f->dev, .stream = f->stream, .gpus = list, .ngpus = gpus};
}

/* multigpu over ex's GPUs (all of them) on pt's problem over ds: each pipeline at blocks
 * 32 and 256 (bitmap in chunks of 8,192 instances). */
static void check_multigpu(check_cases *c, const dm_exec *ex, const dm_point *pt,
                           const dm_dataset *ds)
{
    static const char *const pipelines[] = {"serial", "concurrent", "bitmap"};
    static const int blocks[] = {32, 256};
    const dm_variant *v = registry_variant(&rules_workload, "multigpu", NULL);
    dm_err err = {0};
    void *ref;
    assert_non_null(v);
    if (rules_workload.reference(ds, pt, &ref, &err))
        fail_msg("reference: %s", err.msg);
    for (int p = 0; p < 3; p++)
        for (int b = 0; b < 2; b++) {
            dm_point vp;
            assert_int_equal(registry_point_defaults(&rules_workload, v, &vp, &err), 0);
            copy_problem(&vp, pt);
            set_int(&vp, "gpus", ex->ngpus);
            set_int(&vp, "block", blocks[b]);
            set_str(&vp, "pipeline", pipelines[p]);
            set_int(&vp, "chunk", 4096);
            check_variant(c, ex, &rules_workload, v, &vp, ds, ref);
        }
    rules_workload.reference_free(ref);
}

/* multigpu over 1 GPU, 2 and every GPU against the reference: synthetic tables whose
 * instances the GPUs do not divide, fewer instances than GPUs (GPUs left idle), rule sets
 * of several chunks from 1001 instances on; a file's categorical columns with rules from
 * a file, deep ones among them. */
static void multigpu_over_the_gpus_matches_the_reference(void **state)
{
    static const int64_t counts[] = {1, 2, 3, 31, 33, 1001, 4099, 100003};
    gpu_fixture *f = *state;
    int gpus[3];
    const int ngpus = gpu_counts(gpus);
    char dir[64], table[96], rules[96];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "gpurules"), 0);
    snprintf(table, sizeof table, "%s/t.csv", dir);
    snprintf(rules, sizeof rules, "%s/r.txt", dir);
    write_table(table, 777);
    write_rules(rules);
    for (int g = 0; g < ngpus; g++) {
        dm_device devs[DM_MAX_GPUS];
        const dm_device *list[DM_MAX_GPUS];
        dm_exec ex;
        check_cases c;
        char what[64];
        multi_exec(f, gpus[g], devs, list, &ex);
        check_begin(&c, NULL);
        for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
            dm_point pt;
            dm_dataset ds;
            point(NULL, 0, &pt);
            set_int(&pt, "instances", counts[i]);
            set_int(&pt, "attributes", 5);
            set_int(&pt, "seed", 30 + (int64_t)i);
            set_int(&pt, "rule_seed", 40 + (int64_t)i);
            set_int(&pt, "rules", counts[i] > 1000 ? 100 : 25);
            open_ds("synthetic", NULL, &pt, &ds);
            check_multigpu(&c, &ex, &pt, &ds);
            rules_workload.dataset_close(&ds);
        }
        dm_point pt;
        dm_dataset ds;
        point(NULL, 0, &pt);
        set_int(&pt, "instances", 777);
        set_int(&pt, "attributes", 5);
        open_ds(NULL, table, &pt, &ds);
        set_str(&pt, "rules_file", rules);
        check_multigpu(&c, &ex, &pt, &ds);
        rules_workload.dataset_close(&ds);
        snprintf(what, sizeof what, "multigpu over %d GPUs", gpus[g]);
        check_end(&c, what);
    }
    assert_int_equal(tmpdir_remove(dir), 0);
}

/* multigpu over 1 GPU, 2 and every GPU: on 100,003 instances and 100 rules, its measures
 * equal the reference's bit for bit and its facts give each GPU its slice and its times
 * (at its defaults: the bitmap pipeline, its block resolved for the card);
 * on 1 instance, every GPU but the first idle, with no time. */
static void multigpu_facts_give_each_gpu_its_slice(void **state)
{
    static const int64_t counts[] = {100003, 1};
    gpu_fixture *f = *state;
    int gpus[3];
    const int ngpus = gpu_counts(gpus);
    const dm_variant *v = registry_variant(&rules_workload, "multigpu", NULL);
    assert_non_null(v);
    for (int g = 0; g < ngpus; g++)
        for (int i = 0; i < 2; i++) {
            dm_device devs[DM_MAX_GPUS];
            const dm_device *list[DM_MAX_GPUS];
            dm_exec ex;
            dm_err err = {0};
            dm_point pt, vp;
            dm_dataset ds;
            dm_fact facts[DM_MAX_FACTS];
            void *ref, *st;
            const void *out;
            multi_exec(f, gpus[g], devs, list, &ex);
            point((const char *const[]){"attributes=10", "rules=100"}, 2, &pt);
            set_int(&pt, "instances", counts[i]);
            open_ds("synthetic", NULL, &pt, &ds);
            assert_int_equal(rules_workload.reference(&ds, &pt, &ref, &err), 0);
            assert_int_equal(registry_point_defaults(&rules_workload, v, &vp, &err), 0);
            copy_problem(&vp, &pt);
            set_int(&vp, "gpus", gpus[g]);
            v->resolve(&vp, &f->dev); /* its open block, as a sweep gives it */
            if (v->setup(&ex, &ds, &vp, &st, &err) || v->run(st, &err) ||
                v->output(st, &out, &err))
                fail_msg("multigpu over %d GPUs: %s", gpus[g], err.msg);
            const rl_answer *want = ref, *got = out;
            for (int r = 0; r < want->res.nrules; r++) {
                const rl_rule_result *p = &want->res.rule[r], *q = &got->res.rule[r];
                if (!same(p->support, q->support) || !same(p->confidence, q->confidence) ||
                    !same(p->lift, q->lift) || !same(p->leverage, q->leverage) ||
                    !same(p->conviction, q->conviction))
                    fail_msg("multigpu over %d GPUs: rule %d: a measure differs from the "
                             "CPU's in its bits", gpus[g], r + 1);
            }
            check_split_facts(facts, rules_workload.facts(out, &vp, facts, DM_MAX_FACTS),
                              gpus[g], counts[i]);
            fprintf(stderr, "multigpu over %d GPUs, %lld instances: compute %g s, transfer "
                    "%g s, sum %g s\n", gpus[g], (long long)counts[i], facts[9].value,
                    facts[10].value, facts[11].value);
            v->teardown(st);
            rules_workload.reference_free(ref);
            rules_workload.dataset_close(&ds);
        }
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_rules: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(synthetic_tables_at_odd_instance_counts),
        cmocka_unit_test(rule_sets_beyond_one_chunk),
        cmocka_unit_test(categorical_tables_and_deep_rules),
        cmocka_unit_test(poker_hands),
        cmocka_unit_test(stages_are_timed_and_measures_exact),
        cmocka_unit_test(an_expression_longer_than_a_chunk_is_input_error),
        cmocka_unit_test(multigpu_over_the_gpus_matches_the_reference),
        cmocka_unit_test(multigpu_facts_give_each_gpu_its_slice),
    };
    gpu_test_filter();
    return cmocka_run_group_tests(tests, setup, teardown);
}
