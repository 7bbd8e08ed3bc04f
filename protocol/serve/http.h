/*
 * http.h: the HTTP/1.1 pieces of `denham serve` that need no socket: the
 * request parser with its limits, the Host and Origin checks, the event
 * stream's framing and the check that a command from the page is one
 * protocol line. Pure functions, so that the tests and the fuzzer reach
 * them directly.
 *
 * May not reach into the engine or any game.
 */
#ifndef DENHAM_HTTP_H
#define DENHAM_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_LINE_MAX 8192      /* the request line */
#define HTTP_HEAD_MAX 16384     /* the request line and every header together */
#define HTTP_HEADERS_MAX 64     /* header lines */
#define HTTP_BODY_MAX 262144    /* a body (a command: the longest position a GUI sends) */
#define HTTP_METHOD_MAX 8
#define HTTP_VALUE_MAX 256      /* the values kept: Host, Origin, Last-Event-ID */

typedef struct http_request {
    char method[HTTP_METHOD_MAX];
    char path[HTTP_LINE_MAX]; /* the target without its query */
    char host[HTTP_VALUE_MAX];
    char origin[HTTP_VALUE_MAX];
    char last_event_id[HTTP_VALUE_MAX];
    bool has_origin;
    long content_length; /* -1: none given */
    size_t head_len;     /* bytes of the request line and headers, blank line included */
} http_request_t;

/* The status of a parse: 0 (HTTP_INCOMPLETE) while the head has not all
 * arrived, 200 when it parsed, else the 4xx or 5xx to answer with. */
#define HTTP_INCOMPLETE 0

/* Parses the head of a request from the len bytes at buf. Refuses, with
 * the status to answer: a request line over HTTP_LINE_MAX (414), a head
 * over HTTP_HEAD_MAX or more than HTTP_HEADERS_MAX headers (431), a body
 * over HTTP_BODY_MAX (413), a chunked body (411: a length is required), a
 * version other than HTTP/1.0 or 1.1 (505), anything malformed (400). */
int http_parse(const char *buf, size_t len, http_request_t *req);

/* The reason phrase of a status. */
const char *http_reason(int status);

/* Host check against DNS rebinding: true when host (the Host header) names
 * this server: 127.0.0.1, localhost or [::1] at our port, the address it
 * was told to listen on, or, when listening on every address, any IP
 * literal at our port (a name would be a rebinding attack's). */
bool http_host_allowed(const char *host, const char *listen_host, int port);
/* Origin check: a page of this server only ("http://" + the Host). */
bool http_origin_allowed(const char *origin, const char *host);

/* The head of an answer (status line, Content-Type, Content-Length: len,
 * Connection: close and the security headers, to the blank line) in
 * out[cap]; its length, or 0 when it does not fit. */
size_t http_response_head(char *out, size_t cap, int status, const char *type, size_t len);
/* An error's body, {"error": message, "status": N} (message: no quote or
 * backslash); its length. */
size_t http_error_body(char *out, size_t cap, int status, const char *message);
/* What comes before an event's data (`id: N`, `event: E` unless event is
 * NULL, `data: `); the data and "\n\n" follow. Its length, 0 if it does
 * not fit. */
size_t http_sse_head(char *out, size_t cap, unsigned long long id, const char *event);
/* One Server-Sent Events message: `id`, `event` (NULL: a plain message)
 * and `data` (one line: no CR or LF). Returns its length, or 0 when it does
 * not fit in cap. */
size_t http_sse_frame(char *out, size_t cap, unsigned long long id, const char *event, const char *data);

/* True when body (len bytes) is exactly one protocol line: no CR, LF or
 * NUL, no other control character, not empty, at most HTTP_BODY_MAX; else
 * false with the reason. */
bool http_command_ok(const char *body, size_t len, const char **why);

/* The server's limits on what a command may ask of the machine:
 * `setoption name Hash value N` over max_hash_mb MB, or Threads over
 * max_threads (the words split at blanks as the engine splits them, the
 * command word and the option's name in any case), is CAPPED: out[cap]
 * holds the same command at the limit, *why says so. A Hash or Threads
 * whose value is not a whole number is REFUSED (*why), and so is any
 * EvalFile with a value (a path on the server's machine); anything else
 * is OK, unchanged. */
enum { HTTP_LIMIT_OK, HTTP_LIMIT_CAPPED, HTTP_LIMIT_REFUSED };
int http_command_limit(const char *line, size_t len, long max_hash_mb, long max_threads, char *out, size_t cap,
                       const char **why);

/* What a command line does to the engine's search, by its first word as
 * the engine reads it: `go` starts one, `stop` and `quit` end it. */
enum { HTTP_COMMAND_OTHER, HTTP_COMMAND_GO, HTTP_COMMAND_STOP, HTTP_COMMAND_QUIT };
int http_command_kind(const char *line, size_t len);
/* The threads a `setoption name Threads value N` line sets (N, at least 1),
 * or -1 for any other line. */
long http_command_threads(const char *line, size_t len);

#endif
