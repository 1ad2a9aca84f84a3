/* bench_rules_load.c - times the rules workload's table loader (rl_table_load: the file
 * read, gzip or not, and parsed into columns) on each file named, once per file: rows,
 * columns and seconds on stdout. scripts/bench-csv builds and runs it. */
#include <stdio.h>
#include <time.h>

#include "rules/rl_table.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        struct timespec t0, t1;
        rl_table t;
        dm_err err = {0};
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (rl_table_load(argv[i], NULL, &t, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%s: %lld rows x %d columns in %.3f s\n", argv[i], (long long)t.n, t.ncols,
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        rl_table_free(&t);
    }
    return 0;
}
