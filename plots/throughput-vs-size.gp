# throughput-vs-size.gp - throughput (GB/s, or the workload's ops/s) against a
# problem-size axis, one line per variant (at its fastest configuration) and problem.
# Data: x, throughput, median_s per series; see plots/common.gp for the variables.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'problem size'
if (!exists("ylabel")) ylabel = 'throughput (GB/s)'
load plotdir . '/common.gp'

plot for [i=0:series-1] datafile index i using 1:2 with linespoints \
     lt lt_of(i) pt pt_of(i) title columnheader(1)
