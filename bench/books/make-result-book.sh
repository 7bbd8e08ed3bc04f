#!/usr/bin/env bash
# make-result-book.sh: a book balanced by results, for games where a score
# window is not enough. From Brandubh's "balanced" book (within 50
# centipawns at depth 8) the defenders win about 95% of games, so every
# pair of a match is split 1-1 whoever plays better, and no match
# decides. Here each candidate (the quiet positions a few random plies
# from the start, as make-book.sh draws them) is played out by Denham
# against itself at NODES a move (denham-match, fixed nodes: the same
# arguments give the same book), and the book takes every candidate whose
# game the usual loser won or drew, with as many of the others: about
# half the games from it go each way, so that the stronger engine wins
# pairs. Distinct positions, at most COUNT, in the order found.
#
#   make-result-book.sh VARIANT COUNT NODES OUT [PLIES ...]
#
# PLIES: the random plies of the candidates (default 4 6 8 10), one batch
# of CANDIDATES (default 500) each. Two-team games only.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DENHAM="${DENHAM:-$here/denham}"
MATCH="${MATCH:-$here/denham-match}"
variant="${1:?usage: make-result-book.sh VARIANT COUNT NODES OUT [PLIES ...]}"
count="$2" nodes="$3" out="$4"
shift 4
plies=("$@")
[ $# -gt 0 ] || plies=(4 6 8 10)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
candidates="${CANDIDATES:-500}"
# DENHAM is read while this runs for minutes: rebuilding it meanwhile spoils
# the book (point DENHAM at a copy).
for p in "${plies[@]}"; do
    "$DENHAM" datagen --variant "$variant" --games "$candidates" --depth 1 --max-plies 1 \
        --random-plies "$p" --seed "$((p + 100))" --threads 1 --out "$work/cand-$p.txt" 2>/dev/null
done
cat "$work"/cand-*.txt | { grep -v '^#' || true; } | sed 's/ |.*//' | awk '!seen[$0]++' | sed 's/^/fen /' > "$work/fens.txt"
n=$(wc -l < "$work/fens.txt")
[ "$n" -gt 0 ] || { echo "make-result-book.sh: no candidate positions" >&2; exit 1; }
# Each candidate once as a pair (the runner plays whole pairs); at fixed
# nodes on one thread the second game repeats the first, seats swapped.
"$MATCH" --variant "$variant" --engine name=a cmd="$DENHAM" --engine name=b cmd="$DENHAM" --each "nodes=$nodes" \
    --games "$((2 * n))" --openings "file:$work/fens.txt" --games-file "$work/games.txt" --quiet > /dev/null
{
    echo "# $variant: positions a few random plies from the start, balanced by the results of Denham"
    echo "# against itself at $nodes nodes a move (every game the usual loser won or drew, as many others):"
    echo "#   CANDIDATES=$candidates bench/books/make-result-book.sh $variant $count $nodes ${plies[*]}"
    # The first game of each pair: its opening (column 7) and result (5).
    awk -F'\t' -v count="$count" '
        $1 % 2 == 1 { fen[++m] = $7; res[m] = $5; seen[$5]++ }
        END {
            usual = seen["1-0"] >= seen["0-1"] ? "1-0" : "0-1"
            rare = m - seen[usual]
            for (i = 1; i <= m && kept < count; i++) {
                if (res[i] == usual && taken >= rare)
                    continue
                if (res[i] == usual)
                    taken++
                print fen[i]
                kept++
            }
        }' "$work/games.txt"
} > "$out"
echo "$(grep -vc '^#' "$out") positions in $out" >&2
