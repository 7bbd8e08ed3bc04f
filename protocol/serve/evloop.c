/*
 * evloop.c: see evloop.h. Two backends behind one interface: epoll (Linux)
 * and poll (everywhere else, or with -DDENHAM_EVLOOP_POLL). Knows nothing
 * of what the descriptors are: the server's loop keeps that in the tags.
 */
#if defined(__linux__) && !defined(DENHAM_EVLOOP_POLL)
#define EVLOOP_EPOLL 1
#define _GNU_SOURCE /* EPOLLRDHUP */
#else
#define _POSIX_C_SOURCE 200809L
#endif
#include "evloop.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef EVLOOP_EPOLL
#include <sys/epoll.h>

struct evloop {
    int fd;
    struct epoll_event got[256];
};

evloop_t *evloop_new(void)
{
    evloop_t *l = malloc(sizeof *l);
    if (!l)
        return NULL;
    l->fd = epoll_create1(EPOLL_CLOEXEC);
    if (l->fd < 0) {
        free(l);
        return NULL;
    }
    return l;
}

void evloop_free(evloop_t *l)
{
    if (!l)
        return;
    close(l->fd);
    free(l);
}

bool evloop_watch(evloop_t *l, int fd, unsigned want, void *tag)
{
    if (!want) { /* out of the set: even its hang-up (always reported) cannot wake us */
        evloop_forget(l, fd);
        return true;
    }
    struct epoll_event ev = {0};
    ev.events = (want & EVLOOP_IN ? EPOLLIN | EPOLLRDHUP : 0) | (want & EVLOOP_OUT ? EPOLLOUT : 0);
    ev.data.ptr = tag;
    if (epoll_ctl(l->fd, EPOLL_CTL_MOD, fd, &ev) == 0)
        return true;
    return errno == ENOENT && epoll_ctl(l->fd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

void evloop_forget(evloop_t *l, int fd)
{
    struct epoll_event ev = {0}; /* (kernels before 2.6.9 want one) */
    epoll_ctl(l->fd, EPOLL_CTL_DEL, fd, &ev);
}

int evloop_wait(evloop_t *l, evloop_event_t *out, int max, int timeout_ms)
{
    if (max > (int)(sizeof l->got / sizeof l->got[0]))
        max = (int)(sizeof l->got / sizeof l->got[0]);
    int n = epoll_wait(l->fd, l->got, max, timeout_ms);
    if (n < 0)
        return 0; /* EINTR: a signal, whose handler woke the wake pipe */
    for (int i = 0; i < n; i++) {
        unsigned e = l->got[i].events;
        out[i].tag = l->got[i].data.ptr;
        out[i].events = (e & EPOLLIN ? EVLOOP_IN : 0) | (e & EPOLLOUT ? EVLOOP_OUT : 0) |
                        (e & (EPOLLHUP | EPOLLERR | EPOLLRDHUP) ? EVLOOP_HUP : 0);
    }
    return n;
}

const char *evloop_backend(void) { return "epoll"; }

#else /* poll(2) */
#include <poll.h>

struct evloop {
    struct pollfd *fds;
    void **tags;
    int n, cap;
    int *slot_of; /* by descriptor: its index in fds, or -1 */
    int slots;
    int start; /* where the next report begins: more ready than asked are not always the same ones */
};

evloop_t *evloop_new(void) { return calloc(1, sizeof(evloop_t)); }

void evloop_free(evloop_t *l)
{
    if (!l)
        return;
    free(l->fds);
    free(l->tags);
    free(l->slot_of);
    free(l);
}

static bool ensure(evloop_t *l, int fd)
{
    if (fd >= l->slots) {
        int slots = l->slots ? l->slots : 64;
        while (slots <= fd)
            slots *= 2;
        int *grown = realloc(l->slot_of, sizeof *grown * (size_t)slots);
        if (!grown)
            return false;
        for (int i = l->slots; i < slots; i++)
            grown[i] = -1;
        l->slot_of = grown;
        l->slots = slots;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        struct pollfd *fds = realloc(l->fds, sizeof *fds * (size_t)cap);
        if (!fds)
            return false;
        l->fds = fds;
        void **tags = realloc(l->tags, sizeof *tags * (size_t)cap);
        if (!tags)
            return false;
        l->tags = tags;
        l->cap = cap;
    }
    return true;
}

bool evloop_watch(evloop_t *l, int fd, unsigned want, void *tag)
{
    if (!want) {
        evloop_forget(l, fd);
        return true;
    }
    if (fd < 0 || !ensure(l, fd))
        return false;
    int i = l->slot_of[fd];
    if (i < 0) {
        i = l->slot_of[fd] = l->n++;
        l->fds[i].fd = fd;
    }
    l->fds[i].events = (short)((want & EVLOOP_IN ? POLLIN : 0) | (want & EVLOOP_OUT ? POLLOUT : 0));
    l->fds[i].revents = 0;
    l->tags[i] = tag;
    return true;
}

void evloop_forget(evloop_t *l, int fd)
{
    if (fd < 0 || fd >= l->slots || l->slot_of[fd] < 0)
        return;
    int i = l->slot_of[fd], last = --l->n;
    l->slot_of[fd] = -1;
    if (i != last) {
        l->fds[i] = l->fds[last];
        l->tags[i] = l->tags[last];
        l->slot_of[l->fds[i].fd] = i;
    }
}

int evloop_wait(evloop_t *l, evloop_event_t *out, int max, int timeout_ms)
{
    if (poll(l->fds, (nfds_t)l->n, timeout_ms) <= 0)
        return 0;
    int n = 0;
    for (int k = 0; k < l->n && n < max; k++) {
        int i = (l->start + k) % l->n;
        short r = l->fds[i].revents;
        if (!r)
            continue;
        out[n].tag = l->tags[i];
        out[n].events = (r & POLLIN ? EVLOOP_IN : 0) | (r & POLLOUT ? EVLOOP_OUT : 0) |
                        (r & (POLLHUP | POLLERR | POLLNVAL) ? EVLOOP_HUP : 0);
        n++;
    }
    l->start = l->n ? (l->start + 1) % l->n : 0;
    return n;
}

const char *evloop_backend(void) { return "poll"; }

#endif
