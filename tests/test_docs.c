/*
 * test_docs.c: the documents' examples are tests. Every shell example and
 * protocol transcript of README.md, PROTOCOL.md, the manual pages and the
 * rules pages is run from the binaries in the tree (`make test` builds
 * them first), and the output it shows is compared with what the program
 * prints now. A changed output fails and names the document and the line.
 *
 * THE CONVENTION. Every fenced block of these documents (every `.EX` block
 * of a manual page) carries a tag: the Markdown fence's info string, or a
 * roff comment `.\" TAG` on one of the three lines before `.EX`. A block
 * with no tag fails, so that nothing new goes unchecked. The tags:
 *
 *   ```format                 not a command's output: a syntax, a file
 *                             format, a drawing. Not run.
 *   ```sh example             shell commands, run one by one in a scratch
 *                             directory (build/docs/<doc>-<line>/) holding
 *                             ./denham, ./denham-match, bench/, docs/ and
 *                             tests/ of the tree, with `denham` and
 *                             `denham-match` first on PATH (the manual
 *                             pages' spelling); standard input is empty.
 *                             Each must exit with status 0. A line that
 *                             starts with `$ ` is a command and the lines
 *                             after it, up to the next `$ `, its shown
 *                             output (standard output); without any `$ `
 *                             every line is a command and no output is
 *                             shown. `#` lines between commands are
 *                             comments; a line ending in `\` goes on.
 *   ```ugi example            a protocol transcript: `> LINE` is sent,
 *                             `< LINE` is printed. The engine is ./denham,
 *                             or the command of a first line `$ COMMAND`.
 *                             Each command is sent once the answer shown
 *                             before it has come (a `go` waits for its
 *                             `bestmove`); `quit` ends it.
 *   ```text example run: CMD  output only: the block is what CMD prints
 *                             (any language word instead of `text`).
 *   ```ini example file: PATH a part of a file of the tree: its lines, in one
 *                             run, anywhere in the file.
 *
 * Options after `example`: `long` runs the commands shortened by the
 * rules in shorten() below (fewer games, shorter times) and compares no
 * output; `skip: REASON` (last in the tag) runs nothing, and the test counts
 * the block apart with its reason (a real Slurm cluster, an install into
 * the system, a server that runs until stopped).
 *
 * Shown output is compared line for line, after the one rule set of
 * doc_mask() (doc_examples.c) has replaced with `#`, in both, the numbers
 * that vary between two runs: times, nodes per second, hashfull, `N ms`,
 * and the node and table-hit counts of a search with a time limit. A line
 * that is exactly `...` stands for any number of lines, `...` within a line
 * for any text; trailing blanks never count, nor blank lines at the start
 * or the end. A fixed-depth search is
 * deterministic, so its node counts are shown as they are: a change to the
 * search updates the documents in the same commit (a failure prints the
 * output as it is now, to copy).
 *
 * The test prints, per document, the examples run and those skipped with
 * their reasons. A new section's examples need only their tags.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/core/timeman.h"
#include "../protocol/common/engine_proc.h"
#include "doc_examples.h"
#include "helpers.h"

/* The documents checked. */
static const char *const documents[] = {
    "README.md", "PROTOCOL.md", "docs/man/denham.1", "docs/man/denham-match.1", "docs/rules/README.md",
    "docs/rules/brax.md", "docs/rules/bolix.md", "docs/rules/brandubh.md", "docs/rules/jinxx.md",
};
#define N_DOCUMENTS (sizeof documents / sizeof documents[0])

#define COMMAND_SECONDS 120 /* any one command of an example */
#define TRANSCRIPT_WAIT_MS 60000

/* ---- what one document's run found ---- */

typedef struct report {
    int run, skipped, formats, failed;
    int commands; /* shell commands and transcript lines sent, in the blocks run */
    char reasons[2048]; /* the skipped blocks' reasons, with their lines */
    char *failures;     /* every failure's message */
    size_t failures_len;
} report_t;

static void note_failure(report_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_failure(report_t *r, const char *fmt, ...)
{
    char msg[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t n = strlen(msg);
    r->failures = realloc(r->failures, r->failures_len + n + 2);
    if (!r->failures)
        abort();
    memcpy(r->failures + r->failures_len, msg, n);
    r->failures_len += n;
    r->failures[r->failures_len++] = '\n';
    r->failures[r->failures_len] = 0;
    r->failed++;
}

/* ---- text as lines ---- */

typedef struct text_lines {
    int n;
    char **line;
} text_lines_t;

static void lines_add(text_lines_t *t, const char *s, size_t len)
{
    t->line = realloc(t->line, (size_t)(t->n + 1) * sizeof *t->line);
    char *copy = malloc(len + 1);
    if (!t->line || !copy)
        abort();
    memcpy(copy, s, len);
    copy[len] = 0;
    t->line[t->n++] = copy;
}

static void lines_split(text_lines_t *t, const char *text)
{
    while (*text) {
        size_t len = strcspn(text, "\n");
        lines_add(t, text, len);
        text += len + (text[len] == '\n');
    }
}

static void lines_free(text_lines_t *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->line[i]);
    free(t->line);
    *t = (text_lines_t){0};
}

/* Masks every line, then drops the blank lines at the start and the end
 * (a summary that begins with an empty line shows as it reads). */
static int lines_mask(text_lines_t *t, bool timed)
{
    for (int i = 0; i < t->n; i++)
        doc_mask(t->line[i], timed);
    int lead = 0;
    while (lead < t->n && t->line[lead][0] == 0)
        free(t->line[lead++]);
    memmove(t->line, t->line + lead, (size_t)(t->n - lead) * sizeof *t->line);
    t->n -= lead;
    while (t->n > 0 && t->line[t->n - 1][0] == 0)
        free(t->line[--t->n]);
    return lead;
}

/* Compares shown lines (with their lines in the document) with printed
 * text; a failure names the document's line and shows the output now. */
static void compare(report_t *r, const char *doc, const char *command, const text_lines_t *shown, const int *shown_at,
                    int block_line, const char *printed, bool timed)
{
    text_lines_t want = {0}, got = {0}, raw = {0};
    for (int i = 0; i < shown->n; i++)
        lines_add(&want, shown->line[i], strlen(shown->line[i]));
    lines_split(&got, printed);
    lines_split(&raw, printed);
    int want_lead = lines_mask(&want, timed);
    int got_lead = lines_mask(&got, timed);
    int bad_e, bad_a;
    if (!doc_match(want.line, want.n, got.line, got.n, &bad_e, &bad_a)) {
        bad_e += want_lead;
        bad_a += got_lead;
        int at = bad_e < shown->n ? shown_at[bad_e] : block_line;
        char now[4096] = "";
        size_t n = 0;
        for (int i = 0; i < raw.n && n < sizeof now - 200; i++)
            n += (size_t)snprintf(now + n, sizeof now - n, "    %s\n", raw.line[i]);
        note_failure(r,
             "%s:%d: the output of `%s` is not what the document shows:\n  shown:   %s\n  printed: %s\n"
             "  (after masking, doc_examples.c); the whole output now:\n%s",
             doc, at, command, bad_e < shown->n ? shown->line[bad_e] : "(nothing more)",
             bad_a < raw.n ? raw.line[bad_a] : "(nothing more)", now);
    }
    lines_free(&want);
    lines_free(&got);
    lines_free(&raw);
}

/* ---- running shell commands ---- */

static char root[1024];

/* A fresh scratch directory for the block at doc:line, with the tree's
 * binaries and data beside it. */
static void scratch_dir(const char *doc, int line, char *dir, size_t len)
{
    const char *base = strrchr(doc, '/');
    base = base ? base + 1 : doc;
    snprintf(dir, len, "%s/build/docs/%s-%d", root, base, line);
    char cmd[16384];
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s/bin' && cd '%s' && ln -s '%s/denham' '%s/denham-match' '%s/bench' "
             "'%s/docs' '%s/tests' . && ln -s '%s/denham' '%s/denham-match' bin/",
             dir, dir, dir, root, root, root, root, root, root, root);
    ck_assert_msg(system(cmd) == 0, "cannot make %s", dir);
}

/* Runs one command in dir; its standard output (malloc'd) and status. */
static char *run_command(const char *dir, const char *command, int *status, char *err, size_t err_len)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/example.sh", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%s\n", command);
    fclose(f);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "cd '%s' && PATH='%s/bin':\"$PATH\" timeout %d bash example.sh </dev/null 2>stderr.txt",
             dir, dir, COMMAND_SECONDS);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    for (size_t got; out && (got = fread(out + n, 1, cap - n - 1, p)) > 0;) {
        n += got;
        if (n + 1 == cap)
            out = realloc(out, cap *= 2);
    }
    ck_assert_ptr_nonnull(out);
    out[n] = 0;
    int w = pclose(p);
    *status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    err[0] = 0;
    f = fopen(path, "r");
    if (f) {
        size_t k = fread(err, 1, err_len - 1, f);
        err[k] = 0;
        fclose(f);
    }
    return out;
}

/* `long`: the same command with fewer games and shorter times, so that
 * every option it shows is still read and checked. */
static void shorten(const char *command, char *out, size_t len)
{
    static const struct {
        const char *key;    /* followed by a value */
        const char *value;  /* what the value becomes */
    } rules[] = {
        {"--games ", "2"},      /* a match: one pair of games; datagen: two games */
        {"--movetime ", "20"},  /* ms */
        {"movetime=", "20"},
        {"tc=", "0.2+0.01"},
        {"--iterations ", "20"},
    };
    size_t n = 0;
    for (const char *p = command; *p && n + 32 < len;) {
        bool done = false;
        for (size_t i = 0; i < sizeof rules / sizeof rules[0] && !done; i++) {
            size_t k = strlen(rules[i].key);
            if (strncmp(p, rules[i].key, k) == 0 && (p == command || p[-1] == ' ')) {
                n += (size_t)snprintf(out + n, len - n, "%s%s", rules[i].key, rules[i].value);
                p += k + strcspn(p + k, " \\\n");
                done = true;
            }
        }
        if (!done)
            out[n++] = *p++;
    }
    out[n] = 0;
}

/* A shell block's commands: `$ ` lines with their output, or every line. */
static void run_shell_block(report_t *r, const char *doc, const doc_block_t *b)
{
    char dir[2048];
    scratch_dir(doc, b->line, dir, sizeof dir);
    bool prompts = false;
    for (int i = 0; i < b->n; i++)
        prompts = prompts || strncmp(b->body[i], "$ ", 2) == 0;
    for (int i = 0; i < b->n;) {
        const char *s = b->body[i];
        bool is_command = prompts ? strncmp(s, "$ ", 2) == 0 : (s[strspn(s, " ")] != 0 && s[strspn(s, " ")] != '#');
        if (!is_command) {
            if (prompts)
                note_failure(r, "%s:%d: output before the first `$ ` command", doc, b->body_line[i]);
            i++;
            continue;
        }
        int at = b->body_line[i];
        char command[8192] = "";
        size_t n = 0;
        for (bool more = true; more && i < b->n; i++) {
            const char *t = b->body[i] + (prompts && strncmp(b->body[i], "$ ", 2) == 0 ? 2 : 0);
            size_t len = strlen(t);
            more = len > 0 && t[len - 1] == '\\';
            n += (size_t)snprintf(command + n, sizeof command - n, "%s\n", t);
        }
        text_lines_t shown = {0};
        int shown_at[4096];
        for (; prompts && i < b->n && strncmp(b->body[i], "$ ", 2) != 0; i++) {
            if (shown.n < 4096)
                shown_at[shown.n] = b->body_line[i];
            lines_add(&shown, b->body[i], strlen(b->body[i]));
        }
        char ran[8192];
        if (b->is_long)
            shorten(command, ran, sizeof ran);
        else
            snprintf(ran, sizeof ran, "%s", command);
        int status;
        char err[2048];
        char *out = run_command(dir, ran, &status, err, sizeof err);
        r->commands++;
        command[strcspn(command, "\n")] = 0;
        /* A match shortened to a few games may end with its SPRT undecided:
         * denham-match's exit status 3, a result and no failure. */
        bool undecided = b->is_long && status == 3 && strstr(ran, "denham-match") && strstr(ran, "--sprt");
        if (status != 0 && !undecided)
            note_failure(r, "%s:%d: `%s` exited with status %d%s; its standard error:\n%s", doc, at, command, status,
                 b->is_long ? " (shortened: `long`)" : "", err);
        else if (shown.n > 0 && !b->is_long)
            compare(r, doc, command, &shown, shown_at, at, out, doc_timed(ran));
        free(out);
        lines_free(&shown);
    }
}

/* An output block: what its `run:` command prints. */
static void run_output_block(report_t *r, const char *doc, const doc_block_t *b)
{
    char dir[2048];
    scratch_dir(doc, b->line, dir, sizeof dir);
    int status;
    char err[2048];
    char *out = run_command(dir, b->run, &status, err, sizeof err);
    r->commands++;
    if (status != 0) {
        note_failure(r, "%s:%d: `%s` exited with status %d; its standard error:\n%s", doc, b->line, b->run, status, err);
    } else {
        text_lines_t shown = {0};
        for (int i = 0; i < b->n; i++)
            lines_add(&shown, b->body[i], strlen(b->body[i]));
        compare(r, doc, b->run, &shown, b->body_line, b->line, out, doc_timed(b->run));
        lines_free(&shown);
    }
    free(out);
}

/* A copy of a file: line for line. */
static void check_file_block(report_t *r, const char *doc, const doc_block_t *b)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", root, b->file);
    FILE *f = fopen(path, "r");
    if (!f) {
        note_failure(r, "%s:%d: the block copies %s, which is not in the tree", doc, b->line, b->file);
        return;
    }
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    /* A part of the file: its lines anywhere in it, in one run. */
    text_lines_t shown = {0};
    int at[4096];
    lines_add(&shown, "...", 3);
    at[0] = b->line;
    for (int i = 0; i < b->n && shown.n < 4095; i++) {
        at[shown.n] = b->body_line[i];
        lines_add(&shown, b->body[i], strlen(b->body[i]));
    }
    at[shown.n] = b->line;
    lines_add(&shown, "...", 3);
    char what[4400];
    snprintf(what, sizeof what, "cat %s", b->file);
    compare(r, doc, what, &shown, at, b->line, text, false);
    lines_free(&shown);
}

/* ---- transcripts ---- */

static bool line_is_go_with_answer(const char *command)
{
    return strncmp(command, "go", 2) == 0 && (command[2] == 0 || command[2] == ' ') &&
           !strstr(command, "infinite") && !strstr(command, "ponder") && !strstr(command, "perft");
}

/* Reads lines into got until one matches the masked pattern want (NULL:
 * none; then until the output ends). False at the deadline. */
static bool read_until(eproc_t *e, text_lines_t *got, const char *want, bool timed)
{
    char line[EPROC_LINE_MAX];
    int64_t deadline = timeman_now_ms() + TRANSCRIPT_WAIT_MS;
    for (;;) {
        int rc = eproc_read_line(e, line, sizeof line, deadline);
        if (rc == EPROC_EOF)
            return want == NULL;
        if (rc != EPROC_LINE)
            return false;
        lines_add(got, line, strlen(line));
        if (want) {
            char masked[EPROC_LINE_MAX];
            snprintf(masked, sizeof masked, "%s", line);
            doc_mask(masked, timed);
            if (doc_glob(want, masked))
                return true;
        }
    }
}

static void run_transcript(report_t *r, const char *doc, const doc_block_t *b)
{
    const char *engine = "./denham";
    int first = 0;
    if (b->n > 0 && strncmp(b->body[0], "$ ", 2) == 0) {
        engine = b->body[0] + 2;
        first = 1;
    }
    bool timed = false;
    text_lines_t shown = {0};
    int shown_at[4096];
    for (int i = first; i < b->n; i++) {
        const char *s = b->body[i];
        if (strncmp(s, "> ", 2) == 0) {
            timed = timed || doc_timed(s);
        } else if (strncmp(s, "< ", 2) == 0 || strcmp(s, "<") == 0) {
            if (shown.n < 4096)
                shown_at[shown.n] = b->body_line[i];
            lines_add(&shown, s + (s[1] ? 2 : 1), strlen(s + (s[1] ? 2 : 1)));
        } else {
            note_failure(r, "%s:%d: a transcript's line is `> COMMAND` or `< ANSWER`, not '%s'", doc, b->body_line[i], s);
            lines_free(&shown);
            return;
        }
    }
    eproc_t e; /* from the tree's root, the test's directory */
    ck_assert(eproc_start(&e, engine, NULL));
    text_lines_t got = {0};
    bool ok = true;
    for (int i = first; i < b->n && ok; i++) {
        if (strncmp(b->body[i], "> ", 2) != 0)
            continue;
        const char *command = b->body[i] + 2;
        ok = eproc_send(&e, command);
        r->commands++;
        /* The answer shown before the next command, or bestmove. */
        int last = -1;
        for (int k = i + 1; k < b->n && strncmp(b->body[k], "< ", 2) == 0; k++)
            last = k;
        char want[EPROC_LINE_MAX] = "";
        if (last >= 0 && strcmp(b->body[last] + 2, "...") != 0)
            snprintf(want, sizeof want, "%s", b->body[last] + 2);
        else if (line_is_go_with_answer(command))
            snprintf(want, sizeof want, "bestmove ...");
        if (ok && *want) {
            doc_mask(want, timed);
            ok = read_until(&e, &got, want, timed);
            if (!ok)
                note_failure(r, "%s:%d: no line '%s' came after `%s`", doc, b->body_line[i], want, command);
        }
    }
    if (ok) {
        eproc_send(&e, "quit");
        if (!read_until(&e, &got, NULL, timed))
            note_failure(r, "%s:%d: the engine did not end after `quit`", doc, b->line);
    }
    eproc_end(&e, 2000, NULL);
    eproc_destroy(&e);
    if (ok) {
        size_t n = 0, cap = 1;
        for (int i = 0; i < got.n; i++)
            cap += strlen(got.line[i]) + 1;
        char *printed = malloc(cap);
        ck_assert_ptr_nonnull(printed);
        printed[0] = 0;
        for (int i = 0; i < got.n; i++)
            n += (size_t)snprintf(printed + n, cap - n, "%s\n", got.line[i]);
        compare(r, doc, engine, &shown, shown_at, b->line, printed, timed);
        free(printed);
    }
    lines_free(&got);
    lines_free(&shown);
}

/* ---- one document ---- */

static void add_reason(report_t *r, const char *doc, const doc_block_t *b)
{
    size_t n = strlen(r->reasons);
    snprintf(r->reasons + n, sizeof r->reasons - n, "    %s:%d: %s\n", doc, b->line, b->skip);
}

static void check_document(const char *doc, report_t *r)
{
    *r = (report_t){0};
    doc_t d;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", root, doc);
    ck_assert_msg(doc_read(path, &d), "cannot read %s", doc);
    int64_t t0 = timeman_now_ms();
    for (int i = 0; i < d.n; i++) {
        const doc_block_t *b = &d.blocks[i];
        int failed = r->failed;
        switch (b->kind) {
        case DOC_UNTAGGED:
            note_failure(r, "%s:%d: a block without a tag: mark it `sh example`, `ugi example`, `text example run: CMD`, "
                    "`... example skip: REASON` or `format` (tests/test_docs.c gives the convention)",
                 doc, b->line);
            continue;
        case DOC_BAD:
            note_failure(r, "%s:%d: bad tag: %s", doc, b->line, b->error);
            continue;
        case DOC_FORMAT:
            r->formats++;
            continue;
        default:
            break;
        }
        if (b->skip) {
            r->skipped++;
            add_reason(r, doc, b);
            continue;
        }
        r->run++;
        if (b->kind == DOC_SHELL)
            run_shell_block(r, doc, b);
        else if (b->kind == DOC_TRANSCRIPT)
            run_transcript(r, doc, b);
        else if (b->kind == DOC_OUTPUT)
            run_output_block(r, doc, b);
        else
            check_file_block(r, doc, b);
        if (r->failed > failed)
            fprintf(stderr, "docs: %s:%d failed\n", doc, b->line);
    }
    printf("docs: %s: %d examples run (%d commands), %d skipped, %d format blocks, %d failures (%.1f s)\n%s", doc,
           r->run, r->commands, r->skipped, r->formats, r->failed, (double)(timeman_now_ms() - t0) / 1000.0,
           r->reasons);
    fflush(stdout);
    doc_free(&d);
}

static void examples_of(const char *doc)
{
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    report_t r;
    check_document(doc, &r);
    if (r.failed) {
        fprintf(stderr, "%s", r.failures);
        char first[1200];
        snprintf(first, sizeof first, "%s", r.failures);
        free(r.failures);
        ck_abort_msg("%d failures in %s's examples (all on stderr); the first: %s", r.failed, doc, first);
    }
    free(r.failures);
}

START_TEST(document_examples_hold)
{
    examples_of(documents[_i]);
}
END_TEST

/* ---- the mechanism itself ---- */

/* The rule set masks what varies and nothing else; the matcher's
 * wildcards; a changed line fails at its line. */
START_TEST(masks_and_matcher)
{
    char a[256] = "info depth 3 seldepth 4 score cp 12 nodes 150 nps 75000 hashfull 0 tbhits 0 time 2 pv e1e3";
    doc_mask(a, false);
    ck_assert_str_eq(a, "info depth 3 seldepth 4 score cp 12 nodes 150 nps # hashfull # tbhits 0 time # pv e1e3");
    char b[256] = "info depth 3 seldepth 4 score cp 12 nodes 150 nps 75000 hashfull 0 tbhits 0 time 2 pv e1e3";
    doc_mask(b, true);
    ck_assert_str_eq(b, "info depth 3 seldepth 4 score cp 12 nodes # nps # hashfull # tbhits # time # pv e1e3");
    char c[256] = "{\"nodes\":1957,\"time_ms\":1,\"pv\":[]}   ";
    doc_mask(c, false);
    ck_assert_str_eq(c, "{\"nodes\":1957,\"time_ms\":#,\"pv\":[]}");
    char d[256] = "ok   win-in-4-b               e4e7 mate 4, 36 ms";
    doc_mask(d, false);
    ck_assert_str_eq(d, "ok   win-in-4-b               e4e7 mate 4, # ms");
    char e[256] = "go movetime 1000";
    doc_mask(e, false);
    ck_assert_str_eq(e, "go movetime 1000");
    ck_assert(doc_timed("go movetime 1000") && doc_timed("--each tc=1+0.01") && !doc_timed("go depth 5"));

    ck_assert(doc_glob("score cp ... pv ...", "score cp 12 pv e1e3 e9e7"));
    ck_assert(doc_glob("...", ""));
    ck_assert(!doc_glob("score cp ... pv", "score cp 12 pv e1e3"));
    char *shown[] = {"uciok", "...", "bestmove ..."};
    char *printed[] = {"uciok", "info depth 1", "info depth 2", "bestmove e1e3"};
    int be, ba;
    ck_assert(doc_match(shown, 3, printed, 4, &be, &ba));
    char *changed[] = {"uciok", "info depth 1", "bestmove"};
    ck_assert(!doc_match(shown, 3, changed, 3, &be, &ba));
    ck_assert_int_eq(be, 2);
    char *exact[] = {"a", "b", "c"};
    char *other[] = {"a", "x", "c"};
    ck_assert(!doc_match(exact, 3, other, 3, &be, &ba));
    ck_assert_int_eq(be, 1);
    ck_assert_int_eq(ba, 1);
    ck_assert(!doc_match(exact, 3, exact, 2, &be, &ba));
    ck_assert_int_eq(be, 2);
    ck_assert_int_eq(ba, 2);
}
END_TEST

/* The tags parse as the convention says, and a wrong one is refused. */
START_TEST(tags_parse)
{
    doc_block_t b = {0};
    doc_parse_tag("sh example", &b);
    ck_assert_int_eq(b.kind, DOC_SHELL);
    b = (doc_block_t){0};
    doc_parse_tag("sh example long", &b);
    ck_assert(b.kind == DOC_SHELL && b.is_long);
    b = (doc_block_t){0};
    doc_parse_tag("sh example skip: needs root and Slurm", &b);
    ck_assert(b.kind == DOC_SHELL && strcmp(b.skip, "needs root and Slurm") == 0);
    free(b.skip);
    b = (doc_block_t){0};
    doc_parse_tag("text example run: ./denham perft brax 1 | tail -2", &b);
    ck_assert(b.kind == DOC_OUTPUT && strcmp(b.run, "./denham perft brax 1 | tail -2") == 0);
    free(b.run);
    b = (doc_block_t){0};
    doc_parse_tag("ini example file: protocol/otep/denham.ini", &b);
    ck_assert(b.kind == DOC_FILE && strcmp(b.file, "protocol/otep/denham.ini") == 0);
    free(b.file);
    b = (doc_block_t){0};
    doc_parse_tag("format", &b);
    ck_assert_int_eq(b.kind, DOC_FORMAT);
    b = (doc_block_t){0};
    doc_parse_tag("sh", &b);
    ck_assert_int_eq(b.kind, DOC_UNTAGGED);
    b = (doc_block_t){0};
    doc_parse_tag("text example", &b);
    ck_assert_int_eq(b.kind, DOC_BAD);
    free(b.error);
    b = (doc_block_t){0};
    doc_parse_tag("sh example quick", &b);
    ck_assert_int_eq(b.kind, DOC_BAD);
    free(b.error);
}
END_TEST

/* A document whose shown output has drifted fails, naming its line; an
 * untagged block fails too. */
START_TEST(a_changed_output_is_caught)
{
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    FILE *f = fopen("build/docs-drift.md", "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "# A drifted page\n\n```sh example\n$ ./denham perft brax 2\n...\nNodes searched: 225\n"
               "Time (ms): 0\n...\n```\n\n```ugi example\n> position startpos moves e1e3\n> go depth 1\n"
               "< info depth 1 seldepth 1 score cp 7 nodes ... pv ...\n< bestmove ...\n```\n\n```\nuntagged\n```\n");
    fclose(f);
    report_t r;
    check_document("build/docs-drift.md", &r);
    ck_assert_int_eq(r.run, 2);
    ck_assert_int_eq(r.failed, 3);
    ck_assert_msg(strstr(r.failures, "build/docs-drift.md:6: the output of `./denham perft brax 2` is not what the "
                                     "document shows:\n  shown:   Nodes searched: 225\n"),
                  "%s", r.failures);
    ck_assert_msg(strstr(r.failures, "build/docs-drift.md:14: the output of `./denham` is not what the document "
                                     "shows:\n  shown:   info depth 1 seldepth 1 score cp 7 nodes"),
                  "%s", r.failures);
    ck_assert_msg(strstr(r.failures, "build/docs-drift.md:18: a block without a tag"), "%s", r.failures);
    free(r.failures);
}
END_TEST

/* ---- the figures ---- */

/* The cells of a table row "| a | b | c | d |" but the second (the
 * measured value), joined by " | ". */
static void row_without_value(const char *row, char *out, size_t len)
{
    size_t n = 0;
    int cell = 0;
    for (const char *p = row + 2; *p && n + 1 < len; cell++) {
        const char *end = strstr(p, " | ");
        size_t k = end ? (size_t)(end - p) : strcspn(p, "\n");
        if (cell != 1)
            n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? " | " : "", (int)k, p);
        if (!end)
            break;
        p = end + 3;
    }
}

/* README's "Figures" table has the rows bench/speed/figures.sh measures,
 * in its order (the script prints the table; the values are not held to
 * anything: they are measurements). */
START_TEST(figures_table_is_the_scripts)
{
    static char script[1 << 15], readme[1 << 15];
    snprintf(script, sizeof script, "%s", shell("bench/speed/figures.sh --rows"));
    snprintf(readme, sizeof readme, "%s",
             shell("awk '/^## Figures/{on=1; next} /^## /{on=0} on && /^\\| / && !/^\\| figure \\|/' README.md"));
    int rows = 0;
    char *sp, *rp;
    char *s = strtok_r(script, "\n", &sp), *r = strtok_r(readme, "\n", &rp);
    for (; s && r; s = strtok_r(NULL, "\n", &sp), r = strtok_r(NULL, "\n", &rp), rows++) {
        char want[2048], got[2048];
        row_without_value(s, want, sizeof want);
        row_without_value(r, got, sizeof got);
        ck_assert_msg(strcmp(want, got) == 0, "README.md's Figures, row %d:\n  %s\nbench/speed/figures.sh --rows:\n  %s",
                      rows + 1, got, want);
    }
    ck_assert_msg(!s && !r, "README.md's Figures has %s rows than bench/speed/figures.sh --rows", s ? "fewer" : "more");
    ck_assert_int_ge(rows, 15);
}
END_TEST

Suite *suite_docs(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("mechanism");
    tcase_add_test(tc, masks_and_matcher);
    tcase_add_test(tc, tags_parse);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_changed_output_is_caught);
    tcase_add_test(tc, figures_table_is_the_scripts);
    suite_add_tcase(s, tc);
    tc = tcase_create("examples");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, document_examples_hold, 0, (int)N_DOCUMENTS);
    suite_add_tcase(s, tc);
    return s;
}
