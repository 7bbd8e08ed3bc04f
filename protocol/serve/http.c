/*
 * http.c: see http.h.
 * Owns no socket, thread or engine (serve.c does): it parses and checks bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include "http.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The end of the line starting at c (its CR LF or LF), or NULL when the
 * buffer ends first. */
static const char *line_end(const char *c, const char *end)
{
    const char *nl = memchr(c, '\n', (size_t)(end - c));
    return nl;
}

static bool token_char(char c)
{
    return isalnum((unsigned char)c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Copies a header value, trimmed, if it fits; false if it does not. */
static bool keep_value(char *dst, size_t cap, const char *v, size_t n)
{
    while (n && (*v == ' ' || *v == '\t'))
        v++, n--;
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n >= cap)
        return false;
    memcpy(dst, v, n);
    dst[n] = 0;
    return true;
}

static int parse_request_line(const char *c, size_t n, http_request_t *req)
{
    const char *sp1 = memchr(c, ' ', n);
    if (!sp1 || sp1 == c || (size_t)(sp1 - c) >= HTTP_METHOD_MAX)
        return 400;
    for (const char *m = c; m < sp1; m++)
        if (!token_char(*m))
            return 400;
    memcpy(req->method, c, (size_t)(sp1 - c));
    req->method[sp1 - c] = 0;
    const char *target = sp1 + 1, *end = c + n;
    const char *sp2 = memchr(target, ' ', (size_t)(end - target));
    if (!sp2 || sp2 == target || *target != '/')
        return 400;
    size_t version_len = (size_t)(end - sp2 - 1);
    if (version_len != 8 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0)
        return strncmp(sp2 + 1, "HTTP/", 5) == 0 ? 505 : 400;
    if (sp2[8] != '0' && sp2[8] != '1')
        return 505;
    /* The whole target, its query too, by its length: a NUL must not end
     * the path early (`/api/info\0garbage` is no request for /api/info). */
    size_t target_len = (size_t)(sp2 - target), path_len = target_len;
    for (size_t i = 0; i < target_len; i++) {
        unsigned char b = (unsigned char)target[i];
        if (b <= 0x20 || b >= 0x7f)
            return 400;
        if (b == '?' && path_len == target_len)
            path_len = i;
    }
    memcpy(req->path, target, path_len);
    req->path[path_len] = 0;
    return 200;
}

static int parse_header(const char *c, size_t n, http_request_t *req)
{
    const char *colon = memchr(c, ':', n);
    if (!colon || colon == c)
        return 400;
    for (const char *k = c; k < colon; k++)
        if (!token_char(*k)) /* no blank before the colon (RFC 9112 5.1) */
            return 400;
    for (size_t i = 0; i < n; i++) { /* bytes from 0x80 are obs-text (RFC 9110 5.5): a cookie may hold them */
        unsigned char b = (unsigned char)c[i];
        if ((b < 0x20 && b != '\t') || b == 0x7f)
            return 400;
    }
    size_t key_len = (size_t)(colon - c), value_len = n - key_len - 1;
    const char *value = colon + 1;
#define IS(name) (key_len == strlen(name) && strncasecmp(c, name, key_len) == 0)
    if (IS("Host")) {
        if (req->host[0] || !keep_value(req->host, sizeof req->host, value, value_len))
            return 400; /* two Hosts, or one too long */
    } else if (IS("Origin")) {
        if (!keep_value(req->origin, sizeof req->origin, value, value_len))
            return 400;
        req->has_origin = true;
    } else if (IS("Last-Event-ID")) {
        if (!keep_value(req->last_event_id, sizeof req->last_event_id, value, value_len))
            return 400;
    } else if (IS("Content-Length")) {
        char text[24];
        if (req->content_length >= 0 || !keep_value(text, sizeof text, value, value_len) || !text[0])
            return 400;
        for (const char *d = text; *d; d++)
            if (!isdigit((unsigned char)*d))
                return 400;
        if (strlen(text) > 9 || atol(text) > HTTP_BODY_MAX)
            return 413;
        req->content_length = atol(text);
    } else if (IS("Transfer-Encoding")) {
        return 411;
    }
#undef IS
    return 200;
}

int http_parse(const char *buf, size_t len, http_request_t *req)
{
    memset(req, 0, sizeof *req);
    req->content_length = -1;
    const char *c = buf, *end = buf + len;
    const char *nl = line_end(c, end);
    if (!nl)
        return len > HTTP_LINE_MAX ? 414 : HTTP_INCOMPLETE;
    size_t n = (size_t)(nl - c);
    if (n > HTTP_LINE_MAX)
        return 414;
    if (n && c[n - 1] == '\r')
        n--;
    int status = parse_request_line(c, n, req);
    if (status != 200)
        return status;
    int headers = 0;
    for (c = nl + 1;; c = nl + 1) {
        if ((size_t)(c - buf) > HTTP_HEAD_MAX)
            return 431;
        nl = line_end(c, end);
        if (!nl)
            return len > HTTP_HEAD_MAX ? 431 : HTTP_INCOMPLETE;
        n = (size_t)(nl - c);
        if (n && c[n - 1] == '\r')
            n--;
        if (n == 0)
            break;
        if (++headers > HTTP_HEADERS_MAX)
            return 431;
        if (c[0] == ' ' || c[0] == '\t') /* obsolete line folding */
            return 400;
        status = parse_header(c, n, req);
        if (status != 200)
            return status;
    }
    req->head_len = (size_t)(nl + 1 - buf);
    if (req->head_len > HTTP_HEAD_MAX)
        return 431;
    if (!req->host[0])
        return 400; /* HTTP/1.1 requires Host, and the Host check needs it */
    return 200;
}

const char *http_reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

/* Splits "name:port" (or "[v6]:port"); a Host without a port names port
 * 80, as a browser writes it for that port (RFC 9110 7.2); false when
 * malformed. */
static bool split_host(const char *host, char *name, size_t cap, int *port)
{
    const char *colon;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (!close || (close[1] != ':' && close[1] != 0))
            return false;
        colon = close + 1;
    } else {
        colon = strrchr(host, ':');
        if (!colon)
            colon = host + strlen(host);
    }
    size_t n = (size_t)(colon - host);
    if (n == 0 || n >= cap)
        return false;
    memcpy(name, host, n);
    name[n] = 0;
    if (*colon == 0) {
        *port = 80;
        return true;
    }
    const char *p = colon + 1;
    if (!*p || strlen(p) > 5)
        return false;
    for (const char *d = p; *d; d++)
        if (!isdigit((unsigned char)*d))
            return false;
    *port = atoi(p);
    return true;
}

static bool ip_literal(const char *name)
{
    if (name[0] == '[')
        return name[strlen(name) - 1] == ']' && strspn(name + 1, "0123456789abcdefABCDEF:.]") == strlen(name) - 1;
    int dots = 0;
    for (const char *c = name; *c; c++) {
        if (*c == '.')
            dots++;
        else if (!isdigit((unsigned char)*c))
            return false;
    }
    return dots == 3;
}

bool http_host_allowed(const char *host, const char *listen_host, int port)
{
    char name[HTTP_VALUE_MAX];
    int p;
    if (!split_host(host, name, sizeof name, &p) || p != port)
        return false;
    if (strcasecmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0 || strcmp(name, "[::1]") == 0)
        return true;
    char listen_name[HTTP_VALUE_MAX];
    snprintf(listen_name, sizeof listen_name, strchr(listen_host, ':') ? "[%s]" : "%s", listen_host);
    if (strcasecmp(name, listen_name) == 0)
        return true;
    bool every_address = strcmp(listen_host, "0.0.0.0") == 0 || strcmp(listen_host, "::") == 0;
    return every_address && ip_literal(name);
}

bool http_origin_allowed(const char *origin, const char *host)
{
    return strncmp(origin, "http://", 7) == 0 && strcasecmp(origin + 7, host) == 0;
}

size_t http_response_head(char *out, size_t cap, int status, const char *type, size_t len)
{
    int n = snprintf(out, cap,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n"
                     "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
                     "Referrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'self'; style-src 'self'; "
                     "script-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'\r\n\r\n",
                     status, http_reason(status), type, len);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t http_error_body(char *out, size_t cap, int status, const char *message)
{
    int n = snprintf(out, cap, "{\"error\":\"%s\",\"status\":%d}", message, status);
    return n <= 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t http_sse_head(char *out, size_t cap, unsigned long long id, const char *event)
{
    int n = event ? snprintf(out, cap, "id: %llu\nevent: %s\ndata: ", id, event)
                  : snprintf(out, cap, "id: %llu\ndata: ", id);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t http_sse_frame(char *out, size_t cap, unsigned long long id, const char *event, const char *data)
{
    if (strpbrk(data, "\r\n") || (event && strpbrk(event, "\r\n")))
        return 0;
    int n = event ? snprintf(out, cap, "id: %llu\nevent: %s\ndata: %s\n\n", id, event, data)
                  : snprintf(out, cap, "id: %llu\ndata: %s\n\n", id, data);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

bool http_command_ok(const char *body, size_t len, const char **why)
{
    if (len == 0) {
        *why = "the command is empty";
        return false;
    }
    if (len > HTTP_BODY_MAX) {
        *why = "the command is too long";
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)body[i];
        if (c == '\n' || c == '\r' || c == 0) {
            *why = "a command is one line: no line break or NUL byte";
            return false;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            *why = "the command has a control character";
            return false;
        }
    }
    return true;
}

/* The words of a command line as the engine splits them (blanks), at most
 * max; their number, or max + 1 when there are more. */
static int split_words(const char *line, size_t len, const char **word, size_t *word_len, int max)
{
    int n = 0;
    for (size_t i = 0; i < len;) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len)
            break;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        if (n == max)
            return max + 1;
        word[n] = line + start;
        word_len[n++] = i - start;
    }
    return n;
}

static bool word_is(const char *w, size_t n, const char *text) { return n == strlen(text) && strncmp(w, text, n) == 0; }

int http_command_kind(const char *line, size_t len)
{
    const char *w[1];
    size_t wl[1];
    if (split_words(line, len, w, wl, 1) < 1) /* as the engine reads it: its first word, exactly */
        return HTTP_COMMAND_OTHER;
    return word_is(w[0], wl[0], "go")     ? HTTP_COMMAND_GO
           : word_is(w[0], wl[0], "stop") ? HTTP_COMMAND_STOP
           : word_is(w[0], wl[0], "quit") ? HTTP_COMMAND_QUIT
                                          : HTTP_COMMAND_OTHER;
}

/* `setoption name Hash|Threads|EvalFile value N`: which (1 Hash, 2
 * Threads, 3 EvalFile, 0 none of them), the name's word (for the capped
 * line) and, when N is a whole number, its value (true). */
static bool option_value(const char *line, size_t len, int *which, const char **name, size_t *name_len,
                         long long *value)
{
    const char *w[8];
    size_t wl[8];
    *which = 0;
    int n = split_words(line, len, w, wl, 8);
    if (n < 4 || wl[0] != 9 || strncasecmp(w[0], "setoption", 9) != 0 || !word_is(w[1], wl[1], "name"))
        return false; /* not a setoption */
    int v = 2, known = n > 8 ? 8 : n; /* n is 9 when there are more: a value of many words */
    while (v < known && !word_is(w[v], wl[v], "value"))
        v++;
    if (v != 3) /* the name is one word: Hash, Threads or EvalFile (or a name of many words: none) */
        return false;
    *which = wl[2] == 4 && strncasecmp(w[2], "Hash", 4) == 0       ? 1
             : wl[2] == 7 && strncasecmp(w[2], "Threads", 7) == 0  ? 2
             : wl[2] == 8 && strncasecmp(w[2], "EvalFile", 8) == 0 ? 3
                                                                    : 0;
    *name = w[2];
    *name_len = wl[2];
    bool number = n == 5 && wl[4] > 0 && wl[4] <= 18;
    *value = 0;
    for (size_t i = 0; number && i < wl[4]; i++) {
        number = w[4][i] >= '0' && w[4][i] <= '9';
        *value = *value * 10 + (w[4][i] - '0');
    }
    return number;
}

int http_command_limit(const char *line, size_t len, long max_hash_mb, long max_threads, char *out, size_t cap,
                       const char **why)
{
    int which;
    const char *name;
    size_t name_len;
    long long value;
    bool number = option_value(line, len, &which, &name, &name_len, &value);
    if (!which)
        return HTTP_LIMIT_OK;
    if (which == 3) { /* a path on the server's machine: not a web page's to name */
        *why = "EvalFile reads a file on the server's machine: a web client may not set it";
        return HTTP_LIMIT_REFUSED;
    }
    bool hash = which == 1;
    long max = hash ? max_hash_mb : max_threads;
    if (!number) {
        *why = hash ? "Hash takes a whole number of MB (the server's limit: --max-hash-mb)"
                    : "Threads takes a whole number (the server's limit: --max-threads)";
        return HTTP_LIMIT_REFUSED;
    }
    if (value <= max)
        return HTTP_LIMIT_OK;
    int k = snprintf(out, cap, "setoption name %.*s value %ld", (int)name_len, name, max);
    if (k <= 0 || (size_t)k >= cap) {
        *why = "the option's value is over the server's limit";
        return HTTP_LIMIT_REFUSED;
    }
    *why = hash ? "Hash is over this server's limit (--max-hash-mb)"
                : "Threads is over this server's limit (--max-threads)";
    return HTTP_LIMIT_CAPPED;
}

long http_command_threads(const char *line, size_t len)
{
    int which;
    const char *name;
    size_t name_len;
    long long value;
    bool number = option_value(line, len, &which, &name, &name_len, &value);
    return which == 2 && number ? (long)(value < 1 ? 1 : value > 1000000 ? 1000000 : value) : -1;
}
