/* test_registry.c - the variant registry: lookups by name, close-match suggestions for
 * unknown names, and default points. What every table must hold is test_contract.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "registry.h"

static void unknown_variant_lists_close_matches(void **st)
{
    (void)st;
    dm_err err = { 0 };
    const dm_workload *w = registry_workload("membw", &err);
    assert_non_null(w);
    assert_null(registry_variant(w, "kernal", &err));
    assert_int_equal(err.code, DM_EINPUT);
    assert_non_null(strstr(err.msg, "unknown variant 'kernal'"));
    assert_non_null(strstr(err.msg, "did you mean: kernel"));
    assert_null(strstr(err.msg, "memcpy"));
}

static void unknown_name_with_no_close_match_lists_all(void **st)
{
    (void)st;
    dm_err err = { 0 };
    const dm_workload *w = registry_workload("membw", &err);
    assert_null(registry_variant(w, "zzzzzzzzzz", &err));
    assert_non_null(strstr(err.msg, "its variants are: cpu, kernel, memcpy"));
    assert_null(registry_workload("membwx", &err));
    assert_non_null(strstr(err.msg, "did you mean: membw"));
}

static void params_are_found_across_levels(void **st)
{
    (void)st;
    const dm_workload *w = registry_workload("membw", NULL);
    const dm_variant *k = registry_variant(w, "kernel", NULL);
    assert_non_null(registry_param(w, k, "n"));
    assert_non_null(registry_param(w, k, "op"));
    assert_non_null(registry_param(w, k, "block"));
    assert_null(registry_param(w, NULL, "block"));
    assert_null(registry_param(w, k, "nope"));
}

static void defaults_fill_dataset_problem_then_variant(void **st)
{
    (void)st;
    const dm_workload *w = registry_workload("membw", NULL);
    const dm_variant *k = registry_variant(w, "kernel", NULL);
    dm_point pt;
    assert_int_equal(registry_point_defaults(w, k, &pt, NULL), 0);
    assert_string_equal(pt.specs[0]->name, "n");
    assert_int_equal(dm_point_int(&pt, "block"), 256);
    assert_string_equal(dm_point_str(&pt, "op"), "copy");
    char key[256];
    dm_point_problem_key(&pt, key, sizeof key);
    assert_string_equal(key, "n=16777216,seed=1,op=copy");
    dm_point_dataset_key(&pt, key, sizeof key);
    assert_string_equal(key, "n=16777216,seed=1");
}

/* The longest text parameter spec s's values may take: a free text's PATH_MAX - 1, the
 * longest of a list, or an int64's 20 characters and a double's shortest round trip's 24. */
static size_t longest_value(const dm_param_spec *s)
{
    if (s->type == DM_P_INT)
        return 20;
    if (s->type == DM_P_REAL)
        return 24;
    if (!s->allowed)
        return DM_TEXT_MAX - 1;
    size_t most = 0;
    for (const char *p = s->allowed; *p;) {
        size_t n = strcspn(p, "|");
        most = n > most ? n : most;
        p += n + (p[n] == '|');
    }
    return most;
}

/* Every variant's point, with every free text (a path) at PATH_MAX - 1 characters, fits
 * DM_KEY_MAX as "name=value,..." with a tuning bucket's ",data=NAME" (NAME_MAX) besides;
 * and such a point formats whole. */
static void every_point_fits_the_key_room(void **st)
{
    (void)st;
    static char path[DM_TEXT_MAX], key[DM_KEY_MAX];
    memset(path, 'p', sizeof path - 1);
    for (const dm_workload *const *w = registry_workloads(); *w; w++)
        for (const dm_variant *v = (*w)->variants; v->name; v++) {
            dm_point pt;
            assert_int_equal(registry_point_defaults(*w, v, &pt, NULL), 0);
            size_t most = strlen(",data=") + 255, texts = 0;
            for (int i = 0; i < pt.nparams; i++) {
                most += strlen(pt.specs[i]->name) + 2 + longest_value(pt.specs[i]);
                if (pt.specs[i]->type == DM_P_ENUM && !pt.specs[i]->allowed) {
                    dm_point_set_str(&pt, pt.specs[i]->name, path);
                    texts += DM_TEXT_MAX - 1;
                }
            }
            if (most >= DM_KEY_MAX)
                fail_msg("%s %s: a point may take %zu characters, more than DM_KEY_MAX %d",
                         (*w)->name, v->name, most, DM_KEY_MAX);
            dm_point_format(&pt, key, sizeof key);
            assert_true(strlen(key) > texts);
            assert_true(strlen(key) < sizeof key - 1);
        }
}

static void edit_distance_is_levenshtein(void **st)
{
    (void)st;
    assert_int_equal(registry_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(registry_edit_distance("", "abc"), 3);
    assert_int_equal(registry_edit_distance("same", "same"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_variant_lists_close_matches),
        cmocka_unit_test(unknown_name_with_no_close_match_lists_all),
        cmocka_unit_test(params_are_found_across_levels),
        cmocka_unit_test(defaults_fill_dataset_problem_then_variant),
        cmocka_unit_test(every_point_fits_the_key_room),
        cmocka_unit_test(edit_distance_is_levenshtein),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
