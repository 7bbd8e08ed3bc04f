/* match_merge.h: `denham-match --merge`, the shards of a match added up. */
#ifndef DENHAM_MATCH_MERGE_H
#define DENHAM_MATCH_MERGE_H

#include <stdio.h>

/* `denham-match --merge FILE... [--sprt ELO0 ELO1 ALPHA BETA]`: reads the
 * shards' games files and prints the match's results as one run would
 * (match_print_results). Returns the exit status: 0, or 2 (with one line
 * on err) for a bad argument, an unreadable file or line, a game twice,
 * shards of different matches or a free-for-all game. */
int match_merge_main(int argc, char **argv, FILE *out, FILE *err);

#endif
