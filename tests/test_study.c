/* test_study.c - every registered workload's study (study.h) against the tree: its
 * default sweep and the sweeps its claims and targets read exist under sweeps/ and run
 * that workload (or, for a target, some registered one); its claims are whole and its
 * targets' claims are its own; and the core helpers the rules read parameters with. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "registry.h"
#include "study.h"
#include "sweep.h"

/* Loads sweeps/NAME.yaml; fails the test naming who needs it when it does not load.
 * Returns its workload. */
static const dm_workload *sweep_of(const char *name, const char *who)
{
    char path[512];
    dm_sweep *s = NULL;
    dm_err err = { 0 };
    snprintf(path, sizeof path, "%s/sweeps/%s.yaml", DM_SOURCE_DIR, name);
    if (sweep_load(path, &s, &err))
        fail_msg("%s names sweeps/%s.yaml: %s", who, name, err.msg);
    const dm_workload *w = sweep_workload(s);
    sweep_free(s);
    return w;
}

/* 1 when name is a dataset, problem or variant parameter of w. */
static int has_param(const dm_workload *w, const char *name)
{
    if (registry_param(w, NULL, name))
        return 1;
    for (const dm_variant *v = w->variants; v->name; v++)
        if (registry_param(w, v, name))
            return 1;
    return 0;
}

static void every_study_names_sweeps_that_exist(void **state)
{
    (void)state;
    int workloads = 0, claims = 0;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++, workloads++) {
        const dm_workload *w = *wp;
        const dm_study *s = w->study;
        if (!s)
            fail_msg("workload %s has no study", w->name);
        if (!s->default_sweep)
            fail_msg("workload %s's study has no default sweep", w->name);
        assert_ptr_equal(sweep_of(s->default_sweep, w->name), w);
        if (!s->claims)
            continue;
        assert_non_null(s->claim_sweeps);
        assert_non_null(s->claim_sweeps[0]);
        for (const char *const *sw = s->claim_sweeps; *sw; sw++)
            assert_ptr_equal(sweep_of(*sw, w->name), w);
        assert_true(s->papers && s->papers[0].file && s->papers[0].cite);
        assert_true(s->claims_title && s->group_prefix);
        if (!has_param(w, s->group_axis) || !has_param(w, s->best_axis))
            fail_msg("%s: the CUPTI lines' axes %s and %s are not parameters of the workload",
                     w->name, s->group_axis, s->best_axis);
        for (const dm_claim *cl = s->claims; cl->id; cl++, claims++) {
            assert_non_null(cl->judge);
            assert_true(cl->title && cl->wording && cl->metric && cl->shorts && cl->shorts[0]);
            assert_true(cl->line > 0 && cl->quote_line >= cl->line);
            assert_ptr_equal(study_claim(s, cl->id), cl); /* ids are unique */
        }
    }
    assert_true(workloads >= 2);
    assert_true(claims >= 8);
}

static void every_target_is_named_once_and_judges_its_own_claims(void **state)
{
    (void)state;
    const char *names[256];
    size_t n = 0;
    for (const dm_workload *const *wp = registry_workloads(); *wp; wp++) {
        const dm_study *s = (*wp)->study;
        for (const dm_target *t = s && s->targets ? s->targets : NULL; t && t->name; t++) {
            for (size_t i = 0; i < n; i++)
                if (strcmp(names[i], t->name) == 0)
                    fail_msg("target %s is named twice", t->name);
            assert_true(n < sizeof names / sizeof names[0]);
            names[n++] = t->name;
            assert_true(t->paper && t->item && t->caption);
            assert_int_not_equal(t->kind, DM_TARGET_PUBLISHED); /* a study measures its own */
            assert_non_null(t->sweep);
            const dm_workload *runs = sweep_of(t->sweep, t->name);
            if (t->kind != DM_TARGET_FIGURE)
                continue;
            assert_ptr_equal(runs, *wp);
            assert_true(has_param(runs, t->row_axis) && has_param(runs, t->col_axis));
            for (const char *const *id = t->claims; id && *id; id++)
                if (!study_claim(s, *id))
                    fail_msg("%s judges %s, which %s's study has not", t->name, *id,
                             (*wp)->name);
        }
    }
    assert_true(n >= 5);
}

static void params_match_by_name_and_number(void **state)
{
    (void)state;
    const char *p = "length=393019,level=3,block=32,scale=0.5,op=copy";
    assert_true(study_params_match(p, ""));
    assert_true(study_params_match(p, "level=3"));
    assert_true(study_params_match(p, "level=3,block=32"));
    assert_true(study_params_match(p, "block=32,level=3")); /* any order */
    assert_true(study_params_match(p, "scale=0.50"));       /* numbers as numbers */
    assert_true(study_params_match(p, "op=copy"));
    assert_false(study_params_match(p, "level=2"));
    assert_false(study_params_match(p, "level=3,block=16"));
    assert_false(study_params_match(p, "op=cop"));
    assert_false(study_params_match(p, "lev=3"));            /* a name is matched whole */
    assert_false(study_params_match(p, "vel=3"));
    assert_false(study_params_match(p, "episodes=3"));      /* a parameter it has not */
    assert_false(study_params_match(p, "level"));           /* no value: nothing matches */
    assert_true(study_param(p, "block") == 32);
    assert_true(study_param(p, "scale") == 0.5);
    assert_true(isnan(study_param(p, "op")));
    assert_true(isnan(study_param(p, "bloc")));
    assert_true(isnan(study_param("", "block")));
}

static void verdicts_are_named_and_counted(void **state)
{
    (void)state;
    assert_string_equal(study_verdict_name(DM_HOLDS), "holds");
    assert_string_equal(study_verdict_name(DM_PARTLY), "partly holds");
    assert_string_equal(study_verdict_name(DM_BREAKS), "does not hold");
    assert_string_equal(study_verdict_name(DM_UNMEASURED), "not measurable here");
    const int counts[DM_NVERDICTS] = { [DM_HOLDS] = 4, [DM_PARTLY] = 2, [DM_BREAKS] = 1,
                                       [DM_UNMEASURED] = 1 };
    char buf[128];
    study_counts_text(counts, buf, sizeof buf);
    assert_string_equal(buf, "4 hold, 2 partly hold, 1 do not hold, 1 not measurable here");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_study_names_sweeps_that_exist),
        cmocka_unit_test(every_target_is_named_once_and_judges_its_own_claims),
        cmocka_unit_test(params_match_by_name_and_number),
        cmocka_unit_test(verdicts_are_named_and_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
