/* targets.h: the fuzz targets, shared by the libFuzzer builds (make fuzz)
 * and the corpus replay in the check suite (make test), so that every
 * input ever found interesting or crashing is run again on every test.
 *
 * Each target takes any bytes and must neither crash nor break an
 * invariant; a broken invariant aborts (which both harnesses report). */
#ifndef DENHAM_FUZZ_TARGETS_H
#define DENHAM_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The protocol loop on the bytes as standard input. */
int fuzz_protocol(const uint8_t *data, size_t size);
/* Long protocol sessions across every variant, built from the bytes (two
 * a command: tests/fuzz/session.c). */
int fuzz_session(const uint8_t *data, size_t size);
/* denham serve's HTTP request parser and its checks. */
int fuzz_http(const uint8_t *data, size_t size);
/* Every game's position parser; what parses must write back and parse to
 * the same position and key; what the reference rules also read, they
 * write back as the engine does. */
int fuzz_fen(const uint8_t *data, size_t size);
/* Every game's move parser from its start position: each line is a move;
 * a legal one is made, and its text must parse back to itself. */
int fuzz_moves(const uint8_t *data, size_t size);
/* denham-match's openings file parser: the first byte picks the variant,
 * the rest is the file. */
int fuzz_openings(const uint8_t *data, size_t size);
/* The OTEP loop (denham otep) on the bytes as standard input. */
int fuzz_otep(const uint8_t *data, size_t size);
/* The proof checker (denham solve --check) on the bytes as a proof file. */
int fuzz_proof(const uint8_t *data, size_t size);
/* denham-match's command line: the bytes split at blanks into arguments. */
int fuzz_match_args(const uint8_t *data, size_t size);
/* denham serve's ring of engine lines under pushes, streams and reclaims:
 * no line a stream has not had is dropped, and it stays bounded. */
int fuzz_ring(const uint8_t *data, size_t size);

/* The readers of the runner's files: with the first byte's high bit, the
 * watch page's reader of live files (denham serve --watch: the next byte
 * says where the poller's read is cut in two, the rest is the file; the
 * page's snapshot must be valid JSON); without it, denham-match --merge on
 * games files (the next byte's bits say --partial and --sprt, the rest is
 * split at form feeds into up to three files; a summary exactly when they
 * add up). */
int fuzz_match_files(const uint8_t *data, size_t size);

typedef int (*fuzz_target_fn)(const uint8_t *data, size_t size);

/* Runs a front end's command loop (protocol_run, otep_run...) on the n
 * bytes at input, its output discarded: what every text target does. */
typedef int (*text_loop_fn)(FILE *in, FILE *out);
void fuzz_run_loop(text_loop_fn loop, char *input, size_t n);

typedef struct fuzz_target {
    const char *name; /* also the corpus folder: tests/fuzz/corpus/<name> */
    fuzz_target_fn run;
} fuzz_target_t;

extern const fuzz_target_t fuzz_targets[];
extern const int fuzz_target_count;

#endif
