/*
 * otep.h: the OpenTafl Engine Protocol front end (`denham otep`), so that
 * the OpenTafl GUI can host Denham as its Brandubh engine. Specified in
 * PROTOCOL.md ("OTEP"); it shares the engine core (games, records, search)
 * with the UGI front end and knows games only through game_t.
 */
#ifndef DENHAM_OTEP_H
#define DENHAM_OTEP_H

#include <stdio.h>

/* Runs OTEP on in/out until `goodbye` or end of input; `movetime_ms` is the
 * time per move when OpenTafl gives no clock. Returns the exit status. */
int otep_run(FILE *in, FILE *out, int movetime_ms);

#endif
