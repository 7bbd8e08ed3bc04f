/* sessions.h: the sessions of `denham serve` (sessions.c): each an engine
 * process whose pipes the server's loop reads and writes, the lines it
 * said (a ring, ring.h) and the event streams that send them to its page.
 * serve.c routes requests here; it sees no session's fields. Single-
 * threaded: the loop's thread alone calls these. */
#ifndef DENHAM_SESSIONS_H
#define DENHAM_SESSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conn.h"
#include "evloop.h"

#define SESSIONS_LIMIT 64       /* the most --max-sessions allows */
#define SESSION_LINE_MAX 65536  /* a longer engine line is passed on in pieces */
#define SESSION_STREAMS_MAX 4   /* event streams open on one session at once */
#define ENGINE_WRITE_MS 2000    /* the longest a command waits for its engine to read it */

typedef struct sessions_config {
    const char *engine;      /* a shell command, or NULL: engine_path */
    const char *engine_path; /* this binary */
    int max_sessions;        /* 1..SESSIONS_LIMIT */
    int64_t idle_ms;         /* a session without a command for this long is closed */
    long max_search_threads; /* searching threads of every engine together; more wait */
    evloop_t *loop;
} sessions_config_t;

typedef struct session session_t;

bool sessions_start(const sessions_config_t *cfg);
/* Kills every engine (as a group) and reaps it, within about a second. */
void sessions_stop(void);
/* Closes sessions idle or abandoned, ends engines that closed their
 * output, answers commands past their wait, keeps streams alive. */
void sessions_tick(int64_t now);
/* SIGCHLD: an engine (or its group's leader) may have ended. */
void sessions_child_exited(void);

/* For /api/info: sessions open, threads searching now, searches waiting. */
int sessions_in_use(void);
long sessions_searching_threads(void);
int sessions_waiting_searches(void);

/* A new session with its engine running, or NULL with the reason. */
session_t *session_open(const char **why);
/* The open session with this id, or NULL. */
session_t *session_find(const char *id);
const char *session_id(const session_t *s);
/* Closing: its engine is being ended; only its event streams still read. */
bool session_closing(const session_t *s);
/* Ends the session's engine; `why` goes to the page. */
void session_close(session_t *s, const char *why);
/* Kills the engine; the session starts another and says so. False when
 * the engine is down (it crashed too often). */
bool session_restart(session_t *s);
/* One protocol line (already checked and capped) for the engine; answers
 * c: 202 once the engine has it (or it waits for a core to search on),
 * 409 when no engine runs, 503 when the engine does not read it within
 * ENGINE_WRITE_MS. note: a line of the server's for the stream first, or NULL. */
void session_command(session_t *s, conn_t *c, const char *line, size_t len, const char *note);
/* The session's event stream from the entry after last_seen; answers c
 * (429 when SESSION_STREAMS_MAX are open). */
void session_stream(session_t *s, conn_t *c, unsigned long long last_seen);

#endif
