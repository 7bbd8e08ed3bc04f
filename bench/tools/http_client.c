/* http_client.c: an HTTP/1.1 client over loopback and a `denham serve`
 * to point it at (see http_client.h), for the tests and benchmarks only.
 * Starts the server as a program; may not reach into its code. */
#define _GNU_SOURCE
#include "http_client.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"

/* Runs cmd (through sh) with its standard output on a pipe and its errors
 * thrown away, and reads the first line it prints (within wait_ms) into
 * line. */
static bool start_reading_line(served_t *s, const char *cmd, char *line, size_t cap, int wait_ms)
{
    *s = (served_t){0};
    int out[2];
    if (pipe(out) != 0)
        return false;
    s->pid = fork();
    if (s->pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    line[0] = 0;
    size_t len = 0;
    int64_t deadline = timeman_now_ms() + wait_ms;
    while (!strchr(line, '\n') && timeman_now_ms() < deadline && len < cap - 1) {
        struct pollfd p = {out[0], POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t n = read(out[0], line + len, cap - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
        line[len] = 0;
    }
    close(out[0]);
    return s->pid > 0;
}

bool served_start(served_t *s, const char *args)
{
    /* DENHAM_SERVE: another build of denham to serve (make tsan's). */
    const char *bin = getenv("DENHAM_SERVE");
    char cmd[1024], line[256];
    snprintf(cmd, sizeof cmd, "exec %s serve --port 0 %s", bin && *bin ? bin : "./denham", args);
    if (!start_reading_line(s, cmd, line, sizeof line, 10000))
        return false;
    const char *colon = strrchr(line, ':');
    s->port = colon ? atoi(colon + 1) : 0;
    return strncmp(line, "http://127.0.0.1:", 17) == 0 && s->port > 0;
}

bool static_start(served_t *s, const char *dir, bool isolating)
{
    char cmd[1024], line[256];
    /* -u: its "Serving HTTP on ... port N" line at once, not at exit.
     * Python starts slowly on a loaded machine (and through a version
     * manager's shim): 30 s. */
    if (isolating)
        snprintf(cmd, sizeof cmd, "exec python3 -u bench/tools/isolating_server.py '%s'", dir);
    else
        snprintf(cmd, sizeof cmd, "exec python3 -u -m http.server 0 --bind 127.0.0.1 --directory '%s'", dir);
    if (!start_reading_line(s, cmd, line, sizeof line, 30000))
        return false;
    const char *port = strstr(line, " port ");
    s->port = port ? atoi(port + 6) : 0;
    return s->port > 0;
}

int served_stop(served_t *s)
{
    if (s->pid <= 0)
        return -1;
    kill(s->pid, SIGTERM);
    int status = 0;
    for (int i = 0; i < 150; i++) {
        if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
            s->pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        usleep(100 * 1000);
    }
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
    s->pid = 0;
    return -1;
}

int http_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

bool http_raw(int port, const char *request, size_t len, reply_t *r)
{
    r->status = 0;
    r->body[0] = 0;
    int fd = http_connect(port);
    if (fd < 0)
        return false;
    bool sent = send(fd, request, len, MSG_NOSIGNAL) == (ssize_t)len;
    char buf[sizeof r->body + 4096];
    size_t got = 0;
    int64_t deadline = timeman_now_ms() + 15000;
    while (got < sizeof buf - 1 && timeman_now_ms() < deadline) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t n = recv(fd, buf + got, sizeof buf - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    buf[got] = 0;
    close(fd);
    if (sscanf(buf, "HTTP/1.1 %d", &r->status) != 1)
        r->status = 0;
    const char *body = strstr(buf, "\r\n\r\n");
    snprintf(r->body, sizeof r->body, "%s", body ? body + 4 : "");
    return sent && r->status > 0;
}

bool http_request(int port, const char *method, const char *path, const char *body, const char *origin, reply_t *r)
{
    size_t blen = body ? strlen(body) : 0, cap = blen + 1024;
    char *req = malloc(cap);
    char origin_line[300] = "";
    if (origin)
        snprintf(origin_line, sizeof origin_line, "Origin: %s\r\n", origin);
    int n = snprintf(req, cap, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%sContent-Length: %zu\r\n\r\n%s", method, path,
                     port, origin_line, blen, body ? body : "");
    bool ok = http_raw(port, req, (size_t)n, r);
    free(req);
    return ok;
}

int http_open_events(int port, const char *id)
{
    int fd = http_connect(port);
    if (fd < 0)
        return -1;
    char req[256];
    int n = snprintf(req, sizeof req, "GET /api/sessions/%s/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", id, port);
    if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
        close(fd);
        return -1;
    }
    return fd;
}

bool http_read_until(int fd, const char *needle, char *buf, size_t cap, int timeout_ms)
{
    size_t len = strlen(buf);
    int64_t deadline = timeman_now_ms() + timeout_ms;
    while (!strstr(buf, needle) && timeman_now_ms() < deadline && len < cap - 1) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t n = recv(fd, buf + len, cap - 1 - len, 0);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = 0;
    }
    return strstr(buf, needle) != NULL;
}

int children_list(pid_t pid, pid_t *out, int max)
{
    DIR *d = opendir("/proc");
    int n = 0;
    for (struct dirent *e; d && n < max && (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], text[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t got = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[got] = 0;
        const char *close_paren = strrchr(text, ')');
        char state;
        int ppid;
        if (close_paren && sscanf(close_paren + 1, " %c %d", &state, &ppid) == 2 && ppid == pid && state != 'Z') {
            if (out)
                out[n] = atoi(e->d_name);
            n++;
        }
    }
    if (d)
        closedir(d);
    return n;
}

int children_of(pid_t pid) { return children_list(pid, NULL, INT_MAX); }

long proc_status(pid_t pid, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            v = atol(line + n + 1);
            break;
        }
    if (f)
        fclose(f);
    return v;
}

long proc_cpu_ms(pid_t pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[got] = 0;
    const char *c = strrchr(text, ')');
    unsigned long utime = 0, stime = 0;
    if (c)
        sscanf(c + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime);
    return (long)((utime + stime) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
}
