/*
 * picker.h: the staged move picker and the history tables, for the node
 * searches (negamax.c, chance.c).
 */
#ifndef DENHAM_PICKER_H
#define DENHAM_PICKER_H

#include "search_ctx.h"

/* The moves of a node, released in stages so that a node cut off early
 * never lists what it did not need: the table's move (when the game can
 * tell that it is legal here), the noisy moves (or, in a game with
 * gen_captures, the cheap ones), the killers and the counter-move, then the
 * quiet moves (with gen_captures, the noisy ones it left too: Brax's calls,
 * each judged per quiet move, are listed only here). Each stage's moves are
 * scored when released as score_moves scores them. At the root, when the
 * mover must answer a threat and in games without move_legal and
 * gen_quiet, every move is released at once. */
typedef enum stage { STAGE_NOISY, STAGE_REFUTATIONS, STAGE_QUIET, STAGE_DONE } stage_t;

typedef struct picker {
    move_t moves[MAX_MOVES];
    int scores[MAX_MOVES];
    int n;          /* moves[0..n) released */
    stage_t stage;  /* what is released when they run out */
    move_t tt_move; /* released first, or MOVE_NONE */
    int refutations_from; /* where the killers and counter-move were put */
    int ply;
    bool unscored; /* released at once: scored by picker_score */
    bool tt_listed; /* the table's move was generated again (debug check) */
} picker_t;

/* Scores n moves for ordering (the table's move, noisy moves, killers,
 * the counter-move, history). */
void picker_score_moves(ctx_t *c, const move_t *moves, int *scores, int n, move_t tt_move, int ply);
/* Swaps the best-scored of moves[i..n) into place i and returns it. */
move_t picker_pick(move_t *moves, int *scores, int n, int i);
/* Are the moves after i all quiet and no killers (debug check)? */
bool picker_later_moves_quiet(const move_t *moves, int n, int i, const move_t *killers);
/* Keeps, of n moves, those the game says make a threat; the new count. */
int picker_keep_threats(ctx_t *c, move_t *moves, int *scores, int n);
/* A quiet move caused a cut-off: killers, counter-move and history learn. */
void picker_reward_quiet(ctx_t *c, move_t m, int ply, int depth, const move_t *tried, int tried_n);
bool picker_start(ctx_t *c, picker_t *p, move_t tt_move, int ply, bool staged);
void picker_score(ctx_t *c, picker_t *p, move_t tt_move);
bool picker_only_quiet_left(const ctx_t *c, const picker_t *p);
void picker_fill_all(ctx_t *c, picker_t *p);
move_t picker_next(ctx_t *c, picker_t *p, int i);

#endif
