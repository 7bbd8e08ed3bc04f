/*
 * check.h: the proof checker (`denham solve --check`). It reads proofs in
 * the format of PROTOCOL.md, "Proofs", replays every line with the plain
 * reference rules (ref_rules.h) and judges every end of the game by them
 * and by the repetition rule, itself. It shares no code with the engine's
 * games, its search or its solver: it includes nothing of engine/ but this
 * folder, and libc.
 */
#ifndef DENHAM_CHECK_H
#define DENHAM_CHECK_H

#include <stdbool.h>
#include <stdio.h>

/* Checks every proof in `in` (named `name` in messages). For each proof
 * checked, one line on `report`: "NAME:LINE: checked: win for defenders in
 * at most 9 plies (123 moves and 40 '*' lines, lines 1-168)": moves written
 * (references included) and "*" lines apart, as proof.c counts them. On
 * the first fault, false with "NAME:LINE:
 * what is wrong" in err (the line of the fault, or of the position it
 * concerns). */
bool check_proofs(FILE *in, const char *name, FILE *report, char *err, size_t errlen);

#endif
