#!/bin/sh
# An engine for the match runner's tests: the first time it starts it
# handshakes and then dies on its first `go` (a crash during a game); every
# later start fails at once (as a binary deleted under a running match, or
# a node that lost its file system, would). ONCE_MARK names the file that
# remembers the first start.
mark=${ONCE_MARK:-build/once.mark}
[ -e "$mark" ] && exit 1
touch "$mark"
while read -r line; do
    case "$line" in
        ugi|uci) echo "id name once"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) exit 3 ;;
        quit) exit 0 ;;
    esac
done
