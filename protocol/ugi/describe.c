/*
 * describe.c: the descriptions a GUI reads (`layout`, `state`,
 * `legalmoves`; PROTOCOL.md, "Describing the game"): one JSON object each,
 * the game-independent members written here, the rest by the game's view
 * (game.h, view_board and the rest).
 *
 * Reaches the games only through game_t and the game record.
 */
#include "describe.h"

#include <string.h>

static void seats(const game_t *g, json_t *j)
{
    json_key(j, "seats");
    json_array(j);
    for (int p = 0; p < g->players; p++) {
        json_object(j);
        char id[4] = {'p', (char)('1' + p), 0};
        json_kstring(j, "id", id);
        json_kstring(j, "name", g->player_names[p]);
        json_kint(j, "team", g->team_of[p]);
        json_end(j);
    }
    json_end(j);
    json_key(j, "teams");
    json_array(j);
    for (int t = 0; t < game_teams(g); t++)
        json_string(j, game_team_name(g, t));
    json_end(j);
}

bool describe_layout(const game_t *g, json_t *j)
{
    if (!g->view_board)
        return false;
    json_object(j);
    json_kstring(j, "variant", g->name);
    json_kstring(j, "description", g->description);
    json_kint(j, "players", g->players);
    json_kbool(j, "dice", g->chance_outcomes != NULL);
    seats(g, j);
    g->view_board(g, j);
    json_end(j);
    return !j->failed;
}

static void players_list(json_t *j, player_mask_t m, int players)
{
    json_array(j);
    for (int p = 0; p < players; p++)
        if (m & player_bit(p))
            json_int(j, p);
    json_end(j);
}

bool describe_state(const record_t *r, json_t *j)
{
    const game_t *g = r->game;
    if (!g->view_position)
        return false;
    char fen[GAME_FEN_MAX];
    g->write_fen(&r->pos, fen, sizeof fen);
    json_object(j);
    json_kstring(j, "variant", g->name);
    json_kstring(j, "fen", fen);
    json_kint(j, "turn", g->to_move(&r->pos));
    json_kbool(j, "chance", game_at_chance(g, &r->pos));
    json_kint(j, "plies", r->plies);
    json_key(j, "in");
    players_list(j, game_players_in(g, &r->pos), g->players);
    outcome_t o = record_outcome(r);
    json_key(j, "result");
    if (o.kind == OUTCOME_NONE) {
        json_null(j);
    } else {
        json_object(j);
        json_kstring(j, "kind", o.kind == OUTCOME_WIN ? "win" : "draw");
        json_key(j, "players");
        players_list(j, o.players, g->players);
        json_kstring(j, "reason", o.reason ? o.reason : "");
        game_why_t why;
        record_explain(r, &why);
        json_kstring(j, "text", why.text);
        json_key(j, "decisive");
        json_array(j);
        for (int i = 0; i < why.cells; i++)
            json_string(j, why.cell[i]);
        json_end(j);
        json_end(j);
    }
    g->view_position(g, &r->pos, j);
    json_end(j);
    return !j->failed;
}

bool describe_moves(const record_t *r, json_t *j)
{
    const game_t *g = r->game;
    if (!g->view_move)
        return false;
    move_t moves[MAX_MOVES];
    int n = record_legal_moves(r, moves);
    int weights[MAX_MOVES];
    bool chance = g->chance_outcomes && n > 0 && g->chance_outcomes(&r->pos, moves, weights) == n;
    json_object(j);
    json_kint(j, "turn", g->to_move(&r->pos));
    json_kbool(j, "chance", chance);
    json_key(j, "moves");
    json_array(j);
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(&r->pos, moves[i], text, sizeof text);
        json_object(j);
        json_kstring(j, "move", text);
        if (chance)
            json_kint(j, "weight", weights[i]);
        g->view_move(g, &r->pos, moves[i], j);
        json_end(j);
    }
    json_end(j);
    json_end(j);
    return !j->failed;
}
