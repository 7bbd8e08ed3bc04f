#!/bin/sh
# compare.sh: the speed of this working tree against a git revision, side
# by side (issue 60). Builds both (`make denham`, this machine's release
# build), then runs them by turns, RUNS times each (each measure of one
# build next to the same measure of the other): `denham bench V D` in every
# variant, at the depths below, and `denham perft brax 7` (6 lasts a
# quarter of a second). Prints one table of medians: the nodes (equal
# unless the search changed), nodes per second of each, the ratio (the
# median of the runs' ratios); a family's figure is its variants' nodes
# over their time.
#
#   bench/speed/compare.sh [REV [RUNS]]      REV default main, RUNS default 5
#
# Needs the cores quiet to mean anything: the load average is printed
# before and after. Builds in build/compare/ (the revision from `git
# archive`, so the working tree is untouched). About 2 minutes of builds
# and 40 s a run (both builds).
set -eu
REV=${1:-main}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SHA=$(git rev-parse --verify "$REV^{commit}")
OUT=build/compare
BASE_SRC=$OUT/src-$SHA
mkdir -p "$OUT"
if [ ! -x "$BASE_SRC/denham" ]; then
    rm -rf "$BASE_SRC"
    mkdir -p "$BASE_SRC"
    git archive "$SHA" | tar -x -C "$BASE_SRC"
    echo "compare: building $REV ($SHA) in $BASE_SRC" >&2
    make -s -C "$BASE_SRC" -j2 denham >/dev/null
fi
echo "compare: building the working tree" >&2
make -s -j2 denham >/dev/null
cp "$BASE_SRC/denham" "$OUT/base"
cp denham "$OUT/new"

# Each variant's bench positions at a depth where a run lasts about a second
# here: at the benches' own depths some last 6 ms, and this machine's timing
# noise on runs that short is larger than any change worth measuring.
VARIANTS="brax:11 brax-zillions:10 brax-easy:13 brax-hunt:16 brax-3p:11 brax-4p:14 brandubh:11 brandubh-v2:10 bolix:10 jinxx:7 jinxx-3p:7 jinxx-4p:7"
RAW=$OUT/raw.txt
: > "$RAW"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# One line per measure: bin run what nodes nps
bench_one() { # bin run variant depth
    "$OUT/$1" bench "$3" "$4" | awk -v b="$1" -v r="$2" -v v="$3" \
        '/Nodes searched/{n=$NF} /Nodes\/second/{s=$NF} END{print b, r, v, n, s}' >> "$RAW"
}
perft_one() { # bin run
    "$OUT/$1" perft brax 7 | awk -v b="$1" -v r="$2" \
        '/^Nodes searched/{n=$NF} /^Nodes\/second/{s=$NF} END{print b, r, "perft-brax-7", n, s}' >> "$RAW"
}

# The two builds run each measure back to back, which comes first swapped
# from one measure to the next: this machine's speed drifts by a quarter
# within a minute, so only measures taken close together compare.
run=1
turn=0
while [ "$run" -le "$RUNS" ]; do
    for vd in $VARIANTS perft; do
        turn=$((turn + 1))
        if [ $((turn % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
        for bin in $order; do
            if [ "$vd" = perft ]; then perft_one "$bin" "$run"; else bench_one "$bin" "$run" "${vd%:*}" "${vd#*:}"; fi
        done
    done
    echo "compare: run $run of $RUNS done" >&2
    run=$((run + 1))
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo "# $REV ($SHA) against the working tree ($(git describe --always --dirty)), $RUNS runs each, medians"
echo "# load average before: $load_before; after: $load_after"
awk -v runs="$RUNS" '
function family(v) { sub(/-.*/, "", v); return v }
function median(key,   n, i, j, t, a) {
    n = cnt[key]
    for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function add(key, x) { val[key, ++cnt[key]] = x }
{
    bin = $1; run = $2; what = $3; nodes[bin, what] = $4
    add(bin SUBSEP what, $5); nps[bin, run, what] = $5
    if (what !~ /^perft/) {
        f = family(what)
        fnodes[bin, run, f] += $4; ftime[bin, run, f] += $4 / ($5 > 0 ? $5 : 1)
    }
    if (!(what in seen)) { seen[what] = 1; order[++n_what] = what }
}
# The ratio is the median of each run'"'"'s ratio (the two builds measured
# back to back), not the ratio of the medians.
function ratio(w,   r) {
    for (r = 1; r <= runs; r++)
        if (nps["base", r, w] > 0) add("ratio" SUBSEP w, nps["new", r, w] / nps["base", r, w])
    return median("ratio" SUBSEP w)
}
END {
    printf "%-14s %10s %10s %12s %12s %7s\n", "bench", "nodes old", "nodes new", "nps old", "nps new", "ratio"
    for (i = 1; i <= n_what; i++) {
        w = order[i]
        printf "%-14s %10d %10d %12.0f %12.0f %6.2fx%s\n", w, nodes["base", w], nodes["new", w],
            median("base" SUBSEP w), median("new" SUBSEP w), ratio(w),
            nodes["base", w] != nodes["new", w] ? "  (node count changed)" : ""
    }
    print ""
    printf "%-14s %12s %12s %7s\n", "family", "nps old", "nps new", "ratio"
    split("brax brandubh bolix jinxx", fl, " ")
    for (k = 1; k <= 4; k++) {
        f = fl[k]; w = "family-" f
        for (r = 1; r <= runs; r++) for (b = 0; b < 2; b++) {
            bin = b ? "new" : "base"
            nps[bin, r, w] = fnodes[bin, r, f] / ftime[bin, r, f]
            add(bin SUBSEP w, nps[bin, r, w])
        }
        printf "%-14s %12.0f %12.0f %6.2fx\n", f, median("base" SUBSEP w), median("new" SUBSEP w), ratio(w)
    }
}' "$RAW"
