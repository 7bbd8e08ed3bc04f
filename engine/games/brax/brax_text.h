/*
 * brax_text.h: Brax in text (position strings, moves, the board drawing),
 * for the game tables (brax.c) and the other Brax files.
 */
#ifndef DENHAM_BRAX_TEXT_H
#define DENHAM_BRAX_TEXT_H

#include <stddef.h>

#include "brax_rules.h"

/* A point's name, "a1" to "i9". */
void brax_point_name(int p, char out[3]);
void brax_set_start(position_t *pos, int variant);
bool brax_parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int variant);
void brax_write_fen(const position_t *pos, char *buf, size_t len);
void brax_print_board(const position_t *pos, char *buf, size_t len, bool ansi);
void brax_move_text(const position_t *pos, move_t m, char *buf, size_t len);
move_t brax_parse_move(const position_t *pos, const char *text);
int brax_move_key(move_t m);

#endif
