#!/bin/sh
# compare.sh: the speed of this working tree against a git revision, side
# by side (issue 60). Builds both (`make denham`, this machine's release
# build), then runs them by turns, RUNS times each (the order swapped every
# run, so that a change of load hits both alike): `denham bench V` in every
# variant and `denham perft brax 6`. Prints one table of medians: the
# nodes (equal unless the search changed), nodes per second of each, the
# ratio; a family's figure is its variants' nodes over their time.
#
#   bench/speed/compare.sh [REV [RUNS]]      REV default main, RUNS default 5
#
# Needs the cores quiet to mean anything: the load average is printed
# before and after. Builds in build/compare/ (the revision from `git
# archive`, so the working tree is untouched). About 2 minutes of builds
# and 10 s a run.
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

VARIANTS="brax brax-zillions brax-easy brax-hunt brax-3p brax-4p brandubh brandubh-v2 bolix jinxx jinxx-3p jinxx-4p"
RAW=$OUT/raw.txt
: > "$RAW"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# One line per measure: bin run what nodes nps
measure() { # bin run
    for v in $VARIANTS; do
        "$OUT/$1" bench "$v" | awk -v b="$1" -v r="$2" -v v="$v" \
            '/Nodes searched/{n=$NF} /Nodes\/second/{s=$NF} END{print b, r, v, n, s}' >> "$RAW"
    done
    "$OUT/$1" perft brax 6 | awk -v b="$1" -v r="$2" \
        '/^Nodes searched/{n=$NF} /^Nodes\/second/{s=$NF} END{print b, r, "perft-brax-6", n, s}' >> "$RAW"
}

run=1
while [ "$run" -le "$RUNS" ]; do
    if [ $((run % 2)) -eq 1 ]; then measure base "$run"; measure new "$run"; else measure new "$run"; measure base "$run"; fi
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
    add(bin SUBSEP what, $5)
    if (what !~ /^perft/) {
        f = family(what); fam[f] = 1
        fnodes[bin, run, f] += $4; ftime[bin, run, f] += $4 / ($5 > 0 ? $5 : 1)
    }
    if (!(what in seen)) { seen[what] = 1; order[++n_what] = what }
}
END {
    printf "%-14s %10s %10s %12s %12s %7s\n", "bench", "nodes old", "nodes new", "nps old", "nps new", "ratio"
    for (i = 1; i <= n_what; i++) {
        w = order[i]; o = median("base" SUBSEP w); x = median("new" SUBSEP w)
        printf "%-14s %10d %10d %12.0f %12.0f %6.2fx%s\n", w, nodes["base", w], nodes["new", w], o, x, (o > 0 ? x / o : 0),
            nodes["base", w] != nodes["new", w] ? "  (node count changed)" : ""
    }
    print ""
    printf "%-14s %12s %12s %7s\n", "family", "nps old", "nps new", "ratio"
    split("brax brandubh bolix jinxx", fl, " ")
    for (k = 1; k <= 4; k++) {
        f = fl[k]
        for (r = 1; r <= runs; r++) for (b = 0; b < 2; b++) {
            bin = b ? "new" : "base"
            add(bin SUBSEP "family-" f, fnodes[bin, r, f] / ftime[bin, r, f])
        }
        o = median("base" SUBSEP "family-" f); x = median("new" SUBSEP "family-" f)
        printf "%-14s %12.0f %12.0f %6.2fx\n", f, o, x, (o > 0 ? x / o : 0)
    }
}' "$RAW"
