/*
 * otn.h: OpenTafl Notation (jslater89/OpenTafl, opentafl-notation-spec.txt)
 * for Denham's Brandubh: rules strings, position records and moves.
 *
 * Squares are named alike in OTN and Denham (a1 is file a, rank 1). An OTN
 * position record lists rank 1 first ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"),
 * a Denham FEN rank 7 first; 't' attacker, 'T' defender, 'K' king. A record
 * carries no side to move: OTEP gives it separately.
 *
 * Conversions go through the game's FEN text and move text, so this module
 * knows the notation, not the game's internals.
 */
#ifndef DENHAM_OTN_H
#define DENHAM_OTN_H

#include <stdbool.h>
#include <stddef.h>

#include "../../engine/core/game.h"

#define OTN_POSITION_MAX 128
#define OTN_MOVE_MAX 48

/* The Brandubh version an OTN rules string describes (PROTOCOL.md, "OTEP"),
 * or NULL with the reason in why. */
const game_t *otn_rules_variant(const char *rules, char *why, size_t len);

/* The position of an OTN record with `side` (0 attackers, 1 defenders) to
 * move, for g; false with the reason in why. */
bool otn_load_position(const game_t *g, const char *record, int side, position_t *pos, char *why, size_t len);

/* The OTN position record of pos. */
void otn_position_record(const game_t *g, const position_t *pos, char *buf, size_t len);

/* The legal move an OTN move record names, simple ("d2-c2") or full
 * ("Kd4-d6xd5++"); MOVE_NONE when it names none. */
move_t otn_parse_move(const game_t *g, const position_t *pos, const char *text);

/* The OTN text of a legal move: simple ("d2-c2") or full, with the king's
 * letter, the captured squares and "++" (king captured) or "--" (king
 * escaped) when the move ends the game. */
void otn_move_text(const game_t *g, const position_t *pos, move_t m, bool simple, char *buf, size_t len);

#endif
