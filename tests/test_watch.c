/* test_watch.c: watching a match live. `denham-match --live-file` writes
 * the games in progress, move by move, and their lines agree with the
 * games file and replay to the same positions; `denham serve --watch`
 * reads only the files named on its command line (nothing else is ever
 * served), survives broken, huge, truncated and odd files, and adds two
 * shards' files up as `denham-match --merge` does; then, in a headless
 * Chromium while a real match runs, the watch page shows the boards in
 * progress with their moves advancing and the engines' evaluations, the
 * results table updating, and a finished game replayed step by step, with
 * no script error and inside the window at 1280x800 and 390x844.
 * Screenshots go to build/screenshots/watch*.png. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench/runner/games_tally.h"
#include "../bench/tools/cdp.h"
#include "../bench/tools/http_client.h"
#include "../bench/tools/json_check.h"
#include "../engine/core/record.h"
#include "../engine/core/timeman.h"
#include "../engine/games/variants.h"
#include "helpers.h"

#define WAIT_MS 60000

/* ---- helpers ---- */

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (buf)
        buf[got] = 0;
    return buf;
}

static void write_text(const char *path, const char *text, const char *mode)
{
    FILE *f = fopen(path, mode);
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Runs a command in the background (its output discarded); its pid. */
static pid_t run_background(const char *cmd)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int wait_exit(pid_t pid)
{
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The watch state of a server, checked strict JSON: in r->body when it
 * fits, else (64 boards and more) in a buffer of its own, returned. */
typedef struct state_reply {
    int status;
    char *body;
} state_reply_t;

static void get_state(const served_t *s, state_reply_t *r)
{
    free(r->body);
    *r = (state_reply_t){0};
    int fd = http_connect(s->port);
    ck_assert_int_ge(fd, 0);
    char req[128];
    int n = snprintf(req, sizeof req, "GET /api/watch/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", s->port);
    ck_assert(send(fd, req, (size_t)n, MSG_NOSIGNAL) == n);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 4096 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t got = recv(fd, buf + len, cap - len - 1, 0);
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    buf[len] = 0;
    ck_assert(sscanf(buf, "HTTP/1.1 %d", &r->status) == 1);
    ck_assert_int_eq(r->status, 200);
    const char *body = strstr(buf, "\r\n\r\n");
    ck_assert_ptr_nonnull(body);
    r->body = strdup(body + 4);
    free(buf);
    ck_assert_msg(json_valid(r->body), "not JSON: %.300s", r->body);
}

static int member_int(const char *json, const char *key)
{
    const char *v = json_member(json, key);
    ck_assert_msg(v, "no %s in %.200s", key, json);
    return atoi(v);
}

static const char *member_string(const char *json, const char *key)
{
    static char out[4096];
    out[0] = 0;
    const char *v = json_member(json, key);
    ck_assert_msg(v && json_string_at(v, out, sizeof out), "no string %s in %.200s", key, json);
    return out;
}

/* Waits until the server's state satisfies `ok` (the state text in r). */
static bool wait_state(const served_t *s, state_reply_t *r, bool (*ok)(const char *), int timeout_ms)
{
    int64_t deadline = timeman_now_ms() + timeout_ms;
    while (timeman_now_ms() < deadline) {
        get_state(s, r);
        if (ok(r->body))
            return true;
        usleep(100 * 1000);
    }
    return false;
}

/* The live file's game `index` replayed with the engine library: its
 * record after `ply` plies (or its last ply when ply < 0), checking on the
 * way that plies follow one another and every engine move has a score. */
static void live_game(const char *text, int index, int ply, record_t *rec, const game_t **game)
{
    char *copy = strdup(text), *save = NULL;
    bool started = false;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[16];
        int n = games_tally_split(line, f, 16);
        if (strcmp(f[0], "match") == 0) {
            ck_assert_int_ge(n, 9);
            *game = variants_find(f[2]);
            ck_assert_ptr_nonnull(*game);
        } else if (strcmp(f[0], "start") == 0 && atoi(f[1]) == index) {
            char err[512];
            ck_assert_int_eq(n, 5);
            ck_assert_msg(record_setup(rec, *game, f[4], err, sizeof err), "%s: %s", f[4], err);
            started = true;
        } else if (strcmp(f[0], "move") == 0 && atoi(f[1]) == index && started && (ply < 0 || rec->plies < ply)) {
            ck_assert_int_eq(n, 7);
            ck_assert_int_eq(atoi(f[2]), rec->plies + 1);
            move_t m = (*game)->parse_move(&rec->pos, f[4]);
            ck_assert_msg(m != MOVE_NONE, "game %d ply %s: %s is not legal", index, f[2], f[4]);
            ck_assert(record_play(rec, m));
            if (strcmp(f[3], "-") != 0) { /* an engine's move: its score and depth */
                ck_assert_msg(strncmp(f[5], "cp ", 3) == 0 || strncmp(f[5], "mate ", 5) == 0, "score '%s'", f[5]);
                ck_assert_int_ge(atoi(f[6]), 1);
            } else {
                ck_assert_str_eq(f[5], "-");
            }
        }
    }
    free(copy);
    ck_assert_msg(started, "game %d never started in the live file", index);
}

/* ---- the live file ---- */

/* Every game of a small match in the live file: started, its moves in
 * order (rolls of the die too), each engine move with a score and depth,
 * its end line the games file's line, and its moves the same game. */
static int check_live_file(const char *variant, const char *engines, int games)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "./denham-match --variant %s %s --games %d --concurrency 2 --seed 4 --quiet "
             "--live-file build/watch/live-%s.txt --games-file build/watch/games-%s.txt 2>&1; echo status $?",
             variant, engines, games, variant, variant);
    const char *out = shell(cmd);
    ck_assert_msg(strstr(out, "status 0"), "%s", out);
    char path[128];
    snprintf(path, sizeof path, "build/watch/live-%s.txt", variant);
    char *live = read_all(path);
    snprintf(path, sizeof path, "build/watch/games-%s.txt", variant);
    char *games_file = read_all(path);
    ck_assert(live && games_file);
    /* The games file's lines of games: its header and last line (# lines) left out. */
    char *w = games_file;
    for (const char *c = games_file; *c;) {
        size_t l = strcspn(c, "\n") + (c[strcspn(c, "\n")] == '\n');
        if (*c != '#')
            memmove(w, c, l), w += l;
        c += l;
    }
    *w = 0;
    /* The header. */
    char first[512];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(live, "\n"), live);
    char *f[16];
    int n = games_tally_split(first, f, 16);
    ck_assert_int_ge(n, 9);
    ck_assert_str_eq(f[0], "match");
    ck_assert_str_eq(f[1], "denham-live 1");
    ck_assert_str_eq(f[2], variant);
    ck_assert_str_eq(f[5], "1/1");
    ck_assert_str_eq(f[6], "-");
    /* The end lines are the games file, line for line. */
    size_t cap = strlen(live) + 1, len = 0;
    char *ends = calloc(1, cap);
    for (const char *c = strstr(live, "\nend\t"); c; c = strstr(c + 1, "\nend\t")) {
        size_t l = strcspn(c + 5, "\n") + 1;
        memcpy(ends + len, c + 5, l);
        len += l;
    }
    ck_assert_str_eq(ends, games_file);
    ck_assert_msg(strstr(live, "\nover\t"), "no over line");
    /* Each game's moves are the game the games file records. */
    const game_t *g = variants_find(variant);
    char *save = NULL;
    int seen = 0;
    for (char *line = strtok_r(games_file, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *gf[8];
        ck_assert_int_eq(games_tally_split(line, gf, 8), 8);
        static record_t want, got;
        char err[512];
        ck_assert(record_setup(&want, g, gf[7], err, sizeof err) || want.forfeit_by >= 0);
        const game_t *lg = NULL;
        live_game(live, atoi(gf[0]), -1, &got, &lg);
        ck_assert_ptr_eq(lg, g);
        ck_assert_int_eq(got.plies, want.plies);
        ck_assert_str_eq(fen_of(g, &got.pos), fen_of(g, &want.pos));
        seen++;
    }
    ck_assert_int_eq(seen, games);
    int rolls = 0; /* move lines of no seat */
    for (const char *c = strstr(live, "\nmove\t"); c; c = strstr(c + 1, "\nmove\t")) {
        char line[256], *mf[8];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(c + 1, "\n"), c + 1);
        rolls += games_tally_split(line, mf, 8) == 7 && strcmp(mf[3], "-") == 0;
    }
    free(ends);
    free(live);
    free(games_file);
    return rolls;
}

START_TEST(live_file_follows_every_game)
{
    mkdir("build/watch", 0755);
    ck_assert_int_eq(check_live_file("brandubh", "--engine name=a cmd=./denham depth=2 --engine name=b cmd=./denham depth=1", 4), 0);
    /* The runner's rolls of the die, as moves of no seat. */
    ck_assert_int_gt(check_live_file("jinxx-3p", "--engine name=a cmd=./denham depth=1 --engine name=b cmd=./denham depth=1", 6), 0);
    /* An unwritable live file: a setup error. */
    ck_assert(strstr(shell("./denham-match --engine name=a cmd=./denham depth=1 --engine name=b cmd=./denham "
                           "depth=1 --games 2 --live-file /nonexistent/dir/live.txt 2>&1; echo status $?"),
                     "status 1"));
}
END_TEST

/* ---- the server ---- */

static bool has_finished_4(const char *state) { return member_int(state, "finishedTotal") >= 4; }

/* A file beside the live file, a file named in it, and every path a
 * request could name: none of them is served. */
START_TEST(only_named_files_are_read)
{
    mkdir("build/watch", 0755);
    write_text("build/watch/secret.txt", "SECRET-MARKER-31337\n", "w");
    const char *out = shell("./denham-match --variant brandubh --engine name=a cmd=./denham depth=1 --engine name=b "
                            "cmd=./denham depth=1 --games 4 --seed 2 --quiet --live-file build/watch/only.live 2>&1; "
                            "echo status $?");
    ck_assert_msg(strstr(out, "status 0"), "%s", out);
    /* A line naming the secret as its opening (not a position: passed over). */
    write_text("build/watch/only.live", "start\t9\ta\tb\t../secret.txt\nend\t9\tbuild/watch/secret.txt\n", "a");
    served_t s;
    ck_assert(served_start(&s, "--watch build/watch/only.live"));
    reply_t r;
    state_reply_t st = {0};
    ck_assert(wait_state(&s, &st, has_finished_4, WAIT_MS));
    ck_assert(strstr(st.body, "\"path\":\"build/watch/only.live\""));
    ck_assert_int_eq(member_int(json_element(json_member(st.body, "files"), 0), "badLines"), 2);
    free(st.body);
    static const char *const paths[] = {
        "/build/watch/secret.txt",
        "/secret.txt",
        "/api/watch/secret.txt",
        "/api/watch/file/build/watch/secret.txt",
        "/api/watch/../../build/watch/secret.txt",
        "/api/watch/state/../../build/watch/secret.txt",
        "/watch/../build/watch/secret.txt",
        "/watch.html/../build/watch/secret.txt",
        "/api/watch/layout/../../build/watch/secret.txt",
        "/api/watch/layout/%2e%2e%2fsecret.txt",
        "/api/watch/game/0/9",
        "/api/watch/game/0/..%2fsecret.txt",
        "/api/watch/game/-1/1",
        "/api/watch/game/1/1",
        "/api/watch/game/0/99999999999999999999",
        "/api/watch/game/0/",
        "/api/watch/game//1",
        "/api/watch/events/../../build/watch/secret.txt",
        "/api/watch/state?path=build/watch/secret.txt",
        "/api/watch/state?file=/etc/passwd",
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        ck_assert(http_request(s.port, "GET", paths[i], NULL, NULL, &r));
        ck_assert_msg(!strstr(r.body, "SECRET-MARKER") && !strstr(r.body, "root:"), "%s served: %.200s", paths[i],
                      r.body);
        if (!strstr(paths[i], "/state?"))
            ck_assert_msg(r.status == 404 || r.status == 400, "%s: %d", paths[i], r.status);
    }
    /* The games it read are served, and only by their number. */
    ck_assert(http_request(s.port, "GET", "/api/watch/game/0/1", NULL, NULL, &r));
    ck_assert_int_eq(r.status, 200);
    ck_assert(http_request(s.port, "POST", "/api/watch/state", "x", NULL, &r));
    ck_assert_int_eq(r.status, 405);
    ck_assert(http_request(s.port, "GET", "/watch", NULL, NULL, &r));
    ck_assert_int_eq(r.status, 200);
    ck_assert(strstr(r.body, "watch.js"));
    ck_assert_int_eq(served_stop(&s), 0);
    /* Without --watch there is no watch page, nor its files or data. */
    ck_assert(served_start(&s, ""));
    static const char *const off[] = {"/watch", "/watch.html", "/watch.js", "/watch.css", "/api/watch/state",
                                      "/api/watch/events", "/api/watch/game/0/1", "/api/watch/layout/brax"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        ck_assert(http_request(s.port, "GET", off[i], NULL, NULL, &r));
        ck_assert_msg(r.status == 404, "%s: %d without --watch", off[i], r.status);
    }
    ck_assert(http_request(s.port, "GET", "/", NULL, NULL, &r)); /* the board app as before */
    ck_assert_int_eq(r.status, 200);
    ck_assert_int_eq(served_stop(&s), 0);
    /* Too many --watch, or an empty one, is refused. */
    char many[2048] = "./denham serve --port 0";
    for (int i = 0; i < 17; i++)
        strcat(many, " --watch x");
    strcat(many, " 2>&1; echo status $?");
    ck_assert(strstr(shell(many), "status 2"));
    ck_assert(strstr(shell("./denham serve --port 0 --watch '' 2>&1; echo status $?"), "status 2"));
}
END_TEST

static int bad_lines_of(const served_t *s, int file)
{
    state_reply_t r = {0};
    get_state(s, &r);
    int n = member_int(json_element(json_member(r.body, "files"), file), "badLines");
    free(r.body);
    return n;
}

static bool wait_bad_lines(const served_t *s, int file, int want)
{
    for (int i = 0; i < 100; i++) {
        if (bad_lines_of(s, file) == want)
            return true;
        usleep(100 * 1000);
    }
    return false;
}

/* Broken lines, binary, a line over the limit, too many games at once, a
 * file truncated and one replaced, a directory and a FIFO: the server
 * passes over what it cannot use, says so, and stays up. */
START_TEST(bad_files_never_crash_the_server)
{
    mkdir("build/watch", 0755);
    unlink("build/watch/bad.live");
    unlink("build/watch/fifo.live");
    ck_assert_int_eq(mkfifo("build/watch/fifo.live", 0644), 0);
    mkdir("build/watch/dir.live", 0755);
    served_t s;
    ck_assert(served_start(&s, "--watch build/watch/bad.live --watch build/watch/dir.live --watch build/watch/fifo.live"));
    reply_t r;
    state_reply_t st = {0};
    get_state(&s, &st);
    const char *files = json_member(st.body, "files");
    ck_assert_str_eq(member_string(json_element(files, 0), "status"), "waiting");
    usleep(600 * 1000);
    get_state(&s, &st);
    files = json_member(st.body, "files");
    ck_assert_str_eq(member_string(json_element(files, 1), "status"), "error");
    ck_assert_str_eq(member_string(json_element(files, 2), "status"), "error");
    /* Lines before the header, then a header, then every kind of bad line. */
    write_text("build/watch/bad.live", "move\t1\t1\tp1\te1e3\tcp 1\t1\ngarbage\n", "w");
    ck_assert(wait_bad_lines(&s, 0, 2));
    write_text("build/watch/bad.live", "match\tdenham-live 1\tbrandubh\t10\t10\t1/1\t0 50 0.05 0.05\ta\tb\n", "a");
    write_text("build/watch/bad.live",
               "start\tx\ta\tb\tstartpos\n"                   /* not a number */
               "start\t1\ta\tb\tfen nonsense\n"               /* not a position */
               "start\t2\ta\tb\tstartpos\n"
               "move\t2\t5\tp1\td2c2\tcp 3\t1\n"              /* not the next ply */
               "move\t2\t1\tp1\td2c2\tcp 3\t1\n"              /* ignored: the game lost track */
               "start\t3\ta\tb\tstartpos\n"
               "move\t3\t1\tp1\tz9z9\tcp 3\t1\n"              /* not a move */
               "start\t4\ta\tb\tstartpos\n"
               "move\t4\t1\tp9\td2c2\tcp \x01\x02\t-5\n"      /* a move with a bad seat and score: shown without them */
               "end\t5\n"                                     /* too few fields */
               "end\t6\tbrandubh\ta\tb\tnot-a-result\tx\tstartpos\tstartpos\n" /* the tally refuses it */
               "end\t7\tnowhere\ta\tb\t1-0\tx\tstartpos\tstartpos\n"           /* unknown variant */
               "end\t11\tbrandubh\ta\tb\t1-0\tx\tstartpos\tstartpos\n"         /* not a game of this match */
               "end\t8\tbrax\ta\tb\t1-0\tx\tstartpos\tstartpos\n"              /* another variant's */
               "newkind\tfor\tlater\n"                                        /* passed over quietly */
               "match\tdenham-live 1\tbrax\t10\t10\t1/1\t-\tc\td\n"             /* one match per file */
               "over\t7\tH0 accepted\n",                                      /* the runner's decision */
               "a");
    ck_assert(wait_bad_lines(&s, 0, 11));
    get_state(&s, &st);
    ck_assert_int_eq(member_int(json_member(st.body, "results"), "refused"), 1);
    ck_assert_int_eq(member_int(json_member(st.body, "results"), "games"), 0);
    ck_assert(strstr(member_string(json_member(st.body, "results"), "error"), "1-0, 0-1 or 1/2-1/2"));
    ck_assert_int_eq(json_length(json_member(st.body, "live")), 3); /* games 2, 3 and 4, shown as they were */
    /* The decision is the tally's, made at a pair as the runner makes it:
     * an `over` line claiming one decides nothing. */
    const char *sprt = json_member(json_member(st.body, "results"), "sprt");
    ck_assert_str_eq(member_string(sprt, "decision"), "no decision");
    ck_assert_str_eq(member_string(sprt, "llr"), "0.000");
    ck_assert(strncmp(json_member(sprt, "stoppedByRunner"), "true", 4) == 0);
    /* Binary (a kind of line unknown: passed over), and a line over 1 MiB
     * (skipped, counted once). */
    FILE *f = fopen("build/watch/bad.live", "ab");
    for (int i = 0; i < 256; i++)
        fputc(i == '\n' ? 'x' : i, f);
    fputc('\n', f);
    for (int i = 0; i < (3 << 20) / 64; i++)
        fputs("start\t1\ta\tb\tstartpos moves aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", f);
    fputc('\n', f);
    /* More games at once than are kept: the oldest give way. */
    for (int i = 100; i < 180; i++)
        fprintf(f, "start\t%d\ta\tb\tstartpos\n", i);
    fclose(f);
    ck_assert(wait_bad_lines(&s, 0, 12));
    get_state(&s, &st);
    ck_assert(strstr(member_string(json_element(json_member(st.body, "files"), 0), "lastBad"), "longer than 1 MiB"));
    ck_assert_int_eq(json_length(json_member(st.body, "live")), 64);
    ck_assert_int_eq(member_int(json_element(json_member(st.body, "live"), 0), "index"), 116);
    /* Truncated: read again from the start. */
    write_text("build/watch/bad.live", "match\tdenham-live 1\tbrax\t2\t2\t1/1\t-\tc\td\nstart\t1\tc\td\tstartpos\n", "w");
    ck_assert(wait_bad_lines(&s, 0, 0));
    get_state(&s, &st);
    ck_assert_int_eq(json_length(json_member(st.body, "live")), 1);
    ck_assert_str_eq(member_string(json_element(json_member(st.body, "live"), 0), "variant"), "brax");
    /* Not a live file at all. */
    write_text("build/watch/bad.live.new", "match\tsomething else\n", "w");
    ck_assert_int_eq(rename("build/watch/bad.live.new", "build/watch/bad.live"), 0);
    usleep(800 * 1000);
    get_state(&s, &st);
    ck_assert_str_eq(member_string(json_element(json_member(st.body, "files"), 0), "status"), "error");
    ck_assert_int_eq(json_length(json_member(st.body, "live")), 0);
    /* Many requests for odd paths at once change nothing. */
    for (int i = 0; i < 20; i++) {
        char path[64];
        snprintf(path, sizeof path, "/api/watch/game/%d/%d", i % 3, i * 7919);
        ck_assert(http_request(s.port, "GET", path, NULL, NULL, &r));
        ck_assert_int_eq(r.status, 404);
    }
    pid_t pid = s.pid;
    free(st.body);
    ck_assert_int_eq(served_stop(&s), 0);
    ck_assert_int_eq(children_of(pid), 0);
    unlink("build/watch/fifo.live");
}
END_TEST

static bool all_over_2(const char *state) { return json_member(state, "over") && strncmp(json_member(state, "over"), "true", 4) == 0; }

/* A value after `key` in text (the merge's output), up to `end`. */
static const char *after(const char *text, const char *key, const char *end)
{
    static char out[128];
    const char *p = strstr(text, key);
    ck_assert_msg(p, "no '%s' in %s", key, text);
    p += strlen(key);
    snprintf(out, sizeof out, "%.*s", (int)strcspn(p, end), p);
    return out;
}

/* Two shards of a match, each with its live file: watched as one match,
 * with the numbers `denham-match --merge` gives. */
START_TEST(two_shards_watched_as_one_match)
{
    mkdir("build/watch", 0755);
    for (int k = 1; k <= 2; k++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "./denham-match --variant brandubh --engine name=deep cmd=./denham depth=2 --engine name=shallow "
                 "cmd=./denham depth=1 --games 8 --seed 7 --sprt 0 50 0.05 0.05 --shard %d/2 --quiet "
                 "--games-file build/watch/shard-%d.txt --live-file build/watch/shard-%d.live 2>&1; echo status $?",
                 k, k, k);
        const char *out = shell(cmd);
        ck_assert_msg(strstr(out, "status 0"), "%s", out);
    }
    char *merged = strdup(shell("./denham-match --merge build/watch/shard-1.txt build/watch/shard-2.txt --sprt 0 50 "
                                "0.05 0.05"));
    served_t s;
    ck_assert(served_start(&s, "--watch build/watch/shard-1.live --watch build/watch/shard-2.live"));
    reply_t r;
    state_reply_t st = {0};
    ck_assert(wait_state(&s, &st, all_over_2, WAIT_MS));
    const char *res = json_member(st.body, "results");
    ck_assert_int_eq(member_int(res, "games"), 8);
    char wdl[64];
    snprintf(wdl, sizeof wdl, "%d-%d-%d", member_int(res, "wins"), member_int(res, "draws"), member_int(res, "losses"));
    ck_assert_str_eq(wdl, after(merged, "W-D-L (deep): ", ","));
    ck_assert_str_eq(member_string(res, "elo"), after(merged, "Elo difference: ", ","));
    char low[32], high[32];
    snprintf(low, sizeof low, "%s", member_string(res, "eloLow"));
    snprintf(high, sizeof high, "%s", member_string(res, "eloHigh"));
    ck_assert_str_eq(low, after(merged, "interval [", ","));
    ck_assert_str_eq(high, after(merged, "interval [", "]") + strlen(low) + 2);
    ck_assert_str_eq(member_string(res, "los"), after(merged, "LOS: ", "\n"));
    const char *sprt = json_member(res, "sprt");
    ck_assert_ptr_nonnull(sprt);
    ck_assert_str_eq(member_string(sprt, "llr"), after(merged, "LLR ", ","));
    ck_assert_str_eq(member_string(sprt, "decision"), after(merged, "], ", "\n"));
    char penta[64];
    const char *p = json_member(res, "penta");
    snprintf(penta, sizeof penta, "%d %d %d %d %d", atoi(json_element(p, 0)), atoi(json_element(p, 1)),
             atoi(json_element(p, 2)), atoi(json_element(p, 3)), atoi(json_element(p, 4)));
    ck_assert_str_eq(penta, after(merged, "1.5, 2): ", "\n"));
    ck_assert_int_eq(member_int(st.body, "finishedTotal"), 8);
    /* A game of each shard, replayed by its file's number. */
    ck_assert(http_request(s.port, "GET", "/api/watch/game/0/1", NULL, NULL, &r));
    ck_assert_int_eq(r.status, 200);
    ck_assert(http_request(s.port, "GET", "/api/watch/game/1/3", NULL, NULL, &r));
    ck_assert_int_eq(r.status, 200);
    ck_assert(http_request(s.port, "GET", "/api/watch/game/1/1", NULL, NULL, &r)); /* shard 1's, not 2's */
    ck_assert_int_eq(r.status, 404);
    ck_assert_int_eq(served_stop(&s), 0);
    free(merged);
    free(st.body);
}
END_TEST

/* One run that its SPRT stopped, games in flight at the time: the page
 * decides where the runner decided, with the same LLR, pairs and W-D-L, and
 * shows the games that finished after it apart, as the merge of the run's
 * games file does (games_tally.h's rule for all three). */
START_TEST(one_run_decides_where_the_runner_did)
{
    mkdir("build/watch", 0755);
    const char *out = shell("./denham-match --variant brandubh --engine name=d2 cmd=./denham depth=2 --engine name=rnd "
                            "cmd=./denham option.Strength=random depth=1 --games 400 --concurrency 4 --sprt 0 50 0.05 "
                            "0.05 --quiet --games-file build/watch/stopped.txt --live-file build/watch/stopped.live "
                            "2>&1; echo status $?");
    ck_assert_msg(strstr(out, "H1 accepted") && strstr(out, "status 0"), "%s", out);
    char *run = strdup(out);
    char *merged = strdup(shell("./denham-match --merge build/watch/stopped.txt"));
    ck_assert_str_eq(after(merged, "LLR ", ","), after(run, "LLR ", ","));
    served_t s;
    ck_assert(served_start(&s, "--watch build/watch/stopped.live"));
    state_reply_t st = {0};
    ck_assert(wait_state(&s, &st, all_over_2, WAIT_MS));
    const char *res = json_member(st.body, "results");
    char wdl[64];
    snprintf(wdl, sizeof wdl, "%d-%d-%d", member_int(res, "wins"), member_int(res, "draws"), member_int(res, "losses"));
    ck_assert_str_eq(wdl, after(merged, "W-D-L (d2): ", ","));
    const char *sprt = json_member(res, "sprt");
    ck_assert_str_eq(member_string(sprt, "llr"), after(merged, "LLR ", ","));
    ck_assert_str_eq(member_string(sprt, "decision"), "H1 accepted");
    int apart = strstr(merged, "After the decision: ") ? atoi(after(merged, "After the decision: ", " ")) : 0;
    ck_assert_int_eq(member_int(sprt, "afterGames"), apart);
    ck_assert_int_eq(member_int(res, "games") + apart, member_int(st.body, "finishedTotal"));
    ck_assert_int_eq(served_stop(&s), 0);
    free(run);
    free(merged);
    free(st.body);
}
END_TEST

/* ---- in the browser ---- */

static cdp_t browser;

static const char *page_string(const char *expression)
{
    return cdp_text(&browser, expression);
}

static int page_int(const char *expression) { return atoi(page_string(expression)); }

static void click(const char *selector)
{
    ck_assert_msg(cdp_click_on(&browser, selector), "no %s on the page", selector);
}

static void set_window(int width, int height)
{
    cdp_window(&browser, width, height);
}

/* Nothing wider than the window, and the first board in progress (or the
 * replay) wholly inside it. */
static void assert_inside_window(const char *board)
{
    char expr[512];
    snprintf(expr, sizeof expr,
             "(() => { const b = document.querySelector('%s'); if (!b) return 'none'; const r = "
             "b.getBoundingClientRect(); return [document.documentElement.scrollWidth <= innerWidth, r.left >= 0, "
             "r.top >= 0, r.right <= innerWidth, r.bottom <= innerHeight, r.width > 100].join(); })()",
             board);
    ck_assert_str_eq(page_string(expr), "true,true,true,true,true,true");
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The cells a board shows pieces on (sorted, comma-separated) are those of
 * the position after `ply` plies of game `index` in the live file,
 * replayed here by the engine library. */
static void assert_board_is_the_game(int index, int ply, const char *cells)
{
    char *live = read_all("build/watch/run.live");
    ck_assert_ptr_nonnull(live);
    static record_t rec;
    const game_t *g = NULL;
    live_game(live, index, ply, &rec, &g);
    free(live);
    ck_assert_int_eq(rec.plies, ply);
    json_t j;
    json_init(&j);
    json_object(&j);
    g->view_position(g, &rec.pos, &j);
    json_end(&j);
    const char *pieces = json_member(j.buf, "pieces");
    int n = json_length(pieces);
    char names[64][16], *sorted[64], want[1024] = "";
    ck_assert_int_le(n, 64);
    for (int i = 0; i < n; i++) {
        json_string_at(json_member(json_element(pieces, i), "cell"), names[i], sizeof names[i]);
        sorted[i] = names[i];
    }
    qsort(sorted, (size_t)n, sizeof sorted[0], by_text);
    for (int i = 0; i < n; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "," : "", sorted[i]);
    ck_assert_msg(strcmp(want, cells) == 0, "game %d at ply %d: the page shows pieces on %s, the game has %s", index, ply,
                  cells, want);
    json_free(&j);
}

START_TEST(watched_in_chromium_while_a_match_runs)
{
    if (!cdp_browser()) {
        fprintf(stderr, "watch browser test: no Chromium (make deps installs it): not run\n");
        return;
    }
    mkdir("build/watch", 0755);
    mkdir("build/screenshots", 0755);
    unlink("build/watch/run.live");
    served_t s;
    ck_assert(served_start(&s, "--watch build/watch/run.live"));
    ck_assert(cdp_start(&browser, 1280, 800));
    /* Every script error and console.error of the page, kept for the end. */
    free(cdp_call(&browser, true, "Page.addScriptToEvaluateOnNewDocument",
                  "{\"source\":\"window.__errors = []; addEventListener('error', (e) => __errors.push(String(e.message "
                  "|| e.type))); addEventListener('unhandledrejection', (e) => __errors.push(String(e.reason))); "
                  "const ce = console.error; console.error = (...a) => { __errors.push(a.join(' ')); ce(...a); };\"}",
                  10000));
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/watch", s.port);
    ck_assert(cdp_navigate(&browser, url));
    ck_assert(cdp_wait(&browser, "document.body.dataset.ready === 'true'", WAIT_MS));
    ck_assert(strstr(page_string("document.getElementById('title').textContent"), "waiting"));
    /* The match starts after the page: six games, two at a time, a tenth
     * of a second or so a move. */
    pid_t match = run_background(
        "./denham-match --variant brandubh --engine name=quick cmd=./denham movetime=150 --engine name=quicker "
        "cmd=./denham movetime=100 --games 6 --concurrency 2 --seed 11 --max-plies 70 --time-margin 2000 --sprt 0 50 "
        "0.05 0.05 --live-file build/watch/run.live --games-file build/watch/run-games.txt --quiet");
    ck_assert_msg(cdp_wait(&browser, "document.querySelectorAll('#live .game [data-piece]').length > 0", WAIT_MS),
                  "no board in progress: %s", page_string("document.body.innerText"));
    /* A board in progress, its moves advancing, each the engine's position. */
    int index = page_int("document.querySelector('#live .game').dataset.index");
    char card[64], expr[512];
    snprintf(card, sizeof card, "#live .game[data-index=\"%d\"]", index);
    snprintf(expr, sizeof expr, "document.querySelector('%s').dataset.plies", card);
    int plies = page_int(expr);
    snprintf(expr, sizeof expr, "(() => { const c = document.querySelector('%s'); return !!c && Number(c.dataset.plies) > %d; })()",
             card, plies + 1);
    ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "game %d stayed at ply %d", index, plies);
    /* The board and its ply read at once (one evaluation: the page does
     * not draw in between), against the live file replayed here. */
    bool compared = false;
    for (int tries = 0; tries < 5 && !compared; tries++) {
        char shown[8192];
        snprintf(expr, sizeof expr,
                 "(() => { const c = document.querySelector('#live .game'); return c ? c.dataset.index + ' ' + "
                 "c.dataset.plies + ' ' + Array.from(c.querySelectorAll('[data-piece]')).map((p) => "
                 "p.dataset.piece).sort().join(',') : ''; })()");
        snprintf(shown, sizeof shown, "%s", page_string(expr));
        int shown_index, shown_plies, used = 0;
        if (sscanf(shown, "%d %d %n", &shown_index, &shown_plies, &used) == 2 && used > 0) {
            assert_board_is_the_game(shown_index, shown_plies, shown + used);
            compared = true;
        }
    }
    ck_assert(compared);
    /* Both engines' evaluations, as scores. */
    ck_assert(cdp_wait(&browser,
                       "Array.from(document.querySelectorAll('#live .game .evals .score')).filter((e) => "
                       "/^([+-]?\\d+\\.\\d\\d|#-?\\d+)$/.test(e.textContent)).length >= 2",
                       WAIT_MS));
    cdp_wait(&browser, "document.querySelectorAll('#live .game').length >= 2", 5000);
    assert_inside_window("#live .game .board");
    ck_assert(cdp_screenshot(&browser, "build/screenshots/watch.png"));
    /* A phone's width, the games still in progress. */
    set_window(390, 844);
    assert_inside_window("#live .game .board");
    ck_assert(cdp_screenshot(&browser, "build/screenshots/watch-phone.png"));
    set_window(1280, 800);
    /* The table updates as games finish. */
    ck_assert(cdp_wait(&browser, "Number(document.getElementById('results-games').textContent) >= 1", 3 * WAIT_MS));
    ck_assert(strstr(page_string("document.getElementById('sprt').textContent"), "LLR"));
    ck_assert(strstr(page_string("document.getElementById('elo').textContent"), "["));
    if (page_int("String(document.querySelectorAll('#live .game').length)") > 0)
        ck_assert(cdp_screenshot(&browser, "build/screenshots/watch-progress.png"));
    /* A finished game, one click from its replay: shown at its end, then
     * stepped back with the buttons. */
    click("#finished button");
    ck_assert(cdp_wait(&browser, "!document.getElementById('replay').hidden && !!watch.replay && !!watch.replay.game",
                       WAIT_MS));
    int last = page_int("String(watch.replay.game.states.length - 1)");
    ck_assert_int_gt(last, 4);
    ck_assert_int_eq(page_int("document.getElementById('replay').dataset.ply"), last);
    int pieces_at_end = page_int("String(document.querySelectorAll('#replay-board [data-piece]').length)");
    ck_assert_int_eq(pieces_at_end, page_int("String(watch.replay.game.states[watch.replay.game.states.length - "
                                             "1].pieces.length)"));
    click("#replay-back");
    ck_assert_int_eq(page_int("document.getElementById('replay').dataset.ply"), last - 1);
    click("#replay-start");
    ck_assert_int_eq(page_int("document.getElementById('replay').dataset.ply"), 0);
    ck_assert_int_eq(page_int("String(document.querySelectorAll('#replay-board [data-piece]').length)"), 13);
    click("#replay-next");
    ck_assert_int_eq(page_int("document.getElementById('replay').dataset.ply"), 1);
    assert_inside_window("#replay-board");
    ck_assert(cdp_screenshot(&browser, "build/screenshots/watch-replay.png"));
    click("#replay-close");
    ck_assert(cdp_wait(&browser, "document.getElementById('replay').hidden", 5000));
    /* The match ends: every game in the table, the match over (decided,
     * status 0, or not, status 3). */
    int status = wait_exit(match);
    ck_assert_msg(status == 0 || status == 3, "status %d", status);
    int games = 0;
    char *played = read_all("build/watch/run-games.txt");
    for (const char *c = played; c && *c; c++)
        games += *c == '\n' && c[1] && c[1] != '#';
    free(played);
    snprintf(expr, sizeof expr, "Number(document.getElementById('results-games').textContent) === %d && "
                                "document.getElementById('title').textContent.includes('match over')",
             games);
    ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "%s", page_string("document.getElementById('title').textContent"));
    ck_assert_int_eq(page_int("String(document.querySelectorAll('#live .game').length)"), 0);
    ck_assert_str_eq(page_string("JSON.stringify(window.__errors)"), "[]");
    ck_assert(page_string("document.getElementById('error').hidden") [0] == 't');
    cdp_stop(&browser);
    pid_t pid = s.pid;
    ck_assert_int_eq(served_stop(&s), 0);
    ck_assert_int_eq(children_of(pid), 0);
}
END_TEST

Suite *suite_watch(void)
{
    Suite *s = suite_create("watch");
    TCase *files = tcase_create("files");
    tcase_set_timeout(files, 600);
    tcase_add_test(files, live_file_follows_every_game);
    tcase_add_test(files, only_named_files_are_read);
    tcase_add_test(files, bad_files_never_crash_the_server);
    tcase_add_test(files, two_shards_watched_as_one_match);
    tcase_add_test(files, one_run_decides_where_the_runner_did);
    suite_add_tcase(s, files);
    TCase *web = tcase_create("browser");
    tcase_set_timeout(web, 900);
    tcase_add_test(web, watched_in_chromium_while_a_match_runs);
    suite_add_tcase(s, web);
    return s;
}
