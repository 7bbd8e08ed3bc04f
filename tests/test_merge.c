/* test_merge.c: games files and `denham-match --merge`: shards merged are
 * the one run, summary line for line; a run the SPRT stopped merges to
 * what the run printed; and every way a merge once miscounted (a file cut
 * at a line, a block of zeros, a shard empty or absent, another match's
 * shard with the same engines' names) is refused, the games missing named. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* A summary with its Endings line's items sorted: they are listed in the
 * order met, which differs between one run and a merge of its shards. */
static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char *normalized(const char *summary)
{
    char *out = malloc(strlen(summary) + 2), *o = out;
    const char *c = summary;
    while (*c) {
        size_t len = strcspn(c, "\n");
        if (strncmp(c, "Endings: ", 9) == 0) {
            char buf[2048], *items[32], *save = NULL;
            int n = 0;
            snprintf(buf, sizeof buf, "%.*s", (int)len - 9, c + 9);
            for (char *t = strtok_r(buf, ",", &save); t && n < 32; t = strtok_r(NULL, ",", &save))
                items[n++] = t + (*t == ' ');
            qsort(items, (size_t)n, sizeof items[0], by_text);
            o += sprintf(o, "Endings:");
            for (int k = 0; k < n; k++)
                o += sprintf(o, " %s;", items[k]);
        } else {
            memcpy(o, c, len);
            o += len;
        }
        c += len;
        if (*c == '\n')
            *o++ = *c++;
    }
    *o = 0;
    return out;
}

/* N shards merged are the one run, game for game and line for line (W-D-L,
 * Elo, LOS, pairs, SPRT, forfeits, endings, seats), at fixed depth: run
 * through bench/cluster/shard.sh with Slurm's array variables set by hand,
 * one shard per process, then merged (bench/cluster/merge.sh). (0/5 cannot
 * decide in 7 pairs, so the one run plays all 14 games, as the shards do.) */
START_TEST(shards_merged_equal_one_run)
{
    const char *args = "--variant brandubh --engine name=deep cmd=./denham depth=3 --engine name=shallow "
                       "cmd=./denham depth=2 --games 14";
    char cmd[1024];
    shell("rm -rf build/shards && mkdir -p build/shards");
    snprintf(cmd, sizeof cmd, "./denham-match %s --games-file build/shards/one.txt --sprt 0 5 0.05 0.05 --quiet", args);
    char *one = normalized(shell(cmd));
    snprintf(cmd, sizeof cmd,
             "for k in 1 2 3; do SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=3 bench/cluster/shard.sh match "
             "build/shards/out %s > /dev/null 2>&1 & done; wait",
             args);
    shell(cmd);
    ck_assert_str_eq(shell("ls build/shards/out"), "shard-1.txt\nshard-2.txt\nshard-3.txt\n");
    /* Shard 2 of 3 holds the pairs 1 and 4: games 3, 4, 9, 10. */
    ck_assert_str_eq(shell("grep -v '^#' build/shards/out/shard-2.txt | cut -f1 | sort -n | tr '\\n' ' '"), "3 4 9 10 ");
    ck_assert_str_eq(shell("grep -c '^#shard.2/3$' build/shards/out/shard-2.txt"), "1\n");
    char *games_one = strdup(shell("grep -v '^#' build/shards/one.txt | sort -n | md5sum"));
    ck_assert_str_eq(shell("grep -hv '^#' build/shards/out/shard-*.txt | sort -n | md5sum"), games_one);
    char *merged = normalized(shell("bench/cluster/merge.sh build/shards/out --sprt 0 5 0.05 0.05"));
    ck_assert_str_eq(merged, one);
    ck_assert(strstr(merged, "Match deep vs shallow, brandubh, 14 games\n"));
    ck_assert(strstr(merged, "\nForfeits by shallow: time 0, illegal move 0, crash 0\n"));
    ck_assert(strstr(merged, "\nSeat p2: deep won "));
    ck_assert(strstr(merged, ", no decision\n"));
    char *kept = normalized(shell("cat build/shards/out/result.txt"));
    ck_assert_str_eq(kept, merged);
    /* The shards' own SPRT is taken when --sprt is not given (none here). */
    ck_assert(!strstr(shell("./denham-match --merge build/shards/out/shard-*.txt"), "SPRT"));
    /* No decision: exit status 3. */
    ck_assert_int_eq(system("./denham-match --merge build/shards/out/shard-*.txt --sprt 0 5 0.05 0.05 >/dev/null") >> 8, 3);
    ck_assert_int_eq(system("./denham-match --merge build/shards/out/shard-*.txt >/dev/null") >> 8, 0);
    /* A shard twice, a missing file, a free-for-all game: refused. */
    const char *out = shell("./denham-match --merge build/shards/out/shard-1.txt build/shards/out/shard-1.txt 2>&1; "
                            "echo exit=$?");
    ck_assert_msg(strstr(out, "shard 1/3 again") && strstr(out, "exit=2"), "%s", out);
    ck_assert_int_eq(system("./denham-match --merge build/shards/none.txt 2>/dev/null") >> 8, 2);
    shell("./denham-match --variant jinxx-3p --engine cmd=./denham --engine cmd=./denham --each depth=1 --games 6 "
          "--games-file build/shards/ffa.txt --quiet");
    ck_assert(strstr(shell("./denham-match --merge build/shards/ffa.txt 2>&1"), "free-for-all"));
    ck_assert(strstr(shell("./denham-match --variant brax --engine cmd=./denham --engine cmd=./denham --each depth=1 "
                           "--shard 1/2 2>&1"), "--shard needs --games-file"));
    ck_assert(strstr(shell("./denham-match --variant brax --engine cmd=./denham --engine cmd=./denham --each depth=1 "
                           "--shard 3/2 --games-file x 2>&1"), "--shard takes K/N"));
    free(one);
    free(games_one);
    free(merged);
    free(kept);
}
END_TEST

/* The merge's message and status for the files given. */
static const char *merge_of(const char *files)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd build/merge && ../../denham-match --merge %s 2>&1 >/dev/null; echo exit=$?", files);
    return shell(cmd);
}

static void refused(const char *files, const char *message)
{
    const char *out = merge_of(files);
    ck_assert_msg(strstr(out, message) && strstr(out, "\nexit=2\n"), "merge %s: wanted '%s', got: %s", files, message,
                  out);
}

/* Each way a merge once counted wrong, refused with what is wrong: 12
 * games in 3 shards (4 each: the pairs k-1, k+2 of shard k). */
START_TEST(a_merge_cannot_miscount)
{
    shell("rm -rf build/merge && mkdir -p build/merge");
    const char *args = "--variant brandubh --engine name=a cmd=../../denham depth=1 --engine name=b "
                       "cmd=../../denham depth=1 --games 12 --seed 3 --quiet";
    char cmd[1024];
    for (int k = 1; k <= 3; k++) {
        snprintf(cmd, sizeof cmd, "cd build/merge && ../../denham-match %s --shard %d/3 --games-file shard-%d.txt", args,
                 k, k);
        shell(cmd);
    }
    ck_assert_str_eq(merge_of("shard-1.txt shard-2.txt shard-3.txt"), "exit=0\n");
    /* Cut at a line boundary: the last two games and the last line gone. */
    shell("cd build/merge && head -n -3 shard-2.txt > cut.txt");
    refused("shard-1.txt cut.txt shard-3.txt",
            "cut.txt: the run did not finish (no #over line: killed, or still playing): games ");
    /* Cut inside its last game's moves, with every game there but no
     * #over: the count would be right, the record not. */
    shell("cd build/merge && head -n -1 shard-2.txt | head -c -30 > tailcut.txt");
    refused("shard-1.txt tailcut.txt shard-3.txt", "tailcut.txt:");
    ck_assert(strstr(merge_of("shard-1.txt tailcut.txt shard-3.txt"), "the file ends inside this line"));
    /* A game line lost from the middle, the last line kept. */
    shell("cd build/merge && awk '!/^[0-9]/ || n++ != 1' shard-2.txt > lost.txt");
    refused("shard-1.txt lost.txt shard-3.txt", "lost.txt:");
    ck_assert(strstr(merge_of("shard-1.txt lost.txt shard-3.txt"), "its last line says 4 games, it holds 3"));
    /* A block of zeros where lines were. */
    shell("cd build/merge && { head -c 900 shard-2.txt; head -c 300 /dev/zero; tail -c +1201 shard-2.txt; } > zeros.txt");
    refused("shard-1.txt zeros.txt shard-3.txt", "a NUL byte: the file is damaged");
    /* An empty shard, and one absent: the games missing named. */
    shell("cd build/merge && : > empty.txt");
    refused("shard-1.txt empty.txt shard-3.txt", "empty.txt: empty");
    refused("shard-1.txt shard-3.txt", "2 of 3 shards given: games 3-4, 9-10 missing (--partial merges the shards given)");
    const char *out = shell("cd build/merge && ../../denham-match --merge --partial shard-1.txt shard-3.txt");
    ck_assert_msg(strstr(out, "Match a vs b, brandubh, 8 games (2 of 3 shards merged)\n"), "%s", out);
    /* Another match's shard with the same engines' names: refused by what differs. */
    shell("cd build/merge && ../../denham-match --variant brandubh --engine name=a cmd=../../denham depth=1 "
          "--engine name=b cmd=../../denham depth=2 --games 12 --seed 3 --quiet --shard 2/3 --games-file other.txt");
    refused("shard-1.txt other.txt shard-3.txt",
            "other.txt: another match than shard-1.txt: '#engine 2 limit depth=2' against '#engine 2 limit depth=1'");
    shell("cd build/merge && ../../denham-match --variant brandubh --engine name=a cmd=../../denham depth=1 "
          "--engine name=b cmd=../../denham depth=1 --games 12 --seed 4 --quiet --shard 2/3 --games-file seed.txt");
    refused("shard-1.txt seed.txt shard-3.txt", "'#seed 4' against '#seed 3'");
    shell("cd build/merge && ../../denham-match --variant brandubh --engine name=a cmd=../../denham depth=1 "
          "--engine name=b cmd=../../denham depth=1 --games 12 --seed 3 --quiet --shard 2/4 --games-file four.txt");
    refused("shard-1.txt four.txt", "'#shard K/4' against '#shard K/3'");
    /* A file of an older denham-match (no header), garbage, a game outside its shard. */
    shell("cd build/merge && grep -v '^#' shard-2.txt > old.txt && printf 'hello\\tworld\\n' > garbage.txt");
    refused("shard-1.txt old.txt shard-3.txt", "old.txt:1: no header: a games file of a denham-match older than format 1");
    refused("garbage.txt", "garbage.txt:1: no header");
    shell("cd build/merge && { grep '^#' shard-2.txt | grep -v '^#over'; grep -v '^#' shard-2.txt; "
          "grep -v '^#' shard-1.txt | head -1; echo '#over	5	complete'; } > stray.txt");
    refused("stray.txt", "game 1 is not one of shard 2/3's games of a match of 12");
    /* A run that stopped on an error. */
    shell("cd build/merge && ../../denham-match --variant brandubh --engine name=a cmd=/bin/false --engine name=b "
          "cmd=../../denham --each depth=1 --games 12 --games-file failed.txt --quiet 2>/dev/null");
    refused("failed.txt", "the run stopped on an error: engine 'a' (cmd=/bin/false) failed its handshake");
    /* Lines after the last, and a bad result (as before). */
    shell("cd build/merge && { cat shard-2.txt; grep -v '^#' shard-1.txt | head -1; } > after.txt && "
          "sed 's/\\t1-0\\t/\\t2-0\\t/; s/\\t0-1\\t/\\t2-0\\t/; s/\\t1\\/2-1\\/2\\t/\\t2-0\\t/' shard-2.txt > result.txt");
    refused("after.txt", "a line after the run's last line (#over)");
    refused("result.txt", "the result must be 1-0, 0-1 or 1/2-1/2");
}
END_TEST

/* A run that the SPRT stopped, four games at once: the merge of its games
 * file prints what the run printed, decision, pairs and the games that
 * finished after it (recorded apart) alike; merged with an SPRT that would
 * have played on (0/5), the file lacks the games that run would have
 * played, and is refused. (With 0/100, which decides sooner, it merges.) */
START_TEST(a_run_stopped_by_its_sprt_merges_as_it_ran)
{
    shell("mkdir -p build/merge");
    for (int i = 0; i < 3; i++) {
        char *run = strdup(shell("./denham-match --variant brandubh --engine name=d2 cmd=./denham depth=2 --engine "
                                 "name=rnd cmd=./denham option.Strength=random depth=1 --games 400 --concurrency 4 "
                                 "--sprt 0 50 0.05 0.05 --games-file build/merge/stopped.txt --quiet; echo exit=$?"));
        ck_assert_msg(strstr(run, ", H1 accepted\n") && strstr(run, "exit=0\n"), "%s", run);
        ck_assert_msg(strstr(run, "Pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2): 0 0 0 0 23\n"), "%s", run);
        char *merged = strdup(shell("./denham-match --merge build/merge/stopped.txt; echo exit=$?"));
        ck_assert_str_eq(merged, run);
        ck_assert(strstr(shell("tail -1 build/merge/stopped.txt"), "#over\t"));
        ck_assert(strstr(shell("tail -1 build/merge/stopped.txt"), "\tH1 accepted\n"));
        free(run);
        free(merged);
    }
    const char *out = merge_of("stopped.txt --sprt 0 5 0.05 0.05");
    ck_assert_msg(strstr(out, "the run was stopped when its SPRT H1 accepted; with this SPRT it does not decide") &&
                      strstr(out, "exit=2"),
                  "%s", out);
    ck_assert(strstr(merge_of("stopped.txt --sprt 0 100 0.05 0.05"), "exit=0"));
}
END_TEST

Suite *suite_merge(void)
{
    Suite *s = suite_create("merge");
    TCase *tc = tcase_create("merge");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, shards_merged_equal_one_run);
    tcase_add_test(tc, a_merge_cannot_miscount);
    tcase_add_test(tc, a_run_stopped_by_its_sprt_merges_as_it_ran);
    suite_add_tcase(s, tc);
    return s;
}
