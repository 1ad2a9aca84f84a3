/* test_cli_opts.c - cli_parse, the commands' one option parser: each kind of option with
 * values inside and outside its range, short options, --help, unknown options, missing
 * values, and positional arguments mixed with the options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"

#define MAX_ARGS 32

/* What the table's options write to; zeroed before each test. */
static struct values {
    int flag, verify;
    const char *str, *choice;
    const char *list[2];
    int nlist;
    long num;
    uint64_t seed;
    double real, level;
} v;

static const cli_opt opts[] = {
    { .name = "flag", .short_name = 'f', .kind = CLI_FLAG, .dest = &v.flag, .value = 1 },
    { .name = "no-verify", .kind = CLI_FLAG, .dest = &v.verify, .value = 0 },
    CLI_OPT_STR("str", &v.str),
    { .name = "list", .short_name = 'l', .kind = CLI_LIST, .dest = v.list, .count = &v.nlist,
      .max = 2 },
    CLI_OPT_INT("int", &v.num, -5, 5),
    CLI_OPT_U64("seed", &v.seed),
    CLI_OPT_REAL("real", &v.real, 0, 1),
    CLI_OPT_REAL_OPEN("level", &v.level, 0, 1),
    CLI_OPT_CHOICE("choice", &v.choice, "cold|hot"),
    { 0 },
};

/* The command line parse() split, and what cli_parse printed. */
static char words[1024], out[1024], err[1024];
static char *args[MAX_ARGS + 1];
static int nargs, usage_calls;

static void usage(FILE *f)
{
    usage_calls++;
    fprintf(f, "usage: t [options]\n");
}

static int setup(void **state)
{
    (void)state;
    memset(&v, 0, sizeof v);
    v.verify = 1;
    usage_calls = 0;
    return 0;
}

/* The whole of f, from its start, into buf (of size n); closes f. */
static void drain(FILE *f, char *buf, size_t n)
{
    rewind(f);
    size_t len = fread(buf, 1, n - 1, f);
    buf[len] = '\0';
    fclose(f);
}

/* Parses line, words split at single spaces (the first, "t", the command's name), into v,
 * with what cli_parse writes on stdout and stderr kept in out and err. Returns cli_parse's
 * answer; *first is set when it is -1. */
static int parse(const char *line, int *first)
{
    snprintf(words, sizeof words, "%s", line);
    nargs = 0;
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w && nargs < MAX_ARGS;
         w = strtok_r(NULL, " ", &save))
        args[nargs++] = w;
    args[nargs] = NULL;
    FILE *o = tmpfile(), *e = tmpfile();
    assert_non_null(o);
    assert_non_null(e);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    dup2(fileno(o), 1);
    dup2(fileno(e), 2);
    int rc = cli_parse(nargs, args, opts, usage, first);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    drain(o, out, sizeof out);
    drain(e, err, sizeof err);
    return rc;
}

/* Asserts that line is refused with exit status 2 and one error line holding what. */
static void refused(const char *line, const char *what)
{
    int first = -1;
    assert_int_equal(parse(line, &first), DM_EXIT_USAGE);
    if (!strstr(err, what))
        fail_msg("%s: '%s' not in the error '%s'", line, what, err);
    assert_memory_equal(err, "dmbench t: error: ", 18);
    assert_non_null(strstr(err, " (see 'dmbench t --help')\n"));
    assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
    assert_string_equal(out, "");
}

/* Asserts that line parses, with no output and no positional argument. */
static void accepted(const char *line)
{
    int first = -1;
    assert_int_equal(parse(line, &first), -1);
    assert_int_equal(first, nargs);
    assert_string_equal(out, "");
    assert_string_equal(err, "");
}

static void test_flags_set_their_value(void **state)
{
    (void)state;
    accepted("t");
    assert_int_equal(v.flag, 0);
    assert_int_equal(v.verify, 1);
    accepted("t --flag --no-verify");
    assert_int_equal(v.flag, 1);
    assert_int_equal(v.verify, 0);
    refused("t --flag=1", "unknown option '--flag=1'");
}

static void test_a_string_takes_the_next_word_or_what_follows_equals(void **state)
{
    (void)state;
    accepted("t --str a");
    assert_string_equal(v.str, "a");
    accepted("t --str=b --str c");
    assert_string_equal(v.str, "c");
}

static void test_a_list_keeps_up_to_its_max_in_order(void **state)
{
    (void)state;
    accepted("t --list a -l b");
    assert_int_equal(v.nlist, 2);
    assert_string_equal(v.list[0], "a");
    assert_string_equal(v.list[1], "b");
    v.nlist = 0;
    refused("t --list a --list b --list c", "at most 2 --list");
    assert_int_equal(v.nlist, 2);
}

static void test_an_integer_must_be_one_in_range(void **state)
{
    (void)state;
    accepted("t --int -5");
    assert_int_equal(v.num, -5);
    accepted("t --int 5");
    assert_int_equal(v.num, 5);
    refused("t --int 6", "--int 6: expected an integer in -5..5");
    refused("t --int -6", "--int -6: expected an integer in -5..5");
    refused("t --int 3x", "--int 3x: expected an integer in -5..5");
    refused("t --int x", "--int x: expected an integer in -5..5");
    refused("t --int 2.5", "--int 2.5: expected an integer in -5..5");
    assert_int_equal(v.num, 5);
}

static void test_a_seed_takes_every_unsigned_64_bit_integer(void **state)
{
    (void)state;
    accepted("t --seed 18446744073709551615");
    assert_true(v.seed == UINT64_MAX);
    accepted("t --seed 0");
    assert_true(v.seed == 0);
    refused("t --seed 18446744073709551616",
            "--seed 18446744073709551616: expected an integer in 0..18446744073709551615");
    refused("t --seed -1", "--seed -1: expected an integer in 0..18446744073709551615");
    refused("t --seed +1", "--seed +1: expected an integer");
    refused("t --seed x", "--seed x: expected an integer");
    refused("t --seed 7y", "--seed 7y: expected an integer");
}

static void test_a_real_must_be_a_number_in_range(void **state)
{
    (void)state;
    accepted("t --real 0 --level 0.95");
    assert_true(v.real == 0);
    assert_true(v.level == 0.95);
    accepted("t --real 1");
    assert_true(v.real == 1);
    accepted("t --real 2.5e-1");
    assert_true(v.real == 0.25);
    refused("t --real 1.5", "--real 1.5: expected a number in [0, 1]");
    refused("t --real nan", "--real nan: expected a number in [0, 1]");
    refused("t --real x", "--real x: expected a number in [0, 1]");
    refused("t --real 0.5s", "--real 0.5s: expected a number in [0, 1]");
    /* an open interval refuses its ends */
    refused("t --level 1", "--level 1: expected a number in (0, 1)");
    refused("t --level 0", "--level 0: expected a number in (0, 1)");
    assert_true(v.level == 0.95);
}

static void test_a_choice_must_be_one_of_its_words(void **state)
{
    (void)state;
    accepted("t --choice hot");
    assert_string_equal(v.choice, "hot");
    accepted("t --choice cold");
    assert_string_equal(v.choice, "cold");
    refused("t --choice ho", "--choice ho: expected one of cold|hot");
    refused("t --choice cold|hot", "--choice cold|hot: expected one of cold|hot");
    refused("t --choice hotter", "expected one of cold|hot");
}

static void test_short_options_alone_grouped_and_with_attached_values(void **state)
{
    (void)state;
    accepted("t -f -l a");
    assert_int_equal(v.flag, 1);
    assert_string_equal(v.list[0], "a");
    setup(state);
    accepted("t -fla -lb");
    assert_int_equal(v.flag, 1);
    assert_int_equal(v.nlist, 2);
    assert_string_equal(v.list[0], "a");
    assert_string_equal(v.list[1], "b");
    refused("t -x", "unknown option '-x'");
    refused("t -s", "unknown option '-s'"); /* --str has no short name */
    refused("t -fx", "unknown option '-x'");  /* named by its letter inside a cluster */
    refused("t -fl", "option -l needs a value");
}

static void test_help_prints_the_usage_and_answers_0(void **state)
{
    (void)state;
    int first;
    assert_int_equal(parse("t --flag --help --int 9", &first), DM_EXIT_OK);
    assert_int_equal(usage_calls, 1);
    assert_string_equal(out, "usage: t [options]\n");
    assert_string_equal(err, "");
    assert_int_equal(parse("t -h", &first), DM_EXIT_OK);
    assert_int_equal(usage_calls, 2);
}

static void test_a_parse_starts_afresh_after_one_stopped_inside_a_group(void **state)
{
    (void)state;
    int first;
    assert_int_equal(parse("t -hf", &first), DM_EXIT_OK); /* the f is never read */
    assert_int_equal(v.flag, 0);
    accepted("t");
    assert_int_equal(v.flag, 0);
}

static void test_unknown_options_and_missing_values_answer_2(void **state)
{
    (void)state;
    refused("t --bogus", "unknown option '--bogus'");
    refused("t a --bogus b", "unknown option '--bogus'");
    refused("t --str", "option --str needs a value");
    refused("t --int", "option --int needs a value");
    refused("t -l", "option -l needs a value");
    assert_int_equal(usage_calls, 0);
}

static void test_positional_arguments_mix_with_options(void **state)
{
    (void)state;
    int first;
    assert_int_equal(parse("t a --int 3 b -f c --str=s", &first), -1);
    assert_int_equal(nargs - first, 3);
    assert_string_equal(args[first], "a");
    assert_string_equal(args[first + 1], "b");
    assert_string_equal(args[first + 2], "c");
    assert_int_equal(v.num, 3);
    assert_int_equal(v.flag, 1);
    assert_string_equal(v.str, "s");
    /* after --, everything is positional */
    assert_int_equal(parse("t x --flag -- --int -f", &first), -1);
    assert_int_equal(nargs - first, 3);
    assert_string_equal(args[first], "x");
    assert_string_equal(args[first + 1], "--int");
    assert_string_equal(args[first + 2], "-f");
    assert_int_equal(v.num, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_flags_set_their_value, setup),
        cmocka_unit_test_setup(test_a_string_takes_the_next_word_or_what_follows_equals, setup),
        cmocka_unit_test_setup(test_a_list_keeps_up_to_its_max_in_order, setup),
        cmocka_unit_test_setup(test_an_integer_must_be_one_in_range, setup),
        cmocka_unit_test_setup(test_a_seed_takes_every_unsigned_64_bit_integer, setup),
        cmocka_unit_test_setup(test_a_real_must_be_a_number_in_range, setup),
        cmocka_unit_test_setup(test_a_choice_must_be_one_of_its_words, setup),
        cmocka_unit_test_setup(test_short_options_alone_grouped_and_with_attached_values, setup),
        cmocka_unit_test_setup(test_help_prints_the_usage_and_answers_0, setup),
        cmocka_unit_test_setup(test_a_parse_starts_afresh_after_one_stopped_inside_a_group,
                               setup),
        cmocka_unit_test_setup(test_unknown_options_and_missing_values_answer_2, setup),
        cmocka_unit_test_setup(test_positional_arguments_mix_with_options, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
