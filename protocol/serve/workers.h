/* workers.h: the few threads of `denham serve` that do work which would
 * block its loop (workers.c): building a long answer under a lock another
 * thread may hold (the watch page's replays). A job's result comes back
 * to the loop, which answers its connection; no worker touches a socket.
 * Started on the first job; at most WORKERS_QUEUE_MAX jobs wait. */
#ifndef DENHAM_WORKERS_H
#define DENHAM_WORKERS_H

#include <stdbool.h>
#include <stddef.h>

#include "conn.h"

#define WORKERS_THREADS 2
#define WORKERS_QUEUE_MAX 32

typedef struct job job_t;
/* Runs on a worker: the answer's status, type and body (malloc'd, or NULL
 * with an error message in *error). */
typedef void (*job_fn)(void *arg, int *status, const char **type, char **body, size_t *len, const char **error);

/* notify() wakes the loop from a worker (the wake pipe). */
void workers_init(void (*notify)(void));
/* Runs fn(arg) on a worker and answers c with its result (c is held
 * meanwhile); arg is freed after. False, c untouched, when the queue is
 * full or no worker could start. */
bool workers_run(conn_t *c, job_fn fn, void *arg);
/* In the loop, when woken: answers the connections of finished jobs. */
void workers_collect(void);
/* Ends the threads (a running job finishes first); jobs not begun are dropped. */
void workers_stop(void);
/* Threads running now. */
int workers_threads(void);

#endif
