/*
 * types.h: the shared vocabulary of every Denham module.
 * Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_TYPES_H
#define DENHAM_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A move is a 32-bit word. The low 28 bits belong to the game that made it;
 * the top four are flags that the generic code (search, perft, records)
 * reads without knowing any rules:
 *   MOVE_NOISY         quiescence searches it and move ordering tries it early
 *                      (captures, wins on the spot);
 *   MOVE_IRREVERSIBLE  no position before it can occur again after it, so
 *                      repetition scans stop there;
 *   MOVE_CAPTURE       the move removes enemy material (perft statistics);
 *   MOVE_FORCING       the move threatens to win at once, so the reply is
 *                      forced: quiescence follows such moves at any depth
 *                      (Bolix fours, a Brandubh king that comes to see a
 *                      corner), where other quiet noisy moves are
 *                      tried only at its first ply.
 * Zero is never a legal move.
 */
typedef uint32_t move_t;

#define MOVE_NONE ((move_t)0)
#define MOVE_NOISY ((move_t)1 << 31)
#define MOVE_IRREVERSIBLE ((move_t)1 << 30)
#define MOVE_CAPTURE ((move_t)1 << 29)
#define MOVE_FORCING ((move_t)1 << 28)
#define MOVE_FLAGS (MOVE_NOISY | MOVE_IRREVERSIBLE | MOVE_CAPTURE | MOVE_FORCING)
#define MOVE_BODY(m) ((m) & ~MOVE_FLAGS)

/* Enough for any game's move list (Brax doubles its moves with the call). */
#define MAX_MOVES 512
/* Deepest line the search follows, quiescence included. */
#define MAX_PLY 128
#define MAX_PLAYERS 4

/* Scores are from the point of view of the team to move. */
typedef int32_t score_t;
#define SCORE_INF 32000
#define SCORE_WIN 31000
#define SCORE_WIN_BOUND (SCORE_WIN - MAX_PLY)
#define SCORE_DRAW 0

#endif
