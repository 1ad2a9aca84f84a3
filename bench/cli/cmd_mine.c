/* cmd_mine.c - `dmbench mine WORKLOAD --variant V`: one variant run once on a sweep
 * point's parameters and data (with the workload's own flags, dm_mine_option), verified,
 * its mining result written as CSV to --out (by a temporary file renamed into place, so
 * an error leaves no file) or to stdout. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mine.h"
#include "registry.h"

#define MAX_PARAMS 64
#define MAX_MINE_OPTIONS 16 /* flags of one workload */
#define MAX_REPEATS 16      /* values of one repeatable flag */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench mine WORKLOAD --variant V [options]\n\n"
            "Runs one variant of the workload once, on the parameters and data a sweep point\n"
            "would use, checks its output against the workload's CPU reference, and writes\n"
            "the mining result as CSV with a header line.\n\n"
            "options:\n"
            "  -v, --variant V       the variant to run (dmbench list WORKLOAD shows them)\n"
            "  -p, --param NAME=VALUE\n"
            "                        a dataset, problem or variant parameter (repeatable);\n"
            "                        the others take their defaults, or the tuned values\n"
            "                        for the GPU, as in a sweep (the rule that chose each\n"
            "                        is printed on stderr)\n"
            "  --data FILE           read the dataset from FILE\n"
            "  --generator NAME      make it with this generator of the workload (default:\n"
            "                        its first)\n"
            "  -o, --out FILE.csv    write the result there (default: stdout); on any\n"
            "                        error no file is left\n"
            "  --no-verify           skip the comparison with the CPU reference\n"
            "  --facts               print how the run went to stderr (the workload's\n"
            "                        facts: per mining level, its candidates and the wall\n"
            "                        time of each phase)\n"
            "  --device N            the GPU to use (default 0)\n"
            "  --db PATH             the results database whose per-card store (tune --store,\n"
            "                        crossover --store) gives tuned values (default\n"
            "                        $DMBENCH_DB or results/dmbench.sqlite; read only)\n"
            "  -h, --help            this text\n\n"
            "workloads:");
    for (const dm_workload *const *w = registry_workloads(); *w; w++)
        fprintf(out, " %s", (*w)->name);
    fprintf(out, "\n");
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        if (!(*w)->mine_options)
            continue;
        fprintf(out, "\noptions of %s (each sets a parameter, after the -p ones):\n",
                (*w)->name);
        for (const dm_mine_option *o = (*w)->mine_options; o->flag; o++) {
            char left[64];
            snprintf(left, sizeof left, "--%s %s", o->flag, o->metavar);
            fprintf(out, "  %-21s %s (%s%s)\n", left, o->help, o->param,
                    o->repeatable ? "; repeatable" : "");
        }
    }
}

/* The workload whose flags the command line may hold: the first argument that names one
 * (NULL when none does). */
static const dm_workload *named_workload(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        for (const dm_workload *const *w = registry_workloads(); *w; w++)
            if (strcmp(argv[i], (*w)->name) == 0)
                return *w;
    return NULL;
}

/* The values given to a workload's flags. */
typedef struct mine_flags {
    const char *vals[MAX_MINE_OPTIONS][MAX_REPEATS];
    int nvals[MAX_MINE_OPTIONS];
    char param[MAX_MINE_OPTIONS][DM_KEY_MAX]; /* "param=value", for the flags given */
} mine_flags;

/* Appends w's flags to opts (at *n, room for MAX_MINE_OPTIONS more), each storing into
 * fl. */
static void add_workload_flags(const dm_workload *w, cli_opt *opts, int *n, mine_flags *fl)
{
    for (int j = 0; w && w->mine_options && w->mine_options[j].flag; j++) {
        const dm_mine_option *o = &w->mine_options[j];
        opts[(*n)++] = (cli_opt){ .name = o->flag, .kind = CLI_LIST, .dest = fl->vals[j],
                                  .count = &fl->nvals[j],
                                  .max = o->repeatable ? MAX_REPEATS : 1 };
    }
}

/* Appends "param=value" to params for each of w's flags given, a repeatable flag's
 * values joined. Returns 0, or DM_EINPUT when there is no room or the values are longer
 * together than a point holds. */
static int apply_workload_flags(const dm_workload *w, mine_flags *fl, const char **params,
                                int *nparams, dm_err *err)
{
    for (int j = 0; w->mine_options && w->mine_options[j].flag; j++) {
        if (fl->nvals[j] == 0)
            continue;
        if (*nparams == MAX_PARAMS)
            return dm_err_set(err, DM_EINPUT, "more than %d parameters given", MAX_PARAMS);
        char *p = fl->param[j];
        size_t used = (size_t)snprintf(p, sizeof fl->param[j], "%s=", w->mine_options[j].param);
        for (int k = 0; k < fl->nvals[j]; k++) {
            used += strlen(fl->vals[j][k]) + (k ? strlen(DM_MINE_JOIN) : 0);
            if (used >= sizeof fl->param[j])
                return dm_err_set(err, DM_EINPUT, "--%s: its values are longer than %zu "
                                  "characters together", w->mine_options[j].flag,
                                  sizeof fl->param[j] - 1);
            dm_append(p, sizeof fl->param[j], "%s%s", k ? DM_MINE_JOIN : "",
                      fl->vals[j][k]);
        }
        params[(*nparams)++] = p;
    }
    return 0;
}

/* The exit status after saying that --flag's path is longer than a path may be; -1 when
 * it fits or was not given. */
static int too_long(const char *flag, const char *path)
{
    if (!path || strlen(path) < DM_TEXT_MAX)
        return -1;
    return cli_usage_error("mine", "--%s '%.40s...': longer than the %d characters of a path "
                           "(PATH_MAX)", flag, path, DM_TEXT_MAX - 1);
}

/* Makes an empty file beside path (path.XXXXXX, named in tmp) with the mode a new file
 * gets, its missing folders made first, and opens it. Returns 0, DM_EINPUT when path is
 * a directory or its folder cannot be made (dm_path_is_bad), or DM_ERUNTIME. */
static int open_beside(const char *path, char *tmp, size_t n, FILE **f, dm_err *err)
{
    struct stat sb;
    int rc;
    if ((rc = dm_make_parent_dirs(path, err)) != 0) {
        dm_err_prefix(err, "--out");
        return rc;
    }
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return dm_path_fail(err, EISDIR, "--out %s", path);
    snprintf(tmp, n, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return dm_path_fail(err, errno, "--out %s", path);
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(*f = fdopen(fd, "w"))) {
        dm_err_set(err, DM_ERUNTIME, "--out %s: %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        return DM_ERUNTIME;
    }
    return 0;
}

/* Closes f and renames tmp to path when rc is 0, else removes tmp. Returns rc, or
 * DM_ERUNTIME with err set when closing or renaming fails. */
static int close_beside(FILE *f, const char *tmp, const char *path, int rc, dm_err *err)
{
    if (fclose(f) != 0 && rc == 0)
        rc = dm_err_set(err, DM_ERUNTIME, "--out %s: %s", path, strerror(errno));
    if (rc == 0 && rename(tmp, path) != 0)
        rc = dm_err_set(err, DM_ERUNTIME, "--out %s: %s", path, strerror(errno));
    if (rc != 0)
        unlink(tmp);
    return rc;
}

int cmd_mine(int argc, char **argv)
{
    const char *variant = NULL, *data = NULL, *generator = NULL, *out = NULL, *db = NULL;
    const char *params[MAX_PARAMS];
    int nparams = 0, verify = 1, facts = 0;
    long device = 0;
    dm_err err = { 0 };
    mine_flags fl;
    memset(&fl, 0, sizeof fl);
    cli_opt opts[10 + MAX_MINE_OPTIONS] = {
        { .name = "variant", .short_name = 'v', .kind = CLI_STR, .dest = &variant },
        { .name = "param", .short_name = 'p', .kind = CLI_LIST, .dest = params,
          .count = &nparams, .max = MAX_PARAMS },
        CLI_OPT_STR("data", &data),
        CLI_OPT_STR("generator", &generator),
        { .name = "out", .short_name = 'o', .kind = CLI_STR, .dest = &out },
        { .name = "no-verify", .kind = CLI_FLAG, .dest = &verify, .value = 0 },
        { .name = "facts", .kind = CLI_FLAG, .dest = &facts, .value = 1 },
        CLI_OPT_INT("device", &device, 0, 1023),
        CLI_OPT_STR("db", &db),
    };
    int nopts = 9;
    const dm_workload *named = named_workload(argc, argv);
    add_workload_flags(named, opts, &nopts, &fl);
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (first != argc - 1)
        return cli_usage_error("mine", first == argc ? "no workload given"
                                                     : "more than one workload given");
    if (named && strcmp(argv[first], named->name) != 0)
        return cli_usage_error("mine", "'%s' is the value of an option and the name of a "
                               "workload; give the workload '%s' before it", named->name,
                               argv[first]);
    if (!variant)
        return cli_usage_error("mine", "no --variant given");
    if (data && generator)
        return cli_usage_error("mine", "both --data and --generator given; expected one");

    const dm_workload *w = registry_workload(argv[first], &err);
    const dm_variant *v = w ? registry_variant(w, variant, &err) : NULL;
    if (!v || apply_workload_flags(w, &fl, params, &nparams, &err) != 0)
        return cli_fail(&err);
    dm_data_source src = { 0 };
    if ((rc = too_long("data", data)) >= 0 || (rc = too_long("out", out)) >= 0)
        return rc;
    if (data)
        snprintf(src.path, sizeof src.path, "%s", data);
    else if (!generator && !(w->generators && w->generators[0]))
        return cli_usage_error("mine", "workload '%s' has no generator; expected --data FILE",
                               w->name);
    else
        snprintf(src.generator, sizeof src.generator, "%s",
                 generator ? generator : w->generators[0]);

    dm_mine_opts mo = { .workload = w, .variant = v, .params = params, .nparams = nparams,
                        .source = &src, .device = (int)device, .verify = verify,
                        .facts = facts ? stderr : NULL };
    dm_mined ran;
    char tmp[DM_TEXT_MAX + 8]; /* out's path and ".XXXXXX" */
    FILE *f = stdout;
    if (cli_load_card_choices(db, NULL, &err) != 0 ||
        (out && open_beside(out, tmp, sizeof tmp, &f, &err) != 0))
        return cli_fail(&err);
    rc = mine_point(&mo, f, &ran, &err);
    if (out)
        rc = close_beside(f, tmp, out, rc, &err);
    if (rc != 0)
        return cli_fail(&err);
    char where[DM_KEY_MAX];
    dm_point_format(&ran.pt, where, sizeof where);
    fprintf(stderr, "dmbench mine: %s %s on %s (%s) at %s: %s\n", w->name, v->name, ran.data,
            ran.shape, where,
            verify ? "verified against the CPU reference" : "not verified (--no-verify)");
    const char *bound = dm_point_bound(&ran.pt);
    if (bound)
        fprintf(stderr, "dmbench mine: not exact (the CSV says so in its first line): %s\n",
                bound);
    if (ran.pt.chosen[0])
        fprintf(stderr, "dmbench mine: chosen for the card: %s\n", ran.pt.chosen);
    return DM_EXIT_OK;
}
