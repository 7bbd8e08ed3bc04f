/*
 * prepare_wait.c: a game's solved endings built on a thread of their own
 * (prepare_wait.h). The build itself is the game's (game_t.prepare,
 * idempotent and safe from any thread); this file only runs it apart and
 * waits for game_t.prepared, which never blocks.
 */
#define _POSIX_C_SOURCE 200809L
#include "prepare_wait.h"

#include <time.h>

#include "../../engine/core/thread.h"

/* The games whose build was started here: a handful (the registry's
 * variants), each started once for the process. */
#define PREPARE_GAMES_MAX 32

static thr_mutex_t started_lock;
static thr_once_t lock_once = THR_ONCE_INIT;

static void lock_init(void) { thr_mutex_init(&started_lock); }
static const game_t *started[PREPARE_GAMES_MAX];
static int n_started;

static bool built(const game_t *g) { return !g->prepare || !g->prepared || g->prepared(); }

static void *build(void *arg)
{
    game_prepare(arg);
    return NULL;
}

/* True when a build of g runs or ran on its own thread. */
static bool start(const game_t *g)
{
    thr_once(&lock_once, lock_init);
    thr_mutex_lock(&started_lock);
    bool running = false;
    for (int i = 0; i < n_started && !running; i++)
        running = started[i] == g;
    if (!running && n_started < PREPARE_GAMES_MAX) {
        thr_t thread;
        running = thr_create(&thread, build, (void *)g); /* never, without threads */
        if (running) {
            thr_detach(thread);
            started[n_started++] = g;
        }
    }
    thr_mutex_unlock(&started_lock);
    return running;
}

void prepare_start(const game_t *g)
{
    if (!built(g))
        start(g);
}

bool prepare_wait(const game_t *g, bool (*give_up)(void *ctx), void *ctx)
{
    if (built(g))
        return true;
    if (!start(g))
        game_prepare(g); /* no thread to be had: build here, as a probe would */
    for (;;) {
        /* Giving up is asked before the build's state, so that a limit
         * already past gives up whatever the build did meanwhile. */
        if (give_up(ctx))
            return false;
        if (built(g))
            return true;
        struct timespec ms = {0, 1000 * 1000};
        nanosleep(&ms, NULL);
    }
}
