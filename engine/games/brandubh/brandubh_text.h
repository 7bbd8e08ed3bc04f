/* brandubh_text.h: Brandubh in text, for the game tables (brandubh.c). */
#ifndef DENHAM_BRANDUBH_TEXT_H
#define DENHAM_BRANDUBH_TEXT_H

#include <stddef.h>

#include "brandubh_rules.h"

void bdb_set_start_v1(position_t *pos);
void bdb_set_start_v2(position_t *pos);
bool bdb_parse_fen_v1(position_t *pos, const char *fen, char *err, size_t len);
bool bdb_parse_fen_v2(position_t *pos, const char *fen, char *err, size_t len);
void bdb_write_fen(const position_t *pos, char *buf, size_t len);
void bdb_print_board(const position_t *pos, char *buf, size_t len, bool ansi);
void bdb_move_text(const position_t *pos, move_t m, char *buf, size_t len);
move_t bdb_parse_move(const position_t *pos, const char *text);
int bdb_move_key(move_t m);

#endif
