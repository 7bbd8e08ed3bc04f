/*
 * bolix_eval.c: Bolix's evaluation, with every weight: the value of a
 * window one colour alone holds (which make and unmake sum as they go),
 * capture threats, marbles in hand, a four to play, the move. Reads the
 * position; may not change it.
 */
#include "bolix_eval.h"
#include "bolix_net.h"
#include "../../core/thread.h"


/* Every weight of the evaluation, by name: `eval` shows them with their
 * contributions, a tuner changes them (bolix_weights). The line weights
 * value a window of five one colour alone holds, by its marbles (a five
 * counts as a four: it ends the game); make and unmake keep their sums. */
enum { W_LINE1, W_LINE2, W_LINE3, W_LINE4, W_CAPTURE_THREAT, W_HAND_MARBLE, W_TO_MOVE_FOUR, W_TO_MOVE, W_COUNT };
static eval_weight_t weight[W_COUNT] = {
    [W_LINE1] = {"line of one", 1},
    [W_LINE2] = {"line of two", 8},
    [W_LINE3] = {"line of three", 40},
    [W_LINE4] = {"line of four", 300},
    [W_CAPTURE_THREAT] = {"capture threat", 30},
    [W_HAND_MARBLE] = {"marble in hand", 2},
    [W_TO_MOVE_FOUR] = {"four to play", 5000}, /* a four of the side to move with a free cell wins next move */
    [W_TO_MOVE] = {"to move", 40}, /* set by matches: 20 30 40 50 80 at 20,000 nodes, +101 +106 +150 +114 +51 */
};
#define W(k) (weight[k].value)

/* The rules sum what each window is worth as marbles come and go
 * (bolix_worth_set); the values are the line weights, so they are handed
 * over again whenever the weights change. Five counts as four: a five has
 * ended the game before anything sums it. */
static void hand_window_values(void)
{
    int16_t value[6] = {0};
    for (int k = 1; k <= 5; k++)
        value[k] = (int16_t)W(W_LINE1 + (k < 5 ? k : 4) - 1);
    bolix_worth_set(value);
}

eval_weights_t bolix_weights = {weight, W_COUNT, hand_window_values};

static thr_once_t values_once = THR_ONCE_INIT;
void bolix_eval_ensure(void) { thr_once(&values_once, hand_window_values); }

/* The coefficients of the line weights: the windows each colour alone
 * holds, by how many marbles (a trace only: the sums are kept). */
static void trace_lines(const bolix_t *b, eval_trace_t *t)
{
    for (int w = 0; w < N_WINDOWS; w++) {
        int black = b->count[w] & 15, white = b->count[w] >> 4;
        if (black && !white)
            eval_trace_coef(t, W_LINE1 + (black < 5 ? black : 4) - 1, BLACK, 1);
        if (white && !black)
            eval_trace_coef(t, W_LINE1 + (white < 5 ? white : 4) - 1, WHITE, 1);
    }
}

/* A four of the side to move with a free cell it may place on: it wins
 * with its next marble. */
static bool four_to_play(const bolix_t *b)
{
    int stm = b->stm;
    return b->fours[stm] && b->hand[stm] &&
           !bb128_empty(bb128_andnot(bolix_five_makers(b, stm), b->ko == NO_CELL ? bb128_zero() : bb128_bit(b->ko)));
}

/* The hand-written evaluation, for the side to move. */
static score_t hand_evaluate(const bolix_t *b, eval_trace_t *t)
{
    const int lines[2] = {b->lines[0], b->lines[1]}; /* kept by make and unmake */
    eval_trace_add(t, "lines", lines[0], lines[1]);
    if (t)
        trace_lines(b, t);
    int caps[2], cells[2];
    bolix_capture_counts(b, cells);
    for (int pl = 0; pl < 2; pl++) {
        caps[pl] = W(W_CAPTURE_THREAT) * cells[pl];
        eval_trace_coef(t, W_CAPTURE_THREAT, pl, cells[pl]);
    }
    eval_trace_add(t, "capture threats", caps[0], caps[1]);
    int hand[2] = {W(W_HAND_MARBLE) * b->hand[0], W(W_HAND_MARBLE) * b->hand[1]};
    eval_trace_add(t, "marbles in hand", hand[0], hand[1]);
    eval_trace_coef(t, W_HAND_MARBLE, BLACK, b->hand[BLACK]);
    eval_trace_coef(t, W_HAND_MARBLE, WHITE, b->hand[WHITE]);
    int stm = b->stm, opp = stm ^ 1;
    int win[2] = {0, 0};
    if (four_to_play(b)) {
        win[stm] = W(W_TO_MOVE_FOUR);
        eval_trace_coef(t, W_TO_MOVE_FOUR, stm, 1);
    }
    eval_trace_add(t, "four to play", win[0], win[1]);
    /* The side to move has a placement in hand that only raises its value:
     * without this, quiescence stands pat below what the move is worth. */
    int tempo[2] = {0, 0};
    tempo[stm] = W(W_TO_MOVE);
    eval_trace_coef(t, W_TO_MOVE, stm, 1);
    eval_trace_add(t, "to move", tempo[0], tempo[1]);
    int v[2];
    for (int pl = 0; pl < 2; pl++)
        v[pl] = lines[pl] + caps[pl] + hand[pl] + win[pl] + tempo[pl];
    return (score_t)(v[stm] - v[opp]);
}

int bolix_net_base(const position_t *pos)
{
    const bolix_t *b = CP(pos);
    score_t v = hand_evaluate(b, NULL);
    return b->stm == BLACK ? v : -v;
}

/* The net learned what the hand-written evaluation misses (it was trained
 * with it as its base): their sum. */
score_t bolix_evaluate(const position_t *pos, eval_trace_t *t)
{
    const bolix_t *b = CP(pos);
    score_t v = hand_evaluate(b, t);
    const nnue_t *net = game_net_in_use(&bolix_net);
    if (net) {
        score_t n = bolix_net_evaluate(net, pos);
        eval_trace_add(t, "network", b->stm == BLACK ? n : -n, 0);
        v = (score_t)(v + n);
    }
    return v;
}
