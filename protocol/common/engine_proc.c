/*
 * engine_proc.c: an engine child process on pipes (engine_proc.h), for
 * the match runner and the server. Knows no protocol beyond lines, no game
 * and no HTTP.
 */
#define _GNU_SOURCE /* pipe2, O_CLOEXEC, close_range: another thread's child must not inherit our pipes */
#include "engine_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"

void eproc_init(eproc_t *e)
{
    memset(e, 0, sizeof *e);
    pthread_mutex_init(&e->lock, NULL);
    pthread_mutex_init(&e->write_lock, NULL);
    e->to_fd = e->from_fd = -1;
}

void eproc_destroy(eproc_t *e)
{
    pthread_mutex_destroy(&e->lock);
    pthread_mutex_destroy(&e->write_lock);
    free(e->buf);
    e->buf = NULL;
}

bool eproc_spawn(eproc_t *e, const eproc_spec_t *spec)
{
    size_t cap = spec->caller_reads ? 0 : spec->line_max ? spec->line_max : 2 * EPROC_LINE_MAX;
    char *buf = cap ? malloc(cap) : NULL;
    char *full = spec->cmd ? malloc(strlen(spec->cmd) + 6) : NULL; /* before fork: the child may not malloc */
    if ((cap && !buf) || (spec->cmd && !full)) {
        free(buf);
        free(full);
        return false;
    }
    if (full)
        sprintf(full, "exec %s", spec->cmd);
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        free(buf);
        free(full);
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        free(buf);
        free(full);
        return false;
    }
    int err = spec->log_path ? open(spec->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)
                             : open("/dev/null", O_WRONLY | O_CLOEXEC);
    pid_t parent = getpid();
    int priority = 0;
    if (spec->nice) { /* absolute, so that parent and child may both set it, in either order */
        priority = getpriority(PRIO_PROCESS, 0) + spec->nice;
        priority = priority > 19 ? 19 : priority < -20 ? -20 : priority;
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* Only async-signal-safe calls from here: the parent may have threads. */
        setpgid(0, 0); /* its own group, so that a kill reaches a shell's children too */
        if (spec->die_with_parent) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(127);
        }
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || (err >= 0 && dup2(err, 2) < 0))
            _exit(127);
        close_range(3, ~0u, 0); /* nothing else of ours stays open in the engine */
        if (spec->nice)
            setpriority(PRIO_PROCESS, 0, priority); /* (a refusal leaves the caller's: nothing to do) */
        signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (full)
            execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        else
            execl(spec->path, "denham", (char *)NULL);
        _exit(127);
    }
    free(full);
    close(in[0]);
    close(out[1]);
    if (err >= 0)
        close(err);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        free(buf);
        return false;
    }
    setpgid(pid, pid); /* the child does it too: whichever runs first, a kill finds the group */
    if (spec->nice) /* and the priority: set before we return, whoever looks at the child sees it */
        setpriority(PRIO_PROCESS, (id_t)pid, priority);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK); /* ours only: the engine's end blocks */
    pthread_mutex_lock(&e->lock);
    e->pid = pid;
    e->killed = false;
    pthread_mutex_unlock(&e->lock);
    pthread_mutex_lock(&e->write_lock);
    e->to_fd = in[1];
    e->stalled = e->broken = false;
    pthread_mutex_unlock(&e->write_lock);
    e->from_fd = out[0];
    free(e->buf);
    e->buf = buf;
    e->cap = cap;
    e->len = 0;
    return true;
}

bool eproc_start(eproc_t *e, const char *cmd, const char *log_path)
{
    eproc_init(e);
    eproc_spec_t spec = {.cmd = cmd, .log_path = log_path};
    return eproc_spawn(e, &spec);
}

bool eproc_running(eproc_t *e)
{
    pthread_mutex_lock(&e->lock);
    bool running = e->pid > 0;
    pthread_mutex_unlock(&e->lock);
    return running;
}

/* The write lock, taken before deadline_ms: a writer waits behind another
 * no longer than its own deadline. */
static bool lock_writer(eproc_t *e, int64_t deadline_ms)
{
    int64_t left = deadline_ms - timeman_now_ms();
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    if (left > 0) {
        until.tv_sec += left / 1000;
        until.tv_nsec += (long)(left % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
    }
    int r;
    while ((r = pthread_mutex_timedlock(&e->write_lock, &until)) == EINTR)
        ;
    return r == 0;
}

int eproc_write(eproc_t *e, const char *data, size_t len, int64_t deadline_ms)
{
    if (!lock_writer(e, deadline_ms))
        return EPROC_TIMEOUT;
    int result = EPROC_OK;
    if (e->to_fd < 0)
        result = EPROC_EOF;
    else if (e->broken)
        result = EPROC_TIMEOUT;
    if (e->stalled)
        deadline_ms = timeman_now_ms(); /* it did not read before: try, but wait no more */
    size_t done = 0;
    while (result == EPROC_OK && done < len) {
        ssize_t w = write(e->to_fd, data + done, len - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            result = EPROC_EOF; /* EPIPE: its input is closed */
            break;
        }
        int64_t left = deadline_ms - timeman_now_ms();
        struct pollfd p = {e->to_fd, POLLOUT, 0};
        int r = left > 0 ? poll(&p, 1, left > 1000000 ? 1000000 : (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0 && left <= 0) {
            result = EPROC_TIMEOUT;
            e->stalled = true;
            e->broken = done > 0;
        }
    }
    if (result == EPROC_OK)
        e->stalled = false;
    pthread_mutex_unlock(&e->write_lock);
    return result;
}

bool eproc_send(eproc_t *e, const char *line)
{
    size_t n = strlen(line);
    char *buf = malloc(n + 1);
    if (!buf)
        return false;
    memcpy(buf, line, n);
    buf[n] = '\n';
    int r = eproc_write(e, buf, n + 1, timeman_now_ms() + EPROC_SEND_MS);
    free(buf);
    return r == EPROC_OK;
}

/* Moves one complete line out of the buffer, if there is one; a full
 * buffer without a line break is a piece of a longer line. */
static bool take_line(eproc_t *e, char *line, size_t len)
{
    char *nl = e->len ? memchr(e->buf, '\n', e->len) : NULL;
    if (!nl && e->len < e->cap)
        return false;
    size_t n = nl ? (size_t)(nl - e->buf) : e->len;
    size_t copy = n < len - 1 ? n : len - 1;
    memcpy(line, e->buf, copy);
    line[copy] = 0;
    if (copy && line[copy - 1] == '\r')
        line[copy - 1] = 0;
    size_t used = nl ? n + 1 : n;
    memmove(e->buf, e->buf + used, e->len - used);
    e->len -= used;
    return true;
}

int eproc_read_line(eproc_t *e, char *line, size_t len, int64_t deadline_ms)
{
    for (;;) {
        if (e->buf && take_line(e, line, len))
            return EPROC_LINE;
        if (!e->buf || e->from_fd < 0)
            return EPROC_EOF;
        int64_t left = deadline_ms - timeman_now_ms();
        if (left <= 0)
            return EPROC_TIMEOUT;
        struct pollfd p = {e->from_fd, POLLIN, 0};
        int r = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue; /* the deadline is checked at the top */
        ssize_t got = read(e->from_fd, e->buf + e->len, e->cap - e->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return EPROC_EOF;
        e->len += (size_t)got;
    }
}

int eproc_wait_for(eproc_t *e, const char *prefix, char *line, size_t len, int64_t deadline_ms)
{
    size_t n = strlen(prefix);
    for (;;) {
        int r = eproc_read_line(e, line, len, deadline_ms);
        if (r != EPROC_LINE)
            return r;
        if (strncmp(line, prefix, n) == 0 && (line[n] == 0 || line[n] == ' '))
            return EPROC_LINE;
    }
}

bool eproc_exited(eproc_t *e)
{
    pthread_mutex_lock(&e->lock);
    pid_t pid = e->pid;
    pthread_mutex_unlock(&e->lock);
    if (pid <= 0)
        return true;
    siginfo_t info = {0};
    /* WNOWAIT: the zombie keeps its pid, and the group's id, reserved. */
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

void eproc_kill_group(eproc_t *e)
{
    pthread_mutex_lock(&e->lock);
    if (e->pid > 0) {
        kill(-e->pid, SIGKILL);
        kill(e->pid, SIGKILL); /* in case the group was not yet made */
        e->killed = true;
    }
    pthread_mutex_unlock(&e->lock);
}

void eproc_end(eproc_t *e, int grace_ms, int *status)
{
    pthread_mutex_lock(&e->lock);
    pid_t pid = e->pid;
    pthread_mutex_unlock(&e->lock);
    if (status)
        *status = 0;
    if (pid > 0) {
        for (int64_t until = timeman_now_ms() + grace_ms; !eproc_exited(e) && timeman_now_ms() < until;) {
            struct timespec nap = {0, 5 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
        if (!eproc_exited(e))
            eproc_kill_group(e);
        siginfo_t info;
        while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
            ;
        /* The leader is a zombie: its id still names the group alone. */
        pthread_mutex_lock(&e->lock);
        kill(-pid, SIGKILL); /* what the leader left running in its group */
        e->pid = 0;
        pthread_mutex_unlock(&e->lock);
        while (waitpid(pid, status, 0) < 0 && errno == EINTR)
            ;
    }
    pthread_mutex_lock(&e->write_lock); /* a writer waits at most its deadline */
    if (e->to_fd >= 0)
        close(e->to_fd);
    e->to_fd = -1;
    pthread_mutex_unlock(&e->write_lock);
    if (e->from_fd >= 0)
        close(e->from_fd);
    e->from_fd = -1;
    free(e->buf);
    e->buf = NULL;
    e->len = 0;
}

bool eproc_end_now(eproc_t *e, int *status)
{
    pthread_mutex_lock(&e->lock);
    pid_t pid = e->pid;
    pthread_mutex_unlock(&e->lock);
    if (pid > 0 && !eproc_exited(e))
        return false;
    if (pid > 0) {
        pthread_mutex_lock(&e->lock);
        kill(-pid, SIGKILL); /* the leader is a zombie: its id still names the group alone */
        e->pid = 0;
        pthread_mutex_unlock(&e->lock);
        while (waitpid(pid, status, 0) < 0 && errno == EINTR)
            ;
    }
    eproc_end(e, 0, NULL); /* no engine now: only closes the pipes */
    return true;
}

void eproc_kill(eproc_t *e)
{
    if (!eproc_running(e))
        return;
    eproc_kill_group(e);
    eproc_end(e, 0, NULL);
}

void eproc_stop(eproc_t *e, int wait_ms)
{
    if (!eproc_running(e))
        return;
    eproc_write(e, "quit\n", 5, timeman_now_ms() + wait_ms);
    eproc_end(e, wait_ms, NULL);
}
