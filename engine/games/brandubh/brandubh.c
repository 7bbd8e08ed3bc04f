/*
 * brandubh.c: the two Brandubh versions as game_t tables, with their bench
 * positions. Holds no rule: the entries point at brandubh_rules.c,
 * brandubh_eval.c, brandubh_text.c, brandubh_view.c and brandubh_why.c.
 * May not hold a rule: the game's files do.
 */
#include "brandubh.h"

#include "brandubh_eval.h"
#include "brandubh_net.h"
#include "brandubh_rules.h"
#include "brandubh_text.h"
#include "brandubh_view.h"
#include "brandubh_why.h"

static const char *const bench_fens[] = {
    "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",
    "3a3/1a5/3d3/a1dkd1a/3d1a1/3a3/7 d",
    "7/3a3/1a1d3/a1dkd1a/2d4/5a1/2a4 a",
    "2a4/7/a2d1a1/2dk2a/1d1d3/3a3/3a3 d",
    "3a3/7/1a5/a2kd1a/2d1d2/3a3/2a4 a",
    "7/2a1a2/3d3/a2k2a/1d1d3/a6/3a3 d",
    NULL,
};

/* A clock shared over 30 moves ended three quarters unused in brandubh-v2
 * games of 30 plies at 1+0.01 (two thirds with 15), and 15 measured +9.6
 * Elo there (issue 33); in Jinxx, whose games are as short, 15 measured
 * -6.9 [-22, +8] over 2000 games and it keeps the default. */
#define BDB_CLOCK_MOVES 15

#define BRANDUBH_GAME(var, vname, desc, version, network, refresh_fn)                                            \
    const game_t var = {                                                                                         \
        .name = vname,                                                                                           \
        .description = desc,                                                                                     \
        .players = 2,                                                                                            \
        .team_of = {0, 1},                                                                                       \
        .player_names = {"attackers", "defenders"},                                                              \
        .repetition_draw = true,                                                                                 \
        .clock_moves = BDB_CLOCK_MOVES,                                                                          \
        .move_keys = N_SQ * N_SQ,                                                                                \
        .bench_fens = bench_fens,                                                                                \
        .bench_depth = 9,                                                                                        \
        .set_start = bdb_set_start_##version,                                                                    \
        .parse_fen = bdb_parse_fen_##version,                                                                    \
        .write_fen = bdb_write_fen,                                                                              \
        .print_board = bdb_print_board,                                                                          \
        .to_move = bdb_to_move,                                                                                  \
        .hash = bdb_hash,                                                                                        \
        .pass_turn = bdb_pass_turn,                                                                              \
        .gen_moves = bdb_gen_moves,                                                                              \
        .gen_noisy = bdb_gen_noisy,                                                                              \
        .must_respond = bdb_must_respond,                                                                        \
        .gives_threat = bdb_gives_threat,                                                                        \
        .count_moves = bdb_count_moves,                                                                          \
        .move_legal = bdb_move_legal,                                                                            \
        .gen_quiet = bdb_gen_quiet,                                                                              \
        .make = bdb_make,                                                                                        \
        .unmake = bdb_unmake,                                                                                    \
        .decided = bdb_decided,                                                                                  \
        .outcome = bdb_outcome,                                                                                  \
        .evaluate = bdb_evaluate,                                                                                \
        .weights = &brandubh_weights,                                                                            \
        .move_text = bdb_move_text,                                                                              \
        .parse_move = bdb_parse_move,                                                                            \
        .explain_illegal = bdb_explain_illegal,                                                                  \
        .explain_result = bdb_explain_result,                                                                    \
        .move_key = bdb_move_key,                                                                                \
        .chance_outcomes = NULL,                                                                                 \
        .view_board = bdb_view_board,                                                                            \
        .view_position = bdb_view_position,                                                                      \
        .view_move = bdb_view_move,                                                                              \
        .net = network,                                                                                          \
        .refresh = refresh_fn,                                                                                   \
    }

/* Version 1 has a learned evaluation; version 2 only its hand-written one. */
BRANDUBH_GAME(brandubh_v1, "brandubh", "Brandubh, 7x7 tafl, version 1", v1, &brandubh_net, bdb_refresh);
BRANDUBH_GAME(brandubh_v2, "brandubh-v2", "Brandubh, 7x7 tafl, version 2", v2, NULL, NULL);
