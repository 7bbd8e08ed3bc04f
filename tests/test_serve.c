/* test_serve.c: `denham serve`: the request parser and its limits, the Host
 * and Origin checks, the event stream's framing and the one-line command
 * check as functions; then a real server on loopback: sessions up to the
 * limit and a 503 after, refused hosts, origins and injected lines, engine
 * lines streamed, a crashed engine restarted, idle sessions closed, a slow
 * client not blocking others, and no engine left after the server. */
#define _DEFAULT_SOURCE /* usleep */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../engine/core/timeman.h"
#include "../protocol/serve/http.h"
#include "helpers.h"
#include "../bench/tools/http_client.h"

static int parse(const char *text, http_request_t *req) { return http_parse(text, strlen(text), req); }

START_TEST(parser_reads_requests_and_keeps_its_limits)
{
    http_request_t r;
    ck_assert_int_eq(parse("GET /index.html?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://a\r\n"
                           "Last-Event-ID: 42\r\n\r\n",
                           &r),
                     200);
    ck_assert_str_eq(r.method, "GET");
    ck_assert_str_eq(r.path, "/index.html");
    ck_assert_str_eq(r.host, "127.0.0.1:8080");
    ck_assert(r.has_origin && strcmp(r.origin, "http://a") == 0);
    ck_assert_str_eq(r.last_event_id, "42");
    ck_assert_int_eq(r.content_length, -1);
    ck_assert_int_eq(parse("POST /api/sessions HTTP/1.0\nHost: h:1\nContent-Length: 5\n\nhello", &r), 200);
    ck_assert_int_eq(r.content_length, 5);
    ck_assert_int_eq((int)r.head_len, (int)strlen("POST /api/sessions HTTP/1.0\nHost: h:1\nContent-Length: 5\n\n"));
    /* Not all there yet. */
    ck_assert_int_eq(parse("GET / HTTP/1.1\r\nHost: h:1\r\n", &r), HTTP_INCOMPLETE);
    ck_assert_int_eq(parse("GET / HT", &r), HTTP_INCOMPLETE);
    /* Refused, each with its status. */
    static const struct {
        const char *text;
        int status;
    } bad[] = {
        {"GET / HTTP/1.1\r\n\r\n", 400},                                        /* no Host */
        {"GET / HTTP/2.0\r\nHost: h:1\r\n\r\n", 505},
        {"GET index HTTP/1.1\r\nHost: h:1\r\n\r\n", 400},                      /* not a path */
        {"G(T / HTTP/1.1\r\nHost: h:1\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nHost: h:1\r\nHost: h:2\r\n\r\n", 400},            /* two Hosts */
        {"GET / HTTP/1.1\r\nHost : h:1\r\n\r\n", 400},                         /* blank before the colon */
        {"GET / HTTP/1.1\r\nHost: h:1\r\n folded\r\n\r\n", 400},
        {"POST / HTTP/1.1\r\nHost: h:1\r\nContent-Length: 1x\r\n\r\n", 400},
        {"POST / HTTP/1.1\r\nHost: h:1\r\nContent-Length: 999999999\r\n\r\n", 413},
        {"POST / HTTP/1.1\r\nHost: h:1\r\nTransfer-Encoding: chunked\r\n\r\n", 411},
        {"GET /a\x01 HTTP/1.1\r\nHost: h:1\r\n\r\n", 400},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(parse(bad[i].text, &r) == bad[i].status, "'%s': %d", bad[i].text, parse(bad[i].text, &r));
    /* The limits: a request line, the head, the number of headers. */
    static char big[HTTP_HEAD_MAX * 2];
    memset(big, 'a', sizeof big - 1);
    memcpy(big, "GET /", 5);
    ck_assert_int_eq(http_parse(big, HTTP_LINE_MAX + 10, &r), 414);
    snprintf(big, sizeof big, "GET / HTTP/1.1\r\nHost: h:1\r\n");
    size_t n = strlen(big);
    for (int i = 0; i < HTTP_HEADERS_MAX + 1; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, "X-%d: 1\r\n", i);
    snprintf(big + n, sizeof big - n, "\r\n");
    ck_assert_int_eq(parse(big, &r), 431);
    snprintf(big, sizeof big, "GET / HTTP/1.1\r\nHost: h:1\r\nX: ");
    n = strlen(big);
    memset(big + n, 'b', HTTP_HEAD_MAX);
    big[n + HTTP_HEAD_MAX] = 0;
    ck_assert_int_eq(parse(big, &r), 431);
    ck_assert_str_eq(http_reason(431), "Request Header Fields Too Large");
}
END_TEST

START_TEST(host_and_origin_checks)
{
    ck_assert(http_host_allowed("127.0.0.1:8080", "127.0.0.1", 8080));
    ck_assert(http_host_allowed("localhost:8080", "127.0.0.1", 8080));
    ck_assert(http_host_allowed("LOCALHOST:8080", "127.0.0.1", 8080));
    ck_assert(http_host_allowed("[::1]:8080", "127.0.0.1", 8080));
    ck_assert(!http_host_allowed("127.0.0.1:8081", "127.0.0.1", 8080)); /* another port */
    ck_assert(!http_host_allowed("evil.example:8080", "127.0.0.1", 8080)); /* DNS rebinding */
    ck_assert(!http_host_allowed("127.0.0.1", "127.0.0.1", 8080));
    ck_assert(!http_host_allowed("", "127.0.0.1", 8080));
    ck_assert(!http_host_allowed("10.0.0.5:8080", "127.0.0.1", 8080));
    ck_assert(http_host_allowed("10.0.0.5:8080", "10.0.0.5", 8080)); /* --host 10.0.0.5 */
    ck_assert(http_host_allowed("10.0.0.5:8080", "0.0.0.0", 8080));  /* every address: IP literals */
    ck_assert(!http_host_allowed("evil.example:8080", "0.0.0.0", 8080));
    ck_assert(http_origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080"));
    ck_assert(!http_origin_allowed("http://evil.example", "127.0.0.1:8080"));
    ck_assert(!http_origin_allowed("https://127.0.0.1:8080", "127.0.0.1:8080"));
    ck_assert(!http_origin_allowed("null", "127.0.0.1:8080"));
}
END_TEST

START_TEST(event_frames_and_one_line_commands)
{
    char out[256];
    ck_assert_int_eq((int)http_sse_frame(out, sizeof out, 7, NULL, "bestmove e1e3"), 27);
    ck_assert_str_eq(out, "id: 7\ndata: bestmove e1e3\n\n");
    http_sse_frame(out, sizeof out, 8, "engine", "{\"state\":\"started\"}");
    ck_assert_str_eq(out, "id: 8\nevent: engine\ndata: {\"state\":\"started\"}\n\n");
    ck_assert_int_eq((int)http_sse_frame(out, sizeof out, 9, NULL, "two\nlines"), 0);
    ck_assert_int_eq((int)http_sse_frame(out, 10, 9, NULL, "does not fit"), 0);
    const char *why;
    ck_assert(http_command_ok("go depth 3", 10, &why));
    ck_assert(!http_command_ok("go depth 3\nquit", 15, &why) && strstr(why, "one line"));
    ck_assert(!http_command_ok("go\rquit", 7, &why));
    ck_assert(!http_command_ok("go\0quit", 7, &why));
    ck_assert(!http_command_ok("go\x1b[2J", 6, &why));
    ck_assert(!http_command_ok("", 0, &why));
}
END_TEST

static served_t server;

static void server_up(const char *args) { ck_assert_msg(served_start(&server, args), "denham serve did not start"); }

static void server_down(void)
{
    pid_t pid = server.pid;
    ck_assert_int_eq(served_stop(&server), 0);
    ck_assert_int_eq(children_of(pid), 0);
}

/* The session id from a 201 reply. */
static void session_id(const reply_t *r, char id[33])
{
    const char *at = strstr(r->body, "\"id\":\"");
    ck_assert_ptr_nonnull(at);
    snprintf(id, 33, "%.32s", at + 6);
}

START_TEST(sessions_up_to_the_limit_then_503)
{
    server_up("--max-sessions 2");
    reply_t r;
    char ids[2][33];
    for (int i = 0; i < 2; i++) {
        ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r));
        ck_assert_int_eq(r.status, 201);
        session_id(&r, ids[i]);
    }
    ck_assert_str_ne(ids[0], ids[1]);
    ck_assert_int_eq(children_of(server.pid), 2); /* an engine each */
    ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r));
    ck_assert_int_eq(r.status, 503);
    ck_assert_msg(strstr(r.body, "every engine is taken"), "%s", r.body);
    /* Closing one frees its place, and its engine goes. */
    char path[128];
    snprintf(path, sizeof path, "/api/sessions/%s", ids[0]);
    ck_assert(http_request(server.port, "DELETE", path, NULL, NULL, &r) && r.status == 200);
    int64_t deadline = timeman_now_ms() + 5000;
    while (timeman_now_ms() < deadline && children_of(server.pid) != 1)
        usleep(50 * 1000);
    ck_assert_int_eq(children_of(server.pid), 1);
    deadline = timeman_now_ms() + 5000;
    do
        http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r);
    while (r.status == 503 && timeman_now_ms() < deadline && usleep(100 * 1000) == 0);
    ck_assert_int_eq(r.status, 201);
    server_down();
}
END_TEST

START_TEST(refuses_other_hosts_origins_paths_and_injected_lines)
{
    server_up("");
    reply_t r;
    char req[512];
    int n = snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: evil.example:%d\r\n\r\n", server.port);
    ck_assert(http_raw(server.port, req, (size_t)n, &r));
    ck_assert_int_eq(r.status, 403);
    ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, "http://evil.example", &r));
    ck_assert_int_eq(r.status, 403);
    ck_assert_int_eq(children_of(server.pid), 0);
    char origin[64];
    snprintf(origin, sizeof origin, "http://127.0.0.1:%d", server.port);
    ck_assert(http_request(server.port, "GET", "/", NULL, origin, &r) && r.status == 200);
    ck_assert(strstr(r.body, "<title>Denham</title>"));
    static const char *const missing[] = {"/../../etc/passwd", "/etc/passwd", "/web/index.html", "/%2e%2e/x", "/api/x"};
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        ck_assert(http_request(server.port, "GET", missing[i], NULL, NULL, &r));
        ck_assert_msg(r.status == 404 && !strstr(r.body, "root:"), "%s: %d", missing[i], r.status);
    }
    ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r) && r.status == 201);
    char id[33], path[128];
    session_id(&r, id);
    snprintf(path, sizeof path, "/api/sessions/%s/commands", id);
    ck_assert(http_request(server.port, "POST", path, "isready\nquit", NULL, &r));
    ck_assert_int_eq(r.status, 400);
    ck_assert(http_request(server.port, "POST", path, "isready\r", NULL, &r) && r.status == 400);
    ck_assert(http_request(server.port, "POST", "/api/sessions/0123456789abcdef0123456789abcdef/commands", "d", NULL,
                           &r) &&
              r.status == 404);
    ck_assert(http_request(server.port, "PUT", "/", NULL, NULL, &r) && r.status == 405);
    /* The engine is still the one it was: the refused lines reached nothing. */
    ck_assert_int_eq(children_of(server.pid), 1);
    server_down();
}
END_TEST

/* A command goes to the engine as one line, and its answer comes back on
 * the event stream; `quit` makes the engine exit, and the server reports
 * it and starts another. */
START_TEST(engine_lines_stream_and_a_crash_restarts)
{
    server_up("");
    reply_t r;
    ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r) && r.status == 201);
    char id[33], path[128];
    session_id(&r, id);
    int fd = http_open_events(server.port, id);
    ck_assert_int_ge(fd, 0);
    static char events[65536];
    events[0] = 0;
    ck_assert(http_read_until(fd, "\"state\":\"started\"", events, sizeof events, 10000));
    ck_assert(strstr(events, "Content-Type: text/event-stream"));
    snprintf(path, sizeof path, "/api/sessions/%s/commands", id);
    ck_assert(http_request(server.port, "POST", path, "go depth 3", NULL, &r) && r.status == 202);
    ck_assert_msg(http_read_until(fd, "data: bestmove ", events, sizeof events, 10000), "%s", events);
    ck_assert(http_request(server.port, "POST", path, "quit", NULL, &r) && r.status == 202);
    ck_assert_msg(http_read_until(fd, "\"state\":\"restarted\"", events, sizeof events, 10000), "%s", events);
    ck_assert_msg(strstr(events, "\"state\":\"crashed\",\"detail\":\"the engine exited with status 0\""), "%s",
                  events);
    ck_assert(http_request(server.port, "POST", path, "isready", NULL, &r) && r.status == 202);
    ck_assert(http_read_until(fd, "data: readyok", events, sizeof events, 10000));
    /* A hung engine: the page asks for a new one. */
    snprintf(path, sizeof path, "/api/sessions/%s/restart", id);
    ck_assert(http_request(server.port, "POST", path, NULL, NULL, &r) && r.status == 202);
    ck_assert(http_read_until(fd, "restarted on request", events, sizeof events, 10000));
    close(fd);
    server_down();
}
END_TEST

/* Idle sessions close (here after 2 s); a session whose page went away
 * too. Meanwhile a client that sends nothing blocks nobody. */
START_TEST(idle_sessions_close_and_slow_clients_block_nobody)
{
    server_up("--idle-seconds 2");
    reply_t r;
    ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r) && r.status == 201);
    char id[33];
    session_id(&r, id);
    int fd = http_open_events(server.port, id);
    static char events[65536];
    events[0] = 0;
    /* A slow client: half a request, then silence. */
    int slow = http_connect(server.port);
    ck_assert_int_ge(slow, 0);
    static const char half[] = "GET / HTTP/1.1\r\nHo";
    ck_assert_int_eq(send(slow, half, sizeof half - 1, 0), (int)sizeof half - 1);
    int64_t start = timeman_now_ms();
    ck_assert(http_request(server.port, "GET", "/app.js", NULL, NULL, &r) && r.status == 200);
    ck_assert_int_lt(timeman_now_ms() - start, 2000);
    ck_assert_msg(http_read_until(fd, "idle for too long", events, sizeof events, 10000), "%s", events);
    close(fd);
    close(slow);
    int64_t deadline = timeman_now_ms() + 5000;
    while (timeman_now_ms() < deadline && children_of(server.pid) > 0)
        usleep(50 * 1000);
    ck_assert_int_eq(children_of(server.pid), 0);
    char path[128];
    snprintf(path, sizeof path, "/api/sessions/%s/commands", id);
    ck_assert(http_request(server.port, "POST", path, "d", NULL, &r));
    ck_assert_int_eq(r.status, 404);
    server_down();
}
END_TEST

START_TEST(port_taken_is_a_clear_error)
{
    server_up("");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "./denham serve --port %d 2>&1; echo status $?", server.port);
    const char *out = shell(cmd);
    ck_assert_msg(strstr(out, "cannot listen on 127.0.0.1 port") && strstr(out, "--port") && strstr(out, "status 1"),
                  "%s", out);
    ck_assert_msg(strstr(shell("./denham serve --max-sessions 0 2>&1; echo status $?"), "status 2"), "bad option");
    server_down();
}
END_TEST

Suite *suite_serve(void)
{
    Suite *s = suite_create("serve");
    TCase *tc = tcase_create("http");
    tcase_add_test(tc, parser_reads_requests_and_keeps_its_limits);
    tcase_add_test(tc, host_and_origin_checks);
    tcase_add_test(tc, event_frames_and_one_line_commands);
    suite_add_tcase(s, tc);
    tc = tcase_create("server");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sessions_up_to_the_limit_then_503);
    tcase_add_test(tc, refuses_other_hosts_origins_paths_and_injected_lines);
    tcase_add_test(tc, engine_lines_stream_and_a_crash_restarts);
    tcase_add_test(tc, idle_sessions_close_and_slow_clients_block_nobody);
    tcase_add_test(tc, port_taken_is_a_clear_error);
    suite_add_tcase(s, tc);
    return s;
}
