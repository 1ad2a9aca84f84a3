/* plotdraw.h - drawing a plot's data (results/plotdata.h) with gnuplot and the script
 * plots/NAME.gp, for `dmbench plot` and `dmbench report`. */
#ifndef DM_PLOTDRAW_H
#define DM_PLOTDRAW_H

#include <stddef.h>

#include "path.h"
#include "plotdata.h"

/* The folder holding NAME.gp, in dir: $DMBENCH_PLOTS, else <dmbench's folder>/../plots,
 * else the configured source tree's plots/. Returns 0, or DM_ERUNTIME naming the places
 * looked in. */
int plotdraw_find_scripts(const char *name, char *dir, size_t n, dm_err *err);
/* Draws the data file dat of plot name (meta m) into path as ext ("png" or "svg") with
 * scripts/NAME.gp. Returns 0 when gnuplot exits 0 and wrote path (its warnings go to
 * stderr); DM_ERUNTIME saying "gnuplot not found" when it is missing, or with
 * gnuplot's last message when it fails. */
int plotdraw_render(const dm_plot_meta *m, const char *scripts, const char *name,
                    const char *dat, const char *path, const char *ext, dm_err *err);

#endif
