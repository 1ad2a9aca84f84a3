/* fuzz_episodes_csv.c - libFuzzer target: episodes' event-stream CSV loader. */
#include "episodes/episodes.h"
#include "fuzz_loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    ep_stream s;
    dm_err err = {0};
    int rc = ep_stream_load_csv(fuzz_file(data, n, ".csv"), &s, &err);
    fuzz_check(rc, &err);
    if (rc == 0)
        ep_stream_free(&s);
    return 0;
}
