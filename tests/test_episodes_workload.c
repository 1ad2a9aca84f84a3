/* test_episodes_workload.c - the episodes workload through its contract: a Sym26 point's
 * candidates, the reference and the result; the chains embedded in Sym26 come out as
 * its most frequent level-2 episodes; level-wise mining (support > 0) by the reference
 * and the CPU variants, the comparison's messages; the CSV a user gets (`dmbench mine
 * episodes`); a mining sweep's facts per level in the database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "cli_fixture.h"
#include "kept.h"
#include "point_set.h"
#include "episodes/ep_workload.h"
#include "registry.h"

/* The episodes workload's point for variant `variant`, with "name=value" settings. */
static void variant_point(const char *variant, dm_point *pt, const char *const *set, int n)
{
    point_with("episodes", variant, set, n, pt);
}

/* The same for variant cpu. */
static void point(dm_point *pt, const char *const *set, int n)
{
    variant_point("cpu", pt, set, n);
}

/* cpu's point with set, the Sym26 stream it makes into ds and its reference into *ref. */
static void open_sym26(dm_point *pt, const char *const *set, int n, dm_dataset *ds,
                       void **ref)
{
    dm_data_source src = { .generator = "sym26" };
    dm_err err = { 0 };
    point(pt, set, n);
    assert_int_equal(ep_dataset_open(&src, pt, ds, &err), 0);
    assert_int_equal(ep_reference(ds, pt, ref, &err), 0);
}

static void candidates_are_every_episode_of_the_level_in_type_order(void **state)
{
    (void)state;
    char names[3][EP_NAME_MAX] = { "a", "b", "c" };
    ep_stream s = { .ntypes = 3, .names = names };
    dm_point pt;
    const char *set[] = { "level=3", "gap_lo_ms=1", "gap_hi_ms=2.5" };
    point(&pt, set, 3);
    ep_episode *e;
    int64_t n;
    dm_err err = { 0 };
    assert_int_equal(ep_candidates(&s, &pt, &e, &n, &err), 0);
    assert_int_equal(n, 27);
    char buf[64];
    ep_episode_format(&s, &e[0], buf, sizeof buf);
    assert_string_equal(buf, "a -> a -> a");
    ep_episode_format(&s, &e[5], buf, sizeof buf); /* 0,1,2 */
    assert_string_equal(buf, "a -> b -> c");
    ep_episode_format(&s, &e[26], buf, sizeof buf);
    assert_string_equal(buf, "c -> c -> c");
    assert_true(e[5].lo[1] == 1e-3 && e[5].hi[1] == 2.5e-3);
    free(e);

    const char *some[] = { "level=3", "count=4" };
    point(&pt, some, 2);
    assert_int_equal(ep_candidates(&s, &pt, &e, &n, &err), 0);
    assert_int_equal(n, 4);
    free(e);

    s.ntypes = 64; /* 64^5 episodes: too many without count */
    const char *many[] = { "level=5" };
    point(&pt, many, 1);
    assert_int_equal(ep_candidates(&s, &pt, &e, &n, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "set count"));
}

/* The chains Sym26 embeds are its most frequent pairs: every link of both chains counts
 * more than every pair of neurons that is not a link. */
static void sym26_chains_are_its_most_frequent_level_2_episodes(void **state)
{
    (void)state;
    dm_point pt;
    const char *set[] = { "level=2" };
    dm_dataset ds;
    void *ref;
    open_sym26(&pt, set, 1, &ds, &ref);
    const ep_data *d = ds.data;
    const ep_result *r = ref;
    assert_int_equal(d->nchains, 2);
    assert_int_equal(r->n, 26 * 26);
    int64_t weakest_link = INT64_MAX, strongest_other = 0;
    for (int64_t i = 0; i < r->n; i++) {
        int link = 0;
        for (int c = 0; c < d->nchains; c++)
            for (int k = 0; k + 1 < d->chains[c].n; k++)
                link |= r->eps[i].ev[0] == d->chains[c].type[k] &&
                        r->eps[i].ev[1] == d->chains[c].type[k + 1];
        if (link && r->counts[i] < weakest_link)
            weakest_link = r->counts[i];
        if (!link && r->counts[i] > strongest_other)
            strongest_other = r->counts[i];
    }
    print_message("sym26: weakest chain link %lld, strongest other pair %lld\n",
                  (long long)weakest_link, (long long)strongest_other);
    assert_true(weakest_link > strongest_other);
    ep_reference_free(ref);
    ep_dataset_close(&ds);
}

/* Runs variant v once at pt on ds; *state and *out as its setup and output give them. */
static void run_variant(const char *variant, const dm_dataset *ds, const dm_point *pt,
                        void **vstate, const ep_result **out)
{
    dm_err err = { 0 };
    const dm_variant *v = registry_variant(pt->workload, variant, &err);
    dm_exec ex = { 0 };
    char why[256];
    assert_int_equal(v->supports(pt, NULL, why, sizeof why), 0);
    assert_int_equal(v->setup(&ex, ds, pt, vstate, &err), 0);
    assert_int_equal(v->run(*vstate, &err), 0);
    assert_int_equal(v->run(*vstate, &err), 0); /* a second run gives the same */
    const void *o;
    assert_int_equal(v->output(*vstate, &o, &err), 0);
    *out = o;
}

/* support > 0: the reference is ep_mine with Algorithm 1 (the frequent episodes of every
 * level, with the levels), and cpu, cpu-mt and cpu-twopass find the same (two-pass with
 * its survivors of PreElim counted per level). */
static void support_mines_level_wise(void **state)
{
    (void)state;
    dm_point pt;
    const char *set[] = { "support=150", "level=4", "seconds=20" };
    dm_dataset ds;
    dm_err err = { 0 };
    void *ref;
    open_sym26(&pt, set, 3, &ds, &ref);
    const ep_data *d = ds.data;
    const ep_result *r = ref;
    ep_mine_spec spec;
    assert_int_equal(ep_point_mine_spec(&pt, &spec, &err), 0);
    ep_count_ctx ctx = { .s = &d->s, .iv = EP_OPEN_CLOSED };
    ep_mine_result m;
    assert_int_equal(ep_mine(&d->s, &spec, ep_count_cb, &ctx, &m, &err), 0);
    assert_true(m.n > 26);
    assert_int_equal(r->n, m.n);
    assert_int_equal(r->nlevels, 4);
    for (int64_t i = 0; i < m.n; i++) {
        assert_int_equal(ep_episode_cmp(&r->eps[i], &m.eps[i]), 0);
        assert_int_equal(r->counts[i], m.counts[i]);
        assert_true(r->counts[i] >= 150);
    }
    assert_int_equal(r->eps[r->n - 1].n, 4);
    for (int l = 0; l < 4; l++)
        assert_int_equal(r->levels[l].frequent, m.levels[l].frequent);
    /* the facts: per level candidates, frequent and the phases' times (no bound ran) */
    dm_fact facts[DM_MAX_FACTS];
    assert_int_equal(ep_facts(r, &pt, facts, DM_MAX_FACTS), 4 * 4);
    assert_string_equal(facts[12].group, "level 4");
    assert_string_equal(facts[12].name, "candidates");
    assert_true(facts[12].value == (double)m.levels[3].candidates);
    assert_string_equal(facts[13].name, "frequent");
    assert_true(facts[13].value == (double)m.levels[3].frequent);
    assert_string_equal(facts[15].name, "count_s");
    assert_string_equal(facts[15].unit, "s");
    assert_true(facts[15].value > 0);
    assert_int_equal(ep_facts(r, &pt, facts, 5), 5);
    const char *variants[] = { "cpu", "cpu-mt", "cpu-twopass" };
    for (int i = 0; i < 3; i++) {
        dm_point vp;
        variant_point(variants[i], &vp, set, 3);
        void *vs;
        const ep_result *out;
        char why[512] = "";
        run_variant(variants[i], &ds, &vp, &vs, &out);
        assert_int_equal(ep_compare(ref, out, &vp, why, sizeof why), 0);
        assert_int_equal(out->nlevels, 4);
        assert_int_equal(out->levels[3].candidates, m.levels[3].candidates);
        if (i < 2) {
            assert_int_equal(out->levels[3].survivors, -1);
        } else { /* every frequent episode survives the bound, some others do not */
            for (int l = 0; l < 4; l++)
                assert_true(out->levels[l].survivors >= m.levels[l].frequent &&
                            out->levels[l].survivors <= m.levels[l].candidates);
            assert_true(out->levels[2].survivors < m.levels[2].candidates);
        }
        vp.variant->teardown(vs);
    }
    ep_mine_result_free(&m);
    ep_reference_free(ref);
    ep_dataset_close(&ds);

    /* count picks episodes of a level, which mining does not do */
    const char *both[] = { "support=3", "count=5" };
    point(&pt, both, 2);
    char why[256];
    assert_int_not_equal(ep_point_check(&pt, why, sizeof why), 0);
    assert_string_equal(why, "count 5 with support 3: mining counts every candidate of a "
                             "level; count is for support 0");
}

/* ep_compare names the first difference: an episode, a count, one missing, one extra. */
/* The work of an execution: the stream's events times the episodes counted, or mining,
 * times every level's candidates. */
static void work_is_events_times_episodes(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset ds;
    void *ref;
    dm_work w;
    const char *count[] = { "level=2", "count=100", "seconds=5" };
    open_sym26(&pt, count, 3, &ds, &ref);
    const double events = (double)((const ep_data *)ds.data)->s.n;
    ep_work(&pt, &ds, ref, &w);
    assert_true(events > 1000);
    assert_true(w.ops == events * 100);
    assert_string_equal(w.ops_unit, "event-episodes");
    assert_true(w.bytes == 0);
    ep_reference_free(ref);
    ep_dataset_close(&ds);
    const char *mine[] = { "support=150", "level=4", "seconds=5" };
    open_sym26(&pt, mine, 3, &ds, &ref);
    const ep_result *r = ref;
    double candidates = 0;
    for (int l = 0; l < r->nlevels; l++)
        candidates += (double)r->levels[l].candidates;
    ep_work(&pt, &ds, ref, &w);
    assert_true(candidates > 26);
    assert_true(w.ops == (double)r->s->n * candidates);
    ep_reference_free(ref);
    ep_dataset_close(&ds);
}

static void compare_names_the_first_difference(void **state)
{
    (void)state;
    char names[3][EP_NAME_MAX] = { "a", "b", "c" };
    ep_stream s = { .ntypes = 3, .names = names };
    ep_episode want[3] = { { .n = 1, .ev = { 0 } }, { .n = 2, .ev = { 0, 1 } },
                           { .n = 2, .ev = { 1, 2 } } };
    ep_episode other[3] = { want[0], { .n = 2, .ev = { 0, 2 } }, want[2] };
    int64_t counts[3] = { 9, 5, 4 }, off[3] = { 9, 5, 3 };
    ep_result r = { .s = &s, .eps = want, .n = 3, .counts = counts };
    struct {
        ep_result o;
        const char *says;
    } cases[] = {
        { { .s = &s, .eps = other, .n = 3, .counts = counts },
          "expected episode a -> b (#1), got episode a -> c (#1)" },
        { { .s = &s, .eps = want, .n = 3, .counts = off },
          "episode b -> c (#2) of 3: expected count 4, got 3" },
        { { .s = &s, .eps = want, .n = 2, .counts = counts },
          "2 episodes, expected 3: episode b -> c (#2) missing" },
    };
    char why[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(ep_compare(&r, &cases[i].o, NULL, why, sizeof why), 1);
        assert_string_equal(why, cases[i].says);
    }
    r.n = 2;
    assert_int_equal(ep_compare(&r, &cases[1].o, NULL, why, sizeof why), 1);
    assert_string_equal(why, "3 episodes, expected 2: episode b -> c (#2) extra");
    assert_int_equal(ep_compare(&r, &cases[2].o, NULL, why, sizeof why), 0);
}

static void mine_writes_episode_level_count_rows(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "mine episodes --variant cpu-mt -p level=1 -p seconds=5 "
                                "--out %s/e.csv", f->dir), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/e.csv", f->dir);
    const char *csv = slurp(path);
    assert_true(strncmp(csv, "episode,level,count\nA,1,", 24) == 0);
    assert_int_equal(count_lines(csv), 27);
    assert_int_equal(dmbench(f, "mine episodes --variant cpu -p gap_lo_ms=7 -p gap_hi_ms=6"), 2);
    assert_non_null(strstr(slurp(f->errf), "gap_lo_ms 7 is above gap_hi_ms 6"));

    /* mining: the frequent episodes of levels 1 to 3, verified against the reference,
     * and with --facts how each level went */
    assert_int_equal(dmbench(f, "mine episodes --variant cpu-mt -p support=100 -p level=3 "
                                "-p seconds=10 --facts --out %s/e.csv", f->dir), 0);
    const char *said = slurp(f->errf);
    assert_non_null(strstr(said, "# level 1: candidates 26, frequent "));
    assert_non_null(strstr(said, "# level 3: candidates "));
    assert_non_null(strstr(said, " s, count_s "));
    csv = slurp(path);
    assert_true(strncmp(csv, "episode,level,count\nA,1,", 24) == 0);
    assert_non_null(strstr(csv, ",2,"));
    assert_non_null(strstr(csv, ",3,"));
    assert_null(strstr(csv, ",4,"));
}

/* Writes text to dir/name (cli_fixture's write_file); the path goes into path. */
static void write_in(const char *dir, const char *name, const char *text, char *path,
                     size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    write_file(path, text);
}

/* The count of the one row an episodes file of one episode gives, -1 on a failed run. */
static int64_t one_count(fixture *f, const char *args)
{
    char out[160];
    snprintf(out, sizeof out, "%s/one.csv", f->dir);
    if (dmbench(f, "mine episodes --variant cpu %s --out %s", args, out) != 0)
        return -1;
    const char *csv = slurp(out);
    const char *comma = strrchr(csv, ',');
    assert_non_null(comma);
    return strtoll(comma + 1, NULL, 10);
}

/* `dmbench mine episodes` with its own flags: an episodes file counted with a gap for
 * every link or one per link; each interval kind and precision on the bounds (the
 * times from test_gap_on_bounds_by_precision, through the CSV loader); mining with
 * --support and --level, and with --links any (names then show the intervals). */
static void mine_flags_count_an_episodes_file_or_mine(void **state)
{
    fixture *f = *state;
    char eps[160], eps2[160], data[160], path[160];
    write_in(f->dir, "e.txt", "A -> B\nA -> A -> B\n", eps, sizeof eps);
    write_in(f->dir, "e2.txt", "A -> B -> C\nB -> C -> A\n", eps2, sizeof eps2);
    assert_int_equal(dmbench(f, "mine episodes --variant cpu-mt -p seconds=10 --episodes %s "
                                "--gap 4:6 --out %s/e.csv", eps, f->dir), 0);
    snprintf(path, sizeof path, "%s/e.csv", f->dir);
    assert_string_equal(slurp(path), "episode,level,count\nA -> B,2,20\nA -> A -> B,3,0\n");
    assert_int_equal(dmbench(f, "mine episodes --variant cpu -p seconds=10 --episodes %s "
                                "--gap 4:6 --gap 2:5 --interval closed --time-precision float "
                                "--out %s/e.csv", eps2, f->dir), 0);
    assert_int_equal(count_lines(slurp(path)), 3);

    const struct {
        const char *csv, *flags;
        int64_t count;
    } bounds[] = {
        { "A,0.010\nB,0.016\n", "", 1 }, /* on hi in double */
        { "A,0.010\nB,0.016\n", "--time-precision float", 0 },
        { "A,0.015\nB,0.021\n", "", 0 }, /* on hi in float */
        { "A,0.015\nB,0.021\n", "--time-precision float", 1 },
        { "A,0.003\nB,0.007\n", "", 0 }, /* on lo in both */
        { "A,0.003\nB,0.007\n", "--interval closed", 1 },
        { "A,0.003\nB,0.007\n", "--interval closed --time-precision float", 1 },
        { "A,0.001\nB,0.005\n", "--interval closed", 1 }, /* on lo in double */
        { "A,0.001\nB,0.005\n", "--interval closed --time-precision float", 0 },
    };
    write_in(f->dir, "ab.txt", "A -> B\n", eps, sizeof eps);
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        char args[512];
        write_in(f->dir, "d.csv", bounds[i].csv, data, sizeof data);
        snprintf(args, sizeof args, "--data %s --episodes %s --gap 4:6 %s", data, eps,
                 bounds[i].flags);
        if (one_count(f, args) != bounds[i].count)
            fail_msg("%s with %s: expected %lld; %s", bounds[i].csv, bounds[i].flags,
                     (long long)bounds[i].count, slurp(f->errf));
    }

    assert_int_equal(dmbench(f, "mine episodes --variant cpu -p seconds=10 --support 100 "
                                "--level 3 --gap 4:6 --gap 2:5 --links any --out %s/e.csv",
                             f->dir), 0);
    const char *csv = slurp(path);
    assert_non_null(strstr(csv, "\nQ -(4:6]-> Z,2,"));
    assert_non_null(strstr(csv, "\nA -(2:5]-> Q,2,276\n"));
    assert_non_null(strstr(csv, "]-> A -(2:5]-> "));
    for (const char *line = csv; *line; line = strchr(line, '\n') + 1) {
        int commas = 0;
        for (const char *c = line; *c != '\n'; c++)
            commas += *c == ',';
        assert_int_equal(commas, 2);
    }
    assert_int_equal(dmbench(f, "mine episodes --variant cpu -p seconds=10 --support 100 "
                                "--level 3 --gap 4:6 --gap 2:5 --out %s/e.csv", f->dir), 0);
    csv = slurp(path);
    assert_non_null(strstr(csv, ",3,"));
    assert_null(strstr(csv, "]-> "));
}

/* Bad flags: a one-line error, exit 2, no output file. */
static void mine_flags_refuse_bad_input(void **state)
{
    fixture *f = *state;
    char eps[160], out[160];
    write_in(f->dir, "e.txt", "A -> B -> C\nB -> C\n", eps, sizeof eps);
    snprintf(out, sizeof out, "%s/bad.csv", f->dir);
    const struct {
        const char *args, *says;
    } bad[] = {
        { "--episodes E --gap 4:6 --gap 2:5", "e.txt:2: an episode of 1 link, and 2 gap "
                                              "intervals are given, one per link" },
        { "--gap 4-6", "gaps=4-6: expected LO:HI in ms, ';' between them" },
        { "--gap 6:4", "gaps=6:4: gap 1 (6:4) must have 0 <= LO <= HI" },
        { "--level 3 --gap 4:6 --gap 2:5 --gap 1:2", "level 3 has 2 links, and 3 gap "
                                                     "intervals are given, one per link" },
        { "--support 10 --level 4 --gap 4:6 --gap 2:5", "level 4 has 3 links, and 2 gap "
                                                        "intervals are given, one per link" },
        { "--support 10 --gap 4:6 --gap 4:6 --links any", "gap interval (4, 6] ms given "
                                                          "twice" },
        { "--episodes E --support 3", "an episodes file with support" },
        { "--time-precision half", "precision=half: expected one of double|float" },
        { "--support 3 --support 4", "at most 1 --support" },
        { "--gap 4:6 --gap 2:5 --links any", "links=any is for mining" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[256];
        const char *e = strstr(bad[i].args, " E ") ? strstr(bad[i].args, " E ") : NULL;
        if (e)
            snprintf(args, sizeof args, "%.*s %s%s", (int)(e - bad[i].args), bad[i].args, eps,
                     e + 2);
        else
            snprintf(args, sizeof args, "%s", bad[i].args);
        assert_int_equal(dmbench(f, "mine episodes --variant cpu -p seconds=5 %s --out %s",
                                 args, out), 2);
        const char *msg = slurp(f->errf);
        if (!strstr(msg, bad[i].says) || count_lines(msg) != 1)
            fail_msg("%s: '%s', expected one line with '%s'", args, msg, bad[i].says);
        assert_false(exists(out));
    }
    /* a workload's name as an option's value, before the workload: the flags would be
     * the wrong workload's */
    assert_int_equal(dmbench(f, "mine --generator episodes membw --variant cpu"), 2);
    assert_non_null(strstr(slurp(f->errf), "give the workload 'membw' before it"));
}

/* A recording's points have none of the generator's parameters (seconds, basal_hz, seed,
 * neurons); a sweep axis or a -p that sets one on a file is refused, naming the file. */
static void a_recording_has_no_generator_parameters(void **state)
{
    fixture *f = *state;
    char csv[160], sweep[160], out[160];
    write_in(f->dir, "r.csv", "a,0.001\nb,0.006\na,0.010\nb,0.015\n", csv, sizeof csv);
    snprintf(sweep, sizeof sweep, "%s/rec.yaml", f->dir);
    snprintf(out, sizeof out, "%s/rec.csv", f->dir);
    write_file(sweep, "name: rec\nworkload: episodes\ndataset: { path: r.csv }\n"
                      "variants: [cpu]\naxes:\n  level: 2\n"
                      "measure: { mode: hot, min_samples: 2, max_time: 0.2 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s", sweep, f->db), 0);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM points WHERE status = 'ok' AND"
                                   " params NOT LIKE '%%seconds=%%' AND params NOT LIKE"
                                   " '%%neurons=%%' AND params NOT LIKE '%%seed=%%' AND"
                                   " problem_key NOT LIKE '%%basal_hz=%%'"), 1);
    assert_int_equal(dmbench(f, "run %s --db %s -a neurons=64", sweep, f->db), 2);
    const char *msg = slurp(f->errf);
    assert_non_null(strstr(msg, "axis 'neurons' describes generated data (sym26: neurons"));
    assert_non_null(strstr(msg, "the dataset is the file "));
    assert_int_equal(count_lines(msg), 1);
    assert_int_equal(dmbench(f, "mine episodes --variant cpu -p level=2 -p seed=3 --data %s"
                                " --out %s", csv, out), 2);
    msg = slurp(f->errf);
    assert_non_null(strstr(msg, "parameter 'seed' describes generated data (sym26: seed of "
                                "the generator); the data is the file "));
    assert_int_equal(count_lines(msg), 1);
    assert_false(exists(out));
    assert_int_equal(dmbench(f, "mine episodes --variant cpu -p level=2 --data %s --out %s",
                             csv, out), 0);
    assert_non_null(strstr(slurp(out), "a -> b,2,2\n"));
}

/* The GPU variants keep each machine's lists in shared memory: a point whose lists do not
 * fit a block of the device is refused with the sizes, PreElim (no lists) is not. */
static void gpu_lists_must_fit_shared_memory(void **state)
{
    (void)state;
    dm_device dev = { .max_threads_per_block = 1024, .smem_per_block_optin = 232448 };
    char why[512] = "";
    const char *wide[] = { "level=5", "block=1024" }; /* 4 lists x 4 runs x 16 B x 1024 */
    const char *fits[] = { "level=5", "block=512" };
    const char *narrow[] = { "level=3", "block=1024", "gap_lo_ms=5" }; /* 7 runs: 8 */
    const char *relaxed[] = { "level=16", "block=1024" };
    dm_point pt;
    variant_point("ptpe", &pt, wide, 2);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 1);
    assert_string_equal(why, "level 5 keeps 256 bytes of lists a thread in shared memory (4 "
                             "runs a list), 262144 for block 1024, more than the device's "
                             "232448");
    variant_point("hybrid", &pt, fits, 2);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 0);
    variant_point("mtpe", &pt, narrow, 3);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 1);
    assert_non_null(strstr(why, "(8 runs a list), 262144 for block 1024"));
    variant_point("preelim", &pt, relaxed, 2);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 0);
    /* without a device nothing is known to refuse */
    variant_point("ptpe", &pt, wide, 2);
    assert_int_equal(pt.variant->supports(&pt, NULL, why, sizeof why), 0);
}

/* prefix keeps no lists; its two block sizes (rounds of many steps, of few) are each
 * refused by name when not whole warps or past the device's block. */
static void prefix_checks_both_block_sizes(void **state)
{
    (void)state;
    dm_device dev = { .max_threads_per_block = 512, .smem_per_block_optin = 232448 };
    char why[512] = "";
    const char *fine[] = { "block=512", "block_few=512" };
    const char *few_odd[] = { "block_few=80" };
    const char *few_big[] = { "block_few=1024" };
    const char *many_odd[] = { "block=80" };
    dm_point pt;
    variant_point("prefix", &pt, fine, 2);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 0);
    variant_point("prefix", &pt, few_odd, 1);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 1);
    assert_string_equal(why, "block_few 80 is not a multiple of 32");
    variant_point("prefix", &pt, few_big, 1);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 1);
    assert_string_equal(why, "block_few 1024 exceeds the device's 512");
    variant_point("prefix", &pt, many_odd, 1);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 1);
    assert_string_equal(why, "block 80 is not a multiple of 32");
}

/* multigpu splits each level over the run's GPUs: a point asking more than the run has
 * (a run without a list of GPUs has its one device) fails setup, naming both, before any
 * GPU is touched; its lists must fit a block as PTPE's. */
static void multigpu_asks_no_more_gpus_than_the_run_has(void **state)
{
    (void)state;
    dm_device dev = { .max_threads_per_block = 1024, .smem_per_block_optin = 232448 };
    const dm_device *const gpus[] = { &dev, &dev };
    const char *set[] = { "seconds=2", "level=3", "support=40" };
    const char *three[] = { "seconds=2", "level=3", "support=40", "gpus=3" };
    const char *wide[] = { "level=5", "block=1024" };
    char why[512] = "";
    dm_point pt;
    dm_dataset ds;
    void *ref, *st = NULL;
    dm_err err = { 0 };
    open_sym26(&pt, set, 3, &ds, &ref);
    variant_point("multigpu", &pt, three, 4);
    assert_true(pt.variant->multi_gpu);
    const dm_exec one = { .device = &dev }, two = { .device = &dev, .gpus = gpus, .ngpus = 2 };
    assert_int_equal(pt.variant->setup(&one, &ds, &pt, &st, &err), DM_EINPUT);
    assert_string_equal(err.msg, "multigpu: the point asks 3 GPUs, and the run has 1 "
                                 "(dmbench run --devices)");
    assert_int_equal(pt.variant->setup(&two, &ds, &pt, &st, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "asks 3 GPUs, and the run has 2"));
    assert_null(st);
    variant_point("multigpu", &pt, wide, 2);
    assert_int_equal(pt.variant->supports(&pt, &dev, why, sizeof why), 1);
    assert_non_null(strstr(why, "262144 for block 1024"));
    ep_reference_free(ref);
    ep_dataset_close(&ds);
}

/* `dmbench run` of a mining sweep stores each point's facts: per level its candidates,
 * frequent episodes and phase times, as the last timed run gave them. */
static void mining_sweep_stores_facts_per_level(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/mine.yaml", f->dir);
    write_file(path, "name: mine\nworkload: episodes\ndataset: { generator: sym26 }\n"
                     "variants: [cpu, cpu-mt]\naxes:\n  seconds: 5\n  level: 3\n"
                     "  support: 40\nmeasure: { mode: hot, min_samples: 2, max_time: 0.5 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s", path, f->db), 0);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM points WHERE status = 'ok'"), 2);
    /* both points: three levels, four facts each */
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM point_facts"), 2 * 3 * 4);
    assert_int_equal(db_int(f->db, "SELECT value FROM point_facts WHERE grp = 'level 1'"
                                   " AND name = 'candidates' LIMIT 1"), 26);
    /* the two variants found as many frequent episodes at each level */
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM (SELECT grp FROM point_facts WHERE"
                                   " name = 'frequent' GROUP BY grp HAVING min(value) ="
                                   " max(value) AND count(*) = 2)"), 3);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM point_facts WHERE name = 'count_s'"
                                   " AND unit = 's' AND value > 0"), 6);
    /* each point's work: the stream's events times the candidates of its levels, the same
     * whole number of events for both */
    assert_int_equal(db_int(f->db, "SELECT count(DISTINCT p.ops_per_run / c.n) FROM points p"
                                   " JOIN (SELECT point_id, sum(value) AS n FROM point_facts"
                                   " WHERE name = 'candidates' GROUP BY point_id) c"
                                   " ON c.point_id = p.id WHERE p.ops_unit = 'event-episodes'"
                                   " AND p.ops_per_run > 0"), 1);
    assert_true(db_int(f->db, "SELECT min(p.ops_per_run / c.n) FROM points p JOIN (SELECT"
                              " point_id, sum(value) AS n FROM point_facts WHERE name ="
                              " 'candidates' GROUP BY point_id) c ON c.point_id = p.id") > 1000);
}

/* An episodes file the reference cannot read is bad input: `dmbench run` exits 2 naming
 * it and the point, and leaves no database behind (and one that was there as it was). */
static void run_with_an_unreadable_episodes_file_leaves_nothing(void **state)
{
    fixture *f = *state;
    char path[160], eps[160];
    snprintf(eps, sizeof eps, "%s/bad.txt", f->dir);
    write_file(eps, "A -> \n");
    snprintf(path, sizeof path, "%s/bad.yaml", f->dir);
    char yaml[512];
    snprintf(yaml, sizeof yaml, "name: bad\nworkload: episodes\ndataset: { generator: sym26 }\n"
             "variants: [cpu]\naxes:\n  seconds: 2\n  episodes: %s\n", eps);
    write_file(path, yaml);
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", path, f->db), 2);
    const char *said = slurp(f->errf);
    assert_non_null(strstr(said, "bad.txt:1: empty name at episode node 2"));
    assert_non_null(strstr(said, "(point cpu seconds=2,"));
    assert_false(exists(f->db));
    /* a database that was there keeps its runs, and gets none from this one */
    char good[160];
    snprintf(good, sizeof good, "%s/good.yaml", f->dir);
    write_file(good, "name: good\nworkload: episodes\ndataset: { generator: sym26 }\n"
                     "variants: [cpu]\naxes:\n  seconds: 2\n  level: 1\n"
                     "measure: { min_samples: 6, max_time: 0.2 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", good, f->db), 0);
    /* refused before the run is recorded: the database keeps every byte */
    kept ks = { 0 };
    keep(&ks, 2, (const char *[]){ f->db, eps });
    refused_keeping(f, &ks, "bad.txt:1: empty name at episode node 2", "run %s --db %s --quiet",
                    path, f->db);
    kept_free(&ks);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM runs"), 1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(candidates_are_every_episode_of_the_level_in_type_order),
        cmocka_unit_test(sym26_chains_are_its_most_frequent_level_2_episodes),
        cmocka_unit_test(support_mines_level_wise),
        cmocka_unit_test(work_is_events_times_episodes),
        cmocka_unit_test(compare_names_the_first_difference),
        cmocka_unit_test_setup_teardown(mine_writes_episode_level_count_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(mine_flags_count_an_episodes_file_or_mine, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(mine_flags_refuse_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(mining_sweep_stores_facts_per_level, setup, teardown),
        cmocka_unit_test_setup_teardown(a_recording_has_no_generator_parameters, setup,
                                        teardown),
        cmocka_unit_test(gpu_lists_must_fit_shared_memory),
        cmocka_unit_test(prefix_checks_both_block_sizes),
        cmocka_unit_test(multigpu_asks_no_more_gpus_than_the_run_has),
        cmocka_unit_test_setup_teardown(run_with_an_unreadable_episodes_file_leaves_nothing,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
