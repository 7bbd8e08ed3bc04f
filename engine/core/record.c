/*
 * record.c: game records and repetition.
 * Reaches a game through game_t only; includes nothing above engine/core/.
 */
#include "record.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_FIRST_CAPACITY 256
#define REP_FIRST_SIZE 256

static bool record_reserve(record_t *r, int plies)
{
    if (plies <= r->capacity)
        return true;
    if (plies > RECORD_MAX_PLIES)
        return false;
    int cap = r->capacity ? r->capacity : RECORD_FIRST_CAPACITY;
    while (cap < plies)
        cap = cap > RECORD_MAX_PLIES / 2 ? RECORD_MAX_PLIES : cap * 2;
    move_t *moves = realloc(r->moves, (size_t)cap * sizeof *moves);
    if (moves)
        r->moves = moves;
    uint64_t *hashes = realloc(r->hashes, ((size_t)cap + 1) * sizeof *hashes);
    if (hashes)
        r->hashes = hashes;
    if (!moves || !hashes)
        return false;
    r->capacity = cap;
    return true;
}

/* The slot of key in the current generation, or the free slot it belongs in. */
static rep_slot_t *rep_find(const record_t *r, uint64_t key)
{
    size_t mask = (size_t)r->rep_size - 1;
    for (size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 32) & mask;; i = (i + 1) & mask) {
        rep_slot_t *s = &r->rep[i];
        if (s->generation != r->generation || s->key == key)
            return s;
    }
}

static void rep_new_generation(record_t *r)
{
    r->rep_used = 0;
    if (++r->generation == 0) { /* after 2^32 generations: really clear */
        if (r->rep)
            memset(r->rep, 0, (size_t)r->rep_size * sizeof *r->rep);
        r->generation = 1;
    }
}

/* Empties r's table and fills it with the slots of `from` in use in
 * generation from_gen (a table being grown, or another record's). */
static void rep_refill(record_t *r, const rep_slot_t *from, int from_size, uint32_t from_gen)
{
    memset(r->rep, 0, (size_t)r->rep_size * sizeof *r->rep);
    r->generation = 1;
    r->rep_used = 0;
    for (int i = 0; i < from_size; i++)
        if (from[i].generation == from_gen) {
            *rep_find(r, from[i].key) = (rep_slot_t){from[i].key, from[i].count, 1};
            r->rep_used++;
        }
}

/* Counts one more occurrence of key; false when out of memory. */
static bool rep_add(record_t *r, uint64_t key)
{
    if (2 * (r->rep_used + 1) > r->rep_size) { /* keep the table half empty */
        int size = r->rep_size ? 2 * r->rep_size : REP_FIRST_SIZE;
        rep_slot_t *grown = calloc((size_t)size, sizeof *grown);
        if (!grown)
            return false;
        rep_slot_t *old = r->rep;
        int old_size = r->rep_size;
        r->rep = grown;
        r->rep_size = size;
        rep_refill(r, old, old_size, r->generation);
        free(old);
    }
    rep_slot_t *s = rep_find(r, key);
    if (s->generation != r->generation) {
        *s = (rep_slot_t){key, 0, r->generation};
        r->rep_used++;
    }
    s->count++;
    return true;
}

bool record_init(record_t *r, const game_t *g, const position_t *start)
{
    r->game = g;
    r->start = *start;
    r->pos = *start;
    r->plies = 0;
    r->reversible_from = 0;
    r->forfeit_by = -1;
    rep_new_generation(r);
    if (!record_reserve(r, RECORD_FIRST_CAPACITY)) {
        record_free(r);
        return false;
    }
    r->hashes[0] = g->hash(start);
    if (!rep_add(r, r->hashes[0])) {
        record_free(r);
        return false;
    }
    return true;
}

void record_free(record_t *r)
{
    free(r->moves);
    free(r->hashes);
    free(r->rep);
    r->moves = NULL;
    r->hashes = NULL;
    r->rep = NULL;
    r->capacity = r->rep_size = r->rep_used = 0;
    r->plies = 0;
}

bool record_copy(record_t *dst, const record_t *src)
{
    if (!record_reserve(dst, src->plies > 0 ? src->plies : 1))
        return false;
    if (dst->rep_size < src->rep_size) {
        rep_slot_t *rep = calloc((size_t)src->rep_size, sizeof *rep);
        if (!rep)
            return false;
        free(dst->rep);
        dst->rep = rep;
    }
    move_t *moves = dst->moves;
    uint64_t *hashes = dst->hashes;
    rep_slot_t *rep = dst->rep;
    int capacity = dst->capacity, rep_size = dst->rep_size > src->rep_size ? dst->rep_size : src->rep_size;
    *dst = *src;
    dst->moves = moves;
    dst->hashes = hashes;
    dst->rep = rep;
    dst->capacity = capacity;
    memcpy(moves, src->moves, (size_t)src->plies * sizeof *moves);
    memcpy(hashes, src->hashes, ((size_t)src->plies + 1) * sizeof *hashes);
    /* The table is rebuilt for dst's size (it may be larger than src's). */
    dst->rep_size = rep_size;
    rep_refill(dst, src->rep, src->rep_size, src->generation);
    return true;
}

void record_swap(record_t *a, record_t *b)
{
    record_t t = *a;
    *a = *b;
    *b = t;
}

bool record_play(record_t *r, move_t move)
{
    assert(r->forfeit_by < 0);
    if (!record_reserve(r, r->plies + 1))
        return false;
    undo_t undo;
    position_t before = r->pos;
    r->game->make(&r->pos, move, &undo);
    uint64_t key = r->game->hash(&r->pos);
    if (move & MOVE_IRREVERSIBLE)
        rep_new_generation(r);
    if (!rep_add(r, key)) {
        r->pos = before;
        return false;
    }
    r->moves[r->plies++] = move;
    r->hashes[r->plies] = key;
    if (move & MOVE_IRREVERSIBLE)
        r->reversible_from = r->plies;
    return true;
}

int record_recent_keys(const record_t *r, uint64_t *keys, int max)
{
    int from = r->plies - r->reversible_from > max ? r->plies - max : r->reversible_from;
    memcpy(keys, &r->hashes[from], (size_t)(r->plies - from) * sizeof *keys);
    return r->plies - from;
}

int record_count(const record_t *r, uint64_t key)
{
    const rep_slot_t *s = rep_find(r, key);
    return s->generation == r->generation ? (int)s->count : 0;
}

int record_occurrences(const record_t *r)
{
    return record_count(r, r->hashes[r->plies]);
}

outcome_t record_outcome(const record_t *r)
{
    const game_t *g = r->game;
    if (r->forfeit_by >= 0) {
        player_mask_t others = game_players_in(g, &r->pos) & ~player_bit(r->forfeit_by);
        if (game_teams(g) > 2)
            return (outcome_t){OUTCOME_DRAW, others, "illegal move"};
        player_mask_t winners = 0;
        for (int p = 0; p < g->players; p++)
            if (g->team_of[p] != g->team_of[r->forfeit_by])
                winners |= player_bit(p);
        return (outcome_t){OUTCOME_WIN, winners, "illegal move"};
    }
    move_t moves[MAX_MOVES];
    if (g->gen_moves(&r->pos, moves) == 0)
        return g->outcome(&r->pos);
    if (g->repetition_draw && record_occurrences(r) >= 3)
        return (outcome_t){OUTCOME_DRAW, game_players_in(g, &r->pos), "threefold repetition"};
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

int record_legal_moves(const record_t *r, move_t *moves)
{
    if (record_outcome(r).kind != OUTCOME_NONE)
        return 0;
    return r->game->gen_moves(&r->pos, moves);
}

static bool setup_fail(char *err, size_t len, const char *what, const char *arg)
{
    snprintf(err, len, what, arg);
    return false;
}

/* Splits "fen <fen...> [moves ...]" at the word "moves". */
static const char *find_moves_word(const char *s)
{
    for (const char *p = s; (p = strstr(p, "moves")) != NULL; p += 5) {
        bool starts = p == s || p[-1] == ' ' || p[-1] == '\t';
        bool ends = p[5] == 0 || p[5] == ' ' || p[5] == '\t' || p[5] == '\n' || p[5] == '\r';
        if (starts && ends)
            return p;
    }
    return NULL;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    return s;
}

bool record_setup(record_t *r, const game_t *g, const char *text, char *err, size_t errlen)
{
    /* A forfeit left from an earlier use of r must not make a failure
     * below look like a usable record (a refused FEN would bring back a
     * stale game, perhaps of another variant). */
    r->forfeit_by = -1;
    position_t pos;
    const char *s = skip_space(text);
    const char *moves = find_moves_word(s);
    const char *rest;
    if (strncmp(s, "startpos", 8) == 0 && (s[8] == 0 || s[8] == ' ' || s[8] == '\t' || s[8] == '\n')) {
        g->set_start(&pos);
        rest = skip_space(s + 8);
    } else if (strncmp(s, "fen", 3) == 0 && (s[3] == ' ' || s[3] == '\t')) {
        /* The FEN is everything up to "moves", with its spacing normalised. */
        char fen[GAME_FEN_MAX * 2];
        size_t n = 0;
        const char *end = moves ? moves : s + strlen(s);
        bool space = false;
        for (const char *c = skip_space(s + 3); c < end; c++) {
            bool is_space = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
            if (is_space) {
                space = n > 0;
                continue;
            }
            if (n + 2 >= sizeof fen) /* refused, never cut short */
                return setup_fail(err, errlen, "%s", "the FEN is too long");
            if (space)
                fen[n++] = ' ';
            space = false;
            fen[n++] = *c;
        }
        fen[n] = 0;
        char why[160];
        /* Runners whose opening is "startpos" send "position fen startpos". */
        if (strcmp(fen, "startpos") == 0)
            g->set_start(&pos);
        else if (!g->parse_fen(&pos, fen, why, sizeof why)) {
            snprintf(err, errlen, "bad FEN '%s': %s", fen, why);
            return false;
        }
        rest = end;
    } else {
        return setup_fail(err, errlen, "%s", "usage: position startpos|fen <fen> [moves <move>...]");
    }
    if (!record_init(r, g, &pos))
        return setup_fail(err, errlen, "%s", "out of memory");
    rest = skip_space(rest);
    if (!*rest)
        return true;
    if (rest != moves) {
        char word[64];
        sscanf(rest, "%63s", word);
        return setup_fail(err, errlen, "expected 'moves', got '%s'", word);
    }
    return record_append(r, rest + 5, err, errlen);
}

bool record_append(record_t *r, const char *text, char *err, size_t errlen)
{
    const game_t *g = r->game;
    for (const char *c = skip_space(text); *c; c = skip_space(c)) {
        char word[64];
        size_t n = 0;
        while (c[n] && c[n] != ' ' && c[n] != '\t' && c[n] != '\n' && c[n] != '\r')
            n++;
        snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), c);
        c += n;
        /* A second "moves" continues the list (a runner appending the game
         * to an opening line that had its own). */
        if (strcmp(word, "moves") == 0)
            continue;
        move_t legal[MAX_MOVES];
        if (record_legal_moves(r, legal) == 0)
            return setup_fail(err, errlen, "move '%s': the game is already over", word);
        move_t m = g->parse_move(&r->pos, word);
        if (m == MOVE_NONE && game_at_chance(g, &r->pos)) {
            /* A bad face of the die is the roller's error, not a player's:
             * nothing is forfeited, and the message says so. */
            char rolls[160] = "";
            size_t used = 0;
            for (int i = 0, count = record_legal_moves(r, legal); i < count && used < sizeof rolls; i++) {
                char face[GAME_MOVE_TEXT_MAX];
                g->move_text(&r->pos, legal[i], face, sizeof face);
                used += (size_t)snprintf(rolls + used, sizeof rolls - used, "%s%s", i ? " " : "", face);
            }
            snprintf(err, errlen, "'%s' is not a roll of the die here (the rolls: %s)", word, rolls);
            return false;
        }
        if (m == MOVE_NONE) {
            /* The player to move loses (PROTOCOL.md): a runner that never
             * checks moves must still see the game end. */
            r->forfeit_by = g->to_move(&r->pos);
            game_illegal_message(g, &r->pos, word, err, errlen);
            return false;
        }
        if (!record_play(r, m))
            return setup_fail(err, errlen, "%s", r->plies >= RECORD_MAX_PLIES ? "too many moves" : "out of memory");
    }
    return true;
}

void record_moves_text(const record_t *r, char *buf, size_t len)
{
    size_t n = strlen(buf);
    position_t pos = r->start;
    n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " moves");
    for (int i = 0; i < r->plies && n < len; i++) {
        char mv[GAME_MOVE_TEXT_MAX];
        undo_t u;
        r->game->move_text(&pos, r->moves[i], mv, sizeof mv);
        r->game->make(&pos, r->moves[i], &u);
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " %s", mv);
    }
}

/* The position before the last move, and that move; false when the record
 * has no move. */
static bool before_last(const record_t *r, position_t *before, move_t *last)
{
    if (r->plies == 0)
        return false;
    *before = r->start;
    for (int i = 0; i + 1 < r->plies; i++) {
        undo_t u;
        r->game->make(before, r->moves[i], &u);
    }
    *last = r->moves[r->plies - 1];
    return true;
}

/* A forfeit: the offender, and in free-for-all games the draw. */
static void explain_forfeit(const record_t *r, game_why_t *why)
{
    snprintf(why->text, sizeof why->text, "An illegal move by %s ended the game%s.",
             r->game->player_names[r->forfeit_by],
             game_teams(r->game) > 2 ? ": the others share the draw" : "");
}

void record_explain(const record_t *r, game_why_t *why)
{
    const game_t *g = r->game;
    memset(why, 0, sizeof *why);
    move_t moves[MAX_MOVES];
    if (r->forfeit_by >= 0) {
        explain_forfeit(r, why);
    } else if (g->gen_moves(&r->pos, moves) > 0) {
        snprintf(why->text, sizeof why->text, "%s", record_outcome(r).kind == OUTCOME_NONE
                                                         ? ""
                                                         : "The same position occurred for the third time: drawn.");
    } else if (g->explain_result) {
        position_t before;
        move_t last = MOVE_NONE;
        bool known = before_last(r, &before, &last);
        g->explain_result(g, &r->pos, known ? &before : NULL, last, why);
    } else {
        outcome_t o = g->outcome(&r->pos);
        snprintf(why->text, sizeof why->text, "%s.", o.reason ? o.reason : "The game is over");
        why->text[0] = (char)toupper((unsigned char)why->text[0]);
    }
}
