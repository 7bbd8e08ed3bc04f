/*
 * thread.c: what of the threading layer (thread.h) is not inline: a
 * waiting job's pause, and in the single-threaded build the command
 * loop's turns between slices of a job.
 * Core: includes nothing above engine/core/ and names no game.
 */
#define _POSIX_C_SOURCE 200809L
#include "thread.h"

#include <assert.h>
#include <stddef.h>
#include <time.h>

#include "timeman.h"

#ifndef DENHAM_SINGLE_THREAD

void thr_wait(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

#else

#include <poll.h>
#include <sched.h>

static struct {
    thr_slice_fn fn;
    void *ctx;
    int wait_fd;
    int64_t turn_us;  /* the last turn */
    int64_t clock_us; /* the last reading of the clock */
    unsigned step;    /* calls between readings: about a millisecond's worth */
    unsigned left;    /* calls until the next reading */
} slice = {NULL, NULL, -1, 0, 0, 1, 1};

void thr_set_slice(thr_slice_fn fn, void *ctx, int wait_fd)
{
    slice.fn = fn;
    slice.ctx = ctx;
    slice.wait_fd = wait_fd;
    slice.turn_us = slice.clock_us = timeman_now_us();
    slice.step = slice.left = 1;
}

/* Callers poll at very different rates (the search every 256 nodes,
 * perft at every inner node, up to ten million times a second): the
 * clock is read about once a millisecond, the step between readings
 * doubled or halved to keep it so. */
void thr_slice_due(void)
{
    if (!slice.fn || --slice.left > 0)
        return;
    int64_t now = timeman_now_us(), since = now - slice.clock_us;
    slice.clock_us = now;
    if (since < 500 && slice.step < (1u << 20))
        slice.step *= 2;
    else if (since > 2000 && slice.step > 1)
        slice.step /= 2;
    slice.left = slice.step;
    if (now - slice.turn_us < THR_SLICE_MS * 1000)
        return;
    /* Here, never inside the turn: a WebAssembly host that yields by
     * unwinding the stack (asyncify) needs direct calls all the way from
     * the job down to the yield. */
    sched_yield();
    slice.fn(slice.ctx);
    slice.turn_us = timeman_now_us();
}

void thr_wait(void)
{
    assert(slice.fn && "a job waits for a command only where the command loop takes turns");
    if (!slice.fn)
        return;
    if (slice.fn(slice.ctx) && slice.wait_fd >= 0) {
        /* Every line taken and the job still waiting: wait here (for the
         * reason above) for more input, or its end. */
        struct pollfd p = {slice.wait_fd, POLLIN, 0};
        poll(&p, 1, -1);
        slice.fn(slice.ctx);
    }
    slice.turn_us = timeman_now_us();
}

#endif
