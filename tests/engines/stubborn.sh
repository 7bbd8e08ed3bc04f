#!/bin/sh
# A hostile engine for the server's tests: it answers isready and echoes
# every other line as "got <line>", but ignores SIGTERM, SIGINT and SIGHUP
# and outlives the end of its input: only a kill ends it.
trap '' TERM INT HUP
echo "id name stubborn"
while read -r line; do
    case "$line" in
        isready) echo "readyok" ;;
        *) echo "got $line" ;;
    esac
done
while :; do sleep 1; done
