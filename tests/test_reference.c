/* test_reference.c: the bitboard Brandubh against the plain reference in
 * ref_brandubh.c, over many random games in both versions. At every ply the
 * two must agree on the move set, which moves capture, the noisy subset, the
 * position after the move and the result; make/unmake and the hash are
 * checked on the way. */
#include <stdlib.h>
#include <string.h>

#include "../engine/core/perft.h"
#include "../engine/core/rng.h"
#include "../engine/games/brandubh/brandubh.h"
#include "helpers.h"
#include "../engine/reference/ref_brandubh.h"

#define GAMES 400
#define MAX_GAME_PLIES 300

/* Texts of the fast generator's moves, marked '*' when capturing. */
static void fast_texts(const game_t *g, const position_t *pos, move_text_t *out, const move_t *moves, int n)
{
    for (int i = 0; i < n; i++) {
        g->move_text(pos, moves[i], out[i], sizeof out[i]);
        if (moves[i] & MOVE_CAPTURE)
            strcat(out[i], "*");
    }
}

static void ref_texts(const ref_move_t *moves, int n, move_text_t *out)
{
    for (int i = 0; i < n; i++) {
        strcpy(out[i], moves[i].text);
        if (moves[i].captures)
            strcat(out[i], "*");
    }
}

static char fast_result(const game_t *g, const position_t *pos)
{
    outcome_t o = g->outcome(pos);
    if (o.kind == OUTCOME_NONE) return 'n';
    if (o.kind == OUTCOME_DRAW) return '=';
    return o.players == player_bit(0) ? 'a' : 'd';
}

/* Would the king, were it the defenders' turn, have a move to a corner? */
static bool ref_king_sees_corner(const ref_bdb_t *ref)
{
    ref_bdb_t d = *ref;
    d.stm = 'd';
    if (ref_bdb_result(&d) != 'n')
        return false;
    ref_move_t all[MAX_MOVES];
    int m = ref_bdb_moves(&d, all);
    for (int i = 0; i < m; i++)
        if (d.sq[all[i].from_r][all[i].from_f] == 'k' && (all[i].to_r == 0 || all[i].to_r == 6) &&
            (all[i].to_f == 0 || all[i].to_f == 6))
            return true;
    return false;
}

/* The noisy moves must be exactly the captures, the king's moves home and
 * the king's quiet moves after which it sees a corner (forcing, and only
 * those); but the attackers facing an open path from the king to a corner
 * get every answer: the moves after which the king is taken or sees none. */
static void check_noisy(const game_t *g, const position_t *pos, const ref_bdb_t *ref)
{
    move_t noisy[MAX_MOVES];
    int n = g->gen_noisy(pos, noisy);
    ref_move_t all[MAX_MOVES];
    int m = ref_bdb_moves(ref, all), want = 0, want_forcing = 0;
    bool respond = ref->stm == 'a' && ref_king_sees_corner(ref);
    ck_assert_int_eq(g->must_respond(pos), respond);
    for (int i = 0; i < m; i++) {
        if (respond) {
            ref_bdb_t after = *ref;
            ref_bdb_play(&after, &all[i]);
            want += ref_bdb_result(&after) == 'a' || !ref_king_sees_corner(&after);
            continue;
        }
        char piece = ref->sq[all[i].from_r][all[i].from_f];
        bool home = piece == 'k' && (all[i].to_r == 0 || all[i].to_r == 6) && (all[i].to_f == 0 || all[i].to_f == 6);
        bool threat = false;
        if (piece == 'k' && !home && !all[i].captures) {
            ref_bdb_t after = *ref;
            ref_bdb_play(&after, &all[i]);
            threat = ref_king_sees_corner(&after);
        }
        want += all[i].captures || home || threat;
        want_forcing += threat;
    }
    ck_assert_int_eq(n, want);
    int forcing = 0;
    for (int i = 0; i < n && !respond; i++) {
        ck_assert(noisy[i] & MOVE_NOISY);
        forcing += (noisy[i] & MOVE_FORCING) != 0;
    }
    if (!respond)
        ck_assert_int_eq(forcing, want_forcing);
}

/* gives_threat must say, for every move, what must_respond would say after
 * it: the attackers to move facing a king that sees a corner. */
static void check_gives_threat(const game_t *g, const position_t *pos, const ref_bdb_t *ref, const move_t *moves,
                               int n, ref_move_t *rmoves, int rn)
{
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, moves[i], text, sizeof text);
        int j = 0;
        while (j < rn && strcmp(rmoves[j].text, text) != 0)
            j++;
        ck_assert_int_lt(j, rn);
        ref_bdb_t after = *ref;
        ref_bdb_play(&after, &rmoves[j]);
        bool want = after.stm == 'a' && ref_king_sees_corner(&after); /* as check_noisy */
        ck_assert_msg(g->gives_threat(pos, moves[i]) == want, "gives_threat of %s", text);
    }
}

/* One random game from fen (NULL: the start) compared ply by ply with the
 * reference; returns its result as both saw it ('n': still going at the
 * ply limit). */
static char playout(const game_t *g, int version, rng_t *rng, const char *fen)
{
    position_t pos;
    ref_bdb_t ref;
    if (fen)
        load_fen(g, &pos, fen);
    else
        g->set_start(&pos);
    ck_assert(ref_bdb_from_fen(&ref, fen_of(g, &pos), version));
    static move_text_t a[MAX_MOVES], b[MAX_MOVES];
    for (int ply = 0; ply < MAX_GAME_PLIES; ply++) {
        move_t moves[MAX_MOVES];
        ref_move_t rmoves[MAX_MOVES];
        int n = g->gen_moves(&pos, moves);
        int rn = ref_bdb_moves(&ref, rmoves);
        ck_assert_int_eq(n, rn);
        ck_assert_int_eq(g->count_moves(&pos), n);
        fast_texts(g, &pos, a, moves, n);
        ref_texts(rmoves, rn, b);
        assert_same_texts(a, b, n);
        ck_assert_int_eq(fast_result(g, &pos), ref_bdb_result(&ref));
        check_noisy(g, &pos, &ref);
        check_gives_threat(g, &pos, &ref, moves, n, rmoves, rn);
        if (n == 0)
            return fast_result(g, &pos);

        int k = (int)rng_below(rng, (uint32_t)n);
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(&pos, moves[k], text, sizeof text);
        play_checked(g, &pos, moves[k]);
        for (int i = 0; i < rn; i++)
            if (strcmp(rmoves[i].text, text) == 0)
                ref_bdb_play(&ref, &rmoves[i]);
        char rfen[GAME_FEN_MAX];
        ref_bdb_to_fen(&ref, rfen);
        assert_matches_fen(g, &pos, rfen);
    }
    return fast_result(g, &pos);
}

/* Random games, compared with the reference at every ply, must between them
 * reach every result: an attackers' win, a defenders' win and a draw (a
 * side left without a move). Random games from the start rarely block a
 * side, so some start from a crowded position where blocking is common. */
START_TEST(random_playouts_match_reference)
{
    const game_t *g = _i == 0 ? &brandubh_v1 : &brandubh_v2;
    rng_t rng = {12345u + (uint64_t)_i};
    int seen[4] = {0, 0, 0, 0};
    for (int game = 0; game < GAMES; game++) {
        /* Every eighth game: the king hemmed in on an edge, his defenders
         * few, so that blocked positions (draws) come up. */
        const char *fen = game % 8 == 7 ? "7/7/7/7/2a1a2/a1ada1a/1adkda1 a" : NULL;
        char r = playout(g, _i + 1, &rng, fen);
        seen[r == 'a' ? 0 : r == 'd' ? 1 : r == '=' ? 2 : 3]++;
    }
    ck_assert_msg(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, "attackers %d, defenders %d, draws %d, unfinished %d",
                  seen[0], seen[1], seen[2], seen[3]);
}
END_TEST

static uint64_t ref_perft(const ref_bdb_t *b, int depth)
{
    if (depth == 0)
        return 1;
    ref_move_t moves[MAX_MOVES];
    int n = ref_bdb_moves(b, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        ref_bdb_t next = *b;
        ref_bdb_play(&next, &moves[i]);
        total += ref_perft(&next, depth - 1);
    }
    return total;
}

/* Perft of the fast generator equals the reference's on every bench
 * position and the start position. */
START_TEST(perft_matches_reference)
{
    const game_t *g = _i == 0 ? &brandubh_v1 : &brandubh_v2;
    for (int i = 0; g->bench_fens[i]; i++) {
        position_t pos;
        ref_bdb_t ref;
        load_fen(g, &pos, g->bench_fens[i]);
        ck_assert(ref_bdb_from_fen(&ref, g->bench_fens[i], _i + 1));
        for (int d = 1; d <= 3; d++)
            ck_assert_uint_eq(perft(g, &pos, d), ref_perft(&ref, d));
    }
}
END_TEST

Suite *suite_reference(void)
{
    Suite *s = suite_create("reference");
    TCase *tc = tcase_create("playouts");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, random_playouts_match_reference, 0, 2);
    tcase_add_loop_test(tc, perft_matches_reference, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
