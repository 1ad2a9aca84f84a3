/* rl_words.h - what the rule text's writer and parser agree on: its keywords and the
 * characters that end a bare word. */
#ifndef DM_RL_WORDS_H
#define DM_RL_WORDS_H

#include <ctype.h>
#include <string.h>

/* 1 when [b, b + n) is one of IF THEN AND OR NOT in. */
static inline int rl_is_keyword(const char *b, size_t n)
{
    static const char *const words[] = {"IF", "THEN", "AND", "OR", "NOT", "in", NULL};
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], b, n) == 0)
            return 1;
    return 0;
}

/* 1 for the characters that end a bare word (c an unsigned char's value). */
static inline int rl_special(int c)
{
    return isspace(c) || (c && strchr("()[],=!<>\"#", c));
}

#endif
