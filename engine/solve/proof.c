/*
 * proof.c: writing a proof (proof_write, solve.h) in the format of
 * PROTOCOL.md, "Proofs", which engine/reference/check.c reads.
 *
 * The proof is built in memory, depth first, from what the table knows:
 * for the side the claim favours one move per position, for the other
 * every legal move. A position written once is referred to after that
 * ("= line") instead of being written again, so that a proof is no larger
 * than the part of the game graph it needs. What the table no longer holds
 * (replaced, or a disproof that held only on the line it was found on) is
 * searched again from the position, with the line above it counted for
 * repetition. A choice that leads nowhere (a line that would return to a
 * position of its own, in a proof of a win) is taken back and another
 * tried.
 *
 * Proofs of a win avoid every repetition, counted as the rules count it
 * (game_t.hash); proofs of no win count repetition by the whole state
 * (the table's key), which is what a reference must match: the two differ
 * only where a game's table key holds more than its repetition key (Brax,
 * one man against one).
 *
 * Reaches the game through game_t only; the table and the search through
 * dfpn_ctx.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "dfpn_ctx.h"

#include <stdlib.h>
#include <string.h>

/* The most moves a proof may hold. */
#define PROOF_MAX_LINES 200000000u

typedef struct pnode {
    uint64_t key;   /* the whole state (table key without salts) */
    move_t move;    /* the move into it */
    uint32_t ref;   /* a reference: the index of the node it names; else 0 */
    uint32_t star;  /* a "*" line: 1 + where its answers' text starts in stars; else 0 */
    int16_t depth;
    uint16_t height; /* the longest line below, in plies (proofs of a win) */
    /* The shallowest depth of the line a draw by repetition below rests on
     * (SOLVE_MAX_PLY: none): a node resting on none above itself may be
     * referred to from any line. */
    int16_t low;
    bool closed;
    bool linkable;  /* a proof of a win may refer to it (state == repetition key) */
} pnode_t;

/* One move of the node being written, with its child's value. */
typedef struct wkid {
    dfpn_child_t k;
    uint64_t state;     /* the child's whole state */
    bool linkable;
    bool over;          /* the game ends there on the board (or by having no move) */
    bool over_won;      /* ... with P's win */
    /* A third occurrence (a draw), and the shallowest depth of the line it
     * counts (SOLVE_MAX_PLY: it counts the game before the root only). */
    bool third;
    int16_t third_low;
} wkid_t;

typedef struct writer {
    solver_t *s;
    const game_t *g;
    const solve_request_t *req;
    bool win; /* the claim: P wins (else: P cannot) */
    int side;
    dfpn_ctx_t *probe; /* stands on the writer's line: child values, repetition */
    dfpn_ctx_t *again; /* searches positions again */
    pnode_t *nodes;
    uint32_t n, cap;
    uint32_t *map; /* node index + 1 by state key */
    uint32_t map_size, map_used;
    wkid_t *kids[SOLVE_MAX_PLY + 1];
    uint64_t hline[SOLVE_MAX_PLY + 1]; /* repetition keys (game_t.hash) of the line */
    char *stars;  /* the answers of the "*" lines, NUL-separated */
    size_t stars_len, stars_cap;
    proof_stats_t *stats;
    char *err;
    size_t errlen;
    bool failed; /* for good: out of memory, a budget, too large */
} writer_t;

static bool fail(writer_t *w, const char *msg)
{
    snprintf(w->err, w->errlen, "%s", msg);
    w->failed = true;
    return false;
}

static uint64_t state_key(const game_t *g, const position_t *pos)
{
    return g->tt_key ? g->tt_key(pos) : g->hash(pos);
}

/* ---- the map of written positions ---- */

static uint32_t *map_slot(writer_t *w, uint64_t key)
{
    uint32_t mask = w->map_size - 1, i = (uint32_t)(key ^ key >> 32) & mask;
    for (;; i = (i + 1) & mask) {
        uint32_t x = w->map[i];
        if (!x || (x - 1 < w->n && w->nodes[x - 1].key == key && !w->nodes[x - 1].ref))
            return &w->map[i];
    }
}

static bool map_grow(writer_t *w)
{
    uint32_t size = w->map_size ? w->map_size * 2 : 1u << 16;
    uint32_t *m = calloc(size, sizeof *m);
    if (!m)
        return false;
    free(w->map);
    w->map = m;
    w->map_size = size;
    w->map_used = 0;
    for (uint32_t i = 0; i < w->n; i++)
        if (!w->nodes[i].ref) {
            *map_slot(w, w->nodes[i].key) = i + 1;
            w->map_used++;
        }
    return true;
}

/* The written node of this state, or -1. */
static int64_t map_find(writer_t *w, uint64_t key)
{
    uint32_t x = *map_slot(w, key);
    return x ? (int64_t)x - 1 : -1;
}

static bool add_node(writer_t *w, uint64_t key, move_t move, uint32_t ref, int depth, bool linkable)
{
    if (w->n >= PROOF_MAX_LINES)
        return fail(w, "the proof would be longer than 200,000,000 lines");
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 4096;
        pnode_t *p = realloc(w->nodes, sizeof *p * cap);
        if (!p)
            return fail(w, "out of memory for the proof");
        w->nodes = p;
        w->cap = cap;
    }
    w->nodes[w->n++] = (pnode_t){key, move, ref, 0, (int16_t)depth, 0, SOLVE_MAX_PLY, ref != 0, linkable};
    if (ref)
        return true;
    if ((w->map_used + 1) * 2 > w->map_size && !map_grow(w))
        return fail(w, "out of memory for the proof");
    uint32_t *slot = map_slot(w, key);
    if (!*slot)
        w->map_used++;
    *slot = w->n;
    return true;
}

/* ---- children ---- */

static bool side_wins(const writer_t *w, outcome_t o)
{
    return o.kind == OUTCOME_WIN && w->g->team_of[player_first(o.players)] == w->side;
}

/* Values every move of the position the writer stands on (at depth). */
static int children(writer_t *w, int depth, wkid_t **out)
{
    const game_t *g = w->g;
    dfpn_ctx_t *c = w->probe;
    if (!w->kids[depth] && !(w->kids[depth] = malloc(sizeof(wkid_t) * MAX_MOVES)))
        return -1;
    wkid_t *kids = w->kids[depth];
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(&c->pos, moves);
    for (int i = 0; i < n; i++) {
        wkid_t *k = &kids[i];
        undo_t u;
        g->make(&c->pos, moves[i], &u);
        dfpn_child_value(c, depth + 1, &k->k);
        k->k.move = moves[i];
        k->state = state_key(g, &c->pos);
        k->linkable = !g->tt_key || g->tt_key(&c->pos) == g->hash(&c->pos);
        outcome_t o;
        k->over = g->decided(&c->pos, &o);
        k->over_won = k->over && side_wins(w, o);
        if (!k->over && g->count_moves(&c->pos) == 0) {
            k->over = true;
            k->over_won = side_wins(w, g->outcome(&c->pos));
        }
        /* Repetition as the rules count it: the game before the root, then
         * the line, latest first. */
        k->third = false;
        k->third_low = SOLVE_MAX_PLY;
        if (g->repetition_draw && !k->over) {
            uint64_t h = g->hash(&c->pos);
            int count = 1 + dfpn_history_count(c, h);
            for (int d = depth; d >= 0 && count < 3; d--)
                if (w->hline[d] == h) {
                    count++;
                    k->third_low = (int16_t)d;
                }
            k->third = count >= 3;
        }
        g->unmake(&c->pos, moves[i], &u);
    }
    *out = kids;
    return n;
}

/* Does the child settle the claim where it stands: is it P's win (a proof
 * of a win), or no win for P (a proof of none)? */
static bool settled(const writer_t *w, const dfpn_child_t *k)
{
    return w->win ? k->pn == 0 : k->dn == 0;
}

/* Searches the child (made on the probe's line) again, with the line above
 * it; true when that settles it the claim's way. */
static bool search_again(writer_t *w, int depth, dfpn_child_t *k)
{
    dfpn_ctx_t *p = w->probe;
    solve_request_t r = *w->req;
    r.root = p->pos;
    r.plies = w->req->plies ? w->req->plies - depth : 0;
    r.progress = NULL;
    r.side = w->side;
    if (r.plies < 0 || !dfpn_ctx_setup(w->again, w->s, &r, p, p->base + depth, !w->win, 1))
        return false;
    atomic_store(&w->s->finished, false);
    atomic_store(&w->s->nodes, 0);
    solve_result_t res = dfpn_search(w->again);
    w->stats->resolved++;
    if (atomic_load(&w->s->stop))
        return fail(w, "stopped");
    if (res.status == SOLVE_OPEN && (r.nodes || r.ms))
        return fail(w, "a position could not be searched again within the budget");
    k->pn = res.pn;
    k->dn = res.dn;
    k->dist = (uint16_t)res.dist;
    return settled(w, k);
}

/* Is the child the probe stands on settled without a search: its side to
 * move, the side the claim favours, ends the game at once its way? (Most
 * of the positions a proof needs that the table never held are such: the
 * loser's moves that leave a threat unanswered.) */
static bool settles_at_once(writer_t *w, dfpn_child_t *k)
{
    const game_t *g = w->g;
    position_t *pos = &w->probe->pos;
    if ((g->team_of[g->to_move(pos)] == w->side) != w->win)
        return false;
    move_t moves[MAX_MOVES];
    int n = g->gen_noisy ? g->gen_noisy(pos, moves) : g->gen_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        undo_t u;
        outcome_t o;
        g->make(pos, moves[i], &u);
        bool ends = g->decided(pos, &o) && side_wins(w, o) == w->win;
        g->unmake(pos, moves[i], &u);
        if (ends) {
            k->pn = w->win ? 0 : DFPN_INF;
            k->dn = w->win ? DFPN_INF : 0;
            k->dist = 1;
            return true;
        }
    }
    return false;
}

/* Is word one of the space-separated words of list? */
static bool listed(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

/* Can a "*" line stand for the losing side's move into kid: does the
 * other side then end the game the claim's way at once? Adds the answer's
 * text to `answers` (space-separated, each once). In a proof of a win the
 * position between must be new to the game before the root (check.c). */
static bool answered_at_once(writer_t *w, int depth, const wkid_t *kid, char *answers, size_t len)
{
    const game_t *g = w->g;
    dfpn_ctx_t *c = w->probe;
    if (kid->over || kid->third || (w->req->plies && depth + 2 > w->req->plies))
        return false;
    undo_t u;
    g->make(&c->pos, kid->k.move, &u);
    bool ok = false;
    if (!w->win || dfpn_history_count(c, g->hash(&c->pos)) == 0) {
        move_t moves[MAX_MOVES];
        int n = g->gen_noisy ? g->gen_noisy(&c->pos, moves) : g->gen_moves(&c->pos, moves);
        for (int i = 0; i < n && !ok; i++) {
            undo_t v;
            outcome_t o;
            char text[GAME_MOVE_TEXT_MAX];
            g->move_text(&c->pos, moves[i], text, sizeof text);
            g->make(&c->pos, moves[i], &v);
            ok = g->decided(&c->pos, &o) && side_wins(w, o) == w->win;
            g->unmake(&c->pos, moves[i], &v);
            if (ok && !listed(answers, text)) {
                size_t have = strlen(answers);
                ok = have + strlen(text) + 2 <= len;
                if (ok)
                    snprintf(answers + have, len - have, "%s%s", have ? " " : "", text);
            }
        }
    }
    g->unmake(&c->pos, kid->k.move, &u);
    return ok;
}

/* ---- writing ---- */

static bool write_node(writer_t *w, int depth);

/* Writes the move into kid and what follows; false (and nothing written)
 * when it leads nowhere. */
static bool write_child(writer_t *w, int depth, wkid_t *kid)
{
    const game_t *g = w->g;
    dfpn_ctx_t *c = w->probe;
    int remaining = w->req->plies ? w->req->plies - depth - 1 : SOLVE_MAX_PLY;
    if ((kid->over && kid->over_won != w->win) || (kid->third && w->win))
        return false;
    /* A proof of a win writes a position once (where repetition is by the
     * whole state); a proof of none refers where it can. */
    int64_t t = w->win && !kid->linkable ? -1 : map_find(w, kid->state);
    if (t >= 0) {
        pnode_t *target = &w->nodes[t];
        bool ok = w->win ? target->closed && target->linkable && target->height <= remaining
                         : (!target->closed || target->low >= target->depth) &&
                               (!w->req->plies || remaining <= w->req->plies - target->depth);
        if (ok)
            return add_node(w, kid->state, kid->k.move, (uint32_t)t + 1, depth + 1, kid->linkable);
        if (w->win)
            return false;
    }
    if (kid->over || kid->third) { /* the end of the game: a leaf */
        if (!add_node(w, kid->state, kid->k.move, 0, depth + 1, kid->linkable))
            return false;
        w->nodes[w->n - 1].low = kid->third ? kid->third_low : SOLVE_MAX_PLY;
        w->nodes[w->n - 1].closed = true;
        return true;
    }
    if (!w->win && w->req->plies && remaining == 0)
        return add_node(w, kid->state, kid->k.move, 0, depth + 1, kid->linkable);
    if (depth + 1 >= SOLVE_MAX_PLY)
        return false;
    uint32_t mark = w->n;
    undo_t u;
    g->make(&c->pos, kid->k.move, &u);
    w->hline[depth + 1] = g->hash(&c->pos);
    dfpn_line_push(c, depth + 1);
    bool ok = settled(w, &kid->k) || (remaining > 0 && settles_at_once(w, &kid->k)) ||
              search_again(w, depth + 1, &kid->k);
    ok = ok && add_node(w, kid->state, kid->k.move, 0, depth + 1, kid->linkable) && write_node(w, depth + 1);
    dfpn_line_pop(c, depth + 1);
    g->unmake(&c->pos, kid->k.move, &u);
    if (!ok)
        w->n = mark;
    return ok;
}

/* The order a winner's moves are tried in: what settles at once, then by
 * fewest plies (proofs of a win) or table order, the rest last. */
static int try_rank(const writer_t *w, const wkid_t *k)
{
    if (k->over)
        return k->over_won == w->win ? 0 : 4;
    if (settled(w, &k->k))
        return 1;
    return (w->win ? k->k.dn == 0 : k->k.pn == 0) ? 4 : 2;
}

static bool write_node(writer_t *w, int depth)
{
    const game_t *g = w->g;
    dfpn_ctx_t *c = w->probe;
    uint32_t self = w->n - 1;
    wkid_t *kids;
    int n = children(w, depth, &kids);
    if (n < 0)
        return fail(w, "out of memory for the proof");
    bool p_moves = g->team_of[g->to_move(&c->pos)] == w->side;
    int height = 0, low = SOLVE_MAX_PLY;
    if (p_moves == w->win) { /* one move, the claim's side */
        bool done = false;
        for (int rank = 0; rank < 4 && !done && !w->failed; rank++) {
            /* Proofs of a win: among the settled moves, fewest plies first. */
            for (;;) {
                int pick = -1;
                for (int i = 0; i < n; i++)
                    if (try_rank(w, &kids[i]) == rank && kids[i].k.move != MOVE_NONE &&
                        (pick < 0 || (w->win && kids[i].k.dist < kids[pick].k.dist)))
                        pick = i;
                if (pick < 0)
                    break;
                uint32_t at = w->n;
                if (write_child(w, depth, &kids[pick])) {
                    pnode_t *ch = &w->nodes[at];
                    height = 1 + (ch->ref ? w->nodes[ch->ref - 1].height : ch->height);
                    low = ch->ref ? SOLVE_MAX_PLY : ch->low;
                    done = true;
                    break;
                }
                if (w->failed)
                    return false;
                kids[pick].k.move = MOVE_NONE; /* tried */
            }
        }
        if (!done)
            return false;
    } else { /* every move; those answered at once by a "*" line */
        char answers[GAME_MOVE_TEXT_MAX * 8] = "";
        int covered = 0;
        for (int i = 0; i < n; i++) {
            uint32_t at = w->n;
            if (answered_at_once(w, depth, &kids[i], answers, sizeof answers)) {
                covered++;
                continue;
            }
            if (!write_child(w, depth, &kids[i]))
                return false;
            pnode_t *ch = &w->nodes[at];
            int h = 1 + (ch->ref ? w->nodes[ch->ref - 1].height : ch->height);
            if (h > height)
                height = h;
            if (!ch->ref && ch->low < low)
                low = ch->low;
        }
        if (n == 0 && !w->win)
            height = 0;
        if (covered) {
            size_t len = strlen(answers) + 1;
            if (w->stars_len + len > w->stars_cap) {
                size_t cap = 2 * (w->stars_cap + len) + 4096;
                char *p = realloc(w->stars, cap);
                if (!p)
                    return fail(w, "out of memory for the proof");
                w->stars = p;
                w->stars_cap = cap;
            }
            memcpy(w->stars + w->stars_len, answers, len);
            if (!add_node(w, 0, MOVE_NONE, 0, depth + 1, false))
                return false;
            w->nodes[w->n - 1].star = (uint32_t)w->stars_len + 1;
            w->nodes[w->n - 1].closed = true;
            w->stars_len += len;
            if (height < 2)
                height = 2;
        }
    }
    w->nodes[self].height = (uint16_t)(height > UINT16_MAX ? UINT16_MAX : height);
    w->nodes[self].low = (int16_t)low;
    w->nodes[self].closed = true;
    return true;
}

/* The proof's figures, as the checker counts them: moves written (a
 * reference is a move), "*" lines apart; the first move. */
static void proof_count(writer_t *w)
{
    w->stats->moves = w->stats->stars = 0;
    w->stats->first = MOVE_NONE;
    for (uint32_t i = 1; i < w->n; i++) {
        if (w->nodes[i].star)
            w->stats->stars++;
        else
            w->stats->moves++;
    }
    if (w->n > 1 && w->nodes[1].depth == 1 && !w->nodes[1].star &&
        (w->g->team_of[w->g->to_move(&w->req->root)] == w->side) == w->win)
        w->stats->first = w->nodes[1].move;
    w->stats->height = w->nodes[0].height;
}

static void print_proof(writer_t *w, const proof_header_t *h, FILE *out)
{
    const game_t *g = w->g;
    proof_count(w);
    uint64_t moves = w->stats->moves, stars = w->stats->stars;
    fprintf(out, "denham-proof 1\n# %llu move%s", (unsigned long long)moves, moves == 1 ? "" : "s");
    if (stars)
        fprintf(out, " and %llu '*' line%s", (unsigned long long)stars, stars == 1 ? "" : "s");
    fprintf(out, "; the longest line %d pl%s\n", w->nodes[0].height, w->nodes[0].height == 1 ? "y" : "ies");
    fprintf(out, "variant %s\nposition %s\nclaim %s %s", g->name, h->position, w->win ? "win" : "no-win",
            g->player_names[w->side]);
    if (w->req->plies)
        fprintf(out, " within %d plies", w->req->plies);
    fputc('\n', out);
    /* Line numbers: the claim is line 5, the moves follow. */
    position_t stack[SOLVE_MAX_PLY + 1];
    stack[0] = w->req->root;
    for (uint32_t i = 1; i < w->n; i++) {
        pnode_t *p = &w->nodes[i];
        char mv[GAME_MOVE_TEXT_MAX];
        if (p->star) {
            fprintf(out, "%d * %s\n", p->depth, w->stars + p->star - 1);
            continue;
        }
        g->move_text(&stack[p->depth - 1], p->move, mv, sizeof mv);
        if (p->ref)
            fprintf(out, "%d %s = %u\n", p->depth, mv, p->ref - 1 + 5);
        else
            fprintf(out, "%d %s\n", p->depth, mv);
        if (!p->ref && i + 1 < w->n && w->nodes[i + 1].depth > p->depth) {
            undo_t u;
            stack[p->depth] = stack[p->depth - 1];
            g->make(&stack[p->depth], p->move, &u);
        }
    }
    fprintf(out, "end\n");
}

bool proof_write(solver_t *s, const solve_request_t *req, solve_status_t claim, const proof_header_t *h,
                 FILE *out, proof_stats_t *stats, char *err, size_t errlen)
{
    proof_stats_t unused;
    stats = stats ? stats : &unused;
    *stats = (proof_stats_t){0};
    writer_t w = {.s = s, .g = req->game, .req = req, .win = claim == SOLVE_PROVEN, .side = req->side,
                  .stats = stats, .err = err, .errlen = errlen};
    w.probe = calloc(1, sizeof *w.probe);
    w.again = calloc(1, sizeof *w.again);
    bool ok = w.probe && w.again && dfpn_ctx_setup(w.probe, s, req, NULL, 0, !w.win, 0);
    if (!ok)
        fail(&w, "out of memory for the proof");
    int threads = s->threads;
    s->threads = 1; /* the searches again run on this thread */
    if (ok) {
        w.hline[0] = req->game->hash(&req->root);
        ok = add_node(&w, state_key(req->game, &req->root), MOVE_NONE, 0, 0, true) && write_node(&w, 0);
        if (!ok && !w.failed)
            snprintf(err, errlen, "no proof found in the table for this claim");
    }
    s->threads = threads;
    if (ok)
        print_proof(&w, h, out);
    for (int i = 0; i <= SOLVE_MAX_PLY; i++)
        free(w.kids[i]);
    if (w.probe)
        dfpn_ctx_release(w.probe);
    if (w.again)
        dfpn_ctx_release(w.again);
    free(w.probe);
    free(w.again);
    free(w.nodes);
    free(w.map);
    free(w.stars);
    return ok;
}
