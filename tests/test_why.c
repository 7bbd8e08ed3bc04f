/* test_why.c: the engine says where and why (issue 54). For every family
 * of games, a position per reason a move is refused, with the words a
 * person reads (game.h, explain_illegal); the cells and sentence that name
 * how a finished game ended (explain_result, `state`'s result); and
 * protocol transcripts with the exact error line and JSON. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/variants.h"
#include "../protocol/ugi/protocol.h"
#include "helpers.h"

/* A move the game refuses, and the reason it must give. `moves` are
 * played from `fen` first (NULL: none). */
typedef struct refusal {
    const char *variant, *fen, *moves, *text, *reason;
} refusal_t;

#define BRAX_START "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0"
#define BRAX_4P_START "3RRR3/9/9/b7B/b7B/b7B/9/9/3rrr3 r - - - 0"
#define BDB_START "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"
#define BOLIX_START "6/7/8/9/10/10/9/8/7/6 b 36 36 - 0"
#define JINXX_START ".,.,./.,.,./.,.,. 333/333 p1 SM 0"
/* Black to place: e5xe6 or e5xe7 (e8 black encloses them). */
#define BOLIX_PAIR "6/7/8/9/4bww3/10/9/8/7/6 b 33 34 - 0"

static const refusal_t refusals[] = {
    /* brax and its two-player variants */
    {"brax", BRAX_START, NULL, "zzz",
     "it is not a move in Brax notation: a move names its start and end points, such as e3e5; a double capture "
     "names its middle point too, such as e6f6f5; a Brax call adds +, such as d6e6+"},
    {"brax", BRAX_START, NULL, "e1j1+", "j1 is off the board: the points run from a1 to i9"},
    {"brax", BRAX_START, NULL, "a1a2", "there is no man on a1"},
    {"brax", BRAX_START, NULL, "b9b8", "the man on b9 is Blue's, not yours: Red is to move"},
    {"brax", BRAX_START, NULL, "b1b1", "a man must move: b1 is both its start and its end"},
    {"brax", BRAX_START, NULL, "b1b4",
     "b4 is too far from b1: a man moves one step along a line, or two steps along segments of its own colour"},
    {"brax", BRAX_START, NULL, "b1c2",
     "a two-step move follows two red segments (your colour), and no such way joins b1 to c2"},
    {"brax", BRAX_START, NULL, "b1c1",
     "your own man stands on c1: a man moves to an empty point or onto an enemy man"},
    {"brax", BRAX_START, NULL, "e1f1f2",
     "a two-step move follows two red segments (your colour), but e1-f1 is blue and f1-f2 is red"},
    {"brax", BRAX_START, NULL, "e1f1e2", "e1, f1, e2 is not a way along the lines: each point must be next to the one before"},
    {"brax", "4b4/9/9/9/9/9/9/4r4/4r4 r - 0", NULL, "e1e3",
     "the way is blocked: a man of your side stands on e2, and men never jump"},
    {"brax", "4b4/9/9/9/9/9/9/4b4/4r4 r - 0", NULL, "e1e3",
     "a two-step move may not jump the enemy man on e2 onto an empty point: a double capture needs enemy men on "
     "both e2 and e3"},
    {"brax", "4b4/9/9/9/9/9/4b4/4b4/4r4 r - 0", NULL, "e1e3", "a double capture names its middle point: write e1e2e3"},
    {"brax", BRAX_START, NULL, "e1e2+",
     "after this move no man of Blue's is threatened: a Brax call needs a man you could take on your next move"},
    {"brax", BRAX_START, "e1e3", "e9e8+",
     "after this move no man of Red's is threatened: a Brax call needs a man you could take on your next move"},
    {"brax", "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r r 0", NULL, "e1e2+",
     "you called Brax on your last move, and may not call twice running"},
    {"brax", "3bb4/9/9/9/9/9/9/9/4r4 r - 0", NULL, "e1e2+",
     "no Brax call while one side has exactly one man and the other one or two; after this move it is 1 against 2"},
    {"brax", "9/9/9/9/4b4/4r4/9/9/r8 r b 0", NULL, "a1a2",
     "Blue called Brax, so you must move one of your threatened men (e4)"},
    {"brax", BRAX_START, NULL, "pass", "there is no pass in brax: a player who cannot move loses"},
    {"brax-zillions", "4b4/9/9/9/9/9/4b4/4b4/4r4 r - 0", NULL, "e1e2e3",
     "brax-zillions has no double captures: a man never jumps, even over the enemy man on e2"},
    {"brax-zillions", "3bb4/9/9/9/9/9/9/9/3rr4 r - 0", NULL, "e1e2+",
     "a Brax call needs two men or more on the caller's side and three or more on the other; after this move it is "
     "2 against 2"},
    {"brax-easy", BRAX_START, NULL, "e1e2+", "brax-easy has no Brax call: write the move without +"},
    {"brax-easy", BRAX_START, NULL, "e1",
     "it is not a move in Brax notation: a move names its start and end points, such as e3e5"},
    {"brax-hunt", "1bbbbbbb1/9/9/9/9/9/9/9/4r4 r - 0", NULL, "d1d1", "there is no man on d1"},
    /* the team games */
    {"brax-4p", BRAX_4P_START, NULL, "zz",
     "it is not a move in Brax notation: a move names its start and end points, such as e3e5; a double capture "
     "names its middle point too, such as e6f6f5; a Brax call adds +, such as d6e6+; a player who cannot move "
     "writes pass"},
    {"brax-4p", BRAX_4P_START, NULL, "d9d8",
     "the man on d9 is your partner North's: each player moves only their own men"},
    {"brax-4p", BRAX_4P_START, NULL, "a4a3", "the man on a4 is West's, not yours: South is to move"},
    {"brax-4p", BRAX_4P_START, NULL, "pass", "a player may pass only when they cannot move, and you can"},
    {"brax-4p", "3RRR3/9/9/8B/8B/8B/9/9/3rrr3 r - - - 0", NULL, "e1e2+",
     "the next player to move is your partner, and a Brax call binds only an opponent"},
    {"brax-3p", "9/2b1b4/3b5/4r4/9/9/2R6/9/1r3R3 b1 - - d7 2", NULL, "d7d6",
     "Blue's second move must move another man: the man on d7 has already moved this turn"},
    {"brax-3p", "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 b1 - - - 0", NULL, "c9c8+",
     "Blue calls Brax only at the end of its turn, on its second move"},
    /* brandubh, both versions */
    {"brandubh", BDB_START, NULL, "zz",
     "it is not a move in Brandubh notation: a move is its start and end square, such as d2c2"},
    {"brandubh", BDB_START, NULL, "d2d8", "d8 is off the board: the squares run from a1 to g7"},
    {"brandubh", BDB_START, NULL, "b1b2", "there is no piece on b1"},
    {"brandubh", BDB_START, NULL, "d3c3", "the defender on d3 is not yours: the attackers are to move"},
    {"brandubh", BDB_START, "d2c2", "c2c1", "the attacker on c2 is not yours: the defenders are to move"},
    {"brandubh", BDB_START, NULL, "d2d2", "a piece must move: d2 is both its start and its end"},
    {"brandubh", BDB_START, NULL, "d2e3",
     "pieces move like rooks, along a rank or a file, and d2 and e3 share neither"},
    {"brandubh", BDB_START, NULL, "d2d3", "d3 is taken: a piece never lands on another"},
    {"brandubh", "7/7/7/a2k3/7/7/7 a", NULL, "a4e4", "the way is blocked on d4: pieces cannot jump"},
    {"brandubh", "7/a6/7/3k3/7/7/7 a", NULL, "a6a7", "only the king may stop on a corner such as a7"},
    {"brandubh", "7/7/7/a6/7/7/3k3 a", NULL, "a4d4",
     "only the king may stop on the throne d4; other pieces may only pass over it while it is empty"},
    {"brandubh-v2", "7/7/3k3/7/7/7/1a5 d", NULL, "d5d4",
     "in version 2 no piece may stop on the throne once the king has left it, the king included"},
    /* bolix */
    {"bolix", BOLIX_START, NULL, "zz",
     "it is not a move in Bolix notation: a move is the cell you place on, such as e5, or the cell and the marble "
     "it removes, such as e5xf6; with no marble in hand, pass"},
    {"bolix", BOLIX_START, NULL, "a7", "a7 is off the board: column a holds a1 to a6"},
    {"bolix", BOLIX_START, NULL, "k1", "k1 is off the board: the columns run from a to j"},
    {"bolix", BOLIX_START, NULL, "pass", "you may pass only when you have no marble left in hand (you have 36)"},
    {"bolix", BOLIX_START, "e5", "e5", "e5 is taken: a marble goes on an empty cell"},
    {"bolix", BOLIX_PAIR, "e8xe6", "e6",
     "ko: your marble was just taken from e6, and you may not place there again on this very turn"},
    {"bolix", BOLIX_PAIR, NULL, "e8",
     "placing on e8 encloses two of the opponent's marbles, and you must choose which to remove: e8xe6 or e8xe7"},
    {"bolix", BOLIX_PAIR, NULL, "e8xe5",
     "e5 is not one of the marbles that placing on e8 encloses: e8xe6 or e8xe7"},
    {"bolix", BOLIX_START, NULL, "e5xf6",
     "placing on e5 encloses no pair of the opponent's marbles (yours, theirs, theirs, yours in a line), so there "
     "is nothing to remove: write e5"},
    {"bolix", "6/7/8/9/bbbb6/4w5/3w5/2b5/7/6 b 31 34 - 0", NULL, "e5xf5",
     "placing on e5 makes five in a row and wins at once, so it captures nothing: write e5"},
    {"bolix", "6/7/8/9/4b5/10/9/8/7/6 w 35 0 - 0", NULL, "e6", "you have no marble left in hand, so you must pass"},
    /* jinxx, two players and more */
    {"jinxx", ".,.,./.,.,./.,.,. 333/333 p1 - 0", NULL, "M@b1",
     "the die is still to be rolled: the moves here are its faces, S, M, L, SM, SL and ML"},
    {"jinxx", JINXX_START, NULL, "zz",
     "it is not a move in Jinxx notation: a move is a size and the cells it leaves and reaches, such as Mb1b2, or "
     "from your tree a size, @ and the cell it enters, such as M@b1; also reroll and pass"},
    {"jinxx", JINXX_START, NULL, "S",
     "the die is already rolled (SM): now move a pyramid of a size it shows, such as Mb1b2 or M@b1"},
    {"jinxx", JINXX_START, NULL, "L@b1", "the die shows SM, which allows a small or a medium pyramid, not a large one"},
    {"jinxx", ".,.,./.,.,./.,.,. 333/333 p1 L 0", NULL, "M@b1",
     "the die shows L, which allows only a large pyramid, not a medium one"},
    {"jinxx", JINXX_START, NULL, "reroll",
     "the roll gives you a move with your own pyramids, so you must make one: no reroll"},
    {"jinxx", "L1,S2,L1/S2,.,M2/L1,S2,. 000/221 p1 S 0", NULL, "reroll",
     "you may roll again only when some face of the die would give you a move of your own, and none would"},
    {"jinxx", JINXX_START, NULL, "pass", "a pass is allowed only when no other move is"},
    {"jinxx", JINXX_START, NULL, "M@a2", "none of your trees stands in front of a2: yours are in front of a1, b1 and c1"},
    {"jinxx", JINXX_START, "M@b1 L L@b3 S", "S@b1", "your tree in front of b1 has no small pyramid left"},
    {"jinxx", JINXX_START, NULL, "Md1d2", "d1 is off the board: the cells run from a1 to c3"},
    {"jinxx", JINXX_START, NULL, "Sa1a2", "there is no small pyramid on a1"},
    {"jinxx", JINXX_START, "M@b1 L L@b3 ML", "Mb1c2",
     "a pyramid moves exactly one cell along a rank or a file, and b1 to c2 is not one"},
    {"jinxx", JINXX_START, "M@b1 L L@b3 M", "Mb3b2",
     "the medium pyramid on b3 is North's: the roll gives you a move of your own, so you must move one of your own "
     "pyramids"},
    {"jinxx", ".,.,./.,.,./.,M2S2,. 333/133 p1 L 0", NULL, "L@b1",
     "a pyramid lands only on an empty cell or on a pyramid at least its size, and the top of b1 is small"},
    {"jinxx-3p", ".,.,./.,.,./.,.,. 333/333/333 p2 SM 0", NULL, "M@b1",
     "none of your trees stands in front of b1: yours are in front of a1, a2 and a3"},
    {"jinxx-4p", ".,.,./.,.,./.,.,. 333/333/333/333 p4 SM 0", NULL, "M@a1",
     "none of your trees stands in front of a1: yours are in front of c1, c2 and c3"},
};

#define N_REFUSALS ((int)(sizeof refusals / sizeof refusals[0]))

static void set_up(const game_t *g, position_t *pos, const char *fen, const char *moves)
{
    load_fen(g, pos, fen);
    char list[256];
    snprintf(list, sizeof list, "%s", moves ? moves : "");
    for (char *m = strtok(list, " "); m; m = strtok(NULL, " "))
        play(g, pos, m);
}

START_TEST(every_refusal_names_its_rule)
{
    const refusal_t *r = &refusals[_i];
    const game_t *g = variants_find(r->variant);
    ck_assert(g);
    position_t pos;
    set_up(g, &pos, r->fen, r->moves);
    ck_assert_msg(g->parse_move(&pos, r->text) == MOVE_NONE, "%s: '%s' is legal", r->variant, r->text);
    char why[GAME_ILLEGAL_MAX];
    game_explain_illegal(g, &pos, r->text, why, sizeof why);
    ck_assert_msg(strcmp(why, r->reason) == 0, "%s, %s: '%s'\n got: %s\nwant: %s", r->variant, r->fen, r->text, why,
                  r->reason);
}
END_TEST

/* Moves typed in the other case are the same moves, where the notation
 * reads the same both ways; Jinxx keeps its capitals for sizes. */
START_TEST(moves_are_read_in_either_case)
{
    static const struct {
        const char *variant, *fen, *typed, *canonical;
    } cases[] = {
        {"brax", BRAX_START, "E1E3", "e1e3"},
        {"brax", "4b4/9/9/9/9/9/4b4/4b4/4r4 r - 0", "E1e2E3", "e1e2e3"},
        {"brax-4p", BRAX_4P_START, "E1E2", "e1e2"},
        {"brandubh", BDB_START, "D2C2", "d2c2"},
        {"bolix", BOLIX_PAIR, "E8XE6", "e8xe6"},
        {"jinxx", JINXX_START, "m@B1", "M@b1"},
        {"jinxx", ".,.,./.,.,./.,.,. 333/333 p1 - 0", "sm", "SM"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const game_t *g = variants_find(cases[i].variant);
        position_t pos;
        load_fen(g, &pos, cases[i].fen);
        move_t m = g->parse_move(&pos, cases[i].typed);
        ck_assert_msg(m != MOVE_NONE, "%s: %s", cases[i].variant, cases[i].typed);
        ck_assert(m == g->parse_move(&pos, cases[i].canonical));
    }
}
END_TEST

/* Any text, in positions reached by random play in every variant, gets
 * one phrase without a full stop (the sanitizers watch odd text being
 * read): legal moves' texts cut, grown and with letters changed, and
 * strings of the letters the notations use. */
START_TEST(every_text_gets_a_reason)
{
    const game_t *g = variants_at(_i);
    rng_t rng = {0x5EED0000u + (uint64_t)_i};
    static const char letters[] = "abcdefghijkx@+SMLsml0123456789pasr";
    position_t pos;
    g->set_start(&pos);
    for (int ply = 0; ply < 150; ply++) {
        move_t moves[MAX_MOVES];
        int n = g->gen_moves(&pos, moves);
        if (n == 0) {
            g->set_start(&pos);
            continue;
        }
        for (int k = 0; k < 12; k++) {
            char text[GAME_MOVE_TEXT_MAX];
            g->move_text(&pos, moves[rng_below(&rng, (uint32_t)n)], text, sizeof text);
            size_t len = strlen(text);
            if (k % 3 == 0)
                text[rng_below(&rng, (uint32_t)len)] = letters[rng_below(&rng, sizeof letters - 1)];
            else if (k % 3 == 1)
                text[rng_below(&rng, (uint32_t)len + 1)] = 0;
            else
                for (size_t c = 0; c < 1 + rng_below(&rng, 8) && c + 1 < sizeof text; c++)
                    text[c] = letters[rng_below(&rng, sizeof letters - 1)], text[c + 1] = 0;
            if (g->parse_move(&pos, text) != MOVE_NONE)
                continue;
            char why[GAME_ILLEGAL_MAX];
            game_explain_illegal(g, &pos, text, why, sizeof why);
            ck_assert_msg(why[0] && why[strlen(why) - 1] != '.', "%s '%s': '%s'", g->name, text, why);
        }
        undo_t u;
        g->make(&pos, moves[rng_below(&rng, (uint32_t)n)], &u);
    }
}
END_TEST

/* A finished game: its cells and sentence. */
typedef struct ending_case {
    const char *variant, *position, *cells, *text;
} ending_case_t;

static const ending_case_t endings[] = {
    {"brax", "fen 9/9/9/9/9/9/9/4b4/4r4 r - 0 moves e1e2", "e2", "Red took the last blue man, on e2."},
    {"brax", "fen 4r4/9/9/9/9/9/4b4/4b4/4r4 r - 0 moves e1e2e3", "e2 e3", "Red took the last blue men, on e2 and e3."},
    {"brax", "fen 9/9/9/9/9/9/9/4r4/9 r - 0", "", "Blue has no men left."},
    {"brax", "fen b8/9/9/9/9/9/9/9/4r4 r - 10", "e1 a9", "One man against one, and ten moves without a capture: drawn."},
    {"brax-4p", "fen 9/9/9/9/9/9/4b4/4r4/9 b - - - 0 moves e3e2", "e2", "The blue team took the last red man, on e2."},
    {"brandubh", "fen 7/1a5/7/7/1k5/1a5/7 a moves b6b4", "b3 b4 b2", "The attackers captured the king on b3, with b4 and b2."},
    {"brandubh", "fen 1a5/7/7/7/7/7/1k5 d moves b1a1", "a1", "The king reached the corner a1."},
    {"brandubh-v2", "fen 7/7/3a3/2aka2/7/7/3a3 a moves d1d3", "d4 d5 d3 e4 c4",
     "The attackers captured the king on d4, with d5, d3, e4 and c4."},
    {"bolix", "fen 6/7/8/9/bbbb6/10/9/8/7/6 b 32 36 - 0 moves e5", "e1 e2 e3 e4 e5",
     "Black has five in a row: e1 e2 e3 e4 e5."},
    {"bolix", "fen 6/7/8/9/10/10/9/8/7/6 b 0 0 - 2", "", "Both players passed, one after the other: drawn."},
    {"jinxx", "fen .,.,./S1,.,S1/.,S1,. 222/333 p1 S 0 moves Sb1b2", "a2 b2 c2", "South holds a line: a2 b2 c2."},
    {"jinxx", "fen L1,.,./.,S1,./.,.,M1 033/333 p1 M 0", "c1 b2 a3", "South holds a line: c1 b2 a3."},
    {"jinxx-3p", "fen .,.,./.,.,./.,.,. 333/x/x p1 - 0", "", "Only South is left: the others were vaporized."},
    {"jinxx-4p", "fen .,.,./.,.,./.,.,. 333/333/333/333 p1 - 60", "",
     "Sixty turns without a pyramid destroyed or entering the board: drawn."},
};

#define N_ENDINGS ((int)(sizeof endings / sizeof endings[0]))

START_TEST(every_ending_names_its_cells)
{
    const ending_case_t *c = &endings[_i];
    const game_t *g = variants_find(c->variant);
    record_t r = {0};
    char err[512] = "";
    ck_assert_msg(record_setup(&r, g, c->position, err, sizeof err), "%s: %s", c->position, err);
    ck_assert_msg(record_outcome(&r).kind != OUTCOME_NONE, "%s: not over", c->position);
    game_why_t why;
    record_explain(&r, &why);
    char cells[256] = "";
    for (int i = 0; i < why.cells; i++)
        snprintf(cells + strlen(cells), sizeof cells - strlen(cells), "%s%s", i ? " " : "", why.cell[i]);
    ck_assert_msg(strcmp(cells, c->cells) == 0, "%s: cells '%s', want '%s'", c->position, cells, c->cells);
    if (c->text)
        ck_assert_msg(strcmp(why.text, c->text) == 0, "%s: '%s'", c->position, why.text);
    /* A sentence for people: a capital first, a full stop last. */
    ck_assert_msg(why.text[0] >= 'A' && why.text[0] <= 'Z' && why.text[strlen(why.text) - 1] == '.', "'%s'",
                  why.text);
    record_free(&r);
}
END_TEST

/* Repetitions and forfeits end a game outside its rules: a sentence, no cells. */
START_TEST(record_endings_have_sentences)
{
    const game_t *g = variants_find("brandubh");
    record_t r = {0};
    char err[512];
    ck_assert(!record_setup(&r, g, "startpos moves d2c2 zz", err, sizeof err));
    game_why_t why;
    record_explain(&r, &why);
    ck_assert_str_eq(why.text, "An illegal move by defenders ended the game.");
    ck_assert_int_eq(why.cells, 0);
    ck_assert(record_setup(&r, g, "startpos moves a4a5 c4c5 a5a4 c5c4 a4a5 c4c5 a5a4 c5c4", err, sizeof err));
    ck_assert_int_eq(record_outcome(&r).kind, OUTCOME_DRAW);
    record_explain(&r, &why);
    ck_assert_str_eq(why.text, "The same position occurred for the third time: drawn.");
    ck_assert(record_setup(&r, variants_find("jinxx-3p"), "startpos moves SM zz", err, sizeof err) == false);
    record_explain(&r, &why);
    ck_assert_str_eq(why.text, "An illegal move by South ended the game: the others share the draw.");
    ck_assert(record_setup(&r, g, "startpos", err, sizeof err));
    record_explain(&r, &why);
    ck_assert_str_eq(why.text, "");
    record_free(&r);
}
END_TEST

/* ---- the protocol ---- */

/* In this process, or through DENHAM_ENGINE (make test-wasm). */
static const char *run(const char *input)
{
    static char *out_buf;
    free(out_buf);
    out_buf = protocol_transcript(input, strlen(input));
    return out_buf;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* The line is exactly `info string error: illegal move 'X': <reason>`, once,
 * the move named once. */
START_TEST(protocol_prints_the_rule_once)
{
    static const struct {
        const char *variant, *commands, *line;
    } cases[] = {
        {"brax", "position startpos moves b1b4",
         "info string error: illegal move 'b1b4': b4 is too far from b1: a man moves one step along a line, or two "
         "steps along segments of its own colour\n"},
        {"brax-3p", "position startpos moves b1b2 c9c8+",
         "info string error: illegal move 'c9c8+': Blue calls Brax only at the end of its turn, on its second move\n"},
        {"brandubh", "position startpos moves zzz",
         "info string error: illegal move 'zzz': it is not a move in Brandubh notation: a move is its start and end "
         "square, such as d2c2\n"},
        {"bolix", "position startpos moves e5 e5",
         "info string error: illegal move 'e5': e5 is taken: a marble goes on an empty cell\n"},
        {"jinxx-4p", "position startpos moves SM L@b1",
         "info string error: illegal move 'L@b1': the die shows SM, which allows a small or a medium pyramid, not a "
         "large one\n"},
        {"brandubh", "go searchmoves d2d2 depth 1",
         "info string error: go searchmoves: illegal move 'd2d2': a piece must move: d2 is both its start and its "
         "end\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char input[512];
        snprintf(input, sizeof input, "setoption name UCI_Variant value %s\n%s\nisready\n", cases[i].variant,
                 cases[i].commands);
        const char *out = run(input);
        ck_assert_msg(strstr(out, cases[i].line), "%s: %s", cases[i].commands, out);
        ck_assert_msg(count(out, "illegal move") == 1, "%s", out);
    }
}
END_TEST

START_TEST(protocol_accepts_capitals)
{
    const char *out = run("setoption name UCI_Variant value brandubh\nposition startpos moves D2C2 D3D2\nstate\n");
    ck_assert_msg(!strstr(out, "error"), "%s", out);
    ck_assert_msg(strstr(out, "\"plies\":2"), "%s", out);
}
END_TEST

/* `state` names the decisive cells and says why in a sentence. */
START_TEST(state_names_the_decisive_cells)
{
    const char *out = run("setoption name UCI_Variant value brandubh\n"
                          "position fen 7/1a5/7/7/1k5/1a5/7 a moves b6b4\nstate\n");
    ck_assert_msg(strstr(out, "\"result\":{\"kind\":\"win\",\"players\":[0],\"reason\":\"king captured\","
                              "\"text\":\"The attackers captured the king on b3, with b4 and b2.\","
                              "\"decisive\":[\"b3\",\"b4\",\"b2\"]}"),
                  "%s", out);
    out = run("setoption name UCI_Variant value bolix\nposition startpos moves zz\nstate\n");
    ck_assert_msg(strstr(out, "\"reason\":\"illegal move\",\"text\":\"An illegal move by black ended the game.\","
                              "\"decisive\":[]}"),
                  "%s", out);
}
END_TEST

Suite *suite_why(void)
{
    Suite *s = suite_create("why");
    TCase *tc = tcase_create("why");
    tcase_add_loop_test(tc, every_refusal_names_its_rule, 0, N_REFUSALS);
    tcase_add_test(tc, moves_are_read_in_either_case);
    int variants = 0;
    while (variants_at(variants))
        variants++;
    tcase_add_loop_test(tc, every_text_gets_a_reason, 0, variants);
    tcase_add_loop_test(tc, every_ending_names_its_cells, 0, N_ENDINGS);
    tcase_add_test(tc, record_endings_have_sentences);
    tcase_add_test(tc, protocol_prints_the_rule_once);
    tcase_add_test(tc, protocol_accepts_capitals);
    tcase_add_test(tc, state_names_the_decisive_cells);
    suite_add_tcase(s, tc);
    return s;
}
