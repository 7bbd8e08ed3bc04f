/* ref_brandubh.c: see ref_brandubh.h. */
#include "ref_brandubh.h"

#include <stdio.h>
#include <string.h>

static const int DR[4] = {1, -1, 0, 0};
static const int DF[4] = {0, 0, 1, -1};

static bool on_board(int r, int f) { return r >= 0 && r < 7 && f >= 0 && f < 7; }
static bool is_corner(int r, int f) { return (r == 0 || r == 6) && (f == 0 || f == 6); }
static bool is_throne(int r, int f) { return r == 3 && f == 3; }

bool ref_bdb_from_fen(ref_bdb_t *b, const char *fen, int version)
{
    memset(b, '.', sizeof b->sq);
    b->version = version;
    int kings = 0, men[2] = {0, 0};
    const char *c = fen;
    for (int r = 6; r >= 0; r--) {
        int f = 0;
        for (; *c && *c != '/' && *c != ' '; c++) {
            if (*c >= '1' && *c <= '7') {
                f += *c - '0';
            } else if (*c == 'a' || *c == 'd' || *c == 'k') {
                if (f > 6 || (*c != 'k' && (is_corner(r, f) || is_throne(r, f))))
                    return false;
                kings += *c == 'k';
                men[0] += *c == 'a';
                men[1] += *c == 'd';
                b->sq[r][f++] = *c;
            } else {
                return false;
            }
            if (f > 7)
                return false;
        }
        if (f != 7 || (r > 0 && *c++ != '/'))
            return false;
    }
    if (c[0] != ' ' || (c[1] != 'a' && c[1] != 'd') || c[2] != 0)
        return false;
    b->stm = c[1];
    return kings <= 1 && men[0] <= 8 && men[1] <= 4;
}

void ref_bdb_to_fen(const ref_bdb_t *b, char *out)
{
    int n = 0;
    for (int r = 6; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 7; f++) {
            if (b->sq[r][f] == '.') {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = b->sq[r][f];
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (r > 0)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = b->stm;
    out[n] = 0;
}

static bool owns(char side, char piece)
{
    return side == 'a' ? piece == 'a' : piece == 'd' || piece == 'k';
}

/* May the piece stop on (r, f), which is empty? In version 2 a king off
 * the throne has left it, so the throne is closed to everyone. */
static bool may_stop(const ref_bdb_t *b, char piece, int r, int f)
{
    if (is_corner(r, f))
        return piece == 'k';
    if (is_throne(r, f)) {
        if (piece != 'k')
            return false;
        return b->version == 1;
    }
    return true;
}

/* Is (r, f) on the far side of a victim, helping `side` capture a man? */
static bool hostile_to_man(const ref_bdb_t *b, char side, int r, int f)
{
    if (!on_board(r, f))
        return false;
    char p = b->sq[r][f];
    if (p != '.')
        return owns(side, p);
    if (is_corner(r, f))
        return true;
    if (is_throne(r, f))
        return b->version == 2;
    return false;
}

static bool attacker_or_corner(const ref_bdb_t *b, int r, int f)
{
    return on_board(r, f) && (b->sq[r][f] == 'a' || is_corner(r, f));
}

/* The king at (kr, kf) after an attacker arrived beside it from direction d. */
static bool king_captured(const ref_bdb_t *b, int kr, int kf, int d)
{
    bool near_throne = false;
    for (int i = 0; i < 4; i++)
        near_throne |= is_throne(kr + DR[i], kf + DF[i]);
    if (b->version == 2 && (is_throne(kr, kf) || near_throne)) {
        for (int i = 0; i < 4; i++) {
            int r = kr + DR[i], f = kf + DF[i];
            if (!is_throne(r, f) && b->sq[r][f] != 'a')
                return false;
        }
        return true;
    }
    return attacker_or_corner(b, kr + DR[d], kf + DF[d]);
}

/* Captures made by the piece that has just arrived on (r, f); applies them
 * when apply is set, and says whether there were any. */
static bool do_captures(ref_bdb_t *b, int r, int f, bool apply)
{
    char side = b->stm;
    bool any = false;
    bool gone[4] = {false, false, false, false};
    for (int d = 0; d < 4; d++) {
        int nr = r + DR[d], nf = f + DF[d];
        if (!on_board(nr, nf))
            continue;
        char v = b->sq[nr][nf];
        if (v == '.' || owns(side, v))
            continue;
        if (v == 'k')
            gone[d] = king_captured(b, nr, nf, d);
        else
            gone[d] = hostile_to_man(b, side, nr + DR[d], nf + DF[d]);
        any |= gone[d];
    }
    if (apply)
        for (int d = 0; d < 4; d++)
            if (gone[d])
                b->sq[r + DR[d]][f + DF[d]] = '.';
    return any;
}

char ref_bdb_result(const ref_bdb_t *b)
{
    bool king = false;
    for (int r = 0; r < 7; r++)
        for (int f = 0; f < 7; f++)
            if (b->sq[r][f] == 'k') {
                king = true;
                if (is_corner(r, f))
                    return 'd';
            }
    if (!king)
        return 'a';
    ref_move_t moves[256];
    return ref_bdb_moves(b, moves) == 0 ? '=' : 'n';
}

int ref_bdb_moves(const ref_bdb_t *b, ref_move_t *moves)
{
    int n = 0;
    for (int r = 0; r < 7; r++)
        for (int f = 0; f < 7; f++)
            if (b->sq[r][f] == 'k' && (is_corner(r, f)))
                return 0;
    bool king = false;
    for (int r = 0; r < 7; r++)
        for (int f = 0; f < 7; f++)
            king |= b->sq[r][f] == 'k';
    if (!king)
        return 0;
    for (int r = 0; r < 7; r++)
        for (int f = 0; f < 7; f++) {
            char p = b->sq[r][f];
            if (p == '.' || !owns(b->stm, p))
                continue;
            for (int d = 0; d < 4; d++)
                for (int tr = r + DR[d], tf = f + DF[d]; on_board(tr, tf) && b->sq[tr][tf] == '.';
                     tr += DR[d], tf += DF[d]) {
                    if (!may_stop(b, p, tr, tf))
                        continue;
                    ref_move_t *m = &moves[n++];
                    m->from_r = r;
                    m->from_f = f;
                    m->to_r = tr;
                    m->to_f = tf;
                    ref_bdb_t after = *b;
                    after.sq[tr][tf] = p;
                    after.sq[r][f] = '.';
                    m->captures = do_captures(&after, tr, tf, false);
                    snprintf(m->text, sizeof m->text, "%c%c%c%c", 'a' + f, '1' + r, 'a' + tf, '1' + tr);
                }
        }
    return n;
}

void ref_bdb_play(ref_bdb_t *b, const ref_move_t *m)
{
    char p = b->sq[m->from_r][m->from_f];
    b->sq[m->from_r][m->from_f] = '.';
    b->sq[m->to_r][m->to_f] = p;
    do_captures(b, m->to_r, m->to_f, true);
    b->stm = b->stm == 'a' ? 'd' : 'a';
}
