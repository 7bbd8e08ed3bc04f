/* test_fuzz.c: every input in tests/fuzz/corpus (the seeds, what the fuzzer
 * found interesting, and every crash reproducer once fixed) through its
 * fuzz target, so that no fixed defect can come back unnoticed. The
 * targets abort on a broken invariant, which fails the test. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/targets.h"
#include "helpers.h"

/* Runs every file of tests/fuzz/corpus/<target>; returns how many. */
static int replay(const fuzz_target_t *t)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", t->name);
    DIR *d = opendir(dir);
    ck_assert_msg(d, "no corpus folder %s", dir);
    int files = 0;
    static uint8_t buf[1 << 16];
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        t->run(buf, n);
        files++;
    }
    closedir(d);
    return files;
}

START_TEST(fuzz_corpus_replays)
{
    const fuzz_target_t *t = &fuzz_targets[_i];
    ck_assert_int_gt(replay(t), 0);
}
END_TEST

Suite *suite_fuzz(void)
{
    Suite *s = suite_create("fuzz");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, fuzz_corpus_replays, 0, fuzz_target_count);
    suite_add_tcase(s, tc);
    return s;
}
