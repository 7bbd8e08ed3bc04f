/* test_solve.c: the solver (engine/solve/) against what is known: the
 * suites' forced wins, found at exactly their length; a plain exhaustive
 * search ("can P win within K plies?", with the same repetition rules) on
 * positions from random games, with and without a game before the root
 * that has seen positions twice; positions solved outright against the
 * exhaustive search; and every proof it writes, checked by the reference
 * checker. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/bolix/bolix.h"
#include "../engine/games/brandubh/brandubh.h"
#include "../engine/games/brax/brax.h"
#include "../engine/reference/check.h"
#include "../engine/solve/dfpn_table.h"
#include "../engine/solve/solve.h"
#include "../protocol/cli/solve_cli.h"
#include "helpers.h"

#define TABLE_MB 16

/* ---- a plain exhaustive search ---- */

typedef struct brute {
    const game_t *g;
    int side;
    uint64_t line[64]; /* repetition keys of the line, the root first */
    const uint64_t *history;
    int history_len;
} brute_t;

static bool brute_side_wins(const brute_t *b, outcome_t o)
{
    return o.kind == OUTCOME_WIN && b->g->team_of[player_first(o.players)] == b->side;
}

static int history_count(const brute_t *b, uint64_t key)
{
    int n = 0;
    for (int i = 0; i < b->history_len; i++)
        n += b->history[i] == key;
    return n;
}

/* Can b->side force a win within `left` plies from pos (at `ply`)? A finished
 * game is its result; a return to a position of the line, or a third
 * occurrence with the game before the root, is no win. */
static bool brute_wins(brute_t *b, const position_t *pos, int ply, int left)
{
    const game_t *g = b->g;
    outcome_t o;
    if (g->decided(pos, &o))
        return brute_side_wins(b, o);
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    if (n == 0)
        return brute_side_wins(b, g->outcome(pos));
    if (left == 0)
        return false;
    bool or_node = g->team_of[g->to_move(pos)] == b->side;
    for (int i = 0; i < n; i++) {
        position_t next = *pos;
        undo_t u;
        g->make(&next, moves[i], &u);
        uint64_t key = g->hash(&next);
        bool repeats = history_count(b, key) >= 2;
        for (int k = 0; k <= ply; k++)
            repeats |= b->line[k] == key;
        bool wins;
        if (g->decided(&next, &o))
            wins = brute_side_wins(b, o);
        else if (repeats)
            wins = false;
        else {
            b->line[ply + 1] = key;
            wins = brute_wins(b, &next, ply + 1, left - 1);
        }
        if (wins == or_node)
            return or_node;
    }
    return !or_node;
}

static bool brute(const game_t *g, const position_t *pos, int side, int plies, const uint64_t *hist, int n_hist)
{
    brute_t b = {.g = g, .side = side, .history = hist, .history_len = n_hist};
    b.line[0] = g->hash(pos);
    return brute_wins(&b, pos, 0, plies);
}

/* ---- the solver ---- */

static solve_result_t solve_for(solver_t *s, const game_t *g, const position_t *pos, int side, int plies,
                                const uint64_t *hist, int n_hist)
{
    solve_request_t req = {.game = g, .root = *pos, .side = side, .plies = plies, .history = hist,
                           .history_len = n_hist};
    solver_clear(s);
    return solver_run(s, &req);
}

/* The figures the checker reports for a proof: "... in at most H plies
 * (M moves and S '*' lines, lines A-B)" (H -1 for a proof of no win; no
 * "and S" when there is none). */
static void checked_figures(const char *report, int *height, unsigned long long *moves, unsigned long long *stars)
{
    const char *at = strstr(report, " in at most ");
    *height = at ? atoi(at + strlen(" in at most ")) : -1;
    const char *paren = strrchr(report, '(');
    ck_assert_msg(paren && sscanf(paren, "(%llu move", moves) == 1, "%s", report);
    const char *and = strstr(paren, " and ");
    *stars = and ? strtoull(and + 5, NULL, 10) : 0;
}

/* Writes the proof of r's result for req to a file and checks it with the
 * reference checker; the file's name (static). What the writer says of its
 * proof (moves, "*" lines, the longest line) is what the checker counts. */
static const char *proof_checks(solver_t *s, const solve_request_t *req, solve_status_t claim, const char *position)
{
    static char path[64];
    snprintf(path, sizeof path, "build/test-proof-%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    proof_header_t h = {position};
    char err[300];
    proof_stats_t st;
    bool written = proof_write(s, req, claim, &h, f, &st, err, sizeof err);
    fclose(f);
    ck_assert_msg(written, "%s: %s", position, err);
    f = fopen(path, "r");
    char *report = NULL;
    size_t report_len = 0;
    FILE *rf = open_memstream(&report, &report_len);
    bool ok = check_proofs(f, path, rf, err, sizeof err);
    fclose(f);
    fclose(rf);
    ck_assert_msg(ok, "%s: %s", position, err);
    int height;
    unsigned long long moves, stars;
    checked_figures(report, &height, &moves, &stars);
    ck_assert_msg(moves == st.moves && stars == st.stars, "%s: written %llu moves and %llu '*' lines; %s", position,
                  (unsigned long long)st.moves, (unsigned long long)st.stars, report);
    if (claim == SOLVE_PROVEN) {
        ck_assert_msg(height == st.height, "%s: written the longest line %d; %s", position, st.height, report);
        bool moves_first = req->game->team_of[req->game->to_move(&req->root)] == req->side;
        ck_assert_msg((st.first != MOVE_NONE) == moves_first, "%s: first move %u", position, (unsigned)st.first);
    }
    free(report);
    return path;
}

/* A position some random plies into a random game from fen (NULL: the
 * start), not over. */
static bool random_position(const game_t *g, const char *fen, rng_t *rng, int plies, position_t *pos)
{
    if (fen)
        load_fen(g, pos, fen);
    else
        g->set_start(pos);
    for (int i = 0; i < plies; i++) {
        move_t moves[MAX_MOVES];
        int n = g->gen_moves(pos, moves);
        if (n == 0)
            return false;
        undo_t u;
        g->make(pos, moves[rng_below(rng, (uint32_t)n)], &u);
    }
    move_t moves[MAX_MOVES];
    return g->gen_moves(pos, moves) > 0;
}

/* ---- tests ---- */

typedef struct suite_case {
    const game_t *g;
    const char *fen, *bm;
    int moves; /* the suite's "win in N" */
} suite_case_t;

/* Lines of bench/suites/ (result win), a few of each length. */
static const suite_case_t suite_cases[] = {
    {&brandubh_v1, "1d5/2a4/a2a2k/5a1/2dd2a/4d2/1a3a1 a", "c6g6", 2},
    {&brandubh_v1, "5a1/3a1dd/2a1k2/6a/ad5/5a1/1a1a3 d", "e5e7", 2},
    {&brandubh_v1, "2da3/3a2a/1a5/a1dk1a1/2d4/a5d/4a2 d", "d4d1", 3},
    {&brandubh_v2, "3a3/1a2d2/2dk3/d3a2/ad4a/2a4/3a3 d", "d5g5", 2},
    {&brandubh_v2, "3a3/1a1a3/a1d3a/3k1a1/2dd3/3ad2/3a3 d", "d4a4", 3},
    {&brandubh_v2, "3ad2/1a1k3/7/d1d2aa/a3a1d/3a3/2a4 d", "d6f6", 3},
    {&bolix, "1ww1ww/bbwbb1w/wbb1ww2/b1wwb3b/bb1w1wbw2/1wbbw2wb1/bw4w1b/b1bw2wb/3b1w1/wb3b b 13 13 - 0", "g4", 1},
    {&bolix, "3w2/2bwbww/1bb2bbw/2w6/w1b1wb2w1/w3wwwbwb/bw2ww1wb/1bwb1bb1/bbb1wwb/1b1bwb w 13 14 - 0", "h7", 1},
};

/* The suites' wins, at exactly their length: proved within 2N-1 plies,
 * disproved within 2N-3, the first move the suite's, the proof checked. */
START_TEST(suite_wins_at_their_length)
{
    const suite_case_t *sc = &suite_cases[_i];
    solver_t *s = solver_new(TABLE_MB);
    ck_assert_ptr_nonnull(s);
    position_t pos;
    load_fen(sc->g, &pos, sc->fen);
    int side = game_team_to_move(sc->g, &pos), plies = 2 * sc->moves - 1;
    solve_result_t r = solve_for(s, sc->g, &pos, side, plies, NULL, 0);
    ck_assert_msg(r.status == SOLVE_PROVEN, "%s within %d plies: %d", sc->fen, plies, r.status);
    char mv[GAME_MOVE_TEXT_MAX];
    sc->g->move_text(&pos, r.best, mv, sizeof mv);
    ck_assert_str_eq(mv, sc->bm);
    char position[300];
    snprintf(position, sizeof position, "fen %s", sc->fen);
    solve_request_t req = {.game = sc->g, .root = pos, .side = side, .plies = plies};
    proof_checks(s, &req, SOLVE_PROVEN, position);
    if (plies > 1) {
        r = solve_for(s, sc->g, &pos, side, plies - 2, NULL, 0);
        ck_assert_msg(r.status == SOLVE_DISPROVEN, "%s within %d plies: %d", sc->fen, plies - 2, r.status);
        req.plies = plies - 2;
        proof_checks(s, &req, SOLVE_DISPROVEN, position);
    }
    /* Without a limit: a win, by a proof the checker accepts. */
    r = solve_for(s, sc->g, &pos, side, 0, NULL, 0);
    ck_assert_int_eq(r.status, SOLVE_PROVEN);
    req.plies = 0;
    proof_checks(s, &req, SOLVE_PROVEN, position);
    solver_free(s);
}
END_TEST

/* Positions from random games: "win within K plies" for both sides as the
 * exhaustive search says, proofs and disproofs checked; on `threads`
 * threads sharing the table. */
static void against_brute(const game_t *g, const char *from, int games, int min_plies, int max_plies, int deepest,
                          uint64_t seed, int threads)
{
    solver_t *s = solver_new(TABLE_MB);
    ck_assert(solver_set_threads(s, threads));
    rng_t rng = {seed};
    int proved = 0, disproved = 0;
    for (int i = 0; i < games; i++) {
        position_t pos;
        int at = min_plies + (int)rng_below(&rng, (uint32_t)(max_plies - min_plies + 1));
        if (!random_position(g, from, &rng, at, &pos))
            continue;
        char fen[GAME_FEN_MAX], position[GAME_FEN_MAX + 8];
        g->write_fen(&pos, fen, sizeof fen);
        snprintf(position, sizeof position, "fen %s", fen);
        for (int plies = 1; plies <= deepest; plies++)
            for (int side = 0; side < 2; side++) {
                bool want = brute(g, &pos, side, plies, NULL, 0);
                solve_result_t r = solve_for(s, g, &pos, side, plies, NULL, 0);
                ck_assert_msg(r.status == (want ? SOLVE_PROVEN : SOLVE_DISPROVEN),
                              "%s: %s within %d plies on %d threads: %d", fen, g->player_names[side], plies, threads,
                              r.status);
                solve_request_t req = {.game = g, .root = pos, .side = side, .plies = plies};
                if (want || plies == deepest)
                    proof_checks(s, &req, r.status, position);
                proved += want;
                disproved += !want;
            }
    }
    ck_assert_msg(proved > 0 && disproved > 0, "proved %d, disproved %d", proved, disproved);
    solver_free(s);
}

/* _i: the variant (bit 0), and one thread or two (bit 1). */
START_TEST(brandubh_against_exhaustive_search)
{
    against_brute(_i & 1 ? &brandubh_v2 : &brandubh_v1, NULL, 12, 20, 60, 4, 77 + (uint64_t)_i, 1 + (_i >> 1));
}
END_TEST

START_TEST(bolix_against_exhaustive_search)
{
    against_brute(&bolix, NULL, 6, 30, 50, 3, 5, 1);
}
END_TEST

/* Brax from few men a side, where a win (the last man taken) comes soon.
 * _i as for Brandubh. */
START_TEST(brax_against_exhaustive_search)
{
    against_brute(_i & 1 ? &brax_easy : &brax_denham, "9/9/9/9/4b4/9/3r1r3/9/9 r - 0", 16, 1, 8, 3,
                  11 + (uint64_t)_i, 1 + (_i >> 1));
}
END_TEST

/* Repetition with the game before the root: the positions two plies on,
 * each seen twice before (a third occurrence draws) or once (no matter),
 * change what can be won as the exhaustive search says; on one thread and
 * on two. */
START_TEST(history_changes_the_answer_as_the_rules_say)
{
    const game_t *g = &brandubh_v1;
    solver_t *s = solver_new(TABLE_MB);
    ck_assert(solver_set_threads(s, 1 + _i)); /* _i: one thread or two */
    rng_t rng = {2024};
    int changed = 0;
    for (int i = 0; i < 40; i++) {
        position_t pos;
        if (!random_position(g, NULL, &rng, 30 + (int)rng_below(&rng, 30), &pos))
            continue;
        /* The grandchildren of the root: history keys, twice or once. */
        static uint64_t hist[2 * MAX_MOVES];
        int n_hist = 0, twice = (int)rng_below(&rng, 2) + 1;
        move_t m1[MAX_MOVES], m2[MAX_MOVES];
        int n1 = g->gen_moves(&pos, m1);
        for (int a = 0; a < n1 && n_hist < MAX_MOVES; a += 3) {
            position_t p1 = pos;
            undo_t u;
            g->make(&p1, m1[a], &u);
            int n2 = g->gen_moves(&p1, m2);
            for (int b = 0; b < n2 && n_hist + 2 <= 2 * MAX_MOVES; b += 2) {
                position_t p2 = p1;
                g->make(&p2, m2[b], &u);
                for (int k = 0; k < twice; k++)
                    hist[n_hist++] = g->hash(&p2);
            }
        }
        for (int plies = 3; plies <= 4; plies++)
            for (int side = 0; side < 2; side++) {
                bool plain = brute(g, &pos, side, plies, NULL, 0);
                bool want = brute(g, &pos, side, plies, hist, n_hist);
                changed += plain != want;
                solve_result_t r = solve_for(s, g, &pos, side, plies, hist, n_hist);
                ck_assert_int_eq(r.status, want ? SOLVE_PROVEN : SOLVE_DISPROVEN);
            }
    }
    ck_assert_msg(changed > 0, "no history changed an answer: the test tests nothing");
    solver_free(s);
}
END_TEST

/* Solved outright: an endgame of few men, whose unlimited answer agrees
 * with the exhaustive search at growing depths, and whose proof checks. */
START_TEST(endgames_solved_outright)
{
    static const char *const fens[] = {
        "7/7/2a4/3k3/7/4a2/7 a",           /* two attackers: the king gets out */
        "7/7/1a5/3k3/1a3a1/7/7 d",         /* three attackers, the king to move */
        "1a3a1/a5a/7/3k3/7/a5a/1a3a1 d",   /* every corner guarded: the armed king takes a guard */
        "7/7/2a1a2/1a1k1a1/2a1a2/7/7 a",   /* the king boxed in, attackers to move */
    };
    const game_t *g = &brandubh_v1;
    solver_t *s = solver_new(TABLE_MB);
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        position_t pos;
        load_fen(g, &pos, fens[i]);
        char position[100];
        snprintf(position, sizeof position, "fen %s", fens[i]);
        for (int side = 0; side < 2; side++) {
            solve_result_t r = solve_for(s, g, &pos, side, 0, NULL, 0);
            ck_assert_msg(r.status != SOLVE_OPEN, "%s", fens[i]);
            solve_request_t req = {.game = g, .root = pos, .side = side};
            proof_checks(s, &req, r.status, position);
            if (r.status == SOLVE_PROVEN) {
                ck_assert_msg(brute(g, &pos, side, r.dist, NULL, 0), "%s: %s in %d plies", fens[i],
                              g->player_names[side], r.dist);
            } else {
                for (int plies = 1; plies <= 4; plies++)
                    ck_assert(!brute(g, &pos, side, plies, NULL, 0));
            }
        }
    }
    solver_free(s);
}
END_TEST

/* Two threads on one table: the same answers, and proofs that check. */
START_TEST(threads_agree)
{
    solver_t *s = solver_new(TABLE_MB);
    ck_assert(solver_set_threads(s, 2));
    for (size_t i = 0; i < sizeof suite_cases / sizeof suite_cases[0]; i++) {
        const suite_case_t *sc = &suite_cases[i];
        position_t pos;
        load_fen(sc->g, &pos, sc->fen);
        int side = game_team_to_move(sc->g, &pos);
        for (int plies = 0; plies <= 2 * sc->moves - 1; plies += 2 * sc->moves - 1) {
            solve_result_t r = solve_for(s, sc->g, &pos, side, plies, NULL, 0);
            ck_assert_msg(r.status == SOLVE_PROVEN, "%s within %d plies on two threads", sc->fen, plies);
            char position[300];
            snprintf(position, sizeof position, "fen %s", sc->fen);
            solve_request_t req = {.game = sc->g, .root = pos, .side = side, .plies = plies};
            proof_checks(s, &req, SOLVE_PROVEN, position);
            if (plies > 2) {
                r = solve_for(s, sc->g, &pos, side, plies - 2, NULL, 0);
                ck_assert_int_eq(r.status, SOLVE_DISPROVEN);
            }
        }
    }
    solver_free(s);
}
END_TEST

/* Two threads where they race: a defence line of brandubh-v2-defence.txt
 * that takes one thread about a million nodes, long enough for the threads
 * to part, meet, and find each other's proofs and disproofs in the table
 * (and to take a node another settled: check_line). Each of three runs
 * proves the defenders' win well within 40 times one thread's nodes, and
 * its proof checks. */
START_TEST(threads_race_on_a_real_position)
{
    const game_t *g = &brandubh_v2;
    const char *position = "startpos moves f4f3 d5b5 f3f7 d3a3 g4g3";
    static record_t r;
    char err[256];
    ck_assert_msg(record_setup(&r, g, position, err, sizeof err), "%s", err);
    static uint64_t hist[SOLVE_HISTORY_MAX];
    solve_request_t req = {.game = g, .root = r.pos, .history = hist, .side = 1, .nodes = 40000000};
    req.history_len = record_recent_keys(&r, hist, SOLVE_HISTORY_MAX);
    solver_t *s = solver_new(64);
    ck_assert(solver_set_threads(s, 2));
    for (int run = 0; run < 3; run++) {
        solver_clear(s);
        solve_result_t res = solver_run(s, &req);
        ck_assert_msg(res.status == SOLVE_PROVEN, "run %d: %d after %llu nodes", run, res.status,
                      (unsigned long long)res.nodes);
        proof_checks(s, &req, SOLVE_PROVEN, position);
    }
    solver_free(s);
    record_free(&r);
}
END_TEST

/* The length a win is reported with is the checked proof's longest line,
 * never the search's own count (which the writer need not retrace: a
 * replaced entry is searched again, a position is written once); without
 * a proof no bound is claimed. Brandubh's win-in-4-a (7 plies). */
START_TEST(reported_length_is_the_proofs)
{
    const game_t *g = &brandubh_v1;
    const char *fen = "3aa2/6a/1a3a1/1a3d1/d6/d3d2/1a1ka2 d";
    solver_t *s = solver_new(TABLE_MB);
    position_t pos;
    load_fen(g, &pos, fen);
    solve_request_t req = {.game = g, .root = pos};
    solve_both_t b = solve_both(s, &req);
    ck_assert_int_eq(b.verdict, VERDICT_WIN);
    req.side = b.winner;
    const char *path = proof_checks(s, &req, SOLVE_PROVEN, "fen 3aa2/6a/1a3a1/1a3d1/d6/d3d2/1a1ka2 d");
    FILE *f = fopen(path, "w");
    proof_stats_t st;
    char err[300], words[512], want[200], mv[GAME_MOVE_TEXT_MAX];
    ck_assert(proof_write(s, &req, SOLVE_PROVEN, &(proof_header_t){"fen 3aa2/6a/1a3a1/1a3d1/d6/d3d2/1a1ka2 d"}, f,
                          &st, err, sizeof err));
    fclose(f);
    ck_assert_int_eq(st.height, 7);
    g->move_text(&pos, st.first, mv, sizeof mv);
    snprintf(want, sizeof want, "win for the defenders in at most %d plies, first move %s (the proof's longest line)",
             st.height, mv);
    solve_words(words, sizeof words, g, &pos, &b, &st);
    ck_assert_str_eq(words, want);
    /* A search that counted fewer plies than the proof holds: the proof's
     * length stands, the search's count is named as such. */
    b.side[b.winner].dist = st.height - 2;
    solve_words(words, sizeof words, g, &pos, &b, &st);
    snprintf(want, sizeof want, "win for the defenders in at most %d plies, first move %s (the proof's longest "
             "line; the search counted %d)", st.height, mv, st.height - 2);
    ck_assert_str_eq(words, want);
    /* No proof: no bound claimed. */
    solve_words(words, sizeof words, g, &pos, &b, NULL);
    ck_assert_msg(!strstr(words, "at most") && strstr(words, "(the search counted 5 plies, unchecked"), "%s", words);
    remove(path);
    solver_free(s);
}
END_TEST

/* Budgets: a node limit stops an open search with its numbers. */
START_TEST(budget_leaves_it_open)
{
    solver_t *s = solver_new(TABLE_MB);
    position_t pos;
    brandubh_v1.set_start(&pos);
    solve_request_t req = {.game = &brandubh_v1, .root = pos, .side = 0, .nodes = 20000};
    solve_result_t r = solver_run(s, &req);
    ck_assert_int_eq(r.status, SOLVE_OPEN);
    ck_assert(r.pn > 0 && r.pn < DFPN_CAP && r.dn > 0 && r.dn < DFPN_CAP);
    ck_assert(r.nodes >= 20000 && r.nodes < 40000);
    solve_both_t b = solve_both(s, &req);
    ck_assert_int_eq(b.verdict, VERDICT_UNKNOWN);
    ck_assert(b.nodes >= 20000 && b.nodes < 60000);
    solver_free(s);
}
END_TEST

/* The table takes no lock: an entry torn by two threads writing it at
 * once (any one of its words another's) reads as empty, never as a value;
 * a whole one reads back as written. */
START_TEST(torn_table_entry_reads_as_empty)
{
    dfpn_table_t t;
    ck_assert(dfpn_table_init(&t, 1));
    const uint64_t key = 0x9E3779B97F4A7C15ull, other = key + (t.mask + 1); /* the same bucket */
    dfpn_hit_t hit;
    dfpn_table_store(&t, key, 0, DFPN_INF, 7, 100);
    ck_assert(dfpn_table_probe(&t, key, &hit));
    ck_assert(hit.pn == 0 && hit.dn == DFPN_INF && hit.dist == 7);
    dfpn_entry_t *e = &t.buckets[key & t.mask].e[0], saved = {0};
    for (int w = 0; w < 4; w++)
        saved.w[w] = atomic_load(&e->w[w]);
    const uint64_t dep = 0x123456789ull;
    dfpn_table_store_on_line(&t, other, &dep, 1, 1); /* every word unlike key's */
    dfpn_entry_t *o = &t.buckets[key & t.mask].e[1];
    for (int w = 1; w < 4; w++) {
        for (int k = 0; k < 4; k++) /* the entry as written, but word w another entry's */
            atomic_store(&e->w[k], k == w ? atomic_load(&o->w[k]) : atomic_load(&saved.w[k]));
        ck_assert_msg(!dfpn_table_probe(&t, key, &hit), "word %d torn: read as pn %u dn %u", w, hit.pn, hit.dn);
    }
    ck_assert(dfpn_table_probe(&t, other, &hit) && hit.dn == 0 && hit.deps == 1 && hit.dep[0] == dep);
    dfpn_table_free(&t);
}
END_TEST

Suite *suite_solve(void)
{
    Suite *s = suite_create("solve");
    TCase *tc = tcase_create("solve");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, suite_wins_at_their_length, 0, (int)(sizeof suite_cases / sizeof suite_cases[0]));
    tcase_add_loop_test(tc, brandubh_against_exhaustive_search, 0, 4);
    tcase_add_test(tc, bolix_against_exhaustive_search);
    tcase_add_loop_test(tc, brax_against_exhaustive_search, 0, 4);
    tcase_add_loop_test(tc, history_changes_the_answer_as_the_rules_say, 0, 2);
    tcase_add_test(tc, endgames_solved_outright);
    tcase_add_test(tc, threads_agree);
    tcase_add_test(tc, threads_race_on_a_real_position);
    tcase_add_test(tc, budget_leaves_it_open);
    tcase_add_test(tc, torn_table_entry_reads_as_empty);
    tcase_add_test(tc, reported_length_is_the_proofs);
    suite_add_tcase(s, tc);
    return s;
}
