/* test_brax_team.c: the Brax team games (brax-3p, brax-4p): perft, the
 * bitboard module against the plain reference in ref_brax_team.c over
 * random games, and every settled point of docs/rules/brax.md ("Settled
 * points of the team games") as a position with its expected moves or
 * result; the number of the point is in the test's name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/perft.h"
#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/brax/brax.h"
#include "../engine/games/brax/brax_rules.h"
#include "helpers.h"
#include "ref_brax_team.h"

static const game_t *const team_games[2] = {&brax_3p, &brax_4p};

/* ---- helpers ---- */

static uint64_t ref_perft(const ref_team_t *b, int depth)
{
    ref_team_move_t moves[512];
    int n = ref_team_moves(b, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        ref_team_t next = *b;
        ref_team_play(&next, &moves[i]);
        total += ref_perft(&next, depth - 1);
    }
    return total;
}

static outcome_t outcome_of(const game_t *g, const char *fen)
{
    position_t pos;
    load_fen(g, &pos, fen);
    return g->outcome(&pos);
}

/* A position string from men given as letter + point ("re2 bf3 Ra9") and
 * the fields after the board ("r - - - 0"). */
static const char *tfen(const char *men, const char *fields)
{
    static char out[GAME_FEN_MAX];
    char grid[9][9];
    memset(grid, 0, sizeof grid);
    for (const char *c = men; *c; c += c[3] ? 4 : 3)
        grid[c[2] - '1'][c[1] - 'a'] = c[0];
    size_t n = 0;
    for (int r = 8; r >= 0; r--) {
        fen_append_row(out, &n, grid[r], 9);
        if (r)
            out[n++] = '/';
    }
    snprintf(out + n, sizeof out - n, " %s", fields);
    return out;
}

static bool legal_in(const game_t *g, const char *fen, const char *move)
{
    position_t pos;
    load_fen(g, &pos, fen);
    return is_legal(g, &pos, move);
}

static const player_mask_t RED_TEAM = 0x5, BLUE_4P = 0xA, BLUE_TEAM_3P = 0x2;

/* ---- perft ---- */

START_TEST(perft_from_the_start)
{
    static const uint64_t want[2][3] = {{8, 104, 1176}, {9, 63, 378}};
    const game_t *g = team_games[_i];
    position_t pos;
    g->set_start(&pos);
    for (int d = 1; d <= 3; d++)
        ck_assert_uint_eq(perft(g, &pos, d), want[_i][d - 1]);
}
END_TEST

/* Mid-game positions: a call pending, a player out, Blue half-way through
 * its turn; perft of the fast generator equals the reference's. */
static const struct {
    int variant; /* index in team_games */
    const char *fen;
} mid_positions[] = {
    {1, "9/3R5/4B4/2br5/3B5/9/2b6/4R4/3r5 b r r - 0"},     /* West bound by South's call */
    {1, "9/3R5/4B4/4r4/3B5/9/9/4R4/3r5 R - - - 3"},        /* West out: North after South */
    {0, "9/2b1b4/3b5/4r4/9/9/2R6/9/1r3R3 b1 - - d7 2"},    /* Blue's second ply */
    {0, "9/2b6/3b1b3/3R5/9/9/9/9/5R3 b2 r R - 0"},         /* R1 out, Blue bound by R2 */
    {0, "9/9/3b5/9/4r4/9/2R6/9/9 b1 - - - 4"},             /* Blue with one man */
    {1, "4R4/9/9/9/8B/9/9/B8/bB1rr4 b - - - 0"},           /* West boxed in: pass */
    {0, "2bbbbb2/9/9/9/9/9/9/R8/rR7 r - - - 0"},            /* R1 boxed in: pass */
};
#define MID_POSITIONS ((int)(sizeof mid_positions / sizeof mid_positions[0]))

START_TEST(perft_mid_game_matches_reference)
{
    for (int i = 0; i < MID_POSITIONS; i++) {
        const game_t *g = team_games[mid_positions[i].variant];
        position_t pos;
        ref_team_t ref;
        load_fen(g, &pos, mid_positions[i].fen);
        ck_assert(ref_team_from_fen(&ref, mid_positions[i].fen, g->players));
        for (int d = 1; d <= 4; d++)
            ck_assert_msg(perft(g, &pos, d) == ref_perft(&ref, d), "%s depth %d", mid_positions[i].fen, d);
    }
}
END_TEST

/* ---- random games against the reference ---- */

typedef struct seen {
    int passes, pass_calls, skipped, blue_single, blue_second, calls, doubles, results[4];
} seen_t;

/* The evaluation's team figures against its one pass per player: each
 * team's men counted at once (brax_team_mobility) and one player's threats
 * alone (brax_men_hits, on any targets). The evaluation itself checks the
 * one pass per player against a man-by-man count in these builds (with
 * assertions), and its team path against both. */
static void check_team_mobility(const game_t *g, const position_t *pos)
{
    const brax_t *b = CP(pos);
    int sum[2] = {0, 0};
    for (int pl = 0; pl < b->players; pl++) {
        bb128_t hits;
        sum[team_of(pl)] += brax_men_mobility(b, pl, &hits);
        uint64_t key = g->hash(pos) ^ (uint64_t)pl; /* some targets, not the playout's random draws */
        bb128_t targets = {key, key * 0x9E3779B97F4A7C15ull};
        bb128_t fast = brax_men_hits(b, pl, targets), slow = bb128_and(hits, targets);
        ck_assert_msg(bb128_eq(fast, slow), "%s: player %d's threats differ", fen_of(g, pos), pl);
        ck_assert_msg(bb128_eq(brax_men_hits(b, pl, b->team[team_of(pl) ^ 1]), hits), "%s: player %d's threats",
                      fen_of(g, pos), pl);
    }
    for (int tm = 0; tm < 2; tm++) {
        int fast = brax_team_mobility(b, tm);
        ck_assert_msg(fast == sum[tm], "%s: team %d's mobility %d, by player %d", fen_of(g, pos), tm, fast, sum[tm]);
    }
    if (g->outcome(pos).kind == OUTCOME_NONE)
        (void)g->evaluate(pos, NULL);
}

static void note_position(const game_t *g, const position_t *pos, const ref_team_t *ref, seen_t *seen)
{
    player_mask_t in = g->players_in(pos);
    if (in != (player_mask_t)((1u << g->players) - 1) && g->outcome(pos).kind == OUTCOME_NONE)
        seen->skipped++;
    if (g == &brax_3p && g->to_move(pos) == 1 && ref->first_r < 0) {
        int blue = 0;
        for (int r = 0; r < 9; r++)
            for (int c = 0; c < 9; c++)
                blue += ref->owner[r][c] == 1;
        seen->blue_single += blue == 1;
    }
    seen->blue_second += ref->first_r >= 0;
}

static char fast_result(const game_t *g, const position_t *pos)
{
    outcome_t o = g->outcome(pos);
    if (o.kind == OUTCOME_NONE) return 'n';
    if (o.kind == OUTCOME_DRAW) return '=';
    return (o.players & 1) ? 'r' : 'b';
}

static void playout(const game_t *g, const char *fen, rng_t *rng, seen_t *seen)
{
    position_t pos;
    ref_team_t ref;
    load_fen(g, &pos, fen);
    ck_assert(ref_team_from_fen(&ref, fen, g->players));
    static move_text_t a[MAX_MOVES], b[MAX_MOVES];
    for (int ply = 0; ply < 300; ply++) {
        move_t moves[MAX_MOVES];
        ref_team_move_t rmoves[512];
        int n = g->gen_moves(&pos, moves), rn = ref_team_moves(&ref, rmoves);
        ck_assert_msg(n == rn, "%s: %d moves, reference %d", fen_of(g, &pos), n, rn);
        ck_assert_int_eq(g->count_moves(&pos), n);
        ck_assert_int_eq(g->to_move(&pos), ref_team_to_move(&ref));
        for (int i = 0; i < n; i++) {
            g->move_text(&pos, moves[i], a[i], sizeof a[i]);
            strcpy(b[i], rmoves[i].text);
        }
        assert_same_texts(a, b, n);
        char result = fast_result(g, &pos);
        ck_assert_int_eq(result, ref_team_result(&ref));
        note_position(g, &pos, &ref, seen);
        check_team_mobility(g, &pos);
        if (n == 0) {
            seen->results[result == 'r' ? 0 : result == 'b' ? 1 : 2]++;
            return;
        }
        /* Captures more often than chance, so that games end and players
         * drop out; calls too, to see bound replies. */
        int k = (int)rng_below(rng, (uint32_t)n);
        for (int tries = 0; tries < 4 && !(moves[k] & MOVE_CAPTURE); tries++)
            k = (int)rng_below(rng, (uint32_t)n);
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(&pos, moves[k], text, sizeof text);
        seen->passes += strncmp(text, "pass", 4) == 0;
        seen->pass_calls += strcmp(text, "pass+") == 0;
        seen->calls += strchr(text, '+') != NULL;
        seen->doubles += strlen(text) >= 6 && text[4] != '+' && text[0] != 'p';
        play_checked(g, &pos, moves[k]);
        for (int i = 0; i < rn; i++)
            if (strcmp(rmoves[i].text, text) == 0) {
                ref_team_play(&ref, &rmoves[i]);
                break;
            }
        char rfen[GAME_FEN_MAX];
        ref_team_to_fen(&ref, rfen);
        assert_matches_fen(g, &pos, rfen);
    }
    seen->results[3]++;
}

START_TEST(random_playouts_match_reference)
{
    const game_t *g = team_games[_i];
    rng_t rng = {9090u + (uint64_t)_i};
    seen_t seen = {0};
    position_t start;
    g->set_start(&start);
    char start_fen[GAME_FEN_MAX];
    g->write_fen(&start, start_fen, sizeof start_fen);
    /* Most games from the start; one in ten from a mid-game position of
     * this variant, so that the rarer mechanics are met for certain. */
    for (int game = 0; game < 2000; game++) {
        const char *fen = start_fen;
        if (game % 10 == 9) {
            int i = (int)rng_below(&rng, MID_POSITIONS);
            if (team_games[mid_positions[i].variant] == g)
                fen = mid_positions[i].fen;
        }
        playout(g, fen, &rng, &seen);
    }
    /* The comparison must have met every mechanic of the team games. */
    ck_assert_int_gt(seen.calls, 0);
    ck_assert_int_gt(seen.doubles, 0);
    ck_assert_int_gt(seen.skipped, 0);
    ck_assert_int_gt(seen.passes, 0);
    ck_assert_int_gt(seen.results[0], 0);
    ck_assert_int_gt(seen.results[1], 0);
    if (g == &brax_3p) {
        ck_assert_int_gt(seen.blue_single, 0);
        ck_assert_int_gt(seen.blue_second, 0);
    }
}
END_TEST


/* ---- settled points ---- */

/* 1. A player's own threats only: North threatens West's e4, South does not,
 * so South's quiet moves carry no call; a South move next to e4 does. */
START_TEST(point01_threats_are_a_players_own)
{
    const char *fen = tfen("re2 be4 Re5 Bi9", "r - - - 0");
    ck_assert(legal_in(&brax_4p, fen, "e2e1"));
    ck_assert(!legal_in(&brax_4p, fen, "e2e1+"));
    ck_assert(legal_in(&brax_4p, fen, "e2e3+"));
}
END_TEST

/* 2. The call binds the next player (West): a threat to East only allows
 * none; with West out the next player is North, a partner: none either. */
START_TEST(point02_call_needs_a_threatened_man_of_the_bound_player)
{
    ck_assert(!legal_in(&brax_4p, tfen("re2 ba9 Bf3 Ri9", "r - - - 0"), "e2e3+"));
    ck_assert(legal_in(&brax_4p, tfen("re2 bf3 Ba9 Ri9", "r - - - 0"), "e2e3+"));
    ck_assert(legal_in(&brax_4p, tfen("re2 Bf3 Ri9", "r - - - 0"), "e2e3"));
    ck_assert(!legal_in(&brax_4p, tfen("re2 Bf3 Ri9", "r - - - 0"), "e2e3+"));
}
END_TEST

/* 3. "Not on the very next turn" is per team: South called, so North may
 * not; a turn of North's team without a call (or a pass) clears it. */
START_TEST(point03_no_call_on_the_teams_next_turn)
{
    ck_assert(!legal_in(&brax_4p, tfen("ra1 Re5 Be7 bi1", "R r - - 0"), "e5e6+"));
    ck_assert(legal_in(&brax_4p, tfen("ra1 Re5 Be7 bi1", "R - - - 0"), "e5e6+"));
    /* North moves without a call: the red team may call again next turn. */
    ck_assert_str_eq(fen_after(&brax_4p, tfen("ra1 Re5 Be7 bi1", "R r - - 0"), "e5e4"),
                     tfen("ra1 Re4 Be7 bi1", "B - - - 1"));
}
END_TEST

/* 4. Material limits count whole teams: red 2 (South and North one each)
 * against blue 1 allows no call; red 3 against blue 1 does. */
START_TEST(point04_material_limits_count_teams)
{
    ck_assert(!legal_in(&brax_4p, tfen("re2 bf3 Ra9", "r - - - 0"), "e2e3+"));
    ck_assert(legal_in(&brax_4p, tfen("re2 bf3 Ra9 Rb9", "r - - - 0"), "e2e3+"));
}
END_TEST

/* 5. Skipping: with West out North follows South; in brax-3p with R1 out
 * Blue plays two whole turns in a row. */
START_TEST(point05_players_without_men_are_skipped)
{
    ck_assert_str_eq(fen_after(&brax_4p, tfen("re2 Ra9 Bi9", "r - - - 0"), "e2e3"), tfen("re3 Ra9 Bi9", "R - - - 1"));
    /* R1 out: Blue (turn b2) moves twice, then R1's turn is skipped. */
    ck_assert_str_eq(fen_after(&brax_3p, tfen("bc9 be9 Rh1", "b2 - - - 0"), "c9c8 e9e8"),
                     tfen("bc8 be8 Rh1", "b1 - - - 2"));
    ck_assert_str_eq(fen_after(&brax_3p, tfen("bc9 be9 Rh1", "b2 - - - 0"), "c9c8 e9e8 c8c7 e8e7"),
                     tfen("bc7 be7 Rh1", "R - - - 4"));
}
END_TEST

/* 6. A player with men but no move passes: West on a1 is boxed in by East's
 * men, and South's call binding West lapses. The pass is a ply of the draw
 * count and a turn (the blue team's call flag is cleared). A whole team
 * without a move cannot arise: a team's man with the highest row, then
 * the highest column, has a neighbour that is empty or an enemy unless it
 * stands on i9, and i9's neighbours h9 and i8 cannot all be surrounded by
 * the at most six men of a team; the generator's rule is still the ruling's. */
START_TEST(point06_pass_and_lapse)
{
    const char *fen = tfen("ba1 Ba2 Bb1 ra3 Ri9", "b r r - 0");
    ck_assert_str_eq(legal_moves_of(&brax_4p, fen), "pass");
    ck_assert_str_eq(fen_after(&brax_4p, fen, "pass"), tfen("ba1 Ba2 Bb1 ra3 Ri9", "R r - - 1"));
    ck_assert(!legal_in(&brax_4p, fen, "pass+"));
    /* brax-3p: R1 boxed in by R2 passes; Blue then moves. */
    const char *three = tfen("ra1 Ra2 Rb1 bc9 bd9", "r - - - 0");
    ck_assert_str_eq(legal_moves_of(&brax_3p, three), "pass");
    ck_assert_str_eq(fen_after(&brax_3p, three, "pass"), tfen("ra1 Ra2 Rb1 bc9 bd9", "b1 - - - 1"));
}
END_TEST

/* 7. Blue's turn is two plies of two different men; the first man is known
 * by where it stands, even after capturing. With one man Blue plays one. */
START_TEST(point07_blue_moves_two_different_men)
{
    const char *fen = tfen("be5 bi9 re4 rb1 Rh1", "b1 - - - 0");
    const char *mid = fen_after(&brax_3p, fen, "e5e4");
    ck_assert_str_eq(mid, tfen("be4 bi9 rb1 Rh1", "b1 - - e4 0"));
    ck_assert(!legal_in(&brax_3p, mid, "e4e5"));
    ck_assert(legal_in(&brax_3p, mid, "i9i8"));
    ck_assert_str_eq(fen_after(&brax_3p, mid, "i9i8"), tfen("be4 bi8 rb1 Rh1", "R - - - 1"));
    /* One man: one ply, and the turn passes on. */
    ck_assert_str_eq(fen_after(&brax_3p, tfen("be5 rb1 Rh1", "b1 - - - 0"), "e5e6"), tfen("be6 rb1 Rh1", "R - - - 1"));
}
END_TEST

/* 8. Blue calls at the end of its turn only: never on the first of two
 * plies, on the second (or only) one when it threatens the next player. */
START_TEST(point08_blue_calls_on_its_last_ply)
{
    const char *fen = tfen("be5 bi9 rf4 ra1 Rh1", "b2 - - - 0"); /* R1 (f4, a1) is next */
    ck_assert(legal_in(&brax_3p, fen, "e5e4"));
    ck_assert(!legal_in(&brax_3p, fen, "e5e4+"));
    const char *second = fen_after(&brax_3p, fen, "i9i8");
    ck_assert(legal_in(&brax_3p, second, "e5e4+"));
    ck_assert(legal_in(&brax_3p, tfen("be5 rf4 ra1 Rh1", "b2 - - - 0"), "e5e4+"));
}
END_TEST

/* 9. A red call binds Blue's first ply only: the threatened man e5 must
 * move first; the second ply is free. */
START_TEST(point09_red_call_binds_the_first_ply)
{
    const char *fen = tfen("rd4 ra1 Rh1 be5 bi9", "r - - - 0");
    const char *bound = fen_after(&brax_3p, fen, "d4e4+");
    ck_assert_str_eq(bound, tfen("re4 ra1 Rh1 be5 bi9", "b1 r r - 1"));
    ck_assert(!legal_in(&brax_3p, bound, "i9i8"));
    ck_assert(legal_in(&brax_3p, bound, "e5f5"));
    const char *second = fen_after(&brax_3p, bound, "e5f5");
    ck_assert_str_eq(second, tfen("re4 ra1 Rh1 bf5 bi9", "b1 r - f5 2"));
    ck_assert(legal_in(&brax_3p, second, "i9i8"));
}
END_TEST

/* 10. Blue's second ply is a pass when no other man can move. It cannot
 * arise: a Blue man other than the first is stuck only when every
 * neighbour holds a Blue man (a red one could be captured), and from a
 * corner that needs more than Blue's five men (a1 needs a2 and b1, b1 needs
 * c1 and b2, c1 needs d1 and c2). The position string refuses six. */
START_TEST(point10_blue_second_ply_pass_cannot_arise)
{
    position_t pos;
    char err[160];
    ck_assert(!brax_3p.parse_fen(&pos, tfen("ba1 ba2 bb1 bb2 bc1 bc2 rh1 Ri1", "b1 - - a2 0"), err, sizeof err));
    /* With five men a second ply always exists. */
    ck_assert(strcmp(legal_moves_of(&brax_3p, tfen("ba1 ba2 bb1 bb2 bc1 rh1 Ri1", "b1 - - a2 0")), "pass") != 0);
}
END_TEST

/* 11. The game is judged after every ply: Blue's first ply taking the last
 * red man wins at once; taking R1's last man only does not end the turn. */
START_TEST(point11_judged_after_every_ply)
{
    const char *won = fen_after(&brax_3p, tfen("be5 bi9 re4", "b2 - - - 0"), "e5e4");
    position_t pos;
    load_fen(&brax_3p, &pos, won);
    outcome_t o = brax_3p.outcome(&pos);
    ck_assert_int_eq(o.kind, OUTCOME_WIN);
    ck_assert_int_eq(o.players, BLUE_TEAM_3P);
    ck_assert_str_eq(fen_after(&brax_3p, tfen("be5 bi9 re4 Rh1", "b1 - - - 0"), "e5e4"),
                     tfen("be4 bi9 Rh1", "b1 - - e4 0"));
    /* brax-4p: a win belongs to both partners. */
    o = outcome_of(&brax_4p, fen_after(&brax_4p, tfen("re2 be3 Ra9", "r - - - 0"), "e2e3"));
    ck_assert(o.kind == OUTCOME_WIN && o.players == RED_TEAM);
    o = outcome_of(&brax_4p, fen_after(&brax_4p, tfen("re2 be3 Bi9", "b - - - 0"), "e3e2"));
    ck_assert(o.kind == OUTCOME_WIN && o.players == BLUE_4P);
}
END_TEST

/* 12. A double capture takes men of two different opponents (e6f6f5 runs
 * on red segments); a partner's man is never captured and blocks. */
START_TEST(point12_double_captures_and_partners)
{
    ck_assert(legal_in(&brax_4p, tfen("re6 bf6 Bf5 Ra9", "r - - - 0"), "e6f6f5"));
    const char *fen = tfen("re6 Rf6 Bf5 ba9", "r - - - 0");
    ck_assert(!legal_in(&brax_4p, fen, "e6f6"));
    ck_assert(!legal_in(&brax_4p, fen, "e6f6f5"));
    ck_assert(!legal_in(&brax_4p, fen, "e6f5"));
}
END_TEST

/* 13. One man in each team: drawn after ten plies without a capture,
 * whoever makes them. Repetition compares owners, the player to move, Blue's
 * half-turn and the call state: each makes a different key; the table's
 * key also tells where Blue's turn sits in the cycle. */
START_TEST(point13_team_draws_and_repetition_keys)
{
    outcome_t o = outcome_of(&brax_4p, fen_after(&brax_4p, tfen("re2 bi9", "r - - - 9"), "e2e3"));
    ck_assert_int_eq(o.kind, OUTCOME_DRAW);
    ck_assert_int_eq(outcome_of(&brax_4p, fen_after(&brax_4p, tfen("re2 bi9 Ra9", "r - - - 9"), "e2e3")).kind, OUTCOME_NONE);
    static const char *const differ[][2] = {
        {"re2 Ra9 bi9 Bi1", "Re2 ra9 bi9 Bi1"}, /* owners */
    };
    position_t a, b;
    load_fen(&brax_4p, &a, tfen(differ[0][0], "b - - - 0"));
    load_fen(&brax_4p, &b, tfen(differ[0][1], "b - - - 0"));
    ck_assert_uint_ne(brax_4p.hash(&a), brax_4p.hash(&b));
    load_fen(&brax_3p, &a, tfen("be5 bi9 rb1 Rh1", "b1 - - - 0"));
    load_fen(&brax_3p, &b, tfen("be5 bi9 rb1 Rh1", "b1 - - e5 0"));
    ck_assert_uint_ne(brax_3p.hash(&a), brax_3p.hash(&b));
    load_fen(&brax_3p, &b, tfen("be5 bi9 rb1 Rh1", "b1 r r - 0"));
    ck_assert_uint_ne(brax_3p.hash(&a), brax_3p.hash(&b));
    /* Blue after R1 and after R2 repeat each other (the player to move is
     * Blue in both), but R2 moves after the one and R1 after the other:
     * the transposition table must not take one for the other. */
    load_fen(&brax_3p, &b, tfen("be5 bi9 rb1 Rh1", "b2 - - - 0"));
    ck_assert_uint_eq(brax_3p.hash(&a), brax_3p.hash(&b));
    ck_assert_uint_ne(brax_3p.tt_key(&a), brax_3p.tt_key(&b));
    ck_assert_uint_eq(brax_3p.tt_key(&a), brax_3p.hash(&a));
    /* A repetition through the record: four back-and-forth turns. */
    static record_t r;
    char err[200];
    char text[400];
    snprintf(text, sizeof text, "fen %s moves e2e3 i9i8 a9a8 i1i2 e3e2 i8i9 a8a9 i2i1 e2e3 i9i8 a9a8 i1i2 e3e2 "
                                "i8i9 a8a9 i2i1",
             tfen("re2 Ra9 bi9 Bi1", "r - - - 0"));
    ck_assert_msg(record_setup(&r, &brax_4p, text, err, sizeof err), "%s", err);
    ck_assert_int_eq(record_outcome(&r).kind, OUTCOME_DRAW);
}
END_TEST

/* 14. The call binds the men the caller threatens right after the call:
 * West's c6 (next to South's d6), not c3, which only North threatens. */
START_TEST(point14_the_call_binds_the_callers_threats)
{
    const char *fen = fen_after(&brax_4p, tfen("rd5 bc6 bc3 Rc2 Bi9", "r - - - 0"), "d5d6+");
    ck_assert_str_eq(fen, tfen("rd6 bc6 bc3 Rc2 Bi9", "b r r - 1"));
    ck_assert(!legal_in(&brax_4p, fen, "c3d3"));
    ck_assert(legal_in(&brax_4p, fen, "c6c7"));
}
END_TEST

static void round_trip(const game_t *g, const char *fen)
{
    position_t pos;
    load_fen(g, &pos, fen);
    ck_assert_str_eq(fen_of(g, &pos), fen);
}

START_TEST(position_strings_round_trip_and_refuse_nonsense)
{
    round_trip(&brax_4p, "3RRR3/9/9/b7B/b7B/b7B/9/9/3rrr3 r - - - 0");
    round_trip(&brax_3p, "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 r - - - 0");
    for (int i = 0; i < MID_POSITIONS; i++)
        round_trip(team_games[mid_positions[i].variant], mid_positions[i].fen);
    static const char *const bad3[] = {
        "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 b - - - 0",    /* Blue needs b1 or b2 */
        "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 B - - - 0",    /* no East in brax-3p */
        "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 b1 - r - 0",   /* a caller whose team did not call */
        "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 r b b - 0",    /* a call binding R1 from Blue: fine below */
        "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 r - - c9 0",   /* a first man on R1's turn */
        "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 b1 r r c9 0",  /* a first man while bound */
        "2bbbbb2/9/9/9/9/9/9/9/1rrrrRRR1 r - - - 0",    /* four men for R1 */
        "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 r - - - 256",
    };
    position_t pos;
    char err[160];
    for (size_t i = 0; i < sizeof bad3 / sizeof bad3[0]; i++)
        ck_assert_msg(brax_3p.parse_fen(&pos, bad3[i], err, sizeof err) == (i == 3), "%s", bad3[i]);
    ck_assert(!brax_4p.parse_fen(&pos, "3RRR3/9/9/b7B/b7B/b7B/9/9/3rrr3 b1 - - - 0", err, sizeof err));
    ck_assert(!brax_4p.parse_fen(&pos, "3RRR3/9/9/9/b7B/b7B/9/9/3rrr3 r - - - 0 junk", err, sizeof err));
    ck_assert(!brax_4p.parse_fen(&pos, "3RRR3/9/9/9/9/b7B/9/9/9 r - - - 0", err, sizeof err)); /* South has no men */
}
END_TEST

/* Perft 4-5 from the start against the reference (depths 1-3 above). */
START_TEST(perft_deeper_matches_reference)
{
    const game_t *g = team_games[_i];
    position_t pos;
    ref_team_t ref;
    g->set_start(&pos);
    ck_assert(ref_team_from_fen(&ref, fen_of(g, &pos), g->players));
    for (int d = 4; d <= 5; d++)
        ck_assert_uint_eq(perft(g, &pos, d), ref_perft(&ref, d));
}
END_TEST

Suite *suite_brax_team(void)
{
    Suite *s = suite_create("brax_team");
    TCase *pf = tcase_create("perft");
    tcase_set_timeout(pf, 120);
    tcase_add_loop_test(pf, perft_from_the_start, 0, 2);
    tcase_add_test(pf, perft_mid_game_matches_reference);
    tcase_add_loop_test(pf, perft_deeper_matches_reference, 0, 2);
    suite_add_tcase(s, pf);
    TCase *rules = tcase_create("settled_points");
    tcase_add_test(rules, point01_threats_are_a_players_own);
    tcase_add_test(rules, point02_call_needs_a_threatened_man_of_the_bound_player);
    tcase_add_test(rules, point03_no_call_on_the_teams_next_turn);
    tcase_add_test(rules, point04_material_limits_count_teams);
    tcase_add_test(rules, point05_players_without_men_are_skipped);
    tcase_add_test(rules, point06_pass_and_lapse);
    tcase_add_test(rules, point07_blue_moves_two_different_men);
    tcase_add_test(rules, point08_blue_calls_on_its_last_ply);
    tcase_add_test(rules, point09_red_call_binds_the_first_ply);
    tcase_add_test(rules, point10_blue_second_ply_pass_cannot_arise);
    tcase_add_test(rules, point11_judged_after_every_ply);
    tcase_add_test(rules, point12_double_captures_and_partners);
    tcase_add_test(rules, point13_team_draws_and_repetition_keys);
    tcase_add_test(rules, point14_the_call_binds_the_callers_threats);
    tcase_add_test(rules, position_strings_round_trip_and_refuse_nonsense);
    suite_add_tcase(s, rules);
    TCase *ref = tcase_create("reference");
    tcase_set_timeout(ref, 600);
    tcase_add_loop_test(ref, random_playouts_match_reference, 0, 2);
    suite_add_tcase(s, ref);
    return s;
}
