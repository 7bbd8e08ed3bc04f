/*
 * brax_why.c: Brax in words for people (game.h, explain_illegal and
 * explain_result): why a typed move is refused, named as docs/rules/brax.md
 * words the rule, and where and why a game ended. Asks the rules
 * (brax_rules.c) every question of legality and decides none itself; may
 * not reach into the evaluation or the search.
 */
#include "brax_why.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brax_rules.h"
#include "brax_text.h"

#define SAY(...) snprintf(buf, len, __VA_ARGS__)
#define GENERIC "it is not one of the legal moves here"

static const char *const colour_name[2] = {"red", "blue"};

/* The player's name as the rules page writes it. */
static const char *player_name(const brax_t *b, int pl)
{
    static const char *const two[2] = {"Red", "Blue"}, *const three[3] = {"R1", "Blue", "R2"},
                             *const four[4] = {"South", "West", "North", "East"};
    return b->variant == V_3P ? three[pl] : b->variant == V_4P ? four[pl] : two[pl];
}

static const char *variant_name(const brax_t *b)
{
    static const char *const names[] = {"brax", "brax-zillions", "brax-easy", "brax-hunt", "brax-3p", "brax-4p"};
    return names[b->variant];
}

static int owner_at(const brax_t *b, int p)
{
    for (int pl = 0; pl < b->players; pl++)
        if (bb128_test(b->men[pl], p))
            return pl;
    return -1;
}

/* ---- refused moves ---- */

/* What a person typed, read without judging it. */
typedef struct typed {
    bool pass, call;
    int from, mid, to; /* points; mid -1 when not named */
} typed_t;

static int read_point(const char *s)
{
    if (s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '9')
        return -1;
    return (s[1] - '1') * 9 + (s[0] - 'a');
}

/* False when text is no move in Brax notation at all. */
static bool read_typed(const char *text, typed_t *m)
{
    size_t n = strlen(text);
    *m = (typed_t){.mid = -1};
    m->call = n > 0 && text[n - 1] == '+';
    n -= m->call;
    if (n == 4 && strncmp(text, "pass", 4) == 0) {
        m->pass = true;
        return true;
    }
    if (n != 4 && n != 6)
        return false;
    m->from = read_point(text);
    m->to = read_point(text + n - 2);
    if (n == 6 && (m->mid = read_point(text + 2)) < 0)
        return false;
    return m->from >= 0 && m->to >= 0;
}

/* Point names in form (letter, digit) of which one is not on the board:
 * the move's 4 or 6 letters, a call's + aside. */
static bool why_off_board(const char *t, char *buf, size_t len)
{
    size_t n = strlen(t);
    n -= n > 0 && t[n - 1] == '+';
    bool form = n == 4 || n == 6;
    for (size_t i = 0; i < n && form; i += 2)
        form = t[i] >= 'a' && t[i] <= 'z' && t[i + 1] >= '0' && t[i + 1] <= '9';
    for (size_t i = 0; form && i < n; i += 2)
        if (read_point(t + i) < 0) {
            SAY("%c%c is off the board: the points run from a1 to i9", t[i], t[i + 1]);
            return true;
        }
    return false;
}

static void notation(const brax_t *b, char *buf, size_t len)
{
    SAY("it is not a move in Brax notation: a move names its start and end points, such as e3e5%s%s%s",
        has_double_capture(b) ? "; a double capture names its middle point too, such as e6f6f5" : "",
        b->variant != V_EASY ? "; a Brax call adds +, such as d6e6+" : "",
        team_game(b) ? "; a player who cannot move writes pass" : "");
}

/* The start point: a man of the mover's own, free to move this ply. */
static bool why_not_yours(const brax_t *b, const typed_t *m, char *buf, size_t len)
{
    char from[3];
    brax_point_name(m->from, from);
    int who = owner_at(b, m->from), pl = b->stm;
    if (who < 0)
        SAY("there is no man on %s", from);
    else if (team_of(who) != team_of(pl))
        SAY("the man on %s is %s's, not yours: %s is to move", from, player_name(b, who), player_name(b, pl));
    else if (who != pl)
        SAY("the man on %s is your partner %s's: each player moves only their own men", from, player_name(b, who));
    else if (m->from == b->first)
        SAY("Blue's second move must move another man: the man on %s has already moved this turn", from);
    else if (m->to == m->from)
        SAY("a man must move: %s is both its start and its end", from);
    else
        return false;
    return true;
}

/* The end point holds a man of the mover's side. */
static bool why_end_taken(const brax_t *b, const typed_t *m, char *buf, size_t len)
{
    int who = owner_at(b, m->to);
    if (who < 0 || team_of(who) != team_of(b->stm))
        return false;
    char to[3];
    brax_point_name(m->to, to);
    if (who == b->stm)
        SAY("your own man stands on %s: a man moves to an empty point or onto an enemy man", to);
    else
        SAY("your partner %s's man stands on %s: a man moves to an empty point or onto an enemy man",
            player_name(b, who), to);
    return true;
}

/* A two-step whose middle points (mids) all hold men: blocked, a jump onto
 * an empty point, or a double capture (not in every variant, and written
 * with its middle point). */
static bool why_through(const brax_t *b, const typed_t *m, const int *mids, int n, char *buf, size_t len)
{
    int t = team_of(b->stm);
    bb128_t occ = bb128_or(b->team[0], b->team[1]), enemy = b->team[t ^ 1];
    int mid = mids[0];
    for (int i = 0; i < n; i++) {
        if (!bb128_test(occ, mids[i]))
            return why_end_taken(b, m, buf, len); /* an open way: only the end can refuse */
        if (bb128_test(enemy, mids[i]))
            mid = mids[i];
    }
    char from[3], mn[3], to[3];
    brax_point_name(m->from, from);
    brax_point_name(mid, mn);
    brax_point_name(m->to, to);
    if (!bb128_test(enemy, mid))
        SAY("the way is blocked: a man of your side stands on %s, and men never jump", mn);
    else if (why_end_taken(b, m, buf, len))
        return true;
    else if (!bb128_test(enemy, m->to))
        SAY("a two-step move may not jump the enemy man on %s onto an empty point: a double capture needs enemy "
            "men on both %s and %s",
            mn, mn, to);
    else if (!has_double_capture(b))
        SAY("%s has no double captures: a man never jumps, even over the enemy man on %s", variant_name(b), mn);
    else if (m->mid < 0)
        SAY("a double capture names its middle point: write %s%s%s", from, mn, to);
    else
        return false;
    return true;
}

/* A 2-step written with its middle point: two segments of the man's
 * colour, each point next to the one before. */
static bool why_named_way(const brax_t *b, const typed_t *m, char *buf, size_t len)
{
    int t = team_of(b->stm);
    int c1 = brax_segment_colour(m->from, m->mid), c2 = brax_segment_colour(m->mid, m->to);
    char from[3], mn[3], to[3];
    brax_point_name(m->from, from);
    brax_point_name(m->mid, mn);
    brax_point_name(m->to, to);
    if (c1 < 0 || c2 < 0) {
        SAY("%s, %s, %s is not a way along the lines: each point must be next to the one before", from, mn, to);
        return true;
    }
    if (c1 != t || c2 != t) {
        SAY("a two-step move follows two %s segments (your colour), but %s-%s is %s and %s-%s is %s", colour_name[t],
            from, mn, colour_name[c1], mn, to, colour_name[c2]);
        return true;
    }
    return why_through(b, m, &m->mid, 1, buf, len);
}

/* The way from start to end: one step along any segment, or two along
 * segments of the mover's colour. */
static bool why_no_way(const brax_t *b, const typed_t *m, char *buf, size_t len)
{
    if (m->mid >= 0)
        return why_named_way(b, m, buf, len);
    int t = team_of(b->stm);
    int d = abs(m->from % 9 - m->to % 9) + abs(m->from / 9 - m->to / 9);
    if (d == 1)
        return why_end_taken(b, m, buf, len);
    char from[3], to[3];
    brax_point_name(m->from, from);
    brax_point_name(m->to, to);
    if (d > 2) {
        SAY("%s is too far from %s: a man moves one step along a line, or two steps along segments of its own "
            "colour",
            to, from);
        return true;
    }
    int mids[BRAX_PATHS_MAX], n = 0;
    for (int k = 0; k < brax_path_count[m->from][t]; k++)
        if (brax_path_end[m->from][t][k] == m->to)
            mids[n++] = brax_path_mid[m->from][t][k];
    if (n == 0) {
        SAY("a two-step move follows two %s segments (your colour), and no such way joins %s to %s", colour_name[t],
            from, to);
        return true;
    }
    return why_through(b, m, mids, n, buf, len);
}

/* The plain move (no call) the typed text names, if the man may make it. */
static move_t plain_of(const brax_t *b, const typed_t *m)
{
    move_t moves[MAX_MOVES];
    int n = brax_plain_moves(b, b->stm, bb128_bit(m->from), moves);
    for (int i = 0; i < n; i++) {
        int mid = move_mid(moves[i]);
        if (move_to(moves[i]) == m->to && (mid == m->mid || mid < 0))
            return moves[i];
    }
    return MOVE_NONE;
}

/* A call binds the mover: a threatened man must move, if one can. */
static bool why_forced(const brax_t *b, int from, char *buf, size_t len)
{
    bb128_t forced = brax_forced_men(b);
    if (b->first >= 0)
        forced = bb128_andnot(forced, bb128_bit(b->first));
    move_t moves[MAX_MOVES];
    if (bb128_empty(forced) || bb128_test(forced, from) || brax_plain_moves(b, b->stm, forced, moves) == 0)
        return false;
    char list[64] = "";
    for (bb128_t f = forced; !bb128_empty(f);) {
        char name[3];
        brax_point_name(bb128_pop(&f), name);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "", name);
    }
    SAY("%s called Brax, so you must move one of your threatened men (%s)", player_name(b, b->caller), list);
    return true;
}

/* The enemy men the plain move m takes. */
static bb128_t taken_by(const brax_t *b, move_t m)
{
    if (m & MOVE_PASS)
        return bb128_zero();
    bb128_t taken = bb128_and(b->team[team_of(b->stm) ^ 1], bb128_bit(move_to(m)));
    return move_mid(m) >= 0 ? bb128_or(taken, bb128_bit(move_mid(m))) : taken;
}

static void why_no_call(const brax_t *b, move_t plain, char *buf, size_t len)
{
    int t = team_of(b->stm);
    bb128_t taken = taken_by(b, plain);
    int own = bb128_popcount(b->team[t]), other = bb128_popcount(bb128_andnot(b->team[t ^ 1], taken));
    int next = team_game(b) ? (b->variant == V_3P ? cycle_3p : cycle_4p)[brax_next_slot(b, taken)] : b->stm ^ 1;
    switch (brax_call_check(b, plain)) {
    case CALL_NONE_IN_VARIANT:
        SAY("brax-easy has no Brax call: write the move without +");
        break;
    case CALL_NOT_FIRST_OF_TWO:
        SAY("Blue calls Brax only at the end of its turn, on its second move");
        break;
    case CALL_TWICE:
        SAY(team_game(b) ? "your team's last turn ended with a Brax call, and a team may not call two turns running"
                         : "you called Brax on your last move, and may not call twice running");
        break;
    case CALL_COUNTS:
        if (b->variant == V_ZILLIONS)
            SAY("a Brax call needs two men or more on the caller's side and three or more on the other; after this "
                "move it is %d against %d",
                own, other);
        else
            SAY("no Brax call while one side has exactly one man and the other one or two; after this move it is %d "
                "against %d",
                own, other);
        break;
    case CALL_PARTNER_NEXT:
        SAY("the next player to move is your partner, and a Brax call binds only an opponent");
        break;
    case CALL_NO_THREAT:
        SAY("after this move no man of %s's is threatened: a Brax call needs a man you could take on your next move",
            player_name(b, next));
        break;
    default:
        SAY(GENERIC);
    }
}

static void why_pass(const brax_t *b, bool call, char *buf, size_t len)
{
    if (!team_game(b)) {
        SAY("there is no pass in %s: a player who cannot move loses", variant_name(b));
        return;
    }
    move_t moves[MAX_MOVES];
    int n = brax_gen(b, moves, GEN_ALL);
    bool may_pass = false;
    for (int i = 0; i < n; i++)
        may_pass |= (moves[i] & MOVE_PASS) != 0;
    if (!may_pass)
        SAY("a player may pass only when they cannot move, and you can");
    else if (call)
        why_no_call(b, MOVE_PASS, buf, len);
    else
        SAY(GENERIC);
}

void brax_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len)
{
    const brax_t *b = CP(pos);
    char lower[GAME_MOVE_TEXT_MAX];
    game_lower(text, lower, sizeof lower);
    typed_t m;
    if (why_off_board(lower, buf, len))
        return;
    if (!read_typed(lower, &m)) {
        notation(b, buf, len);
        return;
    }
    if (m.pass) {
        why_pass(b, m.call, buf, len);
        return;
    }
    if (why_not_yours(b, &m, buf, len) || why_no_way(b, &m, buf, len))
        return;
    move_t plain = plain_of(b, &m);
    if (plain != MOVE_NONE && why_forced(b, m.from, buf, len))
        return;
    if (plain != MOVE_NONE && m.call)
        why_no_call(b, plain, buf, len);
    else
        SAY(GENERIC);
}

/* ---- the end of the game ---- */

/* A team's name for the start of a sentence: "Red", "The red team". */
static void team_title(const game_t *g, int t, char *out, size_t size)
{
    const char *name = game_team_name(g, t);
    snprintf(out, size, "%s%s", strchr(name, ' ') ? "the " : "", name);
    out[0] = (char)toupper((unsigned char)out[0]);
}

static void add_point(game_why_t *why, int p)
{
    char name[3];
    brax_point_name(p, name);
    game_why_add(why, name);
}

static void add_men(game_why_t *why, bb128_t men)
{
    for (bb128_t m = men; !bb128_empty(m);)
        add_point(why, bb128_pop(&m));
}

/* Team `loser` has no men: the points of the last capture, when known. */
static void last_men_taken(const game_t *g, const brax_t *before, move_t last, int loser, game_why_t *why)
{
    char winner[40];
    team_title(g, loser ^ 1, winner, sizeof winner);
    if (!before || last == MOVE_NONE || (last & MOVE_PASS)) {
        char name[40];
        team_title(g, loser, name, sizeof name);
        snprintf(why->text, sizeof why->text, "%s has no men left.", name);
        return;
    }
    if (move_mid(last) >= 0)
        add_point(why, move_mid(last));
    add_point(why, move_to(last));
    snprintf(why->text, sizeof why->text, "%s took the last %s %s, on %s%s%s.", winner, colour_name[loser],
             why->cells > 1 ? "men" : "man", why->cell[0], why->cells > 1 ? " and " : "",
             why->cells > 1 ? why->cell[1] : "");
}

void brax_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                         game_why_t *why)
{
    const brax_t *b = CP(pos);
    for (int t = 0; t < 2; t++)
        if (bb128_empty(b->team[t])) {
            last_men_taken(g, before ? CP(before) : NULL, last, t, why);
            return;
        }
    outcome_t o;
    if (brax_decided(pos, &o)) { /* one man against one, ten quiet plies */
        add_men(why, bb128_or(b->team[0], b->team[1]));
        snprintf(why->text, sizeof why->text, "One man against one, and ten moves without a capture: drawn.");
        return;
    }
    int loser = team_of(b->stm);
    char name[40];
    team_title(g, loser, name, sizeof name);
    add_men(why, b->team[loser]);
    snprintf(why->text, sizeof why->text, "%s cannot move: every %s man is blocked.", name, colour_name[loser]);
}
