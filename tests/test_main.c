/* test_main.c: runs every suite. */
#define _POSIX_C_SOURCE 200809L /* popen, mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

#include "../engine/core/record.h"
#include "../engine/games/variants.h"
#include "../engine/search/search.h"
#include "../protocol/ugi/net_option.h"
#include "../protocol/ugi/protocol.h"

void bdb_fen(char *out, const char *att, const char *def, const char *king, char side)
{
    char grid[7][7];
    memset(grid, '.', sizeof grid);
    const char *lists[3] = {att, def, king};
    const char letters[3] = {'a', 'd', 'k'};
    for (int i = 0; i < 3; i++)
        for (const char *c = lists[i]; *c;) {
            if (*c == ' ') {
                c++;
                continue;
            }
            grid[c[1] - '1'][c[0] - 'a'] = letters[i];
            c += 2;
        }
    int n = 0;
    for (int r = 6; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 7; f++) {
            if (grid[r][f] == '.') {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = grid[r][f];
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (r)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = side;
    out[n] = 0;
}

void load_fen(const game_t *g, position_t *pos, const char *fen)
{
    char err[160] = "";
    ck_assert_msg(g->parse_fen(pos, fen, err, sizeof err), "FEN '%s' rejected: %s", fen, err);
}

void play(const game_t *g, position_t *pos, const char *text)
{
    move_t m = g->parse_move(pos, text);
    ck_assert_msg(m != MOVE_NONE, "move %s is not legal in %s", text, fen_of(g, pos));
    undo_t u;
    g->make(pos, m, &u);
}

bool is_legal(const game_t *g, const position_t *pos, const char *text)
{
    return g->parse_move(pos, text) != MOVE_NONE;
}

const char *fen_of(const game_t *g, const position_t *pos)
{
    static char buf[GAME_FEN_MAX];
    g->write_fen(pos, buf, sizeof buf);
    return buf;
}

void nets_use(bool on) { net_option_use(on ? NET_USE_ALL : NET_USE_NONE); }

void nets_default(void) { net_option_use(NET_USE_AUTO); }

void nets_off(void) { nets_use(false); }

int trace_term(const eval_trace_t *t, const char *name, int team)
{
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->term[i].name, name) == 0)
            return t->term[i].value[team];
    ck_abort_msg("no evaluation term '%s'", name);
    return 0;
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

const char *legal_moves_of(const game_t *g, const char *fen)
{
    static char out[MAX_MOVES * GAME_MOVE_TEXT_MAX];
    static move_text_t texts[MAX_MOVES];
    position_t pos;
    load_fen(g, &pos, fen);
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(&pos, moves);
    for (int i = 0; i < n; i++)
        g->move_text(&pos, moves[i], texts[i], sizeof texts[i]);
    qsort(texts, (size_t)n, sizeof texts[0], cmp_text);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, texts[i]);
    }
    return out;
}

const char *fen_after(const game_t *g, const char *fen, const char *moves)
{
    static record_t r;
    static char text[2048];
    snprintf(text, sizeof text, "fen %s moves %s", fen, moves);
    char err[400];
    ck_assert_msg(record_setup(&r, g, text, err, sizeof err), "%s", err);
    return fen_of(g, &r.pos);
}

void assert_same_texts(move_text_t *a, move_text_t *b, int n)
{
    qsort(a, (size_t)n, sizeof a[0], cmp_text);
    qsort(b, (size_t)n, sizeof b[0], cmp_text);
    for (int i = 0; i < n; i++)
        ck_assert_str_eq(a[i], b[i]);
}

void play_checked(const game_t *g, position_t *pos, move_t m)
{
    position_t before = *pos;
    undo_t u;
    g->make(pos, m, &u);
    position_t after = *pos;
    g->unmake(pos, m, &u);
    ck_assert(memcmp(&before, pos, sizeof *pos) == 0);
    *pos = after;
}

void assert_matches_fen(const game_t *g, const position_t *pos, const char *ref_fen)
{
    ck_assert_str_eq(fen_of(g, pos), ref_fen);
    position_t fresh;
    load_fen(g, &fresh, ref_fen);
    ck_assert(memcmp(&fresh, pos, sizeof *pos) == 0);
    ck_assert_uint_eq(g->hash(&fresh), g->hash(pos));
}

const char *shell(const char *cmd)
{
    static char buf[1 << 17];
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = 0;
    pclose(p);
    return buf;
}

const char *engine_command(void)
{
    const char *e = getenv("DENHAM_ENGINE");
    return e && *e ? e : "./denham";
}

bool engine_is_other_build(void) { return strcmp(engine_command(), "./denham") != 0; }

int engine_threads_max(void) { return engine_is_other_build() ? 1 : SEARCH_THREADS_MAX; }

const char *engine_shell(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s", engine_command(), args);
    return shell(cmd);
}

char *protocol_transcript(const char *input, size_t len)
{
    char *out_buf = NULL;
    size_t out_len = 0;
    if (!engine_is_other_build()) {
        FILE *in = fmemopen((void *)input, len, "r");
        FILE *out = open_memstream(&out_buf, &out_len);
        ck_assert(in && out);
        ck_assert_int_eq(protocol_run(in, out), 0);
        fclose(in);
        fclose(out);
        return out_buf;
    }
    /* The other build reads the input from a file, as from a pipe. */
    char path[] = "build/transcript-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "no temporary file in build/");
    FILE *f = fdopen(fd, "w");
    ck_assert(f && fwrite(input, 1, len, f) == len && fclose(f) == 0);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "%s < %s", engine_command(), path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    FILE *out = open_memstream(&out_buf, &out_len);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
        fwrite(chunk, 1, n, out);
    int status = pclose(p);
    fclose(out);
    unlink(path);
    ck_assert_msg(status == 0, "%s: status %d", cmd, status);
    return out_buf;
}

/* Every suite, by the name CK_RUN_SUITE knows it by. */
static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
    {"core", suite_core},           {"brandubh", suite_brandubh},     {"reference", suite_reference},
    {"search", suite_search},       {"protocol", suite_protocol},     {"match", suite_match},
    {"sprt", suite_sprt},           {"merge", suite_merge},           {"brax", suite_brax},
    {"bolix", suite_bolix},         {"brax_team", suite_brax_team},   {"jinxx", suite_jinxx},
    {"eval", suite_eval},           {"learn", suite_learn},           {"nnue", suite_nnue},
    {"fuzz", suite_fuzz},           {"record", suite_record},         {"otep", suite_otep},
    {"cli", suite_cli},             {"describe", suite_describe},     {"why", suite_why},
    {"builds", suite_builds},       {"solve", suite_solve},           {"check", suite_check},
    {"serve", suite_serve},         {"web", suite_web},               {"web_learn", suite_web_learn},
    {"web_board", suite_web_board}, {"watch", suite_watch},           {"docs", suite_docs},
    {"web_static", suite_web_static},
};

/* Is name one of the space-separated words of list? */
static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *at = list; (at = strstr(at, name)); at += n)
        if ((at == list || at[-1] == ' ') && (at[n] == 0 || at[n] == ' '))
            return true;
    return false;
}

/* DENHAM_SKIP_SUITES leaves out the suites it names (make sanitize: those
 * that drive only other programs, which no sanitizer of ours sees). */
int main(void)
{
    const char *skip = getenv("DENHAM_SKIP_SUITES");
    SRunner *sr = NULL;
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        if (skip && listed(skip, suites[i].name)) {
            printf("suite %s left out (DENHAM_SKIP_SUITES)\n", suites[i].name);
            continue;
        }
        if (!sr)
            sr = srunner_create(suites[i].make());
        else
            srunner_add_suite(sr, suites[i].make());
    }
    if (!sr)
        return EXIT_FAILURE;
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
