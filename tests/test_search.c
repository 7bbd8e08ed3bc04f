/* test_search.c: the searcher on Brandubh positions with known answers. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "../engine/games/bolix/bolix.h"
#include "../engine/games/brandubh/brandubh.h"
#include "../engine/games/brax/brax.h"
#include "../engine/games/jinxx/jinxx.h"
#include "../engine/games/variants.h"
#include "../engine/search/bench.h"
#include "../engine/search/search_ctx.h"
#include "../engine/search/skill.h"
#include "helpers.h"
#include "ref_search.h"

static searcher_t *S;

static void setup(void) { S = searcher_new(4); }
static void teardown(void) { searcher_free(S); }

/* Searches fen to depth on a cleared table with the given history and
 * search modes. */
static search_result_t search_with(const game_t *g, const char *fen, int depth, const uint64_t *hist, int hist_len,
                                   multiplayer_t multi, chance_pruning_t pruning)
{
    search_request_t req = {0};
    req.game = g;
    load_fen(g, &req.root, fen);
    limits_init(&req.limits);
    req.limits.depth = depth;
    req.history = hist;
    req.history_len = hist_len;
    req.multiplayer = multi;
    req.chance_pruning = pruning;
    searcher_clear(S);
    search_reset_stop(S);
    return search_run(S, &req);
}

/* A request for fen (NULL: the game's start) with no limits set. */
static search_request_t request(const game_t *g, const char *fen)
{
    search_request_t req = {0};
    req.game = g;
    if (fen)
        load_fen(g, &req.root, fen);
    else
        g->set_start(&req.root);
    limits_init(&req.limits);
    return req;
}

/* Runs req on a cleared table. */
static search_result_t run_cleared(const search_request_t *req)
{
    searcher_clear(S);
    search_reset_stop(S);
    return search_run(S, req);
}

static search_result_t search_mode(const game_t *g, const char *fen, int depth, multiplayer_t multi,
                                   chance_pruning_t pruning)
{
    return search_with(g, fen, depth, NULL, 0, multi, pruning);
}

static search_result_t search_fen(const game_t *g, const char *fen, int depth, const uint64_t *hist, int hist_len)
{
    return search_with(g, fen, depth, hist, hist_len, MULTI_PARANOID, CHANCE_STAR2);
}

static const char *text(const game_t *g, const char *fen, move_t m)
{
    static char buf[GAME_MOVE_TEXT_MAX];
    position_t pos;
    load_fen(g, &pos, fen);
    g->move_text(&pos, m, buf, sizeof buf);
    return buf;
}

START_TEST(defenders_take_the_open_corner)
{
    char fen[GAME_FEN_MAX];
    bdb_fen(fen, "d1 d6 f4", "e5", "c1", 'd');
    search_result_t r = search_fen(&brandubh_v1, fen, 4, NULL, 0);
    ck_assert_str_eq(text(&brandubh_v1, fen, r.best), "c1a1");
    int moves;
    ck_assert(search_score_is_mate(r.score, &moves));
    ck_assert_int_eq(moves, 1);
}
END_TEST

START_TEST(attackers_capture_the_king)
{
    char fen[GAME_FEN_MAX];
    bdb_fen(fen, "b2 g2 a6", "e6", "c2", 'a');
    search_result_t r = search_fen(&brandubh_v1, fen, 3, NULL, 0);
    ck_assert_str_eq(text(&brandubh_v1, fen, r.best), "g2d2");
    int moves;
    ck_assert(search_score_is_mate(r.score, &moves));
    ck_assert_int_eq(moves, 1);
}
END_TEST

/* The king on c1 sees a1; the attackers must shut b1 or lose at once. */
START_TEST(attackers_block_the_escape)
{
    const game_t *g = &brandubh_v1;
    char fen[GAME_FEN_MAX];
    bdb_fen(fen, "d1 b4 d6 f5", "e5", "c1", 'a');
    search_result_t r = search_fen(g, fen, 5, NULL, 0);
    ck_assert_int_gt(r.score, -SCORE_WIN_BOUND);
    position_t pos;
    load_fen(g, &pos, fen);
    undo_t u;
    g->make(&pos, r.best, &u);
    move_t replies[MAX_MOVES];
    int n = g->gen_moves(&pos, replies);
    for (int i = 0; i < n; i++) {
        position_t after = pos;
        g->make(&after, replies[i], &u);
        outcome_t o;
        ck_assert(!(g->decided(&after, &o) && o.players == player_bit(1)));
    }
}
END_TEST

/* The defenders lose by force unless they repeat a position. Seen twice
 * before, its third occurrence draws and the search must choose it; seen once,
 * the attackers may deviate there, and the search must not count it a draw.
 * The history is the real cycle d3c3 a3a2 c3d3 a2a3, once or twice. */
START_TEST(search_honours_repetition_in_history)
{
    const game_t *g = &brandubh_v1;
    char fen[GAME_FEN_MAX];
    bdb_fen(fen, "c4 e4 d5 d1 a3 g3", "d3", "d4", 'd');
    search_result_t lost = search_fen(g, fen, 4, NULL, 0);
    ck_assert_int_le(lost.score, -SCORE_WIN_BOUND);

    position_t pos;
    load_fen(g, &pos, fen);
    uint64_t root_key = g->hash(&pos), hist[8];
    int n = 0;
    for (int cycle = 0; cycle < 2; cycle++) {
        static const char *const moves[] = {"d3c3", "a3a2", "c3d3", "a2a3"};
        for (int k = 0; k < 4; k++) {
            play(g, &pos, moves[k]);
            hist[n++] = g->hash(&pos);
        }
    }
    ck_assert_uint_eq(hist[3], root_key); /* the cycle is back at the root */
    search_result_t third = search_fen(g, fen, 4, hist, 7);
    ck_assert_str_eq(text(g, fen, third.best), "d3c3");
    ck_assert_int_eq(third.score, SCORE_DRAW);

    search_result_t second = search_fen(g, fen, 4, hist, 3);
    ck_assert_int_ne(second.score, SCORE_DRAW);
    ck_assert_int_le(second.score, -SCORE_WIN_BOUND);
}
END_TEST

/* The search's time budget is the game's: Brandubh shares a sudden-death
 * clock over 15 moves, the other games over the default. */
START_TEST(search_budget_follows_the_game)
{
    static const struct { const char *variant; int plan; } games[] = {
        {"brandubh", 15}, {"brandubh-v2", 15}, {"brax", 0}, {"bolix", 15}, {"jinxx", 0},
    };
    static ctx_t c; /* large: kept off the stack */
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        search_request_t req = request(variants_find(games[i].variant), NULL);
        int p = req.game->to_move(&req.root);
        req.limits.time[p] = 1000;
        req.limits.inc[p] = 10;
        req.overhead_ms = 30;
        ctx_init(&c, S, &req, 0);
        time_budget_t want = timeman_budget(&req.limits, p, req.overhead_ms, games[i].plan);
        ck_assert_msg(c.budget.soft_ms == want.soft_ms && c.budget.hard_ms == want.hard_ms, "%s: %lld, %lld",
                      games[i].variant, (long long)c.budget.soft_ms, (long long)want.soft_ms);
    }
}
END_TEST

/* Whether the last of keys (root at root_index, the scan from first) is a
 * repetition as the search counts one. */
static bool repeats(const uint64_t *keys, int n, int root_index, int first)
{
    static ctx_t c; /* large: kept off the stack */
    memset(&c, 0, sizeof c);
    memcpy(c.keys, keys, (size_t)n * sizeof *keys);
    c.key_count = n;
    c.root_index = root_index;
    c.rev_from[1] = first;
    return is_repetition(&c, 1);
}

/* The rule itself, key by key: a return to the root or to a position of the
 * line draws; a position of the game before the root draws only the third
 * time; nothing before the last irreversible move counts. */
START_TEST(repetition_counts_the_line_and_the_third_occurrence)
{
    enum { X = 1, Y, R, Z };
    ck_assert(repeats((uint64_t[]){X, Y, R, Z, R}, 5, 2, 0));        /* back at the root */
    ck_assert(repeats((uint64_t[]){X, R, Z, Y, Z}, 5, 1, 0));        /* a position of the line */
    ck_assert(!repeats((uint64_t[]){X, Y, R, Z, Y}, 5, 2, 0));       /* the game's, once before */
    ck_assert(repeats((uint64_t[]){Y, X, Y, R, Z, Y}, 6, 3, 0));     /* the game's, the third time */
    ck_assert(!repeats((uint64_t[]){Y, X, Y, R, Z, Y}, 6, 3, 1));    /* the first one before a capture */
    ck_assert(!repeats((uint64_t[]){X, Y, R, Z, R}, 5, 2, 3));       /* the root before a capture */
}
END_TEST

/* The second brandubh-v2 game Denham lost to OpenTafl (issue 33): the
 * attackers walked b4b3 back into a position the game had seen once, the
 * search counted it a draw without looking (two nodes an iteration), and the
 * king, bound to nothing, left the cycle with c3e3 and won. Searched, b4b3
 * loses by force within depth 11 (10 before brandubh-v2's "free king"
 * weight, which prizes the defenders' captures on the way). */
START_TEST(a_position_seen_once_before_the_root_is_searched)
{
    const game_t *g = &brandubh_v2;
    static const char *const game[] = {"a4a5", "c4c1", "d6b6", "d5b5", "b4b3", "b5g5", "b6g6", "e4e1", "d2d1",
                                       "d3f3", "g4g3", "d4d5", "g3g5", "d5c5", "b3b2", "e1e2", "g6c6", "c5c3",
                                       "a5a3", "f3f2", "g5g3", "e2e1", "b2b3", "c3c4", "b3b4", "c4c3"};
    enum { PLIES = sizeof game / sizeof *game };
    search_request_t req = request(g, NULL);
    uint64_t hist[PLIES];
    for (int i = 0; i < PLIES; i++) {
        hist[i] = g->hash(&req.root);
        play(g, &req.root, game[i]);
    }
    req.history = hist;
    req.history_len = PLIES;
    move_t back = g->parse_move(&req.root, "b4b3");
    ck_assert(back != MOVE_NONE);
    req.root_moves = &back;
    req.n_root_moves = 1;
    req.limits.depth = 11;
    search_result_t r = run_cleared(&req);
    ck_assert_int_le(r.score, -SCORE_WIN_BOUND);
    ck_assert_uint_gt(r.nodes, 1000);
}
END_TEST

START_TEST(node_limit_is_kept)
{
    search_request_t req = {0};
    req.game = &brandubh_v1;
    brandubh_v1.set_start(&req.root);
    limits_init(&req.limits);
    req.limits.nodes = 5000;
    searcher_clear(S);
    search_reset_stop(S);
    search_result_t r = search_run(S, &req);
    ck_assert(r.best != MOVE_NONE);
    ck_assert_uint_le(r.nodes, 5000 + 256);
    ck_assert_uint_ge(r.nodes, 5000);
}
END_TEST

START_TEST(stop_before_start_still_gives_a_legal_move)
{
    search_request_t req = {0};
    req.game = &brandubh_v1;
    brandubh_v1.set_start(&req.root);
    limits_init(&req.limits);
    req.limits.infinite = true;
    searcher_clear(S);
    search_reset_stop(S);
    search_stop(S);
    search_result_t r = search_run(S, &req);
    char t[GAME_MOVE_TEXT_MAX];
    brandubh_v1.move_text(&req.root, r.best, t, sizeof t);
    ck_assert(brandubh_v1.parse_move(&req.root, t) == r.best);
}
END_TEST

START_TEST(no_move_at_a_finished_game)
{
    char fen[GAME_FEN_MAX];
    bdb_fen(fen, "d1", "e5", "a1", 'a');
    search_result_t r = search_fen(&brandubh_v1, fen, 3, NULL, 0);
    ck_assert_uint_eq(r.best, MOVE_NONE);
}
END_TEST

START_TEST(bench_is_deterministic)
{
    bench_result_t a, b;
    bench_options_t o = bench_options_default();
    ck_assert(bench_run(&brandubh_v1, S, 5, &o, NULL, NULL, &a));
    ck_assert(bench_run(&brandubh_v1, S, 5, &o, NULL, NULL, &b));
    ck_assert_uint_gt(a.nodes, 0);
    ck_assert_uint_eq(a.nodes, b.nodes);
    ck_assert_int_eq(a.positions, 6);
}
END_TEST

/* Red to move can take an undefended blue man: depth 1 must take it. */
START_TEST(brax_takes_free_material_at_depth_1)
{
    static const char *const cases[][2] = {
        /* 1-step capture of d5 (no blue man can retake; not into two
         * against one, a solved ending that is mostly a draw). */
        {"b7b/9/9/9/3b5/3r5/9/9/r7r r - 0", "d4d5"},
        /* double capture e6f6f5 along red lines. */
        {"8b/9/9/4rb3/5b3/9/9/9/r8 r - 0", "e6f6f5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        search_result_t r = search_fen(&brax_denham, cases[i][0], 1, NULL, 0);
        const char *t = text(&brax_denham, cases[i][0], r.best);
        ck_assert_msg(strncmp(t, cases[i][1], strlen(cases[i][1])) == 0, "%s: played %s, wanted %s", cases[i][0],
                      t, cases[i][1]);
    }
}
END_TEST

/* After the engine's move at its normal depth, no red man hangs: every blue
 * capture can be answered by a red capture. */
START_TEST(brax_leaves_nothing_en_prise)
{
    static const char *const fens[] = {
        /* Red d4 is attacked by blue d5 (1-step) and can step away. */
        "8b/9/9/9/3b5/3r5/9/9/r7r r - 0",
        "9/1b5b1/9/3bb1b2/2b1rb3/3r2r2/2r2r3/1r5r1/9 r - 0",
        "9/4b4/2b3b2/3bbb3/9/3rrr3/2r3r2/9/9 r - 0",
    };
    const game_t *g = &brax_denham;
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        search_result_t r = search_fen(g, fens[f], 6, NULL, 0);
        position_t pos;
        load_fen(g, &pos, fens[f]);
        int red_before = 0;
        for (const char *c = fens[f]; *c && *c != ' '; c++)
            red_before += *c == 'r';
        undo_t u;
        g->make(&pos, r.best, &u);
        move_t replies[MAX_MOVES];
        int n = g->gen_moves(&pos, replies);
        for (int i = 0; i < n; i++) {
            if (!(replies[i] & MOVE_CAPTURE))
                continue;
            position_t after = pos;
            undo_t u2;
            g->make(&after, replies[i], &u2);
            move_t answers[MAX_MOVES];
            int m = g->gen_moves(&after, answers), retakes = 0;
            for (int k = 0; k < m; k++)
                retakes += (answers[k] & MOVE_CAPTURE) != 0;
            char t[GAME_MOVE_TEXT_MAX];
            g->move_text(&pos, replies[i], t, sizeof t);
            ck_assert_msg(retakes > 0, "%s: after %s blue takes free with %s", fens[f],
                          text(g, fens[f], r.best), t);
        }
        ck_assert_int_gt(red_before, 0);
    }
}
END_TEST

/* Jinxx: a line completed now is found in every search mode, two players
 * and three (one out, so the free-for-all searches run), and it is worth
 * CHANCE_WIN: never a mate score. */
START_TEST(jinxx_completes_a_line)
{
    static const struct {
        const game_t *g;
        const char *fen;
    } cases[] = {
        {&jinxx_2p, "L2,M2,S1/L1,L1,./S2,.,. 000/000 p1 S 0"},
        {&jinxx_3p, "L2,M2,S1/L1,L1,./S2,.,. 000/000/x p1 S 0"},
    };
    for (int i = 0; i < 2; i++)
        for (int multi = 0; multi < 2; multi++)
            for (int pruning = 0; pruning < 3; pruning++)
                for (int depth = 1; depth <= 4; depth += 3) {
                    search_result_t r = search_mode(cases[i].g, cases[i].fen, depth, (multiplayer_t)multi,
                                                    (chance_pruning_t)pruning);
                    ck_assert_str_eq(text(cases[i].g, cases[i].fen, r.best), "Sc3c2");
                    ck_assert_int_eq(r.score, CHANCE_WIN);
                    int moves;
                    ck_assert(!search_score_is_mate(r.score, &moves));
                }
}
END_TEST

/* The die is rolled by the GUI or the runner: at a roll there is no move. */
START_TEST(jinxx_no_move_before_the_roll)
{
    search_result_t r = search_mode(&jinxx_2p, ".,.,./.,.,./.,.,. 333/333 p1 - 0", 3, MULTI_PARANOID, CHANCE_STAR2);
    ck_assert_uint_eq(r.best, MOVE_NONE);
}
END_TEST

/* North holds a3 and c1, the diagonal through the empty centre, and its S
 * on b1 reaches b2 with half the faces. Taking b2 would not help (an S
 * lands on anything), so South, rolling M, covers a3. */
START_TEST(jinxx_covers_a_threatened_line)
{
    const char *fen = "L2,.,./M1,.,./.,S2,L2 330/100 p1 M 0";
    for (int pruning = 0; pruning < 3; pruning++) {
        search_result_t r = search_mode(&jinxx_2p, fen, 4, MULTI_PARANOID, (chance_pruning_t)pruning);
        ck_assert_str_eq(text(&jinxx_2p, fen, r.best), "Ma2a3");
    }
}
END_TEST

/* Issue 14, defect 6: White wins at once with f3 or h8, but depth 1 takes
 * millions of quiescence nodes here; a win in one is played whatever the
 * limit (before the fix a 2 s search answered a1). */
START_TEST(a_win_in_one_is_never_missed)
{
    const game_t *g = variants_find("bolix");
    const char *fen = "2w1b1/2ww2b/2b1ww1b/b1wb2bwb/wbb4bb1/1w3bwbw1/b1wb4w/1wwww2w/wbw1b1b/1bwb1b w 14 15 - 0";
    search_request_t req = {0};
    req.game = g;
    load_fen(g, &req.root, fen);
    limits_init(&req.limits);
    req.limits.nodes = 1;
    searcher_clear(S);
    search_reset_stop(S);
    search_result_t r = search_run(S, &req);
    position_t pos = req.root;
    undo_t u;
    g->make(&pos, r.best, &u);
    outcome_t o;
    ck_assert(g->decided(&pos, &o) && o.kind == OUTCOME_WIN && o.players == player_bit(1));
}
END_TEST

/* ---- MultiPV and threads ---- */

/* The info lines of the deepest iteration reported. */
typedef struct collected {
    int depth, n;
    search_info_t info[SEARCH_MULTIPV_MAX];
} collected_t;

static void collect(void *ctx, const position_t *root, const search_info_t *info)
{
    (void)root;
    collected_t *c = ctx;
    if (info->depth != c->depth)
        c->depth = info->depth, c->n = 0;
    if (c->n < SEARCH_MULTIPV_MAX)
        c->info[c->n++] = *info;
}

/* The game's start position as text. */
static const char *start_fen(const game_t *g)
{
    static char buf[GAME_FEN_MAX];
    position_t pos;
    g->set_start(&pos);
    g->write_fen(&pos, buf, sizeof buf);
    return buf;
}

/* Every report: seldepth at least depth. */
static void check_seldepth(void *ctx, const position_t *root, const search_info_t *info)
{
    ck_assert_int_ge(info->seldepth, info->depth);
    collect(ctx, root, info);
}

static search_result_t search_lines(const game_t *g, const char *fen, int depth, int multipv, collected_t *out)
{
    search_request_t req = request(g, fen);
    req.limits.depth = depth;
    req.multipv = multipv;
    req.report = collect;
    req.report_ctx = out;
    *out = (collected_t){0};
    return run_cleared(&req);
}

/* Each iteration reports k lines numbered 1..k, best first, each with a
 * different first move; the first is the answer. */
START_TEST(multipv_reports_the_best_lines)
{
    const char *fen = start_fen(&brandubh_v1);
    collected_t c;
    search_result_t r = search_lines(&brandubh_v1, fen, 5, 4, &c);
    ck_assert_int_eq(c.depth, 5);
    ck_assert_int_eq(c.n, 4);
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(c.info[k].multipv, k + 1);
        ck_assert_int_gt(c.info[k].pv_len, 0);
        if (k > 0)
            ck_assert_int_le(c.info[k].score, c.info[k - 1].score);
        for (int j = 0; j < k; j++)
            ck_assert_uint_ne(c.info[k].pv[0], c.info[j].pv[0]);
    }
    ck_assert_uint_eq(r.best, c.info[0].pv[0]);
    ck_assert_int_eq(r.score, c.info[0].score);
    /* One line: no multipv field, as before the option. */
    search_lines(&brandubh_v1, fen, 3, 1, &c);
    ck_assert_int_eq(c.n, 1);
    ck_assert_int_eq(c.info[0].multipv, 0);
}
END_TEST

/* Asking for more lines than moves gives one line per legal move. */
START_TEST(multipv_covers_every_move_when_asked_for_more)
{
    const char *fen = start_fen(&brandubh_v1);
    position_t pos;
    load_fen(&brandubh_v1, &pos, fen);
    move_t moves[MAX_MOVES];
    int n = brandubh_v1.gen_moves(&pos, moves);
    ck_assert_int_lt(n, SEARCH_MULTIPV_MAX);
    collected_t c;
    search_lines(&brandubh_v1, fen, 2, SEARCH_MULTIPV_MAX, &c);
    ck_assert_int_eq(c.n, n);
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < c.n; k++)
            found += c.info[k].pv[0] == moves[i];
        ck_assert_int_eq(found, 1);
    }
}
END_TEST

/* With helper threads the forced wins are found as on one thread. */
START_TEST(threads_find_the_same_wins)
{
    ck_assert(!searcher_set_threads(S, 0));
    ck_assert(!searcher_set_threads(S, SEARCH_THREADS_MAX + 1));
    ck_assert(searcher_set_threads(S, 3));
    ck_assert_int_eq(searcher_threads(S), 3);
    char fen[GAME_FEN_MAX];
    bdb_fen(fen, "b2 g2 a6", "e6", "c2", 'a');
    for (int round = 0; round < 5; round++) {
        search_result_t r = search_fen(&brandubh_v1, fen, 6, NULL, 0);
        ck_assert_str_eq(text(&brandubh_v1, fen, r.best), "g2d2");
        int moves;
        ck_assert(search_score_is_mate(r.score, &moves));
        ck_assert_int_eq(moves, 1);
    }
    /* A deeper search from the start: every thread's nodes are counted. */
    collected_t c;
    search_result_t r = search_lines(&brandubh_v1, start_fen(&brandubh_v1), 7, 1, &c);
    ck_assert_int_eq(r.depth, 7);
    ck_assert_uint_ge(r.nodes, c.info[0].nodes);
    ck_assert(searcher_set_threads(S, 1));
    /* One thread: no helper to hand a line over (bench_denham smp counts
     * the lines that were a helper's). */
    r = search_lines(&brandubh_v1, start_fen(&brandubh_v1), 7, 1, &c);
    ck_assert(!r.from_helper);
}
END_TEST

/* Threads 0..n-1 of a search of req with helpers, the deepest depth
 * completed and begun set as given. */
static void threads_at(ctx_t *c, int n, const search_request_t *req, int completed, int started)
{
    for (int id = 0; id < n; id++) {
        ctx_init(&c[id], S, req, id);
        c[id].leapfrogs = true;
    }
    atomic_store(&S->completed_depth, completed);
    atomic_store(&S->started_depth, started);
}

/* Lazy SMP's division of work. In a game with dice the main thread and
 * the odd helpers take the depth above the deepest completed, the even
 * ones a depth ahead (above the deepest begun, at most two above the
 * deepest completed), and at a chance node the threads sharing a depth
 * start at rolls spread evenly. Without dice every thread runs ahead. */
START_TEST(threads_share_depths_and_split_rolls)
{
    static ctx_t c[4]; /* large: kept off the stack */
    ck_assert(searcher_set_threads(S, 4));
    search_request_t req = request(&jinxx_2p, NULL);
    threads_at(c, 4, &req, 5, 8);
    ck_assert_int_eq(threads_next_depth(&c[0], 2, 20), 6);
    ck_assert_int_eq(threads_next_depth(&c[1], 2, 20), 6);
    ck_assert_int_eq(threads_next_depth(&c[3], 2, 20), 6);
    ck_assert_int_eq(threads_next_depth(&c[2], 2, 20), 7);
    ck_assert_int_eq(threads_next_depth(&c[2], 9, 20), 9); /* never below the depth it asks for */
    ck_assert_int_eq(threads_next_depth(&c[0], 2, 4), 4);  /* nor above the limit */
    atomic_store(&S->started_depth, 5);
    ck_assert_int_eq(threads_next_depth(&c[2], 2, 20), 6);
    ck_assert_int_eq(atomic_load(&S->started_depth), 6);
    /* Four threads: the main one and helpers 1 and 3 share a depth. */
    ck_assert_int_eq(threads_first_outcome(&c[0], 6), 0);
    ck_assert_int_eq(threads_first_outcome(&c[1], 6), 2);
    ck_assert_int_eq(threads_first_outcome(&c[3], 6), 4);
    ck_assert_int_eq(threads_first_outcome(&c[2], 6), 0);
    ck_assert(searcher_set_threads(S, 2));
    ck_assert_int_eq(threads_first_outcome(&c[1], 6), 3);
    ck_assert_int_eq(threads_first_outcome(&c[1], 1), 0);
    c[1].leapfrogs = false; /* a search of one thread */
    ck_assert_int_eq(threads_first_outcome(&c[1], 6), 0);
    ck_assert_int_eq(threads_next_depth(&c[1], 3, 20), 3);
    req = request(&brandubh_v1, NULL);
    threads_at(c, 2, &req, 5, 6);
    ck_assert_int_eq(threads_next_depth(&c[0], 2, 20), 7);
    ck_assert_int_eq(threads_next_depth(&c[1], 2, 20), 7); /* two above the deepest completed at most */
    ck_assert_int_eq(threads_first_outcome(&c[1], 6), 0);
    ck_assert(searcher_set_threads(S, 1));
}
END_TEST

/* The depths a search reported, in order, and its last line. */
typedef struct depths {
    int depth[MAX_PLY];
    int n;
    search_info_t last;
} depths_t;

static void collect_depths(void *ctx, const position_t *root, const search_info_t *info)
{
    (void)root;
    depths_t *d = ctx;
    if (d->n < MAX_PLY)
        d->depth[d->n++] = info->depth;
    d->last = *info;
}

/* Lazy SMP: the threads leapfrog over the depths, and a depth a helper
 * completes first becomes the main thread's (its line reported, the
 * search going on above it). Reported depths only grow, the last is the
 * limit, and the answer is the first move of the last line, every move of
 * which is legal. (Which thread completes which depth depends on the
 * scheduler: not required here.) */
START_TEST(threads_report_growing_depths)
{
    ck_assert(searcher_set_threads(S, 2));
    const game_t *games[] = {&brandubh_v1, &brax_denham, &bolix};
    const int depths[] = {9, 8, 5};
    for (int i = 0; i < 3; i++)
        for (int round = 0; round < 3; round++) {
            search_request_t req = request(games[i], NULL);
            depths_t d = {.n = 0};
            req.limits.depth = depths[i];
            req.report = collect_depths;
            req.report_ctx = &d;
            search_result_t r = run_cleared(&req);
            ck_assert_int_eq(r.depth, depths[i]);
            ck_assert_int_gt(d.n, 0);
            ck_assert_int_eq(d.depth[d.n - 1], depths[i]);
            for (int k = 1; k < d.n; k++)
                ck_assert_int_gt(d.depth[k], d.depth[k - 1]);
            ck_assert_uint_eq(r.best, d.last.pv[0]);
            position_t pos = req.root;
            for (int k = 0; k < d.last.pv_len; k++) {
                move_t moves[MAX_MOVES];
                ck_assert(move_in(d.last.pv[k], moves, games[i]->gen_moves(&pos, moves)));
                undo_t u;
                games[i]->make(&pos, d.last.pv[k], &u);
            }
        }
    ck_assert(searcher_set_threads(S, 1));
}
END_TEST

static void *stop_later(void *arg)
{
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    search_stop(arg);
    return NULL;
}

/* An infinite search on four threads ends at a stop with a legal move:
 * that of the last line reported, at its depth (a deeper line a helper
 * completed before the stop is reported as the main thread's). */
START_TEST(threads_stop_on_request)
{
    ck_assert(searcher_set_threads(S, 4));
    search_request_t req = request(&brax_denham, NULL);
    req.limits.infinite = true;
    depths_t d = {.n = 0};
    req.report = collect_depths;
    req.report_ctx = &d;
    search_reset_stop(S);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, stop_later, S), 0);
    search_result_t r = search_run(S, &req);
    pthread_join(t, NULL);
    move_t moves[MAX_MOVES];
    int n = brax_denham.gen_moves(&req.root, moves), legal = 0;
    for (int i = 0; i < n; i++)
        legal += moves[i] == r.best;
    ck_assert_int_eq(legal, 1);
    ck_assert_int_gt(d.n, 0);
    for (int k = 1; k < d.n; k++)
        ck_assert_int_gt(d.depth[k], d.depth[k - 1]);
    ck_assert_int_eq(r.depth, d.depth[d.n - 1]);
    ck_assert_uint_eq(r.best, d.last.pv[0]);
}
END_TEST

/* Issue 11: reverse futility once cut below a loss bound, and the losing
 * side then saw its mate a move later than it is (mate -3 at depth 6). */
START_TEST(reverse_futility_never_hides_a_mate)
{
    const char *fen = "1a2a2/3a2a/2dd3/a2k3/d2a3/3a3/1a2d2 d";
    position_t pos;
    load_fen(&brandubh_v1, &pos, fen);
    undo_t u;
    brandubh_v1.make(&pos, brandubh_v1.parse_move(&pos, "d4f4"), &u);
    char after[GAME_FEN_MAX];
    brandubh_v1.write_fen(&pos, after, sizeof after);
    search_result_t r = search_fen(&brandubh_v1, after, 6, NULL, 0);
    int moves;
    ck_assert(search_score_is_mate(r.score, &moves));
    ck_assert_int_eq(moves, -2);
}
END_TEST

/* Issue 11: quiescence stood pat on a position without a legal move; it
 * is a draw in Brandubh (the lone attacker on b1 is shut in), not +498. */
START_TEST(quiescence_scores_a_position_without_moves)
{
    const char *fen = "7/7/3k3/7/1d5/7/1ad4 d";
    position_t pos;
    load_fen(&brandubh_v1, &pos, fen);
    move_t only = brandubh_v1.parse_move(&pos, "b3b2");
    ck_assert_uint_ne(only, MOVE_NONE);
    search_request_t req = request(&brandubh_v1, fen);
    req.limits.depth = 1;
    req.root_moves = &only;
    req.n_root_moves = 1;
    search_result_t r = run_cleared(&req);
    ck_assert_uint_eq(r.best, only);
    ck_assert_int_eq(r.score, SCORE_DRAW);
}
END_TEST

/* Issue 11: once a mate is proven the search stops deepening (it went on
 * to depth 127), and no report shows seldepth below depth. */
START_TEST(a_proven_mate_ends_the_search)
{
    collected_t c = {0};
    search_request_t req = request(&brandubh_v1, "1a2a2/3a2a/2dd3/a2k3/d2a3/3a3/1a2d2 d"); /* no limit at all */
    req.report = check_seldepth;
    req.report_ctx = &c;
    search_result_t r = run_cleared(&req);
    int moves;
    ck_assert(search_score_is_mate(r.score, &moves));
    ck_assert_int_eq(moves, 3);
    ck_assert_int_le(r.depth, 20);
    ck_assert_int_eq(c.depth, r.depth);
}
END_TEST

/* A mate limit (UCI's go mate) stops at the first iteration with a win
 * short enough, before the win is proven within the full width; a win
 * longer than asked does not stop it. Alone, it bounds the depth. */
START_TEST(a_mate_limit_ends_the_search_at_a_short_enough_win)
{
    /* A capture outscores this mate until depth 4 in brandubh-v2 (the
     * free king prizes it) and 5 in brandubh (the attackers lost, squared) */
    search_request_t req = request(&brandubh_v2, "1a2a2/3a2a/2dd3/a2k3/d2a3/3a3/1a2d2 d");
    req.limits.mate = 3;
    search_result_t r = run_cleared(&req);
    ck_assert_int_eq(r.mate, 3);
    ck_assert_int_lt(r.depth, 5);
    req.limits.mate = 2;
    r = run_cleared(&req);
    ck_assert_int_eq(r.mate, 3);
    ck_assert_int_ge(r.depth, 5);
    ck_assert_int_le(r.depth, 8);
    search_limits_t l;
    limits_init(&l);
    ck_assert_int_eq(search_max_depth(&l), MAX_PLY - 1);
    l.mate = 3;
    ck_assert_int_eq(search_max_depth(&l), 12);
    l.depth = 7;
    ck_assert_int_eq(search_max_depth(&l), 7);
    l.depth = 0;
    l.mate = (MAX_PLY - 1) / SEARCH_PLIES_PER_MOVE;
    ck_assert_int_eq(search_max_depth(&l), SEARCH_PLIES_PER_MOVE * l.mate);
}
END_TEST

/* Brax's solved endings: a won two against one is reported as the mate
 * the table knows, from the first iteration (the search alone needs depth
 * 29 for this one), with a move that keeps the shortest win; a drawn one
 * as a draw at any depth. */
START_TEST(solved_endings_are_searched_to_their_exact_value)
{
    const char *won = "9/9/9/9/9/9/9/9/b1r4r1 r - 0"; /* red c1 h1 against blue a1 */
    game_prepare(&brax_denham); /* a search probes the endings only once built */
    search_result_t r = search_fen(&brax_denham, won, 2, NULL, 0);
    ck_assert_int_eq(r.score, SCORE_WIN - 29);
    ck_assert_int_eq(r.mate, 15);
    position_t pos;
    load_fen(&brax_denham, &pos, won);
    undo_t u;
    brax_denham.make(&pos, r.best, &u);
    ending_t e;
    ck_assert(brax_denham.probe_ending(&pos, &e));
    ck_assert_int_eq(e.result, ENDING_LOSS);
    ck_assert_int_eq(e.plies, 28);
    r = search_fen(&brax_denham, "9/9/5r3/9/9/4r4/9/9/3b5 r - 0", 6, NULL, 0);
    ck_assert_int_eq(r.score, SCORE_DRAW);
    ck_assert_int_eq(r.mate, 0);
}
END_TEST

/* What a search's progress reports were. */
typedef struct progress {
    const game_t *g;
    int root_moves, bad_numbers, bad_moves;
    int depth, last_number; /* of the last root move reported */
    int lower, upper, exact_after_bound, bad_bounds;
    search_bound_t last_bound;
} progress_t;

static void note_root_move(void *ctx, const position_t *root, int depth, move_t move, int number)
{
    progress_t *p = ctx;
    move_t moves[MAX_MOVES];
    int n = p->g->gen_moves(root, moves);
    p->bad_moves += !move_in(move, moves, n);
    /* numbered from 1 in each iteration (and each search again of it after
     * a failed window), one more each time; the reports may begin in the
     * middle of an iteration */
    if (p->root_moves > 0)
        p->bad_numbers += number != 1 && (depth != p->depth || number != p->last_number + 1);
    p->depth = depth;
    p->last_number = number;
    p->root_moves++;
}

static void note_info(void *ctx, const position_t *root, const search_info_t *info)
{
    (void)root;
    progress_t *p = ctx;
    if (info->bound == SEARCH_LOWER) {
        p->lower++;
        p->bad_bounds += info->pv_len < 1; /* a fail high names the move that failed high */
    } else if (info->bound == SEARCH_UPPER) {
        p->upper++;
    } else if (p->last_bound != SEARCH_EXACT) {
        /* The iteration's value after a failed window. It may lie below a
         * fail high's bound: the wider search sees what the narrow one cut
         * off (search instability, as in every alpha-beta engine), so that
         * is not checked; this position showed it after each of two
         * evaluation changes. */
        p->exact_after_bound++;
    }
    p->last_bound = info->bound;
}

/* Progress reports (UCI's currmove and lowerbound/upperbound lines) come
 * only when asked for and only after the time asked: every root move as it
 * is started, and an aspiration window that fails: in this position
 * depths 6 and 7 fail high and low on the way. */
START_TEST(progress_reports_root_moves_and_failed_windows)
{
    progress_t p = {.g = &brandubh_v1};
    search_request_t req = request(&brandubh_v1, "3a3/3a3/3d3/aad1d1a/3dk2/3a3/3a3 a");
    req.limits.depth = 7;
    req.report = note_info;
    req.report_root_move = note_root_move;
    req.report_ctx = &p;
    run_cleared(&req); /* not asked for */
    ck_assert_int_eq(p.root_moves + p.lower + p.upper, 0);
    req.progress_after_ms = 1;
    run_cleared(&req);
    ck_assert_int_gt(p.root_moves, 5);
    ck_assert_int_eq(p.bad_moves, 0);
    ck_assert_int_eq(p.bad_numbers, 0);
    ck_assert_int_ge(p.lower, 1);
    ck_assert_int_ge(p.exact_after_bound, 1);
    ck_assert_int_eq(p.bad_bounds, 0);
    progress_t q = {.g = &brandubh_v1};
    req.report_ctx = &q;
    req.multipv = 2; /* MultiPV lines are reported whole */
    run_cleared(&req);
    ck_assert_int_eq(q.lower + q.upper, 0);
    ck_assert_int_gt(q.root_moves, 5);
    progress_t r = {.g = &brandubh_v1};
    req.report_ctx = &r;
    req.multipv = 1;
    req.progress_after_ms = 60 * 1000; /* a search shorter than that: nothing */
    run_cleared(&req);
    ck_assert_int_eq(r.root_moves + r.lower + r.upper, 0);
}
END_TEST

/* Issue 11: `movetime` means "use this time". The search went on only
 * while less than 60% had gone and so answered after 65-75% of it; now it
 * searches until the time is up and answers with the best root move it
 * has finished. */
START_TEST(movetime_is_used_to_the_end)
{
    search_request_t req = request(&brax_denham, NULL);
    req.limits.movetime = 600;
    int64_t start = timeman_now_ms();
    search_result_t r = run_cleared(&req);
    int64_t took = timeman_now_ms() - start;
    /* Load can only delay the answer: the lower bound is the property; the
     * upper one only catches a search that ignores its time (the stop's
     * precision is measured by make bench, "stop latency"). */
    ck_assert_msg(took >= 590 && took < 5000, "answered after %lld ms of 600", (long long)took);
    ck_assert_uint_ne(r.best, MOVE_NONE);
}
END_TEST

/* A search stopped before it finished one root move of its first
 * iteration still answers with a legal move chosen by the evaluation. */
START_TEST(a_search_stopped_at_once_still_answers_well)
{
    search_request_t req =
        request(variants_find("bolix"), "w5/2b1b2/1bbbw3/1wbw5/2wb1w4/4ww4/1bwwwwb2/2wb4/1b5/3b2 w 24 23 - 0");
    req.limits.nodes = 1;
    collected_t c = {0};
    req.report = collect;
    req.report_ctx = &c;
    search_result_t r = run_cleared(&req);
    ck_assert_int_eq(r.depth, 1);
    ck_assert_int_eq(c.n, 1);
    ck_assert_uint_eq(c.info[0].pv[0], r.best);
    ck_assert_int_eq(c.info[0].score, r.score);
    move_t moves[MAX_MOVES];
    int n = req.game->gen_moves(&req.root, moves), legal = 0;
    for (int i = 0; i < n; i++)
        legal += moves[i] == r.best;
    ck_assert_int_eq(legal, 1);
}
END_TEST

/* Issue 11: "mate n" counted plies as if the sides alternated; in brax-3p
 * Blue moves twice a turn, so a win three plies away (Red, Blue, Blue) is
 * one move of Red's, not two. In alternating games nothing changes. */
START_TEST(mate_moves_follow_the_turns)
{
    const game_t *g = variants_find("brax-3p");
    position_t root, pos;
    g->set_start(&root);
    pos = root;
    move_t line[3];
    for (int i = 0; i < 3; i++) {
        move_t moves[MAX_MOVES];
        ck_assert_int_gt(g->gen_moves(&pos, moves), 0);
        line[i] = moves[0];
        undo_t u;
        g->make(&pos, moves[0], &u);
    }
    ck_assert_int_eq(g->team_of[g->to_move(&root)], 0);
    ck_assert_int_eq(search_mate_moves(g, &root, SCORE_WIN - 3, line, 3), 1);
    ck_assert_int_eq(search_mate_moves(g, &root, -(SCORE_WIN - 3), line, 3), -1);
    ck_assert_int_eq(search_mate_moves(g, &root, SCORE_WIN - 3, line, 1), 2); /* past the line: alternating */
    ck_assert_int_eq(search_mate_moves(g, &root, 120, line, 3), 0);
    /* Two players: the alternating count, for every distance. */
    brandubh_v1.set_start(&root);
    for (int plies = 1; plies < 12; plies++) {
        int expected;
        ck_assert(search_score_is_mate(SCORE_WIN - plies, &expected));
        ck_assert_int_eq(search_mate_moves(&brandubh_v1, &root, SCORE_WIN - plies, NULL, 0), expected);
        ck_assert(search_score_is_mate(-(SCORE_WIN - plies), &expected));
        /* A loss an odd number of plies away (by one's own move) was "mate 0". */
        ck_assert_int_eq(search_mate_moves(&brandubh_v1, &root, -(SCORE_WIN - plies), NULL, 0),
                         plies % 2 ? expected - 1 : expected);
    }
}
END_TEST

/* The null-move hook: a pass changes only the side to move (the key is
 * the one a fresh parse of the new position gives), and is refused where
 * it is no sound test: Bolix with an empty hand, Brax while a call binds,
 * with fewer than three men, and in the team games. */
static void check_pass(const game_t *g, const char *fen, bool allowed)
{
    position_t pos, again;
    load_fen(g, &pos, fen);
    position_t before = pos;
    bool passed = g->pass_turn(&pos);
    ck_assert_msg(passed == allowed, "%s %s: pass %s", g->name, fen, passed ? "allowed" : "refused");
    if (!passed) {
        ck_assert(memcmp(&pos, &before, sizeof pos) == 0);
        return;
    }
    ck_assert_int_ne(g->to_move(&pos), g->to_move(&before));
    char text[GAME_FEN_MAX];
    g->write_fen(&pos, text, sizeof text);
    load_fen(g, &again, text);
    ck_assert_msg(g->hash(&again) == g->hash(&pos), "%s: key after a pass", text);
}

START_TEST(pass_turn_hooks)
{
    check_pass(&brandubh_v1, start_fen(&brandubh_v1), true);
    check_pass(variants_find("bolix"), start_fen(variants_find("bolix")), true);
    check_pass(variants_find("bolix"), "w5/2b1b2/1bbbw3/1wbw5/2wb1w4/4ww4/1bwwwwb2/2wb4/1b5/3b2 w 24 0 - 0", false);
    check_pass(&brax_denham, start_fen(&brax_denham), true);
    check_pass(&brax_denham, "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r b 0", false); /* bound by Blue's call */
    check_pass(&brax_denham, "1bbbbbbb1/9/9/9/9/9/9/9/1rr6 r - 0", false);      /* two men */
    check_pass(variants_find("brax-4p"), start_fen(variants_find("brax-4p")), false);
    ck_assert_ptr_null(variants_find("jinxx")->pass_turn);
}
END_TEST

/* The hooks of the staged move picker against gen_moves, over random
 * playouts. move_legal(m) is membership, with every flag, for the search
 * tries the table's move, which may be another position's, and the
 * killers before generating. Candidates: every legal move, the moves of
 * the last three positions (a neighbour's moves are the likeliest
 * collision), each with one bit flipped, and random words. Outside a
 * must_respond position, gen_noisy and gen_quiet split gen_moves by the
 * noisy flag, each in gen_moves' order. */
static void check_move_legal(const game_t *g, const position_t *pos, const move_t *pool, int pool_n, rng_t *rng)
{
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    for (int i = 0; i < pool_n; i++) {
        move_t cand[3] = {pool[i], pool[i] ^ (move_t)1 << rng_below(rng, 32), (move_t)rng_next(rng)};
        for (int k = 0; k < 3; k++)
            ck_assert_msg(g->move_legal(pos, cand[k]) == move_in(cand[k], moves, n), "%s %s: move %08x",
                          g->name, fen_of(g, pos), cand[k]);
    }
    ck_assert(!g->move_legal(pos, MOVE_NONE));
}

/* The picker's stages split gen_moves: its first stage (gen_captures, or
 * gen_noisy) holds only noisy moves, gen_quiet the rest with every quiet
 * move, each in gen_moves' order; and gen_noisy is exactly the noisy ones. */
static void check_split(const game_t *g, const position_t *pos)
{
    if (!g->gen_quiet || (g->must_respond && g->must_respond(pos)))
        return;
    move_t all[MAX_MOVES], noisy[MAX_MOVES], first[MAX_MOVES], quiet[MAX_MOVES];
    int n = g->gen_moves(pos, all), k = g->gen_noisy(pos, noisy);
    int a = (g->gen_captures ? g->gen_captures : g->gen_noisy)(pos, first), b = g->gen_quiet(pos, quiet);
    ck_assert_msg(a + b == n, "%s %s: %d first + %d quiet of %d", g->name, fen_of(g, pos), a, b, n);
    int ia = 0, ib = 0, ik = 0;
    for (int i = 0; i < n; i++) {
        bool loud = all[i] & MOVE_NOISY;
        if (loud) {
            ck_assert_msg(ik < k && noisy[ik] == all[i], "%s %s: noisy move %08x out of place", g->name,
                          fen_of(g, pos), all[i]);
            ik++;
        }
        bool in_first = ia < a && first[ia] == all[i];
        ck_assert_msg(in_first ? loud : ib < b && quiet[ib] == all[i], "%s %s: move %08x out of place", g->name,
                      fen_of(g, pos), all[i]);
        in_first ? ia++ : ib++;
    }
    ck_assert_int_eq(ik, k);
}

START_TEST(staging_hooks_agree_with_gen_moves)
{
    rng_t rng = {2026};
    for (int v = 0; variants_at(v); v++) {
        const game_t *g = variants_at(v);
        if (!g->move_legal)
            continue;
        for (int game = 0; game < 12; game++) {
            position_t pos;
            g->set_start(&pos);
            static move_t pool[4 * MAX_MOVES];
            int pool_n = 0, lens[3] = {0};
            for (int ply = 0; ply < 400; ply++) {
                move_t moves[MAX_MOVES];
                int n = g->gen_moves(&pos, moves);
                /* The pool: the last three positions' moves and these. */
                memmove(pool, pool + lens[0], (size_t)(pool_n - lens[0]) * sizeof *pool);
                pool_n -= lens[0];
                lens[0] = lens[1], lens[1] = lens[2], lens[2] = n;
                memcpy(pool + pool_n, moves, (size_t)n * sizeof *moves);
                pool_n += n;
                check_move_legal(g, &pos, pool, pool_n, &rng);
                check_split(g, &pos);
                if (n == 0)
                    break;
                undo_t u;
                g->make(&pos, moves[rng_below(&rng, (uint32_t)n)], &u);
            }
        }
    }
}
END_TEST

/* Plays a Brax position to its end, both sides searching 20,000 nodes a
 * move, for at most max_plies plies; the outcome (none at the limit). */
static outcome_t brax_self_play(const char *fen, int max_plies, int *plies)
{
    position_t pos;
    load_fen(&brax_denham, &pos, fen);
    game_prepare(&brax_denham); /* the solved endings, as a front end builds them first */
    uint64_t keys[400];
    int n_keys = 0, ply = 0;
    outcome_t o = {OUTCOME_NONE, 0, NULL};
    ck_assert_int_le(max_plies, 400);
    for (; ply < max_plies; ply++) {
        move_t moves[MAX_MOVES];
        if (brax_denham.gen_moves(&pos, moves) == 0) {
            o = brax_denham.outcome(&pos);
            break;
        }
        search_request_t req = {0};
        req.game = &brax_denham;
        req.root = pos;
        req.history = keys;
        req.history_len = n_keys;
        limits_init(&req.limits);
        req.limits.nodes = 20000;
        search_reset_stop(S);
        search_result_t r = search_run(S, &req);
        keys[n_keys++] = brax_denham.hash(&pos);
        undo_t u;
        brax_denham.make(&pos, r.best, &u);
    }
    *plies = ply;
    return o;
}

/* Issue 11: seven men against one in a corner. Without a plan (mop-up:
 * close in, drive to the edge, take the moves away) the search wandered
 * until the ply limit; at 20,000 nodes a move, both sides, red must now
 * take the last man within 200 plies. */
START_TEST(brax_mop_up_wins_seven_against_one)
{
    int ply;
    outcome_t o = brax_self_play("8b/9/9/9/9/9/9/9/1rrrrrrr1 r - 0", 200, &ply);
    ck_assert_msg(o.kind == OUTCOME_WIN && o.players == player_bit(0), "no red win after %d plies", ply);
}
END_TEST

/* Issue 33: three men against two, reached by trading down from a lead of
 * one (a position of a match game). Without mop-up here the side ahead
 * stood off until the ply limit; closing in, red takes both men within 200
 * plies at 20,000 nodes a move. */
START_TEST(brax_mop_up_wins_three_against_two)
{
    int ply;
    outcome_t o = brax_self_play("9/9/5b1r1/9/1b7/3r5/6r2/9/9 r - 2", 200, &ply);
    ck_assert_msg(o.kind == OUTCOME_WIN && o.players == player_bit(0), "no red win after %d plies", ply);
}
END_TEST

/* Skill Level: the top level plays the best line; a lower one picks among
 * the lines within its spread, the lower the more often a worse one, never
 * one further behind, and never instead of a win it has found. */
START_TEST(skill_level_picks_within_its_spread)
{
    pv_line_t lines[4] = {{.score = 100}, {.score = 90}, {.score = -20}, {.score = -400}};
    for (int i = 0; i < 4; i++) {
        lines[i].pv_len = 1;
        lines[i].pv[0] = (move_t)i;
    }
    static const int levels[3] = {SKILL_MAX, 10, 0};
    int picked[3][4] = {{0}};
    rng_t rng = {12345};
    for (int k = 0; k < 3; k++)
        for (int n = 0; n < 2000; n++)
            picked[k][skill_pick(lines, 4, levels[k], &rng)]++;
    ck_assert_int_eq(picked[0][0], 2000);
    ck_assert_int_eq(skill_spread(10), 200);
    ck_assert_int_eq(skill_spread(0), 400);
    for (int k = 1; k < 3; k++) {
        ck_assert_int_gt(picked[k][0], picked[k][1]); /* the best stays the likeliest */
        ck_assert_int_gt(picked[k][1], 0);
        ck_assert_int_gt(picked[k][2], 0); /* 120 behind: within both spreads */
        ck_assert_int_eq(picked[k][3], 0); /* 500 behind: beyond them */
    }
    ck_assert_int_gt(picked[2][1] + picked[2][2], picked[1][1] + picked[1][2]);
    pv_line_t won[2] = {{.score = SCORE_WIN - 9, .pv_len = 1}, {.score = 1900, .pv_len = 1}};
    pv_line_t lost[3] = {
        {.score = 10, .pv_len = 1}, {.score = 5, .pv_len = 1}, {.score = -(SCORE_WIN - 4), .pv_len = 1}};
    int second = 0;
    for (int n = 0; n < 1000; n++) {
        ck_assert_int_eq(skill_pick(won, 2, 0, &rng), 0);
        int k = skill_pick(lost, 3, 0, &rng);
        ck_assert_int_lt(k, 2);
        second += k == 1;
    }
    ck_assert_int_gt(second, 0);
    ck_assert_int_eq(skill_depth(0), 1);
    ck_assert_int_eq(skill_depth(10), 11);
    ck_assert_int_eq(skill_lines(0), 4);
    ck_assert_int_eq(skill_lines(10), 3);
    ck_assert_int_eq(skill_lines(19), 2);
    ck_assert_int_ge(skill_depth(SKILL_MAX), MAX_PLY - 1);
}
END_TEST

/* ---- exact prunings against a plain search (issue 34) ---- */

/* A decision node of g some random plies into a game (none if the game
 * ended first); false then. */
static bool random_decision_node(const game_t *g, uint64_t *rng, position_t *pos)
{
    g->set_start(pos);
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    int plies = 1 + (int)((*rng >> 33) % 24);
    for (int i = 0; i < plies || game_at_chance(g, pos); i++) {
        move_t moves[MAX_MOVES];
        int n = g->gen_moves(pos, moves);
        if (n == 0)
            return false;
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
        undo_t u;
        g->make(pos, moves[(*rng >> 33) % (uint64_t)n], &u);
    }
    move_t moves[MAX_MOVES];
    return g->gen_moves(pos, moves) > 0;
}

static score_t exact_search(const game_t *g, const position_t *pos, int depth, multiplayer_t multi,
                            chance_pruning_t pruning)
{
    search_request_t req = {0};
    req.game = g;
    req.root = *pos;
    limits_init(&req.limits);
    req.limits.depth = depth;
    req.multiplayer = multi;
    req.chance_pruning = pruning;
    req.exact = true;
    return run_cleared(&req).score;
}

/* Star1 and Star2 are exact prunings of expectimax, and paranoid search and
 * Best-Reply Search are defined trees: with the selective steps off, every
 * pruning returns exactly the plain search's value at the same depth, on
 * positions of every Jinxx variant. (Widening Star1's window, or letting
 * BRS ask only the first opponent, changes some of these values.) */
START_TEST(chance_and_multiplayer_searches_are_exact)
{
    static const char *const names[] = {"jinxx", "jinxx-3p", "jinxx-4p"};
    static const chance_pruning_t prunings[] = {CHANCE_EXPECTIMAX, CHANCE_STAR1, CHANCE_STAR2};
    const game_t *g = variants_find(names[_i]);
    uint64_t rng = 2026 + (uint64_t)_i;
    int positions = 0, differing = 0;
    for (int tries = 0; positions < 80 && tries < 400; tries++) {
        position_t pos;
        if (!random_decision_node(g, &rng, &pos))
            continue;
        positions++;
        int max_depth = g->players == 4 ? 2 : 3;
        for (int depth = 1; depth <= max_depth; depth++)
            for (int brs = 0; brs <= (g->players > 2); brs++) {
                score_t want = ref_search_value(g, &pos, depth, brs);
                if (brs && want != ref_search_value(g, &pos, depth, false))
                    differing++;
                for (size_t k = 0; k < sizeof prunings / sizeof prunings[0]; k++) {
                    score_t got = exact_search(g, &pos, depth, brs ? MULTI_BRS : MULTI_PARANOID, prunings[k]);
                    ck_assert_msg(got == want, "%s %s depth %d %s pruning %zu: %d, plain %d", g->name,
                                  fen_of(g, &pos), depth, brs ? "brs" : "paranoid", k, got, want);
                }
            }
    }
    ck_assert_int_eq(positions, 80);
    if (g->players > 2) /* the two multi-player searches are really compared */
        ck_assert_int_gt(differing, 0);
}
END_TEST

/* Jinxx with a loaded die: its rolls as the game lists them, weighing 1,
 * 2, 3, ... in that order, so that a roll given another's weight changes
 * an expected value (the real die weighs every roll alike). The real
 * rolls come from Jinxx's own chance_outcomes, looked up once. */
static int (*fair_rolls)(const position_t *pos, move_t *rolls, int *w);

static int loaded_rolls(const position_t *pos, move_t *rolls, int *w)
{
    int n = fair_rolls(pos, rolls, w);
    for (int i = 0; i < n; i++)
        w[i] = i + 1;
    return n;
}

/* A helper sharing the main thread's depth visits a chance node's rolls
 * from another end (threads_first_outcome), each with its own weight: its
 * search of a Jinxx position, selective steps off, returns the plain
 * search's value as the main thread's does, with the real die (_i 0) and
 * with a loaded one (_i 1). */
START_TEST(a_helpers_order_of_rolls_keeps_the_values)
{
    static ctx_t c; /* large: kept off the stack */
    static game_t loaded;
    const game_t *g = variants_find("jinxx");
    if (_i == 1) {
        fair_rolls = g->chance_outcomes;
        loaded = *g;
        loaded.chance_outcomes = loaded_rolls;
        g = &loaded;
    }
    ck_assert(searcher_set_threads(S, 2));
    ck_assert(ctx_ensure_history(&S->workers[1], g->move_keys));
    uint64_t rng = 60;
    int positions = 0, rotated = 0;
    for (int tries = 0; positions < 40 && tries < 200; tries++) {
        position_t pos;
        if (!random_decision_node(g, &rng, &pos))
            continue;
        positions++;
        search_request_t req = {0};
        req.game = g;
        req.root = pos;
        limits_init(&req.limits);
        req.chance_pruning = CHANCE_STAR2;
        req.exact = true;
        for (int depth = 1; depth <= 3; depth++) {
            searcher_clear(S);
            ctx_init(&c, S, &req, 1);
            c.leapfrogs = true;
            c.root_depth = depth;
            rotated += threads_first_outcome(&c, 6) > 0;
            score_t got = negamax(&c, depth, 0, -SCORE_INF, SCORE_INF, true);
            ck_assert_msg(got == ref_search_value(g, &pos, depth, false), "%s%s depth %d: %d", fen_of(g, &pos),
                          _i ? " (loaded die)" : "", depth, got);
        }
    }
    ck_assert_int_eq(positions, 40);
    ck_assert_int_eq(rotated, 120);
    ck_assert(searcher_set_threads(S, 1));
}
END_TEST

Suite *suite_search(void)
{
    Suite *s = suite_create("search");
    TCase *tc = tcase_create("search");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, defenders_take_the_open_corner);
    tcase_add_test(tc, attackers_capture_the_king);
    tcase_add_test(tc, attackers_block_the_escape);
    tcase_add_test(tc, search_honours_repetition_in_history);
    tcase_add_test(tc, a_position_seen_once_before_the_root_is_searched);
    tcase_add_test(tc, repetition_counts_the_line_and_the_third_occurrence);
    tcase_add_test(tc, search_budget_follows_the_game);
    tcase_add_test(tc, node_limit_is_kept);
    tcase_add_test(tc, stop_before_start_still_gives_a_legal_move);
    tcase_add_test(tc, no_move_at_a_finished_game);
    tcase_add_test(tc, bench_is_deterministic);
    tcase_add_test(tc, brax_takes_free_material_at_depth_1);
    tcase_add_test(tc, brax_leaves_nothing_en_prise);
    tcase_add_test(tc, jinxx_completes_a_line);
    tcase_add_test(tc, jinxx_no_move_before_the_roll);
    tcase_add_test(tc, jinxx_covers_a_threatened_line);
    tcase_add_test(tc, a_win_in_one_is_never_missed);
    suite_add_tcase(s, tc);
    tc = tcase_create("lines and threads");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, multipv_reports_the_best_lines);
    tcase_add_test(tc, multipv_covers_every_move_when_asked_for_more);
    tcase_add_test(tc, threads_find_the_same_wins);
    tcase_add_test(tc, threads_stop_on_request);
    tcase_add_test(tc, threads_share_depths_and_split_rolls);
    tcase_add_loop_test(tc, a_helpers_order_of_rolls_keeps_the_values, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("issue 11 defects");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reverse_futility_never_hides_a_mate);
    tcase_add_test(tc, quiescence_scores_a_position_without_moves);
    tcase_add_test(tc, a_proven_mate_ends_the_search);
    tcase_add_test(tc, a_mate_limit_ends_the_search_at_a_short_enough_win);
    tcase_add_test(tc, solved_endings_are_searched_to_their_exact_value);
    tcase_add_test(tc, progress_reports_root_moves_and_failed_windows);
    tcase_add_test(tc, movetime_is_used_to_the_end);
    tcase_add_test(tc, mate_moves_follow_the_turns);
    tcase_add_test(tc, pass_turn_hooks);
    tcase_add_test(tc, staging_hooks_agree_with_gen_moves);
    tcase_add_test(tc, threads_report_growing_depths);
    tcase_add_test(tc, brax_mop_up_wins_seven_against_one);
    tcase_add_test(tc, brax_mop_up_wins_three_against_two);
    tcase_add_test(tc, a_search_stopped_at_once_still_answers_well);
    tcase_add_test(tc, skill_level_picks_within_its_spread);
    suite_add_tcase(s, tc);
    tc = tcase_create("exact prunings");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, chance_and_multiplayer_searches_are_exact, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}
