/* test_describe.c: the descriptions for GUIs (`layout`, `state`,
 * `legalmoves`) in every variant, over random games: valid JSON, every
 * cell they name on the board the layout draws, every legal move listed
 * once and told apart by its clicks and label, captures shown as removals,
 * and the protocol commands' lines. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/variants.h"
#include "../protocol/ugi/describe.h"
#include "../protocol/ugi/protocol.h"
#include "helpers.h"
#include "../bench/tools/json_check.h"

#define CELLS_MAX 256

typedef struct board_ids {
    int n;
    char id[CELLS_MAX][16];
} board_ids_t;

static bool has_id(const board_ids_t *b, const char *id)
{
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->id[i], id) == 0)
            return true;
    return false;
}

/* The layout of g, checked, and the names of its cells. */
static void read_layout(const game_t *g, board_ids_t *ids)
{
    json_t j;
    json_init(&j);
    ck_assert(describe_layout(g, &j));
    ck_assert_msg(json_valid(j.buf), "%s layout: %s", g->name, j.buf);
    const char *cells = json_member(j.buf, "cells");
    ck_assert_ptr_nonnull(cells);
    ids->n = json_length(cells);
    ck_assert_int_gt(ids->n, 0);
    ck_assert_int_le(ids->n, CELLS_MAX);
    for (int i = 0; i < ids->n; i++) {
        const char *cell = json_element(cells, i);
        ck_assert(json_string_at(json_member(cell, "id"), ids->id[i], sizeof ids->id[i]));
        ck_assert_ptr_nonnull(json_member(cell, "x"));
        ck_assert_ptr_nonnull(json_member(cell, "shape"));
        for (int k = 0; k < i; k++)
            ck_assert_msg(strcmp(ids->id[k], ids->id[i]) != 0, "%s: cell %s twice", g->name, ids->id[i]);
    }
    ck_assert_int_eq(json_length(json_member(j.buf, "colors")), g->players);
    ck_assert_int_eq(json_length(json_member(j.buf, "seats")), g->players);
    /* Every game has its links, [] where it draws none (issue 62, 1.11). */
    const char *links = json_member(j.buf, "links");
    ck_assert_msg(links && *links == '[', "%s layout has no links array: %s", g->name, j.buf);
    for (int i = 0; i < json_length(links); i++) {
        char a[16], b[16];
        ck_assert(json_string_at(json_member(json_element(links, i), "a"), a, sizeof a) && has_id(ids, a));
        ck_assert(json_string_at(json_member(json_element(links, i), "b"), b, sizeof b) && has_id(ids, b));
    }
    json_free(&j);
}

/* The state of r: valid, every piece on a cell of the layout. Returns how
 * many pieces it shows. */
static int check_state(const record_t *r, const board_ids_t *ids)
{
    json_t j;
    json_init(&j);
    ck_assert(describe_state(r, &j));
    ck_assert_msg(json_valid(j.buf), "%s state: %s", r->game->name, j.buf);
    const char *pieces = json_member(j.buf, "pieces");
    int count = 0;
    for (int i = 0; i < json_length(pieces); i++) {
        const char *p = json_element(pieces, i);
        char cell[16];
        ck_assert(json_string_at(json_member(p, "cell"), cell, sizeof cell));
        ck_assert_msg(has_id(ids, cell), "%s: piece on unknown cell %s", r->game->name, cell);
        const char *stack = json_member(p, "stack");
        ck_assert_int_gt(json_length(stack), 0);
        for (int k = 0; k < json_length(stack); k++) {
            int owner = atoi(json_member(json_element(stack, k), "owner"));
            ck_assert(owner >= 0 && owner < r->game->players);
            count++;
        }
    }
    /* Marks on cells of the layout, each with its sentence; seats gone
     * are seats no longer in, each said; notes are sentences. */
    const char *marks = json_member(j.buf, "marks");
    for (int i = 0; marks && i < json_length(marks); i++) {
        char cell[16], text[256] = "";
        ck_assert(json_string_at(json_member(json_element(marks, i), "cell"), cell, sizeof cell));
        ck_assert_msg(has_id(ids, cell), "%s: mark on unknown cell %s", r->game->name, cell);
        ck_assert(json_string_at(json_member(json_element(marks, i), "text"), text, sizeof text) && text[0]);
    }
    const char *gone = json_member(j.buf, "gone");
    player_mask_t in = game_players_in(r->game, &r->pos);
    for (int i = 0; gone && i < json_length(gone); i++) {
        int seat = atoi(json_member(json_element(gone, i), "seat"));
        char text[256] = "";
        ck_assert_msg(seat >= 0 && seat < r->game->players && !(in & player_bit(seat)), "%s: seat %d gone but in",
                      r->game->name, seat);
        ck_assert(json_string_at(json_member(json_element(gone, i), "text"), text, sizeof text) && text[0]);
    }
    const char *notes = json_member(j.buf, "notes");
    for (int i = 0; notes && i < json_length(notes); i++) {
        char text[256] = "";
        ck_assert(json_string_at(json_element(notes, i), text, sizeof text) && text[0]);
    }
    char fen[GAME_FEN_MAX], shown[GAME_FEN_MAX];
    r->game->write_fen(&r->pos, fen, sizeof fen);
    ck_assert(json_string_at(json_member(j.buf, "fen"), shown, sizeof shown));
    ck_assert_str_eq(fen, shown);
    ck_assert_int_eq(atoi(json_member(j.buf, "turn")), r->game->to_move(&r->pos));
    json_free(&j);
    return count;
}

/* The moves of r: one entry per legal move, in the game's notation, clicks
 * on the layout's cells, and no two moves with the same clicks and label
 * (a person can enter every move). */
static void check_moves(const record_t *r, const board_ids_t *ids)
{
    const game_t *g = r->game;
    json_t j;
    json_init(&j);
    ck_assert(describe_moves(r, &j));
    ck_assert_msg(json_valid(j.buf), "%s moves: %s", g->name, j.buf);
    move_t legal[MAX_MOVES];
    int n = record_legal_moves(r, legal);
    const char *moves = json_member(j.buf, "moves");
    ck_assert_int_eq(json_length(moves), n);
    bool chance = strncmp(json_member(j.buf, "chance"), "true", 4) == 0;
    ck_assert(chance == game_at_chance(g, &r->pos));
    static char keys[MAX_MOVES][128];
    for (int i = 0; i < n; i++) {
        const char *m = json_element(moves, i);
        char text[GAME_MOVE_TEXT_MAX], label[64] = "";
        ck_assert(json_string_at(json_member(m, "move"), text, sizeof text));
        move_t mv = g->parse_move(&r->pos, text);
        ck_assert_msg(mv != MOVE_NONE && move_in(mv, legal, n), "%s: '%s' is not legal", g->name, text);
        json_string_at(json_member(m, "label"), label, sizeof label);
        const char *clicks = json_member(m, "clicks");
        size_t len = (size_t)snprintf(keys[i], sizeof keys[i], "%s|", label);
        for (int k = 0; k < json_length(clicks); k++) {
            char cell[16];
            ck_assert(json_string_at(json_element(clicks, k), cell, sizeof cell));
            ck_assert_msg(has_id(ids, cell), "%s '%s': click on unknown cell %s", g->name, text, cell);
            len += (size_t)snprintf(keys[i] + len, sizeof keys[i] - len, "%s,", cell);
        }
        if (chance)
            ck_assert_int_gt(atoi(json_member(m, "weight")), 0);
        /* A note says what a move without cells does; only those have one. */
        char note[256] = "";
        if (json_string_at(json_member(m, "note"), note, sizeof note))
            ck_assert_msg(note[0] && json_length(clicks) == 0, "%s '%s': note '%s'", g->name, text, note);
        /* Captures show what they take, and only captures do. */
        const char *removes = json_member(m, "removes");
        for (int k = 0; k < json_length(removes); k++) {
            char cell[16];
            ck_assert(json_string_at(json_element(removes, k), cell, sizeof cell) && has_id(ids, cell));
        }
        if (!chance && g->players == 2 && !g->chance_outcomes)
            ck_assert_msg((json_length(removes) > 0) == ((mv & MOVE_CAPTURE) != 0), "%s '%s': removes %d", g->name,
                          text, json_length(removes));
        for (int k = 0; k < i; k++)
            ck_assert_msg(strcmp(keys[k], keys[i]) != 0, "%s: two moves entered as %s", g->name, keys[i]);
    }
    json_free(&j);
}

START_TEST(every_variant_describes_its_games)
{
    const game_t *g = variants_at(_i);
    board_ids_t ids;
    read_layout(g, &ids);
    rng_t rng = {2026 + (uint64_t)_i};
    static record_t r;
    int positions = 0, with_pieces = 0;
    for (int game = 0; game < 6; game++) {
        position_t start;
        g->set_start(&start);
        ck_assert(record_init(&r, g, &start));
        for (int ply = 0; ply < 80; ply++) {
            if (check_state(&r, &ids) > 0)
                with_pieces++;
            check_moves(&r, &ids);
            positions++;
            move_t moves[MAX_MOVES];
            int n = record_legal_moves(&r, moves);
            if (n == 0)
                break;
            ck_assert(record_play(&r, moves[rng_below(&rng, (uint32_t)n)]));
        }
    }
    record_free(&r);
    ck_assert_int_gt(positions, 100);
    ck_assert_int_gt(with_pieces, 50);
}
END_TEST

/* The protocol's whole output for input (malloc'd): in this process, or
 * through DENHAM_ENGINE (make test-wasm). */
static char *run_protocol(const char *input) { return protocol_transcript(input, strlen(input)); }

/* The description of the position after `moves` from `start` (malloc'd). */
static char *state_after(const char *variant, const char *start, const char *moves, bool legal)
{
    char input[1024];
    snprintf(input, sizeof input, "setoption name UCI_Variant value %s\nposition %s%s%s\n%s\n", variant, start,
             moves[0] ? " moves " : "", moves, legal ? "legalmoves" : "state");
    char *out = run_protocol(input);
    const char *line = strstr(out, legal ? "legalmoves {" : "state {");
    ck_assert_msg(line, "%s", out);
    line = strchr(line, '{');
    char *copy = strndup(line, strcspn(line, "\n"));
    free(out);
    ck_assert_msg(json_valid(copy), "%s", copy);
    return copy;
}

/* What a player should know, in words and on the board (issue 63): a
 * Brax call, its threatened man marked, in two-player and team Brax; a
 * Jinxx player vaporized; why Jinxx's mover may roll again; a tree's name. */
START_TEST(what_a_player_should_know)
{
    char *st = state_after("brax", "startpos",
                           "g1g2 h9h8 g2h2 b9a9 f1f2 g9h9 b1a1 a9b8 h2g2 h9g9 c1c2 g9h9 h1i1 e9d8 f2f1 d9e9 a1b2 "
                           "f9f8 c2c3 d8c8 b2b3 f8f9 e1e2 b8b9 c3c5 c8c7+", false);
    char text[256];
    ck_assert(json_string_at(json_element(json_member(st, "notes"), 0), text, sizeof text));
    ck_assert_str_eq(text, "blue called Brax: red must move a threatened man (c5, marked)");
    ck_assert_int_eq(json_length(json_member(st, "marks")), 1);
    ck_assert(json_string_at(json_member(json_element(json_member(st, "marks"), 0), "cell"), text, sizeof text));
    ck_assert_str_eq(text, "c5");
    free(st);
    st = state_after("brax", "startpos", "g1g2 h9h8", false); /* no call: nothing said, nothing marked */
    ck_assert_int_eq(json_length(json_member(st, "notes")), 0);
    ck_assert_int_eq(json_length(json_member(st, "marks")), 0);
    free(st);
    st = state_after("brax-3p", "startpos",
                     "c1c2 d9d8 c9b9 h1g2 g9g8 d8e8 b1c1 e8f8 g8g7 g2f2 e9d9 f8e8 c2c3 f9g8 g7f7 g1h2 b9b8 d9c9 "
                     "d1e2 b8b9 e8e7 f1g1 f7g7 e7d6 c3c5+ d6c7 g8h8 f2f1 c7d6 g7f6 c1e1+ d6e6 b9b8 g1h1 h8i7 b8a8 "
                     "c5e5+ f6f7 c9c8 h1i1 f7f6 a8a7+", false);
    ck_assert(json_string_at(json_element(json_member(st, "notes"), 0), text, sizeof text));
    ck_assert_str_eq(text, "Blue called Brax: R1 must move a threatened man (e5, marked)");
    free(st);
    st = state_after("jinxx-4p", "fen .,.,S1/M1,L2,./M1,L3,. 000/033/033/333 p1 M 0", "Ma1a2", false);
    ck_assert_int_eq(json_length(json_member(st, "gone")), 1);
    ck_assert_int_eq(atoi(json_member(json_element(json_member(st, "gone"), 0), "seat")), 0);
    ck_assert(json_string_at(json_member(json_element(json_member(st, "gone"), 0), "text"), text, sizeof text));
    ck_assert_str_eq(text, "South was vaporized: left with two pyramids, which can make no line, and both were removed.");
    free(st);
    st = state_after("jinxx", "fen .,.,./.,.,./M1,S1,S1 000/333 p1 L 0", "", false);
    ck_assert(json_string_at(json_element(json_member(st, "notes"), 0), text, sizeof text));
    ck_assert_str_eq(text, "no pyramid of South's can move with L: South may roll again");
    free(st);
    st = state_after("jinxx", "fen .,.,./.,.,./M1,S1,S1 000/333 p1 L 0", "", true);
    const char *reroll = json_element(json_member(st, "moves"), 0);
    ck_assert(json_string_at(json_member(reroll, "label"), text, sizeof text));
    ck_assert_str_eq(text, "Roll again");
    ck_assert(json_string_at(json_member(reroll, "note"), text, sizeof text));
    ck_assert_str_eq(text, "No pyramid of South's can move with L: roll the die again");
    free(st);
    json_t j;
    json_init(&j);
    ck_assert(describe_layout(variants_find("jinxx"), &j));
    ck_assert(strstr(j.buf, "\"id\":\"tree-0-a1\",\"name\":\"South's tree by a1\""));
    json_free(&j);
}
END_TEST

/* The protocol's lines: the word, a space, one JSON object. */
START_TEST(commands_answer_one_json_line_each)
{
    const char *input = "setoption name UCI_Variant value bolix\nposition startpos moves e5 f6\nlayout\nstate\n"
                        "legalmoves\nposition startpos moves e5 zz\nstate\n";
    char *out_buf = run_protocol(input);
    static const char *const words[] = {"layout ", "state ", "legalmoves ", "state "};
    const char *line = out_buf;
    for (int k = 0; k < 4; k++) {
        line = strstr(line, words[k]);
        ck_assert_msg(line, "%s", out_buf);
        line += strlen(words[k]);
        char *end = strchr(line, '\n');
        ck_assert_ptr_nonnull(end);
        char *copy = strndup(line, (size_t)(end - line));
        ck_assert_msg(json_valid(copy), "%s", copy);
        if (k == 1)
            ck_assert_int_eq(json_length(json_member(copy, "pieces")), 2);
        if (k == 3) { /* after an illegal move: the game over, won by Black */
            const char *result = json_member(copy, "result");
            ck_assert_ptr_nonnull(result);
            ck_assert(strncmp(json_member(result, "kind"), "\"win\"", 5) == 0);
            ck_assert(strncmp(json_member(result, "players"), "[0]", 3) == 0);
        }
        free(copy);
        line = end;
    }
    free(out_buf);
}
END_TEST

/* PROTOCOL.md's example, word for word. */
START_TEST(protocol_md_example)
{
    const char *input = "setoption name UCI_Variant value bolix\nposition startpos moves e5 f6\nstate\n";
    char *out_buf = run_protocol(input);
    ck_assert_str_eq(out_buf, "state {\"variant\":\"bolix\",\"fen\":\"6/7/8/9/4b5/5w4/9/8/7/6 b 35 35 - 0\","
                              "\"turn\":0,\"chance\":false,\"plies\":2,\"in\":[0,1],\"result\":null,\"pieces\":["
                              "{\"cell\":\"e5\",\"stack\":[{\"owner\":0,\"kind\":\"marble\",\"size\":0.8}]},"
                              "{\"cell\":\"f6\",\"stack\":[{\"owner\":1,\"kind\":\"marble\",\"size\":0.8}]}],"
                              "\"hand\":[35,35],\"barred\":[]}\n");
    free(out_buf);
}
END_TEST

START_TEST(json_checker_refuses_what_is_not_json)
{
    static const char *const bad[] = {"", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "01", "\"\\x\"", "[1] 2", "nul"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!json_valid(bad[i]), "accepted '%s'", bad[i]);
    ck_assert(json_valid("{\"a\":[1,-2.5e3,true,null,{\"b\":\"c\\n\"}]}"));
    json_t j;
    json_init(&j);
    json_object(&j);
    json_kstring(&j, "quote\"", "line\nbreak\x01");
    json_key(&j, "list");
    json_array(&j);
    json_int(&j, -7);
    json_number(&j, 0.25);
    json_bool(&j, false);
    json_null(&j);
    json_end(&j);
    json_end(&j);
    ck_assert_str_eq(j.buf, "{\"quote\\\"\":\"line\\nbreak\\u0001\",\"list\":[-7,0.25,false,null]}");
    ck_assert(json_valid(j.buf));
    json_free(&j);
}
END_TEST

Suite *suite_describe(void)
{
    Suite *s = suite_create("describe");
    TCase *tc = tcase_create("describe");
    tcase_set_timeout(tc, 300);
    int variants = 0;
    while (variants_at(variants))
        variants++;
    tcase_add_loop_test(tc, every_variant_describes_its_games, 0, variants);
    tcase_add_test(tc, commands_answer_one_json_line_each);
    tcase_add_test(tc, what_a_player_should_know);
    tcase_add_test(tc, json_checker_refuses_what_is_not_json);
    tcase_add_test(tc, protocol_md_example);
    suite_add_tcase(s, tc);
    return s;
}
