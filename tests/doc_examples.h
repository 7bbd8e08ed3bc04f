/*
 * doc_examples.h: the marked blocks of a document (README.md, PROTOCOL.md,
 * a manual page, a rules page), their tags, the one rule set that masks
 * what varies from run to run, and the matcher that compares shown output
 * with printed output. Reads files only: it runs nothing (test_docs.c does,
 * and its header gives the convention the tags follow).
 */
#ifndef DENHAM_DOC_EXAMPLES_H
#define DENHAM_DOC_EXAMPLES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum doc_kind {
    DOC_UNTAGGED,   /* a block with no tag: an error, so that none goes unchecked */
    DOC_BAD,        /* a tag that does not parse: an error, with its reason */
    DOC_FORMAT,     /* not a command's output: a syntax, a file format, a drawing */
    DOC_SHELL,      /* `sh example`: shell commands, with their output after `$ ` */
    DOC_TRANSCRIPT, /* `ugi example`: `> command` sent, `< answer` expected */
    DOC_OUTPUT,     /* `... example run: CMD`: the output CMD prints */
    DOC_FILE,       /* `... example file: PATH`: a copy of a file in the tree */
} doc_kind_t;

typedef struct doc_block {
    int line;        /* the document's line of the tag (the fence, or the roff comment), from 1 */
    doc_kind_t kind;
    bool is_long;    /* `long`: run shortened (test_docs.c's rules), its output not compared */
    char *skip;      /* `skip: REASON`: not run, counted apart with the reason; NULL: run */
    char *run;       /* DOC_OUTPUT: the command */
    char *file;      /* DOC_FILE: the path */
    char *error;     /* DOC_BAD: what is wrong */
    int n;           /* the body's lines (indentation of the fence removed, roff escapes undone) */
    char **body;
    int *body_line;  /* each body line's line in the document */
} doc_block_t;

typedef struct doc {
    const char *path;
    int n;
    doc_block_t *blocks;
} doc_t;

/* Reads the blocks of path: fenced blocks of a Markdown file, `.EX`/`.EE`
 * blocks of a roff page (`*.1`). False when the file cannot be read. */
bool doc_read(const char *path, doc_t *d);
void doc_free(doc_t *d);

/* Parses a tag (a fence's info string, or the text of a `.\" ` comment)
 * into b's kind and options. */
void doc_parse_tag(const char *tag, doc_block_t *b);

/* Does this command carry a time limit (its output then varies more)? */
bool doc_timed(const char *command);
/* The one rule set: replaces in place, with `#`, the numbers that vary
 * between two runs of the same command (times, speeds, the table's
 * fill; node counts too after a timed command). */
void doc_mask(char *line, bool timed);

/* Does text match pattern, where `...` in the pattern stands for any
 * characters (none included)? */
bool doc_glob(const char *pattern, const char *text);
/* Does the output (actual, na lines) match what the document shows
 * (expected, ne lines)? A line that is exactly `...` stands for any lines
 * (none included), `...` within a line for any characters. Both are masked
 * by the caller. On a mismatch, *bad_expected is the shown line that could
 * not be matched (ne when output was left over) and *bad_actual the printed
 * line it was compared with (na when the output ended first). */
bool doc_match(char *const *expected, int ne, char *const *actual, int na, int *bad_expected, int *bad_actual);

#endif
