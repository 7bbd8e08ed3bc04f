/* serve_helpers.c: see serve_helpers.h. */
#define _DEFAULT_SOURCE /* usleep, kill */
#include "serve_helpers.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/core/timeman.h"

served_t server;

void server_up(const char *args)
{
    /* What a killed server leaves becomes ours, so that procs_with counts it. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    ck_assert_msg(served_start(&server, args), "denham serve did not start");
}

void server_down(void)
{
    pid_t pid = server.pid;
    ck_assert_int_eq(served_stop(&server), 0);
    ck_assert_int_eq(children_of(pid), 0);
}

/* The session id from a 201 reply. */
void reply_session_id(const reply_t *r, char id[33])
{
    const char *at = strstr(r->body, "\"id\":\"");
    ck_assert_ptr_nonnull(at);
    snprintf(id, 33, "%.32s", at + 6);
}



/* Processes alive that descend from this test (its servers' engines, and
 * what outlives a killed server: the test is their subreaper), whose
 * command line holds needle (zombies have none), the servers excepted
 * (their --engine names it), and a shell's child between its fork and its
 * exec (its command line is still the shell's). Only ours: the machine is
 * shared, and another run's engines have the same command line. */
int procs_with(const char *needle)
{
    enum { MAX = 8192 };
    static int pid[MAX], ppid[MAX];
    static bool match[MAX];
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && n < MAX && (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
            continue;
        char path[300], text[4096];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f)
            fclose(f);
        text[got] = 0;
        const char *paren = strrchr(text, ')');
        char state;
        if (!paren || sscanf(paren + 1, " %c %d", &state, &ppid[n]) != 2 || state == 'Z')
            continue;
        pid[n] = atoi(e->d_name);
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        f = fopen(path, "r");
        got = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f)
            fclose(f);
        for (size_t i = 0; i + 1 < got; i++)
            if (!text[i])
                text[i] = ' ';
        text[got] = 0;
        match[n] = strstr(text, needle) && !strstr(text, " serve ");
        n++;
    }
    if (d)
        closedir(d);
    int alive = 0;
    for (int i = 0; i < n; i++) {
        if (!match[i])
            continue;
        bool forked = false, ours = false;
        for (int k = 0; k < n && !forked; k++)
            forked = match[k] && pid[k] == ppid[i];
        for (int p = ppid[i], depth = 0; p > 1 && !ours && depth < 64; depth++) {
            ours = p == getpid();
            int k = 0;
            while (k < n && pid[k] != p)
                k++;
            p = k < n ? ppid[k] : 0;
        }
        alive += ours && !forked;
    }
    return alive;
}

/* Waits up to ms for procs_with(needle) to be n (polled every 20 ms),
 * writing each change of the count it saw (" ms:count") into seen: what a
 * failure reports. */
bool procs_settle(const char *needle, int n, int ms, char *seen, size_t cap)
{
    int64_t start = timeman_now_ms();
    int last = -1;
    seen[0] = 0;
    for (;;) {
        int count = procs_with(needle);
        if (count != last) {
            size_t len = strlen(seen);
            snprintf(seen + len, cap - len, " %lld:%d", (long long)(timeman_now_ms() - start), count);
            last = count;
        }
        if (count == n)
            return true;
        if (timeman_now_ms() - start >= ms)
            return false;
        usleep(20 * 1000);
    }
}

/* procs_settle without the history. */
bool procs_become(const char *needle, int n, int ms)
{
    char seen[256];
    return procs_settle(needle, n, ms, seen, sizeof seen);
}

bool pid_exited_within(pid_t pid, int ms)
{
    /* A pidfd is readable once the process is a zombie: waitable. */
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd < 0)
        return errno == ESRCH; /* gone, and reaped, already */
    struct pollfd p = {fd, POLLIN, 0};
    int n;
    while ((n = poll(&p, 1, ms)) < 0 && errno == EINTR) {
    }
    close(fd);
    return n == 1;
}

/* SIGTERM to the server; the milliseconds until it exited (status 0), or
 * -1 when it was still there after 10 s (then killed). */
int64_t stop_timed(void)
{
    int64_t start = timeman_now_ms();
    kill(server.pid, SIGTERM);
    int status = 0;
    while (timeman_now_ms() - start < 10000) {
        if (waitpid(server.pid, &status, WNOHANG) == server.pid) {
            server.pid = 0;
            return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? timeman_now_ms() - start : -1;
        }
        usleep(5 * 1000);
    }
    kill(server.pid, SIGKILL);
    waitpid(server.pid, NULL, 0);
    server.pid = 0;
    return -1;
}

/* A session opened, its event stream open and started; the stream's socket. */
int open_with_events(char id[33], char *events, size_t cap)
{
    reply_t r;
    ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r));
    ck_assert_msg(r.status == 201, "%d %s", r.status, r.body);
    reply_session_id(&r, id);
    int fd = http_open_events(server.port, id);
    ck_assert_int_ge(fd, 0);
    events[0] = 0;
    ck_assert_msg(http_read_until(fd, "\"state\":\"started\"", events, cap, 10000), "%s", events);
    return fd;
}

void post_command(const char *id, const char *line, reply_t *r)
{
    char path[128];
    snprintf(path, sizeof path, "/api/sessions/%s/commands", id);
    ck_assert(http_request(server.port, "POST", path, line, NULL, r) || r->status == 0);
}

/* A command of 200 KB (one line): more than an engine's pipe holds. */
char *big_command(void)
{
    size_t n = 200 * 1024;
    char *c = malloc(n + 1);
    memcpy(c, "position startpos moves", 23);
    for (size_t i = 23; i < n; i += 5)
        memcpy(c + i, " e1e3", n - i < 5 ? n - i : 5);
    c[n] = 0;
    return c;
}



/* The whole answer to a raw request, until the server closes (5 s at most). */
size_t exchange(const char *request, size_t len, char *out, size_t cap)
{
    int fd = http_connect(server.port);
    ck_assert_int_ge(fd, 0);
    send(fd, request, len, MSG_NOSIGNAL);
    size_t got = 0;
    for (int64_t until = timeman_now_ms() + 5000; got < cap - 1 && timeman_now_ms() < until;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t n = recv(fd, out + got, cap - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    out[got] = 0;
    close(fd);
    return got;
}

/* The status of a whole answer, after checking that its Content-Length is
 * the length of its body (0 bytes of body for HEAD). */
int checked_status(const char *answer, size_t len, bool head)
{
    int status = 0;
    ck_assert_msg(sscanf(answer, "HTTP/1.1 %d", &status) == 1, "no status: '%s'", answer);
    const char *cl = strstr(answer, "Content-Length: ");
    const char *body = strstr(answer, "\r\n\r\n");
    ck_assert_msg(cl && body, "%s", answer);
    size_t body_len = len - (size_t)(body + 4 - answer);
    if (head)
        ck_assert_int_eq((int)body_len, 0);
    else
        ck_assert_msg((size_t)atol(cl + 16) == body_len, "Content-Length %ld, body %zu: %s", atol(cl + 16), body_len,
                      answer);
    return status;
}

