/* test_episodes_data.c - the episodes workload's data: the CSV loader and every error it
 * names by path:line, sim-64-size20 as published, the Sym26 generator (determinism,
 * order, size, its embedded chains), and the episodes file and its text form. */
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

#include "episodes/episodes.h"

#define SIM64 DM_SOURCE_DIR "/../shared/datasets/episodes/sim-64-size20.csv"

/* Writes text to a new temporary file; returns its path (a static buffer per slot). */
static const char *temp_file(const char *text, int slot)
{
    static char paths[4][64];
    snprintf(paths[slot], sizeof paths[slot], "/tmp/test_episodes_XXXXXX");
    int fd = mkstemp(paths[slot]);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return paths[slot];
}

/* Asserts that loading text fails with DM_EINPUT, one line naming "path:line:" (a
 * column may follow; line 0: "path:") and containing what. */
static void load_fails(const char *text, int line, const char *what)
{
    const char *path = temp_file(text, 0);
    ep_stream s;
    dm_err err = {0};
    assert_int_equal(ep_stream_load_csv(path, &s, &err), DM_EINPUT);
    char where[96];
    snprintf(where, sizeof where, line ? "%s:%d:" : "%s: ", path, line);
    if (strncmp(err.msg, where, strlen(where)) != 0 || !strstr(err.msg, what))
        fail_msg("'%s' gave '%s', expected '%s...%s'", text, err.msg, where, what);
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(s.n, 0);
    assert_null(s.type);
    unlink(path);
}

static void test_load_good(void **state)
{
    (void)state;
    const char *path = temp_file("a,0.5\r\nb,1\n  c , 2.5 \na,2.5\nb,1e1\n\n\r\n", 0);
    ep_stream s;
    dm_err err = {0};
    assert_int_equal(ep_stream_load_csv(path, &s, &err), 0);
    assert_int_equal(s.n, 5);
    assert_int_equal(s.ntypes, 3);
    assert_string_equal(s.names[0], "a");
    assert_string_equal(s.names[1], "b");
    assert_string_equal(s.names[2], "c");
    const int32_t type[] = {0, 1, 2, 0, 1};
    const double time[] = {0.5, 1, 2.5, 2.5, 10};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(s.type[i], type[i]);
        assert_true(s.time[i] == time[i]);
    }
    assert_int_equal(ep_stream_type(&s, "c"), 2);
    assert_int_equal(ep_stream_type(&s, "d"), -1);
    ep_stream_free(&s);
    assert_null(s.names);
    unlink(path);

    /* No final newline; a name of EP_NAME_MAX - 1 characters; exact doubles. */
    char text[128];
    snprintf(text, sizeof text, "%.*s,0.1\nx,0.30000000000000004", EP_NAME_MAX - 1,
             "abcdefghijklmnopqrstuvwxyz0123456789");
    path = temp_file(text, 0);
    assert_int_equal(ep_stream_load_csv(path, &s, &err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal((int)strlen(s.names[0]), EP_NAME_MAX - 1);
    assert_true(s.time[0] == 0.1 && s.time[1] == 0.30000000000000004);
    ep_stream_free(&s);
    unlink(path);
}

static void test_load_errors(void **state)
{
    (void)state;
    load_fails("a,1\nb,0.5\n", 2, "earlier than the line before");
    load_fails("a,1\nb,x\n", 2, "not a finite number");
    load_fails("a,1\nb,1.5s\n", 2, "not a finite number");
    load_fails("a,nan\n", 1, "not a finite number");
    load_fails("a,1\nb,1e999\n", 2, "not a finite number");
    load_fails("a,1\nb,-inf\n", 2, "not a finite number");
    load_fails("a,\n", 1, "missing time");
    load_fails("a, \t\n", 1, "missing time");
    load_fails("a,0.0000000000000000000000000000000000000000000000000000000000000001\n", 1,
               "time of 66 characters, at most 63");
    load_fails("a,1\n\nb,2\n", 2, "empty line followed by more data (line 3)");
    load_fails("a,1\r\n \t\r\n\r\nb,2\r\n", 2, "empty line followed by more data (line 4)");
    load_fails("a,1,x\n", 1, "3 fields, expected 2");
    load_fails("a,1\nb;2\n", 2, "1 field, expected 2");
    load_fails(",1\n", 1, "empty type name");
    load_fails("abcdefghijklmnopqrstuvwxyz0123456,1\n", 1,
               "type name of 33 characters, at most 31");
    load_fails("abcdefghijklmnopqrstuvwxyz012345,1\n", 1, "type name of 32 characters, at most 31");
    load_fails("", 0, "no events");
    load_fails("\n\r\n", 0, "no events");

    ep_stream s;
    dm_err err = {0};
    assert_int_equal(ep_stream_load_csv("/nonexistent/ep.csv", &s, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "/nonexistent/ep.csv"));
}

static void test_load_sim64(void **state)
{
    (void)state;
    if (access(SIM64, R_OK) != 0) {
        print_message("skipped: %s is absent (the shared datasets are not here)\n", SIM64);
        skip();
    }
    ep_stream s;
    dm_err err = {0};
    assert_int_equal(ep_stream_load_csv(SIM64, &s, &err), 0);
    assert_int_equal(s.n, 65428);
    assert_int_equal(s.ntypes, 64);
    for (char l = 'a'; l <= 'h'; l++)
        for (char d = '1'; d <= '8'; d++)
            assert_true(ep_stream_type(&s, (char[]){l, d, '\0'}) >= 0);
    for (int64_t i = 1; i < s.n; i++)
        assert_true(s.time[i - 1] <= s.time[i]);
    assert_true(s.time[0] > 0 && s.time[s.n - 1] <= 20.0);
    ep_stream_free(&s);
}

/* The fraction of a's events followed by some b event within [lo, hi] seconds. */
static double follow_fraction(const ep_stream *s, int32_t a, int32_t b, double lo, double hi)
{
    int64_t na = 0, hit = 0, j = 0;
    for (int64_t i = 0; i < s->n; i++) {
        if (s->type[i] != a)
            continue;
        na++;
        while (j < s->n && s->time[j] < s->time[i] + lo)
            j++;
        for (int64_t k = j; k < s->n && s->time[k] <= s->time[i] + hi; k++)
            if (s->type[k] == b) {
                hit++;
                break;
            }
    }
    return na ? (double)hit / (double)na : 0;
}

/* The variance over mean of the neurons outside both chains' spike counts in 1 s bins,
 * averaged over them: about 1 for a homogeneous Poisson process (within 0.2 here), about
 * 3.5 for Sym26's rate 20 * (1 + 0.5 sin) Hz (variance 20 + 10^2 / 2 over mean 20). */
static double rate_dispersion(const ep_stream *s, const ep_chain c[2])
{
    int in_chain[26] = {0}, nfree = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < c[k].n; i++)
            in_chain[c[k].type[i]] = 1;
    double sum = 0;
    for (int t = 0; t < 26; t++) {
        if (in_chain[t])
            continue;
        int bins[60] = {0};
        for (int64_t i = 0; i < s->n; i++)
            if (s->type[i] == t)
                bins[(int)s->time[i]]++;
        double mean = 0, var = 0;
        for (int b = 0; b < 60; b++)
            mean += bins[b] / 60.0;
        for (int b = 0; b < 60; b++)
            var += (bins[b] - mean) * (bins[b] - mean) / 59.0;
        sum += var / mean;
        nfree++;
    }
    return sum / nfree;
}

static void test_sym26_defaults(void **state)
{
    (void)state;
    ep_stream s;
    ep_chain c[2];
    dm_err err = {0};
    assert_int_equal(ep_sym26(7, 60, 20, 26, &s, c, &err), 0);
    /* The papers' "about 50,000"; the chosen parameters expect some 51,700. */
    if (s.n < 47000 || s.n > 56000)
        fail_msg("Sym26 gave %lld events, expected 47,000..56,000", (long long)s.n);
    assert_int_equal(s.ntypes, 26);
    for (int t = 0; t < 26; t++)
        assert_true(s.names[t][0] == 'A' + t && s.names[t][1] == '\0');
    int per_type[26] = {0};
    for (int64_t i = 0; i < s.n; i++) {
        assert_true(s.type[i] >= 0 && s.type[i] < 26);
        per_type[s.type[i]]++;
        assert_true(s.time[i] >= 0 && s.time[i] < 60);
        if (i)
            assert_true(s.time[i - 1] <= s.time[i]);
    }
    for (int t = 0; t < 26; t++) /* every neuron fires at about 20 Hz or more */
        assert_true(per_type[t] > 900);
    assert_true(rate_dispersion(&s, c) > 2.0);

    assert_int_equal(c[0].n, 4);
    assert_int_equal(c[1].n, 8);
    int used[26] = {0};
    int link[26][26] = {{0}};
    for (int k = 0; k < 2; k++) {
        assert_true(c[k].p > 0 && c[k].p <= 1);
        assert_true(c[k].delay_lo > 0 && c[k].delay_lo < c[k].delay_hi);
        for (int i = 0; i < c[k].n; i++) {
            assert_int_equal(used[c[k].type[i]]++, 0);
            if (i)
                link[c[k].type[i - 1]][c[k].type[i]] = 1;
        }
    }
    /* A link's follower fires within the delay after at least p of its events; any other
     * pair only by chance (rates up to some 110 Hz over a 2 ms window). */
    double lo = c[0].delay_lo, hi = c[0].delay_hi, min_link = 1, max_other = 0;
    for (int a = 0; a < 26; a++)
        for (int b = 0; b < 26; b++) {
            if (a == b)
                continue;
            double f = follow_fraction(&s, a, b, lo, hi);
            if (link[a][b])
                min_link = f < min_link ? f : min_link;
            else
                max_other = f > max_other ? f : max_other;
        }
    if (min_link < c[0].p - 0.05 || max_other > 0.3)
        fail_msg("chain links followed at %.3f (min), other pairs at %.3f (max)", min_link,
                 max_other);
    ep_stream_free(&s);
}

static void test_sym26_deterministic(void **state)
{
    (void)state;
    ep_stream s1, s2, s3;
    ep_chain c1[2], c2[2], c3[2];
    dm_err err = {0};
    assert_int_equal(ep_sym26(42, 5, 20, 26, &s1, c1, &err), 0);
    assert_int_equal(ep_sym26(42, 5, 20, 26, &s2, c2, &err), 0);
    assert_int_equal(ep_sym26(43, 5, 20, 26, &s3, c3, &err), 0);
    assert_int_equal(s1.n, s2.n);
    assert_memory_equal(s1.type, s2.type, (size_t)s1.n * sizeof *s1.type);
    assert_memory_equal(s1.time, s2.time, (size_t)s1.n * sizeof *s1.time);
    assert_memory_equal(c1, c2, sizeof c1);
    int same = s1.n == s3.n &&
               memcmp(s1.time, s3.time, (size_t)s1.n * sizeof *s1.time) == 0;
    assert_false(same);
    for (int64_t i = 0; i < s1.n; i++)
        assert_true(s1.time[i] < 5);
    ep_stream_free(&s1);
    ep_stream_free(&s2);
    ep_stream_free(&s3);
}

/* The 2.5x stream: 64 neurons for 100 s gives over 160,000 events, named n00 ..
 * n63, each firing at 20 Hz or more, the chains on 12 of them, in time order. */
static void test_sym26_with_64_neurons(void **state)
{
    (void)state;
    ep_stream s;
    ep_chain c[2];
    dm_err err = {0};
    assert_int_equal(ep_sym26(1, 100, 20, 64, &s, c, &err), 0);
    if (s.n < 160000)
        fail_msg("64 neurons for 100 s gave %lld events, expected 160,000 or more",
                 (long long)s.n);
    assert_int_equal(s.ntypes, 64);
    assert_string_equal(s.names[0], "n00");
    assert_string_equal(s.names[63], "n63");
    int per_type[64] = {0};
    for (int64_t i = 0; i < s.n; i++) {
        assert_true(s.type[i] >= 0 && s.type[i] < 64);
        per_type[s.type[i]]++;
        if (i)
            assert_true(s.time[i - 1] <= s.time[i]);
    }
    for (int t = 0; t < 64; t++)
        assert_true(per_type[t] > 1500);
    int used[64] = {0};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < c[k].n; i++)
            assert_int_equal(used[c[k].type[i]]++, 0);
    ep_stream_free(&s);
    /* 12 neurons: the chains and nothing else; 11 cannot hold them */
    assert_int_equal(ep_sym26(1, 5, 20, 12, &s, c, &err), 0);
    assert_int_equal(s.ntypes, 12);
    assert_string_equal(s.names[11], "L");
    ep_stream_free(&s);
    assert_int_equal(ep_sym26(1, 5, 20, 11, &s, c, &err), DM_EINPUT);
    assert_string_equal(err.msg, "sym26: neurons=11; expected 12..1000 (the chains take 12)");
}

static void test_sym26_errors(void **state)
{
    (void)state;
    ep_stream s;
    ep_chain c[2];
    dm_err err = {0};
    const double bad[][2] = {{0, 20}, {-1, 20}, {NAN, 20}, {INFINITY, 20}, {60, 0},
                             {60, -5}, {60, NAN}, {1e9, 20}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ep_sym26(1, bad[i][0], bad[i][1], 26, &s, c, &err), DM_EINPUT);
        assert_non_null(strstr(err.msg, "sym26: "));
        assert_null(s.type);
    }
}

/* A stream of names A, B, C and a1 (one event each) for the episodes files. */
static void names_stream(ep_stream *s)
{
    const char *path = temp_file("A,0\nB,1\nC,2\na1,3\n", 1);
    dm_err err = {0};
    assert_int_equal(ep_stream_load_csv(path, s, &err), 0);
    unlink(path);
}

static void test_episodes_load(void **state)
{
    (void)state;
    ep_stream s;
    names_stream(&s);
    const char *path = temp_file("A -> B -> C\n  B->a1->B \r\n\n\t\nC\n", 0);
    ep_episode *eps;
    int64_t n;
    dm_err err = {0};
    const double lo4 = 0.004, hi6 = 0.006, zero = 0, ten = 0.01;
    assert_int_equal(ep_episodes_load(path, &s, 1, &lo4, &hi6, &eps, &n, &err), 0);
    assert_int_equal(n, 3);
    const int len[] = {3, 3, 1};
    const int32_t ev[3][3] = {{0, 1, 2}, {1, 3, 1}, {2}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(eps[i].n, len[i]);
        for (int k = 0; k < len[i]; k++)
            assert_int_equal(eps[i].ev[k], ev[i][k]);
        for (int k = 0; k + 1 < len[i]; k++)
            assert_true(eps[i].lo[k] == 0.004 && eps[i].hi[k] == 0.006);
    }
    free(eps);
    unlink(path);

    /* EP_MAX_LEVEL names is the most. */
    char text[256] = "";
    for (int k = 0; k < EP_MAX_LEVEL; k++)
        dm_append(text, sizeof text, "%sA", k ? "->" : "");
    path = temp_file(text, 0);
    assert_int_equal(ep_episodes_load(path, &s, 1, &zero, &ten, &eps, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(eps[0].n, EP_MAX_LEVEL);
    free(eps);
    unlink(path);

    /* One gap per link: link k gets gap k; an episode of another length is named. */
    const double lo[2] = {0.001, 0.002}, hi[2] = {0.003, 0.004};
    path = temp_file("A -> B -> C\nC -> a1 -> B\n", 0);
    assert_int_equal(ep_episodes_load(path, &s, 2, lo, hi, &eps, &n, &err), 0);
    assert_int_equal(n, 2);
    for (int i = 0; i < 2; i++)
        assert_true(eps[i].lo[0] == 0.001 && eps[i].hi[0] == 0.003 && eps[i].lo[1] == 0.002 &&
                    eps[i].hi[1] == 0.004);
    free(eps);
    unlink(path);
    path = temp_file("A -> B -> C\nC -> B\n", 0);
    assert_int_equal(ep_episodes_load(path, &s, 2, lo, hi, &eps, &n, &err), DM_EINPUT);
    char want[160];
    snprintf(want, sizeof want, "%s:2: an episode of 1 link, and 2 gap intervals are given, "
             "one per link", path);
    assert_string_equal(err.msg, want);
    assert_null(eps);
    unlink(path);
    ep_stream_free(&s);
}

/* Asserts that the episodes file text fails with DM_EINPUT, naming "path:line:" (line 0:
 * "path:") and containing what. */
static void episodes_fail(const ep_stream *s, const char *text, double lo, double hi, int line,
                          const char *what)
{
    const char *path = temp_file(text, 0);
    ep_episode *eps;
    int64_t n;
    dm_err err = {0};
    assert_int_equal(ep_episodes_load(path, s, 1, &lo, &hi, &eps, &n, &err), DM_EINPUT);
    char where[96];
    snprintf(where, sizeof where, line ? "%s:%d: " : "%s: ", path, line);
    if (strncmp(err.msg, where, strlen(where)) != 0 || !strstr(err.msg, what))
        fail_msg("'%s' gave '%s', expected '%s...%s'", text, err.msg, where, what);
    assert_null(strchr(err.msg, '\n'));
    assert_null(eps);
    assert_int_equal(n, 0);
    unlink(path);
}

static void test_episodes_errors(void **state)
{
    (void)state;
    ep_stream s;
    names_stream(&s);
    episodes_fail(&s, "A -> B\nA -> X\n", 0, 1, 2, "unknown event type 'X'");
    episodes_fail(&s, "A -> b\n", 0, 1, 1, "unknown event type 'b'");
    episodes_fail(&s, "A -> -> B\n", 0, 1, 1, "empty name at episode node 2");
    episodes_fail(&s, "A\nB ->\n", 0, 1, 2, "empty name at episode node 2");
    episodes_fail(&s, "-> A\n", 0, 1, 1, "empty name at episode node 1");
    episodes_fail(&s, "A -> abcdefghijklmnopqrstuvwxyz0123456789\n", 0, 1, 1,
                  "unknown event type");
    char text[256] = "";
    for (int k = 0; k <= EP_MAX_LEVEL; k++)
        dm_append(text, sizeof text, "%sB", k ? " -> " : "");
    episodes_fail(&s, text, 0, 1, 1, "more than 16 names");
    episodes_fail(&s, "", 0, 1, 0, "no episode at all");
    episodes_fail(&s, "\n  \r\n", 0, 1, 0, "no episode at all");
    episodes_fail(&s, "A\n", 0.5, 0.25, 0, "gap interval");
    episodes_fail(&s, "A\n", -1, 0.25, 0, "gap interval");
    episodes_fail(&s, "A\n", 0, NAN, 0, "gap interval");

    ep_episode *eps;
    int64_t n;
    dm_err err = {0};
    const double zero = 0, one = 1;
    assert_int_equal(ep_episodes_load("/nonexistent/eps", &s, 1, &zero, &one, &eps, &n, &err),
                     DM_EINPUT);
    assert_non_null(strstr(err.msg, "/nonexistent/eps"));
    ep_stream_free(&s);
}

static void test_episode_format(void **state)
{
    (void)state;
    ep_stream s;
    names_stream(&s);
    ep_episode e = {.n = 4, .ev = {0, 3, 3, 2}};
    char buf[64];
    ep_episode_format(&s, &e, buf, sizeof buf);
    assert_string_equal(buf, "A -> a1 -> a1 -> C");
    ep_episode_format(&s, &e, buf, 7);
    assert_string_equal(buf, "A -> a");

    /* Formatted episodes read back as the same episodes. */
    const ep_episode in[] = {{.n = 1, .ev = {1}}, {.n = 3, .ev = {2, 0, 2}}, e};
    char text[256] = "";
    for (int i = 0; i < 3; i++) {
        ep_episode_format(&s, &in[i], buf, sizeof buf);
        dm_append(text, sizeof text, "%s\n", buf);
    }
    const char *path = temp_file(text, 0);
    ep_episode *eps;
    int64_t n;
    dm_err err = {0};
    const double zero = 0, ten = 0.01;
    assert_int_equal(ep_episodes_load(path, &s, 1, &zero, &ten, &eps, &n, &err), 0);
    assert_int_equal(n, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(eps[i].n, in[i].n);
        assert_memory_equal(eps[i].ev, in[i].ev, (size_t)in[i].n * sizeof in[i].ev[0]);
    }
    free(eps);
    unlink(path);
    ep_stream_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_good),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_load_sim64),
        cmocka_unit_test(test_sym26_defaults),
        cmocka_unit_test(test_sym26_deterministic),
        cmocka_unit_test(test_sym26_with_64_neurons),
        cmocka_unit_test(test_sym26_errors),
        cmocka_unit_test(test_episodes_load),
        cmocka_unit_test(test_episodes_errors),
        cmocka_unit_test(test_episode_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
