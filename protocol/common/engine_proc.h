/*
 * engine_proc.h: one engine child process spoken to over pipes.
 * Lines are read with a deadline, so a hung engine never hangs the runner;
 * the engine's stderr is appended to a log file.
 */
#ifndef DENHAM_ENGINE_PROC_H
#define DENHAM_ENGINE_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define EPROC_LINE_MAX 8192

typedef struct eproc {
    pid_t pid; /* 0 when not running */
    int to_fd, from_fd;
    char buf[EPROC_LINE_MAX * 2];
    size_t len;
} eproc_t;

/* Starts `/bin/sh -c "exec <cmd>"`; stderr goes to log_path (appended) or
 * is discarded when log_path is NULL. */
bool eproc_start(eproc_t *e, const char *cmd, const char *log_path);
/* Sends one line (a newline is added); false when the engine is gone. */
bool eproc_send(eproc_t *e, const char *line);

enum { EPROC_LINE = 1, EPROC_TIMEOUT = 0, EPROC_EOF = -1 };
/* Reads one line (without its newline) before deadline_ms on timeman's clock. */
int eproc_read_line(eproc_t *e, char *line, size_t len, int64_t deadline_ms);
/* Reads lines until one starts with `prefix`; same return values. */
int eproc_wait_for(eproc_t *e, const char *prefix, char *line, size_t len, int64_t deadline_ms);
/* Asks the engine to quit, waits up to wait_ms, then kills it. */
void eproc_stop(eproc_t *e, int wait_ms);
void eproc_kill(eproc_t *e);

#endif
