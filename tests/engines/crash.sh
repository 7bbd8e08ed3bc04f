#!/bin/sh
# A misbehaving engine for the match runner's tests: it handshakes
# properly, then on every go: exit 3
while read -r line; do
    case "$line" in
        ugi|uci) echo "id name crash"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) exit 3 ;;
        quit) exit 0 ;;
    esac
done
