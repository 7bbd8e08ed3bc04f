/* http_client.h: a small HTTP/1.1 client over loopback for the server
 * tests, and a running `denham serve` to point it at. */
#ifndef DENHAM_HTTP_CLIENT_H
#define DENHAM_HTTP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct served {
    pid_t pid;
    int port;
} served_t;

/* Starts ./denham serve with these extra arguments (space-separated) on a
 * free port; false if it did not print its address. */
bool served_start(served_t *s, const char *args);
/* `python3 -m http.server` on a free loopback port, serving dir (the
 * static board, make web-static): a server that knows nothing of Denham;
 * isolating: bench/tools/isolating_server.py instead, the same server
 * that also sends the headers of cross-origin isolation (COOP, COEP), so
 * that its pages have shared memory; false if it did not say where it
 * listens. */
bool static_start(served_t *s, const char *dir, bool isolating);
/* SIGTERM, then waits; the server's exit status (-1 if it had to be
 * killed, or ended by the signal, as Python's server does). */
int served_stop(served_t *s);

typedef struct reply {
    int status;
    char body[65536];
} reply_t;

/* A connection to the server (a socket), or -1. */
int http_connect(int port);
/* Sends a raw request (the whole text) and reads the reply until the server
 * closes; status 0 when nothing came. */
bool http_raw(int port, const char *request, size_t len, reply_t *r);
/* A request with our own Host (and an Origin when origin is not NULL). */
bool http_request(int port, const char *method, const char *path, const char *body, const char *origin, reply_t *r);
/* Opens a connection and sends the head of a request for an event stream;
 * the socket, to read events from with http_read_until. */
int http_open_events(int port, const char *id);
/* Reads from fd until `needle` has been seen or timeout_ms passed; the
 * text read so far in buf. */
bool http_read_until(int fd, const char *needle, char *buf, size_t cap, int timeout_ms);
/* Children of pid still alive (their count, from /proc). */
int children_of(pid_t pid);
/* The same children's pids, at most max of them (out may be NULL); their
 * number. */
int children_list(pid_t pid, pid_t *out, int max);
/* A number from /proc/<pid>/status by its key ("VmRSS" in KiB, "Threads"),
 * or -1. */
long proc_status(pid_t pid, const char *key);
/* The CPU time pid has used (user and system), in ms, from /proc/<pid>/stat;
 * 0 when it cannot be read. */
long proc_cpu_ms(pid_t pid);

#endif
