#!/bin/sh
# A hostile engine for the server's tests: it says one line, then closes
# its output and goes on running (reading its input, ignoring SIGTERM):
# neither exited nor killed by a signal of its own, it must be reported as
# what it did.
trap '' TERM INT HUP
echo "id name mute"
exec 1>&-
while read -r line; do :; done
while :; do sleep 1; done
