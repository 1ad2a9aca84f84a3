# occupancy-vs-block.gp - achieved occupancy (CUPTI, points) and the runtime calculator's
# prediction (dashed) against the threads per block, per variant and kernel (the rules
# paper's Table 3). Data: x, achieved_pct, predicted_pct per series; see plots/common.gp.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'threads per block'
if (!exists("ylabel")) ylabel = "occupancy (% of the SM's warp slots)"
load plotdir . '/common.gp'

set yrange [0:105]
plot for [i=0:series-1] datafile index i using 1:2 with linespoints \
         lt lt_of(i) pt pt_of(i) title columnheader(1), \
     for [i=0:series-1] datafile index i using 1:3 with lines \
         lt lt_of(i) dt 2 notitle
