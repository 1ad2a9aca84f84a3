/* plotdraw.c - drawing a plot's .dat file with gnuplot and plots/NAME.gp, shared by
 * `dmbench plot` and `dmbench report`: finding the scripts, making the output folder,
 * running gnuplot with the plot's settings. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plotdraw.h"
#include "srcdir.h"

extern char **environ;

int plotdraw_find_scripts(const char *name, char *dir, size_t n, dm_err *err)
{
    char file[256];
    snprintf(file, sizeof file, "%s.gp", name);
    return dm_find_source_dir("DMBENCH_PLOTS", "plots", file, dir, n, err);
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
        rc = dm_err_set(err, DM_ERUNTIME, "gnuplot not found on PATH: plots need it "
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

int plotdraw_render(const dm_plot_meta *m, const char *scripts, const char *name,
                    const char *dat, const char *path, const char *ext, dm_err *err)
{
    char script[PATH_MAX + 256], settings[4 * PATH_MAX + 8192];
    snprintf(script, sizeof script, "%s/%s.gp", scripts, name);
    settings_of(m, dat, path, ext, scripts, settings, sizeof settings);
    return run_gnuplot(settings, script, path, err);
}
