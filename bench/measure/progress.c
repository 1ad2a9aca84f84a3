/* progress.c - the progress bar and log lines of a run, on stderr. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "measure.h"
#include "progress.h"

static void fmt_duration(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static int term_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    return 80;
}

static void clear_bar(dm_progress *p)
{
    if (p->bar_shown) {
        fputs("\r\033[K", stderr);
        p->bar_shown = 0;
    }
}

void progress_outcome(const dm_measurement *m, char *buf, size_t n)
{
    const char *unit = "s";
    double t = m->stats.median;
    if (t < 1e-6) {
        t *= 1e9;
        unit = "ns";
    } else if (t < 1e-3) {
        t *= 1e6;
        unit = "us";
    } else if (t < 1) {
        t *= 1e3;
        unit = "ms";
    }
    const dm_stats *st = &m->stats;
    char ci[32] = "";
    if (!isnan(st->median_lo) && !isnan(st->median_hi) && st->median > 0)
        snprintf(ci, sizeof ci, ", ci95 %.2f%%",
                 (st->median_hi - st->median_lo) / 2.0 / st->median * 100);
    int on_noise = strcmp(m->stop_reason, "noise") == 0;
    snprintf(buf, n, "ok, median %.4g %s%s, rsd %.2f%%, %zu samples (stopped on %s)%s", t, unit,
             ci, st->noise * 100, m->n,
             on_noise ? criterion_figure(m->criterion) : m->stop_reason,
             m->n_throttled ? ", THROTTLED" : "");
}

void progress_begin(dm_progress *p, dm_progress_style style, size_t total)
{
    if (style == DM_PROGRESS_AUTO)
        style = isatty(STDERR_FILENO) ? DM_PROGRESS_BAR : DM_PROGRESS_LINES;
    *p = (dm_progress){ .style = style, .total = total, .t0 = dm_now() };
}

void progress_start(dm_progress *p, const char *label)
{
    if (p->style != DM_PROGRESS_BAR)
        return;
    double el = dm_now() - p->t0;
    char elapsed[32], eta[32] = "?";
    fmt_duration(el, elapsed, sizeof elapsed);
    if (p->done > 0)
        fmt_duration(el / (double)p->done * (double)(p->total - p->done), eta, sizeof eta);
    const int bar = 20;
    int filled = p->total ? (int)(bar * p->done / p->total) : bar;
    char head[160];
    int n = snprintf(head, sizeof head, "[%.*s%.*s] %zu/%zu  %s  ETA %s  ", filled,
                     "####################", bar - filled, "....................", p->done,
                     p->total, elapsed, eta);
    int room = term_width() - 1 - n;
    fprintf(stderr, "\r\033[K%s%.*s", head, room > 0 ? room : 0, label);
    fflush(stderr);
    p->bar_shown = 1;
}

void progress_done(dm_progress *p, const char *label, const char *outcome)
{
    p->done++;
    if (p->style == DM_PROGRESS_LINES)
        fprintf(stderr, "dmbench: [%zu/%zu] %s: %s\n", p->done, p->total, label, outcome);
}

void progress_note(dm_progress *p, int always, const char *fmt, ...)
{
    if (p->style == DM_PROGRESS_QUIET && !always)
        return;
    clear_bar(p);
    va_list ap;
    va_start(ap, fmt);
    fputs("dmbench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void progress_end(dm_progress *p)
{
    clear_bar(p);
    if (p->done > 0 && (p->style == DM_PROGRESS_BAR || p->style == DM_PROGRESS_LINES)) {
        char elapsed[32];
        fmt_duration(dm_now() - p->t0, elapsed, sizeof elapsed);
        fprintf(stderr, "dmbench: %zu/%zu points in %s\n", p->done, p->total, elapsed);
    }
}
