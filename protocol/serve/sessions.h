/* sessions.h: the sessions of `denham serve` (sessions.c): each one an
 * engine process, the thread that reads it, and the lines it wrote, kept
 * for the page's event stream. serve.c answers HTTP with these; it sees
 * no session's fields. */
#ifndef DENHAM_SESSIONS_H
#define DENHAM_SESSIONS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SESSIONS_LIMIT 64       /* the most --max-sessions allows */
#define SESSION_LINE_MAX 65536  /* a longer engine line is passed on in pieces */

typedef struct sessions_config {
    const char *engine;          /* a shell command, or NULL: engine_path */
    const char *engine_path;     /* this binary */
    int max_sessions;            /* 1..SESSIONS_LIMIT */
    int64_t idle_ms;             /* a session without a command for this long is closed */
    const atomic_bool *stopping; /* the server is stopping: no engine is started again */
} sessions_config_t;

typedef struct session session_t;

/* Sets up the session slots and starts the thread that closes idle and
 * abandoned sessions; false when out of memory or threads. */
bool sessions_start(const sessions_config_t *cfg);
/* Closes every session and waits until every engine is reaped. */
void sessions_stop(void);
/* How many sessions are open. */
int sessions_in_use(void);

/* A new session with its engine running, held once (release it), or NULL
 * when every slot is taken (*full) or the engine cannot start. */
session_t *session_open(bool *full);
/* The open session with this id, held (release it), or NULL. */
session_t *session_find(const char *id);
void session_release(session_t *s);
/* Its id: 32 lowercase hex digits. */
const char *session_id(const session_t *s);
/* Closing: its engine is being ended; only its event stream still reads. */
bool session_closing(session_t *s);
/* Ends the session's engine and marks it for freeing; `why` goes to the page. */
void session_close(session_t *s, const char *why);
/* Kills the engine; the session starts another and says so. */
void session_restart(session_t *s);
/* Writes one line (without its line break) to the engine; false when no
 * engine is running. */
bool session_send_line(session_t *s, const char *line, size_t len);

/* The event stream: a listener keeps the session alive while its page is
 * away for less than the grace time. */
void session_listen_begin(session_t *s);
void session_listen_end(session_t *s);

typedef enum { SESSION_FRAME, SESSION_QUIET, SESSION_ENDED } session_wait_t;
/* The entry numbered *next or the next one still held, as a Server-Sent
 * Events frame in frame[cap] (*len bytes), *next moved past it; waits up to
 * wait_ms for one. QUIET: nothing new yet; ENDED: the session is closed and
 * every entry was given. */
session_wait_t session_next_frame(session_t *s, unsigned long long *next, int wait_ms, char *frame, size_t cap,
                                  size_t *len);

#endif
