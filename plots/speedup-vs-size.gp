# speedup-vs-size.gp - speedup over the run's baseline variant against a problem-size
# axis, one line per variant (at its fastest configuration) and problem (episodes
# Fig. 12, colocation Fig. 6); a dashed line marks 1, the baseline (variable baseline
# names it). Data: x, speedup, median_s, baseline_median_s per series; see
# plots/common.gp for the other variables.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'problem size'
if (!exists("ylabel")) ylabel = 'speedup over the baseline (x)'
if (!exists("baseline")) baseline = 'baseline'
load plotdir . '/common.gp'
# a speedup is never below 0: a linear axis starts there, not at the offset below the data
if (logy == 0) { set yrange [0:*]; set offsets graph 0.02, graph 0.02, graph 0.05, 0 }

plot for [i=0:series-1] datafile index i using 1:2 with linespoints \
     lt lt_of(i) pt pt_of(i) title columnheader(1), \
     1 with lines lc rgb '#808080' dt 2 lw 1.5 title baseline . ' (the baseline, 1)'
