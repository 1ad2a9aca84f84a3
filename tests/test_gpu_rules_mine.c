/* test_gpu_rules_mine.c - `dmbench mine rules` on the GPU: every GPU variant writes the
 * cpu variant's CSV byte for byte (counts and measures, the measures in their shortest
 * exact form), on a rules file and on generated rules, prints its stages with --facts,
 * and a rule set the GPU cannot hold is an input error naming the rule. Exits 77 (skip)
 * without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "cli_fixture.h"
#include "registry.h"

/* A table with numeric and categorical columns, and rules on it. */
static const char table_csv[] = "x,y,colour,class\n"
                                "1,0.5,red,1\n"
                                "2,1.5,blue,0\n"
                                "3,2.5,red,1\n"
                                "4,3.5,green,0\n"
                                "5,4.5,red,1\n"
                                "6,5.5,blue,1\n"
                                "7,6.5,green,0\n";
static const char rules_txt[] = "IF x <= 3 AND colour = red THEN class = 1\n"
                                "IF y in [1, 4] OR NOT colour = blue THEN class = 0\n"
                                "IF x > 100 THEN class = 1\n"
                                "IF NOT x > 100 THEN y < 3 OR colour != green\n";

static void every_gpu_variant_writes_the_cpu_variants_csv(void **state)
{
    fixture *f = *state;
    dm_err err = {0};
    const dm_workload *w = registry_workload("rules", &err);
    char data[160], rules[160], cpu_csv[192], csv[192];
    const char *problems[2];
    int mined = 0;
    assert_non_null(w);
    snprintf(data, sizeof data, "%s/d.csv", f->dir);
    snprintf(rules, sizeof rules, "%s/r.txt", f->dir);
    snprintf(cpu_csv, sizeof cpu_csv, "%s/cpu.csv", f->dir);
    snprintf(csv, sizeof csv, "%s/gpu.csv", f->dir);
    write_file(data, table_csv);
    write_file(rules, rules_txt);
    char by_file[400], generated[256];
    snprintf(by_file, sizeof by_file, "--data %s --rules %s", data, rules);
    snprintf(generated, sizeof generated,
             "--generator synthetic -p instances=20011 -p attributes=7 --generate 300 --seed 9");
    problems[0] = by_file;
    problems[1] = generated;
    for (int p = 0; p < 2; p++) {
        assert_int_equal(dmbench(f, "mine rules -v cpu %s --out %s", problems[p], cpu_csv), 0);
        char *want = strdup(slurp(cpu_csv));
        assert_non_null(want);
        for (const dm_variant *v = w->variants; v->name; v++) {
            if (!v->needs_gpu)
                continue;
            int rc = dmbench(f, "mine rules --variant %s %s -p block=96 --facts --out %s",
                             v->name, problems[p], csv);
            if (rc != 0)
                fail_msg("mine rules -v %s %s: exit %d: %s", v->name, problems[p], rc,
                         slurp(f->errf));
            const char *facts = slurp(f->errf);
            if (!strstr(facts, "# stages: copy_in_s ") || !strstr(facts, "total_s"))
                fail_msg("mine rules -v %s --facts: no stages in %s", v->name, facts);
            if (strcmp(slurp(csv), want) != 0)
                fail_msg("mine rules -v %s %s: its CSV differs from the cpu variant's",
                         v->name, problems[p]);
            mined++;
        }
        free(want);
    }
    fprintf(stderr, "%d GPU runs of dmbench mine rules matched the cpu variant's CSV\n",
            mined);
    assert_true(mined > 0);
}

static void a_rule_longer_than_constant_memory_is_an_input_error(void **state)
{
    fixture *f = *state;
    char data[160], rules[160];
    static char text[16384];
    snprintf(data, sizeof data, "%s/d.csv", f->dir);
    snprintf(rules, sizeof rules, "%s/r.txt", f->dir);
    write_file(data, table_csv);
    snprintf(text, sizeof text, "IF x > 1");
    for (int k = 0; k < 700; k++)
        dm_append(text, sizeof text, " AND y > %d", k % 5);
    dm_append(text, sizeof text, " THEN class = 1\n");
    write_file(rules, text);
    assert_int_equal(dmbench(f, "mine rules -v serial --data %s --rules %s", data, rules), 2);
    assert_non_null(strstr(slurp(f->errf), "rule 1: its antecedent has 1401 tokens, more than "
                                           "the 1248 the GPU's constant memory holds"));
    assert_string_equal(slurp(f->out), "");
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_rules_mine: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(every_gpu_variant_writes_the_cpu_variants_csv, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_rule_longer_than_constant_memory_is_an_input_error,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
