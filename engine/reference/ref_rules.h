/*
 * ref_rules.h: the plain reference rules of the two-player games behind
 * one small interface, for the proof checker (check.c) and the tests.
 *
 * Each variant's rules are the slow, obvious implementations beside this
 * file (ref_brandubh.c, ref_bolix.c, ref_brax.c), written from
 * docs/rules/ apart from the engine's bitboard games, and cross-checked
 * against them over random games by the tests. This folder includes
 * nothing of the engine (not engine/core, games, search or solve): a
 * proof checked here owes nothing to the code that found it.
 *
 * What the rules leave to the history of the game (repetition) is not
 * here: a state holds everything else, and `keys` says what repetition
 * compares and what the game's future depends on.
 */
#ifndef DENHAM_REF_RULES_H
#define DENHAM_REF_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "ref_bolix.h"
#include "ref_brandubh.h"
#include "ref_brax.h"

#define REF_MOVES_MAX 1024
#define REF_KEY_MAX 160 /* a position string and a little more */

typedef union ref_state {
    ref_bdb_t bdb;
    ref_bolix_t bolix;
    ref_brax_t brax;
} ref_state_t;

typedef union ref_any_move {
    ref_move_t bdb;
    ref_bolix_move_t bolix;
    ref_brax_move_t brax;
} ref_any_move_t;

/* Results, from ref_rules_t.result. */
enum { REF_GOING_ON = -1, REF_WIN_0 = 0, REF_WIN_1 = 1, REF_DRAW = 2 };

typedef struct ref_rules {
    const char *variant;     /* as UCI_Variant names it */
    const char *start;       /* the start position string */
    const char *sides[2];    /* side 0 moves first in the start position */
    bool repetition_draw;    /* the third occurrence of a position draws */
    /* Reads a position string; false unless it is well formed (the
     * checker also asks that it reads back the same). */
    bool (*from_fen)(ref_state_t *s, const char *fen);
    void (*to_fen)(const ref_state_t *s, char *out);
    int (*side_to_move)(const ref_state_t *s);
    /* Every legal move; 0 once the game is over. */
    int (*moves)(const ref_state_t *s, ref_any_move_t *out);
    const char *(*text)(const ref_any_move_t *m);
    void (*play)(ref_state_t *s, const ref_any_move_t *m);
    /* The game's end by the rules, repetition aside: REF_GOING_ON, the
     * winning side, or REF_DRAW. */
    int (*result)(const ref_state_t *s);
    /* rep: what repetition compares (the rules' "same position");
     * state: all that the rest of the game depends on. They differ only
     * in Brax one against one, where the plies without capture count
     * towards the draw but not towards repetition. REF_KEY_MAX each.
     * The checker relies on two promises where they differ: whether they
     * do is decided by rep alone, and every move from such a position
     * leads to another or ends the game (in Brax one man against one
     * stays so until a capture ends it). */
    void (*keys)(const ref_state_t *s, char *rep, char *state);
} ref_rules_t;

/* The rules of a two-player variant by name; NULL for any other. */
const ref_rules_t *ref_rules_find(const char *variant);
/* The names of the variants it knows, for messages: "brandubh, ...". */
const char *ref_rules_names(void);

#endif
