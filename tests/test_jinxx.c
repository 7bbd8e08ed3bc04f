/* test_jinxx.c: Jinxx for 2, 3 and 4 players: perft (the ruling's
 * definition), the fast module against the plain reference in ref_jinxx.c
 * over random games, and every settled point of docs/rules/jinxx.md as a
 * position with its expected moves or result (the point's number is in the
 * test's name). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/perft.h"
#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/jinxx/jinxx.h"
#include "helpers.h"
#include "ref_jinxx.h"

static const game_t *const jinxx_games[3] = {&jinxx_2p, &jinxx_3p, &jinxx_4p};

/* ---- helpers ---- */

static outcome_t outcome_after(const game_t *g, const char *fen, const char *moves)
{
    position_t pos;
    load_fen(g, &pos, fen_after(g, fen, moves));
    return g->outcome(&pos);
}

static uint64_t ref_perft(const ref_jinxx_t *b, int depth)
{
    ref_jmove_t moves[512];
    int n = ref_jinxx_moves(b, moves);
    bool roll = b->die < 0 && n > 0;
    if (depth == 0)
        return 1;
    if (depth == 1 && !roll)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        ref_jinxx_t next = *b;
        ref_jinxx_play(&next, &moves[i]);
        total += ref_perft(&next, roll ? depth : depth - 1);
    }
    return total;
}

/* ---- perft ---- */

/* The figures: perft 3 after S is 2025, after SM 4617. */
START_TEST(perft_two_players_after_a_roll)
{
    position_t pos;
    load_fen(&jinxx_2p, &pos, ".,.,./.,.,./.,.,. 333/333 p1 S 0");
    ck_assert_uint_eq(perft(&jinxx_2p, &pos, 3), 2025);
    load_fen(&jinxx_2p, &pos, ".,.,./.,.,./.,.,. 333/333 p1 SM 0");
    ck_assert_uint_eq(perft(&jinxx_2p, &pos, 3), 4617);
}
END_TEST

/* Every player count and face from the start, depths 1-3, against the
 * reference (deeper figures are in bench/speed/perft.txt). */
START_TEST(perft_matches_reference)
{
    static const char *const faces[7] = {"-", "S", "M", "L", "SM", "SL", "ML"};
    const game_t *g = jinxx_games[_i];
    for (int f = 0; f < 7; f++) {
        char fen[GAME_FEN_MAX];
        snprintf(fen, sizeof fen, ".,.,./.,.,./.,.,. %s p1 %s 0",
                 g->players == 2 ? "333/333" : g->players == 3 ? "333/333/333" : "333/333/333/333", faces[f]);
        position_t pos;
        ref_jinxx_t ref;
        load_fen(g, &pos, fen);
        ck_assert(ref_jinxx_from_fen(&ref, fen, g->players));
        for (int d = 1; d <= 3; d++)
            ck_assert_msg(perft(g, &pos, d) == ref_perft(&ref, d), "%s depth %d", fen, d);
    }
}
END_TEST

/* ---- random games against the reference ---- */

static char fast_result(const game_t *g, const position_t *pos)
{
    outcome_t o = g->outcome(pos);
    if (o.kind == OUTCOME_NONE) return 'n';
    if (o.kind == OUTCOME_DRAW) return '=';
    return (char)('1' + player_first(o.players));
}

static char ref_result(const ref_jinxx_t *b)
{
    return b->winner == -1 ? 'n' : b->winner == -2 ? '=' : (char)('1' + b->winner);
}

typedef struct seen {
    int rerolls, passes, others, vaporized, draws, wins, destroyed;
} seen_t;

static void playout(const game_t *g, const char *fen, rng_t *rng, seen_t *seen)
{
    position_t pos;
    ref_jinxx_t ref;
    load_fen(g, &pos, fen);
    ck_assert(ref_jinxx_from_fen(&ref, fen, g->players));
    static move_text_t a[MAX_MOVES], b[MAX_MOVES];
    for (int ply = 0; ply < 2000; ply++) {
        move_t moves[MAX_MOVES];
        ref_jmove_t rmoves[512];
        int n = g->gen_moves(&pos, moves), rn = ref_jinxx_moves(&ref, rmoves);
        ck_assert_msg(n == rn, "%s: %d moves, reference %d", fen_of(g, &pos), n, rn);
        ck_assert_int_eq(g->count_moves(&pos), n);
        for (int i = 0; i < n; i++) {
            g->move_text(&pos, moves[i], a[i], sizeof a[i]);
            strcpy(b[i], rmoves[i].text);
        }
        assert_same_texts(a, b, n);
        char result = fast_result(g, &pos);
        ck_assert_int_eq(result, ref_result(&ref));
        move_t rolls[8];
        int weights[8];
        ck_assert_int_eq(g->chance_outcomes(&pos, rolls, weights), ref.die < 0 && n ? 6 : 0);
        if (n == 0) {
            seen->draws += result == '=';
            seen->wins += result != '=';
            return;
        }
        int k = (int)rng_below(rng, (uint32_t)n);
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(&pos, moves[k], text, sizeof text);
        seen->rerolls += strcmp(text, "reroll") == 0;
        seen->passes += strcmp(text, "pass") == 0;
        seen->destroyed += (moves[k] & MOVE_CAPTURE) != 0;
        if (ref.die >= 0 && (text[1] != '@') && strcmp(text, "reroll") && strcmp(text, "pass")) {
            int from = (text[2] - '1') * 3 + (text[1] - 'a');
            int i = 0;
            while (i < ref.height[from] && ref.cell[from][i].size != (text[0] == 'S' ? 0 : text[0] == 'M' ? 1 : 2))
                i++;
            seen->others += i < ref.height[from] && ref.cell[from][i].owner != ref.stm;
        }
        player_mask_t in_before = g->players_in(&pos);
        play_checked(g, &pos, moves[k]);
        seen->vaporized += g->players_in(&pos) != in_before;
        for (int i = 0; i < rn; i++)
            if (strcmp(rmoves[i].text, text) == 0) {
                ref_jinxx_play(&ref, &rmoves[i]);
                break;
            }
        char rfen[GAME_FEN_MAX];
        ref_jinxx_to_fen(&ref, rfen);
        assert_matches_fen(g, &pos, rfen);
    }
    ck_abort_msg("a random game did not end in 2000 plies");
}

/* Where random games rarely go: a forced pass, and late draw counters. */
static const char *const rare_starts[3][2] = {
    {".,M2,L1/M2,.,S2/L1,S2,M1 000/300 p1 L 0", "S1,L2,M1/M2,L1,S2/L1,S2,M1 000/000 p1 - 40"},
    {".,.,./.,.,./.,.,. 333/333/333 p1 - 0", "S1,L2,M1/M2,L1,S2/L1,S2,M1 000/000/x p1 - 40"},
    {".,.,./.,.,./.,.,. 333/333/333/333 p1 - 0", "S1,L2,M1/M2,L1,S2/L1,S2,M1 000/000/x/x p1 - 40"},
};

/* All three variants in one test, so that the mechanics each game meets
 * are counted together: every one must have been compared. */
START_TEST(random_playouts_match_reference)
{
    seen_t seen = {0};
    for (int v = 0; v < 3; v++) {
        const game_t *g = jinxx_games[v];
        rng_t rng = {31337u + (uint64_t)v};
        char start[GAME_FEN_MAX];
        position_t pos;
        g->set_start(&pos);
        g->write_fen(&pos, start, sizeof start);
        for (int game = 0; game < 1000; game++)
            playout(g, game % 10 == 9 ? rare_starts[v][game / 10 % 2] : start, &rng, &seen);
    }
    /* The comparison met every mechanic of the ruling. */
    ck_assert_int_gt(seen.rerolls, 0);
    ck_assert_int_gt(seen.passes, 0);
    ck_assert_int_gt(seen.others, 0);
    ck_assert_int_gt(seen.vaporized, 0);
    ck_assert_int_gt(seen.destroyed, 0);
    ck_assert_int_gt(seen.draws, 0);
    ck_assert_int_gt(seen.wins, 0);
}
END_TEST

/* ---- settled points ---- */

/* 1. The must-move rule is per face: with SM, South's S (c3) can move and
 * its M (a1, under nothing, beside S tops) cannot: only the S moves, no
 * reroll and no move of North's S. */
START_TEST(point01_must_move_per_face)
{
    ck_assert_str_eq(legal_moves_of(&jinxx_2p, ".,.,S1/S2,.,./L1M1,S2,. 000/223 p1 SM 0"), "Sc3b3 Sc3c2");
}
END_TEST

/* 2. Reroll exactly when the face gives no own move and another face
 * would; it may be chosen over moving another player's pyramid. South's M
 * is stuck; North's M on b3 may be moved; S would give South a move. */
START_TEST(point02_reroll)
{
    const char *fen = ".,M2,S1/S2,.,./L1M1,S2,. 000/123 p1 M 0";
    ck_assert_str_eq(legal_moves_of(&jinxx_2p, fen), "Mb3a3 Mb3b2 reroll");
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "reroll"), ".,M2,S1/S2,.,./L1M1,S2,. 000/123 p1 - 0");
    /* South stuck for every face: no reroll, only North's S may move. */
    ck_assert_str_eq(legal_moves_of(&jinxx_2p, ".,M2,L1/M2,.,S2/L1,S2,M1 000/300 p1 S 0"),
                     "Sb1a1 Sb1b2 Sb1c1 Sc2b2 Sc2c1 Sc2c3");
}
END_TEST

/* 3. Another player's pyramid moves from the board only, with everything
 * above it (here South's own S); for the win the mover is the player to
 * move, and a line completed for another player wins for that player. */
START_TEST(point03_moving_another_players_pyramid)
{
    const char *fen = "S1,.,./S2,M2S1,./L1M1,S2,. 000/123 p1 M 0";
    ck_assert_str_eq(legal_moves_of(&jinxx_2p, fen), "Mb2b3 Mb2c2 reroll");
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "Mb2c2"), "S1,.,./S2,.,M2S1/L1M1,S2,. 000/123 p2 - 1");
    const char *line = ".,L2,S1/M2,.,./S1,L2,S1 000/300 p1 M 0";
    ck_assert_str_eq(legal_moves_of(&jinxx_2p, line), "Ma2a3 Ma2b2 reroll");
    outcome_t o = outcome_after(&jinxx_2p, line, "Ma2b2");
    ck_assert(o.kind == OUTCOME_WIN && o.players == player_bit(1));
}
END_TEST

/* 4. Pass only when nothing else is legal: South stuck for every face and
 * no other L on the board. */
START_TEST(point04_pass_only_when_nothing_else)
{
    const char *fen = ".,M2,L1/M2,.,S2/L1,S2,M1 000/300 p1 L 0";
    ck_assert_str_eq(legal_moves_of(&jinxx_2p, fen), "pass");
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "pass"), ".,M2,L1/M2,.,S2/L1,S2,M1 000/300 p2 - 1");
}
END_TEST

/* 5. Trees carry: M takes the S with it, L the whole tree. */
START_TEST(point05_trees_carry)
{
    const char *start = ".,.,./.,.,./.,.,. 333/333 p1 %s 0";
    char fen[80];
    snprintf(fen, sizeof fen, start, "M");
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "M@a1"), ".,.,./.,.,./M1S1,.,. 133/333 p2 - 0");
    snprintf(fen, sizeof fen, start, "L");
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "L@c1"), ".,.,./.,.,./.,.,L1M1S1 330/333 p2 - 0");
    snprintf(fen, sizeof fen, start, "S");
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "S@b1"), ".,.,./.,.,./.,S1,. 323/333 p2 - 0");
    /* A tree of L and M has no S to give. */
    ck_assert_str_eq(legal_moves_of(&jinxx_2p, "L2,.,./.,.,./.,S1,S1 320/033 p1 S 0"), "S@a1 Sb1a1 Sb1b2 Sb1c1 Sc1b1 Sc1c2");
}
END_TEST

/* 6. Order after a move: a vaporization that uncovers a line wins at
 * once; a quiet move completing a line on the sixtieth turn wins, any
 * other sixtieth quiet turn draws; a player who vaporizes itself in the
 * two-player game loses. */
START_TEST(point06_order_after_a_move)
{
    const char *vapor = "M2,M1,S2/L1,L1S2,L1/.,.,. 000/000 p1 M 0";
    ck_assert_str_eq(fen_after(&jinxx_2p, vapor, "Mb3a3"), "M1,.,./L1,L1,L1/.,.,. 000/x p1 M 0");
    outcome_t o = outcome_after(&jinxx_2p, vapor, "Mb3a3");
    ck_assert(o.kind == OUTCOME_WIN && o.players == player_bit(0));
    ck_assert_str_eq(o.reason, "line held");

    const char *sixty = "L2,M2,S1/L1,L1,./S2,.,. 000/000 p1 S 59";
    o = outcome_after(&jinxx_2p, sixty, "Sc3c2");
    ck_assert(o.kind == OUTCOME_WIN && o.players == player_bit(0));
    o = outcome_after(&jinxx_2p, sixty, "Sc3b3");
    ck_assert(o.kind == OUTCOME_DRAW && o.players == 3);

    o = outcome_after(&jinxx_2p, "S2,M2,L1/S1,.,./S1,.,L2 000/000 p1 S 0", "Sa1a2");
    ck_assert(o.kind == OUTCOME_WIN && o.players == player_bit(1));
}
END_TEST

/* 7. Vaporization removes both remaining pyramids, what stood on them
 * settles, and the player's turns are skipped: West loses its M, then its
 * L (under North's S) and S go, and North moves after South. */
START_TEST(point07_vaporization)
{
    const char *fen = "S2,S1,L2S3/L1,.,M3/L3,M2,M1 000/000/000 p1 M 0";
    ck_assert_str_eq(fen_after(&jinxx_3p, fen, "Mc1b1"), ".,S1,S3/L1,.,M3/L3,M1,. 000/x/000 p3 - 0");
    position_t pos;
    load_fen(&jinxx_3p, &pos, fen_after(&jinxx_3p, fen, "Mc1b1"));
    ck_assert_int_eq(jinxx_3p.players_in(&pos), 0x5);
    ck_assert_int_eq(jinxx_3p.to_move(&pos), 2);
}
END_TEST

/* 8. One counter for all: a board move or pass counts, an entry or a
 * destruction resets it, a reroll does neither. */
START_TEST(point08_draw_counter)
{
    const char *fen = ".,M2,S1/S2,.,./L1M1,S2,. 000/123 p1 M 7";
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "reroll"), ".,M2,S1/S2,.,./L1M1,S2,. 000/123 p1 - 7");
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "Mb3b2"), ".,.,S1/S2,M2,./L1M1,S2,. 000/123 p2 - 8");
    /* North enters from a tree: reset; then South destroys: reset. */
    ck_assert_str_eq(fen_after(&jinxx_2p, fen, "Mb3b2 L L@a3"), "L2,.,S1/S2,M2,./L1M1,S2,. 000/023 p1 - 0");
    ck_assert_str_eq(fen_after(&jinxx_2p, ".,M2,S1/S2,.,./L1M1,S2,. 000/123 p1 S 7", "Sc3b3"),
                     ".,M2S1,./S2,.,./L1M1,S2,. 000/123 p2 - 8");
    ck_assert_str_eq(fen_after(&jinxx_2p, ".,M2,S1/S2,.,./L1M1,S2,. 000/123 p1 S 7", "Sc3c2 S Sb1b2 S Sc2b2"),
                     ".,M2,./S2,S1,./L1M1,.,. 000/123 p2 - 0");
}
END_TEST

/* 9. Perft counts a reroll or a pass as a ply and a roll as none. */
START_TEST(point09_perft_plies)
{
    position_t pos;
    load_fen(&jinxx_2p, &pos, ".,M2,S1/S2,.,./L1M1,S2,. 000/123 p1 M 0");
    ck_assert_uint_eq(perft(&jinxx_2p, &pos, 1), 3); /* Mb3a3 Mb3b2 reroll */
    load_fen(&jinxx_2p, &pos, ".,M2,L1/M2,.,S2/L1,S2,M1 000/300 p1 L 0");
    ck_assert_uint_eq(perft(&jinxx_2p, &pos, 1), 1); /* pass */
    /* At a roll: the sum over the faces, each counted as a branch. */
    load_fen(&jinxx_2p, &pos, ".,.,./.,.,./.,.,. 333/333 p1 - 0");
    uint64_t sum = 0;
    static const char *const faces[6] = {"S", "M", "L", "SM", "SL", "ML"};
    for (int f = 0; f < 6; f++) {
        position_t rolled;
        char fen[80];
        snprintf(fen, sizeof fen, ".,.,./.,.,./.,.,. 333/333 p1 %s 0", faces[f]);
        load_fen(&jinxx_2p, &rolled, fen);
        sum += perft(&jinxx_2p, &rolled, 2);
    }
    ck_assert_uint_eq(perft(&jinxx_2p, &pos, 2), sum);
    ck_assert_uint_eq(perft(&jinxx_2p, &pos, 0), 1);
}
END_TEST

START_TEST(position_strings_round_trip_and_refuse_nonsense)
{
    static const char *const good[] = {
        ".,.,./.,.,./.,.,. 333/333 p1 - 0",
        "M2,M1,S2/L1,L1S2,L1/.,.,. 000/000 p1 M 0",
        "S2,S1,L2S3/L1,.,M3/L3,M2,M1 000/000/000 p1 M 0",
    };
    for (int i = 0; i < 3; i++) {
        const game_t *g = i == 2 ? &jinxx_3p : &jinxx_2p;
        position_t pos;
        load_fen(g, &pos, good[i]);
        ck_assert_str_eq(fen_of(g, &pos), good[i]);
    }
    static const char *const bad[] = {
        ".,.,./.,.,./.,.,. 333/333 p3 - 0",    /* no p3 in two-player Jinxx */
        ".,.,./.,.,./.,.,. 333/333 p1 X 0",    /* no such face */
        ".,.,./.,.,./.,.,. 333/333 p1 - 61",   /* counter past 60 */
        "M1L1,.,./.,.,./.,.,. 033/333 p1 - 0", /* a stack grows upwards */
        "S1,.,./.,.,./.,.,. 333/333 p1 - 0",   /* four S for South */
        "S1,S1,./.,.,./.,.,. 000/333 p1 - 0",  /* two pyramids left: out */
        ".,.,./.,.,./.,.,. 333/333 p1 - 0 x",
        ".,.,./.,.,./.,.,. 333/333/333 p1 - 0",
    };
    position_t pos;
    char err[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!jinxx_2p.parse_fen(&pos, bad[i], err, sizeof err), "%s accepted", bad[i]);
    /* The player to move may be out only when the game is over. */
    ck_assert(!jinxx_3p.parse_fen(&pos, ".,.,./.,.,./.,.,. 333/x/333 p2 - 0", err, sizeof err));
    ck_assert(jinxx_2p.parse_fen(&pos, ".,.,./.,.,./.,.,. 333/x p2 - 0", err, sizeof err));
}
END_TEST

Suite *suite_jinxx(void)
{
    Suite *s = suite_create("jinxx");
    TCase *rules = tcase_create("settled_points");
    tcase_add_test(rules, point01_must_move_per_face);
    tcase_add_test(rules, point02_reroll);
    tcase_add_test(rules, point03_moving_another_players_pyramid);
    tcase_add_test(rules, point04_pass_only_when_nothing_else);
    tcase_add_test(rules, point05_trees_carry);
    tcase_add_test(rules, point06_order_after_a_move);
    tcase_add_test(rules, point07_vaporization);
    tcase_add_test(rules, point08_draw_counter);
    tcase_add_test(rules, point09_perft_plies);
    tcase_add_test(rules, position_strings_round_trip_and_refuse_nonsense);
    suite_add_tcase(s, rules);
    TCase *pf = tcase_create("perft");
    tcase_set_timeout(pf, 120);
    tcase_add_test(pf, perft_two_players_after_a_roll);
    tcase_add_loop_test(pf, perft_matches_reference, 0, 3);
    suite_add_tcase(s, pf);
    TCase *ref = tcase_create("reference");
    tcase_set_timeout(ref, 600);
    tcase_add_test(ref, random_playouts_match_reference);
    suite_add_tcase(s, ref);
    return s;
}
