/* ref_bolix.c: see ref_bolix.h. */
#include "ref_bolix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int LO[10] = {1, 1, 1, 1, 1, 1, 2, 3, 4, 5}, HI[10] = {6, 7, 8, 9, 10, 10, 10, 10, 10, 10};
static const int DQ[6] = {0, 0, 1, -1, 1, -1}, DN[6] = {1, -1, 0, 0, 1, -1};

static bool on(int q, int n) { return q >= 0 && q < 10 && n >= LO[q] && n <= HI[q]; }
static char get(const ref_bolix_t *b, int q, int n) { return on(q, n) ? b->cell[q][n] : '#'; }
static char other(char s) { return s == 'b' ? 'w' : 'b'; }

/* Does side s have five or more in a line anywhere? */
static bool five(const ref_bolix_t *b, char s)
{
    for (int q = 0; q < 10; q++)
        for (int n = 1; n <= 10; n++)
            for (int d = 0; d < 6; d += 2) {
                int k = 0;
                while (k < 5 && get(b, q + k * DQ[d], n + k * DN[d]) == s)
                    k++;
                if (k == 5)
                    return true;
            }
    return false;
}

static bool over(const ref_bolix_t *b) { return b->passes >= 2 || five(b, 'b') || five(b, 'w'); }

char ref_bolix_result(const ref_bolix_t *b)
{
    if (five(b, other(b->stm)))
        return other(b->stm);
    if (five(b, b->stm))
        return b->stm;
    return b->passes >= 2 ? '=' : 'n';
}

int ref_bolix_moves(const ref_bolix_t *b, ref_bolix_move_t *moves)
{
    if (over(b))
        return 0;
    int me = b->stm == 'w';
    if (b->hand[me] == 0) {
        moves[0] = (ref_bolix_move_t){true, -1, -1, -1, -1, "pass"};
        return 1;
    }
    int k = 0;
    for (int q = 0; q < 10; q++)
        for (int n = LO[q]; n <= HI[q]; n++) {
            if (b->cell[q][n] != '.' || (q == b->ko_q && n == b->ko_n))
                continue;
            ref_bolix_t after = *b;
            after.cell[q][n] = b->stm;
            bool wins = five(&after, b->stm);
            int found = 0;
            for (int d = 0; d < 6 && !wins; d++) {
                char e = other(b->stm);
                if (get(b, q + DQ[d], n + DN[d]) == e && get(b, q + 2 * DQ[d], n + 2 * DN[d]) == e &&
                    get(b, q + 3 * DQ[d], n + 3 * DN[d]) == b->stm)
                    for (int j = 1; j <= 2; j++) {
                        ref_bolix_move_t m = {false, q, n, q + j * DQ[d], n + j * DN[d], ""};
                        snprintf(m.text, sizeof m.text, "%c%dx%c%d", 'a' + q, n, 'a' + m.rq, m.rn);
                        bool dup = false;
                        for (int i = k - found; i < k; i++)
                            dup |= strcmp(moves[i].text, m.text) == 0;
                        if (!dup) {
                            moves[k++] = m;
                            found++;
                        }
                    }
            }
            if (!found) {
                moves[k] = (ref_bolix_move_t){false, q, n, -1, -1, ""};
                snprintf(moves[k].text, sizeof moves[k].text, "%c%d", 'a' + q, n);
                k++;
            }
        }
    return k;
}

void ref_bolix_play(ref_bolix_t *b, const ref_bolix_move_t *m)
{
    int me = b->stm == 'w';
    b->ko_q = b->ko_n = -1;
    if (m->pass) {
        b->passes++;
    } else {
        b->passes = 0;
        b->cell[m->q][m->n] = b->stm;
        b->hand[me]--;
        if (m->rq >= 0) {
            b->cell[m->rq][m->rn] = '.';
            b->hand[!me]++;
            b->ko_q = m->rq;
            b->ko_n = m->rn;
        }
    }
    b->stm = other(b->stm);
}

/* A whole number of 1 to 3 digits at *c, advanced past it; -1 if none. */
static int read_small(const char **c)
{
    int v = 0, digits = 0;
    while (**c >= '0' && **c <= '9' && digits < 3) {
        v = v * 10 + (**c - '0');
        (*c)++;
        digits++;
    }
    return digits && !(**c >= '0' && **c <= '9') ? v : -1;
}

bool ref_bolix_from_fen(ref_bolix_t *b, const char *fen)
{
    memset(b, '#', sizeof b->cell);
    int count[2] = {0, 0};
    const char *c = fen;
    for (int q = 0; q < 10; q++) {
        int n = LO[q];
        while (*c && *c != '/' && *c != ' ') {
            if (*c == 'b' || *c == 'w') {
                if (n > HI[q])
                    return false;
                count[*c == 'w']++;
                b->cell[q][n++] = *c++;
                continue;
            }
            int k = read_small(&c);
            if (k < 1 || k > HI[q] - n + 1)
                return false;
            while (k-- > 0)
                b->cell[q][n++] = '.';
        }
        if (n != HI[q] + 1 || (q < 9 && *c++ != '/'))
            return false;
    }
    if (*c++ != ' ' || (*c != 'b' && *c != 'w') || c[1] != ' ')
        return false;
    b->stm = *c;
    c += 2;
    for (int side = 0; side < 2; side++) {
        b->hand[side] = read_small(&c);
        if (b->hand[side] < 0 || b->hand[side] + count[side] > 36 || *c++ != ' ')
            return false;
    }
    b->ko_q = b->ko_n = -1;
    if (*c == '-') {
        c++;
    } else {
        if (*c < 'a' || *c > 'j')
            return false;
        b->ko_q = *c++ - 'a';
        b->ko_n = read_small(&c);
        if (!on(b->ko_q, b->ko_n) || b->cell[b->ko_q][b->ko_n] != '.')
            return false;
    }
    if (*c++ != ' ')
        return false;
    b->passes = read_small(&c);
    return b->passes >= 0 && b->passes <= 2 && *c == 0;
}

void ref_bolix_to_fen(const ref_bolix_t *b, char *out)
{
    int n = 0;
    for (int q = 0; q < 10; q++) {
        int empty = 0;
        for (int k = LO[q]; k <= HI[q]; k++) {
            if (b->cell[q][k] == '.') {
                empty++;
                continue;
            }
            if (empty)
                n += sprintf(out + n, "%d", empty);
            empty = 0;
            out[n++] = b->cell[q][k];
        }
        if (empty)
            n += sprintf(out + n, "%d", empty);
        if (q < 9)
            out[n++] = '/';
    }
    if (b->ko_q >= 0)
        sprintf(out + n, " %c %d %d %c%d %d", b->stm, b->hand[0], b->hand[1], 'a' + b->ko_q, b->ko_n, b->passes);
    else
        sprintf(out + n, " %c %d %d - %d", b->stm, b->hand[0], b->hand[1], b->passes);
}
