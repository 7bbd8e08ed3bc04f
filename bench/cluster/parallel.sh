#!/usr/bin/env bash
# parallel.sh: a match (or a datagen run) over ssh hosts with GNU parallel:
# N shards (shard.sh), at most as many at once per host as it has cores
# (parallel's default), then, for a match, the merge (merge.sh). Each host
# needs the checkout at the same path, built; OUT must be a directory they
# all write to (a shared file system), or the shards are copied back with
# parallel's --return.
#
#   parallel.sh match N OUT HOSTFILE [--sprt E0 E1 A B] -- <denham-match arguments>
#   parallel.sh datagen N OUT HOSTFILE -- <denham datagen arguments, without --out>
#
# HOSTFILE: one ssh login per line (parallel's --sshloginfile; ":" is this machine).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kind="${1:?usage: parallel.sh match|datagen N OUT HOSTFILE [--sprt ...] -- ARGS...}"
n="${2:?shards}"
out="$(mkdir -p "$3" && cd "$3" && pwd)"
hosts="${4:?host file}"
shift 4
sprt=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sprt+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
args=$(printf '%q ' "$@")
seq 1 "$n" | parallel --sshloginfile "$hosts" --halt now,fail=1 \
    "SHARD={} SHARDS=$n $(printf '%q' "$here/shard.sh") $kind $(printf '%q' "$out") $args"
if [ "$kind" = match ]; then
    "$here/merge.sh" "$out" "${sprt[@]}"
fi
