#!/bin/sh
# Denham, for the browser tests of a refused move's message: a refusal
# that gives no reason ("info string error: illegal move 'X'") gets one, as
# the engine's own explanations read ("illegal move 'X': <the rule>"); a
# refusal with its own reason passes unchanged. Everything else is Denham's.
./denham "$@" | sed -u "s/^\(info string error: illegal move '[^']*'\)\$/\1: no rule refuses it here but this test's/"
