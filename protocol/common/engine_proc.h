/*
 * engine_proc.h: one engine child process spoken to over pipes: the one
 * place that starts an engine, for the match runner and `denham serve`.
 *
 * An engine runs in a process group of its own (a shell command's children
 * with it), its pipes close-on-exec (another engine never holds them), its
 * stderr appended to a log or discarded, and, when asked, it dies with the
 * thread that started it. Lines go in with a deadline (our end of its input
 * is non-blocking: an engine that stops reading never blocks the writer),
 * come out with a deadline, and the engine ends as a group, reaped.
 *
 * Threads: one thread reads (eproc_read_line, eproc_end); any thread may
 * write (one at a time, in order) and kill the group. A kill never reaches
 * a reaped engine's pid, which may already name another process.
 */
#ifndef DENHAM_ENGINE_PROC_H
#define DENHAM_ENGINE_PROC_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define EPROC_LINE_MAX 8192
#define EPROC_SEND_MS 10000 /* eproc_send's deadline: an engine that reads nothing for this long has hung */

typedef struct eproc_spec {
    const char *cmd;      /* a shell command, run as `/bin/sh -c "exec CMD"`; or NULL: */
    const char *path;     /* this program, run directly (as "denham") */
    const char *log_path; /* stderr appended here; NULL: /dev/null */
    bool die_with_parent; /* SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG) */
    size_t line_max;      /* the read buffer (0: 2 * EPROC_LINE_MAX); a longer line comes in pieces of it */
    bool caller_reads;    /* no read buffer: the caller reads from_fd itself (an event loop) */
    int nice;             /* added to the engine's nice value (0: the caller's priority) */
} eproc_spec_t;

typedef struct eproc {
    pthread_mutex_t lock;       /* pid and killed, so that a kill never reaches a reaped pid */
    pthread_mutex_t write_lock; /* to_fd and the writer's state: one line at a time */
    pid_t pid;                  /* the group's leader; 0 when not running */
    bool killed;
    int to_fd, from_fd;
    bool stalled; /* a write timed out: the next ones do not wait */
    bool broken;  /* one timed out midway: the input holds half a line, nothing more goes in */
    char *buf;    /* the reader's: bytes read and not yet taken as lines */
    size_t cap, len;
} eproc_t;

enum { EPROC_LINE = 1, EPROC_OK = 1, EPROC_TIMEOUT = 0, EPROC_EOF = -1 };

/* Before the first start (eproc_start does it): not running, locks ready. */
void eproc_init(eproc_t *e);
/* After the last end. */
void eproc_destroy(eproc_t *e);
/* Starts the engine described; e initialised and not running. */
bool eproc_spawn(eproc_t *e, const eproc_spec_t *spec);
/* eproc_init, then `/bin/sh -c "exec <cmd>"` with stderr to log_path
 * (appended) or discarded: for an eproc that one thread owns. */
bool eproc_start(eproc_t *e, const char *cmd, const char *log_path);
bool eproc_running(eproc_t *e);

/* Writes len bytes before deadline_ms (timeman's clock): EPROC_OK;
 * EPROC_TIMEOUT when the engine did not read them in time (after one
 * timeout the next writes do not wait, and after one cut midway none is
 * taken: the engine has stopped reading); EPROC_EOF when no engine runs or
 * its input is closed. */
int eproc_write(eproc_t *e, const char *data, size_t len, int64_t deadline_ms);
/* Sends one line (a newline is added) within EPROC_SEND_MS; false when the
 * engine is gone or does not read. */
bool eproc_send(eproc_t *e, const char *line);

/* Reads one line (without its newline) before deadline_ms: EPROC_LINE,
 * EPROC_TIMEOUT, or EPROC_EOF when its output closed. A line longer than
 * the buffer comes in pieces; one longer than len is cut to len - 1. */
int eproc_read_line(eproc_t *e, char *line, size_t len, int64_t deadline_ms);
/* Reads lines until one starts with `prefix`; same return values. */
int eproc_wait_for(eproc_t *e, const char *prefix, char *line, size_t len, int64_t deadline_ms);
/* True when the group's leader has exited (not yet reaped). */
bool eproc_exited(eproc_t *e);

/* SIGKILL to the whole group, from any thread; never blocks. */
void eproc_kill_group(eproc_t *e);
/* Ends the engine: waits up to grace_ms for its leader to exit, kills the
 * group (stragglers too), reaps the leader (its wait status in *status
 * when not NULL) and closes the pipes. The reading thread's. */
void eproc_end(eproc_t *e, int grace_ms, int *status);
/* The end without waiting, for an event loop (which has stopped watching
 * the pipes): false while the group's leader runs; once it has exited,
 * kills what is left of its group, reaps the leader (its wait status in
 * *status), closes the pipes and returns true. */
bool eproc_end_now(eproc_t *e, int *status);
/* Asks the engine to quit, waits up to wait_ms, then kills it. */
void eproc_stop(eproc_t *e, int wait_ms);
/* Kills it at once and reaps it. */
void eproc_kill(eproc_t *e);

#endif
