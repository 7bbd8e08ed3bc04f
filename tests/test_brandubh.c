/* test_brandubh.c: every ruling of docs/rules/brandubh.md as a position
 * with its expected outcome, perft counts, FEN and move text. */
#include <string.h>

#include "../engine/core/perft.h"
#include "../engine/core/record.h"
#include "../engine/games/brandubh/brandubh.h"
#include "helpers.h"

static const game_t *const versions[2] = {&brandubh_v1, &brandubh_v2};

/* Plays `move` from the position given by the lists and checks the board
 * that results against the expected lists. */
static void expect_after(const game_t *g, const char *att, const char *def, const char *king, char side,
                         const char *move, const char *att2, const char *def2, const char *king2)
{
    char fen[GAME_FEN_MAX], want[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, att, def, king, side);
    load_fen(g, &pos, fen);
    play(g, &pos, move);
    bdb_fen(want, att2, def2, king2, side == 'a' ? 'd' : 'a');
    ck_assert_str_eq(fen_of(g, &pos), want);
}

static outcome_t outcome_after(const game_t *g, const char *att, const char *def, const char *king, char side,
                               const char *move)
{
    char fen[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, att, def, king, side);
    load_fen(g, &pos, fen);
    play(g, &pos, move);
    move_t moves[MAX_MOVES];
    if (g->gen_moves(&pos, moves) != 0)
        return (outcome_t){OUTCOME_NONE, 0, NULL};
    return g->outcome(&pos);
}

/* ---- perft ---- */

START_TEST(perft_reference_counts)
{
    static const uint64_t nodes[] = {1, 40, 960, 39512, 1007392};
    static const uint64_t caps[] = {0, 0, 16, 568, 47104};
    const game_t *g = versions[_i];
    position_t pos;
    g->set_start(&pos);
    for (int d = 1; d <= 4; d++) {
        perft_stats_t s = perft_stats(g, &pos, d);
        ck_assert_uint_eq(s.nodes, nodes[d]);
        ck_assert_uint_eq(s.captures, caps[d]);
        ck_assert_uint_eq(perft(g, &pos, d), nodes[d]);
    }
    ck_assert_uint_eq(perft(g, &pos, 5), 41843336);
}
END_TEST

/* The ruling: the versions first differ at depth 5 (v2's empty throne). */
START_TEST(perft_versions_differ_at_depth_5)
{
    position_t p1, p2;
    brandubh_v1.set_start(&p1);
    brandubh_v2.set_start(&p2);
    perft_stats_t a = perft_stats(&brandubh_v1, &p1, 5), b = perft_stats(&brandubh_v2, &p2, 5);
    ck_assert_uint_eq(a.nodes, b.nodes);
    ck_assert_uint_ne(a.captures, b.captures);
}
END_TEST

/* ---- captures of men ---- */

START_TEST(attackers_capture_a_defender)
{
    expect_after(versions[_i], "b6 g6", "c6", "f2", 'a', "g6d6", "b6 d6", "", "f2");
}
END_TEST

START_TEST(defenders_capture_an_attacker)
{
    expect_after(versions[_i], "c3", "b3 g3", "f6", 'd', "g3d3", "", "b3 d3", "f6");
}
END_TEST

START_TEST(king_captures_as_mover)
{
    expect_after(versions[_i], "c3 f7", "b3", "g3", 'd', "g3d3", "f7", "b3", "d3");
}
END_TEST

START_TEST(king_is_an_anvil)
{
    expect_after(versions[_i], "c6", "g6", "b6", 'd', "g6d6", "", "d6", "b6");
}
END_TEST

START_TEST(corner_is_hostile_to_attackers)
{
    expect_after(versions[_i], "b1", "c3", "e5", 'd', "c3c1", "", "c1", "e5");
}
END_TEST

START_TEST(corner_is_hostile_to_defenders)
{
    expect_after(versions[_i], "e3", "a2", "f5", 'a', "e3a3", "a3", "", "f5");
}
END_TEST

START_TEST(corner_is_hostile_to_the_king)
{
    outcome_t o = outcome_after(versions[_i], "e3", "", "a2", 'a', "e3a3");
    ck_assert_int_eq(o.kind, OUTCOME_WIN);
    ck_assert_int_eq(o.players, player_bit(0));
}
END_TEST

START_TEST(edge_is_not_hostile)
{
    /* A man on the edge with an enemy landing beside it, away from the edge. */
    expect_after(versions[_i], "b5", "a3", "f5", 'a', "b5b3", "b3", "a3", "f5");
    expect_after(versions[_i], "f2", "d1", "f5", 'a', "f2d2", "d2", "d1", "f5");
}
END_TEST

START_TEST(moving_between_two_enemies_is_safe)
{
    expect_after(versions[_i], "b6 d6", "c2", "f3", 'd', "c2c6", "b6 d6", "c6", "f3");
    expect_after(versions[_i], "b6 d6", "", "c2", 'd', "c2c6", "b6 d6", "", "c6");
}
END_TEST

START_TEST(several_captures_in_one_move)
{
    expect_after(versions[_i], "a5 c7 e5 c1", "b5 c6 d5", "f2", 'a', "c1c5", "a5 c7 e5 c5", "", "f2");
}
END_TEST

/* ---- the throne ---- */

START_TEST(empty_throne_hostile_only_in_v2)
{
    const game_t *g = versions[_i];
    if (g == &brandubh_v1) {
        expect_after(g, "g6", "d5", "f2", 'a', "g6d6", "d6", "d5", "f2");
        expect_after(g, "d5", "a6", "f2", 'd', "a6d6", "d5", "d6", "f2");
    } else {
        expect_after(g, "g6", "d5", "f2", 'a', "g6d6", "d6", "", "f2");
        expect_after(g, "d5", "a6", "f2", 'd', "a6d6", "", "d6", "f2");
    }
}
END_TEST

START_TEST(occupied_throne_is_not_hostile_to_defenders)
{
    expect_after(versions[_i], "g6", "d5", "d4", 'a', "g6d6", "d6", "d5", "d4");
}
END_TEST

START_TEST(men_pass_the_empty_throne_but_never_stop)
{
    const game_t *g = versions[_i];
    char fen[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, "d2", "a3", "f6", 'a');
    load_fen(g, &pos, fen);
    ck_assert(is_legal(g, &pos, "d2d6"));
    ck_assert(is_legal(g, &pos, "d2d5"));
    ck_assert(!is_legal(g, &pos, "d2d4"));
    bdb_fen(fen, "a3", "d2", "f6", 'd');
    load_fen(g, &pos, fen);
    ck_assert(is_legal(g, &pos, "d2d7"));
    ck_assert(!is_legal(g, &pos, "d2d4"));
}
END_TEST

START_TEST(king_reenters_throne_only_in_v1)
{
    const game_t *g = versions[_i];
    char fen[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, "a3", "b2", "d5", 'd');
    load_fen(g, &pos, fen);
    ck_assert_int_eq(is_legal(g, &pos, "d5d4"), g == &brandubh_v1);
    /* Passing over the empty throne is allowed in both versions. */
    ck_assert(is_legal(g, &pos, "d5d3"));
    ck_assert(is_legal(g, &pos, "d5d1"));
}
END_TEST

START_TEST(only_the_king_stops_on_corners)
{
    const game_t *g = versions[_i];
    char fen[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, "a3", "b2", "c6", 'a');
    load_fen(g, &pos, fen);
    ck_assert(!is_legal(g, &pos, "a3a1"));
    ck_assert(is_legal(g, &pos, "a3a2"));
    bdb_fen(fen, "b3", "c1", "a3", 'd');
    load_fen(g, &pos, fen);
    ck_assert(!is_legal(g, &pos, "c1a1"));
    ck_assert(is_legal(g, &pos, "c1b1"));
    ck_assert(is_legal(g, &pos, "a3a1"));
    outcome_t o = outcome_after(g, "b3", "c1", "a3", 'd', "a3a1");
    ck_assert_int_eq(o.kind, OUTCOME_WIN);
    ck_assert_int_eq(o.players, player_bit(1));
}
END_TEST

/* ---- capturing the king ---- */

static void expect_king(const game_t *g, const char *att, const char *king, const char *move, bool taken)
{
    outcome_t o = outcome_after(g, att, "", king, 'a', move);
    ck_assert_msg((o.kind == OUTCOME_WIN && o.players == player_bit(0)) == taken, "%s: king %s after %s (atts %s)",
                  g->name, taken ? "should be taken" : "should survive", move, att);
}

START_TEST(king_away_from_throne_taken_by_two)
{
    expect_king(versions[_i], "b2 g2", "c2", "g2d2", true);
    expect_king(versions[_i], "b6 g5", "c6", "g5c5", false); /* not opposite */
}
END_TEST

START_TEST(king_on_throne)
{
    const game_t *g = versions[_i];
    /* Two attackers: version 1 only. */
    expect_king(g, "c4 g4", "d4", "g4e4", g == &brandubh_v1);
    /* Three attackers are not enough in version 2, four are. */
    expect_king(g, "c4 d3 g4", "d4", "g4e4", g == &brandubh_v1);
    expect_king(g, "c4 d3 d5 g4", "d4", "g4e4", true);
}
END_TEST

START_TEST(king_beside_throne)
{
    const game_t *g = versions[_i];
    expect_king(g, "c5 g5", "d5", "g5e5", g == &brandubh_v1);
    expect_king(g, "c5 d6 g5", "d5", "g5e5", true);
    /* Only the three sides other than the throne count. */
    expect_king(g, "c5 a6 g5", "d5", "g5e5", g == &brandubh_v1);
}
END_TEST

START_TEST(defenders_never_capture_the_king)
{
    /* The king between defender men stays on the board. */
    expect_after(versions[_i], "f7", "b6 g6", "c6", 'd', "g6d6", "f7", "b6 d6", "c6");
}
END_TEST

/* ---- end of the game ---- */

START_TEST(no_legal_move_is_a_draw)
{
    const game_t *g = versions[_i];
    char fen[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, "a2", "a3 b2", "f6", 'a');
    load_fen(g, &pos, fen);
    move_t moves[MAX_MOVES];
    ck_assert_int_eq(g->gen_moves(&pos, moves), 0);
    outcome_t o = g->outcome(&pos);
    ck_assert_int_eq(o.kind, OUTCOME_DRAW);
}
END_TEST

START_TEST(threefold_repetition_is_a_draw)
{
    const game_t *g = versions[_i];
    static record_t r;
    char fen[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, "b6", "c2", "f4", 'a');
    load_fen(g, &pos, fen);
    record_init(&r, g, &pos);
    const char *cycle[4] = {"b6b5", "c2c3", "b5b6", "c3c2"};
    for (int lap = 0; lap < 2; lap++) {
        ck_assert_int_eq(record_outcome(&r).kind, OUTCOME_NONE);
        for (int i = 0; i < 4; i++) {
            move_t m = g->parse_move(&r.pos, cycle[i]);
            ck_assert(m != MOVE_NONE);
            record_play(&r, m);
        }
        ck_assert_int_eq(record_occurrences(&r), lap + 2);
    }
    ck_assert_int_eq(record_outcome(&r).kind, OUTCOME_DRAW);
    move_t moves[MAX_MOVES];
    ck_assert_int_eq(record_legal_moves(&r, moves), 0);
}
END_TEST

START_TEST(capture_resets_repetition)
{
    static record_t r;
    const game_t *g = versions[_i];
    char fen[GAME_FEN_MAX];
    position_t pos;
    bdb_fen(fen, "b6 g6", "c6 c2", "f4", 'a');
    load_fen(g, &pos, fen);
    record_init(&r, g, &pos);
    record_play(&r, g->parse_move(&r.pos, "g6d6"));
    ck_assert_int_eq(r.reversible_from, 1);
    ck_assert_int_eq(record_occurrences(&r), 1);
}
END_TEST

/* ---- text ---- */

START_TEST(fen_round_trips)
{
    const game_t *g = versions[_i];
    position_t pos, again;
    g->set_start(&pos);
    ck_assert_str_eq(fen_of(g, &pos), "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a");
    for (int i = 0; g->bench_fens[i]; i++) {
        load_fen(g, &pos, g->bench_fens[i]);
        ck_assert_str_eq(fen_of(g, &pos), g->bench_fens[i]);
        load_fen(g, &again, fen_of(g, &pos));
        ck_assert(memcmp(&pos, &again, sizeof pos) == 0);
    }
}
END_TEST

START_TEST(bad_fens_are_rejected)
{
    static const char *const bad[] = {
        "",
        "3a3/3a3/3d3/aadkdaa/3d3/3a3 a",          /* six ranks */
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3",        /* no side */
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 x",      /* bad side */
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a junk", /* trailing */
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a4 a",      /* eight squares */
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a2 a",      /* six squares */
        "3a3/3a3/3d3/aadqdaa/3d3/3a3/3a3 a",      /* bad letter */
        "3a3/3a3/3d3/aadadaa/3d3/3a3/3a3 a",      /* attacker on the throne */
        "a2a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",     /* attacker on a corner */
        "3a3/3a3/3d3/aakkdaa/3d3/3a3/3a3 a",      /* two kings */
        "3a3/3a3/3d3/aad9/3d3/3a3/3a3 a",         /* digit too large */
    };
    position_t pos;
    char err[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!versions[_i]->parse_fen(&pos, bad[i], err, sizeof err), "accepted '%s'", bad[i]);
}
END_TEST

START_TEST(move_text_round_trips)
{
    const game_t *g = versions[_i];
    position_t pos;
    for (int i = 0; g->bench_fens[i]; i++) {
        load_fen(g, &pos, g->bench_fens[i]);
        move_t moves[MAX_MOVES];
        int n = g->gen_moves(&pos, moves);
        ck_assert_int_gt(n, 0);
        for (int k = 0; k < n; k++) {
            char text[GAME_MOVE_TEXT_MAX];
            g->move_text(&pos, moves[k], text, sizeof text);
            ck_assert_uint_eq(g->parse_move(&pos, text), moves[k]);
        }
    }
    g->set_start(&pos);
    ck_assert_uint_eq(g->parse_move(&pos, "d1d4"), MOVE_NONE);
    ck_assert_uint_eq(g->parse_move(&pos, "z9z9"), MOVE_NONE);
    ck_assert_uint_eq(g->parse_move(&pos, ""), MOVE_NONE);
}
END_TEST

START_TEST(evaluation_sees_an_open_corner)
{
    nets_off(); /* the hand-written evaluation; the fixture restores the default */
    const game_t *g = versions[_i];
    char fen[GAME_FEN_MAX];
    position_t open, shut, home;
    /* The king on c1 sees a1 past an empty b1; an attacker on b1 shuts it. */
    bdb_fen(fen, "d1 d6 f4 g5", "e5", "c1", 'a');
    load_fen(g, &open, fen);
    bdb_fen(fen, "b1 d1 d6 f4", "e5", "c1", 'a');
    load_fen(g, &shut, fen);
    ck_assert_int_gt(g->evaluate(&shut, NULL), g->evaluate(&open, NULL));
    /* With the defenders to move the open corner is all but a win. */
    bdb_fen(fen, "d1 d6 f4", "e5", "c1", 'd');
    load_fen(g, &home, fen);
    ck_assert_int_gt(g->evaluate(&home, NULL), 1000);
    eval_trace_t t = {0};
    g->evaluate(&open, &t);
    ck_assert_int_ge(t.count, 5);
}
END_TEST

/* The king is worth more the nearer it stands to a corner (25 per step
 * nearer than the throne's 6: c3 is 4 from a1), and an attacker beside a
 * corner, where one defender captures it against the corner, less than
 * elsewhere. */
START_TEST(evaluation_values_the_corners)
{
    nets_off(); /* the hand-written evaluation; the fixture restores the default */
    const game_t *g = versions[_i];
    char fen[GAME_FEN_MAX];
    position_t pos;
    eval_trace_t t = {0};
    bdb_fen(fen, "c1 d6 f4", "e5", "d4", 'a');
    load_fen(g, &pos, fen);
    g->evaluate(&pos, &t);
    ck_assert_int_eq(trace_term(&t, "king to corner", 1), 0);
    ck_assert_int_eq(trace_term(&t, "beside a corner", 0), 0);
    score_t centre = g->evaluate(&pos, NULL);
    t.count = 0;
    bdb_fen(fen, "b1 d6 f4", "e5", "c3", 'a');
    load_fen(g, &pos, fen);
    g->evaluate(&pos, &t);
    ck_assert_int_eq(trace_term(&t, "king to corner", 1), (6 - 4) * 25);
    ck_assert_int_eq(trace_term(&t, "beside a corner", 0), -20);
    ck_assert_int_lt(g->evaluate(&pos, NULL), centre); /* for the attackers, to move */
}
END_TEST

Suite *suite_brandubh(void)
{
    Suite *s = suite_create("brandubh");
    TCase *perft_case = tcase_create("perft");
    tcase_set_timeout(perft_case, 120);
    tcase_add_loop_test(perft_case, perft_reference_counts, 0, 2);
    tcase_add_test(perft_case, perft_versions_differ_at_depth_5);
    suite_add_tcase(s, perft_case);

    TCase *rules = tcase_create("rules");
    tcase_add_loop_test(rules, attackers_capture_a_defender, 0, 2);
    tcase_add_loop_test(rules, defenders_capture_an_attacker, 0, 2);
    tcase_add_loop_test(rules, king_captures_as_mover, 0, 2);
    tcase_add_loop_test(rules, king_is_an_anvil, 0, 2);
    tcase_add_loop_test(rules, corner_is_hostile_to_attackers, 0, 2);
    tcase_add_loop_test(rules, corner_is_hostile_to_defenders, 0, 2);
    tcase_add_loop_test(rules, corner_is_hostile_to_the_king, 0, 2);
    tcase_add_loop_test(rules, edge_is_not_hostile, 0, 2);
    tcase_add_loop_test(rules, moving_between_two_enemies_is_safe, 0, 2);
    tcase_add_loop_test(rules, several_captures_in_one_move, 0, 2);
    tcase_add_loop_test(rules, empty_throne_hostile_only_in_v2, 0, 2);
    tcase_add_loop_test(rules, occupied_throne_is_not_hostile_to_defenders, 0, 2);
    tcase_add_loop_test(rules, men_pass_the_empty_throne_but_never_stop, 0, 2);
    tcase_add_loop_test(rules, king_reenters_throne_only_in_v1, 0, 2);
    tcase_add_loop_test(rules, only_the_king_stops_on_corners, 0, 2);
    tcase_add_loop_test(rules, king_away_from_throne_taken_by_two, 0, 2);
    tcase_add_loop_test(rules, king_on_throne, 0, 2);
    tcase_add_loop_test(rules, king_beside_throne, 0, 2);
    tcase_add_loop_test(rules, defenders_never_capture_the_king, 0, 2);
    tcase_add_loop_test(rules, no_legal_move_is_a_draw, 0, 2);
    tcase_add_loop_test(rules, threefold_repetition_is_a_draw, 0, 2);
    tcase_add_loop_test(rules, capture_resets_repetition, 0, 2);
    suite_add_tcase(s, rules);

    TCase *text = tcase_create("text");
    tcase_add_checked_fixture(text, nets_default, nets_default); /* some tests turn the nets off */
    tcase_add_loop_test(text, fen_round_trips, 0, 2);
    tcase_add_loop_test(text, bad_fens_are_rejected, 0, 2);
    tcase_add_loop_test(text, move_text_round_trips, 0, 2);
    tcase_add_loop_test(text, evaluation_sees_an_open_corner, 0, 2);
    tcase_add_loop_test(text, evaluation_values_the_corners, 0, 2);
    suite_add_tcase(s, text);
    return s;
}
