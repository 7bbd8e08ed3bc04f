/* long_game.c: a walk through the reversible positions of a game, for the
 * tests and the long-game benchmark; reaches the game through game_t and
 * the record only. */
#include "long_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/record.h"
#include "../../engine/core/rng.h"
#include "../../engine/core/textbuf.h"

/* A quiet move to a position seen least often so far (and at most once),
 * after which the game goes on; MOVE_NONE if there is none. */
static move_t least_visited_move(const record_t *r, rng_t *rng)
{
    const game_t *g = r->game;
    move_t moves[MAX_MOVES], best[MAX_MOVES];
    int n = record_legal_moves(r, moves), n_best = 0, best_count = 2;
    for (int i = 0; i < n; i++) {
        if (moves[i] & MOVE_IRREVERSIBLE)
            continue;
        position_t next = r->pos;
        undo_t u;
        g->make(&next, moves[i], &u);
        move_t replies[MAX_MOVES];
        if (g->gen_moves(&next, replies) == 0)
            continue;
        int count = record_count(r, g->hash(&next));
        if (count < best_count) {
            best_count = count;
            n_best = 0;
        }
        if (count == best_count)
            best[n_best++] = moves[i];
    }
    return n_best ? best[rng_below(rng, (uint32_t)n_best)] : MOVE_NONE;
}

char *long_game_text(const game_t *g, const char *fen, int plies, uint64_t seed, char *final_fen, size_t len)
{
    record_t r = {0};
    textbuf_t t = {0};
    char err[200];
    char head[GAME_FEN_MAX + 16];
    snprintf(head, sizeof head, "fen %s", fen);
    rng_t rng = {seed};
    bool ok = record_setup(&r, g, head, err, sizeof err) && textbuf_add(&t, head) && textbuf_add(&t, " moves");
    for (int i = 0; ok && i < plies; i++) {
        move_t m = least_visited_move(&r, &rng);
        char mv[GAME_MOVE_TEXT_MAX + 1] = " ";
        ok = m != MOVE_NONE;
        if (ok)
            g->move_text(&r.pos, m, mv + 1, sizeof mv - 1);
        ok = ok && textbuf_add(&t, mv) && record_play(&r, m);
    }
    if (ok)
        g->write_fen(&r.pos, final_fen, len);
    record_free(&r);
    if (!ok)
        textbuf_free(&t);
    return ok ? t.s : NULL;
}
