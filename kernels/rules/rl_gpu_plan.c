/* rl_gpu_plan.c - a rule set cut into the chunks the GPU kernels take: each chunk's
 * antecedents and consequents fit constant memory (rl_gpu.h's RL_GPU_CHUNK_TOKENS a side,
 * RL_GPU_CHUNK_RULES rules), their tokens packed side by side in rule order. */
#include <stdlib.h>
#include <string.h>

#include "rules/rl_gpu.h"

void rl_gpu_plan_free(rl_gpu_plan *p)
{
    free(p->chunks);
    for (int s = 0; s < RL_SIDES; s++) {
        free(p->tok[s]);
        free(p->start[s]);
        free(p->first[s]);
    }
    memset(p, 0, sizeof *p);
}

const int32_t *rl_gpu_plan_starts(const rl_gpu_plan *p, int c, int side)
{
    return p->start[side] + p->chunks[c].r0 + c;
}

/* Rule r's side: its first token in rs->tok and its length. */
static void rl_side(const rl_ruleset *rs, int r, int side, int64_t *first, int *len)
{
    *first = side == RL_SIDE_A ? rs->rules[r].ante : rs->rules[r].cons;
    *len = side == RL_SIDE_A ? rs->rules[r].nante : rs->rules[r].ncons;
}

int rl_gpu_plan_make(const rl_ruleset *rs, rl_gpu_plan *p, dm_err *err)
{
    memset(p, 0, sizeof *p);
    for (int r = 0; r < rs->nrules; r++)
        for (int s = 0; s < RL_SIDES; s++) {
            int64_t first;
            int len;
            rl_side(rs, r, s, &first, &len);
            if (len > RL_GPU_CHUNK_TOKENS)
                return dm_err_set(err, DM_EINPUT, "rule %d: its %s has %d tokens, more than "
                                  "the %d the GPU's constant memory holds", r + 1,
                                  s == RL_SIDE_A ? "antecedent" : "consequent", len,
                                  RL_GPU_CHUNK_TOKENS);
            p->ntok[s] += len;
        }
    /* At most one chunk a rule. */
    p->chunks = calloc((size_t)rs->nrules, sizeof *p->chunks);
    for (int s = 0; s < RL_SIDES; s++) {
        p->tok[s] = malloc((size_t)p->ntok[s] * sizeof *p->tok[s]);
        p->start[s] = malloc((size_t)2 * (size_t)rs->nrules * sizeof *p->start[s]);
        p->first[s] = malloc((size_t)rs->nrules * sizeof *p->first[s]);
    }
    if (!p->chunks || !p->tok[0] || !p->tok[1] || !p->start[0] || !p->start[1] ||
        !p->first[0] || !p->first[1]) {
        rl_gpu_plan_free(p);
        return dm_err_set(err, DM_ERUNTIME, "rules: out of memory for the GPU's plan");
    }
    int64_t at[RL_SIDES] = {0, 0};
    rl_gpu_chunk *ch = NULL;
    for (int r = 0; r < rs->nrules; r++) {
        int64_t first[RL_SIDES];
        int len[RL_SIDES];
        for (int s = 0; s < RL_SIDES; s++)
            rl_side(rs, r, s, &first[s], &len[s]);
        if (!ch || ch->nrules == RL_GPU_CHUNK_RULES ||
            ch->ntok[0] + len[0] > RL_GPU_CHUNK_TOKENS ||
            ch->ntok[1] + len[1] > RL_GPU_CHUNK_TOKENS) {
            ch = &p->chunks[p->nchunks++];
            *ch = (rl_gpu_chunk){.r0 = r, .tok0 = {at[0], at[1]}};
        }
        for (int s = 0; s < RL_SIDES; s++) {
            int32_t *start = p->start[s] + ch->r0 + (p->nchunks - 1);
            start[ch->nrules] = ch->ntok[s];
            start[ch->nrules + 1] = ch->ntok[s] + len[s];
            memcpy(p->tok[s] + at[s], rs->tok + first[s], (size_t)len[s] * sizeof *rs->tok);
            p->first[s][r] = at[s];
            int d = rl_expr_depth(rs->tok + first[s], len[s]);
            if (d > ch->depth)
                ch->depth = d;
            ch->ntok[s] += len[s];
            at[s] += len[s];
        }
        ch->nrules++;
    }
    return 0;
}
