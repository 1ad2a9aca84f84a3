# stage-times.gp - the time of each stage of one traced execution (a kernel, a copy
# direction), their sum (hatched) and the wall time (grey), as bars clustered per point:
# where stages overlap (concurrent streams) the wall bar is below the sum (the rules
# paper's Table 6). Data: point, seconds, activities, label; one block per stage, then
# the sum, then the wall, so the stages are series - 2. See plots/common.gp.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'traced point'
if (!exists("ylabel")) ylabel = 'time in one execution'
load plotdir . '/common.gp'

stages = series - 2
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.75 border -1
set yrange [0:*]
set grid noxtics nomxtics
set xtics rotate by -25 left
set offsets 0, 0, graph 0.05, 0
plot for [i=0:stages-1] datafile index i using 2:xtic(4) lt lt_of(i) title columnheader(1), \
     datafile index stages using 2 lt 10 fs pattern 4 border -1 title columnheader(1), \
     datafile index stages + 1 using 2 lt 10 title columnheader(1)
