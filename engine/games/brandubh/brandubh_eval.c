/*
 * brandubh_eval.c: Brandubh's evaluation, with every weight: material,
 * mobility, the king's routes to the corners, the attackers' blockade.
 * Reads the position; may not change it.
 */
#include "brandubh_eval.h"

/* Weights tuned by fixed-node self-play (commit a9386b7: each against the
 * set before it). ROUTE_SINGLE changed no game at 20,000 nodes (200 did
 * not): quiescence answers a king that sees a corner before it stands pat. */
enum {
    VAL_ATTACKER = 100,
    VAL_DEFENDER = 160, /* 200 lost 32 Elo: the defenders' men are worth less than the king's freedom */
    MOBILITY = 3,
    KING_MOBILITY = 8,
    ROUTE_NOW_DEF_TO_MOVE = 2000, /* king walks home next move */
    ROUTE_DOUBLE = 1200,          /* two open corners: one block is not enough */
    ROUTE_SINGLE = 120,           /* forces the attackers to block */
    ROUTE_TWO_MOVES = 50,
    KING_PRESSURE = 30,
    APPROACH_BLOCKED = 10,
    CORNER_GUARD = 10,
    KING_TO_CORNER = 25, /* per step nearer the nearest corner (Manhattan) */
    BESIDE_CORNER = 20,  /* an attacker next to a corner: one defender captures it */
};

/* Corners the king reaches in one move, and squares it reaches from which
 * a corner is one more move away. */
static void king_routes(const bdb_t *b, bb64_t occ, int *now, int *two)
{
    int k = bb_lsb(b->king);
    bb64_t r = targets(b, k, occ);
    *now = bb_popcount(r & CORNERS);
    *two = 0;
    for (bb64_t t = r & EDGES & ~CORNERS; t;) {
        int s = bb_pop(&t);
        if (reach(s, occ & ~b->king) & CORNERS)
            (*two)++;
    }
}

/* Approach lines to the corners whose first piece, walking out from the
 * corner along the edge, is an attacker: the king cannot use that line.
 * The first piece is the line's lowest or highest occupied square, as the
 * walk goes up (north, east: directions 0 and 2) or down. */
static int blocked_approaches(const bdb_t *b, bb64_t occ)
{
    int blocked = 0;
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 2; i++) {
            bb64_t on = occ & brandubh_approach_lines[c][i];
            if (on) {
                int first = corner_dirs[c][i] % 2 == 0 ? bb_lsb(on) : bb_msb(on);
                blocked += (b->att >> first) & 1;
            }
        }
    return blocked;
}

score_t bdb_evaluate(const position_t *pos, eval_trace_t *t)
{
    const bdb_t *b = CP(pos);
    bb64_t occ = occupied(b);
    int v_att = 0, v_def = 0;

    int mat_a = VAL_ATTACKER * bb_popcount(b->att), mat_d = VAL_DEFENDER * bb_popcount(b->def);
    eval_trace_add(t, "material", mat_a, mat_d);

    int mob_a = 0, mob_d = 0;
    for (bb64_t p = b->att; p;)
        mob_a += bb_popcount(targets(b, bb_pop(&p), occ));
    for (bb64_t p = b->def; p;)
        mob_d += bb_popcount(targets(b, bb_pop(&p), occ));
    eval_trace_add(t, "mobility", MOBILITY * mob_a, MOBILITY * mob_d);
    v_att += mat_a + MOBILITY * mob_a;
    v_def += mat_d + MOBILITY * mob_d;

    if (b->king) {
        int k = bb_lsb(b->king);
        int now, two;
        king_routes(b, occ, &now, &two);
        int route = ROUTE_TWO_MOVES * two;
        if (now >= 1 && b->stm == SIDE_DEF)
            route += ROUTE_NOW_DEF_TO_MOVE;
        else if (now >= 2)
            route += ROUTE_DOUBLE;
        else if (now == 1)
            route += ROUTE_SINGLE;
        int kmob = KING_MOBILITY * bb_popcount(targets(b, k, occ));
        eval_trace_add(t, "king routes", 0, route);
        eval_trace_add(t, "king mobility", 0, kmob);
        v_def += route + kmob;

        int near = 0;
        for (int d = 0; d < 4; d++) {
            int n = step(k, d);
            near += n >= 0 && (b->att & bb_bit(n));
        }
        eval_trace_add(t, "king pressure", KING_PRESSURE * near, 0);
        v_att += KING_PRESSURE * near;

        int f = sq_file(k), r = sq_rank(k);
        int to_corner = (f < 6 - f ? f : 6 - f) + (r < 6 - r ? r : 6 - r); /* 6 on the throne */
        int nearer = KING_TO_CORNER * (6 - to_corner);
        eval_trace_add(t, "king to corner", 0, nearer);
        v_def += nearer;
    }

    int guards = bb_popcount(b->att & CORNER_GUARDS);
    int blockade = APPROACH_BLOCKED * blocked_approaches(b, occ) + CORNER_GUARD * guards;
    eval_trace_add(t, "blockade", blockade, 0);
    v_att += blockade;
    int beside = -BESIDE_CORNER * bb_popcount(b->att & BESIDE_CORNERS);
    eval_trace_add(t, "beside a corner", beside, 0);
    v_att += beside;

    score_t s = (score_t)(v_att - v_def);
    return b->stm == SIDE_ATT ? s : -s;
}

