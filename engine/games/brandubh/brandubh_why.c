/*
 * brandubh_why.c: Brandubh in words for people (game.h, explain_illegal
 * and explain_result): why a typed move is refused, named as
 * docs/rules/brandubh.md words the rule, and where and why a game ended.
 * Reads positions through the rules' types (brandubh_rules.h); may not
 * reach into the evaluation or the search.
 */
#include "brandubh_why.h"

#include <stdio.h>
#include <string.h>

#include "brandubh_rules.h"

#define SAY(...) snprintf(buf, len, __VA_ARGS__)

static const char *const side_name[2] = {"attackers", "defenders"};
static const char *const piece_name[3] = {"attacker", "defender", "king"};

static void square_name(int sq, char out[3])
{
    out[0] = (char)('a' + sq_file(sq));
    out[1] = (char)('1' + sq_rank(sq));
    out[2] = 0;
}

static int read_square(const char *s)
{
    if (s[0] < 'a' || s[0] > 'g' || s[1] < '1' || s[1] > '7')
        return -1;
    return (s[1] - '1') * 7 + (s[0] - 'a');
}

static int side_of_piece(int piece) { return piece == PIECE_ATT ? SIDE_ATT : SIDE_DEF; }

/* ---- refused moves ---- */

/* Two square names in form (letter, digit) of which one is not on the board. */
static bool why_off_board(const char *t, char *buf, size_t len)
{
    bool form = strlen(t) == 4;
    for (int i = 0; i < 4 && form; i += 2)
        form = t[i] >= 'a' && t[i] <= 'z' && t[i + 1] >= '0' && t[i + 1] <= '9';
    for (int i = 0; form && i < 4; i += 2)
        if (read_square(t + i) < 0) {
            SAY("%c%c is off the board: the squares run from a1 to g7", t[i], t[i + 1]);
            return true;
        }
    return false;
}

/* The start square: a piece of the side to move. */
static bool why_not_yours(const bdb_t *b, int from, int to, char *buf, size_t len)
{
    char f[3];
    square_name(from, f);
    int piece = piece_on(b, from);
    if (piece < 0)
        SAY("there is no piece on %s", f);
    else if (side_of_piece(piece) != b->stm)
        SAY("the %s on %s is not yours: the %s are to move", piece_name[piece], f, side_name[b->stm]);
    else if (to == from)
        SAY("a piece must move: %s is both its start and its end", f);
    else
        return false;
    return true;
}

/* The way: along a rank or file, over empty squares only. */
static bool why_no_way(const bdb_t *b, int from, int to, char *buf, size_t len)
{
    char f[3], t[3];
    square_name(from, f);
    square_name(to, t);
    if (sq_file(from) != sq_file(to) && sq_rank(from) != sq_rank(to)) {
        SAY("pieces move like rooks, along a rank or a file, and %s and %s share neither", f, t);
        return true;
    }
    if (occupied(b) & bb_bit(to)) {
        SAY("%s is taken: a piece never lands on another", t);
        return true;
    }
    int dir = sq_file(from) == sq_file(to) ? (to > from ? 0 : 1) : (to > from ? 2 : 3);
    for (int sq = step(from, dir); sq != to; sq = step(sq, dir))
        if (occupied(b) & bb_bit(sq)) {
            char s[3];
            square_name(sq, s);
            SAY("the way is blocked on %s: pieces cannot jump", s);
            return true;
        }
    return false;
}

/* The squares only the king may stop on, and version 2's closed throne. */
static bool why_not_there(const bdb_t *b, int from, int to, char *buf, size_t len)
{
    char t[3];
    square_name(to, t);
    bool king = b->king & bb_bit(from);
    if (!king && (CORNERS & bb_bit(to)))
        SAY("only the king may stop on a corner such as %s", t);
    else if (!king && to == SQ_THRONE)
        SAY("only the king may stop on the throne %s; other pieces may only pass over it while it is empty", t);
    else if (king && to == SQ_THRONE && throne_closed(b))
        SAY("in version 2 no piece may stop on the throne once the king has left it, the king included");
    else
        return false;
    return true;
}

void bdb_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len)
{
    const bdb_t *b = CP(pos);
    char lower[GAME_MOVE_TEXT_MAX];
    game_lower(text, lower, sizeof lower);
    int from = read_square(lower), to = from >= 0 ? read_square(lower + 2) : -1;
    if (why_off_board(lower, buf, len))
        return;
    if (strlen(lower) != 4 || from < 0 || to < 0) {
        SAY("it is not a move in Brandubh notation: a move is its start and end square, such as d2c2");
        return;
    }
    if (!why_not_yours(b, from, to, buf, len) && !why_no_way(b, from, to, buf, len) &&
        !why_not_there(b, from, to, buf, len))
        SAY("it is not one of the legal moves here");
}

/* ---- the end of the game ---- */

static void add_square(game_why_t *why, int sq)
{
    char name[3];
    square_name(sq, name);
    game_why_add(why, name);
}

/* The squares that closed on the king on k, the last move's piece landing
 * on `mover`: all around it by version 2's throne rule, else that piece
 * and the square beyond the king. */
static void add_captors(const bdb_t *before, int k, int mover, game_why_t *why)
{
    bool throne_rule = false;
    for (int d = 0; d < 4; d++)
        throne_rule |= step(k, d) == SQ_THRONE;
    throne_rule = before->version == 2 && (throne_rule || k == SQ_THRONE);
    for (int d = 0; d < 4; d++) {
        int n = step(k, d);
        if (throne_rule && n >= 0 && n != SQ_THRONE)
            add_square(why, n);
        if (!throne_rule && n == mover) {
            add_square(why, mover);
            add_square(why, step(k, d ^ 1)); /* the far side: an attacker or a corner */
        }
    }
}

/* "e4 and e6", "c4, e4, d3 and d5": why's cells from the second on. */
static void list_after_first(const game_why_t *why, char *out, size_t size)
{
    out[0] = 0;
    for (int i = 1; i < why->cells; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i == 1 ? "" : i + 1 == why->cells ? " and " : ", ",
                 why->cell[i]);
}

static void king_captured(const bdb_t *before, move_t last, game_why_t *why)
{
    if (!before || last == MOVE_NONE || !before->king) {
        snprintf(why->text, sizeof why->text, "The attackers captured the king.");
        return;
    }
    int k = bb_lsb(before->king);
    add_square(why, k);
    add_captors(before, k, move_to(last), why);
    char around[64];
    list_after_first(why, around, sizeof around);
    snprintf(why->text, sizeof why->text, "The attackers captured the king on %s%s%s.", why->cell[0],
             around[0] ? ", with " : "", around);
}

void bdb_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                        game_why_t *why)
{
    (void)g;
    const bdb_t *b = CP(pos);
    if (!b->king) {
        king_captured(before ? CP(before) : NULL, last, why);
        return;
    }
    if (b->king & CORNERS) {
        add_square(why, bb_lsb(b->king));
        snprintf(why->text, sizeof why->text, "The king reached the corner %s.", why->cell[0]);
        return;
    }
    /* No legal move: the side to move is blocked in. */
    for (bb64_t pcs = b->stm == SIDE_ATT ? b->att : b->def | b->king; pcs;)
        add_square(why, bb_pop(&pcs));
    snprintf(why->text, sizeof why->text, "The %s cannot move: drawn.", side_name[b->stm]);
}
