#!/bin/sh
# A misbehaving engine for the match runner's tests: it handshakes
# properly, then on every go: echo "bestmove a1a1"
while read -r line; do
    case "$line" in
        ugi|uci) echo "id name illegal"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) echo "bestmove a1a1" ;;
        quit) exit 0 ;;
    esac
done
