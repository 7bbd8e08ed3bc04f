/*
 * jinxx_text.c: Jinxx in text: move names, position strings (reading,
 * writing, the start) and the board drawing. May not reach into the
 * evaluation.
 */
#include "jinxx_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/number.h"
#include "jinxx.h"

static void cell_name(int c, char *out)
{
    out[0] = (char)('a' + c % 3);
    out[1] = (char)('1' + c / 3);
    out[2] = 0;
}

void jinxx_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    char from[3], to[3];
    cell_name(m_to(m), to);
    switch (m_kind(m)) {
    case K_ROLL: snprintf(buf, len, "%s", face_name[m_face(m)]); break;
    case K_REROLL: snprintf(buf, len, "reroll"); break;
    case K_PASS: snprintf(buf, len, "pass"); break;
    case K_BOARD:
        cell_name(m_from(m), from);
        snprintf(buf, len, "%c%s%s", size_letter[m_size(m)], from, to);
        break;
    default: snprintf(buf, len, "%c@%s", size_letter[m_size(m)], to); break;
    }
}

int jinxx_move_key(move_t m)
{
    switch (m_kind(m)) {
    case K_BOARD: return m_size(m) * 81 + m_from(m) * 9 + m_to(m);
    case K_TREE: return 243 + m_size(m) * 9 + m_to(m);
    case K_REROLL: return 270;
    case K_PASS: return 271;
    default: return 272 + m_face(m);
    }
}

/* ---- position strings ---- */

static void rehash(jinxx_t *b)
{
    b->hash = jinxx_zobrist_stm[b->stm] ^ jinxx_zobrist_die[b->die] ^ jinxx_zobrist_counter[b->counter];
    for (int p = 0; p < b->players; p++) {
        for (int s = 0; s < 3; s++)
            for (unsigned m = b->occ[p][s]; m; m &= m - 1)
                b->hash ^= jinxx_zobrist_occ[p][s][__builtin_ctz(m)];
        for (int k = 0; k < 3; k++)
            b->hash ^= jinxx_zobrist_tree[p][k][b->tree[p][k]];
        if (!in_game(b, p))
            b->hash ^= jinxx_zobrist_out[p];
    }
}

static void clear(position_t *pos, int players)
{
    jinxx_tables_ensure();
    memset(pos, 0, sizeof *pos);
    P(pos)->players = (uint8_t)players;
}

void jinxx_set_start(position_t *pos, int players)
{
    clear(pos, players);
    jinxx_t *b = P(pos);
    for (int p = 0; p < players; p++)
        for (int k = 0; k < 3; k++)
            b->tree[p][k] = 3;
    rehash(b);
}

static const char *parse_cell(jinxx_t *b, const char *c, int cell, char *err, size_t errlen)
{
    if (*c == '.')
        return c + 1;
    int last = 3;
    while (*c == 'S' || *c == 'M' || *c == 'L') {
        int s = *c == 'S' ? SZ_S : *c == 'M' ? SZ_M : SZ_L, p = c[1] - '1';
        if (s >= last)
            return game_fail(err, errlen, "a stack must shrink upwards (L, M, S from the bottom)"), NULL;
        if (p < 0 || p >= b->players)
            return game_fail(err, errlen, "each pyramid needs its owner's number (1 to the number of players)"), NULL;
        b->occ[p][s] |= (uint16_t)(1u << cell);
        b->sizes[s] |= (uint16_t)(1u << cell);
        last = s;
        c += 2;
    }
    if (last == 3)
        return game_fail(err, errlen, "a cell is '.' or pyramids such as L1M2"), NULL;
    return c;
}

static const char *parse_trees(jinxx_t *b, const char *c, char *err, size_t errlen)
{
    for (int p = 0; p < b->players; p++) {
        if (*c == 'x') {
            b->out |= (uint8_t)(1u << p);
            c++;
        } else {
            for (int k = 0; k < 3; k++, c++) {
                if (*c < '0' || *c > '3')
                    return game_fail(err, errlen, "trees: three digits 0-3 per player, or x"), NULL;
                b->tree[p][k] = (uint8_t)(*c - '0');
            }
        }
        if (*c != (p + 1 < b->players ? '/' : ' '))
            return game_fail(err, errlen, "trees: one group per player, separated by '/'"), NULL;
        c++;
    }
    return c;
}

static bool check_material(const jinxx_t *b, char *err, size_t errlen)
{
    for (int p = 0; p < b->players; p++) {
        for (int s = 0; s < 3; s++) {
            int n = popcount9(b->occ[p][s]);
            for (int k = 0; k < 3; k++)
                n += tree_has(b->tree[p][k], s);
            if (n > 3)
                return game_fail(err, errlen, "a player has three pyramids of each size");
        }
        if (!in_game(b, p) && pyramids_of(b, p) > 0)
            return game_fail(err, errlen, "a player who is out has no pyramids");
        if (in_game(b, p) && pyramids_of(b, p) < 3)
            return game_fail(err, errlen, "a player left with two pyramids is out (x)");
    }
    return true;
}

bool jinxx_parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int players)
{
    clear(pos, players);
    jinxx_t *b = P(pos);
    const char *c = fen;
    for (int rank = 2; rank >= 0; rank--)
        for (int file = 0; file < 3; file++) {
            if (!(c = parse_cell(b, c, rank * 3 + file, err, errlen)))
                return false;
            if (*c != (file < 2 ? ',' : rank ? '/' : ' '))
                return game_fail(err, errlen, "board: ranks 3, 2, 1 separated by '/', cells by ','");
            c++;
        }
    if (!(c = parse_trees(b, c, err, errlen)))
        return false;
    char field[3][FEN_FIELD_MAX];
    if (fen_fields(c, field, 3) != 3)
        return game_fail(err, errlen, "expected: <board> <trees> <turn p1..p4> <die - or face> <counter>");
    const char *turn = field[0], *die = field[1], *counter = field[2];
    if (turn[0] != 'p' || turn[1] < '1' || turn[1] >= '1' + players || turn[2])
        return game_fail(err, errlen, "turn must be p1 to the number of players");
    b->stm = (uint8_t)(turn[1] - '1');
    b->die = 7;
    if (strcmp(die, "-") == 0)
        b->die = 0;
    for (int f = 0; f < 6; f++)
        if (strcmp(die, face_name[f]) == 0)
            b->die = (uint8_t)(f + 1);
    if (b->die == 7)
        return game_fail(err, errlen, "die must be '-' or a face: S M L SM SL ML");
    long long n;
    if (!number_parse(counter, 0, DRAW_TURNS, &n))
        return game_fail(err, errlen, "the counter must be 0-60");
    b->counter = (uint8_t)n;
    if (popcount9(b->out) >= players)
        return game_fail(err, errlen, "someone must still be in");
    if (!check_material(b, err, errlen))
        return false;
    /* Only a finished game leaves the turn with a player who is out: the
     * last mover, who vaporized itself. */
    if (!in_game(b, b->stm) && !jinxx_is_over(b))
        return game_fail(err, errlen, "the player to move is out");
    rehash(b);
    return true;
}

void jinxx_write_fen(const position_t *pos, char *buf, size_t len)
{
    const jinxx_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int rank = 2; rank >= 0; rank--)
        for (int file = 0; file < 3; file++) {
            int c = rank * 3 + file;
            bool empty = true;
            for (int s = SZ_L; s >= SZ_S; s--)
                if ((b->sizes[s] >> c) & 1) {
                    out[n++] = size_letter[s];
                    out[n++] = (char)('1' + jinxx_owner_of(b, s, c));
                    empty = false;
                }
            if (empty)
                out[n++] = '.';
            out[n++] = file < 2 ? ',' : rank ? '/' : ' ';
        }
    for (int p = 0; p < b->players; p++) {
        if (!in_game(b, p)) {
            out[n++] = 'x';
        } else {
            for (int k = 0; k < 3; k++)
                out[n++] = (char)('0' + b->tree[p][k]);
        }
        out[n++] = p + 1 < b->players ? '/' : ' ';
    }
    out[n] = 0;
    snprintf(buf, len, "%sp%d %s %d", out, b->stm + 1, b->die ? face_name[b->die - 1] : "-", b->counter);
}

static const char *const seat_name[4] = {"South", "West", "North", "East"};

void jinxx_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const jinxx_t *b = CP(pos);
    static const char *const colour[4] = {"\033[31m", "\033[34m", "\033[32m", "\033[33m"};
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    for (int rank = 2; rank >= 0; rank--) {
        OUT(" %d ", rank + 1);
        for (int file = 0; file < 3; file++) {
            int c = rank * 3 + file, width = 0;
            OUT(" ");
            for (int s = SZ_L; s >= SZ_S; s--)
                if ((b->sizes[s] >> c) & 1) {
                    int o = jinxx_owner_of(b, s, c);
                    OUT("%s%c%d%s", ansi ? colour[o] : "", size_letter[s], o + 1, ansi ? "\033[0m" : "");
                    width += 2;
                }
            OUT("%s%*s", width ? "" : ".", width ? 6 - width : 5, "");
        }
        OUT("\n");
    }
    OUT("    a      b      c\n");
    for (int p = 0; p < b->players; p++) {
        OUT("p%d %s (%s): ", p + 1, seat_name[seat_of(b, p)], in_game(b, p) ? "in" : "out");
        if (in_game(b, p)) {
            for (int k = 0; k < 3; k++) {
                char cell[3];
                cell_name(edge_cell[seat_of(b, p)][k], cell);
                OUT("%s%s %s", k ? ", " : "", cell, (const char *[]){"-", "L", "LM", "LMS"}[b->tree[p][k]]);
            }
            OUT("; %d pyramids", pyramids_of(b, p));
        }
        OUT("\n");
    }
    OUT("p%d to move, %s; %d turns without destruction or entry\n", b->stm + 1,
        b->die ? face_name[b->die - 1] : "die to roll", b->counter);
#undef OUT
}

void jinxx_normalize(const char *text, char *out, size_t len)
{
    game_lower(text, out, len);
    if (strcmp(out, "reroll") == 0 || strcmp(out, "pass") == 0)
        return;
    bool face = out[0] && strspn(out, "sml") == strlen(out);
    for (size_t i = 0; out[i]; i++)
        if (i == 0 || face)
            out[i] = (char)toupper((unsigned char)out[i]);
}

move_t jinxx_parse_move(const position_t *pos, const char *text)
{
    char norm[GAME_MOVE_TEXT_MAX];
    if (strlen(text) >= sizeof norm)
        return MOVE_NONE;
    jinxx_normalize(text, norm, sizeof norm);
    return game_find_move(&jinxx_2p, pos, norm); /* the text does not depend on the variant */
}

