/* test_brax.c: the board colouring, seed 000's worked examples, every ruling
 * of docs/rules/brax.md as a position, and the bitboard generator against
 * the reference in ref_brax.c (perft and random games, all four variants). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/perft.h"
#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/brax/brax.h"
#include "../engine/games/brax/brax_geometry.h"
#include "helpers.h"
#include "../engine/reference/ref_brax.h"

static const game_t *const variants[4] = {&brax_denham, &brax_zillions, &brax_easy, &brax_hunt};

static int pt(const char *name) { return (name[1] - '1') * 9 + (name[0] - 'a'); }

/* A Brax FEN from point lists ("e6 d6"). */
static void fen_from(char *out, const char *red, const char *blue, char side, const char *calls, int quiet)
{
    char grid[9][9];
    memset(grid, '.', sizeof grid);
    const char *lists[2] = {red, blue};
    for (int i = 0; i < 2; i++)
        for (const char *c = lists[i]; *c;) {
            if (*c == ' ') {
                c++;
                continue;
            }
            grid[c[1] - '1'][c[0] - 'a'] = i ? 'b' : 'r';
            c += 2;
        }
    int n = 0;
    for (int r = 8; r >= 0; r--) {
        int empty = 0;
        for (int c = 0; c < 9; c++) {
            if (grid[r][c] == '.') {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = grid[r][c];
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (r)
            out[n++] = '/';
    }
    sprintf(out + n, " %c %s %d", side, calls, quiet);
}

static void setup(const game_t *g, position_t *pos, const char *red, const char *blue, char side, const char *calls)
{
    char fen[GAME_FEN_MAX];
    fen_from(fen, red, blue, side, calls, 0);
    load_fen(g, pos, fen);
}

/* The sorted legal move texts, space-separated, for exact comparisons. */
static int cmp(const void *a, const void *b) { return strcmp(a, b); }
static const char *move_list(const game_t *g, const position_t *pos)
{
    static char out[8192];
    char texts[MAX_MOVES][GAME_MOVE_TEXT_MAX];
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    for (int i = 0; i < n; i++)
        g->move_text(pos, moves[i], texts[i], sizeof texts[i]);
    qsort(texts, (size_t)n, sizeof texts[0], cmp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        strcat(out, i ? " " : "");
        strcat(out, texts[i]);
    }
    return out;
}

/* ---- the board ---- */

START_TEST(colouring_is_the_published_board)
{
    int red = 0, blue = 0;
    for (int p = 0; p < 81; p++) {
        if (p % 9 < 8) {
            red += brax_segment_colour(p, p + 1) == 0;
            blue += brax_segment_colour(p, p + 1) == 1;
        }
        if (p < 72) {
            red += brax_segment_colour(p, p + 9) == 0;
            blue += brax_segment_colour(p, p + 9) == 1;
        }
    }
    ck_assert_int_eq(red, 72);
    ck_assert_int_eq(blue, 72);
    /* Every cell: three sides of one colour, one of the other. */
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            int p = r * 9 + c;
            int sides = brax_segment_colour(p, p + 1) + brax_segment_colour(p, p + 9) +
                        brax_segment_colour(p + 9, p + 10) + brax_segment_colour(p + 1, p + 10);
            ck_assert_msg(sides == 1 || sides == 3, "cell %c%d", 'a' + c, r + 1);
        }
    /* A half turn that swaps the colours leaves the board as it was. */
    for (int a = 0; a < 81; a++)
        for (int b = a + 1; b < 81; b++) {
            int c = brax_segment_colour(a, b);
            if (c >= 0)
                ck_assert_int_eq(brax_segment_colour(80 - a, 80 - b), 1 - c);
        }
    /* Seed 000's checks (blue 1, red 0). */
    ck_assert_int_eq(brax_segment_colour(pt("e3"), pt("e4")), 1);
    ck_assert_int_eq(brax_segment_colour(pt("e4"), pt("e5")), 1);
    ck_assert_int_eq(brax_segment_colour(pt("e4"), pt("d4")), 1);
    ck_assert_int_eq(brax_segment_colour(pt("e3"), pt("d3")), 1);
    ck_assert_int_eq(brax_segment_colour(pt("d3"), pt("c3")), 1);
    ck_assert_int_eq(brax_segment_colour(pt("d3"), pt("d2")), 1);
    ck_assert_int_eq(brax_segment_colour(pt("e3"), pt("f3")), 0);
    ck_assert_int_eq(brax_segment_colour(pt("e3"), pt("e2")), 0);
    ck_assert_int_eq(brax_segment_colour(pt("e6"), pt("f6")), 0);
    ck_assert_int_eq(brax_segment_colour(pt("f6"), pt("f5")), 0);
    ck_assert_int_eq(brax_segment_colour(pt("e6"), pt("d6")), 1);
}
END_TEST

/* ---- seed 000's examples ---- */

START_TEST(seed_example_blue_on_e3)
{
    position_t pos;
    setup(&brax_denham, &pos, "a1", "e3", 'b', "-");
    ck_assert_str_eq(move_list(&brax_denham, &pos), "e3c3 e3d2 e3d3 e3d4 e3e2 e3e4 e3e5 e3f3");
}
END_TEST

START_TEST(seed_example_red_on_e6_captures)
{
    position_t pos;
    setup(&brax_denham, &pos, "e6 a1", "f6 f5 d6 i9", 'r', "-");
    ck_assert(is_legal(&brax_denham, &pos, "e6f6f5"));
    ck_assert(is_legal(&brax_denham, &pos, "e6d6"));
    play(&brax_denham, &pos, "e6f6f5");
    char want[GAME_FEN_MAX];
    fen_from(want, "f5 a1", "d6 i9", 'b', "-", 0);
    ck_assert_str_eq(fen_of(&brax_denham, &pos), want);
    /* Without double captures the same move does not exist. */
    setup(&brax_zillions, &pos, "e6 a1", "f6 f5 d6 i9", 'r', "-");
    ck_assert(!is_legal(&brax_zillions, &pos, "e6f6f5"));
    ck_assert(is_legal(&brax_zillions, &pos, "e6d6"));
}
END_TEST

START_TEST(seed_example_forced_reply_of_f5)
{
    position_t pos;
    setup(&brax_denham, &pos, "d6 a1", "f5 b8 h2", 'r', "-");
    play(&brax_denham, &pos, "d6e6+");
    const char *list = move_list(&brax_denham, &pos);
    ck_assert(strstr(list, "f5e4"));
    ck_assert(strstr(list, "f5g4"));
    ck_assert(strstr(list, "f5g6"));
    ck_assert(strstr(list, "f5f6"));
    /* Only the threatened man may move. */
    for (const char *c = list; *c; c = strchr(c, ' ') ? strchr(c, ' ') + 1 : c + strlen(c))
        ck_assert_msg(strncmp(c, "f5", 2) == 0, "%s", list);
}
END_TEST

/* ---- calls ---- */

START_TEST(call_needs_a_threat)
{
    position_t pos;
    setup(&brax_denham, &pos, "a1 b1", "h9 i9 g9", 'r', "-");
    ck_assert(!strchr(move_list(&brax_denham, &pos), '+'));
    setup(&brax_denham, &pos, "d6 a1", "f5 b8 h2", 'r', "-");
    ck_assert(is_legal(&brax_denham, &pos, "d6e6+"));
    ck_assert(!is_legal(&brax_denham, &pos, "d6c6+"));
}
END_TEST

START_TEST(call_after_call)
{
    /* Red called last turn: in brax red may not call now, in zillions it may. */
    position_t pos;
    setup(&brax_denham, &pos, "d6 a1 a2", "f5 b8 h2", 'r', "r");
    ck_assert(!strchr(move_list(&brax_denham, &pos), '+'));
    setup(&brax_zillions, &pos, "d6 a1 a2", "f5 b8 h2", 'r', "r");
    ck_assert(is_legal(&brax_zillions, &pos, "d6e6+"));
    setup(&brax_easy, &pos, "d6 a1 a2", "f5 b8 h2", 'r', "-");
    ck_assert(!strchr(move_list(&brax_easy, &pos), '+'));
}
END_TEST

START_TEST(call_material_limits)
{
    position_t pos;
    /* brax: one man against two: nobody calls. */
    setup(&brax_denham, &pos, "d6", "f5 h2", 'r', "-");
    ck_assert(!is_legal(&brax_denham, &pos, "d6e6+"));
    setup(&brax_denham, &pos, "d6 a1", "f5", 'r', "-");
    ck_assert(!is_legal(&brax_denham, &pos, "d6e6+"));
    setup(&brax_denham, &pos, "d6", "f5 h2 b8", 'r', "-");
    ck_assert(is_legal(&brax_denham, &pos, "d6e6+"));
    /* zillions: the caller needs two men and the opponent three. */
    setup(&brax_zillions, &pos, "d6", "f5 h2 b8", 'r', "-");
    ck_assert(!is_legal(&brax_zillions, &pos, "d6e6+"));
    setup(&brax_zillions, &pos, "d6 a1", "f5 h2", 'r', "-");
    ck_assert(!is_legal(&brax_zillions, &pos, "d6e6+"));
    setup(&brax_zillions, &pos, "d6 a1", "f5 h2 b8", 'r', "-");
    ck_assert(is_legal(&brax_zillions, &pos, "d6e6+"));
}
END_TEST

/* After a call only the threatened men may move (here b9 and a8, next to
 * red b8). In two-player Brax a threatened man always has a move (it can
 * take an adjacent attacker, or step into the empty middle of the attacking
 * 2-step), so the rule's lapse shows only when the caller threatens nothing
 * any more: then every move is free. */
START_TEST(forced_reply_and_its_lapse)
{
    position_t pos;
    setup(&brax_denham, &pos, "c8 a1", "a9 b9 a8 h2", 'r', "-");
    play(&brax_denham, &pos, "c8b8+");
    const char *list = move_list(&brax_denham, &pos);
    for (const char *c = list; *c; c = strchr(c, ' ') ? strchr(c, ' ') + 1 : c + strlen(c))
        ck_assert_msg(strncmp(c, "b9", 2) == 0 || strncmp(c, "a8", 2) == 0, "%s", list);
    ck_assert(strstr(list, "b9b8"));
    /* Red called last, but threatens nothing: blue moves freely. */
    setup(&brax_denham, &pos, "a1 a2", "i9 h9 b5", 'b', "r");
    list = move_list(&brax_denham, &pos);
    ck_assert(strstr(list, "b5") && strstr(list, "i9") && strstr(list, "h9"));
}
END_TEST

/* ---- moves ---- */

START_TEST(two_step_over_an_enemy_onto_empty_is_illegal)
{
    position_t pos;
    /* Red e6 with blue f6 and f5 empty: e6-f6-f5 would pass over f6. */
    setup(&brax_denham, &pos, "e6 a1", "f6 i9", 'r', "-");
    ck_assert(!is_legal(&brax_denham, &pos, "e6f5"));
    ck_assert(!is_legal(&brax_denham, &pos, "e6f6f5"));
    ck_assert(is_legal(&brax_denham, &pos, "e6f6"));
}
END_TEST

START_TEST(capture_through_a_turn)
{
    position_t pos;
    /* Blue e3 turns at e4 to take red d4 (e3-e4 and e4-d4 are blue). */
    setup(&brax_denham, &pos, "d4 a1", "e3 i9", 'b', "-");
    ck_assert(is_legal(&brax_denham, &pos, "e3d4"));
    ck_assert(is_legal(&brax_denham, &pos, "e3e4d4"));
    ck_assert_uint_eq(brax_denham.parse_move(&pos, "e3e4d4"), brax_denham.parse_move(&pos, "e3d4"));
    /* A middle point that is not on a blue path is refused. */
    ck_assert(!is_legal(&brax_denham, &pos, "e3d3d4"));
    play(&brax_denham, &pos, "e3d4");
    char want[GAME_FEN_MAX];
    fen_from(want, "a1", "d4 i9", 'r', "-", 0);
    ck_assert_str_eq(fen_of(&brax_denham, &pos), want);
}
END_TEST

START_TEST(moves_cannot_return_or_pass_own_men)
{
    position_t pos;
    setup(&brax_denham, &pos, "a1", "e3 e4", 'b', "-");
    ck_assert(!is_legal(&brax_denham, &pos, "e3e5"));
    ck_assert(!is_legal(&brax_denham, &pos, "e3e3"));
    ck_assert(!is_legal(&brax_denham, &pos, "e3e4"));
}
END_TEST

/* ---- end of the game ---- */

START_TEST(losing_the_last_man_loses)
{
    position_t pos;
    setup(&brax_denham, &pos, "e5 a1", "e6", 'r', "-");
    play(&brax_denham, &pos, "e5e6");
    move_t moves[MAX_MOVES];
    ck_assert_int_eq(brax_denham.gen_moves(&pos, moves), 0);
    outcome_t o = brax_denham.outcome(&pos);
    ck_assert_int_eq(o.kind, OUTCOME_WIN);
    ck_assert_int_eq(o.players, player_bit(0));
}
END_TEST

/* A side with men always has a move in two-player Brax (some man borders a
 * point that is not its own), so "no legal move" is reached here only by
 * having no men; the outcome code for both is the mover's loss. */
START_TEST(side_to_move_without_men_loses)
{
    position_t pos;
    setup(&brax_denham, &pos, "a1", "", 'b', "-");
    move_t moves[MAX_MOVES];
    ck_assert_int_eq(brax_denham.gen_moves(&pos, moves), 0);
    outcome_t o = brax_denham.outcome(&pos);
    ck_assert_int_eq(o.kind, OUTCOME_WIN);
    ck_assert_int_eq(o.players, player_bit(0));
}
END_TEST

START_TEST(one_against_one_draws_after_ten_quiet_moves)
{
    const game_t *g = variants[_i];
    position_t pos;
    char fen[GAME_FEN_MAX];
    fen_from(fen, "a1", "i9", 'r', "-", 0);
    load_fen(g, &pos, fen);
    static const char *const shuffle[4] = {"a1a2", "i9i8", "a2a1", "i8i9"};
    for (int i = 0; i < 10; i++) {
        outcome_t o;
        ck_assert(!g->decided(&pos, &o));
        play(g, &pos, shuffle[i % 4]);
    }
    move_t moves[MAX_MOVES];
    ck_assert_int_eq(g->gen_moves(&pos, moves), 0);
    ck_assert_int_eq(g->outcome(&pos).kind, OUTCOME_DRAW);
}
END_TEST

/* Issue 11: one man against one, the quiet plies decide the draw, so the
 * search's table must tell the counts apart; repetition must not (settled
 * point 13), and with more men the count changes nothing. */
START_TEST(table_key_holds_the_quiet_plies_one_against_one)
{
    const game_t *g = variants[_i];
    position_t a, b;
    char fen[GAME_FEN_MAX];
    fen_from(fen, "a1", "i9", 'r', "-", 3);
    load_fen(g, &a, fen);
    fen_from(fen, "a1", "i9", 'r', "-", 9);
    load_fen(g, &b, fen);
    ck_assert(g->tt_key(&a) != g->tt_key(&b));
    ck_assert_uint_eq(g->hash(&a), g->hash(&b));
    fen_from(fen, "a1 a2", "i9", 'r', "-", 3);
    load_fen(g, &a, fen);
    fen_from(fen, "a1 a2", "i9", 'r', "-", 9);
    load_fen(g, &b, fen);
    ck_assert_uint_eq(g->tt_key(&a), g->tt_key(&b));
}
END_TEST

START_TEST(threefold_repetition_draws)
{
    static record_t r;
    position_t pos;
    setup(&brax_denham, &pos, "a1 a2", "i9 i8", 'r', "-");
    record_init(&r, &brax_denham, &pos);
    static const char *const cycle[4] = {"a1b1", "i9h9", "b1a1", "h9i9"};
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(record_outcome(&r).kind, OUTCOME_NONE);
        record_play(&r, brax_denham.parse_move(&r.pos, cycle[i % 4]));
    }
    ck_assert_int_eq(record_outcome(&r).kind, OUTCOME_DRAW);
}
END_TEST

START_TEST(fen_and_move_text_round_trip)
{
    const game_t *g = variants[_i];
    position_t pos, again;
    g->set_start(&pos);
    for (int ply = 0; ply < 40; ply++) {
        load_fen(g, &again, fen_of(g, &pos));
        ck_assert(memcmp(&pos, &again, sizeof pos) == 0);
        move_t moves[MAX_MOVES];
        int n = g->gen_moves(&pos, moves);
        if (n == 0)
            break;
        for (int i = 0; i < n; i++) {
            char t[GAME_MOVE_TEXT_MAX];
            g->move_text(&pos, moves[i], t, sizeof t);
            ck_assert_uint_eq(g->parse_move(&pos, t), moves[i]);
        }
        undo_t u;
        g->make(&pos, moves[(ply * 7) % n], &u);
    }
    static const char *const bad[] = {"", "9/9 r - 0", "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 x - 0",
                                      "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r q 0",
                                      "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - -1",
                                      "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr2 r - 0",
                                      "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0 x", "rrrrrrrr1/9/9/9/9/9/9/9/9 r - 0"};
    char err[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!g->parse_fen(&pos, bad[i], err, sizeof err), "accepted '%s'", bad[i]);
}
END_TEST

/* ---- against the reference ---- */

static uint64_t ref_perft(const ref_brax_t *b, int depth)
{
    if (depth == 0)
        return 1;
    ref_brax_move_t moves[512];
    int n = ref_brax_moves(b, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        ref_brax_t next = *b;
        ref_brax_play(&next, &moves[i]);
        total += ref_perft(&next, depth - 1);
    }
    return total;
}

START_TEST(perft_matches_reference)
{
    const game_t *g = variants[_i];
    position_t pos;
    ref_brax_t ref;
    g->set_start(&pos);
    ck_assert(ref_brax_from_fen(&ref, fen_of(g, &pos), _i));
    for (int d = 1; d <= 3; d++)
        ck_assert_uint_eq(perft(g, &pos, d), ref_perft(&ref, d));
}
END_TEST

START_TEST(random_playouts_match_reference)
{
    const game_t *g = variants[_i];
    rng_t rng = {4242u + (uint64_t)_i};
    static move_text_t a[MAX_MOVES], b[MAX_MOVES];
    int calls_seen = 0, doubles_seen = 0;
    for (int game = 0; game < 150; game++) {
        position_t pos;
        ref_brax_t ref;
        g->set_start(&pos);
        ck_assert(ref_brax_from_fen(&ref, fen_of(g, &pos), _i));
        for (int ply = 0; ply < 250; ply++) {
            move_t moves[MAX_MOVES];
            ref_brax_move_t rmoves[512];
            int n = g->gen_moves(&pos, moves), rn = ref_brax_moves(&ref, rmoves);
            ck_assert_int_eq(n, rn);
            ck_assert_int_eq(g->count_moves(&pos), n); /* perft's count by masks */
            for (int i = 0; i < n; i++) {
                g->move_text(&pos, moves[i], a[i], sizeof a[i]);
                strcpy(b[i], rmoves[i].text);
            }
            assert_same_texts(a, b, n);
            outcome_t o = g->outcome(&pos);
            char mine = o.kind == OUTCOME_NONE ? 'n' : o.kind == OUTCOME_DRAW ? '=' : o.players == player_bit(1) ? 'b' : 'r';
            ck_assert_int_eq(mine, ref_brax_result(&ref));
            if (n == 0)
                break;
            /* Prefer captures and calls now and then, to reach them often. */
            int k = (int)rng_below(&rng, (uint32_t)n);
            for (int tries = 0; tries < 3 && !(moves[k] & MOVE_CAPTURE); tries++)
                k = (int)rng_below(&rng, (uint32_t)n);
            char text[GAME_MOVE_TEXT_MAX];
            g->move_text(&pos, moves[k], text, sizeof text);
            calls_seen += strchr(text, '+') != NULL;
            doubles_seen += strlen(text) >= 6 && text[4] != '+';
            play_checked(g, &pos, moves[k]);
            for (int i = 0; i < rn; i++)
                if (strcmp(rmoves[i].text, text) == 0) {
                    ref_brax_play(&ref, &rmoves[i]);
                    break;
                }
            char rfen[GAME_FEN_MAX];
            ref_brax_to_fen(&ref, rfen);
            assert_matches_fen(g, &pos, rfen);
        }
    }
    if (g != &brax_easy)
        ck_assert_int_gt(calls_seen, 0);
    if (g == &brax_denham)
        ck_assert_int_gt(doubles_seen, 0);
}
END_TEST

/* Two men against one is solved (84% of the positions with the two men
 * to move are drawn): a drawn one is evaluated as 0 from either side, a
 * won one keeps the two men's margin, as does a man up with more men;
 * the team games (other turns) solve nothing and keep the plain count. */
START_TEST(two_against_one_is_scored_as_solved)
{
    const game_t *g = variants[_i];
    position_t pos;
    char fen[GAME_FEN_MAX];
    ending_t e;
    fen_from(fen, "e4 f7", "d1", 'r', "-", 0); /* drawn: no margin at all */
    load_fen(g, &pos, fen);
    ck_assert(g->probe_ending(&pos, &e) && e.result == ENDING_DRAW);
    ck_assert_int_eq(g->evaluate(&pos, NULL), 0);
    eval_trace_t t = {0};
    fen_from(fen, "e4 f7", "d1", 'b', "-", 0); /* the lone man's view */
    load_fen(g, &pos, fen);
    ck_assert_int_eq(g->evaluate(&pos, &t), 0);
    ck_assert_int_lt(trace_term(&t, "two against one", 0), -50);
    fen_from(fen, "c1 h1", "a1", 'r', "-", 0); /* won (in 29 plies): the margin stays */
    load_fen(g, &pos, fen);
    ck_assert(g->probe_ending(&pos, &e) && e.result == ENDING_WIN);
    ck_assert_int_ge(g->evaluate(&pos, NULL), 80);
    fen_from(fen, "e4 f7 b8", "d1 h2", 'r', "-", 0);
    load_fen(g, &pos, fen);
    ck_assert(!g->probe_ending(&pos, &e));
    ck_assert_int_ge(g->evaluate(&pos, NULL), 80);
    load_fen(&brax_4p, &pos, "9/9/9/9/9/4r4/9/9/3b1R3 r - - - 0"); /* South and North against West */
    ck_assert_ptr_null(brax_4p.probe_ending); /* the team games solve nothing */
    ck_assert_ptr_null(brax_3p.probe_ending);
    ck_assert_int_ge(brax_4p.evaluate(&pos, NULL), 80);
}
END_TEST

/* ---- the solved endings against the Brax module's own moves ---- */

static void point_text(int p, char *out)
{
    out[0] = (char)('a' + p % 9);
    out[1] = (char)('1' + p / 9);
    out[2] = ' ';
    out[3] = 0;
}

/* The value a position must have given its children's (probed, or the
 * end of the game): the shortest win, else a draw, else the longest
 * loss. */
static ending_t value_from_children(const game_t *g, position_t *pos)
{
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves), win = -1, loss = -1;
    bool draw = false;
    for (int i = 0; i < n; i++) {
        undo_t u;
        g->make(pos, moves[i], &u);
        ending_t child;
        outcome_t o;
        if (g->decided(pos, &o)) { /* the last man taken, or ten quiet plies */
            if (o.kind == OUTCOME_WIN && (o.players & player_bit(g->to_move(pos))))
                ck_abort_msg("a move made its own mover the winner");
            child = (ending_t){o.kind == OUTCOME_WIN ? ENDING_LOSS : ENDING_DRAW, 0};
        } else {
            if (!g->probe_ending(pos, &child))
                ck_abort_msg("a move leaves the solved endings");
        }
        g->unmake(pos, moves[i], &u);
        if (child.result == ENDING_LOSS && (win < 0 || child.plies + 1 < win))
            win = child.plies + 1;
        else if (child.result == ENDING_WIN && child.plies + 1 > loss)
            loss = child.plies + 1;
        draw |= child.result == ENDING_DRAW;
    }
    if (win >= 0)
        return (ending_t){ENDING_WIN, win};
    if (draw)
        return (ending_t){ENDING_DRAW, 0};
    return (ending_t){ENDING_LOSS, loss < 0 ? 0 : loss};
}

/* Checks one position: its probe against its children's. Counts its
 * result for the two men (index 0: the two men to move). */
static void check_solved(const game_t *g, const char *red, const char *blue, char side, int quiet, long counts[2][3])
{
    char fen[GAME_FEN_MAX];
    position_t pos;
    fen_from(fen, red, blue, side, "-", quiet);
    load_fen(g, &pos, fen);
    ending_t probed, expected;
    outcome_t o;
    /* ck_abort_msg, not ck_assert: this runs millions of times, and each
     * ck_assert reports its line to the test runner. */
    if (!g->probe_ending(&pos, &probed))
        ck_abort_msg("%s not probed", fen);
    if (g->decided(&pos, &o)) { /* one against one after ten quiet plies */
        if (o.kind != OUTCOME_DRAW || probed.result != ENDING_DRAW)
            ck_abort_msg("%s: over, and not a draw", fen);
        return;
    }
    expected = value_from_children(g, &pos);
    if (probed.result != expected.result || probed.plies != expected.plies)
        ck_abort_msg("%s: probed %d in %d, the moves give %d in %d", fen, probed.result, probed.plies,
                     expected.result, expected.plies);
    if (counts) {
        bool lone_moves = (side == 'r') != (strlen(red) > strlen(blue));
        int for_two = lone_moves ? -probed.result : probed.result;
        counts[lone_moves][for_two + 1]++;
    }
}

/* Every position of two red men against one blue (and, the colours
 * swapped, two blue against one red), either side to move; then every
 * one against one at every count of quiet plies. A table consistent with
 * every move (and with the game's ends) is the solution: a position
 * wrongly called drawn, won or lost would break the rule at the nearest
 * wrongly called position to the end. */
START_TEST(solved_endings_agree_with_the_moves)
{
    const game_t *g = _i == 0 ? &brax_denham : &brax_zillions;
    long counts[2][3] = {{0}}; /* [lone man to move][two men lose, draw, win] */
    char a[4], b[4], c[4], two[8];
    for (int pa = 0; pa < 81; pa++)
        for (int pb = pa + 1; pb < 81; pb++)
            for (int pc = 0; pc < 81; pc++) {
                if (pc == pa || pc == pb)
                    continue;
                point_text(pa, a);
                point_text(pb, b);
                point_text(pc, c);
                snprintf(two, sizeof two, "%s%s", a, b);
                for (int side = 0; side < 2; side++) {
                    check_solved(g, two, c, side ? 'b' : 'r', 0, counts);
                    check_solved(g, c, two, side ? 'b' : 'r', 0, counts);
                }
            }
    for (int pa = 0; pa < 81; pa++)
        for (int pb = 0; pb < 81; pb++)
            for (int q = 0; q <= 10 && pa != pb; q++) {
                point_text(pa, a);
                point_text(pb, b);
                check_solved(g, a, b, 'r', q, NULL);
                check_solved(g, a, b, 'b', q, NULL);
            }
    /* The counts of the separate solver in bench/speed/brax_endings.c, which
     * works through the game interface alone (`bench_denham brax-endings`). */
    static const long expected[2][2][3] = {
        {{0, 430470, 81450}, {354, 507256, 4310}}, /* brax */
        {{0, 430414, 81506}, {18, 507526, 4376}},  /* brax-zillions */
    };
    for (int l = 0; l < 2; l++)
        for (int r = 0; r < 3; r++)
            ck_assert_int_eq(counts[l][r], expected[_i][l][r]);
}
END_TEST

/* brax-hunt shares brax's table, brax-easy brax-zillions': checked on
 * a sample of positions through their own moves. */
START_TEST(shared_endings_agree_with_the_moves)
{
    const game_t *g = _i == 0 ? &brax_hunt : &brax_easy;
    rng_t rng = {0x5EED0000u + (unsigned)_i};
    char a[4], b[4], c[4], two[8];
    for (int k = 0; k < 20000; k++) {
        int pa = (int)(rng_next(&rng) % 81), pb = (int)(rng_next(&rng) % 81), pc = (int)(rng_next(&rng) % 81);
        if (pa == pb || pa == pc || pb == pc)
            continue;
        point_text(pa, a);
        point_text(pb, b);
        point_text(pc, c);
        snprintf(two, sizeof two, "%s%s", a, b);
        bool red_two = rng_next(&rng) & 1;
        check_solved(g, red_two ? two : c, red_two ? c : two, rng_next(&rng) & 1 ? 'b' : 'r', 0, NULL);
    }
}
END_TEST

Suite *suite_brax(void)
{
    Suite *s = suite_create("brax");
    TCase *rules = tcase_create("rules");
    tcase_add_test(rules, colouring_is_the_published_board);
    tcase_add_test(rules, seed_example_blue_on_e3);
    tcase_add_test(rules, seed_example_red_on_e6_captures);
    tcase_add_test(rules, seed_example_forced_reply_of_f5);
    tcase_add_test(rules, call_needs_a_threat);
    tcase_add_test(rules, call_after_call);
    tcase_add_test(rules, call_material_limits);
    tcase_add_test(rules, forced_reply_and_its_lapse);
    tcase_add_test(rules, two_step_over_an_enemy_onto_empty_is_illegal);
    tcase_add_test(rules, capture_through_a_turn);
    tcase_add_test(rules, moves_cannot_return_or_pass_own_men);
    tcase_add_test(rules, losing_the_last_man_loses);
    tcase_add_test(rules, side_to_move_without_men_loses);
    tcase_add_loop_test(rules, one_against_one_draws_after_ten_quiet_moves, 0, 4);
    tcase_add_loop_test(rules, table_key_holds_the_quiet_plies_one_against_one, 0, 4);
    tcase_add_test(rules, threefold_repetition_draws);
    tcase_add_loop_test(rules, fen_and_move_text_round_trip, 0, 4);
    tcase_add_loop_test(rules, two_against_one_is_scored_as_solved, 0, 4);
    suite_add_tcase(s, rules);
    TCase *endings = tcase_create("endings");
    tcase_set_timeout(endings, 600);
    tcase_add_loop_test(endings, solved_endings_agree_with_the_moves, 0, 2);
    tcase_add_loop_test(endings, shared_endings_agree_with_the_moves, 0, 2);
    suite_add_tcase(s, endings);
    TCase *ref = tcase_create("reference");
    tcase_set_timeout(ref, 300);
    tcase_add_loop_test(ref, perft_matches_reference, 0, 4);
    tcase_add_loop_test(ref, random_playouts_match_reference, 0, 4);
    suite_add_tcase(s, ref);
    return s;
}
