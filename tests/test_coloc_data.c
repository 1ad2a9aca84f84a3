/* test_coloc_data.c - the colocation workload's data: both loaders and every error they
 * name by path:line, seattle2012.csv as published, and the synthetic generator (layout,
 * determinism, parameters refused). */
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

#include "coloc/coloc.h"

#define SEATTLE DM_SOURCE_DIR "/../shared/datasets/coloc/seattle2012.csv"

/* Writes text to a new temporary file; returns its path (a static buffer). */
static const char *temp_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_coloc_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

typedef int (*loader_fn)(const char *, cl_points *, dm_err *);

/* Asserts that load fails on text with DM_EINPUT and one line "path:line:...what..."
 * (a column may follow the line). */
static void load_fails(loader_fn load, const char *text, int line, const char *what)
{
    const char *path = temp_file(text);
    cl_points p;
    dm_err err = {0};
    assert_int_equal(load(path, &p, &err), DM_EINPUT);
    char where[96];
    snprintf(where, sizeof where, "%s:%d:", path, line);
    if (strncmp(err.msg, where, strlen(where)) != 0 || !strstr(err.msg, what))
        fail_msg("'%s' gave '%s', expected '%s...%s'", text, err.msg, where, what);
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(p.n, 0);
    assert_null(p.x);
    unlink(path);
}

static void test_seattle_format_good(void **state)
{
    (void)state;
    const char *path = temp_file("4\r\n7,1.5,2\n3,0,0\n7, 2.5 ,3\n3,4,5\n\n0,0,10,10\n\n");
    cl_points p;
    dm_err err = {0};
    assert_int_equal(cl_points_load_seattle(path, &p, &err), 0);
    assert_int_equal(p.n, 4);
    assert_int_equal(p.nfeat, 2);
    assert_string_equal(p.names[0], "7");
    assert_string_equal(p.names[1], "3");
    assert_int_equal(cl_points_feature(&p, "3"), 1);
    assert_int_equal(cl_points_feature(&p, "9"), -1);
    assert_int_equal(p.start[1], 2);
    assert_int_equal(p.start[2], 4);
    const double x[] = {1.5, 2.5, 0, 4}, y[] = {2, 3, 0, 5};
    assert_memory_equal(p.x, x, sizeof x);
    assert_memory_equal(p.y, y, sizeof y);
    assert_true(p.minx == 0 && p.miny == 0 && p.maxx == 10 && p.maxy == 10);
    cl_points_free(&p);
    unlink(path);
}

static void test_seattle_format_errors(void **state)
{
    (void)state;
    loader_fn s = cl_points_load_seattle;
    load_fails(s, "", 1, "empty file");
    load_fails(s, "\n\n", 1, "empty file");
    load_fails(s, "two\n1,0,0\n\n0,0,1,1\n", 1, "number of points");
    load_fails(s, "2\n1,0,0\n1,0\n\n0,0,1,1\n", 3, "2 fields, expected 3 (feature,x,y)");
    load_fails(s, "2\n1,0,0\n1,0,0,4\n\n0,0,1,1\n", 3, "4 fields");
    load_fails(s, "2\n1,0,0\n1,zero,0\n\n0,0,1,1\n", 3, "'zero' is not a number");
    load_fails(s, "2\n1,0,0\n1,nan,0\n\n0,0,1,1\n", 3, "'nan' is not finite");
    load_fails(s, "2\n1,0,0\n1,0,inf\n\n0,0,1,1\n", 3, "'inf' is not finite");
    load_fails(s, "2\n1,0,0\n,0,0\n\n0,0,1,1\n", 3, "empty feature");
    load_fails(s, "3\n1,0,0\n2,1,1\n\n0,0,1,1\n", 4,
               "2 points before the blank line, line 1 says 3");
    load_fails(s, "1\n1,0,0\n2,1,1\n\n0,0,1,1\n", 4,
               "2 points before the blank line, line 1 says 1");
    load_fails(s, "2\n1,0,0\n2,1,1\n", 3, "no blank line and bounding box");
    load_fails(s, "2\n1,0,0\n2,1,1\n\n", 4, "no bounding box");
    load_fails(s, "2\n1,0,0\n2,1,1\n\n0,0,1\n", 5, "minX,minY,maxX,maxY");
    load_fails(s, "2\n1,0,0\n2,1,1\n\n1,0,0,1\n", 5, "min above max");
    load_fails(s, "2\n1,0,0\n2,1,1\n\n0,0,1,1\n3,0,0\n", 6, "after the bounding box");
    load_fails(s, "3\n1,0,0\n2,1,1\n2,1,1.5\n\n0,0,1,1\n", 4, "outside the bounding box");
    load_fails(s, "2\n1,-0.5,0\n2,1,1\n\n0,0,1,1\n", 2, "outside the bounding box");
}

static void test_csv_good(void **state)
{
    (void)state;
    const char *path = temp_file("feature,x,y\nrobbery,1,2\n\ntheft,-3,4\nrobbery,5,-6\n");
    cl_points p;
    dm_err err = {0};
    assert_int_equal(cl_points_load_csv(path, &p, &err), 0);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.nfeat, 2);
    assert_string_equal(p.names[0], "robbery");
    const double x[] = {1, 5, -3}, y[] = {2, -6, 4};
    assert_memory_equal(p.x, x, sizeof x);
    assert_memory_equal(p.y, y, sizeof y);
    assert_true(p.minx == -3 && p.miny == -6 && p.maxx == 5 && p.maxy == 4);
    cl_points_free(&p);
    unlink(path);
    path = temp_file("a,1,2\nb,3,4\n"); /* no header */
    assert_int_equal(cl_points_load_csv(path, &p, &err), 0);
    assert_int_equal(p.n, 2);
    cl_points_free(&p);
    unlink(path);
}

static void test_csv_errors(void **state)
{
    (void)state;
    loader_fn c = cl_points_load_csv;
    load_fails(c, "", 1, "no points");
    load_fails(c, "feature,x,y\n", 1, "no points");
    load_fails(c, "a,1,2\nb,3\n", 2, "expected 3 (feature,x,y)");
    load_fails(c, "a,1,2\n\nb,3,x\n", 3, "'x' is not a number");
    load_fails(c, "a,1,2\nb,NaN,1\n", 2, "not finite");
    load_fails(c, "feature,x,y\nfeature,x,y\n", 2, "not a number");
    load_fails(c, "a,1,2\nthis-name-is-much-longer-than-thirty-one,1,1\n", 2, "longer than 31");
    char text[65 * 16] = "";
    for (int f = 0; f <= CL_MAX_FEATURES; f++)
        dm_append(text, sizeof text, "f%d,0,0\n", f);
    load_fails(c, text, CL_MAX_FEATURES + 1, "one more than the 64 allowed");
}

static void test_seattle_published(void **state)
{
    (void)state;
    if (access(SEATTLE, R_OK) != 0) {
        fprintf(stderr, "test_seattle_published: %s not there, skipped\n", SEATTLE);
        skip();
    }
    cl_points p;
    dm_err err = {0};
    assert_int_equal(cl_points_load_seattle(SEATTLE, &p, &err), 0);
    assert_int_equal(p.n, 165458);
    assert_int_equal(p.nfeat, 13);
    static const struct {
        const char *id;
        uint32_t n;
    } counts[] = {{"1", 12600},  {"5", 3776},   {"8", 5058},  {"9", 6126},  {"10", 27621},
                  {"14", 7499},  {"20", 14003}, {"24", 5055}, {"28", 6160}, {"39", 4977},
                  {"40", 32565}, {"42", 35365}, {"43", 4653}};
    for (int i = 0; i < 13; i++) {
        int f = cl_points_feature(&p, counts[i].id);
        assert_int_equal(f, i); /* grouped by feature, in this order */
        assert_int_equal(p.start[f + 1] - p.start[f], counts[i].n);
    }
    assert_true(p.minx == 0 && p.miny == 0 && p.maxx == 16011.3 && p.maxy == 24902.3);
    cl_points_free(&p);
}

static void test_generator_layout(void **state)
{
    (void)state;
    cl_gen_params g;
    cl_gen_defaults(&g);
    assert_true(g.area == 10000 && g.distance == 10);
    assert_int_equal(g.max_size, 5);
    assert_int_equal(g.patterns, 2);
    assert_int_equal(g.noise_features, 2);
    g.instances = 12003;
    g.clumpiness = 3;
    cl_points p;
    cl_planted planted;
    dm_err err = {0};
    assert_int_equal(cl_generate(&g, &p, &planted, &err), 0);
    assert_int_equal(p.nfeat, 12);
    assert_int_equal(p.n, 12003);
    for (int f = 0; f < 12; f++)
        assert_int_equal(p.start[f + 1] - p.start[f], 1000 + (f == 10) * 2 + (f == 11));
    assert_int_equal(p.start[10], 10000);
    assert_int_equal(planted.n, 2);
    assert_int_equal(planted.mask[0], 0x1f);
    assert_int_equal(planted.mask[1], 0x3e0);
    for (uint32_t i = 0; i < p.n; i++)
        assert_true(p.x[i] >= 0 && p.x[i] < 10000 && p.y[i] >= 0 && p.y[i] < 10000);
    /* Row instance r of pattern 0 is point r of features 0..4; groups of 3 share a
     * neighbourhood, so the 15 points of a group are pairwise neighbours. */
    double d2 = g.distance * g.distance;
    for (uint32_t grp = 0; grp < 1000; grp += 3)
        for (uint32_t a = grp; a < grp + 3 && a < 1000; a++)
            for (uint32_t b = grp; b < grp + 3 && b < 1000; b++)
                for (int f = 0; f < 5; f++)
                    for (int h = 0; h < 5; h++) {
                        uint32_t i = p.start[f] + a, j = p.start[h] + b;
                        assert_true(cl_near(p.x[i], p.y[i], p.x[j], p.y[j], d2));
                    }
    cl_points_free(&p);
}

static void test_generator_deterministic(void **state)
{
    (void)state;
    cl_gen_params g;
    cl_gen_defaults(&g);
    g.instances = 5000;
    cl_points a, b, c;
    dm_err err = {0};
    assert_int_equal(cl_generate(&g, &a, NULL, &err), 0);
    assert_int_equal(cl_generate(&g, &b, NULL, &err), 0);
    g.seed = 2;
    assert_int_equal(cl_generate(&g, &c, NULL, &err), 0);
    assert_memory_equal(a.x, b.x, a.n * sizeof *a.x);
    assert_memory_equal(a.y, b.y, a.n * sizeof *a.y);
    assert_memory_not_equal(a.x, c.x, a.n * sizeof *a.x);
    cl_points_free(&a);
    cl_points_free(&b);
    cl_points_free(&c);
}

static void test_generator_errors(void **state)
{
    (void)state;
    cl_gen_params g;
    cl_points p;
    dm_err err = {0};
    static const struct {
        const char *field, *what;
    } cases[] = {{"area", "area"},         {"distance", "distance"},
                 {"max_size", "max_size"}, {"features", "features"},
                 {"instances", "instances"}, {"clumpiness", "clumpiness"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cl_gen_defaults(&g);
        const char *f = cases[i].field;
        if (!strcmp(f, "area"))
            g.area = -1;
        else if (!strcmp(f, "distance"))
            g.distance = 20000;
        else if (!strcmp(f, "max_size"))
            g.max_size = 1;
        else if (!strcmp(f, "features"))
            g.patterns = 13;
        else if (!strcmp(f, "instances"))
            g.instances = 11;
        else
            g.clumpiness = 0;
        assert_int_equal(cl_generate(&g, &p, NULL, &err), DM_EINPUT);
        assert_non_null(strstr(err.msg, cases[i].what));
        assert_null(p.x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seattle_format_good),
        cmocka_unit_test(test_seattle_format_errors),
        cmocka_unit_test(test_csv_good),
        cmocka_unit_test(test_csv_errors),
        cmocka_unit_test(test_seattle_published),
        cmocka_unit_test(test_generator_layout),
        cmocka_unit_test(test_generator_deterministic),
        cmocka_unit_test(test_generator_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
