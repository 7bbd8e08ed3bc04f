/*
 * brax.c: the six Brax variants as game_t tables, with their bench
 * positions: two-player (brax, brax-zillions, brax-easy, brax-hunt) and
 * the team games (brax-3p, brax-4p). Holds no rule: each entry points at
 * the functions of brax_rules.c, brax_eval.c, brax_text.c, brax_view.c and
 * brax_why.c.
 * May not hold a rule: the game's files do.
 */
#include "brax.h"

#include "brax_ending.h"
#include "brax_eval.h"
#include "brax_rules.h"
#include "brax_text.h"
#include "brax_view.h"
#include "brax_why.h"

/* ---- the variants ---- */

#define VARIANT_FNS(tag, id)                                                                                     \
    static void set_start_##tag(position_t *pos) { brax_set_start(pos, id); }                                         \
    static bool parse_fen_##tag(position_t *pos, const char *fen, char *err, size_t len)                         \
    {                                                                                                            \
        return brax_parse_fen(pos, fen, err, len, id);                                                                \
    }
VARIANT_FNS(brax, V_BRAX)
VARIANT_FNS(zillions, V_ZILLIONS)
VARIANT_FNS(easy, V_EASY)
VARIANT_FNS(hunt, V_HUNT)
VARIANT_FNS(3p, V_3P)
VARIANT_FNS(4p, V_4P)

/* The team games solve nothing: only the two-player ones have these. */
#define SOLVED_FNS(tag, id)                                                                                      \
    static void prepare_##tag(void) { brax_ending_prepare(variant_doubles(id)); }                                \
    static bool prepared_##tag(void) { return brax_ending_ready(variant_doubles(id)); }
SOLVED_FNS(brax, V_BRAX)
SOLVED_FNS(zillions, V_ZILLIONS)
SOLVED_FNS(easy, V_EASY)
SOLVED_FNS(hunt, V_HUNT)

/* The start, two positions from engine self-play, and two with contact. */
static const char *const bench_fens[] = {
    "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0",
    "3b1b3/1b5b1/4b1b2/2b6/9/9/2r1r1r2/1r1r3r1/5r3 r - 16",
    "3b5/1b3b1b1/4b1b2/9/1b7/6r2/2r1r4/1r1r2r1r/9 r - 26",
    "9/1b5b1/9/3bb1b2/2b1rb3/3r2r2/2r2r3/1r5r1/9 r - 0",
    "9/4b4/2b3b2/3bbb3/9/3rrr3/2r3r2/9/9 b - 0",
    NULL,
};

/* The starts and the perft suite's mid-game positions (bench/speed/perft.txt). */
static const char *const bench_fens_3p[] = {
    "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 r - - - 0",
    "9/2b1b4/3b5/4r4/9/9/2R6/9/1r3R3 b1 - - d7 2",
    "9/2b6/3b1b3/3R5/9/9/9/9/5R3 b2 r R - 0",
    NULL,
};

static const char *const bench_fens_4p[] = {
    "3RRR3/9/9/b7B/b7B/b7B/9/9/3rrr3 r - - - 0",
    "9/3R5/4B4/2br5/3B5/9/2b6/4R4/3r5 b r r - 0",
    "9/3R5/4B4/4r4/3B5/9/9/4R4/3r5 R - - - 3",
    NULL,
};

static const char *const bench_fens_hunt[] = {
    "1bbbbbbb1/9/9/9/9/9/9/9/4r4 r - 0",
    "9/1bbb1bbb1/9/9/9/9/4r4/9/9 r - 0",
    NULL,
};

#define BRAX_GAME(var, vname, desc, tag, fens, seats, probe, prep, ready, team0, team1, ...)                 \
    const game_t var = {                                                                                         \
        .name = vname,                                                                                           \
        .description = desc,                                                                                     \
        .players = seats,                                                                                        \
        .team_of = {0, 1, 0, 1},                                                                                 \
        .player_names = {__VA_ARGS__},                                                                           \
        .team_names = {team0, team1},                                                                            \
        .repetition_draw = true,                                                                                 \
        .move_keys = N_PTS * N_PTS,                                                                              \
        .bench_fens = fens,                                                                                      \
        .bench_depth = 8,                                                                                        \
        .set_start = set_start_##tag,                                                                            \
        .parse_fen = parse_fen_##tag,                                                                            \
        .write_fen = brax_write_fen,                                                                             \
        .print_board = brax_print_board,                                                                         \
        .to_move = brax_to_move,                                                                                 \
        .players_in = brax_players_in,                                                                           \
        .hash = brax_hash,                                                                                       \
        .tt_key = brax_tt_key,                                                                                   \
        .pass_turn = brax_pass_turn,                                                                             \
        .gen_moves = brax_gen_moves,                                                                             \
        .gen_noisy = brax_gen_noisy,                                                                             \
        .gen_captures = brax_gen_captures,                                                                       \
        .gen_quiet = brax_gen_quiet,                                                                             \
        .count_moves = brax_count_moves,                                                                         \
        .move_legal = brax_move_legal,                                                                           \
        .make = brax_make,                                                                                       \
        .unmake = brax_unmake,                                                                                   \
        .decided = brax_decided,                                                                                 \
        .outcome = brax_outcome,                                                                                 \
        .evaluate = brax_evaluate,                                                                               \
        .move_text = brax_move_text,                                                                             \
        .parse_move = brax_parse_move,                                                                           \
        .explain_illegal = brax_explain_illegal,                                                                 \
        .explain_result = brax_explain_result,                                                                   \
        .move_key = brax_move_key,                                                                               \
        .probe_ending = probe,                                                                                   \
        .prepare = prep,                                                                                         \
        .prepared = ready,                                                                                       \
        .chance_outcomes = NULL,                                                                                 \
        .weights = &brax_weights,                                                                                \
        .view_board = brax_view_board,                                                                           \
        .view_position = brax_view_position,                                                                     \
        .view_move = brax_view_move,                                                                             \
    }

BRAX_GAME(brax_denham, "brax", "Brax (Denham, 1889)", brax, bench_fens, 2, brax_probe_ending, prepare_brax,
          prepared_brax, NULL, NULL, "red", "blue");
BRAX_GAME(brax_zillions, "brax-zillions", "Brax, Zillions of Games rules", zillions, bench_fens, 2, brax_probe_ending,
          prepare_zillions, prepared_zillions, NULL, NULL, "red", "blue");
BRAX_GAME(brax_easy, "brax-easy", "Brax Easy (no calls, no double captures)", easy, bench_fens, 2, brax_probe_ending,
          prepare_easy, prepared_easy, NULL, NULL, "red", "blue");
BRAX_GAME(brax_hunt, "brax-hunt", "Brax hunt: one red man against seven", hunt, bench_fens_hunt, 2, brax_probe_ending,
          prepare_hunt, prepared_hunt, NULL, NULL, "red", "blue");
BRAX_GAME(brax_3p, "brax-3p", "Brax for three: R1 and R2 against Blue's two-move turns", 3p, bench_fens_3p, 3, NULL,
          NULL, NULL, "red team", "blue", "R1", "Blue", "R2");
BRAX_GAME(brax_4p, "brax-4p", "Brax for four: South and North against West and East", 4p, bench_fens_4p, 4, NULL, NULL,
          NULL, "red team", "blue team", "South", "West", "North", "East");
