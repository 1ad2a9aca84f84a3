/* fuzz_rules_table.c - libFuzzer target: rules' table loader (CSV or TSV, gzip or not,
 * header and column kinds detected), through its gzip decoder when the input is one. */
#include "fuzz_loader.h"
#include "rules/rl_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    rl_table t;
    dm_err err = {0};
    int rc = rl_table_load(fuzz_file(data, n, ".tsv"), NULL, &t, &err);
    fuzz_check(rc, &err);
    if (rc == 0)
        rl_table_free(&t);
    return 0;
}
