/* serve.h: `denham serve` (serve.c). */
#ifndef DENHAM_SERVE_H
#define DENHAM_SERVE_H

#include <stdbool.h>
#include <stdint.h>

/* The most --max-hash-mb and --max-threads may be: the engine's own Hash
 * and Threads maxima (PROTOCOL.md, "Limits"), so that a capped value is
 * one the engine takes. */
#define SERVE_HASH_MAX_MB 16384
#define SERVE_THREADS_MAX 256

typedef struct serve_config {
    const char *host;   /* the address to listen on (127.0.0.1) */
    int port;           /* 8080; 0: any free port (printed) */
    const char *engine; /* a shell command, or NULL: this binary */
    int max_sessions;   /* engines at once (8) */
    int64_t idle_ms;    /* a session without a command for this long is closed (10 minutes) */
    long max_hash_mb;   /* the most Hash a command may set (0: half the memory over max_sessions) */
    long max_threads;   /* the most Threads (0: the machine's cores) */
    bool watching;      /* --watch given: /watch is an address to open too */
    long max_search_threads; /* threads searching at once, every engine's together (0: the cores) */
} serve_config_t;

/* Serves until SIGINT or SIGTERM; the exit status. */
int serve_run(const serve_config_t *cfg);
/* The command line after `serve`. */
int serve_main(int argc, char **argv);

#endif
