#!/bin/sh
# Denham with a record of what it is sent: every command goes to
# $SEAT_LOG_DIR/<pid>.log, so a test can count the processes a runner
# started and read what each was asked.
dir=${SEAT_LOG_DIR:-build/seat_logs}
mkdir -p "$dir"
tee "$dir/$$.log" | ./denham
