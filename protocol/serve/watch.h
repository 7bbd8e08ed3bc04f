/* watch.h: `denham serve --watch FILE` (watch.c, with its live-file reader
 * watch_live.c): a running match in the browser, read from the live files
 * of `denham-match --live-file`. serve.c hands it the paths from its
 * command line and the requests for /watch and /api/watch/...; it sees
 * nothing else of the server. */
#ifndef DENHAM_WATCH_H
#define DENHAM_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conn.h"

#define WATCH_FILES_MAX 16   /* --watch at most this many times */
#define WATCH_PATH_MAX 1024  /* a path's length */
#define WATCH_STREAMS_MAX 8  /* event streams at once */

/* A live file to watch, from the command line (the only paths ever read);
 * false when there are WATCH_FILES_MAX already, the path is empty or too
 * long. Before watch_start. */
bool watch_add(const char *path);
/* Starts reading the files (a thread polling them); notify() wakes the
 * loop when the page's data changed. True, doing nothing, when none was
 * added; false when out of memory or threads. */
bool watch_start(void (*notify)(void));
/* Ends the thread and frees everything (the loop's connections closed first). */
void watch_stop(void);
/* Answers a request for /watch, /watch.html, /watch.js, /watch.css or
 * /api/watch/... and returns true; without --watch every one of them is a
 * 404, and the page's files are left to serve.c (false) with it. False
 * for any other path. In the loop. */
bool watch_route(conn_t *c, const char *method, const char *path);
/* In the loop, when woken: the newest data to the event streams. */
void watch_pump(void);
/* In the loop: the streams' heartbeats. */
void watch_tick(int64_t now);
/* The threads it runs (the poller). */
int watch_threads(void);

/* For the fuzz target of the live-file reader: the bytes read as the
 * first watched file's content, in two pieces split at `cut` (as two polls
 * read them); the page's snapshot built, and every finished game's replay;
 * then all of it forgotten. The snapshot's JSON (malloc'd; NULL when out of
 * memory). Without watch_start: the fuzzer's alone. */
char *watch_fuzz_read(const char *data, size_t size, size_t cut);

#endif
