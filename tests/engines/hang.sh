#!/bin/sh
# A misbehaving engine for the match runner's tests: it handshakes
# properly, then on every go: sleep 1000
while read -r line; do
    case "$line" in
        ugi|uci) echo "id name hang"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) sleep 1000 ;;
        quit) exit 0 ;;
    esac
done
