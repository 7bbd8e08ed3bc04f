#!/bin/sh
# A hostile engine for the server's tests: it says one line, then never
# reads its input again, ignores SIGTERM, SIGINT and SIGHUP, and never
# exits by itself. A command of 200 KB fills its pipe.
trap '' TERM INT HUP
echo "id name deaf"
while :; do sleep 1; done
