/* cmd_plot.c - `dmbench plot`: writes a plot's data from the results database to a .dat
 * file (results/plotdata.c) and runs gnuplot on plots/NAME.gp to draw it as PNG
 * (pngcairo) and SVG. The scripts are found through $DMBENCH_PLOTS, else
 * <directory of the dmbench binary>/../plots, else the source tree the build was
 * configured from (CMAKE_HOME_DIRECTORY in the build directory's CMakeCache.txt). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "plotdata.h"

extern char **environ;

#define PLOT_DEFAULT_OUT "plots/out"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench plot NAME [RUN] [--db PATH] [--axis NAME] [--where NAME=VALUE ...]\n"
            "                    [--variants A,B] [--group NAME] [--out DIR] [--format png|svg|both]\n"
            "       dmbench plot --list\n\n"
            "Draws plot NAME of a run (a run id or 'latest', the default) from the results\n"
            "database: writes the plot's data to DIR/NAME-runID.dat (a header naming the run,\n"
            "card and columns, then one block per series) and runs gnuplot on plots/NAME.gp to\n"
            "draw DIR/NAME-runID.png and .svg. The scripts are found in $DMBENCH_PLOTS, else in\n"
            "plots/ beside the build directory of this binary, else in the source tree the\n"
            "build was configured from.\n\n"
            "options:\n"
            "  --db PATH            the results database (default: $DMBENCH_DB, else %s)\n"
            "  --axis NAME          the x axis (default: block for time-vs-block; else the run's\n"
            "                       first numeric dataset or problem parameter that varies)\n"
            "  --where NAME=VALUE   only points whose NAME is VALUE (points without NAME stay);\n"
            "                       repeatable, and named in the output files\n"
            "  --variants A,B       crossover: the two variants (default: the run's two)\n"
            "  --group NAME         crossover: the axis grouping the crossovers (required)\n"
            "  --out DIR            where the files go (default: %s)\n"
            "  --format FORMAT      png, svg or both (default)\n"
            "  --list               the plots and what each shows\n"
            "  -h, --help           this help\n",
            STORE_DEFAULT_PATH, PLOT_DEFAULT_OUT);
}

static void list_plots(FILE *out)
{
    for (const dm_plot_kind *k = plotdata_kinds; k->name; k++)
        fprintf(out, "%-20s %s\n", k->name, k->summary);
}

/* Whether path is a regular file. */
static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The source directory recorded in the CMakeCache.txt of build directory dir, in out;
 * 0 when found. */
static int cmake_source_dir(const char *dir, char *out, size_t n)
{
    static const char key[] = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    char path[PATH_MAX + 32], line[PATH_MAX];
    snprintf(path, sizeof path, "%s/CMakeCache.txt", dir);
    FILE *fp = fopen(path, "r");
    int rc = -1;
    while (fp && rc != 0 && fgets(line, sizeof line, fp))
        if (strncmp(line, key, sizeof key - 1) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, n, "%s", line + sizeof key - 1);
            rc = 0;
        }
    if (fp)
        fclose(fp);
    return rc;
}

/* The folder holding NAME.gp, in dir. Returns 0, or DM_ERUNTIME naming the places
 * looked in. */
static int find_scripts(const char *name, char *dir, size_t n, dm_err *err)
{
    char exe[PATH_MAX], script[PATH_MAX + 256], src[PATH_MAX + 64];
    const char *env = getenv("DMBENCH_PLOTS");
    if (env && env[0]) {
        snprintf(script, sizeof script, "%s/%s.gp", env, name);
        if (!is_file(script))
            return dm_err_set(err, DM_ERUNTIME, "%s: no such script (DMBENCH_PLOTS=%s names "
                              "the folder of the plot scripts)", script, env);
        snprintf(dir, n, "%s", env);
        return 0;
    }
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return dm_err_set(err, DM_ERUNTIME, "finding the plot scripts: cannot read "
                          "/proc/self/exe; set DMBENCH_PLOTS to the source tree's plots/");
    exe[len] = '\0';
    char *bindir = dirname(exe);
    snprintf(script, sizeof script, "%s/../plots/%s.gp", bindir, name);
    if (is_file(script)) {
        snprintf(dir, n, "%s/../plots", bindir);
        return 0;
    }
    if (cmake_source_dir(bindir, src, sizeof src) == 0) {
        snprintf(script, sizeof script, "%s/plots/%s.gp", src, name);
        if (is_file(script)) {
            snprintf(dir, n, "%s/plots", src);
            return 0;
        }
    }
    return dm_err_set(err, DM_ERUNTIME, "plot script %s.gp not found in %s/../plots nor in the "
                      "configured source tree; set DMBENCH_PLOTS to the source tree's plots/",
                      name, bindir);
}

/* mkdir -p. Returns 0, or DM_ERUNTIME. */
static int make_dirs(const char *path, dm_err *err)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return dm_err_set(err, DM_ERUNTIME, "creating %s: %s", buf, strerror(errno));
        if (c == '\0')
            return 0;
        *p = c;
    }
}

/* Appends "name='value'; " to the gnuplot command text (quotes doubled, gnuplot's way);
 * cmd is sized for the longest paths and labels, so nothing is cut. */
static void gp_set(char *cmd, size_t n, const char *name, const char *value)
{
    size_t used = strlen(cmd);
    int w = snprintf(cmd + used, n - used, "%s='", name);
    if (w < 0 || (size_t)w >= n - used)
        return;
    used += (size_t)w;
    for (const char *p = value; *p && used + 5 < n; p++) {
        if (*p == '\'')
            cmd[used++] = '\'';
        cmd[used++] = *p;
    }
    snprintf(cmd + used, n - used, "'; ");
}

static void gp_set_int(char *cmd, size_t n, const char *name, int value)
{
    size_t used = strlen(cmd);
    snprintf(cmd + used, n - used, "%s=%d; ", name, value);
}

/* The last non-empty line of fp (read from its start), in out. */
static void last_line(FILE *fp, char *out, size_t n)
{
    char line[1024];
    out[0] = '\0';
    rewind(fp);
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[strspn(line, " \t^")])
            snprintf(out, n, "%s", line + strspn(line, " \t"));
    }
}

/* Passes on what gnuplot said while succeeding (a warning such as an empty series). */
static void pass_warnings(FILE *fp)
{
    char line[1024];
    rewind(fp);
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[strspn(line, " \t^")])
            fprintf(stderr, "dmbench: warning: gnuplot: %s\n", line + strspn(line, " \t"));
    }
}

/* Runs gnuplot -e SETTINGS SCRIPT with its output kept aside. Returns 0 when it exits 0
 * and output is a non-empty file (passing on its warnings); DM_ERUNTIME naming gnuplot
 * when it is missing, or with its last message when it fails. */
static int run_gnuplot(const char *settings, const char *script, const char *output, dm_err *err)
{
    char *argv[] = { "gnuplot", "-e", (char *)settings, (char *)script, NULL };
    posix_spawn_file_actions_t fa;
    FILE *log = tmpfile();
    pid_t pid;
    int status, rc;
    if (!log)
        return dm_err_set(err, DM_ERUNTIME, "running gnuplot: tmpfile: %s", strerror(errno));
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fileno(log), 1);
    posix_spawn_file_actions_adddup2(&fa, fileno(log), 2);
    rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc == ENOENT) {
        rc = dm_err_set(err, DM_ERUNTIME, "gnuplot not found on PATH: dmbench plot needs it "
                        "(Debian: apt-get install gnuplot-nox)");
    } else if (rc != 0) {
        rc = dm_err_set(err, DM_ERUNTIME, "running gnuplot: %s", strerror(rc));
    } else if (waitpid(pid, &status, 0) < 0) {
        rc = dm_err_set(err, DM_ERUNTIME, "waiting for gnuplot: %s", strerror(errno));
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char msg[512];
        last_line(log, msg, sizeof msg);
        rc = dm_err_set(err, DM_ERUNTIME, "gnuplot failed on %s (%s %d): %s", script,
                        WIFEXITED(status) ? "exit status" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                        msg[0] ? msg : "no message");
    } else {
        struct stat sb;
        if (stat(output, &sb) != 0 || sb.st_size == 0)
            rc = dm_err_set(err, DM_ERUNTIME, "gnuplot wrote nothing to %s from %s", output, script);
        else
            pass_warnings(log);
    }
    fclose(log);
    return rc;
}

/* The plot's files' base name: NAME-runID, then each --where as -name-value. */
static void base_name(const char *name, int64_t run, const dm_plot_opts *o, char *out, size_t n)
{
    snprintf(out, n, "%s-run%lld", name, (long long)run);
    for (int i = 0; i < o->nwhere; i++) {
        size_t used = strlen(out);
        snprintf(out + used, n - used, "-%s", o->where[i]);
        for (char *p = out + used + 1; *p; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                  *p == '.' || *p == '_'))
                *p = '-';
    }
}

/* The gnuplot settings of one output: files, labels, scales, block counts. */
static void settings_of(const dm_plot_meta *m, const char *dat, const char *path,
                        const char *ext, const char *scripts, char *s, size_t n)
{
    s[0] = '\0';
    gp_set(s, n, "datafile", dat);
    gp_set(s, n, "output", path);
    gp_set(s, n, "terminal", ext);
    gp_set(s, n, "plotdir", scripts);
    gp_set(s, n, "title", m->title);
    gp_set(s, n, "subtitle", m->subtitle);
    gp_set(s, n, "xlabel", m->xlabel);
    gp_set(s, n, "ylabel", m->ylabel);
    gp_set(s, n, "xformat", m->xformat);
    gp_set(s, n, "yformat", m->yformat);
    gp_set(s, n, "baseline", m->baseline);
    gp_set_int(s, n, "logx", m->logx);
    gp_set_int(s, n, "logy", m->logy);
    gp_set_int(s, n, "series", m->series);
    gp_set_int(s, n, "fits", m->fits);
}

/* Writes the data, then draws each format. Returns 0 or a dm_err code. */
static int plot(const dm_plot_kind *k, const char *db, const dm_plot_opts *o, const char *outdir,
                int png, int svg, dm_err *err)
{
    char scripts[PATH_MAX + 128], script[PATH_MAX + 256], base[256];
    char dat[PATH_MAX + 300], path[PATH_MAX + 300], settings[4 * PATH_MAX + 8192];
    dm_store *st = NULL;
    dm_plot_meta m;
    char *text = NULL;
    size_t len = 0;
    FILE *fp;
    int rc;
    if ((rc = find_scripts(k->name, scripts, sizeof scripts, err)) ||
        (rc = cli_open_existing(db, &st, err)))
        goto done;
    if (!(fp = open_memstream(&text, &len))) {
        rc = dm_err_set(err, DM_ERUNTIME, "open_memstream: %s", strerror(errno));
        goto done;
    }
    rc = plotdata_export(st, k, o, fp, &m, err);
    fclose(fp);
    if (rc || (rc = make_dirs(outdir, err)))
        goto done;
    base_name(k->name, m.run_id, o, base, sizeof base);
    snprintf(dat, sizeof dat, "%s/%s.dat", outdir, base);
    fp = fopen(dat, "w");
    int bad = !fp || fwrite(text, 1, len, fp) != len;
    if (fp && fclose(fp) != 0)
        bad = 1;
    if (bad) {
        rc = dm_err_set(err, DM_ERUNTIME, "writing %s: %s", dat, strerror(errno));
        goto done;
    }
    printf("%s: %d series, %d rows in %s\n", k->name, m.series + m.fits, m.rows, dat);
    snprintf(script, sizeof script, "%s/%s.gp", scripts, k->name);
    for (int f = 0; f < 2 && rc == 0; f++) {
        if (!(f == 0 ? png : svg))
            continue;
        const char *ext = f == 0 ? "png" : "svg";
        snprintf(path, sizeof path, "%s/%s.%s", outdir, base, ext);
        settings_of(&m, dat, path, ext, scripts, settings, sizeof settings);
        if ((rc = run_gnuplot(settings, script, path, err)) == 0)
            printf("%s: wrote %s\n", k->name, path);
    }
done:
    free(text);
    store_close(st);
    return rc;
}

/* The command line as one string, for the data file's header. */
static void join_args(int argc, char **argv, char *out, size_t n)
{
    snprintf(out, n, "dmbench");
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(out);
        int quote = strpbrk(argv[i], " \t'\"") != NULL;
        snprintf(out + used, n - used, quote ? " '%s'" : " %s", argv[i]);
    }
}

int cmd_plot(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },       { "axis", required_argument, NULL, 'x' },
        { "where", required_argument, NULL, 'w' },    { "variants", required_argument, NULL, 'v' },
        { "group", required_argument, NULL, 'g' },    { "out", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },   { "list", no_argument, NULL, 'l' },
        { "help", no_argument, NULL, 'h' },           { 0 },
    };
    dm_plot_opts o = { 0 };
    const char *db = NULL, *outdir = PLOT_DEFAULT_OUT;
    char variants[128], command[2048];
    int png = 1, svg = 1, c;
    optind = 1;
    opterr = 0;
    join_args(argc, argv, command, sizeof command);
    o.command = command;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'x': o.axis = optarg; break;
        case 'g': o.group = optarg; break;
        case 'o': outdir = optarg; break;
        case 'w':
            if (o.nwhere == PLOTDATA_MAX_WHERE)
                return cli_usage_error("plot", "at most %d --where filters", PLOTDATA_MAX_WHERE);
            o.where[o.nwhere++] = optarg;
            break;
        case 'v': {
            snprintf(variants, sizeof variants, "%s", optarg);
            char *comma = strchr(variants, ',');
            if (!comma || comma == variants || !comma[1] || strchr(comma + 1, ','))
                return cli_usage_error("plot", "--variants %s: expected two variants, A,B", optarg);
            *comma = '\0';
            o.variant_a = variants;
            o.variant_b = comma + 1;
            break;
        }
        case 'f':
            png = !strcmp(optarg, "png") || !strcmp(optarg, "both");
            svg = !strcmp(optarg, "svg") || !strcmp(optarg, "both");
            if (!png && !svg)
                return cli_usage_error("plot", "--format %s: expected png, svg or both", optarg);
            break;
        case 'l': list_plots(stdout); return DM_EXIT_OK;
        case 'h': usage(stdout); return DM_EXIT_OK;
        case ':': return cli_usage_error("plot", "option %s needs a value", argv[optind - 1]);
        default: return cli_usage_error("plot", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind < 1 || argc - optind > 2)
        return cli_usage_error("plot", "expected a plot name and at most one run");
    const dm_plot_kind *k = plotdata_find(argv[optind]);
    if (!k) {
        char names[512] = "";
        for (const dm_plot_kind *p = plotdata_kinds; p->name; p++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", p->name);
        }
        return cli_usage_error("plot", "unknown plot '%s'; plots: %s", argv[optind], names);
    }
    dm_err err = { 0 };
    if (argc - optind == 2 && cli_parse_run_id(argv[optind + 1], &o.run_id, &err))
        return cli_fail(&err);
    if (plot(k, db, &o, outdir, png, svg, &err))
        return cli_fail(&err);
    return DM_EXIT_OK;
}
