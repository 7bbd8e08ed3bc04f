/*
 * brax_geometry.c: the board colouring (docs/rules/brax.md) and the tables
 * precomputed from it, so that move generation and threat detection are
 * mask tests. May not reach into positions, moves or evaluation.
 */
#include "brax_geometry.h"
#include "../../core/thread.h"


/* Horizontal segments, row 9 first; entry k joins columns k and k+1. */
static const char *const horizontal[9] = {
    "BBRRBBRR", "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
    "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
};
/* Vertical segments, rows 8-9 first; entry k is in column k. */
static const char *const vertical[8] = {
    "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
    "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
};

bb128_t brax_step1[N_PTS], brax_near2[N_PTS], brax_adj_col[N_PTS][2];
int8_t brax_path_mid[N_PTS][2][BRAX_PATHS_MAX], brax_path_end[N_PTS][2][BRAX_PATHS_MAX];
int8_t brax_path_count[N_PTS][2];
int8_t brax_col_nb[N_PTS][2][4], brax_col_deg[N_PTS][2];
uint16_t brax_two_base[N_PTS][2];
bb128_t brax_reach_at[BRAX_TWO_MAX];
bb128_t brax_exit[4], brax_exit_col[4][2];
int8_t brax_two_list[BRAX_TWO_MAX][BRAX_PATHS_MAX], brax_two_count[BRAX_TWO_MAX];
static thr_once_t geometry_once = THR_ONCE_INIT;

int brax_segment_colour(int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    if (a < 0 || b >= N_PTS)
        return -1;
    int ra = a / 9, ca = a % 9;
    if (b == a + 1 && ca < 8)
        return horizontal[8 - ra][ca] == 'B';
    if (b == a + 9)
        return vertical[7 - ra][ca] == 'B';
    return -1;
}

static int neighbour(int p, int dir)
{
    int r = p / 9, c = p % 9;
    switch (dir) {
    case 0: return r < 8 ? p + 9 : -1;
    case 1: return r > 0 ? p - 9 : -1;
    case 2: return c < 8 ? p + 1 : -1;
    default: return c > 0 ? p - 1 : -1;
    }
}

static void init_geometry(void)
{
    for (int p = 0; p < N_PTS; p++) {
        brax_step1[p] = bb128_zero();
        for (int d = 0; d < 4; d++) {
            int m = neighbour(p, d);
            if (m < 0)
                continue;
            brax_step1[p] = bb128_or(brax_step1[p], bb128_bit(m));
            int col = brax_segment_colour(p, m);
            brax_exit[d] = bb128_or(brax_exit[d], bb128_bit(p));
            brax_exit_col[d][col] = bb128_or(brax_exit_col[d][col], bb128_bit(p));
            brax_adj_col[p][col] = bb128_or(brax_adj_col[p][col], bb128_bit(m));
            for (int e = 0; e < 4; e++) {
                int t = neighbour(m, e);
                if (t < 0 || t == p || brax_segment_colour(m, t) != col)
                    continue;
                int k = brax_path_count[p][col]++;
                brax_path_mid[p][col][k] = (int8_t)m;
                brax_path_end[p][col][k] = (int8_t)t;
            }
        }
    }
    /* The 2-step tables: for each man's occupied middles, the ends through
     * the free ones, in path order (the order of the loop above). */
    int next = 0;
    for (int p = 0; p < N_PTS; p++)
        for (int c = 0; c < 2; c++) {
            for (int k = 0; k < 4; k++)
                brax_col_nb[p][c][k] = 127;
            for (int d = 0; d < 4; d++) {
                int m = neighbour(p, d);
                if (m >= 0 && brax_segment_colour(p, m) == c)
                    brax_col_nb[p][c][brax_col_deg[p][c]++] = (int8_t)m;
            }
            brax_two_base[p][c] = (uint16_t)next;
            for (int blocked = 0; blocked < 1 << brax_col_deg[p][c]; blocked++, next++) {
                bb128_t ends = bb128_zero();
                for (int k = 0; k < brax_path_count[p][c]; k++) {
                    int mid = brax_path_mid[p][c][k], end = brax_path_end[p][c][k], j = 0;
                    while (brax_col_nb[p][c][j] != mid)
                        j++;
                    if ((blocked >> j) & 1 || bb128_test(ends, end))
                        continue;
                    ends = bb128_or(ends, bb128_bit(end));
                    brax_two_list[next][brax_two_count[next]++] = (int8_t)end;
                }
                brax_reach_at[next] = bb128_or(brax_step1[p], ends);
            }
        }
    for (int p = 0; p < N_PTS; p++) {
        brax_near2[p] = bb128_or(bb128_bit(p), brax_step1[p]);
        for (bb128_t m = brax_step1[p]; !bb128_empty(m);)
            brax_near2[p] = bb128_or(brax_near2[p], brax_step1[bb128_pop(&m)]);
    }
}

void brax_geometry_init(void) { thr_once(&geometry_once, init_geometry); }

int brax_steps(int p, int to[4])
{
    brax_geometry_init();
    int n = 0;
    for (bb128_t m = brax_step1[p]; !bb128_empty(m);)
        to[n++] = bb128_pop(&m);
    return n;
}

int brax_paths(int p, int colour, int mid[BRAX_PATHS_MAX], int end[BRAX_PATHS_MAX])
{
    brax_geometry_init();
    for (int k = 0; k < brax_path_count[p][colour]; k++) {
        mid[k] = brax_path_mid[p][colour][k];
        end[k] = brax_path_end[p][colour][k];
    }
    return brax_path_count[p][colour];
}
