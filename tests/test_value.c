/* test_value.c - parameter values: parsing against a spec (type, range, enum), exact
 * formatting, and the point keys built from them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "dm.h"

static const dm_param_spec block = { .name = "block", .type = DM_P_INT, .def = "256",
                                     .allowed = "32..1024" };
static const dm_param_spec n = { .name = "n", .type = DM_P_INT, .def = "1", .allowed = "1.." };
static const dm_param_spec frac = { .name = "frac", .type = DM_P_REAL, .def = "0.5",
                                    .allowed = "0..1" };
static const dm_param_spec mode = { .name = "mode", .type = DM_P_ENUM, .def = "tex",
                                    .allowed = "tex|shared" };

static void int_parses_decimal_shift_and_exact_exponent(void **st)
{
    (void)st;
    dm_value v;
    dm_err err = { 0 };
    assert_int_equal(dm_value_parse(&n, "1048576", &v, &err), 0);
    assert_int_equal(v.i, 1048576);
    assert_int_equal(dm_value_parse(&n, "1<<20", &v, &err), 0);
    assert_int_equal(v.i, 1 << 20);
    assert_int_equal(dm_value_parse(&n, "1e6", &v, &err), 0);
    assert_int_equal(v.i, 1000000);
}

static void int_rejects_fractions_words_and_out_of_range(void **st)
{
    (void)st;
    dm_value v;
    dm_err err = { 0 };
    assert_int_equal(dm_value_parse(&block, "2.5", &v, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "expected an integer"));
    assert_int_equal(dm_value_parse(&block, "abc", &v, &err), DM_EINPUT);
    assert_int_equal(dm_value_parse(&block, "2048", &v, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "out of range"));
    assert_non_null(strstr(err.msg, "32..1024"));
    assert_int_equal(dm_value_parse(&block, "16", &v, &err), DM_EINPUT);
    assert_int_equal(dm_value_parse(&n, "0", &v, &err), DM_EINPUT);
    assert_int_equal(dm_value_parse(&block, "1024", &v, &err), 0);
}

static void real_checks_range_and_formats_round_trip(void **st)
{
    (void)st;
    dm_value v, back;
    dm_err err = { 0 };
    char buf[64];
    assert_int_equal(dm_value_parse(&frac, "0.1", &v, &err), 0);
    dm_value_format(&v, buf, sizeof buf);
    assert_string_equal(buf, "0.1");
    assert_int_equal(dm_value_parse(&frac, buf, &back, &err), 0);
    assert_true(dm_value_equal(&v, &back));
    assert_int_equal(dm_value_parse(&frac, "1.5", &v, &err), DM_EINPUT);
    assert_int_equal(dm_value_parse(&frac, "nan", &v, &err), DM_EINPUT);
}

static void enum_accepts_only_listed_names(void **st)
{
    (void)st;
    dm_value v;
    dm_err err = { 0 };
    assert_int_equal(dm_value_parse(&mode, "shared", &v, &err), 0);
    assert_string_equal(v.s, "shared");
    assert_true(isnan(dm_value_num(&v)));
    assert_int_equal(dm_value_parse(&mode, "share", &v, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "tex|shared"));
    assert_int_equal(dm_value_parse(&mode, "", &v, &err), DM_EINPUT);

    /* free text (no list): any text up to a path's PATH_MAX - 1 characters, kept whole */
    const dm_param_spec path = { .name = "path", .type = DM_P_ENUM, .def = "-" };
    static char text[DM_TEXT_MAX + 1];
    memset(text, 'a', DM_TEXT_MAX - 1);
    text[DM_TEXT_MAX - 1] = '\0';
    text[300] = ' ';
    assert_int_equal(dm_value_parse(&path, text, &v, &err), 0);
    assert_string_equal(v.s, text);
    strcat(text, "b");
    assert_int_equal(dm_value_parse(&path, text, &v, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "4096 characters, longer than the 4095 of a path"));
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(dm_value_parse(&path, "", &v, &err), DM_EINPUT);
    assert_string_equal(err.msg, "path is empty; expected a text");
}

/* Texts are interned: equal texts give one pointer, through the pool's growth, so a
 * value is a pointer wide however long its text, and values compare equal by it. */
static void texts_are_interned_once(void **st)
{
    (void)st;
    const dm_param_spec path = { .name = "path", .type = DM_P_ENUM };
    const char *first[1000];
    char text[32];
    for (int i = 0; i < 1000; i++) { /* past the pool's first 64 buckets, several times */
        snprintf(text, sizeof text, "/data/run %d.csv", i);
        first[i] = dm_intern(text, strlen(text));
        assert_string_equal(first[i], text);
    }
    for (int i = 0; i < 1000; i++) {
        snprintf(text, sizeof text, "/data/run %d.csv", i);
        assert_ptr_equal(dm_intern(text, strlen(text)), first[i]);
    }
    assert_ptr_equal(dm_intern("ab", 1), dm_intern("a", 1)); /* the length, not the NUL */
    dm_value a, b;
    dm_err err = { 0 };
    assert_int_equal(dm_value_parse(&path, "/data/run 7.csv", &a, &err), 0);
    assert_int_equal(dm_value_parse(&path, "/data/run 7.csv", &b, &err), 0);
    assert_ptr_equal(a.s, first[7]);
    assert_true(dm_value_equal(&a, &b));
    assert_int_equal(dm_value_parse(&path, "/data/run 8.csv", &b, &err), 0);
    assert_false(dm_value_equal(&a, &b));
    assert_true(sizeof(dm_value) <= 32);
}

static void err_prefix_keeps_the_message(void **st)
{
    (void)st;
    dm_err err = { 0 };
    dm_err_set(&err, DM_EINPUT, "bad %s", "thing");
    assert_int_equal(dm_err_prefix(&err, "file.yaml:%d:%d", 3, 7), DM_EINPUT);
    assert_string_equal(err.msg, "file.yaml:3:7: bad thing");
}

static void hash_is_fnv1a_on_tails_and_sees_every_byte(void **st)
{
    (void)st;
    /* FNV-1a 64 test vectors for inputs shorter than a word: "" and "a". */
    assert_true(dm_hash_bytes(DM_HASH_INIT, "", 0) == 0xcbf29ce484222325ULL);
    assert_true(dm_hash_bytes(DM_HASH_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
    /* a change in any byte of a longer input changes the hash */
    char buf[21] = "abcdefghijklmnopqrst";
    uint64_t h = dm_hash_bytes(DM_HASH_INIT, buf, 20);
    for (int i = 0; i < 20; i++) {
        buf[i] ^= 1;
        assert_true(dm_hash_bytes(DM_HASH_INIT, buf, 20) != h);
        buf[i] ^= 1;
    }
    /* hashing in pieces at word boundaries equals hashing at once */
    assert_true(dm_hash_bytes(dm_hash_bytes(DM_HASH_INIT, buf, 8), buf + 8, 12) == h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(int_parses_decimal_shift_and_exact_exponent),
        cmocka_unit_test(int_rejects_fractions_words_and_out_of_range),
        cmocka_unit_test(real_checks_range_and_formats_round_trip),
        cmocka_unit_test(enum_accepts_only_listed_names),
        cmocka_unit_test(texts_are_interned_once),
        cmocka_unit_test(err_prefix_keeps_the_message),
        cmocka_unit_test(hash_is_fnv1a_on_tails_and_sees_every_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
