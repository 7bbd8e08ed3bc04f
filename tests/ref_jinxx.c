/* ref_jinxx.c: see ref_jinxx.h. Deliberately plain. */
#include "ref_jinxx.h"

#include <stdio.h>
#include <string.h>

static const char *const FACE[6] = {"S", "M", "L", "SM", "SL", "ML"};
static const char SIZE_LETTER[3] = {'S', 'M', 'L'};
/* Seats: 0 South, 1 West, 2 North, 3 East; the edge cells of each. */
static const int EDGE[4][3] = {{0, 1, 2}, {0, 3, 6}, {6, 7, 8}, {2, 5, 8}};
static const int LINES[4][3] = {{3, 4, 5}, {1, 4, 7}, {0, 4, 8}, {2, 4, 6}};

static int seat_of(const ref_jinxx_t *b, int player)
{
    if (b->players == 2)
        return player == 0 ? 0 : 2;
    return player; /* 3: South West North; 4: South West North East */
}

static bool face_allows(int face, int size)
{
    switch (face) {
    case 0: return size == REF_S;
    case 1: return size == REF_M;
    case 2: return size == REF_L;
    case 3: return size != REF_L;
    case 4: return size != REF_M;
    default: return size != REF_S;
    }
}

/* The sizes a tree holding n pyramids has: L from 1, M from 2, S at 3. */
static bool tree_has(int n, int size) { return n >= 3 - size; }

static bool can_land(const ref_jinxx_t *b, int cell, int size)
{
    return b->height[cell] == 0 || b->cell[cell][b->height[cell] - 1].size >= size;
}

static void cell_name(int cell, char *out)
{
    out[0] = (char)('a' + cell % 3);
    out[1] = (char)('1' + cell / 3);
    out[2] = 0;
}

static bool adjacent(int a, int c)
{
    int ra = a / 3, fa = a % 3, rc = c / 3, fc = c % 3;
    return (ra == rc && (fa - fc == 1 || fc - fa == 1)) || (fa == fc && (ra - rc == 1 || rc - ra == 1));
}

/* Board moves of pyramids owned by `owner` (own: == p, other: != p) of a
 * size the face allows, and, for own moves, tree entries. */
static int gen_for(const ref_jinxx_t *b, int p, int face, bool own, ref_jmove_t *out)
{
    int n = 0;
    for (int c = 0; c < 9; c++)
        for (int i = 0; i < b->height[c]; i++) {
            ref_pyr_t y = b->cell[c][i];
            if ((y.owner == p) != own || !face_allows(face, y.size))
                continue;
            for (int t = 0; t < 9; t++) {
                if (!adjacent(c, t) || !can_land(b, t, y.size))
                    continue;
                ref_jmove_t m = {1, -1, y.size, c, t, -1, ""};
                char a[3], z[3];
                cell_name(c, a);
                cell_name(t, z);
                snprintf(m.text, sizeof m.text, "%c%s%s", SIZE_LETTER[y.size], a, z);
                out[n++] = m;
            }
        }
    if (!own)
        return n;
    for (int k = 0; k < 3; k++)
        for (int size = 0; size < 3; size++) {
            int t = EDGE[seat_of(b, p)][k];
            if (!face_allows(face, size) || !tree_has(b->tree[p][k], size) || !can_land(b, t, size))
                continue;
            ref_jmove_t m = {2, -1, size, -1, t, k, ""};
            char z[3];
            cell_name(t, z);
            snprintf(m.text, sizeof m.text, "%c@%s", SIZE_LETTER[size], z);
            out[n++] = m;
        }
    return n;
}

int ref_jinxx_moves(const ref_jinxx_t *b, ref_jmove_t *moves)
{
    if (b->winner != -1)
        return 0;
    if (b->die < 0) {
        for (int f = 0; f < 6; f++) {
            moves[f] = (ref_jmove_t){0, f, 0, -1, -1, -1, ""};
            snprintf(moves[f].text, sizeof moves[f].text, "%s", FACE[f]);
        }
        return 6;
    }
    int n = gen_for(b, b->stm, b->die, true, moves);
    if (n > 0)
        return n; /* settled point 1 */
    ref_jmove_t tmp[256];
    bool reroll = false;
    for (int f = 0; f < 6 && !reroll; f++)
        reroll = gen_for(b, b->stm, f, true, tmp) > 0;
    n = gen_for(b, b->stm, b->die, false, moves);
    if (reroll) {
        moves[n] = (ref_jmove_t){3, -1, 0, -1, -1, -1, "reroll"};
        n++;
    }
    if (n == 0)
        moves[n++] = (ref_jmove_t){4, -1, 0, -1, -1, -1, "pass"};
    return n;
}

static int pyramids_of(const ref_jinxx_t *b, int p)
{
    int n = b->tree[p][0] + b->tree[p][1] + b->tree[p][2];
    for (int c = 0; c < 9; c++)
        for (int i = 0; i < b->height[c]; i++)
            n += b->cell[c][i].owner == p;
    return n;
}

static void vaporize(ref_jinxx_t *b, int p)
{
    b->out[p] = true;
    for (int k = 0; k < 3; k++)
        b->tree[p][k] = 0;
    for (int c = 0; c < 9; c++) {
        int h = 0;
        for (int i = 0; i < b->height[c]; i++)
            if (b->cell[c][i].owner != p)
                b->cell[c][h++] = b->cell[c][i];
        b->height[c] = h;
    }
}

static bool holds_line(const ref_jinxx_t *b, int p)
{
    for (int l = 0; l < 4; l++) {
        bool all = true;
        for (int k = 0; k < 3 && all; k++) {
            int c = LINES[l][k];
            all = b->height[c] > 0 && b->cell[c][b->height[c] - 1].owner == p;
        }
        if (all)
            return true;
    }
    return false;
}

static int next_in(const ref_jinxx_t *b, int p)
{
    for (int k = 1; k <= b->players; k++) {
        int q = (p + k) % b->players;
        if (!b->out[q])
            return q;
    }
    return p;
}

/* Settled point 6: after a turn, in this order. */
static void after_turn(ref_jinxx_t *b, int destroyed_owner, bool reset)
{
    int p = b->stm;
    if (destroyed_owner >= 0 && pyramids_of(b, destroyed_owner) == 2)
        vaporize(b, destroyed_owner);
    if (!b->out[p] && holds_line(b, p)) {
        b->winner = p;
        return;
    }
    for (int k = 1; k < b->players; k++) {
        int q = (p + k) % b->players;
        if (!b->out[q] && holds_line(b, q)) {
            b->winner = q;
            return;
        }
    }
    int in = 0, last = -1;
    for (int q = 0; q < b->players; q++)
        if (!b->out[q]) {
            in++;
            last = q;
        }
    if (in == 1) {
        b->winner = last;
        return;
    }
    b->counter = reset ? 0 : b->counter + 1;
    if (b->counter >= 60) {
        b->winner = -2;
        return;
    }
    b->stm = next_in(b, p);
    b->die = -1;
}

/* Puts `group` (bottom-up) on cell t, destroying an equal top; returns the
 * owner of the destroyed pyramid or -1. */
static int land(ref_jinxx_t *b, int t, const ref_pyr_t *group, int count)
{
    int destroyed = -1;
    if (b->height[t] > 0 && b->cell[t][b->height[t] - 1].size == group[0].size) {
        destroyed = b->cell[t][b->height[t] - 1].owner;
        b->height[t]--;
    }
    for (int i = 0; i < count; i++)
        b->cell[t][b->height[t]++] = group[i];
    return destroyed;
}

void ref_jinxx_play(ref_jinxx_t *b, const ref_jmove_t *m)
{
    switch (m->kind) {
    case 0:
        b->die = m->face;
        return;
    case 3:
        b->die = -1;
        return;
    case 4:
        after_turn(b, -1, false);
        return;
    case 1: {
        int c = m->from, i = 0;
        while (b->cell[c][i].size != m->size)
            i++;
        ref_pyr_t group[3];
        int count = b->height[c] - i;
        memcpy(group, &b->cell[c][i], sizeof group[0] * (size_t)count);
        b->height[c] = i;
        int d = land(b, m->to, group, count);
        after_turn(b, d, d >= 0);
        return;
    }
    default: {
        int p = b->stm, n = b->tree[p][m->tree];
        ref_pyr_t group[3];
        int count = 0;
        for (int size = REF_L; size >= REF_S; size--)
            if (tree_has(n, size) && size <= m->size)
                group[count++] = (ref_pyr_t){size, p};
        b->tree[p][m->tree] = 2 - m->size; /* what is left: the larger ones */
        int d = land(b, m->to, group, count);
        after_turn(b, d, true);
        return;
    }
    }
}

bool ref_jinxx_from_fen(ref_jinxx_t *b, const char *fen, int players)
{
    memset(b, 0, sizeof *b);
    b->players = players;
    b->winner = -1;
    const char *s = fen;
    for (int rank = 2; rank >= 0; rank--)
        for (int file = 0; file < 3; file++) {
            int c = rank * 3 + file;
            if (*s == '.') {
                s++;
            } else {
                while (*s == 'S' || *s == 'M' || *s == 'L') {
                    int size = *s == 'S' ? REF_S : *s == 'M' ? REF_M : REF_L;
                    b->cell[c][b->height[c]++] = (ref_pyr_t){size, s[1] - '1'};
                    s += 2;
                }
            }
            if (*s != (file < 2 ? ',' : rank ? '/' : ' '))
                return false;
            s++;
        }
    for (int p = 0; p < players; p++) {
        if (*s == 'x') {
            b->out[p] = true;
            s++;
        } else {
            for (int k = 0; k < 3; k++)
                b->tree[p][k] = *s++ - '0';
        }
        if (*s != (p + 1 < players ? '/' : ' '))
            return false;
        s++;
    }
    char die[4];
    if (sscanf(s, "p%d %3s %d", &b->stm, die, &b->counter) != 3)
        return false;
    b->stm--;
    b->die = -1;
    for (int f = 0; f < 6; f++)
        if (strcmp(die, FACE[f]) == 0)
            b->die = f;
    /* A finished game keeps the last mover in the turn field, so the result
     * follows from the position as after_turn() judged it. */
    int in = 0, last = -1;
    for (int q = 0; q < players; q++)
        if (!b->out[q]) {
            in++;
            last = q;
        }
    for (int k = 0; k < players && b->winner == -1; k++) {
        int q = (b->stm + k) % players;
        if (!b->out[q] && holds_line(b, q))
            b->winner = q;
    }
    if (b->winner == -1 && in == 1)
        b->winner = last;
    if (b->winner == -1 && b->counter >= 60)
        b->winner = -2;
    return true;
}

void ref_jinxx_to_fen(const ref_jinxx_t *b, char *out)
{
    int n = 0;
    for (int rank = 2; rank >= 0; rank--)
        for (int file = 0; file < 3; file++) {
            int c = rank * 3 + file;
            if (b->height[c] == 0)
                out[n++] = '.';
            for (int i = 0; i < b->height[c]; i++) {
                out[n++] = SIZE_LETTER[b->cell[c][i].size];
                out[n++] = (char)('1' + b->cell[c][i].owner);
            }
            out[n++] = file < 2 ? ',' : rank ? '/' : ' ';
        }
    for (int p = 0; p < b->players; p++) {
        if (b->out[p]) {
            out[n++] = 'x';
        } else {
            for (int k = 0; k < 3; k++)
                out[n++] = (char)('0' + b->tree[p][k]);
        }
        out[n++] = p + 1 < b->players ? '/' : ' ';
    }
    sprintf(out + n, "p%d %s %d", b->stm + 1, b->die < 0 ? "-" : FACE[b->die], b->counter);
}
