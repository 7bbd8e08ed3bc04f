/*
 * brandubh_text.c: Brandubh in text: move names, position strings
 * (reading, writing, the start) and the board drawing. May not reach into
 * the evaluation.
 */
#include "brandubh_text.h"

#include <stdio.h>
#include <string.h>

#include "brandubh.h"

static void square_name(int sq, char *out)
{
    out[0] = (char)('a' + sq_file(sq));
    out[1] = (char)('1' + sq_rank(sq));
    out[2] = 0;
}

void bdb_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    char a[3], b[3];
    square_name(move_from(m), a);
    square_name(move_to(m), b);
    snprintf(buf, len, "%s%s", a, b);
}

/* Square names have no capitals: `D2C2` reads as `d2c2`. */
move_t bdb_parse_move(const position_t *pos, const char *text)
{
    char lower[GAME_MOVE_TEXT_MAX];
    if (strlen(text) >= sizeof lower)
        return MOVE_NONE;
    game_lower(text, lower, sizeof lower);
    return game_find_move(&brandubh_v1, pos, lower);
}

int bdb_move_key(move_t m) { return move_from(m) * N_SQ + move_to(m); }

static void rehash(bdb_t *b)
{
    b->hash = b->stm == SIDE_DEF ? brandubh_zobrist_side : 0;
    for (int sq = 0; sq < N_SQ; sq++) {
        int pc = piece_on(b, sq);
        if (pc >= 0)
            b->hash ^= brandubh_zobrist_piece[pc][sq];
    }
}

static void set_start(position_t *pos, int version)
{
    brandubh_tables_ensure();
    memset(pos, 0, sizeof *pos);
    bdb_t *b = P(pos);
    static const int att[] = {3, 10, 21, 22, 26, 27, 38, 45};
    static const int def[] = {17, 23, 25, 31};
    for (int i = 0; i < 8; i++) b->att |= bb_bit(att[i]);
    for (int i = 0; i < 4; i++) b->def |= bb_bit(def[i]);
    b->king = THRONE;
    b->stm = SIDE_ATT;
    b->version = (uint8_t)version;
    rehash(b);
}

void bdb_set_start_v1(position_t *pos) { set_start(pos, 1); }
void bdb_set_start_v2(position_t *pos) { set_start(pos, 2); }

static bool parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int version)
{
    brandubh_tables_ensure();
    memset(pos, 0, sizeof *pos);
    bdb_t *b = P(pos);
    b->version = (uint8_t)version;
    const char *c = fen;
    for (int r = 6; r >= 0; r--) {
        int f = 0;
        while (*c && *c != '/' && *c != ' ') {
            if (*c >= '1' && *c <= '7') {
                f += *c - '0';
            } else {
                if (f > 6)
                    return game_fail(err, errlen, "rank too long");
                bb64_t bit = bb_bit(r * 7 + f);
                if (*c == 'a') b->att |= bit;
                else if (*c == 'd') b->def |= bit;
                else if (*c == 'k') {
                    if (b->king)
                        return game_fail(err, errlen, "more than one king");
                    b->king = bit;
                } else
                    return game_fail(err, errlen, "unknown piece letter (expected a, d, k or 1-7)");
                f++;
            }
            if (f > 7)
                return game_fail(err, errlen, "rank too long");
            c++;
        }
        if (f != 7)
            return game_fail(err, errlen, "each rank must have 7 squares");
        if (r > 0) {
            if (*c != '/')
                return game_fail(err, errlen, "expected 7 ranks separated by '/'");
            c++;
        }
    }
    if (*c != ' ')
        return game_fail(err, errlen, "expected a space and the side to move");
    c++;
    if (*c == 'a') b->stm = SIDE_ATT;
    else if (*c == 'd') b->stm = SIDE_DEF;
    else return game_fail(err, errlen, "side to move must be 'a' or 'd'");
    if (c[1] != 0)
        return game_fail(err, errlen, "unexpected text after the side to move");
    if ((b->att | b->def) & (CORNERS | THRONE))
        return game_fail(err, errlen, "only the king may stand on the throne or a corner");
    if (bb_popcount(b->att) > ATTACKERS_AT_START || bb_popcount(b->def) > 4)
        return game_fail(err, errlen, "too many pieces (at most 8 attackers and 4 defenders)");
    rehash(b);
    return true;
}

bool bdb_parse_fen_v1(position_t *pos, const char *fen, char *err, size_t len)
{
    return parse_fen(pos, fen, err, len, 1);
}

bool bdb_parse_fen_v2(position_t *pos, const char *fen, char *err, size_t len)
{
    return parse_fen(pos, fen, err, len, 2);
}

static char square_char(const bdb_t *b, int sq)
{
    switch (piece_on(b, sq)) {
    case PIECE_ATT: return 'a';
    case PIECE_DEF: return 'd';
    case PIECE_KING: return 'k';
    default: return 0;
    }
}

void bdb_write_fen(const position_t *pos, char *buf, size_t len)
{
    const bdb_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int r = 6; r >= 0; r--) {
        char cells[7];
        for (int f = 0; f < 7; f++)
            cells[f] = square_char(b, r * 7 + f);
        fen_append_row(out, &n, cells, 7);
        if (r)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = b->stm == SIDE_ATT ? 'a' : 'd';
    out[n] = 0;
    snprintf(buf, len, "%s", out);
}

void bdb_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const bdb_t *b = CP(pos);
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    for (int r = 6; r >= 0; r--) {
        OUT(" %d ", r + 1);
        for (int f = 0; f < 7; f++) {
            int sq = r * 7 + f;
            char ch = square_char(b, sq);
            bool special = (CORNERS | THRONE) & bb_bit(sq);
            if (!ch)
                OUT(" %c", special ? '+' : '.');
            else if (ansi)
                OUT(" %s%c\033[0m", ch == 'a' ? "\033[1;31m" : ch == 'k' ? "\033[1;33m" : "\033[1;37m", ch);
            else
                OUT(" %c", ch);
        }
        OUT("\n");
    }
    OUT("    a b c d e f g\n");
    OUT("%s to move (%s)\n", b->stm == SIDE_ATT ? "Attackers" : "Defenders",
        b->version == 2 ? "version 2" : "version 1");
#undef OUT
}

