/*
 * brax.c: Brax on 128-bit bitboards.
 *
 * Point index = row * 9 + column (a1 = 0, i9 = 80). The board colouring
 * lives in one pair of tables (shared/rules/brax.md); from it we precompute
 * each point's 1-step neighbours and, per colour, its 2-step paths (middle
 * and end), so move generation and threat detection are mask tests.
 *
 * The Brax call is part of a move (a flag bit). Its consequence, the forced
 * reply, is not stored: it is the set of the mover's men that the caller
 * threatens now, which nothing has changed since the call. The position
 * therefore holds only who called last, which also decides who may call.
 */
#include "brax.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../core/bb128.h"
#include "../core/rng.h"

enum { RED = 0, BLUE = 1 };
enum { V_BRAX, V_ZILLIONS, V_EASY, V_HUNT };

#define N_PTS 81
#define MAX_PATHS 12
#define DRAW_QUIET_PLIES 10

/* Horizontal segments, row 9 first; entry k joins columns k and k+1. */
static const char *const horizontal[9] = {
    "BBRRBBRR", "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
    "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
};
/* Vertical segments, rows 8-9 first; entry k is in column k. */
static const char *const vertical[8] = {
    "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
    "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
};

typedef struct brax {
    bb128_t men[2];
    uint64_t hash;
    uint8_t stm;
    uint8_t called;  /* bit p: player p's last move carried a call */
    uint8_t quiet;   /* plies since the last capture, capped at 255 */
    uint8_t variant;
} brax_t;

_Static_assert(sizeof(brax_t) <= GAME_POS_BYTES, "position fits");

static bb128_t step1[N_PTS];
static int8_t path_mid[N_PTS][2][MAX_PATHS], path_end[N_PTS][2][MAX_PATHS];
static int8_t path_count[N_PTS][2];
static uint64_t zobrist_men[2][N_PTS], zobrist_side, zobrist_called[2];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static brax_t *P(position_t *p) { return (brax_t *)p->bytes; }
static const brax_t *CP(const position_t *p) { return (const brax_t *)p->bytes; }

/* ---- geometry ---- */

int brax_segment_colour(int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    if (a < 0 || b >= N_PTS)
        return -1;
    int ra = a / 9, ca = a % 9;
    if (b == a + 1 && ca < 8)
        return horizontal[8 - ra][ca] == 'B';
    if (b == a + 9)
        return vertical[7 - ra][ca] == 'B';
    return -1;
}

static int neighbour(int p, int dir)
{
    int r = p / 9, c = p % 9;
    switch (dir) {
    case 0: return r < 8 ? p + 9 : -1;
    case 1: return r > 0 ? p - 9 : -1;
    case 2: return c < 8 ? p + 1 : -1;
    default: return c > 0 ? p - 1 : -1;
    }
}

static void init_tables(void)
{
    for (int p = 0; p < N_PTS; p++) {
        step1[p] = bb128_zero();
        for (int d = 0; d < 4; d++) {
            int m = neighbour(p, d);
            if (m < 0)
                continue;
            step1[p] = bb128_or(step1[p], bb128_bit(m));
            int col = brax_segment_colour(p, m);
            for (int e = 0; e < 4; e++) {
                int t = neighbour(m, e);
                if (t < 0 || t == p || brax_segment_colour(m, t) != col)
                    continue;
                int k = path_count[p][col]++;
                path_mid[p][col][k] = (int8_t)m;
                path_end[p][col][k] = (int8_t)t;
            }
        }
    }
    rng_t rng = {0xB3A7B3A7u};
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < N_PTS; p++)
            zobrist_men[c][p] = rng_next(&rng);
    zobrist_side = rng_next(&rng);
    zobrist_called[0] = rng_next(&rng);
    zobrist_called[1] = rng_next(&rng);
}

static void ensure_tables(void) { pthread_once(&tables_once, init_tables); }

/* ---- rules of the variants ---- */

static bool has_double_capture(const brax_t *b) { return b->variant == V_BRAX || b->variant == V_HUNT; }

/* May player pl, having just moved to reach b, call Brax (threat aside)? */
static bool call_permitted(const brax_t *b, int pl)
{
    int own = bb128_popcount(b->men[pl]), other = bb128_popcount(b->men[pl ^ 1]);
    switch (b->variant) {
    case V_EASY: return false;
    case V_ZILLIONS: return own >= 2 && other >= 3;
    default:
        if (b->called & (1u << pl))
            return false; /* not on the turn right after a call */
        return !((own == 1 && other <= 2) || (other == 1 && own <= 2));
    }
}

/* ---- moves ---- */

/* from (7 bits) | to << 7 | (mid + 1) << 14 for double captures | call. */
#define MOVE_CALL ((move_t)1 << 21)
static move_t encode(int from, int to, int mid) { return (move_t)(from | to << 7 | (mid + 1) << 14); }
static int move_from(move_t m) { return (int)(m & 127); }
static int move_to(move_t m) { return (int)(m >> 7 & 127); }
static int move_mid(move_t m) { return (int)(m >> 14 & 127) - 1; }

/* Enemy men that player pl could capture if it were pl's turn. */
static bb128_t threats(const brax_t *b, int pl)
{
    bb128_t own = b->men[pl], enemy = b->men[pl ^ 1], occ = bb128_or(own, enemy), t = bb128_zero();
    bool dbl = has_double_capture(b);
    for (bb128_t m = own; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        t = bb128_or(t, bb128_and(step1[p], enemy));
        for (int k = 0; k < path_count[p][pl]; k++) {
            int mid = path_mid[p][pl][k], end = path_end[p][pl][k];
            if (!bb128_test(enemy, end))
                continue;
            if (!bb128_test(occ, mid))
                t = bb128_or(t, bb128_bit(end));
            else if (dbl && bb128_test(enemy, mid))
                t = bb128_or(t, bb128_or(bb128_bit(mid), bb128_bit(end)));
        }
    }
    return t;
}

/* Does player pl threaten any enemy man? threats() without building the set. */
static bool any_threat(const brax_t *b, int pl)
{
    bb128_t own = b->men[pl], enemy = b->men[pl ^ 1], occ = bb128_or(own, enemy);
    bool dbl = has_double_capture(b);
    for (bb128_t m = own; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        if (!bb128_empty(bb128_and(step1[p], enemy)))
            return true;
        for (int k = 0; k < path_count[p][pl]; k++) {
            int mid = path_mid[p][pl][k], end = path_end[p][pl][k];
            if (bb128_test(enemy, end) && (!bb128_test(occ, mid) || (dbl && bb128_test(enemy, mid))))
                return true;
        }
    }
    return false;
}

/* Moves of the men in `from_set`, without calls. */
static int gen_plain(const brax_t *b, bb128_t from_set, move_t *moves)
{
    int pl = b->stm, n = 0;
    bb128_t own = b->men[pl], enemy = b->men[pl ^ 1], occ = bb128_or(own, enemy);
    bool dbl = has_double_capture(b);
    for (bb128_t m = from_set; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        for (bb128_t t = bb128_andnot(step1[p], own); !bb128_empty(t);) {
            int to = bb128_pop(&t);
            moves[n++] = encode(p, to, -1) | (bb128_test(enemy, to) ? MOVE_CAPTURE : 0);
        }
        bb128_t reached = bb128_zero();
        for (int k = 0; k < path_count[p][pl]; k++) {
            int mid = path_mid[p][pl][k], end = path_end[p][pl][k];
            if (!bb128_test(occ, mid)) {
                /* Two paths to one end are one move. */
                if (bb128_test(own, end) || bb128_test(reached, end))
                    continue;
                reached = bb128_or(reached, bb128_bit(end));
                moves[n++] = encode(p, end, -1) | (bb128_test(enemy, end) ? MOVE_CAPTURE : 0);
            } else if (dbl && bb128_test(enemy, mid) && bb128_test(enemy, end)) {
                moves[n++] = encode(p, end, mid) | MOVE_CAPTURE;
            }
        }
    }
    return n;
}

/* The men the side to move must choose from after a call, or empty. */
static bb128_t forced_men(const brax_t *b)
{
    if (!(b->called & (1u << (b->stm ^ 1))))
        return bb128_zero();
    return bb128_and(threats(b, b->stm ^ 1), b->men[b->stm]);
}

static void apply(brax_t *b, move_t m);

static bool is_over(const brax_t *b)
{
    int mine = bb128_popcount(b->men[b->stm]), theirs = bb128_popcount(b->men[b->stm ^ 1]);
    return mine == 0 || (mine == 1 && theirs == 1 && b->quiet >= DRAW_QUIET_PLIES);
}

static int gen(const brax_t *b, move_t *moves, bool noisy_only)
{
    if (is_over(b))
        return 0;
    move_t plain[MAX_MOVES];
    bb128_t forced = forced_men(b);
    int n = bb128_empty(forced) ? 0 : gen_plain(b, forced, plain);
    if (n == 0) /* no call, or no threatened man can move: any move */
        n = gen_plain(b, b->men[b->stm], plain);
    int out = 0;
    for (int i = 0; i < n; i++) {
        move_t m = plain[i];
        if (m & MOVE_CAPTURE)
            m |= MOVE_NOISY | MOVE_IRREVERSIBLE;
        /* Quiescence takes captures and calls: a call decides the reply, so
         * stopping just before one would hide what it wins. */
        if (!noisy_only || (m & MOVE_CAPTURE))
            moves[out++] = m;
        if (b->variant == V_EASY)
            continue;
        brax_t after = *b;
        apply(&after, m);
        if (call_permitted(&after, b->stm) && any_threat(&after, b->stm))
            moves[out++] = m | MOVE_CALL | MOVE_NOISY;
    }
    return out;
}

static int brax_gen_moves(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, false); }
static int brax_gen_noisy(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, true); }
static int brax_count_moves(const position_t *pos)
{
    move_t moves[MAX_MOVES];
    return gen(CP(pos), moves, false);
}

/* ---- make / unmake ---- */

static void toggle(brax_t *b, int colour, int p)
{
    b->men[colour] = bb128_xor(b->men[colour], bb128_bit(p));
    b->hash ^= zobrist_men[colour][p];
}

/* Plays m on b, without the side-to-move bookkeeping of calls. */
static void apply(brax_t *b, move_t m)
{
    int pl = b->stm, from = move_from(m), to = move_to(m), mid = move_mid(m);
    bool capture = bb128_test(b->men[pl ^ 1], to);
    if (capture)
        toggle(b, pl ^ 1, to);
    if (mid >= 0)
        toggle(b, pl ^ 1, mid);
    toggle(b, pl, from);
    toggle(b, pl, to);
    b->quiet = capture ? 0 : (uint8_t)(b->quiet < 255 ? b->quiet + 1 : 255);
}

static void set_called(brax_t *b, int pl, bool on)
{
    bool was = (b->called >> pl) & 1;
    if (was != on) {
        b->called ^= (uint8_t)(1u << pl);
        b->hash ^= zobrist_called[pl];
    }
}

static void brax_make(position_t *pos, move_t m, undo_t *u)
{
    brax_t *b = P(pos);
    memcpy(u->w, b, sizeof *b);
    int pl = b->stm;
    apply(b, m);
    set_called(b, pl, (m & MOVE_CALL) != 0);
    b->stm ^= 1;
    b->hash ^= zobrist_side;
}

static void brax_unmake(position_t *pos, move_t m, const undo_t *u)
{
    (void)m;
    memcpy(P(pos), u->w, sizeof(brax_t));
}

_Static_assert(sizeof(brax_t) <= sizeof(((undo_t *)0)->w), "undo holds a position");

/* ---- state ---- */

static int brax_to_move(const position_t *pos) { return CP(pos)->stm; }
static uint64_t brax_hash(const position_t *pos) { return CP(pos)->hash; }

static bool brax_decided(const position_t *pos, outcome_t *out)
{
    const brax_t *b = CP(pos);
    int mine = bb128_popcount(b->men[b->stm]);
    if (mine == 0) {
        *out = (outcome_t){OUTCOME_WIN, player_bit(b->stm ^ 1), "no pieces left"};
        return true;
    }
    if (is_over(b)) {
        *out = (outcome_t){OUTCOME_DRAW, 3, "one against one, ten moves without capture"};
        return true;
    }
    return false;
}

static outcome_t brax_outcome(const position_t *pos)
{
    outcome_t o;
    if (brax_decided(pos, &o))
        return o;
    if (brax_count_moves(pos) == 0)
        return (outcome_t){OUTCOME_WIN, player_bit(CP(pos)->stm ^ 1), "no legal move"};
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

/* ---- evaluation ---- */

enum { VAL_MAN = 100, MOBILITY = 3, TO_MOVE_THREAT = 40, HANGING = 25, BRAXED = 15, CENTRE = 4, ADVANCE = 3 };

/* Men nearer the centre have more lines to choose from, and men that have
 * advanced press the enemy: without this, both sides stand off forever. */
static int placement(const brax_t *b, int pl)
{
    int v = 0;
    for (bb128_t m = b->men[pl]; !bb128_empty(m);) {
        int p = bb128_pop(&m), r = p / 9, c = p % 9;
        int dr = r > 4 ? r - 4 : 4 - r, dc = c > 4 ? c - 4 : 4 - c;
        v += CENTRE * (4 - (dr > dc ? dr : dc)) + ADVANCE * (pl == RED ? r : 8 - r);
    }
    return v;
}

/* Points a player's men reach: 1-steps, and 2-steps along their colour. */
static int mobility(const brax_t *b, int pl)
{
    bb128_t own = b->men[pl], occ = bb128_or(own, b->men[pl ^ 1]);
    int n = 0;
    for (bb128_t m = own; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        n += bb128_popcount(bb128_andnot(step1[p], own));
        bb128_t reach = bb128_zero();
        for (int k = 0; k < path_count[p][pl]; k++)
            if (!bb128_test(occ, path_mid[p][pl][k]))
                reach = bb128_or(reach, bb128_bit(path_end[p][pl][k]));
        n += bb128_popcount(bb128_andnot(reach, own));
    }
    return n;
}

static score_t brax_evaluate(const position_t *pos, eval_trace_t *t)
{
    const brax_t *b = CP(pos);
    int v[2] = {0, 0};
    int mat[2], mob[2], hang[2], place[2], threat[2] = {0, 0};
    for (int pl = 0; pl < 2; pl++) {
        mat[pl] = VAL_MAN * bb128_popcount(b->men[pl]);
        mob[pl] = MOBILITY * mobility(b, pl);
        place[pl] = placement(b, pl);
        /* Men the other side could take: the side to move can take one now
         * (quiescence sees which); the other must fear for all of them. */
        hang[pl] = bb128_popcount(threats(b, pl ^ 1));
    }
    eval_trace_add(t, "material", mat[RED], mat[BLUE]);
    eval_trace_add(t, "mobility", mob[RED], mob[BLUE]);
    eval_trace_add(t, "placement", place[RED], place[BLUE]);
    int stm = b->stm, opp = stm ^ 1;
    threat[stm] = hang[opp] ? TO_MOVE_THREAT : 0;
    int hanging[2] = {0, 0};
    hanging[opp] = -HANGING * hang[opp];
    hanging[stm] = -HANGING * (hang[stm] > 1 ? hang[stm] - 1 : 0);
    eval_trace_add(t, "threats", threat[RED], threat[BLUE]);
    eval_trace_add(t, "men en prise", hanging[RED], hanging[BLUE]);
    /* Braxed: the opponent called and threatens our men (hang[stm] counts
     * exactly the men forced_men() would return, so it is not recomputed). */
    int braxed[2] = {0, 0};
    if ((b->called & (1u << opp)) && hang[stm] > 0)
        braxed[stm] = -BRAXED;
    eval_trace_add(t, "braxed", braxed[RED], braxed[BLUE]);
    for (int pl = 0; pl < 2; pl++)
        v[pl] = mat[pl] + mob[pl] + place[pl] + threat[pl] + hanging[pl] + braxed[pl];
    return (score_t)(v[stm] - v[opp]);
}

/* ---- text ---- */

static void point_name(int p, char *out)
{
    out[0] = (char)('a' + p % 9);
    out[1] = (char)('1' + p / 9);
    out[2] = 0;
}

static void brax_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    char a[3], b[3], c[3] = "";
    point_name(move_from(m), a);
    point_name(move_to(m), b);
    if (move_mid(m) >= 0)
        point_name(move_mid(m), c);
    snprintf(buf, len, "%s%s%s%s", a, c, b, (m & MOVE_CALL) ? "+" : "");
}

/* Reads a point name at s; -1 if there is none. */
static int read_point(const char *s)
{
    if (s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '9')
        return -1;
    return (s[1] - '1') * 9 + (s[0] - 'a');
}

static move_t brax_parse_move(const position_t *pos, const char *text)
{
    const brax_t *b = CP(pos);
    size_t len = strlen(text);
    bool call = len > 0 && text[len - 1] == '+';
    if (call)
        len--;
    if (len != 4 && len != 6)
        return MOVE_NONE;
    int from = read_point(text), mid = len == 6 ? read_point(text + 2) : -1;
    int to = read_point(text + len - 2);
    if (from < 0 || to < 0 || (len == 6 && mid < 0))
        return MOVE_NONE;
    move_t moves[MAX_MOVES];
    int n = gen(b, moves, false);
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if (move_from(m) != from || move_to(m) != to || ((m & MOVE_CALL) != 0) != call)
            continue;
        if (len == 4 && move_mid(m) < 0)
            return m;
        if (len == 6 && move_mid(m) == mid)
            return m;
        /* A named middle point of an ordinary 2-step: it must be a path. */
        if (len == 6 && move_mid(m) < 0) {
            int pl = b->stm;
            for (int k = 0; k < path_count[from][pl]; k++)
                if (path_mid[from][pl][k] == mid && path_end[from][pl][k] == to &&
                    !bb128_test(bb128_or(b->men[0], b->men[1]), mid))
                    return m;
        }
    }
    return MOVE_NONE;
}

static int brax_move_key(move_t m) { return move_from(m) * N_PTS + move_to(m); }

/* ---- position strings ---- */

static void rehash(brax_t *b)
{
    b->hash = b->stm ? zobrist_side : 0;
    for (int c = 0; c < 2; c++) {
        for (bb128_t m = b->men[c]; !bb128_empty(m);)
            b->hash ^= zobrist_men[c][bb128_pop(&m)];
        if (b->called & (1u << c))
            b->hash ^= zobrist_called[c];
    }
}

static void set_start(position_t *pos, int variant)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    brax_t *b = P(pos);
    b->variant = (uint8_t)variant;
    if (variant == V_HUNT)
        b->men[RED] = bb128_bit(4);
    else
        for (int c = 1; c <= 7; c++)
            b->men[RED] = bb128_or(b->men[RED], bb128_bit(c));
    for (int c = 1; c <= 7; c++)
        b->men[BLUE] = bb128_or(b->men[BLUE], bb128_bit(72 + c));
    rehash(b);
}

static bool parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int variant)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    brax_t *b = P(pos);
    b->variant = (uint8_t)variant;
    const char *c = fen;
    for (int r = 8; r >= 0; r--) {
        int col = 0;
        for (; *c && *c != '/' && *c != ' '; c++) {
            if (*c >= '1' && *c <= '9') {
                col += *c - '0';
            } else if (*c == 'r' || *c == 'b') {
                if (col > 8)
                    return game_fail(err, errlen, "row too long");
                b->men[*c == 'b'] = bb128_or(b->men[*c == 'b'], bb128_bit(r * 9 + col));
                col++;
            } else {
                return game_fail(err, errlen, "unknown letter (expected r, b or 1-9)");
            }
            if (col > 9)
                return game_fail(err, errlen, "row too long");
        }
        if (col != 9)
            return game_fail(err, errlen, "each row must have 9 points");
        if (r > 0) {
            if (*c != '/')
                return game_fail(err, errlen, "expected 9 rows separated by '/'");
            c++;
        }
    }
    char side[8], calls[8], extra[8];
    int quiet = -1, n = sscanf(c, " %7s %7s %d %7s", side, calls, &quiet, extra);
    if (n != 3)
        return game_fail(err, errlen, "expected: <board> <side r|b> <calls -|r|b|rb> <quiet plies>");
    if (strcmp(side, "r") != 0 && strcmp(side, "b") != 0)
        return game_fail(err, errlen, "side to move must be 'r' or 'b'");
    b->stm = side[0] == 'b';
    if (strcmp(calls, "-") == 0) b->called = 0;
    else if (strcmp(calls, "r") == 0) b->called = 1;
    else if (strcmp(calls, "b") == 0) b->called = 2;
    else if (strcmp(calls, "rb") == 0) b->called = 3;
    else return game_fail(err, errlen, "calls must be '-', 'r', 'b' or 'rb'");
    if (variant == V_EASY && b->called)
        return game_fail(err, errlen, "brax-easy has no calls");
    if (quiet < 0 || quiet > 255)
        return game_fail(err, errlen, "the quiet ply count must be 0-255");
    b->quiet = (uint8_t)quiet;
    if (bb128_popcount(b->men[RED]) > 7 || bb128_popcount(b->men[BLUE]) > 7)
        return game_fail(err, errlen, "at most 7 men a side");
    rehash(b);
    return true;
}

static void brax_write_fen(const position_t *pos, char *buf, size_t len)
{
    const brax_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int r = 8; r >= 0; r--) {
        char cells[9];
        for (int col = 0; col < 9; col++) {
            int p = r * 9 + col;
            cells[col] = bb128_test(b->men[RED], p) ? 'r' : bb128_test(b->men[BLUE], p) ? 'b' : 0;
        }
        fen_append_row(out, &n, cells, 9);
        if (r)
            out[n++] = '/';
    }
    out[n] = 0;
    static const char *const calls[4] = {"-", "r", "b", "rb"};
    snprintf(buf, len, "%s %c %s %d", out, b->stm ? 'b' : 'r', calls[b->called & 3], b->quiet);
}

/* Points as 'R'/'B' men or '+', segments as 'r'/'b' letters (or coloured
 * lines with ANSI), so the colouring reads in any terminal. */
static void brax_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const brax_t *b = CP(pos);
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    const char *red = ansi ? "\033[31m" : "", *blue = ansi ? "\033[34m" : "", *off = ansi ? "\033[0m" : "";
    for (int r = 8; r >= 0; r--) {
        OUT(" %d  ", r + 1);
        for (int col = 0; col < 9; col++) {
            int p = r * 9 + col;
            if (bb128_test(b->men[RED], p)) OUT("%s%sR%s", ansi ? "\033[1m" : "", red, off);
            else if (bb128_test(b->men[BLUE], p)) OUT("%s%sB%s", ansi ? "\033[1m" : "", blue, off);
            else OUT("+");
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
    OUT("%s to move", b->stm ? "Blue" : "Red");
    bb128_t forced = forced_men(b);
    if (!bb128_empty(forced)) {
        OUT(", braxed: must move");
        for (bb128_t m = forced; !bb128_empty(m);) {
            char name[3];
            point_name(bb128_pop(&m), name);
            OUT(" %s", name);
        }
    }
    OUT("\n");
#undef OUT
}

/* ---- the variants ---- */

#define VARIANT_FNS(tag, id)                                                                                     \
    static void set_start_##tag(position_t *pos) { set_start(pos, id); }                                         \
    static bool parse_fen_##tag(position_t *pos, const char *fen, char *err, size_t len)                         \
    {                                                                                                            \
        return parse_fen(pos, fen, err, len, id);                                                                \
    }
VARIANT_FNS(brax, V_BRAX)
VARIANT_FNS(zillions, V_ZILLIONS)
VARIANT_FNS(easy, V_EASY)
VARIANT_FNS(hunt, V_HUNT)

/* The start, two positions from engine self-play, and two with contact. */
static const char *const bench_fens[] = {
    "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0",
    "3b1b3/1b5b1/4b1b2/2b6/9/9/2r1r1r2/1r1r3r1/5r3 r - 16",
    "3b5/1b3b1b1/4b1b2/9/1b7/6r2/2r1r4/1r1r2r1r/9 r - 26",
    "9/1b5b1/9/3bb1b2/2b1rb3/3r2r2/2r2r3/1r5r1/9 r - 0",
    "9/4b4/2b3b2/3bbb3/9/3rrr3/2r3r2/9/9 b - 0",
    NULL,
};

static const char *const bench_fens_hunt[] = {
    "1bbbbbbb1/9/9/9/9/9/9/9/4r4 r - 0",
    "9/1bbb1bbb1/9/9/9/9/4r4/9/9 r - 0",
    NULL,
};

#define BRAX_GAME(var, vname, desc, tag, fens)                                                                  \
    const game_t var = {                                                                                         \
        .name = vname,                                                                                           \
        .description = desc,                                                                                     \
        .players = 2,                                                                                            \
        .team_of = {0, 1},                                                                                       \
        .player_names = {"red", "blue"},                                                                         \
        .repetition_draw = true,                                                                                 \
        .move_keys = N_PTS * N_PTS,                                                                              \
        .bench_fens = fens,                                                                                      \
        .bench_depth = 8,                                                                                        \
        .set_start = set_start_##tag,                                                                            \
        .parse_fen = parse_fen_##tag,                                                                            \
        .write_fen = brax_write_fen,                                                                             \
        .print_board = brax_print_board,                                                                         \
        .to_move = brax_to_move,                                                                                 \
        .hash = brax_hash,                                                                                       \
        .gen_moves = brax_gen_moves,                                                                             \
        .gen_noisy = brax_gen_noisy,                                                                             \
        .count_moves = brax_count_moves,                                                                         \
        .make = brax_make,                                                                                       \
        .unmake = brax_unmake,                                                                                   \
        .decided = brax_decided,                                                                                 \
        .outcome = brax_outcome,                                                                                 \
        .evaluate = brax_evaluate,                                                                               \
        .move_text = brax_move_text,                                                                             \
        .parse_move = brax_parse_move,                                                                           \
        .move_key = brax_move_key,                                                                               \
        .chance_outcomes = NULL,                                                                                 \
    }

BRAX_GAME(brax_denham, "brax", "Brax (Denham, 1889)", brax, bench_fens);
BRAX_GAME(brax_zillions, "brax-zillions", "Brax, Zillions of Games rules", zillions, bench_fens);
BRAX_GAME(brax_easy, "brax-easy", "Brax Easy (no calls, no double captures)", easy, bench_fens);
BRAX_GAME(brax_hunt, "brax-hunt", "Brax hunt: one red man against seven", hunt, bench_fens_hunt);
