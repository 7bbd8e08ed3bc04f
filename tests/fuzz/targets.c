/* targets.c: see targets.h. */
#define _POSIX_C_SOURCE 200809L
#include "targets.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../bench/runner/match.h"
#include "../../bench/runner/match_args.h"
#include "../../bench/runner/match_merge.h"
#include "../../bench/tools/json_check.h"
#include "../../engine/games/variants.h"
#include "../../engine/reference/check.h"
#include "../../engine/reference/ref_rules.h"
#include "../../protocol/serve/http.h"
#include "../../protocol/serve/watch.h"
#include "../../protocol/serve/ring.h"
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
        /* The reference rules (the proof checker's) read what they accept
         * as the engine does. */
        const ref_rules_t *r = ref_rules_find(g->name);
        ref_state_t st;
        if (r && r->from_fen(&st, fen)) {
            char ref_written[REF_KEY_MAX];
            r->to_fen(&st, ref_written);
            check(strcmp(ref_written, written) == 0, "reference reading", g->name, fen);
            static ref_any_move_t ref_moves[REF_MOVES_MAX];
            r->moves(&st, ref_moves);
            r->result(&st);
        }
    }
    free(fen);
    return 0;
}

/* The proof checker on the bytes as a proof file (up to 64 KiB). */
int fuzz_proof(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        size = 1 << 16;
    FILE *in = fmemopen((void *)data, size ? size : 1, "r");
    char *report = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&report, &len);
    char err[600];
    if (in && out && size)
        check_proofs(in, "fuzz", out, err, sizeof err);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    free(report);
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

/* How the engine reads a setoption line (protocol.c: words split at
 * blanks, the name joined up to the word `value`): the number it would set
 * `option` to, or -1 when it would not read one. The reference the server's
 * limit is checked against. */
static long long engine_option_value(const char *line, size_t len, const char *option)
{
    char *copy = strndup(line, len);
    char *word[64];
    int n = 0;
    for (char *w = copy ? strtok(copy, " \t") : NULL; w && n < 64; w = strtok(NULL, " \t"))
        word[n++] = w;
    long long value = -1;
    if (n >= 3 && strcmp(word[0], "setoption") == 0 && strcmp(word[1], "name") == 0) {
        int v = 2;
        while (v < n && strcmp(word[v], "value") != 0)
            v++;
        char name[256] = "";
        for (int i = 2; i < v && strlen(name) + strlen(word[i]) + 2 < sizeof name; i++)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", i > 2 ? " " : "", word[i]);
        if (strcasecmp(name, option) == 0 && v + 2 == n) {
            long long x = 0;
            bool digits = word[v + 1][0] != 0;
            for (const char *d = word[v + 1]; *d && digits && x < 1000000000000LL; d++) {
                digits = *d >= '0' && *d <= '9';
                x = x * 10 + (*d - '0');
            }
            value = digits ? x : -1;
        }
    }
    free(copy);
    return value;
}

/* denham serve's request parser and checks on any bytes: what parses must
 * be consistent (a path, a head inside the bytes, a body within bounds),
 * and a command the server lets through never sets Hash or Threads past its
 * limits as the engine reads it. */
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
    if (http_command_ok((const char *)data, size, &why)) {
        check(!memchr(data, '\n', size) && !memchr(data, 0, size), "one line", "http", "");
        char out[128];
        const char *line = (const char *)data;
        size_t len = size;
        int limit = http_command_limit(line, len, 64, 2, out, sizeof out, &why);
        if (limit == HTTP_LIMIT_CAPPED) {
            check(strlen(out) < sizeof out, "capped length", "http", out);
            char again[128];
            check(http_command_limit(out, strlen(out), 64, 2, again, sizeof again, &why) == HTTP_LIMIT_OK,
                  "capped line", "http", out);
            line = out;
            len = strlen(out);
        }
        if (limit != HTTP_LIMIT_REFUSED) {
            check(engine_option_value(line, len, "Hash") <= 64, "Hash over the limit", "http", "");
            check(engine_option_value(line, len, "Threads") <= 2, "Threads over the limit", "http", "");
        }
    }
    return 0;
}

#define FUZZ_FILE_MAX (1 << 16)

/* A stream of the n bytes at p (an empty one read from /dev/null:
 * fmemopen wants at least one byte). */
static FILE *bytes_stream(const uint8_t *p, size_t n)
{
    return n ? fmemopen((void *)p, n, "r") : fopen("/dev/null", "r");
}

/* denham-match --merge on games files: the first byte's bits say
 * --partial and --sprt, the rest is split at form feeds into up to three
 * files. */
static void merge_files(const uint8_t *data, size_t size)
{
    if (size > FUZZ_FILE_MAX)
        size = FUZZ_FILE_MAX;
    FILE *err = fopen("/dev/null", "w");
    sprt_t sprt = {0, 5, 0.05, 0.05};
    merge_t *m = err ? merge_new(err, data[0] & 1, data[0] & 2 ? &sprt : NULL) : NULL;
    if (!m) {
        if (err)
            fclose(err);
        return;
    }
    const uint8_t *p = data + 1, *end = data + size;
    bool ok = true;
    for (int n = 0; ok && n < 3; n++) {
        const uint8_t *ff = memchr(p, '\f', (size_t)(end - p)), *stop = ff ? ff : end;
        FILE *f = bytes_stream(p, (size_t)(stop - p));
        char name[16];
        snprintf(name, sizeof name, "file%d", n + 1);
        ok = f && merge_read(m, f, name);
        if (f)
            fclose(f);
        if (!ff)
            break;
        p = ff + 1;
    }
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    int status = ok && o ? merge_finish(m, o) : 2;
    if (o)
        fclose(o);
    check(status == 0 || status == 2 || status == 3, "merge status", "games file", "");
    /* A summary exactly when the files add up. */
    check((status != 2) == (out && strncmp(out, "\nMatch ", 7) == 0), "summary", "games file", out ? out : "");
    free(out);
    merge_free(m);
    fclose(err);
}

/* The watch page's reader of a live file: the first byte says where the
 * poller's read is cut in two, the rest is the file. */
static void watch_file(const uint8_t *data, size_t size)
{
    size_t cut = (size - 1) * data[0] / 255;
    char *snapshot = watch_fuzz_read((const char *)data + 1, size - 1, cut);
    if (snapshot)
        check(json_valid(snapshot), "snapshot JSON", "live file", snapshot);
    free(snapshot);
}

int fuzz_match_files(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    if (size > FUZZ_FILE_MAX)
        size = FUZZ_FILE_MAX;
    if (data[0] & 0x80)
        watch_file(data + 1, size - 1);
    else
        merge_files(data + 1, size - 1);
    return 0;
}

/* A session's ring of engine lines, driven by the bytes: pushes of any
 * length, three streams that open (from any id), take entries and close,
 * reclaims. Every stream gets every entry from where it began, in order,
 * each with its own bytes: nothing not yet sent is ever dropped; and the
 * ring holds no more than its bound (past it only by forced entries). */
int fuzz_ring(const uint8_t *data, size_t size)
{
    enum { STREAMS = 3, MAX = 4096 };
    ring_t r;
    ring_init(&r, MAX, 512);
    bool open[STREAMS] = {false};
    ring_pos_t pos[STREAMS];
    static char line[600];
    size_t forced = 0;
    for (size_t i = 0; i + 1 < size; i += 2) {
        int op = data[i] % 5, k = data[i + 1] % STREAMS;
        ring_pos_t floor = r.sent; /* the open stream furthest behind, or sent (as sessions.c) */
        bool any = false;
        for (int s = 0; s < STREAMS; s++)
            if (open[s] && (!any || pos[s].seq < floor.seq)) {
                floor = pos[s];
                any = true;
            }
        if (op <= 1) { /* a push: its bytes are its seq's */
            size_t len = (size_t)data[i + 1] * 3 % sizeof line;
            memset(line, (char)(r.next % 251), len);
            bool force = op == 1 && data[i + 1] < 16;
            if (ring_push(&r, RING_LINE, line, len, floor, force) && force)
                forced += len + RING_ENTRY_OVERHEAD;
        } else if (op == 2 && !open[k]) { /* a page opens a stream after id data[i+1] */
            open[k] = true;
            pos[k] = ring_seek(&r, data[i + 1] + 1ull);
            ring_entry_t e;
            if (ring_get(&r, &pos[k], &e))
                check(e.seq == pos[k].seq, "seek", "ring", "");
        } else if (op == 2) {
            open[k] = false;
        } else if (op == 3 && open[k]) { /* it takes what is there */
            ring_entry_t e;
            unsigned long long want = pos[k].seq;
            while (ring_get(&r, &pos[k], &e)) {
                check(e.seq == want, "no entry skipped", "ring", "");
                for (size_t b = 0; b < e.len; b++)
                    check(e.data[b] == (char)(e.seq % 251), "entry bytes", "ring", "");
                ring_advance(&r, &pos[k], &e);
                want++;
            }
        } else if (op == 4) {
            ring_reclaim(&r, floor);
        }
        check(r.end - r.start <= MAX + forced, "bounded", "ring", "");
    }
    ring_clear(&r);
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
    {"match_files", fuzz_match_files},
    {"ring", fuzz_ring},
    {"proof", fuzz_proof},
};
const int fuzz_target_count = (int)(sizeof fuzz_targets / sizeof fuzz_targets[0]);
