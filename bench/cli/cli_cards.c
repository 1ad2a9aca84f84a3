/* cli_cards.c - the per-card store as the commands that run points use it: read from the
 * results database before the points are made (card_store.h), a card it knows nothing
 * of said once, and the stand-in card of `run --dry-run --card NAME --cc X.Y`. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "card_choices.h"
#include "card_store.h"
#include "cli.h"

int cli_load_card_choices(const char *opt, const dm_device *dev, dm_err *err)
{
    const char *path = cli_db_path(opt);
    dm_store *st = NULL;
    int ntuned = 0, nfits = 0, rc = 0;
    card_choices_clear();
    if (access(path, F_OK) == 0) {
        if ((rc = store_open_readonly(path, &st, err)) == 0)
            rc = card_store_load(st, &ntuned, &nfits, err);
        store_close(st);
    }
    static int told; /* once a process (tune --card runs several sweeps) */
    if (rc == 0 && dev && !told++ && !card_choices_know_card(dev->name))
        fprintf(stderr,
                "dmbench: nothing is tuned for %s (compute capability %d.%d) in %s or the "
                "shipped defaults: open block sizes and switch points come from the same "
                "architecture's cards where it has some, else the defaults; `dmbench tune "
                "--card` tunes this card in minutes\n",
                dev->name, dev->cc_major, dev->cc_minor, path);
    return rc;
}

int cli_standin_device(const char *card, const char *cc, dm_device *dev, dm_err *err)
{
    int major, minor, used = 0;
    if (sscanf(cc, "%d.%d%n", &major, &minor, &used) != 2 || cc[used] || major < 1 ||
        minor < 0)
        return dm_err_set(err, DM_EINPUT, "--cc %s: expected a compute capability, e.g. 8.6",
                          cc);
    if (!card[0] || strlen(card) >= sizeof dev->name)
        return dm_err_set(err, DM_EINPUT, "--card '%s': expected a GPU's name as `dmbench "
                          "devices` prints it", card);
    /* the limits every architecture from 7.5 on has at least */
    *dev = (dm_device){ .index = 0, .cc_major = major, .cc_minor = minor,
                        .max_threads_per_block = 1024, .max_threads_per_sm = 1024,
                        .warp_size = 32, .regs_per_block = 65536, .regs_per_sm = 65536,
                        .max_blocks_per_sm = 16, .smem_per_block = 48 * 1024,
                        .smem_per_block_optin = 48 * 1024, .smem_per_sm = 64 * 1024 };
    snprintf(dev->name, sizeof dev->name, "%s", card);
    return 0;
}
