/*
 * ref_rules.c: the reference rules of each two-player variant behind
 * ref_rules_t (see ref_rules.h). Only glue: each game's rules are in its
 * own ref_*.c. Includes nothing of the engine.
 */
#include "ref_rules.h"

#include <stdio.h>
#include <string.h>

/* ---- Brandubh ---- */

static bool bdb_from_fen_v1(ref_state_t *s, const char *fen) { return ref_bdb_from_fen(&s->bdb, fen, 1); }
static bool bdb_from_fen_v2(ref_state_t *s, const char *fen) { return ref_bdb_from_fen(&s->bdb, fen, 2); }
static void bdb_to_fen(const ref_state_t *s, char *out) { ref_bdb_to_fen(&s->bdb, out); }
static int bdb_side(const ref_state_t *s) { return s->bdb.stm == 'd'; }
static const char *bdb_text(const ref_any_move_t *m) { return m->bdb.text; }
static void bdb_play(ref_state_t *s, const ref_any_move_t *m) { ref_bdb_play(&s->bdb, &m->bdb); }

static int bdb_moves(const ref_state_t *s, ref_any_move_t *out)
{
    static _Thread_local ref_move_t m[REF_MOVES_MAX];
    int n = ref_bdb_moves(&s->bdb, m);
    for (int i = 0; i < n; i++)
        out[i].bdb = m[i];
    return n;
}

static int bdb_result(const ref_state_t *s)
{
    char r = ref_bdb_result(&s->bdb);
    return r == 'a' ? REF_WIN_0 : r == 'd' ? REF_WIN_1 : r == '=' ? REF_DRAW : REF_GOING_ON;
}

/* ---- Bolix ---- */

static bool bolix_from_fen(ref_state_t *s, const char *fen) { return ref_bolix_from_fen(&s->bolix, fen); }
static void bolix_to_fen(const ref_state_t *s, char *out) { ref_bolix_to_fen(&s->bolix, out); }
static int bolix_side(const ref_state_t *s) { return s->bolix.stm == 'w'; }
static const char *bolix_text(const ref_any_move_t *m) { return m->bolix.text; }
static void bolix_play(ref_state_t *s, const ref_any_move_t *m) { ref_bolix_play(&s->bolix, &m->bolix); }

static int bolix_moves(const ref_state_t *s, ref_any_move_t *out)
{
    static _Thread_local ref_bolix_move_t m[REF_MOVES_MAX];
    int n = ref_bolix_moves(&s->bolix, m);
    for (int i = 0; i < n; i++)
        out[i].bolix = m[i];
    return n;
}

static int bolix_result(const ref_state_t *s)
{
    char r = ref_bolix_result(&s->bolix);
    return r == 'b' ? REF_WIN_0 : r == 'w' ? REF_WIN_1 : r == '=' ? REF_DRAW : REF_GOING_ON;
}

/* ---- Brax (two players) ---- */

static bool brax_from_fen_0(ref_state_t *s, const char *fen) { return ref_brax_from_fen(&s->brax, fen, 0); }
static bool brax_from_fen_1(ref_state_t *s, const char *fen) { return ref_brax_from_fen(&s->brax, fen, 1); }
static bool brax_from_fen_2(ref_state_t *s, const char *fen) { return ref_brax_from_fen(&s->brax, fen, 2); }
static bool brax_from_fen_3(ref_state_t *s, const char *fen) { return ref_brax_from_fen(&s->brax, fen, 3); }
static void brax_to_fen(const ref_state_t *s, char *out) { ref_brax_to_fen(&s->brax, out); }
static int brax_side(const ref_state_t *s) { return s->brax.stm == 'b'; }
static const char *brax_text(const ref_any_move_t *m) { return m->brax.text; }
static void brax_play(ref_state_t *s, const ref_any_move_t *m) { ref_brax_play(&s->brax, &m->brax); }

static int brax_moves(const ref_state_t *s, ref_any_move_t *out)
{
    static _Thread_local ref_brax_move_t m[REF_MOVES_MAX];
    int n = ref_brax_moves(&s->brax, m);
    for (int i = 0; i < n; i++)
        out[i].brax = m[i];
    return n;
}

static int brax_result(const ref_state_t *s)
{
    char r = ref_brax_result(&s->brax);
    return r == 'r' ? REF_WIN_0 : r == 'b' ? REF_WIN_1 : r == '=' ? REF_DRAW : REF_GOING_ON;
}

/* Repetition compares the men, the side to move and the calls (brax.md);
 * the plies without capture matter to the future only one man against
 * one (before that the capture that leaves one against one sets them to
 * 0), where they bring the draw nearer. */
static void brax_keys(const ref_state_t *s, char *rep, char *state)
{
    char fen[REF_KEY_MAX];
    ref_brax_to_fen(&s->brax, fen);
    char *quiet = strrchr(fen, ' ');
    snprintf(state, REF_KEY_MAX, "%s", fen);
    *quiet = 0;
    snprintf(rep, REF_KEY_MAX, "%s", fen);
    int men[2] = {0, 0};
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            men[s->brax.pt[r][c] == 'b'] += s->brax.pt[r][c] != '.';
    if (men[0] != 1 || men[1] != 1)
        snprintf(state, REF_KEY_MAX, "%s", rep);
}

/* The whole position string, in the games where it is all the position. */
#define WHOLE_KEYS(name, to_fen)                                                                                      \
    static void name(const ref_state_t *s, char *rep, char *state)                                                   \
    {                                                                                                                \
        to_fen(s, rep);                                                                                              \
        memcpy(state, rep, REF_KEY_MAX);                                                                             \
    }
WHOLE_KEYS(bdb_keys, bdb_to_fen)
WHOLE_KEYS(bolix_keys, bolix_to_fen)

#define BRANDUBH(name, reader)                                                                                       \
    {name, "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", {"attackers", "defenders"}, true, reader, bdb_to_fen, bdb_side,       \
     bdb_moves, bdb_text, bdb_play, bdb_result, bdb_keys}
#define BRAX(name, start, reader)                                                                                    \
    {name, start, {"red", "blue"}, true, reader, brax_to_fen, brax_side, brax_moves, brax_text, brax_play,             \
     brax_result, brax_keys}

static const ref_rules_t rules[] = {
    BRANDUBH("brandubh", bdb_from_fen_v1),
    BRANDUBH("brandubh-v2", bdb_from_fen_v2),
    {"bolix", "6/7/8/9/10/10/9/8/7/6 b 36 36 - 0", {"black", "white"}, false, bolix_from_fen, bolix_to_fen, bolix_side,
     bolix_moves, bolix_text, bolix_play, bolix_result, bolix_keys},
    BRAX("brax", "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0", brax_from_fen_0),
    BRAX("brax-zillions", "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0", brax_from_fen_1),
    BRAX("brax-easy", "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0", brax_from_fen_2),
    BRAX("brax-hunt", "1bbbbbbb1/9/9/9/9/9/9/9/4r4 r - 0", brax_from_fen_3),
};

const ref_rules_t *ref_rules_find(const char *variant)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].variant, variant) == 0)
            return &rules[i];
    return NULL;
}

const char *ref_rules_names(void)
{
    return "brandubh, brandubh-v2, bolix, brax, brax-zillions, brax-easy, brax-hunt";
}
