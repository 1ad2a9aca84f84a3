# common.gp - what every dmbench plot shares, loaded first by each script: the terminal
# (terminal = 'png': pngcairo, 'svg': svg), the output, a title with its subtitle, the
# key outside the data, log scales and tic formats, and a colour-blind-safe line cycle.
# Variables (set with -e by `dmbench plot`, which also writes the data): datafile, output,
# terminal, title, subtitle, xlabel, ylabel, xformat, yformat, logx, logy (0, 2 or 10),
# series (blocks of points in datafile), fits (blocks of fitted curves after them).

if (!exists("terminal")) terminal = 'png'
if (!exists("output")) output = 'plot.' . terminal
if (!exists("title")) title = ''
if (!exists("subtitle")) subtitle = ''
if (!exists("xformat")) xformat = ''
if (!exists("yformat")) yformat = ''
if (!exists("logx")) logx = 0
if (!exists("logy")) logy = 0
if (!exists("fits")) fits = 0
if (!exists("series")) { stats datafile using 1 nooutput; series = STATS_blocks - fits }

set encoding utf8
set micro
if (terminal eq 'svg') {
    set terminal svg size 1100,620 dynamic font 'Helvetica,13' noenhanced background '#ffffff'
} else {
    set terminal pngcairo size 1100,620 font 'Sans,10' noenhanced background '#ffffff'
}
set output output

# a subtitle longer than a line (the parameters a plot holds constant) is broken after the
# last comma or semicolon that keeps a line within 120 characters
rest = subtitle
subtitle = ''
while (strlen(rest) > 120) {
    cut = 0
    do for [i=120:2:-1] { if (cut == 0 && (rest[i:i] eq ',' || rest[i:i] eq ';')) { cut = i } }
    if (cut == 0) { break }
    subtitle = subtitle . rest[1:cut] . "\n"
    rest = rest[cut + 2:]
}
subtitle = subtitle . rest
set title (strlen(subtitle) > 0 ? title . "\n" . subtitle : title)
set xlabel xlabel
set ylabel ylabel
set key outside right top vertical Left reverse samplen 2 spacing 1.1 width 1
set border 3
set tics nomirror out
set grid xtics ytics mxtics mytics lc rgb '#d8d8d8' lw 1 dt 1, lc rgb '#ececec' lw 1 dt 1
set mxtics default
set mytics default
set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05

# a log axis spans the data (plus the offsets), not the decades around it
if (logx > 0) { set logscale x logx; set autoscale xfix }
if (logy > 0) { set logscale y logy; set autoscale yfix }
# decimal log axes label 1, 2 and 5 of each decade: a span of one or two decades still
# reads at a glance
if (logy == 10) { do for [e=-15:15] { set ytics add (2 * 10.0**e, 5 * 10.0**e) } }
if (logx == 10) { do for [e=-15:15] { set xtics add (2 * 10.0**e, 5 * 10.0**e) } }
if (strlen(xformat) > 0) { set format x xformat }
if (strlen(yformat) > 0) { set format y yformat }

# Tableau 10: distinguishable in colour, in grey and for the common colour blindnesses;
# series i takes colour i % 10 and, past ten series, another point shape.
set linetype 1 lc rgb '#4e79a7' lw 1.5 pt 7 ps 0.8
set linetype 2 lc rgb '#f28e2b' lw 1.5 pt 7 ps 0.8
set linetype 3 lc rgb '#e15759' lw 1.5 pt 7 ps 0.8
set linetype 4 lc rgb '#76b7b2' lw 1.5 pt 7 ps 0.8
set linetype 5 lc rgb '#59a14f' lw 1.5 pt 7 ps 0.8
set linetype 6 lc rgb '#edc948' lw 1.5 pt 7 ps 0.8
set linetype 7 lc rgb '#b07aa1' lw 1.5 pt 7 ps 0.8
set linetype 8 lc rgb '#ff9da7' lw 1.5 pt 7 ps 0.8
set linetype 9 lc rgb '#9c755f' lw 1.5 pt 7 ps 0.8
set linetype 10 lc rgb '#5a5a5a' lw 1.5 pt 7 ps 0.8
set linetype cycle 10
shapes = '7 5 9 11 13'
lt_of(i) = i % 10 + 1
pt_of(i) = word(shapes, int(i / 10) % 5 + 1) + 0
