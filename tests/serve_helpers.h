/* serve_helpers.h: a `denham serve` for the serve suite's tests
 * (test_serve.c, test_serve_loop.c), and what they ask of it: sessions,
 * event streams, raw exchanges, the processes it leaves. Drives the server
 * as a program (bench/tools/http_client.h), reaching into none of its code. */
#ifndef DENHAM_SERVE_HELPERS_H
#define DENHAM_SERVE_HELPERS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../bench/tools/http_client.h"

/* The server of the running test. */
extern served_t server;

/* Starts it with these arguments (and makes the test the subreaper of
 * what it leaves); stops it, checking that it exited 0 and left no child. */
void server_up(const char *args);
void server_down(void);
/* The session id from a 201 reply. */
void reply_session_id(const reply_t *r, char id[33]);
/* Processes descended from this test whose command line holds needle
 * (the servers and a shell's child before its exec apart). */
int procs_with(const char *needle);
/* Waits up to ms for procs_with(needle) to be n, writing each change of
 * the count (" ms:count") into seen. */
bool procs_settle(const char *needle, int n, int ms, char *seen, size_t cap);
bool procs_become(const char *needle, int n, int ms);
/* Waits up to ms for process pid (not only a child of ours) to have
 * exited as its parent's wait sees it. A dying process's command line
 * goes before its parent can know (procs_with no longer counts it while
 * the server's waitid does not see it yet): this is the server's view. */
bool pid_exited_within(pid_t pid, int ms);
/* SIGTERM to the server; the milliseconds until it exited with status 0,
 * or -1 (then killed). */
int64_t stop_timed(void);
/* A session opened, its event stream open and started; the stream's socket. */
int open_with_events(char id[33], char *events, size_t cap);
void post_command(const char *id, const char *line, reply_t *r);
/* A command of 200 KB (one line): more than an engine's pipe holds. */
char *big_command(void);
/* The whole answer to a raw request, until the server closes (5 s at most). */
size_t exchange(const char *request, size_t len, char *out, size_t cap);
/* The status of a whole answer, after checking that its Content-Length is
 * its body's length (no body for HEAD). */
int checked_status(const char *answer, size_t len, bool head);

/* The serve suite's cases of issue 64 (test_serve_loop.c). */
void serve_loop_cases(Suite *s);

#endif
