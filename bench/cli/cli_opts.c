/* cli_opts.c - the one option parser of the commands: a table of options (cli.h) read
 * through getopt_long, each value checked for its kind and range, one error line per
 * mistake (cli_usage_error). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CLI_MAX_OPTS 32
#define CLI_HELP 'h'
#define CLI_FIRST_VAL 256 /* getopt_long's val for opts[i] is CLI_FIRST_VAL + i */

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "dmbench %s: error: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'dmbench %s --help')\n", cmd);
    va_end(ap);
    return DM_EXIT_USAGE;
}

/* 1 when text is one of the '|'-separated choices. */
static int is_choice(const char *choices, const char *text)
{
    size_t n = strlen(text);
    for (const char *p = choices; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, text, n) == 0)
            return 1;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

/* Stores text as o's value. Returns 0, or DM_EXIT_USAGE after the error line. */
static int assign(const char *cmd, const cli_opt *o, const char *text)
{
    char *end;
    switch (o->kind) {
    case CLI_FLAG:
        *(int *)o->dest = o->value;
        return 0;
    case CLI_STR:
        *(const char **)o->dest = text;
        return 0;
    case CLI_LIST:
        if (*o->count == o->max)
            return cli_usage_error(cmd, "at most %d --%s", o->max, o->name);
        ((const char **)o->dest)[(*o->count)++] = text;
        return 0;
    case CLI_INT: {
        long v = strtol(text, &end, 10);
        if (end == text || *end || v < o->lo || v > o->hi)
            return cli_usage_error(cmd, "--%s %s: expected an integer in %.0f..%.0f", o->name,
                                   text, o->lo, o->hi);
        *(long *)o->dest = v;
        return 0;
    }
    case CLI_U64: {
        errno = 0;
        unsigned long long v = strtoull(text, &end, 10);
        if (!isdigit((unsigned char)text[0]) || *end || errno) /* strtoull takes "-1" */
            return cli_usage_error(cmd, "--%s %s: expected an integer in 0..%" PRIu64, o->name,
                                   text, UINT64_MAX);
        *(uint64_t *)o->dest = v;
        return 0;
    }
    case CLI_REAL: {
        double v = strtod(text, &end);
        int in = o->open ? v > o->lo && v < o->hi : v >= o->lo && v <= o->hi;
        if (end == text || *end || !in)
            return cli_usage_error(cmd, "--%s %s: expected a number in %c%g, %g%c", o->name,
                                   text, o->open ? '(' : '[', o->lo, o->hi, o->open ? ')' : ']');
        *(double *)o->dest = v;
        return 0;
    }
    case CLI_CHOICE:
        if (!is_choice(o->choices, text))
            return cli_usage_error(cmd, "--%s %s: expected one of %s", o->name, text,
                                   o->choices);
        *(const char **)o->dest = text;
        return 0;
    }
    return cli_usage_error(cmd, "--%s: option of unknown kind", o->name);
}

int cli_parse(int argc, char **argv, const cli_opt *opts, void (*usage)(FILE *), int *first)
{
    const char *cmd = argv[0];
    struct option lo[CLI_MAX_OPTS + 2];
    char shorts[3 * CLI_MAX_OPTS + 4] = ":h";
    int n = 0;
    for (; opts[n].name; n++) {
        if (n == CLI_MAX_OPTS)
            return cli_usage_error(cmd, "more than %d options in the command's table", n);
        int has_arg = opts[n].kind != CLI_FLAG;
        lo[n] = (struct option){ opts[n].name, has_arg ? required_argument : no_argument, NULL,
                                 CLI_FIRST_VAL + n };
        if (opts[n].short_name) {
            size_t len = strlen(shorts);
            shorts[len] = opts[n].short_name;
            shorts[len + 1] = has_arg ? ':' : '\0';
            shorts[len + 2] = '\0';
        }
    }
    lo[n] = (struct option){ "help", no_argument, NULL, CLI_HELP };
    lo[n + 1] = (struct option){ 0 };

    int c;
    optind = 0; /* glibc's full restart; 1 goes on with what a parse left, the q of -hq */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (c == CLI_HELP) {
            usage(stdout);
            return DM_EXIT_OK;
        }
        /* a short option's mistake is named by its letter: in a cluster ("-qz") the word
         * at argv[optind - 1] is not the option */
        int is_short = optopt > 0 && optopt < CLI_FIRST_VAL;
        if (c == ':' && is_short)
            return cli_usage_error(cmd, "option -%c needs a value", optopt);
        if (c == ':')
            return cli_usage_error(cmd, "option %s needs a value", argv[optind - 1]);
        int i = c - CLI_FIRST_VAL;
        for (int k = 0; i < 0 && k < n; k++)
            if (opts[k].short_name == c)
                i = k;
        if ((i < 0 || i >= n) && is_short)
            return cli_usage_error(cmd, "unknown option '-%c'", optopt);
        if (i < 0 || i >= n)
            return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        if (assign(cmd, &opts[i], optarg))
            return DM_EXIT_USAGE;
    }
    *first = optind;
    return -1;
}
