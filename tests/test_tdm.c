/* test_tdm.c - the host side of the tdm workload: generators, the file loader and its
 * errors, episode enumeration and files and their prefixes (count), the counting machine
 * against a brute-force count, planted answers, the multi-threaded count, the span
 * composition the block variants use, packed groups, comparison, work, the variant
 * table and its pruning reasons, and the input errors setup gives before any device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "registry.h"
#include "point_set.h"
#include "tdm/tdm.h"

extern const dm_workload tdm_workload;

/* A point of the named variant at the defaults with length and level set. */
static void point_at(dm_point *pt, const char *variant, int64_t length, int64_t level)
{
    dm_err err = {0};
    const dm_variant *v = registry_variant(&tdm_workload, variant, &err);
    assert_non_null(v);
    assert_int_equal(registry_point_defaults(&tdm_workload, v, pt, &err), 0);
    set_int(pt, "length", length);
    set_int(pt, "level", level);
}

/* Writes text to a new temporary file; returns its path (static buffer per call slot). */
static const char *temp_file(const char *text, size_t len, int slot)
{
    static char paths[4][64];
    snprintf(paths[slot], sizeof paths[slot], "/tmp/test_tdm_XXXXXX");
    int fd = mkstemp(paths[slot]);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return paths[slot];
}

/* Letters from codes in a small alphabet, for the brute-force checks. */
static void random_letters(uint64_t *state, uint8_t *sym, int64_t n, int alphabet)
{
    for (int64_t i = 0; i < n; i++) {
        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
        sym[i] = (uint8_t)((*state >> 33) % (uint64_t)alphabet);
    }
}

/* ---- data ---- */

static void test_uniform_generator_is_deterministic_and_uniform(void **state)
{
    (void)state;
    enum { N = 26000 };
    uint8_t *a = malloc(N), *b = malloc(N), *c = malloc(N);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    tdm_generate_uniform(7, N, a);
    tdm_generate_uniform(7, N, b);
    tdm_generate_uniform(8, N, c);
    assert_memory_equal(a, b, N);
    assert_memory_not_equal(a, c, N);
    int hist[TDM_ALPHABET] = {0};
    for (int i = 0; i < N; i++) {
        assert_true(a[i] < TDM_ALPHABET);
        hist[a[i]]++;
    }
    for (int k = 0; k < TDM_ALPHABET; k++) /* 1000 expected, stdev about 31 */
        assert_true(hist[k] > 850 && hist[k] < 1150);
    free(a);
    free(b);
    free(c);
}

static void test_dataset_open_generators_and_hash(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset x, y, z;
    dm_err err = {0};
    dm_data_source uni = {.generator = "uniform"}, bad = {.generator = "zipf"};
    point_at(&pt, "cpu", 1000, 2);
    assert_int_equal(tdm_dataset_open(&uni, &pt, &x, &err), 0);
    assert_int_equal(tdm_dataset_open(&uni, &pt, &y, &err), 0);
    set_int(&pt, "seed", 2);
    assert_int_equal(tdm_dataset_open(&uni, &pt, &z, &err), 0);
    assert_string_equal(x.hash, y.hash);
    assert_string_not_equal(x.hash, z.hash);
    assert_int_equal(x.size_bytes, 1000);
    assert_string_equal(x.name, "uniform");
    assert_int_equal(((tdm_data *)x.data)->n, 1000);
    tdm_dataset_close(&x);
    tdm_dataset_close(&y);
    tdm_dataset_close(&z);
    assert_int_equal(tdm_dataset_open(&bad, &pt, &x, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "zipf"));
}

static void test_loader_reads_letters_and_skips_whitespace(void **state)
{
    (void)state;
    const char text[] = "AB C\nD\r\n\tZ  \n";
    const char *path = temp_file(text, sizeof text - 1, 0);
    uint8_t *sym;
    dm_err err = {0};
    assert_int_equal(tdm_load_file(path, 5, &sym, &err), 0);
    const uint8_t want[5] = {0, 1, 2, 3, 25};
    assert_memory_equal(sym, want, 5);
    free(sym);
    /* length keeps the first letters */
    assert_int_equal(tdm_load_file(path, 3, &sym, &err), 0);
    assert_memory_equal(sym, want, 3);
    free(sym);
    /* more than the file has */
    assert_int_equal(tdm_load_file(path, 6, &sym, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "has 5 letters"));
    assert_null(sym);
    unlink(path);
}

static void test_loader_names_the_offset_of_a_bad_byte(void **state)
{
    (void)state;
    const char *cases[] = {"ABCa", "AB\nC1D", "ABCDEFG\x80", "A,B"};
    const char *offsets[] = {"offset 3", "offset 4", "offset 7", "offset 1"};
    for (int i = 0; i < 4; i++) {
        const char *path = temp_file(cases[i], strlen(cases[i]), 1);
        uint8_t *sym;
        dm_err err = {0};
        assert_int_equal(tdm_load_file(path, 1, &sym, &err), DM_EINPUT);
        assert_non_null(strstr(err.msg, offsets[i]));
        assert_non_null(strstr(err.msg, path));
        unlink(path);
    }
    /* a bad byte past the letters kept is still an error */
    const char *path = temp_file("ABCDEx", 6, 1);
    uint8_t *sym;
    dm_err err = {0};
    assert_int_equal(tdm_load_file(path, 2, &sym, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "offset 5"));
    unlink(path);
}

static void test_loader_refuses_empty_and_missing_files(void **state)
{
    (void)state;
    const char *texts[] = {"", " \n\t\n"};
    for (int i = 0; i < 2; i++) {
        const char *path = temp_file(texts[i], strlen(texts[i]), 2);
        uint8_t *sym;
        dm_err err = {0};
        assert_int_equal(tdm_load_file(path, 1, &sym, &err), DM_EINPUT);
        assert_non_null(strstr(err.msg, "empty database"));
        unlink(path);
    }
    uint8_t *sym;
    dm_err err = {0};
    assert_int_equal(tdm_load_file("/nonexistent/db.txt", 1, &sym, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "/nonexistent/db.txt"));

    /* through the dataset callback: the run stops with the file's error */
    dm_point pt;
    dm_dataset ds;
    dm_data_source src = {0};
    const char *path = temp_file("", 0, 2);
    snprintf(src.path, sizeof src.path, "%s", path);
    point_at(&pt, "cpu", 10, 1);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "empty database"));
    unlink(path);
}

static void test_dataset_from_a_file(void **state)
{
    (void)state;
    const char *path = temp_file("ABAC\nABAC\n", 10, 0);
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    dm_data_source src = {0};
    snprintf(src.path, sizeof src.path, "%s", path);
    point_at(&pt, "cpu", 8, 3);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    const tdm_data *d = ds.data;
    assert_int_equal(d->n, 8);
    assert_string_equal(ds.path, path);
    assert_non_null(strstr(path, ds.name));
    tdm_dataset_close(&ds);
    unlink(path);
}

static void test_plant_parse_errors(void **state)
{
    (void)state;
    tdm_data d;
    dm_err err = {0};
    assert_int_equal(tdm_plant_parse("ABC,XYZ", &d, &err), 0);
    assert_int_equal(d.nplant, 2);
    assert_string_equal(d.plant[1], "XYZ");
    assert_int_equal(tdm_plant_parse("AbC", &d, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "character 2"));
    assert_int_equal(tdm_plant_parse("ABC,CD", &d, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "letter C is used twice"));
    assert_int_equal(tdm_plant_parse("AB,,CD", &d, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "empty episode"));
    assert_int_equal(tdm_plant_parse("ABCDEFGHIJKLM,NOPQRSTUVWXYZ", &d, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "all 26 letters"));
    assert_int_equal(tdm_plant_parse("A,B,C,D,E,F,G,H,I", &d, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "more than 8"));
}

static void test_planted_episodes_count_as_planted(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    dm_data_source src = {.generator = "planted"};
    point_at(&pt, "cpu", 20011, 3);
    set_str(&pt, "plant", "ABC,XYZ");
    set_real(&pt, "plant_rate", 0.02);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    const tdm_data *d = ds.data;
    assert_int_equal(d->nplant, 2);
    assert_true(d->planted[0] > 100 && d->planted[1] > 100);
    assert_true(d->planted[0] - d->planted[1] <= 1 && d->planted[0] >= d->planted[1]);
    const uint8_t abc[] = {0, 1, 2}, xyz[] = {23, 24, 25}, ac[] = {0, 2}, ca[] = {2, 0};
    const uint8_t ax[] = {0, 23};
    assert_int_equal(tdm_fsm_count(d->sym, d->n, abc, 3), d->planted[0]);
    assert_int_equal(tdm_fsm_count(d->sym, d->n, xyz, 3), d->planted[1]);
    assert_int_equal(tdm_fsm_count(d->sym, d->n, ac, 2), d->planted[0]);
    assert_int_equal(tdm_fsm_count(d->sym, d->n, ca, 2), d->planted[0] - 1);
    /* A X: every A (copy of ABC) needs a later X; copies alternate ABC, XYZ, ... */
    assert_int_equal(tdm_fsm_count(d->sym, d->n, ax, 2), d->planted[1]);
    tdm_dataset_close(&ds);

    /* rate 0: nothing planted, and the plant's letters never occur */
    set_real(&pt, "plant_rate", 0.0);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    d = ds.data;
    assert_int_equal(d->planted[0], 0);
    const uint8_t a[] = {0};
    assert_int_equal(tdm_fsm_count(d->sym, d->n, a, 1), 0);
    tdm_dataset_close(&ds);
}

/* ---- episodes ---- */

static void test_enumeration_counts_and_order(void **state)
{
    (void)state;
    const int64_t want[] = {26, 650, 15600, 358800};
    dm_err err = {0};
    for (int level = 1; level <= 4; level++) {
        tdm_episodes e;
        assert_int_equal(tdm_episodes_enumerate(level, 0, &e, &err), 0);
        assert_int_equal(e.n, want[level - 1]);
        assert_int_equal(tdm_episodes_count(level), want[level - 1]);
        for (int64_t i = 0; i < e.n; i++) {
            const uint8_t *ep = e.letters + i * level;
            for (int a = 0; a < level; a++)
                for (int b = a + 1; b < level; b++)
                    assert_int_not_equal(ep[a], ep[b]);
            if (i > 0)
                assert_true(memcmp(ep - level, ep, (size_t)level) < 0);
        }
        char first[8], last[8];
        tdm_episode_format(&e, 0, first, sizeof first);
        tdm_episode_format(&e, e.n - 1, last, sizeof last);
        const char *firsts[] = {"A", "AB", "ABC", "ABCD"};
        const char *lasts[] = {"Z", "ZY", "ZYX", "ZYXW"};
        assert_string_equal(first, firsts[level - 1]);
        assert_string_equal(last, lasts[level - 1]);
        tdm_episodes_free(&e);
    }
    tdm_episodes e;
    assert_int_equal(tdm_episodes_count(5), 7893600);
    assert_int_equal(tdm_episodes_count(27), 0);
    assert_int_equal(tdm_episodes_enumerate(0, 0, &e, &err), DM_EINPUT);
    assert_int_equal(tdm_episodes_enumerate(27, 0, &e, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "level 27"));
    assert_int_equal(tdm_episodes_enumerate(6, 0, &e, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "165765600"));
}

static void test_count_keeps_a_prefix_of_the_enumeration(void **state)
{
    (void)state;
    dm_err err = {0};
    for (int level = 2; level <= 3; level++) {
        tdm_episodes all, some;
        assert_int_equal(tdm_episodes_enumerate(level, 0, &all, &err), 0);
        const int64_t counts[] = {1, 27, 600, all.n};
        for (int k = 0; k < 4; k++) {
            assert_int_equal(tdm_episodes_enumerate(level, counts[k], &some, &err), 0);
            assert_int_equal(some.n, counts[k]);
            assert_memory_equal(some.letters, all.letters, (size_t)(counts[k] * level));
            tdm_episodes_free(&some);
        }
        tdm_episodes_free(&all);
    }
    /* level 6 has 165,765,600 episodes: too many to keep, but a prefix is enumerated on
     * its own, and a shorter prefix is the start of a longer one */
    tdm_episodes a, b;
    assert_int_equal(tdm_episodes_enumerate(6, 0, &a, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "set count"));
    assert_int_equal(tdm_episodes_enumerate(6, 262144, &a, &err), 0);
    assert_int_equal(tdm_episodes_enumerate(6, 1000, &b, &err), 0);
    assert_memory_equal(a.letters, b.letters, 1000 * 6);
    char first[8], last[8];
    tdm_episode_format(&a, 0, first, sizeof first);
    tdm_episode_format(&a, a.n - 1, last, sizeof last);
    assert_string_equal(first, "ABCDEF");
    /* 24 * 23 * 22 * 21 = 255024 episodes start with AB, so the 262144th is the 7120th
     * of those starting with AC, among the 23 * 22 * 21 = 10626 starting with ACB
     * (itertools.permutations agrees) */
    assert_string_equal(last, "ACBSMD");
    for (int64_t i = 1; i < a.n; i++)
        assert_true(memcmp(a.letters + (i - 1) * 6, a.letters + i * 6, 6) < 0);
    tdm_episodes_free(&a);
    tdm_episodes_free(&b);
    /* more than the level has */
    assert_int_equal(tdm_episodes_enumerate(3, 20000, &a, &err), DM_EINPUT);
    assert_string_equal(err.msg, "count 20000 exceeds the 15600 episodes of level 3");
    assert_int_equal(tdm_episodes_enumerate(3, 15600, &a, &err), 0);
    tdm_episodes_free(&a);
}

static void test_count_takes_a_files_first_episodes_in_order(void **state)
{
    (void)state;
    const char text[] = "ZYX\nABC\nQRS\nABD\n";
    const char *path = temp_file(text, sizeof text - 1, 0);
    tdm_episodes e;
    dm_err err = {0};
    char name[8];
    assert_int_equal(tdm_episodes_load(path, 3, 2, &e, &err), 0);
    assert_int_equal(e.n, 2);
    tdm_episode_format(&e, 0, name, sizeof name);
    assert_string_equal(name, "ABC");
    tdm_episode_format(&e, 1, name, sizeof name);
    assert_string_equal(name, "ABD");
    tdm_episodes_free(&e);
    assert_int_equal(tdm_episodes_load(path, 3, 5, &e, &err), DM_EINPUT);
    char want[128];
    snprintf(want, sizeof want, "count 5 exceeds the 4 episodes of %s", path);
    assert_string_equal(err.msg, want);
    unlink(path);
}

static void test_episodes_file(void **state)
{
    (void)state;
    const char good[] = "# a comment\nABC\n\n Z Y X \nQRS\n";
    const char *path = temp_file(good, sizeof good - 1, 0);
    tdm_episodes e;
    dm_err err = {0};
    assert_int_equal(tdm_episodes_load(path, 3, 0, &e, &err), 0);
    assert_int_equal(e.n, 3);
    char name[8];
    tdm_episode_format(&e, 1, name, sizeof name);
    assert_string_equal(name, "ZYX");
    tdm_episodes_free(&e);
    assert_int_equal(tdm_episodes_load(path, 2, 0, &e, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, ":2: more than level=2"));
    unlink(path);

    const char *bad[] = {"ABC\nAB\n", "ABC\nAbC\n", "ABA\n", "ABC\nDEF\nABC\n", "# none\n"};
    const char *says[] = {":2: 2 letters", ":2: 'b'", ":1: letter A twice",
                          ":3: episode ABC repeats line 1", "no episodes"};
    for (int i = 0; i < 5; i++) {
        path = temp_file(bad[i], strlen(bad[i]), 1);
        assert_int_equal(tdm_episodes_load(path, 3, 0, &e, &err), DM_EINPUT);
        assert_non_null(strstr(err.msg, says[i]));
        unlink(path);
    }
    assert_int_equal(tdm_episodes_load("/nonexistent/eps", 3, 0, &e, &err), DM_EINPUT);
}

/* ---- counting ---- */

static void test_fsm_follows_the_definition_not_the_reset_edge(void **state)
{
    (void)state;
    /* A B A C holds A->B->C once (A B _ C): a machine that went back at the second A
     * would find none. */
    const uint8_t abac[] = {0, 1, 0, 2}, abc[] = {0, 1, 2};
    assert_int_equal(tdm_fsm_count(abac, 4, abc, 3), 1);
    assert_int_equal(tdm_brute_count(abac, 4, abc, 3), 1);
    /* non-overlapped: A A B B C C holds A->B->C once; A B C A B C twice */
    const uint8_t aabbcc[] = {0, 0, 1, 1, 2, 2}, abcabc[] = {0, 1, 2, 0, 1, 2};
    assert_int_equal(tdm_fsm_count(aabbcc, 6, abc, 3), 1);
    assert_int_equal(tdm_fsm_count(abcabc, 6, abc, 3), 2);
    assert_int_equal(tdm_fsm_count(abcabc, 0, abc, 3), 0);
}

static void test_fsm_equals_brute_force_on_small_databases(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    uint8_t sym[48];
    for (int trial = 0; trial < 400; trial++) {
        int alphabet = 3 + trial % 4;
        int64_t n = 1 + trial % 48;
        random_letters(&rng, sym, n, alphabet);
        for (int level = 1; level <= 4 && level <= alphabet; level++) {
            uint8_t ep[4];
            /* a random episode of distinct letters from the small alphabet */
            int used[8] = {0};
            for (int k = 0; k < level; k++) {
                uint8_t c;
                do {
                    random_letters(&rng, &c, 1, alphabet);
                } while (used[c]);
                used[c] = 1;
                ep[k] = c;
            }
            assert_int_equal(tdm_fsm_count(sym, n, ep, level),
                             tdm_brute_count(sym, n, ep, level));
        }
    }
}

static void test_multithreaded_count_equals_single(void **state)
{
    (void)state;
    enum { N = 3001 };
    uint8_t *sym = malloc(N);
    assert_non_null(sym);
    tdm_generate_uniform(3, N, sym);
    tdm_episodes e;
    dm_err err = {0};
    assert_int_equal(tdm_episodes_enumerate(2, 0, &e, &err), 0);
    uint32_t *one = malloc((size_t)e.n * 4), *many = malloc((size_t)e.n * 4);
    assert_non_null(one);
    assert_non_null(many);
    tdm_cpu_count(sym, N, &e, one);
    const int threads[] = {0, 1, 2, 7, 1000};
    for (int i = 0; i < 5; i++) {
        memset(many, 0xff, (size_t)e.n * 4);
        assert_int_equal(tdm_cpu_count_mt(sym, N, &e, many, threads[i], &err), 0);
        assert_memory_equal(one, many, (size_t)e.n * 4);
    }
    int64_t total = 0;
    for (int64_t i = 0; i < e.n; i++)
        total += one[i];
    assert_true(total > 0);
    tdm_episodes_free(&e);
    free(one);
    free(many);
    free(sym);
}

/* ---- span tables ---- */

static void test_span_composition_equals_fsm_for_every_chunk(void **state)
{
    (void)state;
    uint64_t rng = 99;
    uint8_t sym[70];
    for (int trial = 0; trial < 60; trial++) {
        int64_t n = 1 + trial;
        int alphabet = 3 + trial % 3;
        random_letters(&rng, sym, n, alphabet);
        for (int level = 1; level <= 3; level++) {
            const uint8_t eps[3][3] = {{0, 1, 2}, {2, 0, 1}, {1, 2, 0}};
            const uint8_t *ep = eps[trial % 3];
            uint32_t want = tdm_fsm_count(sym, n, ep, level);
            for (int64_t chunk = 1; chunk <= n + 1; chunk++)
                assert_int_equal(tdm_span_count(sym, n, ep, level, chunk), want);
        }
    }
}

static void test_span_tables_compose_in_order(void **state)
{
    (void)state;
    /* ABC over "C A B | C A": table of each part, composed, equals the whole's. */
    const uint8_t sym[] = {2, 0, 1, 2, 0}, abc[] = {0, 1, 2};
    tdm_span a, b, ab, whole;
    tdm_span_of(sym, 3, abc, 3, &a);
    tdm_span_of(sym + 3, 2, abc, 3, &b);
    tdm_span_of(sym, 5, abc, 3, &whole);
    /* entered in state 2 (waiting for C), "C A B" completes once and leaves in 2 */
    assert_int_equal(a.count[2], 1);
    assert_int_equal(a.exit[2], 2);
    assert_int_equal(a.count[0], 0);
    assert_int_equal(a.exit[0], 2);
    tdm_span_compose(&a, &b, 3, &ab);
    for (int s = 0; s < 3; s++) {
        assert_int_equal(ab.count[s], whole.count[s]);
        assert_int_equal(ab.exit[s], whole.exit[s]);
    }
    /* the empty stretch is the identity */
    tdm_span id;
    tdm_span_of(sym, 0, abc, 3, &id);
    tdm_span_compose(&id, &a, 3, &ab);
    assert_memory_equal(ab.count, a.count, 3 * sizeof a.count[0]);
    assert_memory_equal(ab.exit, a.exit, 3);
}

/* ---- packed groups ---- */

static void test_groups_pack_each_episode_once(void **state)
{
    (void)state;
    dm_err err = {0};
    for (int level = 1; level <= 3; level++) {
        tdm_episodes e;
        tdm_groups g;
        assert_int_equal(tdm_episodes_enumerate(level, 0, &e, &err), 0);
        assert_int_equal(tdm_groups_build(&e, &g, &err), 0);
        const int64_t groups[] = {1, 26, 650};
        assert_int_equal(g.n, groups[level - 1]);
        char *seen = calloc((size_t)e.n, 1);
        assert_non_null(seen);
        for (int64_t k = 0; k < g.n; k++) {
            assert_int_equal(__builtin_popcount(g.first[k]), 26 - (level - 1));
            if (k > 0 && level > 1) /* ordered by last letter */
                assert_true(g.suffix[k] >> (5 * (level - 2)) >=
                            g.suffix[k - 1] >> (5 * (level - 2)));
            for (int f = 0; f < 26; f++) {
                int32_t i = g.slot[k * 26 + f];
                assert_int_equal(i >= 0, (g.first[k] >> f) & 1);
                if (i < 0)
                    continue;
                const uint8_t *ep = e.letters + (int64_t)i * level;
                assert_int_equal(ep[0], f);
                for (int m = 1; m < level; m++)
                    assert_int_equal(ep[m], (g.suffix[k] >> (5 * (m - 1))) & 31);
                assert_int_equal(seen[i], 0);
                seen[i] = 1;
            }
        }
        for (int64_t i = 0; i < e.n; i++)
            assert_int_equal(seen[i], 1);
        free(seen);
        tdm_groups_free(&g);
        tdm_episodes_free(&e);
    }
}

/* ---- reference, compare, work ---- */

static void test_reference_compare_and_work(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    dm_data_source src = {.generator = "uniform"};
    void *ref;
    char why[256] = "";
    point_at(&pt, "cpu", 2000, 2);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    assert_int_equal(tdm_reference(&ds, &pt, &ref, &err), 0);
    const tdm_ref *r = ref;
    assert_int_equal(r->eps.n, 650);
    uint32_t *out = malloc(650 * sizeof *out);
    assert_non_null(out);
    memcpy(out, r->counts, 650 * sizeof *out);
    assert_int_equal(tdm_compare(ref, out, &pt, why, sizeof why), 0);
    out[27]++; /* level 2: AB..AZ are 0..24, BA 25, BC 26, BD 27 */
    assert_int_equal(tdm_compare(ref, out, &pt, why, sizeof why), 1);
    char want[128];
    snprintf(want, sizeof want, "episode BD (#27 of 650): expected %u, got %u", r->counts[27],
             r->counts[27] + 1);
    assert_string_equal(why, want);
    free(out);
    tdm_reference_free(ref);

    dm_work w;
    set_int(&pt, "length", 393019);
    set_int(&pt, "level", 3);
    tdm_work(&pt, NULL, NULL, &w);
    assert_true(w.ops == 393019.0 * 15600);
    assert_true(w.bytes == 393019.0);
    assert_string_equal(w.ops_unit, "steps");

    /* a level larger than the alphabet: the reference says so */
    set_int(&pt, "level", 27);
    assert_int_equal(tdm_reference(&ds, &pt, &ref, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "level 27"));
    set_int(&pt, "level", 1000000000000);
    assert_int_equal(tdm_reference(&ds, &pt, &ref, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "level 1000000000000"));

    /* episodes from a file: reference and work follow the file */
    const char *path = temp_file("AB\nBA\nZQ\n", 9, 3);
    set_int(&pt, "level", 2);
    set_str(&pt, "episodes", path);
    assert_int_equal(tdm_reference(&ds, &pt, &ref, &err), 0);
    r = ref;
    assert_int_equal(r->eps.n, 3);
    const tdm_data *d = ds.data;
    const uint8_t zq[] = {25, 16};
    assert_int_equal(r->counts[2], tdm_fsm_count(d->sym, d->n, zq, 2));
    tdm_reference_free(ref);
    tdm_work(&pt, NULL, NULL, &w);
    assert_true(w.ops == 393019.0 * 3);
    unlink(path);
    tdm_dataset_close(&ds);
}

static void test_reference_of_a_prefix_is_the_prefix_of_the_reference(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    dm_data_source src = {.generator = "uniform"};
    void *full, *some;
    point_at(&pt, "cpu", 3001, 3);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    assert_int_equal(tdm_reference(&ds, &pt, &full, &err), 0);
    const int64_t counts[] = {1, 700, 15600};
    for (int k = 0; k < 3; k++) {
        set_int(&pt, "count", counts[k]);
        assert_int_equal(tdm_reference(&ds, &pt, &some, &err), 0);
        const tdm_ref *f = full, *r = some;
        assert_int_equal(r->eps.n, counts[k]);
        assert_memory_equal(r->eps.letters, f->eps.letters, (size_t)(counts[k] * 3));
        assert_memory_equal(r->counts, f->counts, (size_t)counts[k] * sizeof *r->counts);
        tdm_reference_free(some);
        dm_work w;
        tdm_work(&pt, NULL, NULL, &w);
        assert_true(w.ops == 3001.0 * (double)counts[k]);
    }
    tdm_reference_free(full);
    /* a count over the level's: the reference refuses it with the pruning words */
    set_int(&pt, "count", 20000);
    assert_int_equal(tdm_reference(&ds, &pt, &some, &err), DM_EINPUT);
    assert_string_equal(err.msg, "count 20000 exceeds the 15600 episodes of level 3");
    tdm_dataset_close(&ds);
}

/* The text write(out, pt) puts in a memory stream (static buffer), or fails the test. */
static const char *result_text(const uint32_t *out, const dm_point *pt)
{
    static char buf[256];
    dm_err err = {0};
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    if (tdm_write_result(out, pt, f, &err))
        fail_msg("tdm_write_result: %s", err.msg);
    fclose(f);
    return buf;
}

static void test_result_csv_names_each_episode_and_its_count(void **state)
{
    (void)state;
    dm_point pt;
    dm_err err = {0};
    const uint32_t counts[] = {5, 0, UINT32_MAX};
    point_at(&pt, "cpu", 100, 2);
    set_int(&pt, "count", 3);
    assert_string_equal(result_text(counts, &pt), "episode,count\nAB,5\nAC,0\nAD,4294967295\n");
    /* a stream that cannot be written */
    FILE *ro = fopen("/dev/null", "r");
    assert_non_null(ro);
    assert_int_equal(tdm_write_result(counts, &pt, ro, &err), DM_ERUNTIME);
    assert_non_null(strstr(err.msg, "writing the counts"));
    fclose(ro);
}

/* ---- the variant table ---- */

static void test_variant_table_is_well_formed(void **state)
{
    (void)state;
    const char *names[] = {"cpu",       "cpu-mt",       "thread-tex", "thread-shared",
                           "block-tex", "block-shared", "packed",     "hybrid"};
    dm_err err = {0};
    size_t count = 0;
    for (const dm_variant *v = tdm_workload.variants; v->name; v++, count++) {
        assert_true(count < 8);
        assert_string_equal(v->name, names[count]);
        assert_int_equal(v->needs_gpu, count >= 2);
        assert_non_null(v->supports); /* every variant honours count */
        assert_int_equal(v->resolve != NULL,
                         !strcmp(v->name, "hybrid") || !strcmp(v->name, "packed"));
        assert_non_null(v->setup);
        assert_non_null(v->run);
        assert_non_null(v->output);
        assert_non_null(v->teardown);
        dm_point pt;
        assert_int_equal(registry_point_defaults(&tdm_workload, v, &pt, &err), 0);
        assert_int_equal(dm_point_int(&pt, "length"), 393019);
        assert_int_equal(dm_point_int(&pt, "level"), 3);
    }
    assert_int_equal(count, 8);
    assert_ptr_equal(registry_workload("tdm", &err), &tdm_workload);
}

/* Checks that variant v refuses pt on dev with a reason containing says. */
static void assert_pruned(const char *variant, dm_point *pt, const dm_device *dev,
                          const char *says)
{
    dm_err err = {0};
    char why[256] = "";
    const dm_variant *v = registry_variant(&tdm_workload, variant, &err);
    pt->variant = v;
    if (!v->supports(pt, dev, why, sizeof why))
        fail_msg("%s: expected pruning with '%s'", variant, says);
    if (!strstr(why, says))
        fail_msg("%s: reason '%s' lacks '%s'", variant, why, says);
}

static void assert_kept(const char *variant, dm_point *pt, const dm_device *dev)
{
    dm_err err = {0};
    char why[256] = "";
    const dm_variant *v = registry_variant(&tdm_workload, variant, &err);
    pt->variant = v;
    if (v->supports(pt, dev, why, sizeof why))
        fail_msg("%s: pruned: %s", variant, why);
}

static void test_supports_pruning_reasons(void **state)
{
    (void)state;
    const dm_device h100 = {.max_threads_per_block = 1024, .smem_per_block_optin = 232448};
    const char *gpu[] = {"thread-tex", "thread-shared", "block-tex", "block-shared", "packed"};
    for (int i = 0; i < 5; i++) {
        dm_point pt;
        point_at(&pt, gpu[i], 393019, 3);
        assert_kept(gpu[i], &pt, &h100);
        set_int(&pt, "block", 2048); /* over the device limit */
        assert_pruned(gpu[i], &pt, &h100, "block 2048 exceeds the device's 1024");
        if (i == 4) /* no device: only what the kernel is compiled for */
            assert_pruned(gpu[i], &pt, NULL, "block 2048 exceeds the 512 threads");
        else
            assert_kept(gpu[i], &pt, NULL);
        set_int(&pt, "block", 512);
        set_int(&pt, "level", i == 4 ? 7 : 13); /* over what the kernel holds */
        assert_pruned(gpu[i], &pt, NULL, i == 4 ? "level 7 exceeds the 6 letters packed"
                                                : "exceeds the 12 letters");
    }
    dm_point pt;
    /* shared memory over the device's */
    point_at(&pt, "thread-shared", 393019, 3);
    set_int(&pt, "tile", 1 << 20);
    assert_pruned("thread-shared", &pt, &h100, "bytes of shared memory per block");
    point_at(&pt, "block-shared", 393019, 3);
    set_int(&pt, "block", 1024);
    set_int(&pt, "piece", 4096);
    assert_pruned("block-shared", &pt, &h100, "bytes of shared memory per block");
    /* tiles, pieces and chunks in whole 16-letter vectors */
    point_at(&pt, "thread-shared", 393019, 3);
    set_int(&pt, "tile", 1000);
    assert_pruned("thread-shared", &pt, NULL, "tile 1000 is not a multiple of 16");
    point_at(&pt, "block-shared", 393019, 3);
    set_int(&pt, "piece", 24);
    assert_pruned("block-shared", &pt, NULL, "piece 24 is not a multiple of 16");
    point_at(&pt, "packed", 393019, 3);
    set_int(&pt, "chunk", 2);
    assert_pruned("packed", &pt, NULL, "chunk 2 is not a multiple of 16");
    point_at(&pt, "packed", 393019, 3);
    set_int(&pt, "block", 16);
    assert_pruned("packed", &pt, NULL, "block 16 is not a multiple of 32");
    set_int(&pt, "block", 1024); /* within the device's limit, not the kernel's */
    assert_pruned("packed", &pt, &h100, "block 1024 exceeds the 512 threads per block");
}

/* The thread variants' table parameter: its values, its default (today's kernel), the
 * variants that have it, and what supports() refuses for each value. */
static void test_thread_table_parameter(void **state)
{
    (void)state;
    const dm_device h100 = {.max_threads_per_block = 1024, .smem_per_block_optin = 232448};
    const char *const values[] = {"shared", "constant", "readonly"};
    dm_err err = {0};
    dm_value val;
    for (const dm_variant *v = tdm_workload.variants; v->name; v++) {
        const dm_param_spec *spec = registry_param(&tdm_workload, v, "table");
        int thread = strcmp(v->name, "thread-tex") == 0 || strcmp(v->name, "thread-shared") == 0;
        if (!thread) {
            assert_null(spec);
            continue;
        }
        assert_non_null(spec);
        assert_int_equal(spec->type, DM_P_ENUM);
        assert_string_equal(spec->def, "shared");
        assert_string_equal(spec->allowed, "shared|constant|readonly");
        for (int k = 0; k < 3; k++) {
            assert_int_equal(dm_value_parse(spec, values[k], &val, &err), 0);
            assert_string_equal(val.s, values[k]);
        }
        assert_int_equal(dm_value_parse(spec, "texture", &val, &err), DM_EINPUT);
        assert_string_equal(err.msg, "table=texture: expected one of shared|constant|readonly");

        dm_point pt;
        point_at(&pt, v->name, 393019, 3);
        assert_string_equal(dm_point_str(&pt, "table"), "shared");
        for (int k = 0; k < 3; k++) { /* level 3 at block 1024: shared fits, 128 KiB */
            set_str(&pt, "table", values[k]);
            set_int(&pt, "block", 1024);
            if (k == 1)
                assert_pruned(v->name, &pt, &h100,
                              "table constant holds at most 512 episodes (64 KiB of constant "
                              "memory, 128 bytes each); the problem has 15600");
            else
                assert_kept(v->name, &pt, &h100);
        }
        /* constant memory: the episodes of level 1, not of level 2; prefixes up to 512 */
        set_str(&pt, "table", "constant");
        const struct {
            int64_t level, count;
            int kept;
        } cases[] = {{1, 0, 1}, {2, 0, 0}, {2, 500, 1}, {3, 512, 1}, {3, 513, 0}};
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            set_int(&pt, "level", cases[c].level);
            set_int(&pt, "count", cases[c].count);
            if (cases[c].kept) {
                assert_kept(v->name, &pt, &h100);
                assert_kept(v->name, &pt, NULL);
            } else {
                assert_pruned(v->name, &pt, &h100, "table constant holds at most 512");
                assert_pruned(v->name, &pt, NULL, "table constant holds at most 512");
            }
        }
    }
    /* thread-shared: a tile that fits beside a table out of shared memory, not beside
     * 1024 threads' masks in it */
    dm_point pt;
    point_at(&pt, "thread-shared", 393019, 1);
    set_int(&pt, "block", 1024);
    set_int(&pt, "tile", 131072);
    assert_pruned("thread-shared", &pt, &h100, "needs 262144 bytes of shared memory per block");
    set_str(&pt, "table", "readonly");
    assert_kept("thread-shared", &pt, &h100);
    set_str(&pt, "table", "constant");
    assert_kept("thread-shared", &pt, &h100);
}

static void test_a_count_over_the_level_prunes_every_variant(void **state)
{
    (void)state;
    const dm_device h100 = {.name = "NVIDIA H100 80GB HBM3", .cc_major = 9,
                            .max_threads_per_block = 1024, .smem_per_block_optin = 232448};
    for (const dm_variant *v = tdm_workload.variants; v->name; v++) {
        dm_point pt;
        point_at(&pt, v->name, 393019, 3);
        set_int(&pt, "switch_at", 1000); /* hybrid: not waiting for a fit */
        set_int(&pt, "count", 15600);
        assert_kept(v->name, &pt, &h100);
        assert_kept(v->name, &pt, NULL);
        set_int(&pt, "count", 20000);
        assert_pruned(v->name, &pt, &h100, "count 20000 exceeds the 15600 episodes of level 3");
        assert_pruned(v->name, &pt, NULL, "count 20000 exceeds the 15600 episodes of level 3");
        set_int(&pt, "level", 6); /* which has more than count asks for */
        assert_kept(v->name, &pt, &h100);
    }
}

static void test_plan_sizes(void **state)
{
    (void)state;
    assert_int_equal(tdm_padded_bytes(1), 32);
    assert_int_equal(tdm_padded_bytes(16), 32);
    assert_int_equal(tdm_padded_bytes(17), 48);
    assert_int_equal(tdm_thread_smem(64, 4096, TDM_TABLE_SHARED), 4096 + 32 * 64 * 4);
    assert_int_equal(tdm_thread_smem(1024, 0, TDM_TABLE_SHARED), 131072);
    /* a table out of shared memory leaves only the tile there */
    assert_int_equal(tdm_thread_smem(64, 4096, TDM_TABLE_CONSTANT), 4096);
    assert_int_equal(tdm_thread_smem(1024, 0, TDM_TABLE_READONLY), 0);
    /* columns in whole warps: 26 episodes fill one, 512 fit in constant memory, 513 not */
    assert_int_equal(tdm_thread_table_pitch(26), 32);
    assert_int_equal(tdm_thread_table_pitch(32), 32);
    assert_int_equal(tdm_thread_table_pitch(512), TDM_THREAD_CONST_EPISODES);
    assert_int_equal(tdm_thread_table_pitch(513), 544);
    assert_int_equal(tdm_thread_table_pitch(15600), 15616);
    /* piece 64 = 4 vectors, padded to 5 (odd); piece 48 = 3 vectors, not padded */
    assert_int_equal(tdm_block_smem(32, 64, 3), 32 * 5 * 16 + 128 + 32 * 3 * 5);
    assert_int_equal(tdm_block_smem(32, 48, 3), 32 * 3 * 16 + 128 + 32 * 3 * 5);
    assert_int_equal(tdm_block_smem(32, 0, 3), 128 + 32 * 3 * 5);
    for (int64_t n = 1; n < 2000000; n = n * 3 + 1) {
        int64_t c = tdm_packed_chunk(n, 672, 132, 0);
        assert_int_equal(c % 16, 0);
        assert_true(c >= 16 && c <= 32768);
    }
    /* level 3 on 132 SMs: 21 warps per chunk, about 32 warps per SM */
    int64_t c = tdm_packed_chunk(393019, 672, 132, 0);
    int64_t chunks = (393019 + c - 1) / c;
    assert_true(chunks * 21 >= 132 * 32 && chunks * 21 < 132 * 32 + 2 * 21);
    /* level 1: one warp per chunk, 4224 chunks wanted: 96 letters each */
    assert_int_equal(tdm_packed_chunk(393019, 32, 132, 0), 96);
    /* a short database: chunks of at least 64 letters */
    assert_int_equal(tdm_packed_chunk(24563, 32, 132, 0), 64);
    assert_int_equal(tdm_packed_chunk(393019, 672, 132, 4096), 4096);
    /* compose: no segments up to 32 chunks; else segments of about sqrt(chunks), which
     * cover every chunk once, the last one possibly short */
    int64_t seglen, nseg;
    tdm_packed_plan_segments(32, &seglen, &nseg);
    assert_int_equal(nseg, 1);
    assert_int_equal(seglen, 32);
    tdm_packed_plan_segments(1536, &seglen, &nseg);
    assert_int_equal(seglen, 40);
    assert_int_equal(nseg, 39);
    for (int64_t n = 33; n < 100000; n = n * 5 / 4 + 1) {
        tdm_packed_plan_segments(n, &seglen, &nseg);
        assert_true(seglen * seglen >= n && (seglen - 1) * (seglen - 1) < n);
        assert_true(nseg * seglen >= n && (nseg - 1) * seglen < n);
    }
    assert_int_equal(tdm_packed_entry_bytes(4), 4);
    assert_int_equal(tdm_packed_entry_bytes(5), 8);
}

static void test_cpu_variants_match_reference(void **state)
{
    (void)state;
    const char *variants[] = {"cpu", "cpu-mt"};
    dm_err err = {0};
    dm_exec ex = {0};
    dm_dataset ds;
    dm_point pt;
    dm_data_source src = {.generator = "uniform"};
    point_at(&pt, "cpu", 5003, 3);
    set_int(&pt, "count", 9000); /* a prefix, checked like the whole */
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    void *ref;
    assert_int_equal(tdm_reference(&ds, &pt, &ref, &err), 0);
    for (int k = 0; k < 2; k++) {
        void *st;
        const void *out;
        char why[256] = "";
        const dm_variant *v = registry_variant(&tdm_workload, variants[k], &err);
        dm_point vp;
        point_at(&vp, variants[k], 5003, 3);
        set_int(&vp, "count", 9000);
        assert_int_equal(v->setup(&ex, &ds, &vp, &st, &err), 0);
        assert_int_equal(v->run(st, &err), 0);
        assert_int_equal(v->output(st, &out, &err), 0);
        if (tdm_compare(ref, out, &vp, why, sizeof why))
            fail_msg("%s: %s", variants[k], why);
        v->teardown(st);
    }
    tdm_reference_free(ref);
    tdm_dataset_close(&ds);
}

/* A missing episodes file is the user's input: every variant's setup says so by name
 * before it touches a device (so this runs with no GPU, and dev is never used). */
static void test_setup_refuses_a_missing_episodes_file_before_the_device(void **state)
{
    (void)state;
    const char *path = "/nonexistent/episodes.txt";
    const dm_device dev = {.name = "Test GPU", .max_threads_per_block = 1024,
                           .smem_per_block_optin = 232448, .sms = 132};
    const dm_exec ex = {.device = &dev};
    dm_err err = {0};
    dm_dataset ds;
    dm_point pt;
    dm_data_source src = {.generator = "uniform"};
    point_at(&pt, "cpu", 100, 3);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    for (const dm_variant *v = tdm_workload.variants; v->name; v++) {
        dm_point vp;
        void *st = NULL;
        point_at(&vp, v->name, 100, 3);
        set_str(&vp, "episodes", path);
        set_int(&vp, "switch_at", 1000); /* hybrid: no fit needed */
        dm_err_clear(&err);
        if (v->setup(&ex, &ds, &vp, &st, &err) != DM_EINPUT || !strstr(err.msg, path))
            fail_msg("%s: setup said (%d) '%s'", v->name, err.code, err.msg);
    }
    tdm_dataset_close(&ds);
}

/* hybrid with its switch point open on a card no fit covers: supports() refuses it, and
 * setup, called anyway, refuses it as input with the same reason. */
static void test_hybrid_setup_without_a_fit_says_what_supports_says(void **state)
{
    (void)state;
    const dm_device dev = {.name = "Test GPU Nowhere", .cc_major = 1,
                           .max_threads_per_block = 1024, .smem_per_block_optin = 232448};
    const dm_exec ex = {.device = &dev};
    const dm_variant *v = registry_variant(&tdm_workload, "hybrid", NULL);
    dm_err err = {0};
    dm_dataset ds;
    dm_point pt;
    dm_data_source src = {.generator = "uniform"};
    char why[512] = "";
    void *st = NULL;
    point_at(&pt, "hybrid", 100, 3);
    assert_int_equal(tdm_dataset_open(&src, &pt, &ds, &err), 0);
    assert_int_not_equal(v->supports(&pt, &dev, why, sizeof why), 0);
    assert_non_null(strstr(why, "no crossover fit for tdm thread-tex/block-tex on Test GPU"));
    assert_int_equal(v->setup(&ex, &ds, &pt, &st, &err), DM_EINPUT);
    assert_string_equal(err.msg, why);
    tdm_dataset_close(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_generator_is_deterministic_and_uniform),
        cmocka_unit_test(test_dataset_open_generators_and_hash),
        cmocka_unit_test(test_loader_reads_letters_and_skips_whitespace),
        cmocka_unit_test(test_loader_names_the_offset_of_a_bad_byte),
        cmocka_unit_test(test_loader_refuses_empty_and_missing_files),
        cmocka_unit_test(test_dataset_from_a_file),
        cmocka_unit_test(test_plant_parse_errors),
        cmocka_unit_test(test_planted_episodes_count_as_planted),
        cmocka_unit_test(test_enumeration_counts_and_order),
        cmocka_unit_test(test_count_keeps_a_prefix_of_the_enumeration),
        cmocka_unit_test(test_count_takes_a_files_first_episodes_in_order),
        cmocka_unit_test(test_episodes_file),
        cmocka_unit_test(test_fsm_follows_the_definition_not_the_reset_edge),
        cmocka_unit_test(test_fsm_equals_brute_force_on_small_databases),
        cmocka_unit_test(test_multithreaded_count_equals_single),
        cmocka_unit_test(test_span_composition_equals_fsm_for_every_chunk),
        cmocka_unit_test(test_span_tables_compose_in_order),
        cmocka_unit_test(test_groups_pack_each_episode_once),
        cmocka_unit_test(test_reference_compare_and_work),
        cmocka_unit_test(test_reference_of_a_prefix_is_the_prefix_of_the_reference),
        cmocka_unit_test(test_result_csv_names_each_episode_and_its_count),
        cmocka_unit_test(test_variant_table_is_well_formed),
        cmocka_unit_test(test_supports_pruning_reasons),
        cmocka_unit_test(test_thread_table_parameter),
        cmocka_unit_test(test_a_count_over_the_level_prunes_every_variant),
        cmocka_unit_test(test_plan_sizes),
        cmocka_unit_test(test_cpu_variants_match_reference),
        cmocka_unit_test(test_setup_refuses_a_missing_episodes_file_before_the_device),
        cmocka_unit_test(test_hybrid_setup_without_a_fit_says_what_supports_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
