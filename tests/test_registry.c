/* test_registry.c - the variant registry: every table is well formed, lookups by name,
 * close-match suggestions for unknown names, and default points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "registry.h"

static void every_table_is_well_formed(void **st)
{
    (void)st;
    int nworkloads = 0;
    for (const dm_workload *const *w = registry_workloads(); *w; w++, nworkloads++) {
        const dm_workload *wl = *w;
        assert_non_null(wl->name);
        assert_non_null(wl->description);
        assert_non_null(wl->dataset_open);
        assert_non_null(wl->reference);
        assert_non_null(wl->compare);
        assert_non_null(wl->generators);
        assert_non_null(wl->generators[0]);
        assert_non_null(wl->variants[0].name);
        for (const dm_variant *v = wl->variants; v->name; v++) {
            assert_non_null(v->setup);
            assert_non_null(v->run);
            assert_non_null(v->output);
            assert_non_null(v->teardown);
            /* every default parses and is allowed, and names are unique in the point */
            dm_point pt;
            dm_err err = { 0 };
            assert_int_equal(registry_point_defaults(wl, v, &pt, &err), 0);
            for (int i = 0; i < pt.nparams; i++)
                for (int j = i + 1; j < pt.nparams; j++)
                    assert_string_not_equal(pt.specs[i]->name, pt.specs[j]->name);
            /* and it is found again by name */
            assert_ptr_equal(registry_variant(wl, v->name, &err), v);
        }
        assert_ptr_equal(registry_workload(wl->name, NULL), wl);
    }
    assert_true(nworkloads >= 1);
}

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
        cmocka_unit_test(every_table_is_well_formed),
        cmocka_unit_test(unknown_variant_lists_close_matches),
        cmocka_unit_test(unknown_name_with_no_close_match_lists_all),
        cmocka_unit_test(params_are_found_across_levels),
        cmocka_unit_test(defaults_fill_dataset_problem_then_variant),
        cmocka_unit_test(edit_distance_is_levenshtein),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
