/* progress.h - what a run shows while it goes: a progress bar on a terminal (points
 * done / total, elapsed, ETA, current point) or one log line per point otherwise, on
 * stderr; nothing with --quiet. */
#ifndef DM_PROGRESS_H
#define DM_PROGRESS_H

#include <stddef.h>

typedef enum dm_progress_style {
    DM_PROGRESS_AUTO,  /* bar when stderr is a terminal, else lines */
    DM_PROGRESS_BAR,
    DM_PROGRESS_LINES,
    DM_PROGRESS_QUIET,
} dm_progress_style;

typedef struct dm_progress {
    dm_progress_style style;
    size_t total, done;
    double t0;
    int bar_shown;
} dm_progress;

void progress_begin(dm_progress *p, dm_progress_style style, size_t total);
/* Before a point starts: redraws the bar with label as the current point. */
void progress_start(dm_progress *p, const char *label);
/* The outcome of a measured point, for progress_done: "ok, median 17.45 us, ci95 0.42%,
 * rsd 3.10%, 188 samples (stopped on ci95)" (no ci95 below 6 samples). ci95 is half the width of the median's 95 %
 * confidence interval over the median, rsd the standard deviation over the mean; the
 * stop names the figure the criterion judged (ci95 for median, rsd for stdrel), or the
 * limit (max_time, max_samples) that came first. */
typedef struct dm_measurement dm_measurement;
void progress_outcome(const dm_measurement *m, char *buf, size_t n);
/* After a point: counts it; in line mode prints "[done/total] label: outcome". */
void progress_done(dm_progress *p, const char *label, const char *outcome);
/* A message that must not be lost in the bar (clears the bar first); not in quiet mode
 * unless always is set. */
void progress_note(dm_progress *p, int always, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void progress_end(dm_progress *p);

#endif
