#!/usr/bin/env bash
# parallel.sh: a match (or a datagen run) over ssh hosts with GNU parallel:
# N shards (shard.sh), at most as many at once per host as it has cores
# (parallel's default), then, for a match, the merge (merge.sh).
#
#   parallel.sh match N OUT HOSTFILE [--sprt E0 E1 A B] -- <denham-match arguments>
#   parallel.sh datagen N OUT HOSTFILE -- <denham datagen arguments, without --out>
#
# HOSTFILE: one ssh login per line (parallel's --sshloginfile; ":" is this
# machine). Every host needs the checkout, built, at the same path (or a
# file system they share); the openings files the arguments name
# (file:PATH, book:PATH) are sent to each host (--transferfile; engines'
# cmd= are best given by absolute path too), and each
# shard's file and log come back (--return) to OUT here, so OUT need not be
# shared. Shard K's output: OUT/parallel-K.log.
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
# The openings files the shards read, named by absolute path (a shard runs
# wherever ssh lands) and sent to each host at that path.
send=() given=()
for a in "$@"; do
    case "$a" in
    file:* | book:*)
        f="${a#*:}"
        [ "${f#/}" != "$f" ] || f="$PWD/$f"
        send+=(--transferfile "$f")
        a="${a%%:*}:$f"
        ;;
    esac
    given+=("$a")
done
args=$(printf '%q ' "${given[@]}")
seq 1 "$n" | parallel --sshloginfile "$hosts" --halt now,fail=1 "${send[@]}" \
    --return "$out/shard-{}.txt" --return "$out/parallel-{}.log" \
    "SHARD={} SHARDS=$n $(printf '%q' "$here/shard.sh") $kind $(printf '%q' "$out") $args > $(printf '%q' "$out")/parallel-{}.log 2>&1"
if [ "$kind" = match ]; then
    "$here/merge.sh" "$out" "${sprt[@]}"
fi
