/* evloop.h: the one wait of `denham serve` (evloop.c): which of its
 * descriptors (sockets, engine pipes, the wake pipe) are ready. epoll on
 * Linux, poll(2) elsewhere, chosen at build time (-DDENHAM_EVLOOP_POLL
 * forces poll on Linux too, so that both are tested). Level-triggered:
 * a descriptor stays ready until it is read or written. Single-threaded:
 * only the loop's thread calls these. */
#ifndef DENHAM_EVLOOP_H
#define DENHAM_EVLOOP_H

#include <stdbool.h>

enum {
    EVLOOP_IN = 1,  /* readable (or its peer closed) */
    EVLOOP_OUT = 2, /* writable */
    EVLOOP_HUP = 4  /* reported, never asked: closed, reset or in error */
};

typedef struct evloop evloop_t;

typedef struct evloop_event {
    void *tag;       /* what the descriptor was registered with */
    unsigned events; /* EVLOOP_* */
} evloop_event_t;

/* A new wait, or NULL when out of memory or descriptors. */
evloop_t *evloop_new(void);
void evloop_free(evloop_t *l);
/* Watches fd for `want` (EVLOOP_IN and/or EVLOOP_OUT) with this tag,
 * replacing what it watched before; want 0 stops watching it (a paused
 * pipe or a connection waiting on other work is not woken, even by its
 * peer's close). False when the kernel refuses (out of memory). */
bool evloop_watch(evloop_t *l, int fd, unsigned want, void *tag);
/* Before fd is closed: forgets it. */
void evloop_forget(evloop_t *l, int fd);
/* Waits up to timeout_ms (-1: no limit) for ready descriptors; at most
 * max of them in out; their number (0 on timeout or a signal). */
int evloop_wait(evloop_t *l, evloop_event_t *out, int max, int timeout_ms);
/* "epoll" or "poll". */
const char *evloop_backend(void);

#endif
