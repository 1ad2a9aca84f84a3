/* test_contract.c - what every registered workload owes the generic commands, checked by
 * walking the registry: its table is whole; every parameter declares its limits (a
 * range, a list, or free text named here) and round-trips through text at its default
 * and its bounds; every generator makes the same smallest dataset twice, and a missing
 * file is an input error naming it; every CPU variant matches the reference there, and
 * its answer is written as CSV with a header; every GPU variant checks the device's
 * limits, and without a GPU (CUDA_VISIBLE_DEVICES=-1, on any machine) fails its setup
 * with the CUDA call's error. The GPU variants' answers are test_gpu_contract.c's. */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "registry.h"
#include "variant_check.h"
#include "workload_fixture.h"

/* ENUM parameters that take free text, so cannot list their values. Each must exist. */
static const struct {
    const char *workload, *param, *why;
} free_text[] = {
    {"tdm", "plant", "episodes to plant, comma-separated"},
    {"tdm", "episodes", "all, or the path of an episodes file"},
    {"episodes", "gaps", "-, or LO:HI gap intervals in ms, ';' between them"},
    {"episodes", "episodes", "-, or the path of an episodes file"},
    {"rules", "rules_file", "-, or the path of a rules file"},
    {NULL, NULL, NULL},
};

/* The project's card, as dmbench knows it (its tuned blocks and crossover fits apply),
 * and a card too small for any GPU variant's default block. */
static const dm_device big = {.name = "NVIDIA H100 80GB HBM3", .cc_major = 9, .sms = 132,
                              .max_threads_per_block = 1024, .max_threads_per_sm = 2048,
                              .warp_size = 32, .smem_per_block = 49152,
                              .smem_per_block_optin = 232448, .smem_per_sm = 233472};
static const dm_device tiny = {.name = "Tiny Card", .cc_major = 1, .sms = 1,
                               .max_threads_per_block = 16, .max_threads_per_sm = 16,
                               .warp_size = 32, .smem_per_block = 1024,
                               .smem_per_block_optin = 1024, .smem_per_sm = 1024};

/* Calls fn on every parameter of w (dataset, problem, then each variant's), with v NULL
 * for the workload's own. */
static void each_param(const dm_workload *w,
                       void (*fn)(const dm_workload *, const dm_variant *,
                                  const dm_param_spec *))
{
    for (const dm_param_spec *s = w->dataset_params; s && s->name; s++)
        fn(w, NULL, s);
    for (const dm_param_spec *s = w->problem_params; s && s->name; s++)
        fn(w, NULL, s);
    for (const dm_variant *v = w->variants; v->name; v++)
        for (const dm_param_spec *s = v->params; s && s->name; s++)
            fn(w, v, s);
}

static int is_free_text(const dm_workload *w, const dm_param_spec *s)
{
    for (int i = 0; free_text[i].workload; i++)
        if (strcmp(free_text[i].workload, w->name) == 0 && strcmp(free_text[i].param, s->name) == 0)
            return 1;
    return 0;
}

/* ---- the table ---- */

static void test_every_workload_brings_what_the_commands_need(void **state)
{
    (void)state;
    int nworkloads = 0;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++, nworkloads++) {
        const dm_workload *w = *wp;
        dm_err err = {0};
        assert_non_null(w->name);
        assert_non_null(w->description);
        assert_non_null(w->generators);
        assert_non_null(w->generators[0]);
        assert_non_null(w->dataset_params);
        assert_non_null(w->dataset_open);
        assert_non_null(w->dataset_close);
        assert_non_null(w->reference);
        assert_non_null(w->reference_free);
        assert_non_null(w->compare);
        assert_non_null(w->write_result);
        assert_non_null(w->variants[0].name);
        assert_ptr_equal(registry_workload(w->name, &err), w);
        int cpu = 0;
        for (const dm_variant *v = w->variants; v->name; v++) {
            assert_non_null(v->description);
            assert_non_null(v->setup);
            assert_non_null(v->run);
            assert_non_null(v->output);
            assert_non_null(v->teardown);
            cpu += !v->needs_gpu;
            assert_ptr_equal(registry_variant(w, v->name, &err), v);
            /* the defaults parse, and no name is in the point twice */
            dm_point pt;
            if (registry_point_defaults(w, v, &pt, &err))
                fail_msg("%s %s: %s", w->name, v->name, err.msg);
            for (int i = 0; i < pt.nparams; i++)
                for (int j = i + 1; j < pt.nparams; j++)
                    if (strcmp(pt.specs[i]->name, pt.specs[j]->name) == 0)
                        fail_msg("%s %s: parameter %s twice", w->name, v->name,
                                 pt.specs[i]->name);
            /* a multi-GPU variant runs on GPUs and says on how many, at least one */
            if (v->multi_gpu) {
                const dm_param_spec *g = registry_param(w, v, "gpus");
                if (!v->needs_gpu || !g || g->type != DM_P_INT || dm_point_int(&pt, "gpus") < 1 ||
                    !g->allowed || strncmp(g->allowed, "1..", 3) != 0)
                    fail_msg("%s %s: multi_gpu without needs_gpu and an INT gpus of 1.. "
                             "(default at least 1)", w->name, v->name);
            }
        }
        if (cpu == 0)
            fail_msg("%s: no CPU variant to check the GPU ones by", w->name);
    }
    assert_true(nworkloads >= 1);
}

/* ---- limits ---- */

/* The bounds of a range "lo..hi" into lo and hi ("" for an open side). */
static void split_range(const char *allowed, char *lo, char *hi, size_t n)
{
    const char *dots = strstr(allowed, "..");
    snprintf(lo, n, "%.*s", (int)(dots - allowed), allowed);
    snprintf(hi, n, "%s", dots + 2);
}

static void declares_limits(const dm_workload *w, const dm_variant *v, const dm_param_spec *s)
{
    const char *who = v ? v->name : w->name;
    char lo[64], hi[64];
    if (!s->help || !s->help[0])
        fail_msg("%s: %s has no help", who, s->name);
    if (s->type == DM_P_ENUM) {
        if (!s->allowed) {
            if (!is_free_text(w, s))
                fail_msg("%s: ENUM %s lists no values and is not known free text", who,
                         s->name);
            return;
        }
        assert_true(!is_free_text(w, s));
        /* "a|b|c": no empty item, none twice */
        char whole[258], items[256], *save = NULL;
        snprintf(whole, sizeof whole, "|%s|", s->allowed);
        if (strstr(whole, "||"))
            fail_msg("%s: %s lists an empty value in '%s'", who, s->name, s->allowed);
        snprintf(items, sizeof items, "%s", s->allowed);
        for (char *t = strtok_r(items, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
            char item[64];
            snprintf(item, sizeof item, "|%s|", t);
            if (strstr(strstr(whole, item) + 1, item))
                fail_msg("%s: %s lists %s twice", who, s->name, t);
        }
        return;
    }
    if (!s->allowed || !strstr(s->allowed, ".."))
        fail_msg("%s: %s declares no range", who, s->name);
    split_range(s->allowed, lo, hi, sizeof lo);
    if (!lo[0] && !hi[0])
        fail_msg("%s: %s's range '%s' has no bound", who, s->name, s->allowed);
    if (lo[0] && hi[0] && !(strtod(lo, NULL) <= strtod(hi, NULL)))
        fail_msg("%s: %s's range '%s' is empty", who, s->name, s->allowed);
}

static void test_every_parameter_declares_its_limits(void **state)
{
    (void)state;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++)
        each_param(*wp, declares_limits);
    /* and every free-text parameter named above exists */
    for (int i = 0; free_text[i].workload; i++) {
        const dm_workload *w = registry_workload(free_text[i].workload, NULL);
        const dm_param_spec *s = NULL;
        for (const dm_variant *v = w ? w->variants : NULL; v && v->name && !s; v++)
            s = registry_param(w, v, free_text[i].param);
        if (!s || s->type != DM_P_ENUM || s->allowed)
            fail_msg("free text %s %s (%s) is not a listless ENUM of a workload",
                     free_text[i].workload, free_text[i].param, free_text[i].why);
    }
}

/* ---- round trips ---- */

/* text parses under s, formats back, and that parses to an equal value. */
static void round_trips(const char *who, const dm_param_spec *s, const char *text)
{
    dm_value a, b;
    dm_err err = {0};
    char back[128];
    if (dm_value_parse(s, text, &a, &err))
        fail_msg("%s: %s=%s does not parse: %s", who, s->name, text, err.msg);
    dm_value_format(&a, back, sizeof back);
    if (dm_value_parse(s, back, &b, &err) || !dm_value_equal(&a, &b))
        fail_msg("%s: %s=%s formats as '%s', which does not read back the same", who, s->name,
                 text, back);
}

/* text is refused under s as an input error naming the parameter. */
static void refused(const char *who, const dm_param_spec *s, const char *text)
{
    dm_value a;
    dm_err err = {0};
    if (dm_value_parse(s, text, &a, &err) != DM_EINPUT)
        fail_msg("%s: %s=%s is outside '%s' and was accepted", who, s->name, text,
                 s->allowed);
    if (!strstr(err.msg, s->name))
        fail_msg("%s: refusing %s=%s, the message does not name it: %s", who, s->name, text,
                 err.msg);
}

/* The number next to bound v outward (dir -1 below, +1 above), as text. */
static void outside(const dm_param_spec *s, const char *bound, int dir, char *buf, size_t n)
{
    dm_value v;
    assert_int_equal(dm_value_parse(&(dm_param_spec){.name = s->name, .type = s->type}, bound,
                                    &v, NULL), 0);
    if (s->type == DM_P_INT)
        snprintf(buf, n, "%" PRId64, v.i + dir);
    else
        dm_format_double(nextafter(v.r, dir * INFINITY), buf, n);
}

static void round_trips_at_default_and_bounds(const dm_workload *w, const dm_variant *v,
                                              const dm_param_spec *s)
{
    const char *who = v ? v->name : w->name;
    char lo[64], hi[64], out[64];
    round_trips(who, s, s->def);
    if (!s->allowed)
        return;
    if (s->type == DM_P_ENUM) {
        char items[256], *save = NULL;
        snprintf(items, sizeof items, "%s", s->allowed);
        for (char *t = strtok_r(items, "|", &save); t; t = strtok_r(NULL, "|", &save))
            round_trips(who, s, t);
        refused(who, s, "no-such-value");
        return;
    }
    split_range(s->allowed, lo, hi, sizeof lo);
    if (lo[0]) {
        round_trips(who, s, lo);
        outside(s, lo, -1, out, sizeof out);
        refused(who, s, out);
    }
    if (hi[0]) {
        round_trips(who, s, hi);
        outside(s, hi, +1, out, sizeof out);
        refused(who, s, out);
    }
}

static void test_every_parameter_round_trips(void **state)
{
    (void)state;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++)
        each_param(*wp, round_trips_at_default_and_bounds);
}

/* ---- datasets ---- */

static void test_generators_make_the_smallest_dataset_alike_twice(void **state)
{
    (void)state;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        const dm_workload *w = *wp;
        dm_point pt;
        char key[512];
        wfx_smallest_point(w, &w->variants[0], NULL, &pt);
        dm_point_dataset_key(&pt, key, sizeof key);
        for (const char *const *g = w->generators; *g; g++) {
            dm_dataset a, b;
            void *ra, *rb;
            wfx_open(w, *g, &pt, &a, &ra);
            wfx_open(w, *g, &pt, &b, &rb);
            assert_string_equal(a.name, *g);
            assert_string_equal(a.params, key);
            assert_string_equal(a.path, "");
            assert_int_equal(strlen(a.hash), 16);
            assert_true(a.size_bytes > 0);
            assert_string_equal(a.hash, b.hash);
            assert_int_equal(a.size_bytes, b.size_bytes);
            wfx_close(w, &a, ra);
            wfx_close(w, &b, rb);
        }
    }
}

static void test_a_missing_data_file_is_an_input_error_naming_it(void **state)
{
    (void)state;
    const char *path = "/nonexistent/dmbench-contract.data";
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        const dm_workload *w = *wp;
        dm_point pt;
        dm_dataset ds = {0};
        dm_data_source src = {0};
        dm_err err = {0};
        snprintf(src.path, sizeof src.path, "%s", path);
        wfx_smallest_point(w, &w->variants[0], NULL, &pt);
        if (w->dataset_open(&src, &pt, &ds, &err) != DM_EINPUT || !strstr(err.msg, path))
            fail_msg("%s: opening a missing file said (%d) '%s'", w->name, err.code, err.msg);
    }
}

/* ---- variants ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_cpu_variants_match_the_reference_on_the_smallest_dataset(void **state)
{
    (void)state;
    const dm_exec ex = {.device = NULL};
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        const dm_workload *w = *wp;
        double start = now();
        wfx_check_workload(w, &ex);
        double took = now() - start;
        if (took > 1.0)
            fail_msg("%s: the smallest problem took %.2f s on the CPU variants", w->name,
                     took);
    }
}

/* The commas that separate fields in the line at s (up to its newline): those outside
 * double-quoted fields (RFC 4180: a field holding a comma is quoted, quotes doubled). */
static int commas(const char *s)
{
    int n = 0, quoted = 0;
    for (; *s && *s != '\n'; s++) {
        quoted ^= *s == '"';
        n += *s == ',' && !quoted;
    }
    return n;
}

static void test_the_answer_is_written_as_csv_with_a_header(void **state)
{
    (void)state;
    const dm_exec ex = {.device = NULL};
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        const dm_workload *w = *wp;
        const dm_variant *v = w->variants;
        while (v->needs_gpu)
            v++;
        dm_point pt;
        dm_dataset ds;
        dm_err err = {0};
        void *ref, *st;
        const void *out;
        char *text = NULL;
        size_t len = 0;
        wfx_smallest_point(w, v, NULL, &pt);
        wfx_open(w, w->generators[0], &pt, &ds, &ref);
        if (v->setup(&ex, &ds, &pt, &st, &err) || v->run(st, &err) || v->output(st, &out, &err))
            fail_msg("%s %s: %s", w->name, v->name, err.msg);
        FILE *f = open_memstream(&text, &len);
        assert_int_equal(w->write_result(out, &pt, f, &err), 0);
        fclose(f);
        /* a header naming the columns, then rows of as many */
        int lines = 0, cols = commas(text);
        assert_true(text[0] != '\0' && !strchr("0123456789-", text[0]));
        for (const char *l = text; *l; l = strchr(l, '\n') + 1, lines++) {
            assert_non_null(strchr(l, '\n'));
            if (commas(l) != cols)
                fail_msg("%s: line %d of the CSV has %d commas, the header %d", w->name,
                         lines + 1, commas(l), cols);
        }
        assert_true(lines >= 2);
        free(text);
        v->teardown(st);
        wfx_close(w, &ds, ref);
    }
}

static void test_gpu_variants_check_the_device_limits(void **state)
{
    (void)state;
    int ngpu = 0;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        const dm_workload *w = *wp;
        for (const dm_variant *v = w->variants; v->name; v++) {
            if (!v->needs_gpu)
                continue;
            ngpu++;
            dm_point pt;
            char why[512] = "", where[512];
            /* its smallest problem at its defaults runs on the project's card */
            wfx_smallest_point(w, v, &big, &pt);
            dm_point_format(&pt, where, sizeof where);
            if (v->supports && v->supports(&pt, &big, why, sizeof why))
                fail_msg("%s %s %s: refused on %s: %s", w->name, v->name, where, big.name,
                         why);
            /* a variant with a block size refuses one over the device's limit */
            if (!dm_point_get(&pt, "block"))
                continue;
            if (!v->supports)
                fail_msg("%s %s: has a block size and no supports() to check it", w->name,
                         v->name);
            wfx_smallest_point(w, v, &tiny, &pt);
            dm_point_format(&pt, where, sizeof where);
            if (!v->supports(&pt, &tiny, why, sizeof why))
                fail_msg("%s %s %s: accepted on a card of %d threads per block", w->name,
                         v->name, where, tiny.max_threads_per_block);
            assert_true(strlen(why) > 0);
        }
    }
    assert_true(ngpu > 0);
}

static void test_gpu_variants_fail_setup_without_a_gpu(void **state)
{
    (void)state;
    const dm_exec ex = {.device = &big};
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        const dm_workload *w = *wp;
        dm_point pt;
        dm_dataset ds;
        void *ref;
        wfx_smallest_point(w, &w->variants[0], NULL, &pt);
        wfx_open(w, w->generators[0], &pt, &ds, &ref);
        for (const dm_variant *v = w->variants; v->name; v++) {
            if (!v->needs_gpu)
                continue;
            void *st = NULL;
            dm_err err = {0};
            wfx_smallest_point(w, v, &big, &pt);
            int rc = v->setup(&ex, &ds, &pt, &st, &err);
            if (rc != DM_ERUNTIME || !strstr(err.msg, ": cuda"))
                fail_msg("%s %s: setup without a GPU returned %d: '%s'", w->name, v->name, rc,
                         err.msg);
        }
        wfx_close(w, &ds, ref);
    }
}

int main(void)
{
    /* Before CUDA starts: no GPU is visible, whatever the machine has. */
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_workload_brings_what_the_commands_need),
        cmocka_unit_test(test_every_parameter_declares_its_limits),
        cmocka_unit_test(test_every_parameter_round_trips),
        cmocka_unit_test(test_generators_make_the_smallest_dataset_alike_twice),
        cmocka_unit_test(test_a_missing_data_file_is_an_input_error_naming_it),
        cmocka_unit_test(test_cpu_variants_match_the_reference_on_the_smallest_dataset),
        cmocka_unit_test(test_the_answer_is_written_as_csv_with_a_header),
        cmocka_unit_test(test_gpu_variants_check_the_device_limits),
        cmocka_unit_test(test_gpu_variants_fail_setup_without_a_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
