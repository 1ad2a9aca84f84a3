# timeline.gp - a Gantt chart of one point's traced kernels and copies, one row per CUDA
# stream (the rules paper's Fig. 8). Data: row, start_us, end_us, stream label, a block
# for kernels and one for copies; see plots/common.gp for the variables.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'time since the first activity (us)'
if (!exists("ylabel")) ylabel = 'CUDA stream'
load plotdir . '/common.gp'

set grid noytics
set offsets graph 0.02, graph 0.02, 0.5, 0.5
set style fill solid 0.6 border -1
plot for [i=0:series-1] datafile index i \
     using (($2 + $3) / 2):1:(($3 - $2) / 2):(0.3):ytic(4) with boxxyerror \
     lt lt_of(i) title columnheader(1)
