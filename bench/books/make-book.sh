#!/usr/bin/env bash
# make-book.sh: a book of openings for denham-match --openings book:FILE.
# Candidates are the quiet positions a few random plies from the start
# (denham datagen, one game per candidate, each a different seed's plies);
# each is searched to DEPTH (denham analyse), and kept when the score for
# the side to move lies in [MIN_CP, MAX_CP] or in [-MAX_CP, -MIN_CP]: a
# small lead for one side (an unbalanced book) or none (MIN_CP 0, a
# balanced one). Distinct positions, at most COUNT, in the order found.
#
#   make-book.sh VARIANT COUNT MIN_CP MAX_CP DEPTH OUT [PLIES ...]
#
# PLIES: the random plies of the candidates (default 6 8 10), one batch of
# candidates each. Deterministic: the same arguments give the same book.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DENHAM="${DENHAM:-$here/denham}"
THREADS="${THREADS:-2}"
variant="${1:?usage: make-book.sh VARIANT COUNT MIN_CP MAX_CP DEPTH OUT [PLIES ...]}"
count="$2" min="$3" max="$4" depth="$5" out="$6"
shift 6
plies=("$@")
[ $# -gt 0 ] || plies=(6 8 10)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
candidates="${CANDIDATES:-$((count * 8))}" # per batch: in Brax about one in twenty is kept
# DENHAM is read while this runs for minutes: rebuilding it meanwhile spoils
# the book (point DENHAM at a copy).
for p in "${plies[@]}"; do
    "$DENHAM" datagen --variant "$variant" --games "$candidates" --depth 1 --max-plies 1 \
        --random-plies "$p" --seed "$p" --threads "$THREADS" --out "$work/cand-$p.txt" 2>/dev/null
done
# One candidate per line, as analyse and the runner read positions.
cat "$work"/cand-*.txt | { grep -v '^#' || true; } | sed 's/ |.*//' | awk '!seen[$0]++' | sed 's/^/fen /' > "$work/fens.txt"
[ -s "$work/fens.txt" ] || { echo "make-book.sh: no candidate positions" >&2; exit 1; }
# THREADS processes, each analysing its part; numbered back into one list.
split -n "l/$THREADS" -d "$work/fens.txt" "$work/part-"
pids=()
for f in "$work"/part-*; do
    "$DENHAM" analyse --variant "$variant" --depth "$depth" "$f" > "$f.scores" &
    pids+=($!)
done
for p in "${pids[@]}"; do
    wait "$p" || { echo "make-book.sh: denham analyse failed" >&2; exit 1; }
done
# Each part numbers its positions from 1: renumber them as in fens.txt.
off=0
for f in "$work"/part-??; do
    awk -v off="$off" '{ $1 += off; print }' "$f.scores"
    off=$((off + $(wc -l < "$f")))
done > "$work/scores.txt"
{
    echo "# $variant: positions a few random plies from the start whose depth-$depth score for the side"
    echo "# to move is within [$min, $max] centipawns either way:"
    echo "#   CANDIDATES=$candidates bench/books/make-book.sh $variant $count $min $max $depth ${plies[*]}"
    awk -v min="$min" -v max="$max" -v count="$count" '
        NR == FNR { fen[FNR] = $0; next }
        $2 == "bestmove" && $4 == "score" && $5 == "cp" {
            s = $6 < 0 ? -$6 : $6
            if (s >= min && s <= max && kept < count) { print fen[$1]; kept++ }
        }' "$work/fens.txt" "$work/scores.txt"
} > "$out"
echo "$(grep -vc '^#' "$out") positions in $out" >&2
