/* jinxx_text.h: Jinxx in text, for the game tables (jinxx.c). */
#ifndef DENHAM_JINXX_TEXT_H
#define DENHAM_JINXX_TEXT_H

#include <stddef.h>

#include "jinxx_rules.h"

/* move_key's range: 243 board moves, 27 entries, reroll, pass, six faces. */
#define JINXX_MOVE_KEYS 278

void jinxx_set_start(position_t *pos, int players);
bool jinxx_parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int players);
void jinxx_write_fen(const position_t *pos, char *buf, size_t len);
void jinxx_print_board(const position_t *pos, char *buf, size_t len, bool ansi);
void jinxx_move_text(const position_t *pos, move_t m, char *buf, size_t len);
/* A typed move in the notation's own case: sizes and faces in capitals,
 * cells and words in small letters (`mB1B2` -> `Mb1b2`, `sm` -> `SM`). Moves
 * are read through it, so either case is accepted. */
void jinxx_normalize(const char *text, char *out, size_t len);
move_t jinxx_parse_move(const position_t *pos, const char *text);
int jinxx_move_key(move_t m);

#endif
