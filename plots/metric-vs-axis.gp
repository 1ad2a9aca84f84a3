# metric-vs-axis.gp - one CUPTI metric of every profiled launch against a sweep axis, a
# line per variant, kernel and other parameters (the episodes papers' Figs. 11 and 12).
# Data: x, value per series; see plots/common.gp for the variables.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'axis'
if (!exists("ylabel")) ylabel = 'metric'
load plotdir . '/common.gp'

plot for [i=0:series-1] datafile index i using 1:2 with linespoints \
     lt lt_of(i) pt pt_of(i) title columnheader(1)
