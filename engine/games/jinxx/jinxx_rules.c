/*
 * jinxx_rules.c: the rules of Jinxx for two, three and four: the board's
 * tables, rolls and moves, destruction and vaporization, make/unmake, the
 * end of the game. May not reach into the evaluation or the text.
 */
#include "jinxx_rules.h"

#include <assert.h>
#include <string.h>

#include "../../core/rng.h"
#include "../../core/thread.h"

uint16_t jinxx_adjacent[9];
uint16_t jinxx_adjacent_to[512];
uint8_t jinxx_lines_held[512], jinxx_lines_one_short[512];
uint8_t jinxx_line_counts[512];
uint32_t jinxx_tree_cells[4][64];
uint64_t jinxx_zobrist_occ[MAX_PLAYERS][3][9], jinxx_zobrist_tree[MAX_PLAYERS][3][4], jinxx_zobrist_die[7];
uint64_t jinxx_zobrist_stm[MAX_PLAYERS], jinxx_zobrist_counter[DRAW_TURNS + 1], jinxx_zobrist_out[MAX_PLAYERS];
static thr_once_t tables_once = THR_ONCE_INIT;
static void init_tables(void)
{
    for (int c = 0; c < 9; c++) {
        int r = c / 3, f = c % 3;
        jinxx_adjacent[c] = (uint16_t)((r > 0 ? 1u << (c - 3) : 0) | (r < 2 ? 1u << (c + 3) : 0) |
                                 (f > 0 ? 1u << (c - 1) : 0) | (f < 2 ? 1u << (c + 1) : 0));
    }
    for (unsigned set = 0; set < 512; set++) {
        for (int c = 0; c < 9; c++)
            if ((set >> c) & 1)
                jinxx_adjacent_to[set] |= jinxx_adjacent[c];
        for (int l = 0; l < 4; l++) {
            int missing = popcount9(lines[l] & ~set);
            jinxx_lines_held[set] |= (uint8_t)((missing == 0) << l);
            jinxx_lines_one_short[set] |= (uint8_t)((missing == 1) << l);
            int have = popcount9(lines[l] & set);
            jinxx_line_counts[set] = (uint8_t)(jinxx_line_counts[set] + (have == 2) + ((have == 1) << 4));
        }
    }
    for (int seat = 0; seat < 4; seat++)
        for (int counts = 0; counts < 64; counts++)
            for (int k = 0; k < 3; k++)
                for (int s = 0; s < 3; s++)
                    if (tree_has(counts >> 2 * k & 3, s))
                        jinxx_tree_cells[seat][counts] |= 1u << (9 * s + edge_cell[seat][k]);
    rng_t rng = {0x71A77u};
    for (int p = 0; p < MAX_PLAYERS; p++) {
        for (int s = 0; s < 3; s++)
            for (int c = 0; c < 9; c++)
                jinxx_zobrist_occ[p][s][c] = rng_next(&rng);
        for (int k = 0; k < 3; k++)
            for (int n = 0; n < 4; n++)
                jinxx_zobrist_tree[p][k][n] = rng_next(&rng);
        jinxx_zobrist_stm[p] = rng_next(&rng);
        jinxx_zobrist_out[p] = rng_next(&rng);
    }
    for (int d = 0; d < 7; d++)
        jinxx_zobrist_die[d] = rng_next(&rng);
    for (int n = 0; n <= DRAW_TURNS; n++)
        jinxx_zobrist_counter[n] = rng_next(&rng);
}

void jinxx_tables_ensure(void) { thr_once(&tables_once, init_tables); }
/* ---- moves ---- */

/* A destruction removes material for good: the move is noisy, and like an
 * entry it resets the draw counter (no earlier position can recur). */
static move_t flags(const jinxx_t *b, int size, int to, bool entry)
{
    bool destroys = (b->sizes[size] >> to) & 1;
    return (destroys ? MOVE_CAPTURE | MOVE_NOISY : 0) | (destroys || entry ? MOVE_IRREVERSIBLE : 0);
}

/* Board moves of player p's pyramids of the sizes in `sizes`. */
static int gen_board(const jinxx_t *b, int p, unsigned sizes, move_t *moves)
{
    int n = 0;
    for (int s = 0; s < 3; s++) {
        if (!(sizes & (1u << s)))
            continue;
        unsigned land = landable(b, s);
        for (unsigned from = b->occ[p][s]; from; from &= from - 1) {
            int c = __builtin_ctz(from);
            for (unsigned to = jinxx_adjacent[c] & land; to; to &= to - 1) {
                int t = __builtin_ctz(to);
                moves[n++] = encode(K_BOARD, 0, s, c, t) | flags(b, s, t, false);
            }
        }
    }
    return n;
}

static int gen_trees(const jinxx_t *b, int p, unsigned sizes, move_t *moves)
{
    int n = 0, seat = seat_of(b, p);
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 3; s++) {
            int t = edge_cell[seat][k];
            if ((sizes & (1u << s)) && tree_has(b->tree[p][k], s) && ((landable(b, s) >> t) & 1))
                moves[n++] = encode(K_TREE, 0, s, k, t) | flags(b, s, t, true);
        }
    return n;
}

static int gen_own(const jinxx_t *b, int p, unsigned sizes, move_t *moves)
{
    int n = gen_board(b, p, sizes, moves);
    return n + gen_trees(b, p, sizes, moves + n);
}

int jinxx_gen_moves(const position_t *pos, move_t *moves)
{
    const jinxx_t *b = CP(pos);
    if (jinxx_is_over(b))
        return 0;
    if (b->die == 0) {
        for (int f = 0; f < 6; f++)
            moves[f] = encode(K_ROLL, f, 0, 0, 0);
        return 6;
    }
    unsigned sizes = face_sizes[b->die - 1];
    int n = gen_own(b, b->stm, sizes, moves);
    if (n > 0)
        return n; /* settled point 1: the face's own moves are compulsory */
    /* Settled points 2-4: another player's pyramid on the board, or a
     * reroll when some face would give an own move; else pass. */
    move_t any[MAX_MOVES];
    bool reroll = gen_own(b, b->stm, 7, any) > 0;
    for (int p = 0; p < b->players; p++)
        if (p != b->stm && in_game(b, p))
            n += gen_board(b, p, sizes, moves + n);
    if (reroll)
        moves[n++] = encode(K_REROLL, 0, 0, 0, 0);
    if (n == 0)
        moves[n++] = encode(K_PASS, 0, 0, 0, 0);
    return n;
}

/* Quiescence looks at destructions only; a roll or a quiet move is never
 * noisy (the searcher stands pat at chance nodes). */
int jinxx_gen_noisy(const position_t *pos, move_t *moves)
{
    const jinxx_t *b = CP(pos);
    if (b->die == 0)
        return 0;
    move_t all[MAX_MOVES];
    int n = jinxx_gen_moves(pos, all), k = 0;
    for (int i = 0; i < n; i++)
        if (all[i] & MOVE_NOISY)
            moves[k++] = all[i];
    return k;
}

int jinxx_count_moves(const position_t *pos)
{
    move_t moves[MAX_MOVES];
    return jinxx_gen_moves(pos, moves);
}

int jinxx_chance_outcomes(const position_t *pos, move_t *moves, int *weights)
{
    const jinxx_t *b = CP(pos);
    if (b->die != 0 || jinxx_is_over(b))
        return 0;
    for (int f = 0; f < 6; f++) {
        moves[f] = encode(K_ROLL, f, 0, 0, 0);
        weights[f] = 1;
    }
    return 6;
}

/* ---- make / unmake ---- */

static void toggle(jinxx_t *b, int p, int s, int c)
{
    b->occ[p][s] ^= (uint16_t)(1u << c);
    b->sizes[s] ^= (uint16_t)(1u << c);
    b->hash ^= jinxx_zobrist_occ[p][s][c];
}

static void set_tree(jinxx_t *b, int p, int k, int n)
{
    b->hash ^= jinxx_zobrist_tree[p][k][b->tree[p][k]] ^ jinxx_zobrist_tree[p][k][n];
    b->tree[p][k] = (uint8_t)n;
}

static void set_die(jinxx_t *b, int d)
{
    b->hash ^= jinxx_zobrist_die[b->die] ^ jinxx_zobrist_die[d];
    b->die = (uint8_t)d;
}

static void set_counter(jinxx_t *b, int n)
{
    b->hash ^= jinxx_zobrist_counter[b->counter] ^ jinxx_zobrist_counter[n];
    b->counter = (uint8_t)n;
}

int jinxx_owner_of(const jinxx_t *b, int s, int c)
{
    for (int p = 0; p < b->players; p++)
        if ((b->occ[p][s] >> c) & 1)
            return p;
    assert(!"no pyramid there");
    return 0;
}

/* Removes the pyramid of size s on cell t, if any; returns its owner or -1. */
static int destroy_at(jinxx_t *b, int s, int t)
{
    if (!((b->sizes[s] >> t) & 1))
        return -1;
    int d = jinxx_owner_of(b, s, t);
    toggle(b, d, s, t);
    return d;
}

/* Settled point 7: both remaining pyramids go; what stood on them settles
 * by itself, since a stack is only the sizes on its cell. */
static void vaporize(jinxx_t *b, int p)
{
    for (int s = 0; s < 3; s++)
        for (unsigned m = b->occ[p][s]; m; m &= m - 1)
            toggle(b, p, s, __builtin_ctz(m));
    for (int k = 0; k < 3; k++)
        set_tree(b, p, k, 0);
    b->out |= (uint8_t)(1u << p);
    b->hash ^= jinxx_zobrist_out[p];
}

int jinxx_next_player(const jinxx_t *b)
{
    for (int k = 1, q = b->stm; k <= b->players; k++) {
        q = q + 1 == b->players ? 0 : q + 1;
        if (in_game(b, q))
            return q;
    }
    return b->stm;
}

/* The first player in turn order from the player to move who holds a
 * line, or -1 (most positions: no one). */
static int winner_by_line(const jinxx_t *b)
{
    /* Asked after every move: most boards have no line with all three
     * cells taken, and then no one holds a line. */
    if (!jinxx_lines_held[b->sizes[SZ_S] | b->sizes[SZ_M] | b->sizes[SZ_L]])
        return -1;
    unsigned holders = 0;
    for (int p = 0; p < b->players; p++)
        holders |= (unsigned)(jinxx_lines_held[tops(b, p)] != 0) << p;
    holders &= ~(unsigned)b->out;
    if (!holders)
        return -1;
    for (int k = 0, q = b->stm; k < b->players; k++, q = q + 1 == b->players ? 0 : q + 1)
        if ((holders >> q) & 1)
            return q;
    return -1;
}

bool jinxx_is_over(const jinxx_t *b)
{
    return winner_by_line(b) >= 0 || popcount9(b->out) == b->players - 1 || b->counter >= DRAW_TURNS;
}

/* Settled point 6: destruction, vaporization, lines, last player, counter.
 * A move that ends the game leaves the turn with its maker. */
static void end_turn(jinxx_t *b, int destroyed_owner, bool reset)
{
    if (destroyed_owner >= 0 && pyramids_of(b, destroyed_owner) == 2)
        vaporize(b, destroyed_owner);
    if (winner_by_line(b) >= 0 || popcount9(b->out) == b->players - 1)
        return;
    set_counter(b, reset ? 0 : b->counter + 1);
    if (b->counter >= DRAW_TURNS)
        return;
    int next = jinxx_next_player(b);
    b->hash ^= jinxx_zobrist_stm[b->stm] ^ jinxx_zobrist_stm[next];
    b->stm = (uint8_t)next;
    set_die(b, 0);
}

static void play(jinxx_t *b, move_t m)
{
    int s = m_size(m), t = m_to(m), p = b->stm;
    switch (m_kind(m)) {
    case K_ROLL:
        set_die(b, m_face(m) + 1);
        return;
    case K_REROLL:
        set_die(b, 0);
        return;
    case K_PASS:
        end_turn(b, -1, false);
        return;
    case K_BOARD: {
        int c = m_from(m);
        int d = destroy_at(b, s, t);
        for (int q = 0; q <= s; q++) /* the pyramid and all smaller above it */
            if ((b->sizes[q] >> c) & 1) {
                int o = jinxx_owner_of(b, q, c);
                toggle(b, o, q, c);
                toggle(b, o, q, t);
            }
        end_turn(b, d, d >= 0);
        return;
    }
    default: {
        int k = m_from(m), n = b->tree[p][k];
        int d = destroy_at(b, s, t);
        for (int q = 0; q <= s; q++)
            if (tree_has(n, q))
                toggle(b, p, q, t);
        set_tree(b, p, k, 2 - s); /* the larger pyramids stay */
        end_turn(b, d, true);
        return;
    }
    }
}

void jinxx_make(position_t *pos, move_t m, undo_t *u)
{
    memcpy(u->w, P(pos), sizeof(jinxx_t));
    play(P(pos), m);
}

void jinxx_unmake(position_t *pos, move_t m, const undo_t *u)
{
    (void)m;
    memcpy(P(pos), u->w, sizeof(jinxx_t));
}

void jinxx_hand_turn(position_t *pos, int player)
{
    jinxx_t *b = P(pos);
    assert(in_game(b, player));
    b->hash ^= jinxx_zobrist_stm[b->stm] ^ jinxx_zobrist_stm[player];
    b->stm = (uint8_t)player;
    set_die(b, 0);
}

/* ---- state ---- */

int jinxx_to_move(const position_t *pos) { return CP(pos)->stm; }
uint64_t jinxx_hash(const position_t *pos) { return CP(pos)->hash; }

player_mask_t jinxx_players_in(const position_t *pos)
{
    const jinxx_t *b = CP(pos);
    return (player_mask_t)(((1u << b->players) - 1) & ~b->out);
}

bool jinxx_decided(const position_t *pos, outcome_t *out)
{
    const jinxx_t *b = CP(pos);
    int w = winner_by_line(b);
    if (w >= 0) {
        *out = (outcome_t){OUTCOME_WIN, player_bit(w), "line held"};
        return true;
    }
    if (popcount9(b->out) == b->players - 1) {
        *out = (outcome_t){OUTCOME_WIN, jinxx_players_in(pos), "the others vaporized"};
        return true;
    }
    if (b->counter >= DRAW_TURNS) {
        *out = (outcome_t){OUTCOME_DRAW, jinxx_players_in(pos), "sixty turns without destruction or entry"};
        return true;
    }
    return false;
}

outcome_t jinxx_outcome(const position_t *pos)
{
    outcome_t o;
    if (jinxx_decided(pos, &o))
        return o;
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}
