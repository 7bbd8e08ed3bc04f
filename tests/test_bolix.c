/* test_bolix.c: every ruling of docs/rules/bolix.md as a position, perft
 * and random games against the reference in ref_bolix.c, and the forcing
 * search: wins in one, blocks of fours, and forced wins by fours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/perft.h"
#include "../engine/core/rng.h"
#include "../engine/games/bolix/bolix.h"
#include "../engine/search/search.h"
#include "helpers.h"
#include "../engine/reference/ref_bolix.h"

static const game_t *const g = &bolix;

/* A Bolix FEN from cell lists; hands are 36 less the marbles on the board
 * unless given (>= 0). */
static void fen_from(char *out, const char *black, const char *white, char side, int hand_b, int hand_w,
                     const char *ko, int passes)
{
    static const int lo[10] = {1, 1, 1, 1, 1, 1, 2, 3, 4, 5}, hi[10] = {6, 7, 8, 9, 10, 10, 10, 10, 10, 10};
    char cell[10][11];
    memset(cell, '.', sizeof cell);
    int count[2] = {0, 0};
    const char *lists[2] = {black, white};
    for (int i = 0; i < 2; i++)
        for (const char *c = lists[i]; *c;) {
            if (*c == ' ') {
                c++;
                continue;
            }
            char *end;
            long n = strtol(c + 1, &end, 10);
            cell[c[0] - 'a'][n] = i ? 'w' : 'b';
            count[i]++;
            c = end;
        }
    int k = 0;
    for (int q = 0; q < 10; q++) {
        int empty = 0;
        for (int n = lo[q]; n <= hi[q]; n++) {
            if (cell[q][n] == '.') {
                empty++;
                continue;
            }
            if (empty)
                k += sprintf(out + k, "%d", empty);
            empty = 0;
            out[k++] = cell[q][n];
        }
        if (empty)
            k += sprintf(out + k, "%d", empty);
        if (q < 9)
            out[k++] = '/';
    }
    sprintf(out + k, " %c %d %d %s %d", side, hand_b >= 0 ? hand_b : 36 - count[0],
            hand_w >= 0 ? hand_w : 36 - count[1], ko, passes);
}

static void setup(position_t *pos, const char *black, const char *white, char side)
{
    char fen[GAME_FEN_MAX];
    fen_from(fen, black, white, side, -1, -1, "-", 0);
    load_fen(g, pos, fen);
}

static outcome_t outcome_after(position_t *pos, const char *move)
{
    play(g, pos, move);
    move_t moves[MAX_MOVES];
    if (g->gen_moves(pos, moves) != 0)
        return (outcome_t){OUTCOME_NONE, 0, NULL};
    return g->outcome(pos);
}

/* ---- the board ---- */

START_TEST(board_has_116_windows)
{
    ck_assert_int_eq(bolix_window_count(), 116);
    position_t pos;
    g->set_start(&pos);
    move_t moves[MAX_MOVES];
    ck_assert_int_eq(g->gen_moves(&pos, moves), 80);
    ck_assert_str_eq(fen_of(g, &pos), "6/7/8/9/10/10/9/8/7/6 b 36 36 - 0");
}
END_TEST

/* ---- five in a row ---- */

START_TEST(five_wins_in_each_direction)
{
    static const char *const lines[3][2] = {
        {"e3 e4 e5 e6", "e7"}, /* along a column */
        {"c5 d5 e5 f5", "g5"}, /* along a number */
        {"c3 d4 e5 f6", "g7"}, /* the diagonal */
    };
    for (int i = 0; i < 3; i++) {
        position_t pos;
        setup(&pos, lines[i][0], "a1 a2 a3 a4", 'b');
        outcome_t o = outcome_after(&pos, lines[i][1]);
        ck_assert_msg(o.kind == OUTCOME_WIN && o.players == player_bit(0), "direction %d", i);
    }
}
END_TEST

START_TEST(six_wins_four_does_not)
{
    position_t pos;
    setup(&pos, "e2 e3 e4 e6 e7", "a1 a3 j10 j8 h10", 'b');
    outcome_t o = outcome_after(&pos, "e5");
    ck_assert(o.kind == OUTCOME_WIN && o.players == player_bit(0));
    setup(&pos, "e3 e4 e5", "a1 a2 a3", 'b');
    ck_assert_int_eq(outcome_after(&pos, "e6").kind, OUTCOME_NONE);
}
END_TEST

START_TEST(no_win_across_a_gap_or_a_bend)
{
    position_t pos;
    /* e3 e4 e5 e6 + e8: a gap at e7. */
    setup(&pos, "e3 e4 e5 e6", "a1 a2 a3 a4", 'b');
    ck_assert_int_eq(outcome_after(&pos, "e8").kind, OUTCOME_NONE);
    /* Three up a column, then two along a number: a bend. */
    setup(&pos, "e3 e4 e5 f5", "a1 a2 a3 a4", 'b');
    ck_assert_int_eq(outcome_after(&pos, "g5").kind, OUTCOME_NONE);
    /* d4 e5 in one diagonal, f5 g5 in a number line: not a line. */
    setup(&pos, "c3 d4 e5 f5", "a1 a2 a3 a4", 'b');
    ck_assert_int_eq(outcome_after(&pos, "g5").kind, OUTCOME_NONE);
}
END_TEST

/* ---- captures ---- */

START_TEST(exactly_two_enclosed_is_a_capture)
{
    position_t pos;
    setup(&pos, "e3", "e4 e5 a1", 'b');
    ck_assert(is_legal(g, &pos, "e6xe4"));
    ck_assert(is_legal(g, &pos, "e6xe5"));
    ck_assert(!is_legal(g, &pos, "e6")); /* the capture is compulsory */
    /* One enemy between: no capture. */
    setup(&pos, "e3", "e4 a1", 'b');
    ck_assert(is_legal(g, &pos, "e5"));
    ck_assert(!is_legal(g, &pos, "e5xe4"));
    /* Three enemies between: no capture. */
    setup(&pos, "e3", "e4 e5 e6 a1", 'b');
    ck_assert(is_legal(g, &pos, "e7"));
    ck_assert(!is_legal(g, &pos, "e7xe5"));
}
END_TEST

START_TEST(double_sandwich_one_removal_of_four)
{
    position_t pos;
    /* e6 encloses e4 e5 (with e3) and f6 g6 (with h6). */
    setup(&pos, "e3 h6", "e4 e5 f6 g6", 'b');
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(&pos, moves), at_e6 = 0;
    for (int i = 0; i < n; i++) {
        char t[GAME_MOVE_TEXT_MAX];
        g->move_text(&pos, moves[i], t, sizeof t);
        at_e6 += strncmp(t, "e6", 2) == 0 && (t[2] == 'x' || t[2] == 0);
    }
    ck_assert_int_eq(at_e6, 4);
    play(g, &pos, "e6xg6");
    char want[GAME_FEN_MAX];
    fen_from(want, "e3 h6 e6", "e4 e5 f6", 'w', 33, 33, "g6", 0);
    ck_assert_str_eq(fen_of(g, &pos), want);
}
END_TEST

START_TEST(placing_between_enemies_is_safe)
{
    position_t pos;
    setup(&pos, "e3 e6", "e4 a1", 'w');
    play(g, &pos, "e5");
    char want[GAME_FEN_MAX];
    fen_from(want, "e3 e6", "e4 a1 e5", 'b', -1, -1, "-", 0);
    ck_assert_str_eq(fen_of(g, &pos), want);
}
END_TEST

START_TEST(winning_placement_removes_nothing)
{
    position_t pos;
    /* g5 completes c5-g5 and would also enclose g6 g7 with g8. */
    setup(&pos, "c5 d5 e5 f5 g8", "g6 g7 a1 a2 a3", 'b');
    ck_assert(is_legal(g, &pos, "g5"));
    ck_assert(!is_legal(g, &pos, "g5xg6"));
    outcome_t o = outcome_after(&pos, "g5");
    ck_assert(o.kind == OUTCOME_WIN && o.players == player_bit(0));
}
END_TEST

/* ---- ko ---- */

START_TEST(ko_blocks_the_victim_that_cell_one_turn)
{
    position_t pos;
    setup(&pos, "e3 a1", "e4 e5 j10", 'b');
    play(g, &pos, "e6xe5");
    /* White may not place on e5 now, but elsewhere yes. */
    ck_assert(!is_legal(g, &pos, "e5"));
    ck_assert(is_legal(g, &pos, "f5"));
    play(g, &pos, "f5");
    /* Black is not the victim: e5 is open to black. */
    ck_assert(is_legal(g, &pos, "e5"));
    play(g, &pos, "b1");
    /* One turn only: white may now place on e5. */
    ck_assert(is_legal(g, &pos, "e5"));
}
END_TEST

/* ---- hands, passing, the two-pass draw ---- */

START_TEST(hands_count_down_and_back_up)
{
    position_t pos;
    setup(&pos, "e3", "e4 e5", 'b');
    ck_assert(strstr(fen_of(g, &pos), " b 35 34 "));
    play(g, &pos, "e6xe4");
    ck_assert(strstr(fen_of(g, &pos), " w 34 35 e4 0"));
}
END_TEST

START_TEST(pass_with_an_empty_hand_and_two_passes_draw)
{
    char fen[GAME_FEN_MAX];
    position_t pos;
    fen_from(fen, "a1", "j10", 'b', 0, 1, "-", 0);
    load_fen(g, &pos, fen);
    move_t only[MAX_MOVES];
    ck_assert_int_eq(g->gen_moves(&pos, only), 1);
    ck_assert(is_legal(g, &pos, "pass"));
    play(g, &pos, "pass");
    ck_assert(is_legal(g, &pos, "e5"));
    ck_assert(!is_legal(g, &pos, "pass")); /* white still has a marble */
    play(g, &pos, "e5");
    play(g, &pos, "pass");
    play(g, &pos, "pass");
    move_t moves[MAX_MOVES];
    ck_assert_int_eq(g->gen_moves(&pos, moves), 0);
    ck_assert_int_eq(g->outcome(&pos).kind, OUTCOME_DRAW);
}
END_TEST

/* ---- against the reference ---- */

static uint64_t ref_perft(const ref_bolix_t *b, int depth)
{
    if (depth == 0)
        return 1;
    static ref_bolix_move_t moves[8][1024];
    int n = ref_bolix_moves(b, moves[depth]);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t t = 0;
    for (int i = 0; i < n; i++) {
        ref_bolix_t next = *b;
        ref_bolix_play(&next, &moves[depth][i]);
        t += ref_perft(&next, depth - 1);
    }
    return t;
}

START_TEST(perft_matches_reference)
{
    position_t pos;
    g->set_start(&pos);
    static const uint64_t start[] = {1, 80, 6320, 492960};
    for (int d = 1; d <= 3; d++)
        ck_assert_uint_eq(perft(g, &pos, d), start[d]);
    for (int i = 0; g->bench_fens[i]; i++) {
        ref_bolix_t ref;
        load_fen(g, &pos, g->bench_fens[i]);
        ck_assert(ref_bolix_from_fen(&ref, g->bench_fens[i]));
        for (int d = 1; d <= 2; d++)
            ck_assert_uint_eq(perft(g, &pos, d), ref_perft(&ref, d));
    }
}
END_TEST

/* The reference's threat: the side to move, with marbles in hand, faces a
 * placement of the other side that would win (were it that side's turn,
 * with a marble and no ko). */
static bool ref_threatened(const ref_bolix_t *ref)
{
    int s = ref->stm == 'b' ? 0 : 1;
    if (ref_bolix_result(ref) != 'n' || ref->hand[s] == 0)
        return false;
    ref_bolix_t o = *ref;
    o.stm = s ? 'b' : 'w';
    o.hand[s ^ 1] = 1;
    o.ko_q = o.ko_n = -1;
    o.passes = 0;
    static ref_bolix_move_t moves[1024];
    int n = ref_bolix_moves(&o, moves);
    for (int i = 0; i < n; i++) {
        ref_bolix_t after = o;
        ref_bolix_play(&after, &moves[i]);
        if (ref_bolix_result(&after) == o.stm)
            return true;
    }
    return false;
}

/* must_respond against the reference, gives_threat of every move against
 * must_respond after it, and, with no threat to answer, the noisy moves
 * as the noisy part of all moves, in the same order. */
static void check_threats(const position_t *pos, const ref_bolix_t *ref, const move_t *moves, int n)
{
    ck_assert_int_eq(g->must_respond(pos), ref_threatened(ref));
    if (!g->must_respond(pos)) {
        move_t noisy[MAX_MOVES];
        int k = g->gen_noisy(pos, noisy), j = 0;
        for (int i = 0; i < n; i++)
            if (moves[i] & MOVE_NOISY) {
                ck_assert_int_lt(j, k);
                ck_assert_uint_eq(noisy[j++], moves[i]);
            }
        ck_assert_int_eq(j, k);
    }
    for (int i = 0; i < n; i++) {
        position_t after = *pos;
        undo_t u;
        g->make(&after, moves[i], &u);
        ck_assert_int_eq(g->gives_threat(pos, moves[i]), g->must_respond(&after));
    }
}

START_TEST(random_playouts_match_reference)
{
    rng_t rng = {2024};
    static move_text_t a[MAX_MOVES], b[MAX_MOVES];
    static ref_bolix_move_t rmoves[1024];
    int captures = 0, wins = 0, passes = 0;
    for (int game = 0; game < 60; game++) {
        position_t pos;
        ref_bolix_t ref;
        g->set_start(&pos);
        ck_assert(ref_bolix_from_fen(&ref, fen_of(g, &pos)));
        for (int ply = 0; ply < 200; ply++) {
            move_t moves[MAX_MOVES];
            int n = g->gen_moves(&pos, moves), rn = ref_bolix_moves(&ref, rmoves);
            ck_assert_int_eq(n, rn);
            ck_assert_int_eq(g->count_moves(&pos), n);
            for (int i = 0; i < n; i++) {
                g->move_text(&pos, moves[i], a[i], sizeof a[i]);
                strcpy(b[i], rmoves[i].text);
            }
            assert_same_texts(a, b, n);
            outcome_t o = g->outcome(&pos);
            char mine = o.kind == OUTCOME_NONE ? 'n' : o.kind == OUTCOME_DRAW ? '=' : o.players == player_bit(1) ? 'w' : 'b';
            ck_assert_int_eq(mine, ref_bolix_result(&ref));
            check_threats(&pos, &ref, moves, n);
            if (n == 0) {
                wins += mine != '=';
                break;
            }
            /* Captures are rare at random: take one when there is one. */
            int k = (int)rng_below(&rng, (uint32_t)n);
            for (int i = 0; i < n; i++)
                if (moves[i] & MOVE_CAPTURE)
                    k = i;
            char text[GAME_MOVE_TEXT_MAX];
            g->move_text(&pos, moves[k], text, sizeof text);
            captures += strchr(text, 'x') != NULL;
            passes += strcmp(text, "pass") == 0;
            play_checked(g, &pos, moves[k]);
            for (int i = 0; i < rn; i++)
                if (strcmp(rmoves[i].text, text) == 0) {
                    ref_bolix_play(&ref, &rmoves[i]);
                    break;
                }
            char rfen[GAME_FEN_MAX];
            ref_bolix_to_fen(&ref, rfen);
            assert_matches_fen(g, &pos, rfen);
        }
    }
    ck_assert_int_gt(captures, 0);
    ck_assert_int_gt(wins, 0);
}
END_TEST

START_TEST(bad_fens_are_rejected)
{
    static const char *const bad[] = {
        "",
        "6/7/8/9/10/10/9/8/7 b 36 36 - 0",
        "6/7/8/9/10/10/9/8/7/7 b 36 36 - 0",
        "6/7/8/9/10/10/9/8/7/6 x 36 36 - 0",
        "6/7/8/9/10/10/9/8/7/6 b 37 36 - 0",
        "6/7/8/9/10/10/9/8/7/6 b 36 36 k1 0",
        "6/7/8/9/10/10/9/8/7/6 b 36 36 - 3",
        "6/7/8/9/10/10/9/8/7/6 b 36 36 - 0 extra",
        "5q/7/8/9/10/10/9/8/7/6 b 36 36 - 0",
    };
    position_t pos;
    char err[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!g->parse_fen(&pos, bad[i], err, sizeof err), "accepted '%s'", bad[i]);
}
END_TEST

/* ---- play ---- */

static search_result_t search_pos(const position_t *pos, int depth)
{
    static searcher_t *s;
    if (!s)
        s = searcher_new(8);
    search_request_t req = {0};
    req.game = g;
    req.root = *pos;
    limits_init(&req.limits);
    req.limits.depth = depth;
    searcher_clear(s);
    search_reset_stop(s);
    return search_run(s, &req);
}

static const char *best_text(const position_t *pos, int depth, score_t *score)
{
    static char t[GAME_MOVE_TEXT_MAX];
    search_result_t r = search_pos(pos, depth);
    g->move_text(pos, r.best, t, sizeof t);
    if (score)
        *score = r.score;
    return t;
}

/* Plays the engine's choice at `depth` and says whether it won at once. */
static bool wins_at_once(position_t pos, int depth)
{
    search_result_t r = search_pos(&pos, depth);
    undo_t u;
    g->make(&pos, r.best, &u);
    outcome_t o;
    return g->decided(&pos, &o) && o.kind == OUTCOME_WIN && o.players == player_bit(0);
}

START_TEST(never_misses_a_win_in_one)
{
    position_t pos;
    /* b5 and g5 both complete the row; either will do. */
    setup(&pos, "c5 d5 e5 f5 a1", "c6 d6 e6 f6", 'b');
    ck_assert(wins_at_once(pos, 1));
    /* Only e5 fills the gap of c3 d4 _ f6 g7. */
    setup(&pos, "c3 d4 f6 g7", "a1 a2 a3 b7", 'b');
    ck_assert_str_eq(best_text(&pos, 1, NULL), "e5");
    /* Winning beats capturing, even when both are on offer. */
    setup(&pos, "c5 d5 e5 f5 e8", "e6 e7 b5 a1", 'b');
    ck_assert(wins_at_once(pos, 3));
}
END_TEST

START_TEST(blocks_a_four)
{
    position_t pos;
    score_t sc;
    /* White's four e3-e6 is closed at e2: black must take e7, and holds. */
    setup(&pos, "e2 a1 j10", "e3 e4 e5 e6", 'b');
    ck_assert_str_eq(best_text(&pos, 3, &sc), "e7");
    ck_assert_int_gt(sc, -SCORE_WIN_BOUND);
    /* Along the diagonal, closed at c3: black must take h8. */
    setup(&pos, "c3 a1 j10", "d4 e5 f6 g7", 'b');
    ck_assert_str_eq(best_text(&pos, 3, NULL), "h8");
    /* Open at both ends (e2 and e7), the four cannot be stopped, and the
     * search says so at once. */
    setup(&pos, "a1 b1 j10", "e3 e4 e5 e6", 'b');
    best_text(&pos, 1, &sc);
    ck_assert_int_le(sc, -SCORE_WIN_BOUND);
}
END_TEST

/* True when black, to move, can win within `moves` moves by forcing play
 * (fours and captures) against every legal reply: an independent proof of
 * the search's claim, using only move generation and the game's end test. */
static bool black_wins_now(position_t *pos)
{
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        undo_t u;
        g->make(pos, moves[i], &u);
        outcome_t o;
        bool won = g->decided(pos, &o) && o.kind == OUTCOME_WIN && o.players == player_bit(0);
        g->unmake(pos, moves[i], &u);
        if (won)
            return true;
    }
    return false;
}

static bool prove_forced_win(position_t *pos, int moves)
{
    if (black_wins_now(pos))
        return true;
    if (moves <= 1)
        return false;
    move_t mine[MAX_MOVES];
    int n = g->gen_moves(pos, mine);
    for (int i = 0; i < n; i++) {
        if (!(mine[i] & (MOVE_FORCING | MOVE_CAPTURE)))
            continue;
        undo_t u;
        g->make(pos, mine[i], &u);
        move_t replies[MAX_MOVES];
        int k = g->gen_moves(pos, replies);
        bool holds = k > 0;
        for (int j = 0; j < k && holds; j++) {
            undo_t v;
            g->make(pos, replies[j], &v);
            outcome_t o;
            holds = !(g->decided(pos, &o) && o.kind == OUTCOME_WIN) && prove_forced_win(pos, moves - 1);
            g->unmake(pos, replies[j], &v);
        }
        g->unmake(pos, mine[i], &u);
        if (holds)
            return true;
    }
    return false;
}

/* Positions found by random clustered placement where the win is a chain
 * of fours and captures (4 moves, 7 plies) far longer than the nominal
 * depth, 1 here: the search must find it through quiescence alone, and the
 * prover above must confirm it, for the root and for the move the engine
 * chose. */
START_TEST(finds_forced_wins_by_fours)
{
    static const struct {
        const char *fen;
        int moves;
    } cases[] = {
        {"6/7/2wb1b2/2wb1ww2/2wb1bb3/6b3/6w2/bww1wb2/7/6 b 27 27 - 0", 4},
        {"6/7/7b/3b1w3/2w1bb1b2/4w1w3/3w2w2/2w1bb2/7/6 b 29 29 - 0", 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        position_t pos;
        load_fen(g, &pos, cases[i].fen);
        search_result_t r = search_pos(&pos, 1);
        int moves;
        ck_assert_msg(search_score_is_mate(r.score, &moves) && moves > 0 && moves <= cases[i].moves,
                      "%s: score %d", cases[i].fen, r.score);
        ck_assert_msg(prove_forced_win(&pos, cases[i].moves), "%s: no forced win", cases[i].fen);
        /* And the move it chose keeps the win. */
        undo_t u;
        g->make(&pos, r.best, &u);
        move_t replies[MAX_MOVES];
        int k = g->gen_moves(&pos, replies);
        for (int j = 0; j < k; j++) {
            position_t after = pos;
            undo_t v;
            g->make(&after, replies[j], &v);
            ck_assert_msg(prove_forced_win(&after, cases[i].moves - 1), "%s: the chosen move loses the win",
                          cases[i].fen);
        }
    }
}
END_TEST

Suite *suite_bolix(void)
{
    Suite *s = suite_create("bolix");
    TCase *rules = tcase_create("rules");
    tcase_add_test(rules, board_has_116_windows);
    tcase_add_test(rules, five_wins_in_each_direction);
    tcase_add_test(rules, six_wins_four_does_not);
    tcase_add_test(rules, no_win_across_a_gap_or_a_bend);
    tcase_add_test(rules, exactly_two_enclosed_is_a_capture);
    tcase_add_test(rules, double_sandwich_one_removal_of_four);
    tcase_add_test(rules, placing_between_enemies_is_safe);
    tcase_add_test(rules, winning_placement_removes_nothing);
    tcase_add_test(rules, ko_blocks_the_victim_that_cell_one_turn);
    tcase_add_test(rules, hands_count_down_and_back_up);
    tcase_add_test(rules, pass_with_an_empty_hand_and_two_passes_draw);
    tcase_add_test(rules, bad_fens_are_rejected);
    suite_add_tcase(s, rules);
    TCase *ref = tcase_create("reference");
    tcase_set_timeout(ref, 300);
    tcase_add_test(ref, perft_matches_reference);
    tcase_add_test(ref, random_playouts_match_reference);
    suite_add_tcase(s, ref);
    TCase *play_case = tcase_create("play");
    tcase_set_timeout(play_case, 120);
    tcase_add_test(play_case, never_misses_a_win_in_one);
    tcase_add_test(play_case, blocks_a_four);
    tcase_add_test(play_case, finds_forced_wins_by_fours);
    suite_add_tcase(s, play_case);
    return s;
}
