/*
 * jinxx.c: Jinxx for two, three and four as game_t tables, with their
 * bench positions. Holds no rule: the entries point at jinxx_rules.c,
 * jinxx_eval.c, jinxx_text.c, jinxx_view.c and jinxx_why.c.
 * May not hold a rule: the game's files do.
 */
#include "jinxx.h"

#include "jinxx_eval.h"
#include "jinxx_rules.h"
#include "jinxx_text.h"
#include "jinxx_view.h"
#include "jinxx_why.h"

/* ---- the variants ---- */

#define JINXX_FNS(n)                                                                                             \
    static void set_start_##n(position_t *pos) { jinxx_set_start(pos, n); }                                            \
    static bool parse_fen_##n(position_t *pos, const char *fen, char *err, size_t len)                           \
    {                                                                                                            \
        return jinxx_parse_fen(pos, fen, err, len, n);                                                                 \
    }
JINXX_FNS(2)
JINXX_FNS(3)
JINXX_FNS(4)

static const char *const bench_2p[] = {
    ".,.,./.,.,./.,.,. 333/333 p1 SM 0",
    "L2,.,./L1,M1,S2/.,.,. 033/013 p2 ML 3",
    NULL,
};
static const char *const bench_3p[] = {
    ".,.,./.,.,./.,.,. 333/333/333 p1 SL 0",
    NULL,
};
static const char *const bench_4p[] = {
    ".,.,./.,.,./.,.,. 333/333/333/333 p1 ML 0",
    NULL,
};

#define JINXX_GAME(var, vname, desc, n, fens, ...)                                                               \
    const game_t var = {                                                                                         \
        .name = vname,                                                                                           \
        .description = desc,                                                                                     \
        .players = n,                                                                                            \
        .team_of = {0, 1, 2, 3},                                                                                 \
        .player_names = {__VA_ARGS__},                                                                           \
        .repetition_draw = false,                                                                                \
        .move_keys = JINXX_MOVE_KEYS,                                                                            \
        .bench_fens = fens,                                                                                      \
        .bench_depth = 6,                                                                                        \
        .set_start = set_start_##n,                                                                              \
        .parse_fen = parse_fen_##n,                                                                              \
        .write_fen = jinxx_write_fen,                                                                            \
        .print_board = jinxx_print_board,                                                                        \
        .to_move = jinxx_to_move,                                                                                \
        .players_in = jinxx_players_in,                                                                          \
        .hash = jinxx_hash,                                                                                      \
        .gen_moves = jinxx_gen_moves,                                                                            \
        .gen_noisy = jinxx_gen_noisy,                                                                            \
        .count_moves = jinxx_count_moves,                                                                        \
        .make = jinxx_make,                                                                                      \
        .unmake = jinxx_unmake,                                                                                  \
        .decided = jinxx_decided,                                                                                \
        .outcome = jinxx_outcome,                                                                                \
        .evaluate = jinxx_evaluate,                                                                              \
        .evaluate_players = jinxx_evaluate_players,                                                              \
        .weights = &jinxx_weights,                                                                               \
        .move_text = jinxx_move_text,                                                                            \
        .parse_move = jinxx_parse_move,                                                                          \
        .explain_illegal = jinxx_explain_illegal,                                                                \
        .explain_result = jinxx_explain_result,                                                                  \
        .move_key = jinxx_move_key,                                                                              \
        .chance_outcomes = jinxx_chance_outcomes,                                                                \
        .hand_turn = jinxx_hand_turn,                                                                            \
        .view_board = jinxx_view_board,                                                                          \
        .view_position = jinxx_view_position,                                                                    \
        .view_move = jinxx_view_move,                                                                            \
    }

JINXX_GAME(jinxx_2p, "jinxx", "Jinxx for two: South against North", 2, bench_2p, "South", "North");
JINXX_GAME(jinxx_3p, "jinxx-3p", "Jinxx for three: South, West, North", 3, bench_3p, "South", "West", "North");
JINXX_GAME(jinxx_4p, "jinxx-4p", "Jinxx for four: South, West, North, East", 4, bench_4p, "South", "West", "North",
           "East");
