/*
 * engine_proc.c: an engine child process on pipes (engine_proc.h), for
 * the match runner and the server. Knows no protocol beyond lines, and no
 * game.
 */
#define _GNU_SOURCE /* pipe2 and O_CLOEXEC: another thread's child must not inherit our pipes */
#include "engine_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"

bool eproc_start(eproc_t *e, const char *cmd, const char *log_path)
{
    int in[2], out[2];
    memset(e, 0, sizeof *e);
    if (pipe2(in, O_CLOEXEC) != 0)
        return false;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    int err = log_path ? open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)
                       : open("/dev/null", O_WRONLY | O_CLOEXEC);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* its own group, so a kill reaches a script's children too */
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (err >= 0)
            dup2(err, 2);
        signal(SIGPIPE, SIG_DFL);
        char *full = malloc(strlen(cmd) + 6);
        if (!full)
            _exit(127);
        sprintf(full, "exec %s", cmd);
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    if (err >= 0)
        close(err);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        return false;
    }
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    return true;
}

bool eproc_send(eproc_t *e, const char *line)
{
    if (!e->pid)
        return false;
    size_t n = strlen(line);
    char *buf = malloc(n + 1);
    if (!buf)
        return false;
    memcpy(buf, line, n);
    buf[n] = '\n';
    size_t done = 0;
    while (done <= n) {
        ssize_t w = write(e->to_fd, buf + done, n + 1 - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            free(buf);
            return false;
        }
        done += (size_t)w;
    }
    free(buf);
    return true;
}

/* Moves one complete line out of the buffer, if there is one. */
static bool take_line(eproc_t *e, char *line, size_t len)
{
    char *nl = memchr(e->buf, '\n', e->len);
    if (!nl && e->len < sizeof e->buf)
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
        if (take_line(e, line, len))
            return EPROC_LINE;
        if (!e->pid)
            return EPROC_EOF;
        int64_t left = deadline_ms - timeman_now_ms();
        if (left <= 0)
            return EPROC_TIMEOUT;
        struct pollfd p = {e->from_fd, POLLIN, 0};
        int r = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue; /* the deadline is checked at the top */
        ssize_t got = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
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

static void reap(eproc_t *e)
{
    close(e->to_fd);
    close(e->from_fd);
    waitpid(e->pid, NULL, 0);
    e->pid = 0;
    e->len = 0;
}

void eproc_kill(eproc_t *e)
{
    if (!e->pid)
        return;
    kill(-e->pid, SIGKILL);
    kill(e->pid, SIGKILL);
    reap(e);
}

void eproc_stop(eproc_t *e, int wait_ms)
{
    if (!e->pid)
        return;
    eproc_send(e, "quit");
    for (int waited = 0; waited < wait_ms; waited += 5) {
        if (waitpid(e->pid, NULL, WNOHANG) == e->pid) {
            close(e->to_fd);
            close(e->from_fd);
            e->pid = 0;
            e->len = 0;
            return;
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    eproc_kill(e);
}
