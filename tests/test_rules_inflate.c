/* test_rules_inflate.c - the rules workload's gzip decoder against the system gzip:
 * empty, small and large inputs of text and random bytes at every compression level
 * (stored, fixed and dynamic blocks), concatenated members, and corrupt or truncated
 * data refused with one-line errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rng.h"
#include "rules/rl_inflate.h"
#include "tmpdir.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return tmpdir_make(dir, sizeof dir, "rules-inflate");
}

static int teardown(void **state)
{
    (void)state;
    return tmpdir_remove(dir);
}

/* Writes n bytes to dir/name. */
static void write_bytes(const char *name, const uint8_t *data, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* Runs `gzip -LEVEL -c` (plus extra flags) on data; returns the compressed bytes
 * (malloc'd) and their count in *gz_len. */
static uint8_t *system_gzip(const uint8_t *data, size_t n, const char *flags, size_t *gz_len)
{
    write_bytes("plain", data, n);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "gzip %s -c '%s/plain'", flags, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, len = 0;
    uint8_t *gz = malloc(cap);
    size_t got;
    while ((got = fread(gz + len, 1, cap - len, p)) > 0) {
        len += got;
        if (len == cap)
            gz = realloc(gz, cap *= 2);
    }
    assert_int_equal(pclose(p), 0);
    *gz_len = len;
    return gz;
}

/* Asserts that rl_gunzip gives back exactly data from gzip's output for data. */
static void round_trip(const uint8_t *data, size_t n, const char *flags)
{
    size_t gz_len, out_len;
    uint8_t *gz = system_gzip(data, n, flags, &gz_len), *out;
    dm_err err = {0};
    int rc = rl_gunzip(gz, gz_len, "t.gz", &out, &out_len, &err);
    if (rc)
        fail_msg("gzip %s of %zu bytes: %s", flags, n, err.msg);
    assert_int_equal(out_len, n);
    assert_true(n == 0 || memcmp(out, data, n) == 0);
    assert_int_equal(out[n], 0);
    free(out);
    free(gz);
}

/* n bytes of text-like data (repeating words, so matches at many distances). */
static uint8_t *text_bytes(size_t n, uint64_t seed)
{
    static const char *words[] = {"rule", "antecedent", "consequent", "support", "\t",
                                  "0.25", "1e-3", "\n", "lift", "abalone"};
    dm_rng r = dm_rng_seed(seed);
    uint8_t *b = malloc(n + 16);
    for (size_t i = 0; i < n;) {
        const char *w = words[dm_rng_below(&r, 10)];
        for (; *w && i < n; w++)
            b[i++] = (uint8_t)*w;
    }
    return b;
}

static uint8_t *random_bytes(size_t n, uint64_t seed)
{
    dm_rng r = dm_rng_seed(seed);
    uint8_t *b = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)dm_rng_next(&r);
    return b;
}

static void test_inflate_matches_gzip(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 100, 4096, 70000, 1 << 20};
    static const char *levels[] = {"-1", "-6", "-9"};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int l = 0; l < 3; l++) {
            uint8_t *t = text_bytes(sizes[s], s), *r = random_bytes(sizes[s], s);
            round_trip(t, sizes[s], levels[l]);
            round_trip(r, sizes[s], levels[l]); /* incompressible: stored blocks */
            free(t);
            free(r);
        }
    /* One byte repeated: long overlapping copies at distance 1. */
    uint8_t *same = malloc(300000);
    memset(same, 'x', 300000);
    round_trip(same, 300000, "-9");
    /* The name in the header (FNAME) is skipped: gzip without -n writes it. */
    round_trip(same, 1000, "-N");
    free(same);
}

static void test_inflate_members(void **state)
{
    (void)state;
    size_t a_len, b_len, out_len;
    uint8_t *a = system_gzip((const uint8_t *)"first\n", 6, "-6", &a_len);
    uint8_t *b = system_gzip((const uint8_t *)"second\n", 7, "-1", &b_len);
    uint8_t *ab = malloc(a_len + b_len + 4), *out;
    memcpy(ab, a, a_len);
    memcpy(ab + a_len, b, b_len);
    dm_err err = {0};
    assert_int_equal(rl_gunzip(ab, a_len + b_len, "ab.gz", &out, &out_len, &err), 0);
    assert_int_equal(out_len, 13);
    assert_memory_equal(out, "first\nsecond\n", 13);
    free(out);
    /* Bytes after the last member are refused. */
    memcpy(ab + a_len, "junk", 4);
    assert_int_equal(rl_gunzip(ab, a_len + 4, "ab.gz", &out, &out_len, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "bytes after the last member"));
    assert_null(out);
    free(ab);
    free(a);
    free(b);
}

/* Asserts that decoding [gz, gz + n) fails with DM_EINPUT and a one-line message
 * naming the input and containing what (any failure when what is NULL). */
static void gunzip_fails(const uint8_t *gz, size_t n, const char *what)
{
    uint8_t *out = (uint8_t *)"unset";
    size_t out_len = 7;
    dm_err err = {0};
    if (rl_gunzip(gz, n, "bad.gz", &out, &out_len, &err) != DM_EINPUT)
        fail_msg("%zu bytes decoded to %zu", n, out_len);
    assert_null(out);
    assert_int_equal(out_len, 0);
    assert_true(strncmp(err.msg, "bad.gz: gzip: ", 14) == 0);
    assert_null(strchr(err.msg, '\n'));
    if (what && !strstr(err.msg, what))
        fail_msg("expected '%s' in '%s'", what, err.msg);
}

static void test_inflate_errors(void **state)
{
    (void)state;
    gunzip_fails((const uint8_t *)"", 0, "empty input");
    gunzip_fails((const uint8_t *)"plain text, not gzip", 20, "not gzip data");
    gunzip_fails((const uint8_t *)"\x1f\x8b\x08", 3, "header cut short");

    size_t n = 50000, gz_len;
    /* -n: no name in the header, so the compressed data start at byte 10. */
    uint8_t *t = text_bytes(n, 7), *gz = system_gzip(t, n, "-6 -n", &gz_len);
    uint8_t *bad = malloc(gz_len);
    /* Cut short anywhere: inside the header, the blocks, the trailer. */
    for (size_t cut = 0; cut < gz_len; cut += cut < 40 ? 1 : 997)
        gunzip_fails(gz, cut, NULL);
    gunzip_fails(gz, gz_len - 1, "data cut short");
    /* Header fields. */
    memcpy(bad, gz, gz_len);
    bad[2] = 7;
    gunzip_fails(bad, gz_len, "unknown compression method");
    memcpy(bad, gz, gz_len);
    bad[3] = 0x80;
    gunzip_fails(bad, gz_len, "reserved header flags");
    /* Trailer: CRC32 and ISIZE. */
    memcpy(bad, gz, gz_len);
    bad[gz_len - 8] ^= 1;
    gunzip_fails(bad, gz_len, "CRC32 does not match");
    memcpy(bad, gz, gz_len);
    bad[gz_len - 4] ^= 1;
    gunzip_fails(bad, gz_len, "length does not match");
    /* A block of type 3 (BFINAL 1, BTYPE 11). */
    memcpy(bad, gz, gz_len);
    bad[10] = 0x07;
    gunzip_fails(bad, gz_len, "invalid block type");
    /* A stored block whose NLEN is not LEN's complement. */
    const uint8_t stored[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x01, 0x01, 0x00, 0x00, 0x00};
    gunzip_fails(stored, sizeof stored, "does not match its complement");
    /* Flipped bits anywhere in the compressed data: an error, never a crash or a hang,
     * or, where the flip only moves a copy to an equal string, the same output (any
     * other change the codes absorb is caught by the CRC). The last byte, whose high
     * bits may be padding, is left alone. */
    dm_rng r = dm_rng_seed(3);
    for (int i = 0; i < 300; i++) {
        memcpy(bad, gz, gz_len);
        size_t at = 10 + dm_rng_below(&r, (uint32_t)(gz_len - 19));
        bad[at] ^= (uint8_t)(1u << dm_rng_below(&r, 8));
        uint8_t *out;
        size_t out_len;
        dm_err err = {0};
        int rc = rl_gunzip(bad, gz_len, "bad.gz", &out, &out_len, &err);
        if (rc == 0) /* a match moved to another copy of the same bytes */
            assert_true(out_len == n && memcmp(out, t, n) == 0);
        else
            gunzip_fails(bad, gz_len, NULL);
        free(out);
    }
    /* Random bytes behind a valid header. */
    for (int i = 0; i < 100; i++) {
        uint8_t *junk = random_bytes(600, 100 + (uint64_t)i);
        memcpy(junk, gz, 10);
        gunzip_fails(junk, 600, NULL);
        free(junk);
    }
    free(bad);
    free(gz);
    free(t);
}

static void test_crc32_known(void **state)
{
    (void)state;
    assert_int_equal(rl_crc32(0, (const uint8_t *)"123456789", 9), 0xcbf43926u);
    assert_int_equal(rl_crc32(rl_crc32(0, (const uint8_t *)"1234", 4),
                              (const uint8_t *)"56789", 5),
                     0xcbf43926u);
    assert_int_equal(rl_crc32(0, NULL, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32_known),
        cmocka_unit_test(test_inflate_matches_gzip),
        cmocka_unit_test(test_inflate_members),
        cmocka_unit_test(test_inflate_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
