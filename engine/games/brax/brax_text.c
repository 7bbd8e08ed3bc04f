/*
 * brax_text.c: Brax in text: move names, position strings (reading and
 * writing, the start positions), and the board drawing. Reads and builds
 * positions through the rules' types; may not reach into the evaluation,
 * but to make sure its tables exist before a position is set up.
 */
#include "brax_text.h"

#include <stdio.h>
#include <string.h>

#include "../../core/number.h"
#include "brax_eval.h"

/* ---- text ---- */

void brax_point_name(int p, char out[3])
{
    out[0] = (char)('a' + p % 9);
    out[1] = (char)('1' + p / 9);
    out[2] = 0;
}

void brax_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    if (m & MOVE_PASS) {
        snprintf(buf, len, "pass%s", (m & MOVE_CALL) ? "+" : "");
        return;
    }
    char a[3], b[3], c[3] = "";
    brax_point_name(move_from(m), a);
    brax_point_name(move_to(m), b);
    if (move_mid(m) >= 0)
        brax_point_name(move_mid(m), c);
    snprintf(buf, len, "%s%s%s%s", a, c, b, (m & MOVE_CALL) ? "+" : "");
}

/* Reads a point name at s; -1 if there is none. */
static int read_point(const char *s)
{
    if (s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '9')
        return -1;
    return (s[1] - '1') * 9 + (s[0] - 'a');
}

/* Point names and `pass` have no capitals: `E3E5` reads as `e3e5`. */
move_t brax_parse_move(const position_t *pos, const char *typed)
{
    const brax_t *b = CP(pos);
    char text[GAME_MOVE_TEXT_MAX];
    if (strlen(typed) >= sizeof text)
        return MOVE_NONE;
    game_lower(typed, text, sizeof text);
    size_t len = strlen(text);
    bool call = len > 0 && text[len - 1] == '+';
    if (call)
        len--;
    move_t moves[MAX_MOVES];
    if (len == 4 && strncmp(text, "pass", 4) == 0) {
        int n = brax_gen(b, moves, GEN_ALL);
        for (int i = 0; i < n; i++)
            if ((moves[i] & MOVE_PASS) && ((moves[i] & MOVE_CALL) != 0) == call)
                return moves[i];
        return MOVE_NONE;
    }
    if (len != 4 && len != 6)
        return MOVE_NONE;
    int from = read_point(text), mid = len == 6 ? read_point(text + 2) : -1;
    int to = read_point(text + len - 2);
    if (from < 0 || to < 0 || (len == 6 && mid < 0))
        return MOVE_NONE;
    int n = brax_gen(b, moves, GEN_ALL);
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if ((m & MOVE_PASS) || move_from(m) != from || move_to(m) != to || ((m & MOVE_CALL) != 0) != call)
            continue;
        if (len == 4 && move_mid(m) < 0)
            return m;
        if (len == 6 && move_mid(m) == mid)
            return m;
        /* A named middle point of an ordinary 2-step: it must be a path. */
        if (len == 6 && move_mid(m) < 0) {
            int t = team_of(b->stm);
            for (int k = 0; k < brax_path_count[from][t]; k++)
                if (brax_path_mid[from][t][k] == mid && brax_path_end[from][t][k] == to &&
                    !bb128_test(bb128_or(b->team[0], b->team[1]), mid))
                    return m;
        }
    }
    return MOVE_NONE;
}

/* A pass has no points: key 0, which no move (a1 to a1) uses. */
int brax_move_key(move_t m) { return (m & MOVE_PASS) ? 0 : move_from(m) * N_PTS + move_to(m); }

/* ---- position strings ---- */

/* Board letters by player: red team lower/upper r, blue team b/B. */
static const char player_letter[MAX_PLAYERS] = {'r', 'b', 'R', 'B'};

static void rehash(brax_t *b)
{
    b->hash = brax_zobrist_stm[b->stm];
    for (int pl = 0; pl < b->players; pl++)
        for (bb128_t m = b->men[pl]; !bb128_empty(m);)
            b->hash ^= brax_zobrist_men[pl][bb128_pop(&m)];
    for (int t = 0; t < 2; t++)
        if (b->called & (1u << t))
            b->hash ^= brax_zobrist_called[t];
    if (team_game(b) && b->caller >= 0)
        b->hash ^= brax_zobrist_caller[b->caller];
    if (b->first >= 0)
        b->hash ^= brax_zobrist_first[b->first];
}

static void add_man(brax_t *b, int pl, int p)
{
    b->men[pl] = bb128_or(b->men[pl], bb128_bit(p));
    b->team[team_of(pl)] = bb128_or(b->team[team_of(pl)], bb128_bit(p));
}

static void clear_position(position_t *pos, int variant)
{
    brax_tables_ensure();
    brax_eval_ensure();
    memset(pos, 0, sizeof *pos);
    brax_t *b = P(pos);
    b->variant = (uint8_t)variant;
    b->players = variant == V_3P ? 3 : variant == V_4P ? 4 : 2;
    b->caller = b->first = -1;
}

/* "d1 e1 f1": points by name. */
static void add_men(brax_t *b, int pl, const char *names)
{
    for (const char *c = names; *c; c += c[2] ? 3 : 2)
        add_man(b, pl, (c[1] - '1') * 9 + (c[0] - 'a'));
}

void brax_set_start(position_t *pos, int variant)
{
    clear_position(pos, variant);
    brax_t *b = P(pos);
    switch (variant) {
    case V_4P:
        add_men(b, 0, "d1 e1 f1");
        add_men(b, 1, "a4 a5 a6");
        add_men(b, 2, "d9 e9 f9");
        add_men(b, 3, "i4 i5 i6");
        break;
    case V_3P:
        add_men(b, 0, "b1 c1 d1");
        add_men(b, 1, "c9 d9 e9 f9 g9");
        add_men(b, 2, "f1 g1 h1");
        break;
    default:
        add_men(b, RED, variant == V_HUNT ? "e1" : "b1 c1 d1 e1 f1 g1 h1");
        add_men(b, BLUE, "b9 c9 d9 e9 f9 g9 h9");
    }
    rehash(b);
}

static int letter_player(const brax_t *b, char ch)
{
    for (int pl = 0; pl < b->players; pl++)
        if (player_letter[pl] == ch)
            return pl;
    return -1;
}

/* The board field: rows 9 to 1. Returns the rest of the string, or NULL. */
static const char *parse_board(brax_t *b, const char *c, char *err, size_t errlen)
{
    for (int r = 8; r >= 0; r--) {
        int col = 0;
        for (; *c && *c != '/' && *c != ' '; c++) {
            int pl = letter_player(b, *c);
            if (*c >= '1' && *c <= '9') {
                col += *c - '0';
            } else if (pl >= 0) {
                if (col > 8)
                    return game_fail(err, errlen, "row too long"), NULL;
                add_man(b, pl, r * 9 + col);
                col++;
            } else {
                return game_fail(err, errlen, team_game(b) ? "unknown letter (expected a player's letter or 1-9)"
                                                           : "unknown letter (expected r, b or 1-9)"),
                       NULL;
            }
            if (col > 9)
                return game_fail(err, errlen, "row too long"), NULL;
        }
        if (col != 9)
            return game_fail(err, errlen, "each row must have 9 points"), NULL;
        if (r > 0) {
            if (*c != '/')
                return game_fail(err, errlen, "expected 9 rows separated by '/'"), NULL;
            c++;
        }
    }
    return c;
}

static bool parse_calls(brax_t *b, const char *calls)
{
    static const char *const names[4] = {"-", "r", "b", "rb"};
    for (int i = 0; i < 4; i++)
        if (strcmp(calls, names[i]) == 0) {
            b->called = (uint8_t)i;
            return true;
        }
    return false;
}

static bool parse_quiet(brax_t *b, const char *text)
{
    long long q;
    if (!number_parse(text, 0, 255, &q))
        return false;
    b->quiet = (uint8_t)q;
    return true;
}

/* Two players: <board> <side r|b> <calls -|r|b|rb> <quiet plies>. */
static bool parse_two_player(brax_t *b, const char *rest, char *err, size_t errlen)
{
    char f[3][FEN_FIELD_MAX];
    if (*rest != ' ' || fen_fields(rest, f, 3) != 3)
        return game_fail(err, errlen, "expected: <board> <side r|b> <calls -|r|b|rb> <quiet plies>");
    const char *side = f[0], *calls = f[1], *quiet = f[2];
    if (strcmp(side, "r") != 0 && strcmp(side, "b") != 0)
        return game_fail(err, errlen, "side to move must be 'r' or 'b'");
    b->stm = side[0] == 'b';
    if (!parse_calls(b, calls))
        return game_fail(err, errlen, "calls must be '-', 'r', 'b' or 'rb'");
    if (b->variant == V_EASY && b->called)
        return game_fail(err, errlen, "brax-easy has no calls");
    if (!parse_quiet(b, quiet))
        return game_fail(err, errlen, "the quiet ply count must be 0-255");
    if (bb128_popcount(b->men[RED]) > 7 || bb128_popcount(b->men[BLUE]) > 7)
        return game_fail(err, errlen, "at most 7 men a side");
    /* The opponent's call binds us when its last move carried one. */
    b->caller = (int8_t)((b->called >> (b->stm ^ 1)) & 1 ? b->stm ^ 1 : -1);
    return true;
}

/* The turn field of a team game: a letter, and brax-3p's b1 or b2. */
static bool parse_turn(brax_t *b, const char *turn)
{
    int pl = letter_player(b, turn[0]);
    if (pl < 0)
        return false;
    if (b->variant == V_4P) {
        b->slot = (uint8_t)pl;
        return turn[1] == 0;
    }
    if (pl != BLUE_3P) {
        b->slot = (uint8_t)pl;
        return turn[1] == 0;
    }
    b->slot = turn[1] == '1' ? 1 : 3;
    return (turn[1] == '1' || turn[1] == '2') && turn[2] == 0;
}

/* Team games: <board> <turn> <calls> <caller> <first> <quiet plies>. */
static bool parse_team(brax_t *b, const char *rest, char *err, size_t errlen)
{
    char f[5][FEN_FIELD_MAX];
    if (*rest != ' ' || fen_fields(rest, f, 5) != 5)
        return game_fail(err, errlen, "expected: <board> <turn> <calls -|r|b|rb> <caller> <first man> <quiet plies>");
    const char *turn = f[0], *calls = f[1], *caller = f[2], *first = f[3], *quiet = f[4];
    if (!parse_turn(b, turn))
        return game_fail(err, errlen, b->variant == V_3P ? "turn must be r, R, b1 or b2" : "turn must be r, b, R or B");
    b->stm = (b->variant == V_3P ? cycle_3p : cycle_4p)[b->slot];
    if (!parse_calls(b, calls))
        return game_fail(err, errlen, "calls must be '-', 'r', 'b' or 'rb'");
    if (!parse_quiet(b, quiet))
        return game_fail(err, errlen, "the quiet ply count must be 0-255");
    if (strcmp(caller, "-") != 0) {
        int c = caller[1] ? -1 : letter_player(b, caller[0]);
        if (c < 0 || team_of(c) == team_of(b->stm) || !(b->called & (1u << team_of(c))))
            return game_fail(err, errlen, "the caller must be an opponent whose team's last turn called");
        b->caller = (int8_t)c;
    }
    if (strcmp(first, "-") != 0) {
        int p = strlen(first) == 2 ? read_point(first) : -1;
        if (b->variant != V_3P || b->stm != BLUE_3P || p < 0 || !bb128_test(b->men[BLUE_3P], p) ||
            bb128_popcount(b->men[BLUE_3P]) < 2 || b->caller >= 0)
            return game_fail(err, errlen, "a first man only in brax-3p, on a Blue man, mid-turn, with no call binding");
        b->first = (int8_t)p;
    }
    for (int pl = 0; pl < b->players; pl++)
        if (bb128_popcount(b->men[pl]) > (b->variant == V_3P && pl == BLUE_3P ? 5 : 3))
            return game_fail(err, errlen, "too many men for a player");
    if (bb128_empty(b->men[b->stm]) && !bb128_empty(b->team[0]) && !bb128_empty(b->team[1]))
        return game_fail(err, errlen, "the player to move has no men");
    return true;
}

bool brax_parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int variant)
{
    clear_position(pos, variant);
    brax_t *b = P(pos);
    const char *rest = parse_board(b, fen, err, errlen);
    if (!rest)
        return false;
    if (!(team_game(b) ? parse_team(b, rest, err, errlen) : parse_two_player(b, rest, err, errlen)))
        return false;
    rehash(b);
    return true;
}

void brax_write_fen(const position_t *pos, char *buf, size_t len)
{
    const brax_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int r = 8; r >= 0; r--) {
        char cells[9];
        for (int col = 0; col < 9; col++) {
            cells[col] = 0;
            for (int pl = 0; pl < b->players; pl++)
                if (bb128_test(b->men[pl], r * 9 + col))
                    cells[col] = player_letter[pl];
        }
        fen_append_row(out, &n, cells, 9);
        if (r)
            out[n++] = '/';
    }
    out[n] = 0;
    static const char *const calls[4] = {"-", "r", "b", "rb"};
    if (!team_game(b)) {
        snprintf(buf, len, "%s %c %s %d", out, b->stm ? 'b' : 'r', calls[b->called & 3], b->quiet);
        return;
    }
    char turn[3] = {player_letter[b->stm], 0, 0}, first[3] = "-";
    if (b->variant == V_3P && b->stm == BLUE_3P)
        turn[1] = b->slot == 1 ? '1' : '2';
    if (b->first >= 0)
        brax_point_name(b->first, first);
    snprintf(buf, len, "%s %s %s %c %s %d", out, turn, calls[b->called & 3],
             b->caller >= 0 ? player_letter[b->caller] : '-', first, b->quiet);
}

static const char *const seat_names_4p[4] = {"South", "West", "North", "East"};
static const char *const seat_names_3p[3] = {"R1", "Blue", "R2"};
/* On the drawn board men must not look like the lower-case segment letters. */
static const char board_letter_4p[4] = {'S', 'W', 'N', 'E'}, board_letter_3p[3] = {'1', 'B', '2'};

/* Points as men (one letter per player) or '+', segments as 'r'/'b'
 * letters (or coloured lines with ANSI), so the colouring reads in any
 * terminal. */
void brax_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const brax_t *b = CP(pos);
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    const char *red = ansi ? "\033[31m" : "", *blue = ansi ? "\033[34m" : "", *off = ansi ? "\033[0m" : "";
    const char *bold = ansi ? "\033[1m" : "";
    for (int r = 8; r >= 0; r--) {
        OUT(" %d  ", r + 1);
        for (int col = 0; col < 9; col++) {
            int p = r * 9 + col, who = -1;
            for (int pl = 0; pl < b->players; pl++)
                if (bb128_test(b->men[pl], p))
                    who = pl;
            char letter = who < 0                ? '+'
                          : b->variant == V_4P ? board_letter_4p[who]
                          : b->variant == V_3P ? board_letter_3p[who]
                          : who                ? 'B'
                                               : 'R';
            if (who >= 0)
                OUT("%s%s%c%s", bold, team_of(who) ? blue : red, letter, off);
            else
                OUT("+");
            if (col < 8) {
                int c = brax_segment_colour(p, p + 1);
                OUT(" %s%s%s ", c ? blue : red, ansi ? "-" : c ? "b" : "r", off);
            }
        }
        OUT("\n");
        if (r == 0)
            break;
        OUT("    ");
        for (int col = 0; col < 9; col++) {
            int c = brax_segment_colour(r * 9 + col - 9, r * 9 + col);
            OUT("%s%s%s   ", c ? blue : red, ansi ? "|" : c ? "b" : "r", off);
        }
        OUT("\n");
    }
    OUT("    a   b   c   d   e   f   g   h   i\n");
    if (team_game(b)) {
        const char *const *names = b->variant == V_3P ? seat_names_3p : seat_names_4p;
        const char *letters = b->variant == V_3P ? board_letter_3p : board_letter_4p;
        for (int pl = 0; pl < b->players; pl++)
            OUT("%s%c %s (%s team, %c in FEN)", pl ? ", " : "", letters[pl], names[pl], team_of(pl) ? "blue" : "red",
                player_letter[pl]);
        OUT("\n%s to move", names[b->stm]);
        if (b->first >= 0) {
            char name[3];
            brax_point_name(b->first, name);
            OUT(", second move (not the man on %s)", name);
        }
    } else {
        OUT("%s to move", b->stm ? "Blue" : "Red");
    }
    bb128_t forced = brax_forced_men(b);
    if (!bb128_empty(forced)) {
        OUT(", braxed: must move");
        for (bb128_t m = forced; !bb128_empty(m);) {
            char name[3];
            brax_point_name(bb128_pop(&m), name);
            OUT(" %s", name);
        }
    }
    OUT("\n");
#undef OUT
}

