/*
 * brax_geometry.h: the Brax board, apart from any position: the colour of
 * each segment, each point's neighbours and its 2-step paths per colour.
 * Shared by the rules and the solved endings, so that neither calls the
 * other. Knows nothing of men, players or moves.
 *
 * Point index = row * 9 + column (a1 = 0, i9 = 80).
 */
#ifndef DENHAM_BRAX_GEOMETRY_H
#define DENHAM_BRAX_GEOMETRY_H

#include "../../core/bb128.h"

#define N_PTS 81
#define BRAX_PATHS_MAX 12

/* Filled by brax_geometry_init(), read-only after. */
extern bb128_t brax_step1[N_PTS];
/* The point and every point one or two steps from it: all a man's threats
 * depend on (its own point, a path's middle, the victims). */
extern bb128_t brax_near2[N_PTS];
/* The neighbours of each point along a segment of each colour: the first
 * and second steps of a 2-step of that colour (a path p-m-e is m in
 * brax_adj_col[p][c], e in brax_adj_col[m][c], e != p). */
extern bb128_t brax_adj_col[N_PTS][2];
extern int8_t brax_path_mid[N_PTS][2][BRAX_PATHS_MAX], brax_path_end[N_PTS][2][BRAX_PATHS_MAX];
extern int8_t brax_path_count[N_PTS][2];

/* A man's moves at a glance: his colour-c neighbours (the middles of his
 * 2-steps, in the order of the path tables), and, for each set of them
 * that is occupied (bit k: the k-th neighbour), every point he may move
 * to but for his friends (his 1-steps and the ends of the 2-steps through
 * the free middles: brax_reach_at), and those 2-step ends as a list in
 * path order (two paths to one end listed once, at the first). The search
 * asks this of every man at every node; one table read replaces a test
 * per path. */
extern int8_t brax_col_nb[N_PTS][2][4], brax_col_deg[N_PTS][2]; /* past the degree: 127 */
extern uint16_t brax_two_base[N_PTS][2];
#define BRAX_TWO_MAX (N_PTS * 2 * 16)
extern bb128_t brax_reach_at[BRAX_TWO_MAX];
extern int8_t brax_two_list[BRAX_TWO_MAX][BRAX_PATHS_MAX], brax_two_count[BRAX_TWO_MAX];

/* The index into brax_two_* of a man on p of colour c, with occ occupied.
 * Four terms always, without a loop: the neighbours a point lacks are
 * point 127, never occupied. */
static inline int brax_two_index(int p, int c, bb128_t occ)
{
    const int8_t *nb = brax_col_nb[p][c];
    return brax_two_base[p][c] + (int)bb128_test(occ, nb[0]) + ((int)bb128_test(occ, nb[1]) << 1) +
           ((int)bb128_test(occ, nb[2]) << 2) + ((int)bb128_test(occ, nb[3]) << 3);
}

/* The board by directions, for sets of men moved all at once (perft's
 * counts) instead of one man at a time. Directions: 0 north (+9), 1 south
 * (-9), 2 east (+1), 3 west (-1). brax_exit[d]: the points that have a
 * neighbour in direction d; brax_exit_col[d][c]: those whose segment that
 * way has colour c. */
extern bb128_t brax_exit[4], brax_exit_col[4][2];

static inline int brax_opposite(int d) { return d ^ 1; }

/* Every point of s one step in direction d (s within brax_exit[d]). */
static inline bb128_t brax_shift(bb128_t s, int d)
{
    switch (d) {
    case 0: return (bb128_t){s.lo << 9, s.hi << 9 | s.lo >> 55};
    case 1: return (bb128_t){s.lo >> 9 | s.hi << 55, s.hi >> 9};
    case 2: return (bb128_t){s.lo << 1, s.hi << 1 | s.lo >> 63};
    default: return (bb128_t){s.lo >> 1 | s.hi << 63, s.hi >> 1};
    }
}

/* The points one step from the points of s in direction d along a
 * segment of colour c, or of any colour (brax_step_any). */
static inline bb128_t brax_step_col(bb128_t s, int d, int c) { return brax_shift(bb128_and(s, brax_exit_col[d][c]), d); }
static inline bb128_t brax_step_any(bb128_t s, int d) { return brax_shift(bb128_and(s, brax_exit[d]), d); }

/* Fills the tables above, once; safe from any thread. */
void brax_geometry_init(void);

/* The colour of the segment between two orthogonally adjacent points:
 * 0 red, 1 blue; -1 when not adjacent. */
int brax_segment_colour(int a, int b);

/* The board's moves, for code that works on points (the solved endings):
 * the points one step from p, and the 2-step paths from p along segments
 * of one colour (middle and end point; an end reached through two middle
 * points is listed once for each). Each returns how many it wrote. */
int brax_steps(int p, int to[4]);
int brax_paths(int p, int colour, int mid[BRAX_PATHS_MAX], int end[BRAX_PATHS_MAX]);

#endif
