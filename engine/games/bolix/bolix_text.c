/*
 * bolix_text.c: Bolix in text: move names, position strings (reading,
 * writing, the start) and the board drawing. May not reach into the
 * evaluation, but to make sure the window values it hands the rules are
 * there before a position is set up.
 */
#include "bolix_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/number.h"
#include "bolix.h"
#include "bolix_eval.h"

static void cell_name(int c, char *out, size_t len)
{
    snprintf(out, len, "%c%d", 'a' + bolix_cell_q[c], bolix_cell_n[c]);
}

void bolix_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    if (m == PASS) {
        snprintf(buf, len, "pass");
        return;
    }
    char a[4], r[4];
    cell_name(move_place(m), a, sizeof a);
    if (move_removed(m) < 0) {
        snprintf(buf, len, "%s", a);
        return;
    }
    cell_name(move_removed(m), r, sizeof r);
    snprintf(buf, len, "%sx%s", a, r);
}

/* Cell names, `x` and `pass` have no capitals: `E5XF6` reads as `e5xf6`. */
move_t bolix_parse_move(const position_t *pos, const char *text)
{
    char lower[GAME_MOVE_TEXT_MAX];
    if (strlen(text) >= sizeof lower)
        return MOVE_NONE;
    game_lower(text, lower, sizeof lower);
    return game_find_move(&bolix, pos, lower);
}

int bolix_move_key(move_t m) { return m == PASS ? N_CELLS : move_place(m); }

/* ---- position strings ---- */

static void rehash(bolix_t *b)
{
    b->hash = (b->stm ? bolix_zobrist_side : 0) ^ bolix_zobrist_ko[b->ko == NO_CELL ? N_CELLS : b->ko] ^
              (b->passes ? bolix_zobrist_pass : 0);
    for (int s = 0; s < 2; s++)
        for (bb128_t m = b->men[s]; !bb128_empty(m);)
            b->hash ^= bolix_zobrist_men[s][bb128_pop(&m)];
}

void bolix_set_start(position_t *pos)
{
    bolix_tables_ensure();
    bolix_eval_ensure();
    memset(pos, 0, sizeof *pos);
    bolix_t *b = P(pos);
    b->hand[0] = b->hand[1] = HAND;
    b->ko = NO_CELL;
    rehash(b);
    bolix_recount(b);
}

static int parse_cell(const char *s, int *used)
{
    if (s[0] < 'a' || s[0] > 'j')
        return -1;
    char *end;
    long n = strtol(s + 1, &end, 10);
    if (end == s + 1 || n < 1 || n > 10)
        return -1;
    *used = (int)(end - s);
    return at(s[0] - 'a', (int)n);
}

bool bolix_parse_fen(position_t *pos, const char *fen, char *err, size_t errlen)
{
    bolix_tables_ensure();
    bolix_eval_ensure();
    memset(pos, 0, sizeof *pos);
    bolix_t *b = P(pos);
    const char *c = fen;
    for (int q = 0; q < 10; q++) {
        int n = col_lo[q];
        while (*c && *c != '/' && *c != ' ') {
            if (*c >= '0' && *c <= '9') {
                long long k;
                if (!number_read(&c, 1, 10, &k))
                    return game_fail(err, errlen, "empty runs must be 1 to 10");
                n += (int)k;
                continue;
            }
            if (*c != 'b' && *c != 'w')
                return game_fail(err, errlen, "unknown letter (expected b, w or a number)");
            if (n > col_hi[q])
                return game_fail(err, errlen, "column too long");
            b->men[*c == 'w'] = bb128_or(b->men[*c == 'w'], bb128_bit(at(q, n)));
            n++;
            c++;
        }
        if (n != col_hi[q] + 1)
            return game_fail(err, errlen, "a column has the wrong number of cells");
        if (q < 9) {
            if (*c != '/')
                return game_fail(err, errlen, "expected 10 columns separated by '/'");
            c++;
        }
    }
    char f[5][FEN_FIELD_MAX];
    if (*c != ' ' || fen_fields(c, f, 5) != 5)
        return game_fail(err, errlen, "expected: <board> <side b|w> <black hand> <white hand> <ko cell|-> <passes>");
    const char *side = f[0], *ko = f[3];
    long long hb, hw, passes;
    if (strcmp(side, "b") != 0 && strcmp(side, "w") != 0)
        return game_fail(err, errlen, "side to move must be 'b' or 'w'");
    b->stm = side[0] == 'w';
    if (!number_parse(f[1], 0, HAND, &hb) || !number_parse(f[2], 0, HAND, &hw) ||
        hb + bb128_popcount(b->men[0]) > HAND || hw + bb128_popcount(b->men[1]) > HAND)
        return game_fail(err, errlen, "hands and marbles on the board exceed 36 a side");
    b->hand[0] = (uint8_t)hb;
    b->hand[1] = (uint8_t)hw;
    if (!number_parse(f[4], 0, 2, &passes))
        return game_fail(err, errlen, "passes must be 0, 1 or 2");
    b->passes = (uint8_t)passes;
    if (strcmp(ko, "-") == 0) {
        b->ko = NO_CELL;
    } else {
        int used = 0, k = parse_cell(ko, &used);
        if (k < 0 || ko[used] || bb128_test(bb128_or(b->men[0], b->men[1]), k))
            return game_fail(err, errlen, "the ko cell must be an empty cell or '-'");
        b->ko = (uint8_t)k;
    }
    rehash(b);
    bolix_recount(b);
    return true;
}

void bolix_write_fen(const position_t *pos, char *buf, size_t len)
{
    const bolix_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int q = 0; q < 10; q++) {
        int empty = 0;
        for (int k = col_lo[q]; k <= col_hi[q]; k++) {
            int c = at(q, k);
            char ch = bb128_test(b->men[0], c) ? 'b' : bb128_test(b->men[1], c) ? 'w' : 0;
            if (!ch) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(out + n, sizeof out - n, "%d", empty);
            empty = 0;
            out[n++] = ch;
        }
        if (empty)
            n += (size_t)snprintf(out + n, sizeof out - n, "%d", empty);
        if (q < 9)
            out[n++] = '/';
    }
    out[n] = 0;
    char ko[4] = "-";
    if (b->ko != NO_CELL)
        cell_name(b->ko, ko, sizeof ko);
    snprintf(buf, len, "%s %c %d %d %s %d", out, b->stm ? 'w' : 'b', b->hand[0], b->hand[1], ko, b->passes);
}

/* Columns drawn upright, each half a cell below its left neighbour: cell
 * (q, n) sits at half-line 2n - q, so the six neighbours of a cell are the
 * cells above, below, and diagonally left and right. Empty cells show
 * their names, so a move can be read off the picture. */
void bolix_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const bolix_t *b = CP(pos);
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    for (int y = 16; y >= -3; y--) {
        char line[128];
        memset(line, ' ', sizeof line);
        int width = 0;
        bool any = false;
        for (int q = 0; q < 10; q++) {
            if ((y + q) % 2 != 0)
                continue;
            int c = at(q, (y + q) / 2);
            if (c < 0 || (y + q) / 2 < 1)
                continue;
            char name[4] = "";
            if (bb128_test(b->men[0], c)) snprintf(name, sizeof name, " X");
            else if (bb128_test(b->men[1], c)) snprintf(name, sizeof name, " O");
            else cell_name(c, name, sizeof name);
            memcpy(line + 4 * q, name, strlen(name));
            width = 4 * q + 3;
            any = true;
        }
        if (!any)
            continue;
        line[width] = 0;
        if (ansi) {
            for (int i = 0; i < width; i++) {
                if (line[i] == 'X') OUT("\033[1;33mX\033[0m");
                else if (line[i] == 'O') OUT("\033[1;36mO\033[0m");
                else OUT("%c", line[i]);
            }
            OUT("\n");
        } else {
            OUT("%s\n", line);
        }
    }
    char ko[4] = "-";
    if (b->ko != NO_CELL)
        cell_name(b->ko, ko, sizeof ko);
    OUT("%s to move; in hand: black (X) %d, white (O) %d; ko: %s\n", b->stm ? "White" : "Black", b->hand[0],
        b->hand[1], ko);
#undef OUT
}
