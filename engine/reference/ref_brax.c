/* ref_brax.c: see ref_brax.h. */
#include "ref_brax.h"

#include <stdio.h>
#include <string.h>

static const char *const H[9] = {"BBRRBBRR", "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
                                 "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR"};
static const char *const V[8] = {"BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
                                 "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR"};
static const int DR[4] = {1, -1, 0, 0}, DC[4] = {0, 0, 1, -1};

static bool on(int r, int c) { return r >= 0 && r < 9 && c >= 0 && c < 9; }

/* 'r' or 'b': the colour of the segment from (r, c) one step in direction d. */
static char seg(int r, int c, int d)
{
    int r2 = r + DR[d], c2 = c + DC[d];
    if (r2 == r) {
        int left = c < c2 ? c : c2;
        return H[8 - r][left] == 'R' ? 'r' : 'b';
    }
    int low = r < r2 ? r : r2;
    return V[7 - low][c] == 'R' ? 'r' : 'b';
}

static char other(char s) { return s == 'r' ? 'b' : 'r'; }
static int count(const ref_brax_t *b, char s)
{
    int n = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            n += b->pt[r][c] == s;
    return n;
}
static bool doubles(const ref_brax_t *b) { return b->variant == 0 || b->variant == 3; }

/* Every move of side s, ignoring calls and forced replies. */
static int plain_moves(const ref_brax_t *b, char s, ref_brax_move_t *out)
{
    int n = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            if (b->pt[r][c] != s)
                continue;
            bool seen[9][9];
            memset(seen, 0, sizeof seen);
            for (int d = 0; d < 4; d++) {
                int mr = r + DR[d], mc = c + DC[d];
                if (!on(mr, mc))
                    continue;
                if (b->pt[mr][mc] != s)
                    out[n++] = (ref_brax_move_t){r, c, mr, mc, -1, -1, false, ""};
                if (seg(r, c, d) != s)
                    continue;
                for (int e = 0; e < 4; e++) {
                    int tr = mr + DR[e], tc = mc + DC[e];
                    if (!on(tr, tc) || (tr == r && tc == c) || seg(mr, mc, e) != s)
                        continue;
                    if (b->pt[mr][mc] == '.' && b->pt[tr][tc] != s && !seen[tr][tc]) {
                        seen[tr][tc] = true;
                        out[n++] = (ref_brax_move_t){r, c, tr, tc, -1, -1, false, ""};
                    }
                    if (doubles(b) && b->pt[mr][mc] == other(s) && b->pt[tr][tc] == other(s))
                        out[n++] = (ref_brax_move_t){r, c, tr, tc, mr, mc, false, ""};
                }
            }
        }
    return n;
}

/* Is (r, c), a man of the side other than s, capturable by s? */
static bool threatened_by(const ref_brax_t *b, char s, int r, int c)
{
    ref_brax_move_t m[512];
    int n = plain_moves(b, s, m);
    for (int i = 0; i < n; i++)
        if ((m[i].tr == r && m[i].tc == c) || (m[i].mr == r && m[i].mc == c))
            return true;
    return false;
}

static bool any_threat(const ref_brax_t *b, char s)
{
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            if (b->pt[r][c] == other(s) && threatened_by(b, s, r, c))
                return true;
    return false;
}

static void move_board(ref_brax_t *b, const ref_brax_move_t *m)
{
    bool capture = b->pt[m->tr][m->tc] != '.' || m->mr >= 0;
    b->pt[m->tr][m->tc] = b->pt[m->fr][m->fc];
    b->pt[m->fr][m->fc] = '.';
    if (m->mr >= 0)
        b->pt[m->mr][m->mc] = '.';
    b->quiet = capture ? 0 : b->quiet < 255 ? b->quiet + 1 : 255; /* as the FEN caps it */
}

static bool may_call(const ref_brax_t *after, char s)
{
    if (after->variant == 2)
        return false;
    int own = count(after, s), opp = count(after, other(s));
    if (after->variant == 1)
        return own >= 2 && opp >= 3;
    if (after->called[s == 'b'])
        return false;
    if ((own == 1 && (opp == 1 || opp == 2)) || (opp == 1 && (own == 1 || own == 2)))
        return false;
    return true;
}

static bool over(const ref_brax_t *b)
{
    int mine = count(b, b->stm), theirs = count(b, other(b->stm));
    return mine == 0 || theirs == 0 || (mine == 1 && theirs == 1 && b->quiet >= 10);
}

int ref_brax_moves(const ref_brax_t *b, ref_brax_move_t *moves)
{
    if (over(b))
        return 0;
    ref_brax_move_t all[512];
    int n = plain_moves(b, b->stm, all), k = 0;
    /* After a call, only threatened men may move, if any of them can. */
    if (b->called[b->stm == 'r']) {
        ref_brax_move_t forced[512];
        int f = 0;
        for (int i = 0; i < n; i++)
            if (threatened_by(b, other(b->stm), all[i].fr, all[i].fc))
                forced[f++] = all[i];
        if (f > 0) {
            memcpy(all, forced, sizeof forced[0] * (size_t)f);
            n = f;
        }
    }
    for (int i = 0; i < n; i++) {
        ref_brax_move_t m = all[i];
        char a[3] = {(char)('a' + m.fc), (char)('1' + m.fr), 0}, z[3] = {(char)('a' + m.tc), (char)('1' + m.tr), 0};
        char mid[3] = "";
        if (m.mr >= 0) {
            mid[0] = (char)('a' + m.mc);
            mid[1] = (char)('1' + m.mr);
            mid[2] = 0;
        }
        snprintf(m.text, sizeof m.text, "%s%s%s", a, mid, z);
        moves[k++] = m;
        ref_brax_t after = *b;
        move_board(&after, &m);
        if (may_call(&after, b->stm) && any_threat(&after, b->stm)) {
            m.call = true;
            strcat(m.text, "+");
            moves[k++] = m;
        }
    }
    return k;
}

void ref_brax_play(ref_brax_t *b, const ref_brax_move_t *m)
{
    move_board(b, m);
    b->called[b->stm == 'b'] = m->call;
    b->stm = other(b->stm);
}

char ref_brax_result(const ref_brax_t *b)
{
    int mine = count(b, b->stm), theirs = count(b, other(b->stm));
    if (mine == 0)
        return other(b->stm);
    if (theirs == 0) /* a side without men has lost, whoever is to move */
        return b->stm;
    if (mine == 1 && theirs == 1 && b->quiet >= 10)
        return '=';
    ref_brax_move_t m[512];
    return ref_brax_moves(b, m) == 0 ? other(b->stm) : 'n';
}

bool ref_brax_from_fen(ref_brax_t *b, const char *fen, int variant)
{
    memset(b, 0, sizeof *b);
    memset(b->pt, '.', sizeof b->pt);
    b->variant = variant;
    const char *p = fen;
    for (int r = 8; r >= 0; r--) {
        int c = 0;
        for (; *p && *p != '/' && *p != ' '; p++) {
            if (*p >= '1' && *p <= '9') {
                c += *p - '0';
            } else if ((*p == 'r' || *p == 'b') && c < 9) {
                b->pt[r][c++] = *p;
            } else {
                return false;
            }
            if (c > 9)
                return false;
        }
        if (c != 9 || (r > 0 && *p++ != '/'))
            return false;
    }
    if (p[0] != ' ' || (p[1] != 'r' && p[1] != 'b') || p[2] != ' ')
        return false;
    b->stm = p[1];
    p += 3;
    static const char *const calls[4] = {"- ", "r ", "b ", "rb "};
    int k = 0;
    while (k < 4 && strncmp(p, calls[k], strlen(calls[k])) != 0)
        k++;
    if (k == 4)
        return false;
    b->called[0] = k & 1;
    b->called[1] = k >> 1;
    p += strlen(calls[k]);
    int quiet = 0, digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 3; p++, digits++)
        quiet = quiet * 10 + (*p - '0');
    b->quiet = quiet;
    return digits > 0 && quiet <= 255 && *p == 0;
}

void ref_brax_to_fen(const ref_brax_t *b, char *out)
{
    int n = 0;
    for (int r = 8; r >= 0; r--) {
        int empty = 0;
        for (int c = 0; c < 9; c++) {
            if (b->pt[r][c] == '.') {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = b->pt[r][c];
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (r)
            out[n++] = '/';
    }
    const char *calls = b->called[0] && b->called[1] ? "rb" : b->called[0] ? "r" : b->called[1] ? "b" : "-";
    sprintf(out + n, " %c %s %d", b->stm, calls, b->quiet);
}
