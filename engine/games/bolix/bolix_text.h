/* bolix_text.h: Bolix in text, for the game table (bolix.c). */
#ifndef DENHAM_BOLIX_TEXT_H
#define DENHAM_BOLIX_TEXT_H

#include "bolix_rules.h"

void bolix_set_start(position_t *pos);
bool bolix_parse_fen(position_t *pos, const char *fen, char *err, size_t errlen);
void bolix_write_fen(const position_t *pos, char *buf, size_t len);
void bolix_print_board(const position_t *pos, char *buf, size_t len, bool ansi);
void bolix_move_text(const position_t *pos, move_t m, char *buf, size_t len);
move_t bolix_parse_move(const position_t *pos, const char *text);
int bolix_move_key(move_t m);

#endif
