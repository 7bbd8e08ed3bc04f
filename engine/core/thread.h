/*
 * thread.h: the engine's only way to threads: one-time set-up, mutexes,
 * threads and the atomic stop flag, in two implementations chosen at
 * build time.
 * Core: includes nothing above engine/core/ and names no game.
 *
 * - pthreads (the default): every call is an inline wrapper of its
 *   pthreads twin, so the native build is what it was before this layer.
 * - single-threaded (-DDENHAM_SINGLE_THREAD, the WebAssembly build, whose
 *   wasm32-wasi target has no threads): thr_once runs its function the
 *   first time, mutexes do nothing, and thr_create refuses: every caller
 *   says what it does without the thread (the table fills as it is used,
 *   the search runs on one thread, a job runs inline). A long job (a
 *   search, perft, bench) then calls thr_poll at its usual stop checks:
 *   every THR_SLICE_MS it gives the command loop a turn (thr_set_slice),
 *   which reads `stop`, `isready` and the rest between slices of search
 *   (PROTOCOL.md, "Without threads"). Before each turn it calls
 *   sched_yield: under WebAssembly the host's yield point, where a
 *   browser without shared memory delivers its messages (web/wasm/).
 * The match runner, the server and the benchmarks are native only and use
 * pthreads directly.
 */
#ifndef DENHAM_THREAD_H
#define DENHAM_THREAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The atomic stop flag: raised by one thread (or between slices), read
 * by a running job at its stop checks. */
typedef atomic_bool thr_flag_t;

static inline void thr_flag_init(thr_flag_t *f, bool up) { atomic_init(f, up); }
static inline void thr_flag_raise(thr_flag_t *f) { atomic_store(f, true); }
static inline void thr_flag_lower(thr_flag_t *f) { atomic_store(f, false); }
static inline bool thr_flag_up(const thr_flag_t *f) { return atomic_load((thr_flag_t *)f); }

#ifndef DENHAM_SINGLE_THREAD

#include <pthread.h>

/* Whether thr_create can start a thread in this build. */
#define THR_THREADS 1

typedef pthread_once_t thr_once_t;
#define THR_ONCE_INIT PTHREAD_ONCE_INIT
static inline void thr_once(thr_once_t *once, void (*fn)(void)) { pthread_once(once, fn); }

typedef pthread_mutex_t thr_mutex_t;
static inline void thr_mutex_init(thr_mutex_t *m) { pthread_mutex_init(m, NULL); }
static inline void thr_mutex_destroy(thr_mutex_t *m) { pthread_mutex_destroy(m); }
static inline void thr_mutex_lock(thr_mutex_t *m) { pthread_mutex_lock(m); }
static inline void thr_mutex_unlock(thr_mutex_t *m) { pthread_mutex_unlock(m); }

typedef pthread_t thr_t;
/* Starts fn(arg) on a new thread; false when none can be had (the caller
 * then does the work itself or without it). */
static inline bool thr_create(thr_t *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg) == 0;
}
static inline void thr_join(thr_t t) { pthread_join(t, NULL); }
/* A thread no one will join: its resources go when it ends. */
static inline void thr_detach(thr_t t) { pthread_detach(t); }

/* A job's stop check: the flag, relaxed (it is read every few nodes). */
static inline bool thr_poll(const thr_flag_t *stop)
{
    return atomic_load_explicit((thr_flag_t *)stop, memory_order_relaxed);
}

/* A job that has only to wait for a command (`go infinite` past its last
 * depth): a millisecond's pause, while the command loop beside it reads. */
void thr_wait(void);

#else /* DENHAM_SINGLE_THREAD */

#define THR_THREADS 0

typedef bool thr_once_t;
#define THR_ONCE_INIT false
static inline void thr_once(thr_once_t *once, void (*fn)(void))
{
    if (!*once) {
        *once = true;
        fn();
    }
}

typedef char thr_mutex_t;
static inline void thr_mutex_init(thr_mutex_t *m) { (void)m; }
static inline void thr_mutex_destroy(thr_mutex_t *m) { (void)m; }
static inline void thr_mutex_lock(thr_mutex_t *m) { (void)m; }
static inline void thr_mutex_unlock(thr_mutex_t *m) { (void)m; }

typedef char thr_t;
static inline bool thr_create(thr_t *t, void *(*fn)(void *), void *arg)
{
    (void)t, (void)fn, (void)arg;
    return false;
}
static inline void thr_join(thr_t t) { (void)t; }
static inline void thr_detach(thr_t t) { (void)t; }

/* How often a running job gives the command loop its turn. A turn that
 * finds no input costs one poll of it (a system call, or a look at the
 * web worker's queue): 100 a second cost nothing measurable, and keep
 * `stop` within about 10 ms of its arrival. */
#define THR_SLICE_MS 10

/* The command loop's turn: runs the commands that have come, never
 * waiting for one; true when it took every whole line there was (false
 * when it left one for the loop after the job, having stopped the job). */
typedef bool (*thr_slice_fn)(void *ctx);
/* Installs (or with NULL removes) the command loop's turn; wait_fd is the
 * descriptor its commands come on, which thr_wait waits on (-1: a stream
 * in memory, which never needs waiting for). */
void thr_set_slice(thr_slice_fn fn, void *ctx, int wait_fd);
/* The turn, when THR_SLICE_MS have passed since the last (thread.c reads
 * the clock about once a millisecond, whatever the rate of the calls). */
void thr_slice_due(void);

static inline bool thr_poll(const thr_flag_t *stop)
{
    thr_slice_due();
    return atomic_load_explicit((thr_flag_t *)stop, memory_order_relaxed);
}

/* A job that has only to wait for a command: the command loop's turn,
 * and when it found nothing to stop the job, a wait for more input and
 * another turn. */
void thr_wait(void);

#endif /* DENHAM_SINGLE_THREAD */

#endif
