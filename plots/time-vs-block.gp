# time-vs-block.gp - median time per execution against the threads per block, one line
# per variant and other parameters, bars from Q1 to Q3 (the block-size figures of the papers). Data: x,
# median_s, q1_s, q3_s per series; `dmbench plot time-vs-block` writes it and sets the
# variables that plots/common.gp describes.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'threads per block'
if (!exists("ylabel")) ylabel = 'time per execution, median (bars: Q1 to Q3)'
if (!exists("yformat")) yformat = '%.2s %cs'
load plotdir . '/common.gp'

plot for [i=0:series-1] datafile index i using 1:2:3:4 with yerrorlines \
     lt lt_of(i) pt pt_of(i) title columnheader(1)
