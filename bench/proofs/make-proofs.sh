#!/bin/sh
# make-proofs.sh: the proofs of bench/proofs/ (README.md there). From the
# repository's top, with ./denham built:
#   bench/proofs/make-proofs.sh suites      every "result win" line of bench/suites/
#   bench/proofs/make-proofs.sh defence     every losing alternative of brandubh-v2-defence.txt
#                                           not proved yet (NODES: the budget of each, 200M by default)
#   bench/proofs/make-proofs.sh shortest    each suite win at its shortest (and none shorter)
#   bench/proofs/make-proofs.sh first-moves VARIANT NODES   one first move of each symmetry class, both sides
#   bench/proofs/make-proofs.sh start VARIANT SECONDS       the start position, its numbers over time
# Each solve runs on one thread, at nice 10; a proof over 100 kB is kept
# gzip-compressed (check it with `zcat FILE.gz | ./denham solve --check -`).
# Each kind appends one line per position to bench/proofs/<kind>.tsv:
# id, what was asked, the answer, nodes, seconds (wall), seconds (processor),
# the proof's moves and longest line, and the check's verdict.
set -u
cd "$(dirname "$0")/../.." || exit 2
DENHAM=${DENHAM:-./denham}
HASH=${HASH:-1024}
kind=${1:-}

# solve OUT_TSV ID PROOF_PATH ARGS...: solves, writes and checks the proof,
# appends a line to OUT_TSV. (Its variables, which sh shares with the
# callers, all start with s_.)
solve() {
    s_tsv=$1 s_id=$2 s_proof=$3
    shift 3
    mkdir -p "$(dirname "$s_proof")"
    s_start=$(date +%s.%N)
    s_out=$( { /usr/bin/time -f "cpu %U %S" nice -n 10 "$DENHAM" solve "$@" --hash "$HASH" --progress 0 \
        --proof "$s_proof"; } 2>&1)
    s_end=$(date +%s.%N)
    s_words=$(printf '%s\n' "$s_out" | grep -E '^(win for|draw|no win|unknown)' | head -1)
    s_nodes=$(printf '%s\n' "$s_out" | sed -n 's/^nodes \([0-9]*\) .*/\1/p')
    s_cpu=$(printf '%s\n' "$s_out" | sed -n 's/^cpu \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' | awk '{printf "%.1f", $1 + $2}')
    s_summary=$(printf '%s\n' "$s_out" | sed -n 's/^proof [^:]*: \(.*\)$/\1/p')
    s_moves=$(printf '%s\n' "$s_summary" | sed -n 's/^\([0-9]*\) move.*/\1/p')
    s_longest=$(printf '%s\n' "$s_summary" | sed -n 's/.*the longest line \([0-9]*\) pl.*/\1/p')
    s_checked=$(printf '%s\n' "$s_summary" | sed -n 's/.*checked by the reference rules: \(.*\)$/\1/p')
    if [ -f "$s_proof" ] && [ "$(stat -c %s "$s_proof")" -gt 100000 ]; then
        gzip -9f "$s_proof"
        s_proof=$s_proof.gz
    fi
    [ -f "$s_proof" ] || s_proof=-
    printf '%s\t%s\t%s\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\n' "$s_id" "$*" "$s_words" "${s_nodes:-?}" \
        "$(echo "$s_end - $s_start" | bc)" "${s_cpu:-?}" "${s_moves:--}" "${s_longest:--}" "${s_checked:--}" \
        "$s_proof" >> "$s_tsv"
}

case "$kind" in
suites)
    tsv=bench/proofs/suites.tsv
    : > "$tsv"
    for f in brandubh brandubh-v2 bolix; do
        variant=$(sed -n 's/^variant //p' "bench/suites/$f.txt")
        grep "result win" "bench/suites/$f.txt" | while IFS=';' read -r pos rest; do
            id=$(printf '%s' "$rest" | sed 's/.*id //')
            solve "$tsv" "$f/$id" "bench/proofs/suites/$f/$id.txt" --variant "$variant" $pos
        done
    done
    ;;
defence)
    # A move whose proof is already here is skipped (its line kept in the
    # table): delete bench/proofs/defence/ to make them all again.
    tsv=bench/proofs/defence.tsv
    [ -d bench/proofs/defence ] || : > "$tsv"
    file=bench/suites/brandubh-v2-defence.txt
    grep -v '^#' "$file" | grep ';' | while IFS=';' read -r pos rest; do
        id=$(printf '%s' "$rest" | sed 's/.*id //')
        am=$(printf '%s' "$rest" | sed -n 's/.* am \([^;]*\);.*/\1/p')
        bm=$(printf '%s' "$rest" | sed -n 's/.* bm \([^;]*\);.*/\1/p')
        if [ -n "$am" ]; then
            losing=$am
        else # every move but the holder
            all=$(printf 'setoption name UCI_Variant value brandubh-v2\nposition %s\nmoves\nquit\n' "$pos" |
                "$DENHAM" | sed -n 's/^moves //p')
            losing=$(for m in $all; do [ " $bm " = " $m " ] || [ -z "${bm##*$m*}" ] || echo "$m"; done)
        fi
        for m in $losing; do
            [ -f "bench/proofs/defence/$id/$m.txt" ] || [ -f "bench/proofs/defence/$id/$m.txt.gz" ] && continue
            solve "$tsv" "$id/$m" "bench/proofs/defence/$id/$m.txt" --variant brandubh-v2 $pos $m \
                --side defenders --nodes "${NODES:-200000000}"
        done
    done
    ;;
shortest)
    # Each suite win at its shortest: the least K (1, 3, 5...) with a win
    # within K plies, proved, and no win within K - 2, proved.
    tsv=bench/proofs/shortest.tsv
    : > "$tsv"
    for f in brandubh brandubh-v2 bolix; do
        variant=$(sed -n 's/^variant //p' "bench/suites/$f.txt")
        grep "result win" "bench/suites/$f.txt" | while IFS=';' read -r pos rest; do
            id=$(printf '%s' "$rest" | sed 's/.*id //')
            k=1
            while [ $k -le 25 ]; do
                before=$(wc -l < "$tsv")
                solve "$tsv" "$f/$id/win-within-$k" "bench/proofs/shortest/$f/$id-within-$k.txt" --variant "$variant" \
                    $pos --plies $k --nodes "${NODES:-50000000}"
                if tail -1 "$tsv" | cut -f3 | grep -q '^win for'; then
                    [ $k -gt 1 ] && solve "$tsv" "$f/$id/none-within-$((k - 2))" \
                        "bench/proofs/shortest/$f/$id-none-within-$((k - 2)).txt" --variant "$variant" $pos \
                        --plies $((k - 2)) --nodes "${NODES:-50000000}"
                    break
                fi
                rm -f "bench/proofs/shortest/$f/$id-within-$k.txt"
                k=$((k + 2))
            done
        done
    done
    ;;
first-moves)
    # The start is symmetric under the square's eight symmetries, which
    # map the 40 first moves onto five classes; one move of each is solved.
    variant=${2:?variant} nodes=${3:?nodes}
    tsv=bench/proofs/first-moves-$variant.tsv
    : > "$tsv"
    for m in d1c1 d1b1 d2c2 d2b2 d2a2; do
        solve "$tsv" "$variant/$m" "bench/proofs/first-moves/$variant/$m.txt" --variant "$variant" startpos moves $m \
            --nodes "$nodes"
    done
    ;;
start)
    # The start position for both sides, with its numbers every 30 s.
    variant=${2:?variant} seconds=${3:?seconds}
    mkdir -p bench/proofs/start
    log=bench/proofs/start/$variant-curve.log
    {
        echo "# denham solve --variant $variant --seconds $seconds --hash $HASH --progress 30 (one thread, nice 10)"
        echo "# $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
    } > "$log"
    { /usr/bin/time -f "cpu %U %S" nice -n 10 "$DENHAM" solve --variant "$variant" --seconds "$seconds" --hash "$HASH" \
        --progress 30; } >> "$log" 2>&1
    ;;
*)
    echo "usage: $0 suites | defence | shortest | first-moves VARIANT NODES | start VARIANT SECONDS" >&2
    exit 2
    ;;
esac
