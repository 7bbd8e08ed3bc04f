/* watch.h: `denham serve --watch FILE` (watch.c): a running match in the
 * browser, read from the live files of `denham-match --live-file`. serve.c
 * hands it the paths from its command line and the requests for /watch and
 * /api/watch/...; it sees nothing else of the server. */
#ifndef DENHAM_WATCH_H
#define DENHAM_WATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define WATCH_FILES_MAX 16   /* --watch at most this many times */
#define WATCH_PATH_MAX 1024  /* a path's length */

/* A live file to watch, from the command line (the only paths ever read);
 * false when there are WATCH_FILES_MAX already, the path is empty or too
 * long. Before watch_start. */
bool watch_add(const char *path);
/* Starts reading the files (a thread polling them); true, doing nothing,
 * when none was added; false when out of memory or threads. */
bool watch_start(const atomic_bool *stopping);
/* Ends the thread (once stopping is set) and frees everything. */
void watch_stop(void);
/* Answers a request for /watch, /watch.html, /watch.js, /watch.css or
 * /api/watch/... and returns true; without --watch every one of them is a
 * 404, and the page's files are left to serve.c (false) with it. False
 * for any other path. */
bool watch_route(int fd, const char *method, const char *path);

/* For the fuzz target of the live-file reader: the bytes read as the
 * first watched file's content, in two pieces split at `cut` (as two polls
 * read them); the page's snapshot built, and every finished game's replay;
 * then all of it forgotten. The snapshot's JSON (malloc'd; NULL when out of
 * memory). Without watch_start: the fuzzer's alone. */
char *watch_fuzz_read(const char *data, size_t size, size_t cut);

#endif
