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
