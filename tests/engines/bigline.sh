#!/bin/sh
# A hostile engine for the server's tests: on isready it writes one line
# of 1 MiB (no line break in it), then readyok.
while read -r line; do
    case "$line" in
        isready) head -c 1048576 /dev/zero | tr '\0' x; echo; echo "readyok" ;;
        quit) exit 0 ;;
    esac
done
