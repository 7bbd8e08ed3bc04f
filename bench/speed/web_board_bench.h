/* web_board_bench.h: the board's own figures in a browser (web_board_bench.c). */
#ifndef DENHAM_WEB_BOARD_BENCH_H
#define DENHAM_WEB_BOARD_BENCH_H

/* A person's move and a replay step, from the click to the board drawn,
 * MOVES of each (20 when out of range); 0 unless the server did not start. */
int web_board_bench(int moves);

#endif
