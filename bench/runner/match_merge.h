/* match_merge.h: `denham-match --merge`, the shards of a match added up. */
#ifndef DENHAM_MATCH_MERGE_H
#define DENHAM_MATCH_MERGE_H

#include <stdbool.h>
#include <stdio.h>

#include "stats.h"

/* `denham-match --merge FILE... [--partial] [--sprt ELO0 ELO1 ALPHA
 * BETA]`: reads the games files of a match (its shards, or one run's) and
 * prints the match's summary as one run prints it (match_print_summary).
 * Returns the exit status: 0; 3 when the SPRT has not decided; 2 (with one
 * line on err per reason) for a bad argument or a file refused: unreadable,
 * without a header (an older denham-match's), of another match, a game
 * twice or outside its shard, a bad line, a run that stopped on an error,
 * games missing (each named by index; absent shards too, unless
 * --partial), a free-for-all game. */
int match_merge_main(int argc, char **argv, FILE *out, FILE *err);

/* The same in steps (for the fuzz target): a merge, its files read one by
 * one, then checked and printed. sprt NULL: the files' own. */
typedef struct merge merge_t;
merge_t *merge_new(FILE *err, bool partial, const sprt_t *sprt);
/* False when the file is refused (the reason on err). */
bool merge_read(merge_t *m, FILE *in, const char *name);
/* The exit status, as match_merge_main's; the summary printed to out when
 * the files add up. */
int merge_finish(merge_t *m, FILE *out);
void merge_free(merge_t *m);

#endif
