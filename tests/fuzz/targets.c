/* targets.c: see targets.h. */
#define _POSIX_C_SOURCE 200809L
#include "targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/runner/match.h"
#include "../../bench/runner/match_args.h"
#include "../../engine/games/variants.h"
#include "../../protocol/serve/http.h"
#include "../../protocol/otep/otep.h"
#include "../../protocol/ugi/protocol.h"

#define FUZZ_MAX_INPUT 4096

/* A NUL-terminated copy of at most FUZZ_MAX_INPUT bytes, or NULL. */
static char *text_of(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        size = FUZZ_MAX_INPUT;
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = 0;
    }
    return s;
}

/* Runs a front end's command loop on `input` (n bytes), output discarded. */
void fuzz_run_loop(text_loop_fn loop, char *input, size_t n)
{
    FILE *in = fmemopen(input, n ? n : 1, "r");
    char *out_buf = NULL;
    size_t out_len = 0;
    FILE *out = open_memstream(&out_buf, &out_len);
    if (in && out)
        loop(in, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    free(out_buf);
}

/* The input, then a stop so that no search or perft it started can outlast
 * the run (a limited search is otherwise allowed to finish at end of input). */
int fuzz_protocol(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        size = FUZZ_MAX_INPUT;
    char *input = malloc(size + 8);
    if (!input)
        return 0;
    memcpy(input, data, size);
    memcpy(input + size, "\nstop\n", 6);
    fuzz_run_loop(protocol_run, input, size + 6);
    free(input);
    return 0;
}

/* denham otep with every search capped at 20 ms. */
static int otep_capped(FILE *in, FILE *out) { return otep_run_capped(in, out, 20, 20); }

/* The OTEP loop on the bytes. */
int fuzz_otep(const uint8_t *data, size_t size)
{
    char *input = text_of(data, size);
    if (input)
        fuzz_run_loop(otep_capped, input, strlen(input));
    free(input);
    return 0;
}

static void check(bool ok, const char *what, const char *game, const char *text)
{
    if (!ok) {
        fprintf(stderr, "fuzz: %s broken in %s for '%s'\n", what, game, text);
        abort();
    }
}

int fuzz_fen(const uint8_t *data, size_t size)
{
    char *fen = text_of(data, size);
    if (!fen)
        return 0;
    for (int i = 0; variants_at(i); i++) {
        const game_t *g = variants_at(i);
        position_t pos, again;
        char err[256], written[GAME_FEN_MAX];
        if (!g->parse_fen(&pos, fen, err, sizeof err))
            continue;
        g->write_fen(&pos, written, sizeof written);
        check(g->parse_fen(&again, written, err, sizeof err), "written FEN parses", g->name, fen);
        check(g->hash(&again) == g->hash(&pos), "FEN round trip (key)", g->name, fen);
        char twice[GAME_FEN_MAX];
        g->write_fen(&again, twice, sizeof twice);
        check(strcmp(written, twice) == 0, "FEN round trip (text)", g->name, fen);
        move_t moves[MAX_MOVES];
        g->gen_moves(&pos, moves); /* any position that parses can be played */
        outcome_t o;
        g->decided(&pos, &o);
    }
    free(fen);
    return 0;
}

/* The variant a byte picks. */
static const game_t *variant_of(uint8_t byte)
{
    int n_variants = 0;
    while (variants_at(n_variants))
        n_variants++;
    return variants_at(byte % n_variants);
}

int fuzz_moves(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const game_t *g = variant_of(data[0]);
    char *text = text_of(data + 1, size - 1);
    if (!text)
        return 0;
    position_t pos;
    g->set_start(&pos);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        move_t m = g->parse_move(&pos, line);
        if (m == MOVE_NONE)
            continue;
        char back[GAME_MOVE_TEXT_MAX];
        g->move_text(&pos, m, back, sizeof back);
        check(g->parse_move(&pos, back) == m, "move text round trip", g->name, line);
        undo_t u;
        position_t before = pos;
        g->make(&pos, m, &u);
        position_t after = pos;
        g->unmake(&pos, m, &u);
        check(memcmp(&before, &pos, sizeof pos) == 0, "unmake", g->name, line);
        pos = after;
    }
    free(text);
    return 0;
}

/* denham-match's openings file, for the variant the first byte picks. */
int fuzz_openings(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const game_t *g = variant_of(data[0]);
    FILE *f = fmemopen((void *)(data + 1), size > 1 ? size - 1 : 1, "r");
    if (!f)
        return 0;
    char (*openings)[MATCH_OPENING_TEXT];
    int n;
    if (size > 1 && match_read_openings(f, g, "fuzz", &openings, &n)) {
        check(n >= 1, "openings read", g->name, "(openings file)");
        free(openings);
    }
    fclose(f);
    return 0;
}

int fuzz_match_args(const uint8_t *data, size_t size)
{
    char *text = text_of(data, size);
    if (!text)
        return 0;
    enum { MAX_ARGS = 64 };
    char *argv[MAX_ARGS + 1] = {"denham-match"};
    int argc = 1;
    for (char *a = strtok(text, " \t\n"); a && argc < MAX_ARGS; a = strtok(NULL, " \t\n"))
        argv[argc++] = a;
    argv[argc] = NULL;
    static match_cfg_t cfg;
    /* Messages go to stderr; what matters is that nothing breaks. */
    if (match_args(argc, argv, &cfg) == MATCH_ARGS_OK) {
        check(cfg.n_engines >= 2 && cfg.n_engines <= MATCH_MAX_ENGINES, "engine count", "denham-match", text);
        check(cfg.games >= 1, "games", "denham-match", text);
    }
    free(text);
    return 0;
}

/* denham serve's request parser and checks on any bytes: what parses must
 * be consistent (a path, a head inside the bytes, a body within bounds). */
int fuzz_http(const uint8_t *data, size_t size)
{
    if (size > HTTP_HEAD_MAX * 2)
        size = HTTP_HEAD_MAX * 2;
    http_request_t req;
    int status = http_parse((const char *)data, size, &req);
    if (status == 200) {
        check(req.path[0] == '/', "path", "http", req.path);
        check(req.head_len <= size && req.head_len <= HTTP_HEAD_MAX, "head length", "http", req.path);
        check(req.content_length <= HTTP_BODY_MAX, "body length", "http", req.path);
        check(req.host[0] != 0, "host", "http", req.path);
        http_host_allowed(req.host, "127.0.0.1", 8080);
        http_host_allowed(req.host, "0.0.0.0", 8080);
        if (req.has_origin)
            http_origin_allowed(req.origin, req.host);
        char frame[512];
        http_sse_frame(frame, sizeof frame, 1, NULL, req.path);
    } else {
        check(status == HTTP_INCOMPLETE || (status >= 400 && status < 600), "status", "http", "");
    }
    const char *why;
    if (http_command_ok((const char *)data, size, &why))
        check(!memchr(data, '\n', size) && !memchr(data, 0, size), "one line", "http", "");
    return 0;
}

const fuzz_target_t fuzz_targets[] = {
    {"protocol", fuzz_protocol},
    {"session", fuzz_session},
    {"http", fuzz_http},
    {"fen", fuzz_fen},
    {"moves", fuzz_moves},
    {"match_args", fuzz_match_args},
    {"otep", fuzz_otep},
    {"openings", fuzz_openings},
};
const int fuzz_target_count = (int)(sizeof fuzz_targets / sizeof fuzz_targets[0]);
