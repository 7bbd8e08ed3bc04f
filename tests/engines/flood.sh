#!/bin/sh
# An engine for the server's tests and benchmark: told `flood` as its
# first line, it writes "info string x" lines as fast as it can, for ever
# (yes(1)); told anything else first, it is Denham (./denham) from that
# line on.
IFS= read -r first || exit 0
if [ "$first" = flood ]; then
    exec yes "info string x"
fi
{ printf '%s\n' "$first"; exec cat; } | exec ./denham
