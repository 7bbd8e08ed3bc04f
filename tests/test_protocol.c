/* test_protocol.c: protocol transcripts, commands in and answers checked,
 * run in-process (so the sanitizers see the protocol code) and, for the
 * command line, against the real ./denham binary. With DENHAM_ENGINE set
 * (make test-wasm) every transcript runs through that engine instead: the
 * WebAssembly build under Node, single-threaded (helpers.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../protocol/common/engine_proc.h"
#include "../bench/tools/long_game.h"
#include "../engine/core/timeman.h"
#include "../engine/games/variants.h"
#include "../protocol/ugi/prepare_wait.h"
#include "../protocol/ugi/protocol.h"
#include "helpers.h"

static const char *run(const char *input);

/* Runs `input` after selecting Brandubh, which most transcripts here use. */
static const char *run_bdb(const char *input)
{
    static char buf[16384];
    snprintf(buf, sizeof buf, "setoption name UCI_Variant value brandubh\n%s", input);
    return run(buf);
}

/* Runs the protocol on `input`; returns its whole output (static). */
static const char *run(const char *input)
{
    static char *out_buf;
    free(out_buf);
    out_buf = protocol_transcript(input, strlen(input));
    return out_buf;
}

/* ---- the real binary, driven line by line: tests that wait for an event
 * (a line) rather than for a time, so that a loaded machine only makes them
 * slower (issue 34) ---- */

#define EVENT_WAIT_MS 60000

static void engine_up(eproc_t *e)
{
    *e = (eproc_t){0};
    ck_assert(eproc_start(e, engine_command(), NULL));
}

/* Reads until a line that starts with prefix, failing the test on a line
 * starting with `forbidden` (NULL: none) or at the deadline; the line is
 * returned (static). */
static const char *await_line(eproc_t *e, const char *prefix, const char *forbidden)
{
    static char line[EPROC_LINE_MAX];
    int64_t deadline = timeman_now_ms() + EVENT_WAIT_MS;
    for (;;) {
        ck_assert_int_eq(eproc_read_line(e, line, sizeof line, deadline), EPROC_LINE);
        ck_assert_msg(!forbidden || strncmp(line, forbidden, strlen(forbidden)) != 0, "unexpected '%s'", line);
        if (strncmp(line, prefix, strlen(prefix)) == 0)
            return line;
    }
}

static int count_lines_starting(const char *out, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *l = out; l && *l;) {
        if (strncmp(l, prefix, len) == 0)
            n++;
        l = strchr(l, '\n');
        if (l)
            l++;
    }
    return n;
}

/* The text after `prefix` on the first line that starts with it. */
static const char *line_after(const char *out, const char *prefix)
{
    static char buf[4096];
    size_t len = strlen(prefix);
    for (const char *l = out; l && *l;) {
        if (strncmp(l, prefix, len) == 0) {
            const char *end = strchr(l, '\n');
            size_t n = end ? (size_t)(end - l) - len : strlen(l + len);
            if (n >= sizeof buf)
                n = sizeof buf - 1;
            memcpy(buf, l + len, n);
            buf[n] = 0;
            return buf;
        }
        l = strchr(l, '\n');
        if (l)
            l++;
    }
    return NULL;
}

START_TEST(uci_handshake)
{
    const char *out = run("uci\n");
    ck_assert(strstr(out, "id name Denham ") == out);
    ck_assert(strstr(out, "id author "));
    ck_assert(strstr(out, "option name Hash type spin default 16"));
    char threads[96];
    snprintf(threads, sizeof threads, "option name Threads type spin default 1 min 1 max %d\n", engine_threads_max());
    ck_assert_msg(strstr(out, threads), "no '%s' in %s", threads, out);
    ck_assert(strstr(out, "option name MultiPV type spin default 1 min 1 max 64\n"));
    ck_assert(strstr(out, "option name Skill Level type spin default 20 min 0 max 20\n"));
    ck_assert(strstr(out, "option name UCI_Variant type combo default brax var brax var brax-zillions var brax-easy "
                          "var brax-hunt var brax-3p var brax-4p var brandubh var brandubh-v2 var bolix var jinxx var jinxx-3p "
                          "var jinxx-4p\n"));
    ck_assert(strstr(out, "\nuciok\n"));
    out = run("ugi\nisready\n");
    ck_assert(strstr(out, "\nugiok\nreadyok\n"));
}
END_TEST

START_TEST(position_and_board)
{
    const char *out = run_bdb("position startpos moves d2c2 e4e3\nd\n");
    ck_assert_str_eq(line_after(out, "Fen: "), "3a3/3a3/3d3/aadk1aa/3dd2/2a4/3a3 a");
    out = run_bdb("position fen 3a3/3a3/3d3/aadk1aa/3dd2/2a4/3a3 a moves c2c1\nd\n");
    ck_assert_str_eq(line_after(out, "Fen: "), "3a3/3a3/3d3/aadk1aa/3dd2/7/2aa3 d");
}
END_TEST

START_TEST(bad_input_keeps_the_state)
{
    static const char *const bad[] = {
        "position fen 3a3/3a3 a\n",
        "position fen 3a3/3a3 a moves d2c2\n",
        "position fen\n",
        "position\n",
        "position startpos junk\n",
        "setoption name Hash value abc\n",
        "setoption name Hash value 0\n",
        "setoption name Nonsense value 1\n",
        "setoption name UCI_Variant value chess\n",
        "setoption\n",
        "go depth x\n",
        "go depth\n",
        "go sideways 3\n",
        "go perft 0\n",
        "frobnicate\n",
        "query\n",
        "query weather\n",
        "bench x\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char input[512];
        snprintf(input, sizeof input, "position startpos moves d2c2\n%sd\n", bad[i]);
        const char *out = run_bdb(input);
        ck_assert_msg(count_lines_starting(out, "info string error: ") == 1, "'%s' gave: %s", bad[i], out);
        ck_assert_str_eq(line_after(out, "Fen: "), "3a3/3a3/3d3/aadkdaa/3d3/2a4/3a3 d");
        ck_assert_int_eq(count_lines_starting(out, "bestmove"), 0);
    }
}
END_TEST

START_TEST(moves_lists_every_legal_move)
{
    const char *out = run_bdb("moves\n");
    const char *list = line_after(out, "moves");
    int n = 0;
    for (const char *c = list; *c; c++)
        n += *c == ' ';
    ck_assert_int_eq(n, 40);
    ck_assert(strstr(list, " d2c2"));
}
END_TEST

START_TEST(go_perft_divides)
{
    const char *out = run_bdb("go perft 3\n");
    ck_assert_str_eq(line_after(out, "Nodes searched: "), "39512");
    /* One line per root move, and the lines add up to the total. */
    long sum = 0;
    int lines = 0;
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char mv[8];
        long c;
        if (sscanf(l, "%7[a-g1-7]: %ld", mv, &c) == 2) {
            sum += c;
            lines++;
        }
    }
    ck_assert_int_eq(lines, 40);
    ck_assert_int_eq(sum, 39512);
}
END_TEST

START_TEST(go_depth_reports_and_answers_once)
{
    const char *out = run_bdb("go depth 5\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    const char *info = line_after(out, "info depth 5 ");
    ck_assert_ptr_nonnull(info);
    ck_assert(strstr(info, "seldepth "));
    ck_assert(strstr(info, "score cp "));
    ck_assert(strstr(info, " nodes "));
    ck_assert(strstr(info, " nps "));
    ck_assert(strstr(info, " hashfull "));
    ck_assert_ptr_null(strstr(info, " tbhits ")); /* Brandubh has no solved endings */
    ck_assert(strstr(info, " time "));
    ck_assert(strstr(info, " pv "));
    char move[16];
    ck_assert_int_eq(sscanf(line_after(out, "bestmove "), "%15s", move), 1);
    char input[128];
    snprintf(input, sizeof input, "position startpos moves %s\nd\n", move);
    ck_assert_int_eq(count_lines_starting(run_bdb(input), "info string error"), 0);
}
END_TEST

/* Past 3 s a search also says which root move it is on (UCI's currmove
 * and currmovenumber), as Stockfish does; shorter searches do not. The long
 * search is infinite and stopped once the first currmove line has come. */
START_TEST(long_searches_report_the_current_root_move)
{
    ck_assert_int_eq(count_lines_starting(run_bdb("go depth 5\n"), "info depth 5 currmove"), 0);
    eproc_t e;
    engine_up(&e);
    ck_assert(eproc_send(&e, "setoption name UCI_Variant value brandubh"));
    ck_assert(eproc_send(&e, "go infinite"));
    const char *line;
    do
        line = await_line(&e, "info ", "bestmove");
    while (!strstr(line, " currmove "));
    char move[16];
    int depth, number;
    ck_assert_int_eq(sscanf(line, "info depth %d currmove %15s currmovenumber %d", &depth, move, &number), 3);
    ck_assert_int_ge(number, 1);
    ck_assert(eproc_send(&e, "stop"));
    await_line(&e, "bestmove ", NULL);
    eproc_stop(&e, 2000);
    char input[128];
    snprintf(input, sizeof input, "position startpos moves %s\n", move);
    ck_assert_int_eq(count_lines_starting(run_bdb(input), "info string error"), 0);
}
END_TEST

START_TEST(infinite_waits_for_stop)
{
    const char *out = run("go infinite\nisready\nstop\nisready\n");
    ck_assert_int_eq(count_lines_starting(out, "readyok"), 2);
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    /* The bestmove waits for stop: after the first readyok, before the second. */
    const char *first = strstr(out, "readyok");
    const char *best = strstr(out, "bestmove ");
    ck_assert(first && best && first < best);
    ck_assert_ptr_nonnull(strstr(best, "readyok"));
}
END_TEST

START_TEST(clock_and_movetime_searches_answer)
{
    const char *out = run("go wtime 2000 btime 2000 winc 10 binc 10\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    out = run("go p1time 500 p2time 500\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    out = run("go movetime 50\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    out = run("go nodes 3000\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
}
END_TEST

/* Move Overhead is kept back from every time limit (issue 34: ignoring it
 * went unnoticed). Bolix's start never ends a search early, so without an
 * overhead a movetime search runs to its end, with one it stops that much
 * before. Measured around the whole command: load can only lengthen the
 * first, and the second ends 900 ms early whatever the load, once the
 * engine's start (another build's process: Node and its compile) is taken
 * off, measured just before. */
START_TEST(move_overhead_is_kept_back)
{
    int64_t start = timeman_now_ms();
    const char *out = run("setoption name UCI_Variant value bolix\nsetoption name Move Overhead value 0\n"
                          "go movetime 1000\n");
    int64_t plain = timeman_now_ms() - start;
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    start = timeman_now_ms();
    run("setoption name UCI_Variant value bolix\nisready\n");
    int64_t start_up = timeman_now_ms() - start;
    start = timeman_now_ms();
    out = run("setoption name UCI_Variant value bolix\nsetoption name Move Overhead value 900\ngo movetime 1000\n");
    int64_t kept = timeman_now_ms() - start - start_up;
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    ck_assert_msg(plain >= 950 && kept < 700, "movetime 1000: %lld ms, with overhead 900: %lld ms", (long long)plain,
                  (long long)kept);
}
END_TEST

/* Commands of up to 1,024 words are read whole; a longer one is refused,
 * never cut short and misread (`position` reads its own line: any length). */
START_TEST(long_commands_are_read_whole_or_refused)
{
    static char input[65536];
    const game_t *g = variants_find("bolix");
    position_t pos;
    g->set_start(&pos);
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(&pos, moves);
    ck_assert_int_gt(n, 40);
    size_t len = (size_t)snprintf(input, sizeof input, "setoption name UCI_Variant value bolix\ngo searchmoves");
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(&pos, moves[i], text, sizeof text);
        len += (size_t)snprintf(input + len, sizeof input - len, " %s", text);
    }
    len += (size_t)snprintf(input + len, sizeof input - len, " depth 2\ngo depth 1");
    for (int i = 0; i < 1100; i++)
        len += (size_t)snprintf(input + len, sizeof input - len, " depth 1");
    snprintf(input + len, sizeof input - len, "\nisready\n");
    const char *out = run(input);
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    ck_assert_int_eq(count_lines_starting(out, "info depth 2 "), 1);
    ck_assert_int_eq(count_lines_starting(out, "info string error: the command has more than 1024 words"), 1);
    ck_assert_int_eq(count_lines_starting(out, "info string error: "), 1);
}
END_TEST

START_TEST(queries)
{
    const char *out = run_bdb("query gameover\nquery p1turn\nquery result\n");
    ck_assert_str_eq(out, "response false\nresponse true\nresponse none\n");
    /* Attackers capture the king: p1 (the attackers) win. */
    char fen[GAME_FEN_MAX], input[512];
    bdb_fen(fen, "b2 g2 a6", "e6", "c2", 'a');
    snprintf(input, sizeof input, "position fen %s moves g2d2\nquery gameover\nquery p1turn\nquery result\n", fen);
    ck_assert_str_eq(run_bdb(input), "response true\nresponse false\nresponse p1win\n");
    bdb_fen(fen, "d1 d6 f4", "e5", "c1", 'd');
    snprintf(input, sizeof input, "position fen %s moves c1a1\nquery result\ngo depth 3\n", fen);
    out = run_bdb(input);
    ck_assert(strstr(out, "response p2win\n") == out);
    ck_assert(strstr(out, "bestmove (none)\n"));
    /* Threefold repetition. */
    bdb_fen(fen, "b6", "c2", "f4", 'a');
    snprintf(input, sizeof input,
             "position fen %s moves b6b5 c2c3 b5b6 c3c2 b6b5 c2c3 b5b6 c3c2\nquery result\nmoves\n", fen);
    ck_assert_str_eq(run_bdb(input), "response draw\nmoves\n");
}
END_TEST

/* Brax, the default: a call is part of the move text, and the forced
 * reply shows in `moves` and `d`. */
START_TEST(brax_transcript)
{
    const char *out = run("position fen 8b/9/9/9/9/9/9/9/r7r r - 0\nd\n");
    ck_assert_str_eq(line_after(out, "Fen: "), "8b/9/9/9/9/9/9/9/r7r r - 0");
    out = run("position fen 1b1b5/9/2b6/3r5/9/9/9/9/r8 r - 0 moves d6d7+\nd\nmoves\nquery p1turn\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error"), 0);
    ck_assert(strstr(out, "braxed: must move"));
    ck_assert_str_eq(line_after(out, "Fen: "), "1b1b5/9/2br5/9/9/9/9/9/r8 b r 1");
    ck_assert(strstr(out, "response false"));
    out = run("go perft 3\n");
    ck_assert_str_eq(line_after(out, "Nodes searched: "), "4992");
    out = run("position startpos moves e1e3 e9e7 e3e3\nd\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: illegal move 'e3e3'"), 1);
}
END_TEST

/* Bolix: placements, a capture with its removal, ko, and the position
 * string's hands. */
/* The team games: who moves, who is in, results named by the team's first
 * seat, pass in a move list, per-team eval, the board's player letters,
 * and a clocked search that reads North's clock (p3time). */
START_TEST(brax_team_transcript)
{
    const char *out = run("setoption name UCI_Variant value brax-4p\n"
                          "position startpos moves e1e2\nquery turn\nquery players\nquery p1turn\nquery chance\n"
                          "position fen 4R4/9/9/9/8B/9/9/B8/bB1rr4 b - - - 0\nmoves\n"
                          "position fen 4R4/9/9/9/8B/9/9/B8/bB1rr4 b - - - 0 moves pass\nquery turn\n"
                          "position fen 9/9/9/9/9/9/9/9/rb7 r - - - 0\nquery players\n"
                          "position fen 9/9/9/9/9/9/9/9/rb7 r - - - 0 moves a1b1\nquery gameover\nquery result\n"
                          "position startpos\neval\nd\n"
                          "position startpos moves e1e2 a5b5\ngo p1time 1000 p2time 1000 p3time 0 p4time 1000 p3inc 200\n");
    ck_assert_str_eq(line_after(out, "response "), "p2");
    ck_assert(strstr(out, "response 4 p1 p2 p3 p4\nresponse false\nresponse false\n"));
    ck_assert(strstr(out, "moves pass\n"));
    ck_assert(strstr(out, "response p3\n"));
    ck_assert(strstr(out, "response 4 p1 p2\n"));
    ck_assert(strstr(out, "response true\nresponse p1win\n"));
    ck_assert(strstr(out, "term               red team  blue team      total\n"));
    ck_assert(strstr(out, " 1  + b + b + r S r S b S b + r + r +\n")); /* South drawn as S */
    ck_assert(strstr(out, "Fen: 3RRR3/9/9/b7B/b7B/b7B/9/9/3rrr3 r - - - 0\n"));
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    ck_assert(!strstr(out, "error"));

    out = run("setoption name UCI_Variant value brax-3p\n"
              "position startpos moves b1b2 c9c8 d9d8\nquery turn\nd\n"
              "position fen 9/9/9/9/9/9/9/9/bR7 b2 - - - 0 moves a1b1\nquery result\n");
    ck_assert(strstr(out, "response p3\n"));
    ck_assert(strstr(out, "Fen: 4bbb2/2bb5/9/9/9/9/9/1r7/2rr1RRR1 R - - - 3\n"));
    ck_assert(strstr(out, "response p2win\n"));
}
END_TEST

/* Jinxx: faces as moves before a roll, go refused there, the roll in the
 * move list, eval per player, the random mover, the new options. */
START_TEST(jinxx_transcript)
{
    const char *out = run("setoption name UCI_Variant value jinxx-3p\nposition startpos\nmoves\nquery chance\ngo depth 2\n"
                          "position startpos moves SM M@b1\nquery turn\nquery chance\neval\n"
                          "position startpos moves SM M@b1 L\nquery chance\ngo depth 3\n");
    ck_assert(strstr(out, "moves S M L SM SL ML\nresponse true\ninfo string error: the die is still to be rolled"));
    ck_assert(strstr(out, "response p2\nresponse true\nterm                  South       West      North\n"));
    ck_assert(strstr(out, "Evaluation (side to move, West): "));
    ck_assert(strstr(out, "response false\n"));
    ck_assert_int_eq(count_lines_starting(out, "bestmove L@"), 1);

    /* A face that is no roll forfeits nothing and says what it is. */
    out = run("setoption name UCI_Variant value jinxx\nposition startpos moves SM M@b1\nposition startpos moves XL\n"
              "query gameover\nd\n");
    ck_assert_msg(strstr(out, "info string error: 'XL' is not a roll of the die here (the rolls: S M L SM SL ML)\n"
                              "response false\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "Fen: .,.,./.,.,./.,M1S1,. 313/333 p2 - 0\n"), "%s", out);

    out = run("setoption name UCI_Variant value jinxx\nsetoption name Strength value random\n"
              "setoption name MultiplayerSearch value brs\nsetoption name ChancePruning value star1\n"
              "setoption name ChancePruning value star3\nsetoption name Strength value weak\n"
              "position startpos moves ML\ngo depth 9\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: "), 2);
    const char *best = line_after(out, "bestmove ");
    /* South's legal moves with ML are the entries M@ and L@ of its trees. */
    ck_assert(best && (best[0] == 'M' || best[0] == 'L') && best[1] == '@' && strchr("abc", best[2]) && best[3] == '1');
    ck_assert_int_eq(count_lines_starting(out, "info depth"), 0); /* no search */
}
END_TEST

/* Issue 30, item 2: a refused command after an illegal move brought back
 * the game saved at that illegal move (of another variant, after a switch). */
START_TEST(refused_commands_never_bring_back_a_stale_position)
{
    const char *out = run("setoption name UCI_Variant value brax\nposition startpos moves eeeeeeeeee\n"
                          "position startpos moves e1e3 e9e7\nd\nposition fen\nd\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: "), 2);
    const char *after = "Fen: 1bbb1bbb1/9/4b4/9/9/9/4r4/9/1rrr1rrr1 r - 2\n";
    const char *first = strstr(out, after);
    ck_assert_msg(first && strstr(first + 1, after), "%s", out);

    static const char *const switches[] = {"jinxx-4p", "brax", "bolix", "brax-3p"};
    static const char *const starts[] = {".,.,./.,.,./.,.,. 333/333/333/333 p1 - 0",
                                         "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0",
                                         "6/7/8/9/10/10/9/8/7/6 b 36 36 - 0", NULL};
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++) {
        char input[512];
        snprintf(input, sizeof input,
                 "setoption name UCI_Variant value brandubh-v2\nposition startpos moves zz\n"
                 "position startpos moves yy\nsetoption name UCI_Variant value %s\nposition fen x\nd\n"
                 "position fen x moves a1\nd\nmoves\n",
                 switches[i]);
        out = run(input);
        ck_assert_msg(count_lines_starting(out, "info string error: ") == 4, "%s: %s", switches[i], out);
        if (starts[i]) {
            char want[128];
            snprintf(want, sizeof want, "Fen: %s\n", starts[i]);
            const char *at = strstr(out, want);
            ck_assert_msg(at && strstr(at + 1, want), "%s: %s", switches[i], out);
        }
        ck_assert_msg(!strstr(out, "9/9/9/9/9/9/9/9/9"), "%s: %s", switches[i], out);
    }
}
END_TEST

/* Issue 30, item 3: a runner waits for exactly one bestmove per go. */
START_TEST(go_before_the_roll_answers_bestmove_none)
{
    for (int players = 2; players <= 4; players++) {
        char input[256];
        snprintf(input, sizeof input, "setoption name UCI_Variant value jinxx%s\nposition startpos moves SM M@b1\n"
                 "go depth 3\ngo movetime 50\nisready\n", players == 2 ? "" : players == 3 ? "-3p" : "-4p");
        const char *out = run(input);
        ck_assert_int_eq(count_lines_starting(out, "info string error: the die is still to be rolled"), 2);
        ck_assert_int_eq(count_lines_starting(out, "bestmove (none)"), 2);
        ck_assert_int_eq(count_lines_starting(out, "bestmove"), 2);
    }
}
END_TEST

/* Issue 14, defects 1-5: every one was accepted, wrapped, cut short,
 * misread or left running before. */
START_TEST(hostile_input_is_refused_not_misread)
{
    /* 1, 2: huge Bolix runs and counters, a wrapping Brax count. */
    const char *out = run("setoption name UCI_Variant value bolix\n"
                          "position fen 2147483647b/7/8/9/10/10/9/8/7/6 b 35 36 - 0\n"
                          "position fen 4294967295b5/7/8/9/10/10/9/8/7/6 b 35 36 - 0\n"
                          "position fen 6/7/8/9/10/10/9/8/7/6 b 36 4294967332 - 0\n"
                          "setoption name UCI_Variant value brax\n"
                          "position fen 1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 4294967296\nd\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: bad FEN"), 4);
    ck_assert(strstr(out, "Fen: 1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0\n"));

    /* 3: a value or FEN that does not fit is refused, not cut short. */
    static char input[4096];
    size_t n = (size_t)snprintf(input, sizeof input, "setoption name Hash value ");
    for (int i = 0; i < 253; i++)
        input[n++] = '0';
    n += (size_t)snprintf(input + n, sizeof input - n, "16x\nposition fen 1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - ");
    for (int i = 0; i < 500; i++)
        input[n++] = '0';
    snprintf(input + n, sizeof input - n, "5junk\nd\n");
    out = run(input);
    ck_assert(strstr(out, "info string error: setoption: the name or value is longer than 255 characters\n"));
    ck_assert(strstr(out, "info string error: the FEN is too long\n"));
    ck_assert(strstr(out, "Fen: 1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0\n"));

    /* 4: CR LF line ends. */
    out = run("position startpos moves e1e3\r\nd\r\nquery p1turn\r\n");
    ck_assert(!strstr(out, "error"));
    ck_assert(strstr(out, "response false\n"));

    /* 5: end of input stops a search that has no limit of its own (none,
     * or a clock for the other player only), and a NUL byte does not turn
     * a line into another command. */
    out = run("go\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    out = run("go btime 1000\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    static const char nul_line[] = "go\0 depth 1\nisready\n";
    char *buf = protocol_transcript(nul_line, sizeof nul_line - 1);
    ck_assert_str_eq(buf, "info string error: the line contains a NUL byte\nreadyok\n");
    free(buf);
}
END_TEST

/* Issue 14, defect 8: go perft and bench run like a search: isready is
 * answered at once, stop ends them with one line, and the command loop
 * goes on (they used to block stop, isready and quit). */
START_TEST(perft_and_bench_do_not_block)
{
    const char *out = run("go perft 64\nisready\nstop\nisready\ngo perft 2\n");
    ck_assert(strncmp(out, "readyok\ninfo string perft stopped\nreadyok\n", 42) == 0);
    ck_assert(strstr(out, "Nodes searched: 256\n"));
    out = run("bench 60\nisready\nstop\nisready\nbench 1\n");
    ck_assert(strncmp(out, "readyok\n", 8) == 0);
    ck_assert(strstr(out, "info string bench stopped\nreadyok\n"));
    ck_assert_int_eq(count_lines_starting(out, "Nodes searched"), 1); /* the second bench only */
}
END_TEST

/* What a strict UGI runner sends (issue 13): options it does not know, its
 * opening line as "position fen startpos moves ..." and the game appended
 * with a second "moves"; bestmove must be exactly two tokens. */
START_TEST(strict_ugi_runner_transcript)
{
    /* Two sessions: a runner waits for each bestmove before going on. */
    static char first[16384];
    const char *out = run("ugi\nsetoption name Threads value 1\nsetoption name Hash value 16\nisready\n"
                          "isready\nuginewgame\nposition fen startpos moves e1e3\nquery p1turn\nisready\n"
                          "query gameover\ngo p1time 1000 p2time 1000 p1inc 10 p2inc 10\n");
    snprintf(first, sizeof first, "%s", out);
    ck_assert_int_eq(count_lines_starting(first, "info string error: "), 0);
    ck_assert(strstr(first, "readyok\nreadyok\nresponse false\nreadyok\nresponse false\n"));
    out = run("ugi\nposition fen startpos moves e1e3 moves e9e7 d1d2\nquery p1turn\nd\n"
              "go p1time 990 p2time 990 p1inc 10 p2inc 10\n");
    ck_assert(!strstr(out, "error"));
    ck_assert(strstr(out, "response false\n"));
    ck_assert(strstr(out, "Fen: 1bbb1bbb1/9/4b4/9/9/9/4r4/3r5/1rr2rrr1 b - 3\n"));
    const char *sessions[2] = {first, out};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(count_lines_starting(sessions[i], "bestmove "), 1);
        const char *b = strstr(sessions[i], "bestmove ");
        const char *end = strchr(b, '\n');
        int spaces = 0;
        for (const char *c = b; c < end; c++)
            spaces += *c == ' ';
        ck_assert_msg(spaces == 1, "bestmove line with %d spaces", spaces);
    }
}
END_TEST

/* What an illegal move's line says of text that is no Brandubh move. */
#define BDB_NOTATION "it is not a move in Brandubh notation: a move is its start and end square, such as d2c2"

/* Issue 13: a runner that never checks moves sees a game with an illegal
 * move end, lost by the offender; the next valid position repairs it. */
START_TEST(illegal_move_loses_for_the_offender)
{
    const char *out = run_bdb("position startpos moves d2c2 zz\nquery gameover\nquery result\nmoves\n"
                              "go p1time 1000 p2time 1000\nposition startpos moves d2c2\nquery gameover\n"
                              "query result\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: "), 1);
    ck_assert(strstr(out, "info string error: illegal move 'zz': " BDB_NOTATION "\nresponse true\nresponse p1win\nmoves\n"
                          "info string the game is over\nbestmove (none)\nresponse false\nresponse none\n"));
    out = run_bdb("position startpos moves zz\nquery result\nd\n");
    ck_assert(strstr(out, "response p2win\n"));
    ck_assert_str_eq(line_after(out, "Fen: "), "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a");
    /* Teams: West (p2) offends, the red team wins, named by South. */
    out = run("setoption name UCI_Variant value brax-4p\nposition startpos moves e1e2 e1e2\nquery result\n");
    ck_assert(strstr(out, "response p1win\n"));
    /* Free for all: the others share the game. */
    out = run("setoption name UCI_Variant value jinxx-3p\nposition startpos moves S Ma1b1\nquery gameover\n"
              "query result\n");
    ck_assert(strstr(out, "response true\nresponse draw\n"));
    /* A bad face is the roller's error: the position stays as it was. */
    out = run("setoption name UCI_Variant value jinxx\nposition startpos moves S\nposition startpos moves XL\n"
              "query gameover\nquery chance\n");
    ck_assert(strstr(out, "response false\nresponse false\n"));
}
END_TEST

/* go searchmoves restricts the root (UCI); a bad list is one error line. */
START_TEST(go_searchmoves)
{
    const char *out = run_bdb("go depth 4 searchmoves d7c7\n");
    ck_assert_str_eq(line_after(out, "bestmove "), "d7c7");
    out = run_bdb("go depth 4 searchmoves d7c7 d2c2 nodes 100000\n");
    const char *best = line_after(out, "bestmove ");
    ck_assert_msg(strcmp(best, "d7c7") == 0 || strcmp(best, "d2c2") == 0, "%s", best);
    static const char *const bad[] = {"go searchmoves\n", "go depth 3 searchmoves zz\n", "go searchmoves d1d2\n"};
    for (int i = 0; i < 3; i++) {
        out = run_bdb(bad[i]);
        ck_assert_int_eq(count_lines_starting(out, "info string error: go searchmoves: "), 1);
        ck_assert_int_eq(count_lines_starting(out, "bestmove"), 0);
    }
}
END_TEST

/* go mate n (UCI): the search ends at the first iteration that finds a
 * win in n moves or fewer, and without a depth limit at depth 4n; a bad
 * n, or a game with dice, is one error line and no search. */
START_TEST(go_mate)
{
    /* A mate in 3 (5 plies) for the defenders: the capture d4g4 outscores
     * it until depth 4 in brandubh-v2 (the free king prizes it) and 5 in
     * brandubh (the square of the attackers lost); the search stops there,
     * not at depth 12 */
    const char *out = run("setoption name UCI_Variant value brandubh-v2\n"
                          "position fen 1a2a2/3a2a/2dd3/a2k3/d2a3/3a3/1a2d2 d\ngo mate 3\n");
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    ck_assert_int_eq(count_lines_starting(out, "info depth 4 seldepth "), 1);
    ck_assert_int_eq(count_lines_starting(out, "info depth 5 "), 0);
    ck_assert(strstr(out, " score mate 3 "));
    out = run_bdb("go mate 1\n"); /* none in the start position: depth 4, then the answer */
    ck_assert_int_eq(count_lines_starting(out, "info depth 4 seldepth "), 1);
    ck_assert_int_eq(count_lines_starting(out, "info depth 5 "), 0);
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    out = run_bdb("go mate 1 depth 6\n"); /* a depth limit of its own wins */
    ck_assert_int_eq(count_lines_starting(out, "info depth 6 seldepth "), 1);
    static const char *const bad[] = {"go mate 0\n", "go mate 32\n", "go mate\n", "go mate 1 searchmoves\n"};
    for (int i = 0; i < 4; i++) {
        out = run_bdb(bad[i]);
        ck_assert_int_eq(count_lines_starting(out, "info string error: go"), 1);
        ck_assert_int_eq(count_lines_starting(out, "bestmove"), 0);
    }
    /* Well formed but not for dice (issue 62, 1.3): the reason, and the
     * one bestmove every well-formed go gets. */
    out = run("setoption name UCI_Variant value jinxx\nposition startpos moves SM\ngo mate 2\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: go mate: a game with dice"), 1);
    ck_assert_str_eq(strstr(out, "info string error: go mate"),
                     "info string error: go mate: a game with dice has no forced mates (scores are expected values)\n"
                     "bestmove (none)\n");
}
END_TEST

/* Issue 62, 1.11: an unknown go parameter is named as unknown, a known one
 * without its number as such; a negative clock is taken as 0 (a flag
 * fallen, as some GUIs send it), other numbers must be in their range. */
START_TEST(go_parameters_named_and_negative_clocks)
{
    const char *out = run_bdb("go foo 3\ngo depth x\ngo depth -1\n");
    ck_assert_str_eq(out, "info string error: go: unknown parameter 'foo' (help lists them)\n"
                          "info string error: go: 'depth' needs a whole number\n"
                          "info string error: go: bad or unknown parameter 'depth -1'\n");
    out = run_bdb("go wtime -100 btime 1000 winc -5\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error"), 0);
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
}
END_TEST

/* A solved Brax ending (two men against one, won in 29 plies): the mate
 * from the first iteration, its pv played out to the capture of the last
 * man. */
START_TEST(solved_ending_reports_its_mate_and_whole_line)
{
    const char *out = run("ucinewgame\nposition fen 9/9/9/9/9/9/9/9/b1r4r1 r - 0\ngo depth 2\n");
    ck_assert_int_eq(count_lines_starting(out, "info depth 1 seldepth 1 score mate 15 "), 1);
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    const char *last = strstr(out, "info depth 2 ");
    ck_assert_ptr_nonnull(last);
    /* Depth 1 takes every node but the root from the table. */
    unsigned long long nodes = 0, hits = 0;
    const char *first = strstr(out, " nodes ");
    ck_assert_msg(first && sscanf(first, " nodes %llu nps %*u hashfull %*d tbhits %llu", &nodes, &hits) == 2, "%s",
                  out);
    ck_assert_uint_eq(hits, nodes - 1);
    const char *pv = strstr(last, " pv ");
    ck_assert_ptr_nonnull(pv);
    int moves = 0;
    for (const char *c = pv + 3; *c && *c != '\n'; c++)
        moves += *c == ' ';
    ck_assert_int_eq(moves, 29);
    out = run("position fen 9/9/5r3/9/9/4r4/9/9/3b5 r - 0\ngo depth 4\n"); /* drawn */
    ck_assert_int_eq(count_lines_starting(out, "info depth 4 seldepth "), 1);
    ck_assert(strstr(out, " score cp 0 "));
    /* The start is far from any table: the count is there, and nothing in it. */
    out = run("position startpos\ngo depth 3\n");
    ck_assert_msg(strstr(line_after(out, "info depth 3 "), " hashfull ") &&
                  strstr(line_after(out, "info depth 3 "), " tbhits 0 time "), "%s", out);
}
END_TEST

/* A position command that extends the last one only plays its new moves;
 * the result must be what a fresh parse gives, repetition included. */
/* Skill Level 0: depth 1 only, four lines reported, the move played one of
 * them, and in some of a few positions not the first; bad values refused;
 * 20 is the full search. */
START_TEST(skill_level_weakens_the_choice)
{
    /* Sessions draw their own choices: in each of 16 positions the first
     * line wins the draw in about a third of them, so all 16 have about
     * one chance in 10^7. */
    static const char *const first[] = {"e1e3", "d1c2", "b1b2", "c1c2", "g1g2", "d1d2", "f1f2", "h1h2"};
    int off_first = 0;
    for (int i = 0; i < 16; i++) {
        char input[200];
        snprintf(input, sizeof input, "setoption name Skill Level value 0\nposition startpos moves %s\ngo depth 6\n",
                 first[i % 8]);
        const char *out = run(input);
        ck_assert_int_eq(count_lines_starting(out, "info depth 1 seldepth 1 multipv "), 4);
        ck_assert_int_eq(count_lines_starting(out, "info depth 2 "), 0);
        char move[16], best[16];
        ck_assert_int_eq(sscanf(line_after(out, "bestmove "), "%15s", move), 1);
        ck_assert_int_eq(sscanf(strstr(out, " multipv 1 "), " multipv 1 score cp %*d nodes %*u nps %*u hashfull %*d "
                                                           "tbhits %*u time %*d pv %15s", best), 1);
        char want[40];
        snprintf(want, sizeof want, " pv %s\n", move);
        ck_assert_msg(strstr(out, want), "%s is none of the lines in %s", move, out);
        off_first += strcmp(move, best) != 0;
    }
    ck_assert_int_gt(off_first, 0);
    const char *out = run_bdb("setoption name Skill Level value -1\nsetoption name Skill Level value 21\n"
                              "setoption name Skill Level value 20\ngo depth 3\n");
    const char *refused = "info string error: Skill Level must be a whole number from 0 to 20";
    ck_assert_int_eq(count_lines_starting(out, refused), 2);
    ck_assert_int_eq(count_lines_starting(out, "info depth 3 seldepth "), 1);
    ck_assert_ptr_null(strstr(out, "multipv"));
}
END_TEST

/* Threads and MultiPV: k lines per depth, numbered, the first the answer;
 * bad values refused with one line each and the old value kept. */
/* Two threads where the build has threads; a single-threaded build (the
 * WebAssembly one) refuses the second and searches on one. */
START_TEST(threads_and_multipv_options)
{
    char refused[96];
    snprintf(refused, sizeof refused, "info string error: Threads must be a whole number from 1 to %d",
             engine_threads_max());
    const char *out = run_bdb("setoption name Threads value 2\nsetoption name MultiPV value 3\ngo depth 4\n");
    ck_assert_int_eq(count_lines_starting(out, refused), engine_threads_max() < 2);
    ck_assert_int_eq(count_lines_starting(out, "info depth 4 "), 3);
    for (int k = 1; k <= 3; k++) {
        char want[64];
        snprintf(want, sizeof want, "info depth 4 seldepth ");
        ck_assert_int_eq(count_lines_starting(out, want), 3);
        snprintf(want, sizeof want, " multipv %d score ", k);
        ck_assert_msg(strstr(out, want), "no line %d in %s", k, out);
    }
    const char *first = strstr(out, "info depth 4 ");
    ck_assert(first && strstr(first, " multipv 1 score ") < strchr(first, '\n'));
    const char *pv = strstr(first, " pv ") + 4;
    const char *best = line_after(out, "bestmove ");
    ck_assert_msg(strncmp(pv, best, strlen(best)) == 0 && pv[strlen(best)] == ' ', "%s", out);
    out = run_bdb("setoption name Threads value 0\nsetoption name Threads value 257\nsetoption name Threads value 2x\n"
                  "setoption name MultiPV value 0\nsetoption name MultiPV value 65\ngo depth 2\n");
    ck_assert_int_eq(count_lines_starting(out, refused), 3);
    ck_assert_int_eq(count_lines_starting(out, "info string error: MultiPV must be a whole number from 1 to 64"), 2);
    ck_assert_int_eq(count_lines_starting(out, "info depth 2 "), 1);
    ck_assert(!strstr(out, "multipv"));
}
END_TEST

START_TEST(extending_position_commands)
{
    static char input[4096];
    static const char *const lap[] = {"d2c2", "d3c3", "c2d2", "c3d3"};
    size_t n = (size_t)snprintf(input, sizeof input, "setoption name UCI_Variant value brandubh\n");
    char game[256] = "startpos moves";
    for (int ply = 0; ply < 8; ply++) {
        strcat(game, " ");
        strcat(game, lap[ply % 4]);
        n += (size_t)snprintf(input + n, sizeof input - n, "position %s\nquery gameover\n", game);
    }
    /* Then: an extension with an illegal move, a repair, a longer token. */
    n += (size_t)snprintf(input + n, sizeof input - n,
                          "position startpos moves d2c2\nposition startpos moves d2c2 zz\nquery result\n"
                          "position startpos moves d2c2\nquery gameover\nposition startpos moves d2c2x\n"
                          "position startpos moves d2c2 moves d3c3\nd\n");
    const char *out = run(input);
    /* The start position comes back after plies 4 and 8: the third time ends the game. */
    const char *expected = "response false\nresponse false\nresponse false\nresponse false\n"
                           "response false\nresponse false\nresponse false\nresponse true\n"
                           "info string error: illegal move 'zz': " BDB_NOTATION "\nresponse p1win\nresponse false\n"
                           "info string error: illegal move 'd2c2x': " BDB_NOTATION "\n";
    ck_assert_msg(strncmp(out, expected, strlen(expected)) == 0, "%s", out);
    ck_assert_str_eq(line_after(out, "Fen: "), "3a3/3a3/3d3/aadkdaa/2d4/2a4/3a3 a");
}
END_TEST

/* Issue 13: no cap on game length; the runner's whole game in one line. */
START_TEST(position_with_100000_moves)
{
    char final_fen[GAME_FEN_MAX];
    char *text = long_game_text(variants_find("brax"), "9/9/9/9/4b4/9/9/9/r7r r - 0", 100000, 7, final_fen,
                                sizeof final_fen);
    ck_assert_ptr_nonnull(text);
    size_t len = strlen(text) + 200;
    char *input = malloc(len);
    ck_assert_ptr_nonnull(input);
    snprintf(input, len, "position %s\nd\nquery gameover\ngo depth 2\n", text);
    const char *out = run(input);
    ck_assert_int_eq(count_lines_starting(out, "info string error"), 0);
    ck_assert_str_eq(line_after(out, "Fen: "), final_fen);
    ck_assert(strstr(out, "response false\n"));
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    free(input);
    free(text);
}
END_TEST

/* The table is sized at the first isready or go (issue 13): a bench run
 * straight after start-up must use the Hash size, which shows in its node
 * count, equal to the command line's. */
START_TEST(table_sized_before_the_first_search)
{
    static char cli[256];
    snprintf(cli, sizeof cli, "%s", line_after(engine_shell("bench brandubh 5"), "Nodes searched  : "));
    const char *out = run("setoption name UCI_Variant value brandubh\nbench 5\n");
    ck_assert_str_eq(line_after(out, "Nodes searched  : "), cli);
    out = run("setoption name Hash value 16384\nsetoption name Hash value 8\nisready\ngo depth 2\n");
    ck_assert(!strstr(out, "error"));
    ck_assert(strstr(out, "readyok\n"));
}
END_TEST

/* Issue 62, 1.2: the first search of a fresh engine near Brax's solved
 * endings waited for their table (84-97 ms) before it could stop. Each
 * case is a fresh ./denham, so that nothing has built the table yet, and
 * each asserts an order of events or a count, never a time:
 * - isready builds the table: a timed search after it probes it from its
 *   first iteration (tbhits; a timed search never waits for the table);
 * - a search without a time limit before any isready waits for the table
 *   (built on another thread) and probes it, as after isready; a timed
 *   one starts at once; neither answers unsearched;
 * - `go infinite` and `stop` at once: one bestmove, whether the stop came
 *   during the wait (the first legal move, said to be unsearched) or not. */
#define THREE_MEN "position fen 9/9/9/9/9/9/9/9/b1r4r1 r - 0" /* two men against one */
#define UNSEARCHED "info string the solved endings were still being built"
START_TEST(endings_never_hold_up_stop)
{
    eproc_t e;
    engine_up(&e);
    ck_assert(eproc_send(&e, THREE_MEN) && eproc_send(&e, "isready"));
    await_line(&e, "readyok", NULL);
    ck_assert(eproc_send(&e, "go movetime 10000"));
    const char *info = await_line(&e, "info depth 1 ", UNSEARCHED);
    ck_assert_msg(strstr(info, " score mate 15 nodes 12 ") && strstr(info, " tbhits 11 "), "%s", info);
    ck_assert(eproc_send(&e, "stop"));
    await_line(&e, "bestmove ", UNSEARCHED);
    eproc_stop(&e, 2000);

    engine_up(&e);
    ck_assert(eproc_send(&e, THREE_MEN) && eproc_send(&e, "go depth 1"));
    info = await_line(&e, "info depth 1 ", UNSEARCHED);
    ck_assert_msg(strstr(info, " score mate 15 nodes 12 ") && strstr(info, " tbhits 11 "), "%s", info);
    ck_assert_str_eq(await_line(&e, "bestmove ", "info"), "bestmove c1c2");
    eproc_stop(&e, 2000);

    engine_up(&e);
    ck_assert(eproc_send(&e, "setoption name Move Overhead value 0") && eproc_send(&e, THREE_MEN) &&
              eproc_send(&e, "go movetime 1"));
    await_line(&e, "bestmove ", UNSEARCHED);
    ck_assert(eproc_send(&e, "go depth 1")); /* the build went on meanwhile; waited for now */
    info = await_line(&e, "info depth 1 ", UNSEARCHED);
    /* The solved endings' score, from probes: not their exact count, since
     * what the 1 ms search stored in the table, if it got that far, spares
     * a probe or two (tbhits 10 or 11, one run in six). */
    const char *hits = strstr(info, " tbhits ");
    ck_assert_msg(strstr(info, " score mate 15 ") && hits && atoi(hits + 8) > 0, "%s", info);
    eproc_stop(&e, 2000);

    engine_up(&e);
    ck_assert(eproc_send(&e, THREE_MEN) && eproc_send(&e, "go infinite") && eproc_send(&e, "stop") &&
              eproc_send(&e, "isready"));
    int answers = 0;
    for (const char *l = await_line(&e, "", NULL); strcmp(l, "readyok") != 0; l = await_line(&e, "", NULL))
        answers += strncmp(l, "bestmove ", 9) == 0;
    ck_assert_int_eq(answers, 1);
    eproc_stop(&e, 2000);
}
END_TEST

/* The wait itself, on a game whose build runs until the test lets it end:
 * giving up is answered while the build runs, whatever it does; one build
 * however often it is asked for; a built game answers at once. */
static atomic_bool fake_release, fake_done;
static atomic_int fake_builds;

static void fake_prepare(void)
{
    atomic_fetch_add(&fake_builds, 1);
    while (!atomic_load(&fake_release)) {
        struct timespec ms = {0, 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    atomic_store(&fake_done, true);
}

static bool fake_prepared(void) { return atomic_load(&fake_done); }

static bool give_up_now(void *ctx)
{
    (*(int *)ctx)++;
    return true;
}

static bool release_at_the_fifth(void *ctx)
{
    if (++*(int *)ctx == 5)
        atomic_store(&fake_release, true);
    return false;
}

START_TEST(prepare_wait_answers_while_building)
{
    static const game_t fake = {.name = "fake", .prepare = fake_prepare, .prepared = fake_prepared};
    int asked = 0;
    ck_assert(!prepare_wait(&fake, give_up_now, &asked));
    ck_assert_int_eq(asked, 1);
    ck_assert(!fake_prepared()); /* the build is still running: nothing waited for it */
    prepare_start(&fake);
    ck_assert(!prepare_wait(&fake, give_up_now, &asked));
    asked = 0;
    ck_assert(prepare_wait(&fake, release_at_the_fifth, &asked));
    ck_assert_int_ge(asked, 5);
    ck_assert_int_eq(atomic_load(&fake_builds), 1);
    asked = 0;
    ck_assert(prepare_wait(&fake, give_up_now, &asked));
    ck_assert_int_eq(asked, 0);
}
END_TEST

START_TEST(bolix_transcript)
{
    const char *out = run("setoption name UCI_Variant value bolix\nposition startpos moves e5 e6 a1 e7 e8\nd\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: illegal move 'e8'"), 1);
    out = run("setoption name UCI_Variant value bolix\nposition startpos moves e5 e6 a1 e7 e8xe6\nd\nmoves\n"
              "query gameover\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error"), 0);
    ck_assert_str_eq(line_after(out, "Fen: "), "b5/7/8/9/4b1wb2/10/9/8/7/6 w 33 35 e6 0");
    ck_assert(!strstr(line_after(out, "moves"), " e6 "));
    ck_assert(strstr(out, "response false"));
    out = run("setoption name UCI_Variant value bolix\ngo perft 2\n");
    ck_assert_str_eq(line_after(out, "Nodes searched: "), "6320");
}
END_TEST

START_TEST(variant_option_selects_the_game)
{
    const char *out = run("setoption name UCI_Variant value brandubh-v2\nd\n");
    ck_assert(strstr(out, "(version 2)"));
    ck_assert_str_eq(line_after(out, "Fen: "), "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a");
    out = run("setoption name Hash value 8\nsetoption name Clear Hash\nsetoption name Move Overhead value 10\nd\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error"), 0);
    /* Issue 34: any case; an unknown name lists the valid ones; a missing
     * `value` is named as such. */
    out = run("setoption name UCI_Variant value Brandubh-V2\nd\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error"), 0);
    ck_assert(strstr(out, "(version 2)"));
    out = run("setoption name UCI_Variant value chess\nsetoption name UCI_Variant brandubh\n"
              "setoption name skill level 3\nd\n");
    ck_assert_msg(strstr(out, "info string error: unknown variant 'chess' (the variants: brax, brax-zillions, "
                              "brax-easy, brax-hunt, brax-3p, brax-4p, brandubh, brandubh-v2, bolix, jinxx, "
                              "jinxx-3p, jinxx-4p)\n"),
                  "%s", out);
    ck_assert(strstr(out, "info string error: setoption: 'value' is missing: setoption name UCI_Variant value "
                          "brandubh\n"));
    ck_assert(strstr(out, "info string error: setoption: 'value' is missing: setoption name Skill Level value 3\n"));
    ck_assert_str_eq(line_after(out, "Fen: "), "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0");
}
END_TEST

/* Issue 34: `help` lists the commands and where to read more; an unknown
 * command points to it. */
START_TEST(help_lists_the_commands)
{
    const char *out = run("help\nfrobnicate\n");
    static const char *const commands[] = {"\ninfo string   uci | ugi ", "\ninfo string   isready ",
                                           "\ninfo string   setoption name", "\ninfo string   ucinewgame ",
                                           "\ninfo string   position startpos|fen", "\ninfo string   go [depth",
                                           "\ninfo string   go perft", "\ninfo string   stop | ponderhit | quit",
                                           "\ninfo string   d | moves | eval ", "\ninfo string   bench [depth]",
                                           "\ninfo string   query gameover", "\ninfo string   help "};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        ck_assert_msg(strstr(out, commands[i]), "no '%s' in %s", commands[i] + 1, out);
    ck_assert(strstr(out, "PROTOCOL.md") && strstr(out, "docs/rules/"));
    ck_assert(strstr(out, "info string error: unknown command 'frobnicate' (help lists the commands)\n"));
    ck_assert_int_eq(count_lines_starting(out, "info string error"), 1);
}
END_TEST

START_TEST(eval_and_bench)
{
    /* The network's: one term and no weights. */
    const char *out = run_bdb("setoption name UseNetwork value true\neval\n");
    ck_assert(strstr(out, "\nnetwork "));
    ck_assert(!strstr(out, "material"));
    ck_assert(strstr(out, "\nThe network evaluates (UseNetwork): the weights are not used.\n"));
    /* The hand-written one's: its terms and weights. */
    out = run_bdb("setoption name UseNetwork value false\neval\n");
    nets_default();
    ck_assert(strstr(out, "material"));
    /* The weights: name, value, each side's coefficient, the contribution. */
    ck_assert(strstr(out, "\nweight                value  attackers  defenders      total\n"));
    ck_assert(strstr(out, "\nattacker                100          8          0        800\n"));
    ck_assert(strstr(out, "\ndefender                160          0          4       -640\n"));
    ck_assert(line_after(out, "Evaluation (side to move, attackers): "));
    out = run_bdb("bench 4\n");
    ck_assert_int_eq(count_lines_starting(out, "info string bench position"), 6);
    char first[64];
    snprintf(first, sizeof first, "%s", line_after(out, "Nodes searched  : "));
    /* run_bdb() reuses its buffer: `out` is not read after this. */
    ck_assert_str_eq(line_after(run_bdb("bench 4\n"), "Nodes searched  : "), first);
}
END_TEST

START_TEST(binary_transcript_and_subcommands)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "printf 'uci\\nsetoption name UCI_Variant value brandubh\\nposition startpos moves d2c2\\n"
             "go depth 4\\n' | %s", engine_command());
    const char *out = shell(cmd);
    ck_assert(strstr(out, "uciok\n"));
    ck_assert_int_eq(count_lines_starting(out, "bestmove "), 1);
    out = engine_shell("perft brandubh 3");
    ck_assert_str_eq(line_after(out, "Nodes searched: "), "39512");
    out = engine_shell("perft brandubh-v2 2 '3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a'");
    ck_assert_str_eq(line_after(out, "Nodes searched: "), "960");
    snprintf(cmd, sizeof cmd, "%s perft nosuchgame 2 2>/dev/null", engine_command());
    ck_assert_int_eq(system(cmd) >> 8, 2);
    snprintf(cmd, sizeof cmd, "%s frob 2>/dev/null", engine_command());
    ck_assert_int_eq(system(cmd) >> 8, 2);
    out = engine_shell("bench brandubh 3");
    ck_assert_ptr_nonnull(line_after(out, "Nodes/second    : "));
}
END_TEST

/* The node count of the last info line before bestmove (0: none). */
static unsigned long long last_info_nodes(const char *out)
{
    unsigned long long nodes = 0;
    for (const char *at = strstr(out, " nodes "); at; at = strstr(at + 1, " nodes "))
        sscanf(at, " nodes %llu", &nodes);
    return nodes;
}

/* Issue 34: bench searched plain expectimax while go used Star2, so the
 * committed counts never covered the Jinxx search users get. Now bench
 * searches each position exactly as go does with the same options: the
 * same node count as `go depth` on a fresh table, option by option. */
START_TEST(bench_searches_as_go_does)
{
    static const char *const options[] = {"Threads value 1", "ChancePruning value expectimax",
                                          "MultiplayerSearch value brs", "ChancePruning value star1",
                                          "MultiPV value 2", "Skill Level value 10"};
    const game_t *g = variants_find("jinxx-3p");
    unsigned long long first = 0;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char input[512];
        snprintf(input, sizeof input, "setoption name UCI_Variant value jinxx-3p\nsetoption name %s\nbench 4\n",
                 options[i]);
        const char *bench = line_after(run(input), "info string bench position 1: nodes ");
        ck_assert_ptr_nonnull(bench);
        unsigned long long bench_nodes = strtoull(bench, NULL, 10);
        snprintf(input, sizeof input,
                 "setoption name UCI_Variant value jinxx-3p\nsetoption name %s\nposition fen %s\ngo depth 4\n",
                 options[i], g->bench_fens[0]);
        unsigned long long go_nodes = last_info_nodes(run(input));
        ck_assert_msg(bench_nodes == go_nodes && go_nodes > 0, "%s: bench %llu, go %llu", options[i], bench_nodes,
                      go_nodes);
        if (i == 0)
            first = bench_nodes;
        else if (i < 3) /* each of these searches differently */
            ck_assert_msg(bench_nodes != first, "%s: the same count as the default", options[i]);
    }
}
END_TEST

/* Issue 11: the node count of `./denham bench <variant>` is the one
 * committed in bench/speed/bench-nodes.txt, so any change of search behaviour
 * shows in review. */
START_TEST(bench_node_counts_are_the_committed_ones)
{
    FILE *f = fopen("bench/speed/bench-nodes.txt", "r");
    ck_assert_ptr_nonnull(f);
    char line[256], variant[64];
    unsigned long long want;
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%63s %llu", variant, &want) != 2)
            continue;
        char args[128], got[32];
        snprintf(args, sizeof args, "bench %s", variant);
        snprintf(got, sizeof got, "%llu", want);
        const char *n = line_after(engine_shell(args), "Nodes searched  : ");
        ck_assert_msg(n && strcmp(n, got) == 0, "bench %s: %s nodes, committed %s", variant, n ? n : "none", got);
        checked++;
    }
    fclose(f);
    ck_assert_int_eq(checked, 12);
}
END_TEST

/* Pondering (UCI): go ponder searches with no time limit until ponderhit,
 * then within its own limit; a `ponder` token only after uci with the
 * Ponder option on. */
START_TEST(pondering)
{
    eproc_t e;
    engine_up(&e);
    ck_assert(eproc_send(&e, "uci"));
    ck_assert(eproc_send(&e, "setoption name Ponder value true"));
    ck_assert(eproc_send(&e, "go ponder movetime 100"));
    /* It goes on past its 100 ms while pondering (no bestmove, no error)
     * until an iteration reports 300 ms or more; then ponderhit starts the
     * clock and the answer names a ponder move. */
    for (;;) {
        const char *line = await_line(&e, "info ", "bestmove");
        ck_assert_msg(!strstr(line, "error"), "%s", line);
        const char *t = strstr(line, " time ");
        if (t && atoi(t + 6) >= 300)
            break;
    }
    ck_assert(eproc_send(&e, "ponderhit"));
    const char *best = await_line(&e, "bestmove ", "info string error");
    ck_assert_msg(strstr(best, " ponder "), "%s", best);
    /* stop ends a ponder search of any depth. */
    ck_assert(eproc_send(&e, "go ponder depth 60"));
    await_line(&e, "info depth 2 ", "bestmove");
    ck_assert(eproc_send(&e, "stop"));
    await_line(&e, "bestmove ", "info string error");
    eproc_stop(&e, 2000);
    /* ugi, or Ponder off, never names a ponder move. */
    const char *out;
    out = run("ugi\nsetoption name Ponder value true\ngo depth 4\n");
    ck_assert_msg(!strstr(line_after(out, "bestmove "), " "), "%s", out);
    out = run("uci\ngo depth 4\n");
    ck_assert_msg(!strstr(line_after(out, "bestmove "), " "), "%s", out);
    out = run("uci\nponderhit\nsetoption name Ponder value maybe\n");
    ck_assert_int_eq(count_lines_starting(out, "info string error: "), 2);
    ck_assert(strstr(out, "option name Ponder type check default false\n"));
}
END_TEST

/* A search that ended by itself does not block the next one: each `go`
 * here is sent after the previous answer, as a GUI would. */
START_TEST(consecutive_searches)
{
    eproc_t e;
    engine_up(&e);
    static const char *const steps[][2] = {
        {"go depth 3", NULL}, {"position startpos moves e1e3", "go depth 3"}, {"go nodes 2000", NULL}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        for (int k = 0; k < 2 && steps[i][k]; k++)
            ck_assert(eproc_send(&e, steps[i][k]));
        await_line(&e, "bestmove ", "info string error");
    }
    ck_assert(eproc_send(&e, "isready"));
    await_line(&e, "readyok", "bestmove");
    eproc_stop(&e, 2000);
}
END_TEST

Suite *suite_protocol(void)
{
    Suite *s = suite_create("protocol");
    TCase *tc = tcase_create("transcripts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, uci_handshake);
    tcase_add_test(tc, position_and_board);
    tcase_add_test(tc, bad_input_keeps_the_state);
    tcase_add_test(tc, moves_lists_every_legal_move);
    tcase_add_test(tc, go_perft_divides);
    tcase_add_test(tc, go_depth_reports_and_answers_once);
    tcase_add_test(tc, consecutive_searches);
    tcase_add_test(tc, infinite_waits_for_stop);
    tcase_add_test(tc, clock_and_movetime_searches_answer);
    tcase_add_test(tc, move_overhead_is_kept_back);
    tcase_add_test(tc, long_commands_are_read_whole_or_refused);
    tcase_add_test(tc, queries);
    tcase_add_test(tc, brax_transcript);
    tcase_add_test(tc, bolix_transcript);
    tcase_add_test(tc, brax_team_transcript);
    tcase_add_test(tc, jinxx_transcript);
    tcase_add_test(tc, hostile_input_is_refused_not_misread);
    tcase_add_test(tc, refused_commands_never_bring_back_a_stale_position);
    tcase_add_test(tc, go_before_the_roll_answers_bestmove_none);
    tcase_add_test(tc, perft_and_bench_do_not_block);
    tcase_add_test(tc, strict_ugi_runner_transcript);
    tcase_add_test(tc, illegal_move_loses_for_the_offender);
    tcase_add_test(tc, position_with_100000_moves);
    tcase_add_test(tc, extending_position_commands);
    tcase_add_test(tc, go_searchmoves);
    tcase_add_test(tc, go_mate);
    tcase_add_test(tc, endings_never_hold_up_stop);
    tcase_add_test(tc, prepare_wait_answers_while_building);
    tcase_add_test(tc, go_parameters_named_and_negative_clocks);
    tcase_add_test(tc, solved_ending_reports_its_mate_and_whole_line);
    tcase_add_test(tc, long_searches_report_the_current_root_move);
    tcase_add_test(tc, threads_and_multipv_options);
    tcase_add_test(tc, skill_level_weakens_the_choice);
    tcase_add_test(tc, pondering);
    tcase_add_test(tc, table_sized_before_the_first_search);
    tcase_add_test(tc, variant_option_selects_the_game);
    tcase_add_test(tc, help_lists_the_commands);
    tcase_add_test(tc, eval_and_bench);
    tcase_add_test(tc, binary_transcript_and_subcommands);
    tcase_add_test(tc, bench_node_counts_are_the_committed_ones);
    tcase_add_test(tc, bench_searches_as_go_does);
    suite_add_tcase(s, tc);
    return s;
}
