/* test_record.c: game records of any length, repetition counted in
 * constant time (checked against a plain scan), and the forfeit an illegal
 * move in a position command brings. */
#include <stdlib.h>
#include <string.h>

#include "../bench/tools/long_game.h"
#include "../engine/core/record.h"
#include "../engine/games/variants.h"
#include "helpers.h"

/* Two red men against one blue: no rule ends such a game. */
#define TWO_AGAINST_ONE "9/9/9/9/4b4/9/9/9/r7r r - 0"

/* Occurrences of the current key by scanning back, as the record did
 * before it had a table. */
static int scanned_occurrences(const record_t *r)
{
    int n = 0;
    for (int i = r->reversible_from; i <= r->plies; i++)
        n += r->hashes[i] == r->hashes[r->plies];
    return n;
}

/* Issue 13: the record grows past its old limit of 4096 plies. */
START_TEST(a_game_of_100000_plies_is_recorded)
{
    const game_t *g = variants_find("brax");
    char final_fen[GAME_FEN_MAX];
    char *text = long_game_text(g, TWO_AGAINST_ONE, 100000, 1, final_fen, sizeof final_fen);
    ck_assert_ptr_nonnull(text);
    static record_t r;
    char err[300];
    ck_assert_msg(record_setup(&r, g, text, err, sizeof err), "%s", err);
    ck_assert_int_eq(r.plies, 100000);
    ck_assert_str_eq(fen_of(g, &r.pos), final_fen);
    ck_assert_int_eq(record_outcome(&r).kind, OUTCOME_NONE);
    ck_assert_int_le(record_occurrences(&r), 2);
    free(text);
    record_free(&r);
}
END_TEST

/* The table agrees with a plain scan at every ply of games that repeat
 * positions and make irreversible moves (Brandubh's captures). */
START_TEST(repetition_table_agrees_with_a_scan)
{
    static const char *const games[] = {"brandubh", "brax", "brax-4p"};
    for (int v = 0; v < 3; v++) {
        const game_t *g = variants_find(games[v]);
        static record_t r;
        position_t start;
        g->set_start(&start);
        ck_assert(record_init(&r, g, &start));
        uint64_t rng = 12345 + (uint64_t)v;
        for (int ply = 0; ply < 3000; ply++) {
            ck_assert_int_eq(record_occurrences(&r), scanned_occurrences(&r));
            move_t moves[MAX_MOVES];
            int n = record_legal_moves(&r, moves);
            if (n == 0) { /* over: a new game keeps the buffers */
                ck_assert(record_init(&r, g, &start));
                continue;
            }
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            /* Mostly the first few moves, so positions come back. */
            int pick = (int)((rng >> 33) % (uint64_t)(n < 3 ? n : 3));
            if ((rng >> 20) % 16 == 0)
                pick = (int)((rng >> 40) % (uint64_t)n);
            ck_assert(record_play(&r, moves[pick]));
        }
        record_free(&r);
    }
}
END_TEST

/* An illegal move ends the game with its offender's loss; the record
 * holds the game up to it. */
START_TEST(illegal_move_forfeits_the_game)
{
    static const struct {
        const char *variant, *text;
        int offender;
        outcome_kind_t kind;
        player_mask_t players;
    } cases[] = {
        {"brandubh", "startpos moves zz", 0, OUTCOME_WIN, 1u << 1},
        {"brandubh", "startpos moves d2c2 d2c2", 1, OUTCOME_WIN, 1u << 0},
        {"brax-4p", "startpos moves e1e2 e1e2", 1, OUTCOME_WIN, 1u << 0 | 1u << 2},
        {"jinxx-3p", "startpos moves S Ma1b1", 0, OUTCOME_DRAW, 1u << 1 | 1u << 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const game_t *g = variants_find(cases[i].variant);
        static record_t r;
        char err[300];
        ck_assert(!record_setup(&r, g, cases[i].text, err, sizeof err));
        ck_assert_msg(strstr(err, "illegal move"), "%s", err);
        ck_assert_int_eq(r.forfeit_by, cases[i].offender);
        outcome_t o = record_outcome(&r);
        ck_assert_int_eq(o.kind, cases[i].kind);
        ck_assert_uint_eq(o.players, cases[i].players);
        move_t moves[MAX_MOVES];
        ck_assert_int_eq(record_legal_moves(&r, moves), 0);
        record_free(&r);
    }
    /* Not a player's error: a bad face of the die, a bad FEN, a move after the end. */
    static const struct {
        const char *variant, *text;
    } refused[] = {
        {"jinxx", "startpos moves Ma1b1"},
        {"brandubh", "fen 3a3/3a3 a moves d2c2"},
        {"brandubh", "fen 7/7/7/7/7/7/k6 a moves d2c2"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        static record_t r;
        char err[300];
        ck_assert(!record_setup(&r, variants_find(refused[i].variant), refused[i].text, err, sizeof err));
        ck_assert_msg(r.forfeit_by < 0, "%s", refused[i].text);
        record_free(&r);
    }
}
END_TEST

Suite *suite_record(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("record");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_game_of_100000_plies_is_recorded);
    tcase_add_test(tc, repetition_table_agrees_with_a_scan);
    tcase_add_test(tc, illegal_move_forfeits_the_game);
    suite_add_tcase(s, tc);
    return s;
}
