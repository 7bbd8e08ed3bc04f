/*
 * bolix.c: Bolix as a game_t table, with its bench positions. Holds no
 * rule: the entries point at bolix_rules.c, bolix_eval.c, bolix_text.c,
 * bolix_view.c and bolix_why.c.
 * May not hold a rule: the game's files do.
 */
#include "bolix.h"

#include "bolix_eval.h"
#include "bolix_net.h"
#include "bolix_rules.h"
#include "bolix_text.h"
#include "bolix_view.h"
#include "bolix_why.h"

static const char *const bench_fens[] = {
    "6/7/8/9/10/10/9/8/7/6 b 36 36 - 0",
    "6/7/8/4b4/3bw5/3wb5/9/8/7/6 w 33 34 - 0",
    "6/7/2w5/3bbw3/2wbw5/3bwb4/4b4/8/7/6 w 30 31 - 0",
    "6/1w5/2wb4/2bbw4/2wbbw4/2bwwb4/3bw4/3b4/7/6 w 27 28 - 0",
    NULL,
};

/* Games of about 32 plies at 1+0.01 ended with half of a clock shared over
 * 30 moves unused, while twice the nodes is worth +89 Elo here (40,000
 * against 20,000). 15 measured +47.8 [+28.0, +67.9] at 1+0.01 (issue 33). */
#define BOLIX_CLOCK_MOVES 15

const game_t bolix = {
    .name = "bolix",
    .description = "Bolix (Boku), 80-cell hex board",
    .players = 2,
    .team_of = {0, 1},
    .player_names = {"black", "white"},
    .repetition_draw = false,
    .clock_moves = BOLIX_CLOCK_MOVES,
    .move_keys = N_CELLS + 1,
    .bench_fens = bench_fens,
    .bench_depth = 4,
    .set_start = bolix_set_start,
    .parse_fen = bolix_parse_fen,
    .write_fen = bolix_write_fen,
    .print_board = bolix_print_board,
    .to_move = bolix_to_move,
    .hash = bolix_hash,
    .gen_moves = bolix_gen_moves,
    .gen_noisy = bolix_gen_noisy,
    .count_moves = bolix_count_moves,
    .move_legal = bolix_move_legal,
    .gen_quiet = bolix_gen_quiet,
    .make = bolix_make,
    .unmake = bolix_unmake,
    .decided = bolix_decided,
    .outcome = bolix_outcome,
    .evaluate = bolix_evaluate,
    .weights = &bolix_weights,
    .net = &bolix_net,
    .refresh = bolix_refresh,
    .must_respond = bolix_must_respond,
    .gives_threat = bolix_gives_threat,
    .pass_turn = bolix_pass_turn,
    .move_text = bolix_move_text,
    .parse_move = bolix_parse_move,
    .explain_illegal = bolix_explain_illegal,
    .explain_result = bolix_explain_result,
    .move_key = bolix_move_key,
    .chance_outcomes = NULL,
    .view_board = bolix_view_board,
    .view_position = bolix_view_position,
    .view_move = bolix_view_move,
};
