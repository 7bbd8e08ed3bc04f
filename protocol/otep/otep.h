/*
 * otep.h: the OpenTafl Engine Protocol front end (`denham otep`), so that
 * the OpenTafl GUI can host Denham as its Brandubh engine. Specified in
 * PROTOCOL.md ("OTEP"); it shares the engine core (games, records, search)
 * with the UGI front end and knows games only through game_t.
 */
#ifndef DENHAM_OTEP_H
#define DENHAM_OTEP_H

#include <stdint.h>
#include <stdio.h>

/* Runs OTEP on in/out until `goodbye` or end of input; `movetime_ms` is the
 * time per move when OpenTafl gives no clock. Returns the exit status. */
int otep_run(FILE *in, FILE *out, int movetime_ms);
/* The same with every search capped at cap_ms, whatever the clock or the
 * analysis time (tests and fuzzing). */
int otep_run_capped(FILE *in, FILE *out, int movetime_ms, int64_t cap_ms);

#endif
