# crossover.gp - where two variants' median times cross, against the group axis (e.g. the
# episode level N), with bootstrap intervals, and the fitted curves a/N + b and a*N + b
# (episodes Fig. 9). Data: `series` blocks of group, crossover, lo, hi, found; then `fits`
# blocks of group, fitted crossover; see plots/common.gp for the variables.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("xlabel")) xlabel = 'group'
if (!exists("ylabel")) ylabel = 'crossover'
load plotdir . '/common.gp'
# the fits' titles carry their coefficients: the key goes under the plot
set key outside below center vertical Left reverse

plot for [i=0:series-1] datafile index i using 1:2:3:4 with yerrorbars \
     lt lt_of(i) pt pt_of(i) ps 1.2 title columnheader(1), \
     for [i=0:fits-1] datafile index (series + i) using 1:2 with lines \
     lc rgb (i == 0 ? '#222222' : '#888888') dt i+1 lw 1.5 title columnheader(1)
