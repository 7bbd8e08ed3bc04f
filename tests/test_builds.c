/* test_builds.c: what every build of the engine must answer through its
 * command line, run against ./denham or, with DENHAM_ENGINE set (make
 * test-wasm), against another build (the WebAssembly one under Node): the
 * whole perft suite of bench/speed/perft.txt, every line at its deepest
 * count (make bench checks the shallower ones in this process). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && strchr(" \t\r\n", e[-1]))
        *--e = 0;
    return s;
}

START_TEST(perft_suite_at_its_deepest_counts)
{
    FILE *f = fopen("bench/speed/perft.txt", "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *name = strtok(line, "|"), *fen = strtok(NULL, "|"), *counts = strtok(NULL, "|");
        ck_assert_msg(name && fen && counts, "a malformed line in perft.txt");
        name = trim(name);
        fen = trim(fen);
        int depth = 0;
        const char *want = NULL;
        for (char *c = strtok(counts, " \t\n"); c; c = strtok(NULL, " \t\n"))
            want = c, depth++;
        char args[256];
        snprintf(args, sizeof args, "perft %s %d '%s'", name, depth, fen);
        const char *out = engine_shell(args);
        const char *got = strstr(out, "Nodes searched: ");
        char expected[64];
        snprintf(expected, sizeof expected, "Nodes searched: %s\n", want);
        ck_assert_msg(got && strncmp(got, expected, strlen(expected)) == 0, "%s %s: %.60s, expected %s", engine_command(),
                      args, got ? got : out, want);
        lines++;
    }
    fclose(f);
    ck_assert_int_ge(lines, 34);
}
END_TEST

Suite *suite_builds(void)
{
    Suite *s = suite_create("builds");
    TCase *tc = tcase_create("perft");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, perft_suite_at_its_deepest_counts);
    suite_add_tcase(s, tc);
    return s;
}
