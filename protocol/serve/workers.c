/*
 * workers.c: see workers.h. A queue of jobs under one lock, threads that
 * take them, and a list of finished ones the loop collects. The loop alone
 * sees the connections: a job names its connection only to the loop (a
 * worker never reads `conn`), and a connection that ends first clears it.
 */
#define _POSIX_C_SOURCE 200809L
#include "workers.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

struct job {
    job_fn fn;
    void *arg;
    conn_t *conn; /* the loop's: NULL once the connection has gone */
    int status;
    const char *type;
    char *body;
    size_t len;
    const char *error;
    job_t *next;
};

static struct workers {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    job_t *queue, *queue_last, *done;
    int queued;
    pthread_t threads[WORKERS_THREADS];
    int n_threads;
    bool stopping;
    void (*notify)(void);
} K = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

void workers_init(void (*notify)(void)) { K.notify = notify; }

static void *worker(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&K.lock);
    while (!K.stopping) {
        job_t *j = K.queue;
        if (!j) {
            pthread_cond_wait(&K.wake, &K.lock);
            continue;
        }
        K.queue = j->next;
        if (!K.queue)
            K.queue_last = NULL;
        K.queued--;
        pthread_mutex_unlock(&K.lock);
        j->status = 500;
        j->type = "application/json";
        j->error = NULL;
        j->fn(j->arg, &j->status, &j->type, &j->body, &j->len, &j->error);
        pthread_mutex_lock(&K.lock);
        j->next = K.done;
        K.done = j;
        if (K.notify)
            K.notify();
    }
    pthread_mutex_unlock(&K.lock);
    return NULL;
}

/* The loop's: its connection went before the answer. */
static void job_conn_gone(void *ctx) { ((job_t *)ctx)->conn = NULL; }

static bool start_threads(void)
{
    while (K.n_threads < WORKERS_THREADS) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 256 * 1024);
        sigset_t all, old; /* signals are the loop's */
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        bool ok = pthread_create(&K.threads[K.n_threads], &attr, worker, NULL) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&attr);
        if (!ok)
            break;
        K.n_threads++;
    }
    return K.n_threads > 0;
}

bool workers_run(conn_t *c, job_fn fn, void *arg)
{
    job_t *j = calloc(1, sizeof *j);
    if (!j || !start_threads()) {
        free(j);
        return false;
    }
    pthread_mutex_lock(&K.lock);
    bool room = K.queued < WORKERS_QUEUE_MAX && !K.stopping;
    if (room) {
        j->fn = fn;
        j->arg = arg;
        j->conn = c;
        if (K.queue_last)
            K.queue_last->next = j;
        else
            K.queue = j;
        K.queue_last = j;
        K.queued++;
        pthread_cond_signal(&K.wake);
    }
    pthread_mutex_unlock(&K.lock);
    if (!room) {
        free(j);
        return false;
    }
    conn_hold(c, job_conn_gone, j);
    return true;
}

void workers_collect(void)
{
    pthread_mutex_lock(&K.lock);
    job_t *done = K.done;
    K.done = NULL;
    pthread_mutex_unlock(&K.lock);
    while (done) {
        job_t *j = done;
        done = j->next;
        if (j->conn && j->body)
            conn_reply_owned(j->conn, j->status, j->type, j->body, j->len);
        else if (j->conn)
            conn_error(j->conn, j->status, j->error ? j->error : "out of memory");
        else
            free(j->body);
        free(j->arg);
        free(j);
    }
}

void workers_stop(void)
{
    pthread_mutex_lock(&K.lock);
    K.stopping = true;
    pthread_cond_broadcast(&K.wake);
    pthread_mutex_unlock(&K.lock);
    for (int i = 0; i < K.n_threads; i++)
        pthread_join(K.threads[i], NULL);
    K.n_threads = 0;
    workers_collect();
    while (K.queue) {
        job_t *j = K.queue;
        K.queue = j->next;
        free(j->arg);
        free(j);
    }
    K.queue_last = NULL;
    K.queued = 0;
}

int workers_threads(void) { return K.n_threads; }
