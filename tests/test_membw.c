/* test_membw.c - the host side of the membw workload: generator, CPU reference,
 * exact comparison, work, and the well-formedness of its variant table. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "membw/membw.h"
#include "registry.h"

extern const dm_workload membw_workload;

/* A point of variant cpu at the defaults, with n, seed and op set. */
static void point_at(dm_point *pt, int64_t n, int64_t seed, const char *op)
{
    dm_err err = {0};
    const dm_variant *v = registry_variant(&membw_workload, "cpu", &err);
    assert_non_null(v);
    assert_int_equal(registry_point_defaults(&membw_workload, v, pt, &err), 0);
    for (int i = 0; i < pt->nparams; i++) {
        const char *name = pt->specs[i]->name;
        if (strcmp(name, "n") == 0)
            pt->values[i].i = n;
        else if (strcmp(name, "seed") == 0)
            pt->values[i].i = seed;
        else if (strcmp(name, "op") == 0)
            pt->values[i].s = dm_intern(op, strlen(op));
    }
}

static void open_dataset(dm_dataset *ds, int64_t n, int64_t seed)
{
    dm_point pt;
    dm_data_source src = {.generator = "random"};
    dm_err err = {0};
    point_at(&pt, n, seed, "copy");
    assert_int_equal(membw_dataset_open(&src, &pt, ds, &err), 0);
}

static void test_generator_is_deterministic_by_seed(void **state)
{
    (void)state;
    dm_dataset x, y, z;
    open_dataset(&x, 1000, 7);
    open_dataset(&y, 1000, 7);
    open_dataset(&z, 1000, 8);
    const membw_data *dx = x.data, *dy = y.data, *dz = z.data;
    assert_memory_equal(dx->a, dy->a, 3 * 1000 * sizeof(float));
    assert_string_equal(x.hash, y.hash);
    assert_memory_not_equal(dx->a, dz->a, 1000 * sizeof(float));
    assert_string_not_equal(x.hash, z.hash);
    assert_int_equal(x.size_bytes, 3 * 1000 * 4);
    assert_string_equal(x.name, "random");
    assert_int_equal(strlen(x.hash), 16);
    membw_dataset_close(&x);
    membw_dataset_close(&y);
    membw_dataset_close(&z);
}

static void test_generator_fills_minus_one_to_one_not_zero(void **state)
{
    (void)state;
    dm_dataset ds;
    open_dataset(&ds, 4096, 1);
    const membw_data *d = ds.data;
    int zeros = 0, negative = 0;
    const float *arrays[] = {d->a, d->b, d->c};
    for (int k = 0; k < 3; k++) {
        for (int64_t i = 0; i < d->n; i++) {
            float x = arrays[k][i];
            assert_true(x >= -1.0f && x < 1.0f);
            zeros += x == 0.0f;
            negative += x < 0.0f;
        }
    }
    assert_true(zeros < 3);
    assert_true(negative > 3 * 4096 / 4 && negative < 3 * 4096 * 3 / 4);
    assert_memory_not_equal(d->a, d->b, 4096 * sizeof(float));
    membw_dataset_close(&ds);
}

static void test_dataset_refuses_files_and_unknown_generators(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    dm_data_source file = {.path = "data.csv"}, gen = {.generator = "zipf"};
    point_at(&pt, 10, 1, "copy");
    assert_int_equal(membw_dataset_open(&file, &pt, &ds, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "data.csv"));
    assert_int_equal(membw_dataset_open(&gen, &pt, &ds, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "zipf"));
}

static void test_reference_copy_and_triad(void **state)
{
    (void)state;
    float a[5] = {1, -2, 0.5f, 0, 3}, b[5] = {0.25f, 1, -1, 2, 0};
    float c[5] = {1, 2, 0.5f, -1, 0.1f};
    membw_data d = {.n = 5, .a = a, .b = b, .c = c};
    float out[5];
    membw_cpu(MEMBW_COPY, &d, out);
    assert_memory_equal(out, a, sizeof a);
    membw_cpu(MEMBW_TRIAD, &d, out);
    float want[5] = {3.25f, 7, 0.5f, -1, fmaf(3.0f, 0.1f, 0.0f)};
    assert_memory_equal(out, want, sizeof want);

    /* through the workload's callback, on a generated dataset */
    dm_dataset ds;
    dm_point pt;
    dm_err err = {0};
    void *ref;
    open_dataset(&ds, 100, 3);
    point_at(&pt, 100, 3, "triad");
    assert_int_equal(membw_reference(&ds, &pt, &ref, &err), 0);
    const membw_data *g = ds.data;
    for (int i = 0; i < 100; i++)
        assert_true(((float *)ref)[i] == fmaf(3.0f, g->c[i], g->b[i]));
    membw_reference_free(ref);
    membw_dataset_close(&ds);
}

static void test_compare_names_the_first_flipped_element(void **state)
{
    (void)state;
    dm_point pt;
    char why[256] = "";
    float ref[1000], out[1000];
    point_at(&pt, 1000, 1, "copy");
    for (int i = 0; i < 1000; i++)
        ref[i] = out[i] = (float)i / 7;
    assert_int_equal(membw_compare(ref, out, &pt, why, sizeof why), 0);
    uint32_t bits;
    memcpy(&bits, &out[617], sizeof bits);
    bits ^= 1; /* one ulp: a tolerance would miss it */
    memcpy(&out[617], &bits, sizeof bits);
    assert_int_not_equal(membw_compare(ref, out, &pt, why, sizeof why), 0);
    assert_non_null(strstr(why, "element 617"));
    out[617] = -0.0f;
    ref[617] = 0.0f;
    assert_int_not_equal(membw_compare(ref, out, &pt, why, sizeof why), 0);
}

static void test_result_csv_gives_each_element_exactly(void **state)
{
    (void)state;
    dm_point pt;
    dm_err err = {0};
    char buf[256];
    const float out[] = {0.5f, -1.0f, 1.0f / 3.0f};
    point_at(&pt, 3, 1, "triad");
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    assert_int_equal(membw_write_result(out, &pt, f, &err), 0);
    fclose(f);
    assert_string_equal(buf, "index,value\n0,0.5\n1,-1\n2,0.333333343\n");
    assert_true(strtof("0.333333343", NULL) == out[2]);
    FILE *ro = fopen("/dev/null", "r");
    assert_non_null(ro);
    assert_int_equal(membw_write_result(out, &pt, ro, &err), DM_ERUNTIME);
    fclose(ro);
}

static void test_work_counts_bytes(void **state)
{
    (void)state;
    dm_point pt;
    dm_work w;
    point_at(&pt, 1000, 1, "copy");
    membw_work(&pt, NULL, NULL, &w);
    assert_true(w.bytes == 8000.0);
    assert_true(w.ops == 0.0);
    point_at(&pt, 1000, 1, "triad");
    membw_work(&pt, NULL, NULL, &w);
    assert_true(w.bytes == 12000.0);
}

static void test_variant_table_is_well_formed(void **state)
{
    (void)state;
    const char *names[] = {"cpu", "kernel", "memcpy", "streams-serial", "streams-concurrent"};
    const int gpu[] = {0, 1, 1, 1, 1};
    dm_err err = {0};
    size_t count = 0;
    for (const dm_variant *v = membw_workload.variants; v->name; v++, count++) {
        assert_true(count < 5);
        assert_string_equal(v->name, names[count]);
        assert_int_equal(v->needs_gpu, gpu[count]);
        assert_non_null(v->description);
        assert_non_null(v->setup);
        assert_non_null(v->run);
        assert_non_null(v->output);
        assert_non_null(v->teardown);
        dm_point pt;
        assert_int_equal(registry_point_defaults(&membw_workload, v, &pt, &err), 0);
        assert_int_equal(dm_point_int(&pt, "n"), 16777216);
        assert_string_equal(dm_point_str(&pt, "op"), "copy");
    }
    assert_int_equal(count, 5);
    assert_string_equal(membw_workload.generators[0], "random");
    assert_null(membw_workload.generators[1]);
    assert_ptr_equal(registry_workload("membw", &err), &membw_workload);
}

static void test_variant_supports(void **state)
{
    (void)state;
    dm_err err = {0};
    char why[128] = "";
    dm_device dev = {.max_threads_per_block = 512};
    const dm_variant *kernel = registry_variant(&membw_workload, "kernel", &err);
    const dm_variant *memcpy_v = registry_variant(&membw_workload, "memcpy", &err);
    dm_point pt;
    assert_int_equal(registry_point_defaults(&membw_workload, kernel, &pt, &err), 0);
    for (int i = 0; i < pt.nparams; i++)
        if (strcmp(pt.specs[i]->name, "block") == 0)
            pt.values[i].i = 1024;
    assert_int_not_equal(kernel->supports(&pt, &dev, why, sizeof why), 0);
    assert_non_null(strstr(why, "1024"));
    assert_int_equal(kernel->supports(&pt, NULL, why, sizeof why), 0);

    assert_int_equal(registry_point_defaults(&membw_workload, memcpy_v, &pt, &err), 0);
    assert_int_equal(memcpy_v->supports(&pt, &dev, why, sizeof why), 0);
    dm_point_set_str(&pt, "op", "triad");
    assert_int_not_equal(memcpy_v->supports(&pt, &dev, why, sizeof why), 0);
    assert_string_equal(why, "memcpy only copies (op=copy)");
}

static void test_cpu_variant_matches_reference(void **state)
{
    (void)state;
    const char *ops[] = {"copy", "triad"};
    dm_err err = {0};
    const dm_variant *cpu = registry_variant(&membw_workload, "cpu", &err);
    dm_exec ex = {0};
    dm_dataset ds;
    open_dataset(&ds, 1001, 5);
    for (int k = 0; k < 2; k++) {
        dm_point pt;
        void *ref, *st;
        const void *out;
        char why[256] = "";
        point_at(&pt, 1001, 5, ops[k]);
        assert_int_equal(membw_reference(&ds, &pt, &ref, &err), 0);
        assert_int_equal(cpu->setup(&ex, &ds, &pt, &st, &err), 0);
        assert_int_equal(cpu->run(st, &err), 0);
        assert_int_equal(cpu->output(st, &out, &err), 0);
        assert_int_equal(membw_compare(ref, out, &pt, why, sizeof why), 0);
        cpu->teardown(st);
        membw_reference_free(ref);
    }
    membw_dataset_close(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_is_deterministic_by_seed),
        cmocka_unit_test(test_generator_fills_minus_one_to_one_not_zero),
        cmocka_unit_test(test_dataset_refuses_files_and_unknown_generators),
        cmocka_unit_test(test_reference_copy_and_triad),
        cmocka_unit_test(test_compare_names_the_first_flipped_element),
        cmocka_unit_test(test_work_counts_bytes),
        cmocka_unit_test(test_result_csv_gives_each_element_exactly),
        cmocka_unit_test(test_variant_table_is_well_formed),
        cmocka_unit_test(test_variant_supports),
        cmocka_unit_test(test_cpu_variant_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
