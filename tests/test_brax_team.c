/* test_brax_team.c: the Brax team games (brax-3p, brax-4p): perft, the
 * bitboard module against the plain reference in ref_brax_team.c over
 * random games, and every settled point of shared/rules/brax.md ("Settled
 * points of the team games") as a position with its expected moves or
 * result; the number of the point is in the test's name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/perft.h"
#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/brax.h"
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

/* The legal moves of fen as one sorted, space-separated string. */
static const char *legal(const game_t *g, const char *fen)
{
    static char out[4096];
    position_t pos;
    load_fen(g, &pos, fen);
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(&pos, moves);
    static move_text_t texts[MAX_MOVES];
    for (int i = 0; i < n; i++)
        g->move_text(&pos, moves[i], texts[i], sizeof texts[i]);
    qsort(texts, (size_t)n, sizeof texts[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, texts[i]);
    }
    return out;
}

/* The position after playing the moves (space-separated) from fen. */
static const char *after(const game_t *g, const char *fen, const char *moves)
{
    static record_t r;
    static char text[1024];
    snprintf(text, sizeof text, "fen %s moves %s", fen, moves);
    char err[400];
    ck_assert_msg(record_setup(&r, g, text, err, sizeof err), "%s", err);
    return fen_of(g, &r.pos);
}

static outcome_t outcome_of(const game_t *g, const char *fen)
{
    position_t pos;
    load_fen(g, &pos, fen);
    return g->outcome(&pos);
}

static const player_mask_t RED_TEAM = 0x5, BLUE_4P = 0xA, BLUE_3P = 0x2;

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

Suite *suite_brax_team(void)
{
    Suite *s = suite_create("brax_team");
    TCase *pf = tcase_create("perft");
    tcase_set_timeout(pf, 120);
    tcase_add_loop_test(pf, perft_from_the_start, 0, 2);
    tcase_add_test(pf, perft_mid_game_matches_reference);
    suite_add_tcase(s, pf);
    TCase *ref = tcase_create("reference");
    tcase_set_timeout(ref, 600);
    tcase_add_loop_test(ref, random_playouts_match_reference, 0, 2);
    suite_add_tcase(s, ref);
    return s;
}
