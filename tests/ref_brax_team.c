/* ref_brax_team.c: see ref_brax_team.h. Deliberately plain: every question
 * is answered by scanning the grid and listing moves. */
#include "ref_brax_team.h"

#include <stdio.h>
#include <string.h>

static const char *const H[9] = {"BBRRBBRR", "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
                                 "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR"};
static const char *const V[8] = {"BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
                                 "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR"};
static const int DR[4] = {1, -1, 0, 0}, DC[4] = {0, 0, 1, -1};
static const char LETTER[4] = {'r', 'b', 'R', 'B'};
static const int CYCLE3[4] = {0, 1, 2, 1}, CYCLE4[4] = {0, 1, 2, 3};
#define BLUE3 1 /* brax-3p: Blue is player 1 */

static bool on(int r, int c) { return r >= 0 && r < 9 && c >= 0 && c < 9; }
static int team(int player) { return player & 1; } /* red team 0: players 0 and 2 */

/* 0 red, 1 blue: the colour of the segment from (r, c) in direction d. */
static int seg(int r, int c, int d)
{
    int r2 = r + DR[d], c2 = c + DC[d];
    if (r2 == r)
        return H[8 - r][c < c2 ? c : c2] == 'B';
    return V[7 - (r < r2 ? r : r2)][c] == 'B';
}

static int player_at_slot(const ref_team_t *b, int slot)
{
    return b->players == 3 ? CYCLE3[slot] : CYCLE4[slot];
}

int ref_team_to_move(const ref_team_t *b) { return player_at_slot(b, b->slot); }

static int men_of(const ref_team_t *b, int player)
{
    int n = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            n += b->owner[r][c] == player;
    return n;
}

static int men_of_team(const ref_team_t *b, int t)
{
    int n = 0;
    for (int p = 0; p < b->players; p++)
        if (team(p) == t)
            n += men_of(b, p);
    return n;
}

static bool enemy_at(const ref_team_t *b, int player, int r, int c)
{
    return b->owner[r][c] >= 0 && team(b->owner[r][c]) != team(player);
}

/* Every move of player p's men, ignoring calls, forced replies and turns. */
static int plain_moves(const ref_team_t *b, int p, ref_team_move_t *out)
{
    int n = 0, colour = team(p);
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            if (b->owner[r][c] != p)
                continue;
            bool seen[9][9];
            memset(seen, 0, sizeof seen);
            for (int d = 0; d < 4; d++) {
                int mr = r + DR[d], mc = c + DC[d];
                if (!on(mr, mc))
                    continue;
                if (b->owner[mr][mc] < 0 || enemy_at(b, p, mr, mc))
                    out[n++] = (ref_team_move_t){false, r, c, mr, mc, -1, -1, false, ""};
                if (seg(r, c, d) != colour)
                    continue;
                for (int e = 0; e < 4; e++) {
                    int tr = mr + DR[e], tc = mc + DC[e];
                    if (!on(tr, tc) || (tr == r && tc == c) || seg(mr, mc, e) != colour)
                        continue;
                    bool end_ok = b->owner[tr][tc] < 0 || enemy_at(b, p, tr, tc);
                    if (b->owner[mr][mc] < 0 && end_ok && !seen[tr][tc]) {
                        seen[tr][tc] = true;
                        out[n++] = (ref_team_move_t){false, r, c, tr, tc, -1, -1, false, ""};
                    }
                    if (enemy_at(b, p, mr, mc) && enemy_at(b, p, tr, tc))
                        out[n++] = (ref_team_move_t){false, r, c, tr, tc, mr, mc, false, ""};
                }
            }
        }
    return n;
}

static bool threatened_by(const ref_team_t *b, int caller, int r, int c)
{
    ref_team_move_t m[512];
    int n = plain_moves(b, caller, m);
    for (int i = 0; i < n; i++)
        if ((m[i].tr == r && m[i].tc == c) || (m[i].mr == r && m[i].mc == c))
            return true;
    return false;
}

/* Is this ply Blue's first of a two-ply turn? */
static bool blue_first_of_two(const ref_team_t *b)
{
    return b->players == 3 && ref_team_to_move(b) == BLUE3 && b->first_r < 0 && men_of(b, BLUE3) >= 2;
}

/* The slot after the current one whose player still has men. */
static int next_slot(const ref_team_t *b)
{
    for (int k = 1; k <= 4; k++) { /* both cycles have four slots */
        int s = (b->slot + k) % 4;
        if (men_of(b, player_at_slot(b, s)) > 0)
            return s;
    }
    return b->slot;
}

static void move_board(ref_team_t *b, const ref_team_move_t *m)
{
    if (m->pass) {
        b->quiet = b->quiet < 255 ? b->quiet + 1 : 255;
        return;
    }
    bool capture = b->owner[m->tr][m->tc] >= 0 || m->mr >= 0;
    b->owner[m->tr][m->tc] = b->owner[m->fr][m->fc];
    b->owner[m->fr][m->fc] = -1;
    if (m->mr >= 0)
        b->owner[m->mr][m->mc] = -1;
    b->quiet = capture ? 0 : b->quiet < 255 ? b->quiet + 1 : 255;
}

/* Plays m for the player to move: board, then whose turn it is. */
static void play_move(ref_team_t *b, const ref_team_move_t *m)
{
    int p = ref_team_to_move(b);
    bool first_of_two = blue_first_of_two(b);
    move_board(b, m);
    if (first_of_two) {
        /* Settled points 7 and 9: the call bound this ply only. */
        b->first_r = m->tr;
        b->first_c = m->tc;
        b->caller = -1;
        return;
    }
    b->team_called[team(p)] = m->call;
    b->caller = m->call ? p : -1;
    b->first_r = b->first_c = -1;
    b->slot = next_slot(b);
}

static bool over(const ref_team_t *b)
{
    int red = men_of_team(b, 0), blue = men_of_team(b, 1);
    return red == 0 || blue == 0 || (red == 1 && blue == 1 && b->quiet >= 10);
}

/* Settled points 1-4 and 8, judged on the position after the move. */
static bool may_call(const ref_team_t *before, const ref_team_t *after, int p)
{
    if (blue_first_of_two(before) || before->team_called[team(p)] || over(after))
        return false;
    int own = men_of_team(after, team(p)), opp = men_of_team(after, 1 - team(p));
    if ((own == 1 && (opp == 1 || opp == 2)) || (opp == 1 && (own == 1 || own == 2)))
        return false;
    int next = ref_team_to_move(after); /* the turn has passed in `after` */
    if (team(next) == team(p))
        return false;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            if (after->owner[r][c] == next && threatened_by(after, p, r, c))
                return true;
    return false;
}

static void name_point(int r, int c, char *out)
{
    out[0] = (char)('a' + c);
    out[1] = (char)('1' + r);
    out[2] = 0;
}

int ref_team_moves(const ref_team_t *b, ref_team_move_t *moves)
{
    if (over(b))
        return 0;
    int p = ref_team_to_move(b);
    ref_team_move_t all[512];
    int n = plain_moves(b, p, all);
    if (b->first_r >= 0) { /* Blue's second ply: another man (settled 7) */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (all[i].fr != b->first_r || all[i].fc != b->first_c)
                all[k++] = all[i];
        n = k;
    }
    if (b->caller >= 0) {
        ref_team_move_t forced[512];
        int f = 0;
        for (int i = 0; i < n; i++)
            if (threatened_by(b, b->caller, all[i].fr, all[i].fc))
                forced[f++] = all[i];
        if (f > 0) {
            memcpy(all, forced, sizeof forced[0] * (size_t)f);
            n = f;
        }
    }
    if (n == 0) {
        bool pass = b->first_r >= 0; /* settled 10 */
        for (int q = 0; q < b->players && !pass; q++) {
            ref_team_move_t tmp[512];
            pass = q != p && team(q) == team(p) && plain_moves(b, q, tmp) > 0; /* settled 6 */
        }
        if (!pass)
            return 0;
        all[n++] = (ref_team_move_t){true, -1, -1, -1, -1, -1, -1, false, ""};
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        ref_team_move_t m = all[i];
        if (m.pass) {
            strcpy(m.text, "pass");
        } else {
            char a[3], z[3], mid[3] = "";
            name_point(m.fr, m.fc, a);
            name_point(m.tr, m.tc, z);
            if (m.mr >= 0)
                name_point(m.mr, m.mc, mid);
            snprintf(m.text, sizeof m.text, "%s%s%s", a, mid, z);
        }
        moves[k++] = m;
        ref_team_t after = *b;
        play_move(&after, &m);
        if (may_call(b, &after, p)) {
            m.call = true;
            strcat(m.text, "+");
            moves[k++] = m;
        }
    }
    return k;
}

void ref_team_play(ref_team_t *b, const ref_team_move_t *m) { play_move(b, m); }

char ref_team_result(const ref_team_t *b)
{
    int red = men_of_team(b, 0), blue = men_of_team(b, 1);
    if (red == 0)
        return 'b';
    if (blue == 0)
        return 'r';
    if (red == 1 && blue == 1 && b->quiet >= 10)
        return '=';
    ref_team_move_t m[512];
    if (ref_team_moves(b, m) > 0)
        return 'n';
    return team(ref_team_to_move(b)) ? 'r' : 'b';
}

static int letter_player(char ch, int players)
{
    for (int p = 0; p < players; p++)
        if (LETTER[p] == ch)
            return p;
    return -1;
}

bool ref_team_from_fen(ref_team_t *b, const char *fen, int players)
{
    memset(b, 0, sizeof *b);
    memset(b->owner, -1, sizeof b->owner);
    b->players = players;
    int r = 8, c = 0;
    const char *s = fen;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            r--;
            c = 0;
        } else if (*s >= '1' && *s <= '9') {
            c += *s - '0';
        } else {
            int p = letter_player(*s, players);
            if (p < 0 || r < 0 || c > 8)
                return false;
            b->owner[r][c++] = p;
        }
    }
    char turn[8], calls[8], caller[8], first[8];
    if (sscanf(s, " %7s %7s %7s %7s %d", turn, calls, caller, first, &b->quiet) != 5)
        return false;
    if (strcmp(turn, "b2") == 0)
        b->slot = 3;
    else if (strcmp(turn, "b1") == 0)
        b->slot = 1;
    else
        b->slot = letter_player(turn[0], players);
    b->team_called[0] = strchr(calls, 'r') != NULL;
    b->team_called[1] = strchr(calls, 'b') != NULL;
    b->caller = caller[0] == '-' ? -1 : letter_player(caller[0], players);
    b->first_r = b->first_c = -1;
    if (first[0] != '-') {
        b->first_c = first[0] - 'a';
        b->first_r = first[1] - '1';
    }
    return true;
}

void ref_team_to_fen(const ref_team_t *b, char *out)
{
    int n = 0;
    for (int r = 8; r >= 0; r--) {
        int empty = 0;
        for (int c = 0; c < 9; c++) {
            if (b->owner[r][c] < 0) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = LETTER[b->owner[r][c]];
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (r)
            out[n++] = '/';
    }
    char turn[4] = {LETTER[ref_team_to_move(b)], 0, 0, 0};
    if (b->players == 3 && ref_team_to_move(b) == BLUE3)
        turn[1] = b->slot == 1 ? '1' : '2';
    const char *calls = b->team_called[0] && b->team_called[1] ? "rb"
                        : b->team_called[0]                   ? "r"
                        : b->team_called[1]                   ? "b"
                                                              : "-";
    char caller[2] = {b->caller < 0 ? '-' : LETTER[b->caller], 0}, first[3] = "-";
    if (b->first_r >= 0)
        name_point(b->first_r, b->first_c, first);
    sprintf(out + n, " %s %s %s %s %d", turn, calls, caller, first, b->quiet);
}
