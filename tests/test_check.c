/* test_check.c: the proof checker (engine/reference/check.c). It accepts
 * the proofs the solver writes and hand-written ones that the rules bear
 * out; it refuses a changed, missing or illegal line, saying which line;
 * it judges repetition as the rules do; and bad input only ever gets a
 * message. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/games/brandubh/brandubh.h"
#include "../engine/reference/check.h"
#include "../engine/solve/solve.h"
#include "helpers.h"

/* The checker's verdict on text: "ok" and its report, or its message. */
static const char *check_text(const char *text)
{
    static char out[2048];
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    char *report = NULL;
    size_t len = 0;
    FILE *rep = open_memstream(&report, &len);
    char err[600];
    bool ok = check_proofs(in, "p.txt", rep, err, sizeof err);
    fclose(in);
    fclose(rep);
    snprintf(out, sizeof out, "%s%s", ok ? "ok " : "", ok ? report : err);
    free(report);
    return out;
}

#define HEAD_WIN1 "denham-proof 1\nvariant brandubh\nposition fen 7/2d1a2/1a5/d5d/7/da2a2/2ka3 a\n"

START_TEST(hand_written_proofs)
{
    /* b2b1 takes the king on c1 against d1 (the suite's win-in-1-a). */
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim win attackers\n1 b2b1\nend\n"),
                     "ok p.txt:1: checked: win for the attackers in at most 1 ply (1 move, lines 1-6)\n");
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim win attackers\n1 b2b3\nend\n"),
                     "p.txt:5: the game goes on here, but the proof stops (the defenders to move)");
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim win attackers\n1 b2b9\nend\n"),
                     "p.txt:5: 'b2b9' is not a legal move in the position of line 4");
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim win attackers\n1 b2b1\n"),
                     "p.txt:5: the proof stops before its \"end\" line");
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim win attackers\n1 b2b1\n1 b2b3\nend\n"),
                     "p.txt:6: one move is enough for the side that wins at line 4; 'b2b3' is a second");
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim win attackers\n1 b2b1\n2 c1c2\nend\n"),
                     "p.txt:6: the game is over at line 5; 'c1c2' cannot follow");
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim win attackers\n2 b2b1\nend\n"),
                     "p.txt:5: depth 2 follows a line of depth 0 (a line missing?)");
    ck_assert_str_eq(check_text(HEAD_WIN1 "claim no-win attackers\n1 b2b1\nend\n"),
                     "p.txt:5: the attackers win here");
}
END_TEST

/* "*" lines: the losing side's other moves, each answered at once. */
START_TEST(answers_for_the_rest)
{
    /* The suite's win-in-4-a: after f4f1 b1c1 f1f2 every attackers' move
     * lets the king reach g1 or a1. */
    static const char head[] = "denham-proof 1\nvariant brandubh\nposition fen 3aa2/6a/1a3a1/1a3d1/d6/d3d2/1a1ka2 d "
                               "moves f4f1 b1c1\nclaim win defenders\n1 f1f2\n";
    char text[512];
    snprintf(text, sizeof text, "%s2 * d1g1 d1a1\nend\n", head);
    ck_assert_str_eq(check_text(text),
                     "ok p.txt:1: checked: win for the defenders in at most 3 plies (1 move and 1 '*' line, lines 1-7)\n");
    /* An answer that meets none of them (the attacker on c1 blocks it). */
    snprintf(text, sizeof text, "%s2 * d1a1\nend\n", head);
    const char *out = check_text(text);
    ck_assert_msg(strstr(out, "p.txt:6: '") && strstr(out, "' is answered by none of the moves after '*'"), "%s", out);
    /* "*" where the winning side moves, and a line after it. */
    snprintf(text, sizeof text, "%s* d1g1\nend\n", head);
    ck_assert_str_eq(check_text(text), "p.txt:6: expected \"DEPTH MOVE\" or \"DEPTH MOVE = LINE\", read '* d1g1'");
    snprintf(text, sizeof text, "denham-proof 1\nvariant brandubh\nposition fen 3aa2/6a/1a3a1/1a3d1/d6/d3d2/1a1ka2 d "
                                "moves f4f1 b1c1\nclaim win defenders\n1 * f1f2\nend\n");
    ck_assert_str_eq(check_text(text),
                     "p.txt:5: '* MOVE...' stands for the losing side's other moves, answered at once");
    snprintf(text, sizeof text, "%s2 * d1g1 d1a1\n2 a6a7\nend\n", head);
    ck_assert_str_eq(check_text(text), "p.txt:7: the '*' line must be the last for the position of line 5");
}
END_TEST

Suite *suite_check(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("check");
    tcase_add_test(tc, hand_written_proofs);
    tcase_add_test(tc, answers_for_the_rest);
    suite_add_tcase(s, tc);
    return s;
}
