#!/usr/bin/env bash
# figures.sh: re-measures every figure README.md and PROTOCOL.md give and
# prints the table of README.md's "Figures", headed by the machine it ran
# on (CPU model, cores, memory), the load average before and after, the
# commit and the date. Paste its output there.
#
#   bench/speed/figures.sh          every figure but the long ones (about 5 minutes)
#   bench/speed/figures.sh --long   also Lazy SMP (bench_denham smp, about 8 minutes)
#                                   and make pgo's gain (a PGO build and its benches)
#   bench/speed/figures.sh --rows   the rows without measuring (tests/test_docs.c
#                                   holds README's table to them)
#
# Each row: what is measured, the command that measures it, the figure, the
# target. The measurements run one after another (never two at once: the
# machine may be shared); on a busy machine the times are longer and vary,
# and the header's load average says how busy it was. Needs a built tree
# (make, make build/bench_denham) and Chromium for the board's figures.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode="${1:-}"
out=build/figures
mkdir -p "$out"

# row FIGURE COMMAND TARGET MEASURE: MEASURE (a function) prints the figure;
# with --rows nothing is run.
row() {
    local figure="$1" command="$2" target="$3" measure="$4" value
    if [ "$mode" = --rows ]; then
        value=""
    else
        value="$($measure 2>>"$out/errors.txt" || echo "not measured")"
    fi
    table+="$(printf '| %s | %s | `%s` | %s |' "$figure" "$value" "$command" "$target")"$'\n'
}
table=""
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# The first line of FILE matching PATTERN, or nothing.
line_of() { grep -m1 -E "$2" "$1" || true; }
# The number after TEXT in a line (the first one).
after() { grep -oE "$2 [-0-9.]+" <<<"$1" | head -1 | awk '{ print $NF }'; }
kib_to_mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }
now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# ---- the server (denham serve): one run of `bench_denham web 30 200` ----
web() { [ -s "$out/web.txt" ] || ./build/bench_denham web 30 200 > "$out/web.txt" 2>&1; }
server_round_trip() {
    web
    local l
    l="$(line_of "$out/web.txt" "a command's round trip")"
    echo "$(after "$l" "p50") / $(after "$l" "p99") ms"
}
server_load() {
    web
    local l
    l="$(line_of "$out/web.txt" "^web: load,")"
    echo "$(after "$l" "p50") / $(after "$l" "p99") ms; $(sed -nE 's/.* ([0-9]+) errors;.*/\1/p' <<<"$l") errors"
}
server_memory() {
    web
    local load rest
    load="$(sed -nE 's/.*own memory at most ([0-9]+) KiB.*/\1/p' <<<"$(line_of "$out/web.txt" "^web: load,")")"
    rest="$(sed -nE 's/.*at rest: ([0-9]+) KiB.*/\1/p' <<<"$(line_of "$out/web.txt" "at rest")")"
    echo "$(kib_to_mb "$load") MB / $(kib_to_mb "$rest") MB"
}
row "server: a command's round trip (POST in, the answer out on the event stream), p50 / p99" \
    "./build/bench_denham web 30 200" "p99 < 50 ms" server_round_trip
row "server: 200 clients for 30 s against \`--max-sessions 8\`, \`go depth 2\` round trips p50 / p99; errors" \
    "./build/bench_denham web 30 200" "" server_load
row "server: its own memory under that load / at rest" "./build/bench_denham web 30 200" "< 10 MB" server_memory

# ---- the server against hostile local clients: one run of `bench_denham
# web-hostile` (12 s a pattern, each on a server of its own beside a prompt
# client making a page load and an isready round trip every 20 ms) ----
hostile() { [ -s "$out/hostile.txt" ] || ./build/bench_denham web-hostile > "$out/hostile.txt" 2>&1; }
# hostile_pattern KEY: the row of that pattern, in words.
hostile_pattern() {
    hostile
    awk -F' [|] ' -v key="| $1:" 'index($0, key) == 1 {
        sub(/ [|]$/, "", $9)
        printf "pages %s, commands %s ms; %s MB; %s thread(s); CPU %s; SIGTERM %s ms; engines left %s\n",
            $3, $4, $5, $6, $7, $8, $9 }' "$out/hostile.txt"
}
row "server, hostile clients, nothing hostile: a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 quiet" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern quiet"
row "server, hostile clients, 1000 connections sending nothing, reopened as soon as ended: a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 reconnect" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern reconnect"
row "server, hostile clients, 100 clients reading their answer and never closing: a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 linger" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern linger"
row "server, hostile clients, 63 tabs with their event streams (\`--max-sessions 64\`): a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 streams" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern streams"
row "server, hostile clients, 600 connections each holding 256 KiB of a body, reopened when ended: a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 bodies" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern bodies"
row "server, hostile clients, 2 engines flooding their output, their pages not reading: a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 flood" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern flood"
row "server, hostile clients, 8 tabs analysing (\`go infinite\`) on the machine's cores: a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 search" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern search"
row "server, hostile clients, issue 53's mix: 300 trickling connections, a stopped engine sent 200 KB commands, one asking \`Hash 16384\`: a prompt client's page loads and \`isready\` round trips p50 / p99 (failed); memory at rest / peak / 3 s after; threads; server CPU; SIGTERM to exit; engines left" \
    "./build/bench_denham web-hostile 12 slow" "p99 < 50 ms; < 16 MB, < 8 MB after; 1 s; 0" "hostile_pattern slow"

# ---- the board in headless Chromium ----
first_board() {
    local l
    l="$(./build/bench_denham web 5 20 | grep -m1 "board drawn")"
    echo "$(sed -nE 's/.*median ([0-9.]+) ms.*/\1/p' <<<"$l") ms (best $(after "$l" "drawn") ms)"
}
board() { [ -s "$out/board.txt" ] || ./build/bench_denham web-board 20 > "$out/board.txt" 2>&1; }
# median (best, slowest) of the report line about $1
board_figure() {
    local l
    l="$(line_of "$out/board.txt" "$1")"
    [ -n "$l" ] || { echo "?"; return; }
    echo "$(after "$l" "median") ($(after "$l" "best"), $(after "$l" "slowest"))"
}
board_brax() {
    board
    echo "$(board_figure "Brax, analysis off") / $(board_figure "Brax, analysis on") /" \
        "$(board_figure "Brax, Denham to answer") ms"
}
board_bolix() {
    board
    echo "$(board_figure "Bolix, analysis off") / $(board_figure "Bolix, analysis on") /" \
        "$(board_figure "Bolix, Denham to answer") ms"
}
board_replay() {
    board
    echo "$(board_figure "the plot filling") / $(board_figure "the plot done") ms"
}
row "board: the first board painted after the page begins to load, median (best) of 20 loads of 5 variants" \
    "./build/bench_denham web 5 20" "< 300 ms" first_board
row "board: a person's move in Brax, click to painted frame: analysis off / on (its search stopped first) / Denham to answer, median (best, slowest) of 20" \
    "./build/bench_denham web-board 20" "< 50 ms" board_brax
row "board: a person's move in Bolix: analysis off / on / Denham to answer" "./build/bench_denham web-board 20" \
    "< 50 ms" board_bolix
row "board: a replay step in Brandubh: the plot's work still queued / the plot done" \
    "./build/bench_denham web-board 20" "< 50 ms" board_replay

# ---- the engine ----
stop_all() {
    local l
    l="$(./build/bench_denham stop | grep -m1 "every game")"
    sed -nE 's/.*p99 at most ([0-9.]+) ms \(([^)]*)\), worst ([0-9.]+) ms \(([^)]*)\).*/p99 at most \1 ms (\2), worst \3 ms (\4)/p' <<<"$l"
}
first() { [ -s "$out/first.txt" ] || ./build/bench_denham first-stop 20 > "$out/first.txt" 2>&1; }
first_stop() {
    first
    local a b
    a="$(line_of "$out/first.txt" "no isready")"
    b="$(line_of "$out/first.txt" "after isready")"
    echo "$(after "$a" "p50") / $(after "$a" "max") ms; after isready $(after "$b" "p50") / $(after "$b" "max") ms"
}
endings_built() {
    first
    echo "$(after "$(line_of "$out/first.txt" "isready building")" "mean") ms"
}
endings_solver() {
    local t
    t="$( { TIMEFORMAT=%U; time ./build/bench_denham brax-endings > /dev/null; } 2>&1)"
    echo "$t s of CPU"
}
long_game() {
    local l
    l="$(./build/bench_denham long-game)"
    local mib
    mib="$(sed -nE 's/.*, ([0-9.]+) MiB;.*/\1/p' <<<"$l")"
    echo "$(after "$l" "ply's command") ms a ply instead of $(after "$l" "position command") ms;" \
        "$(awk -v m="$mib" 'BEGIN { printf "%.0f", m * 1048576 / 100000 }') bytes a ply"
}
hash() { [ -s "$out/hash.txt" ] || ./build/bench_denham hash > "$out/hash.txt" 2>&1; }
hash_fill() {
    hash
    local a b c
    a="$(after "$(line_of "$out/hash.txt" "^hash 16 MiB")" "after")"
    b="$(after "$(line_of "$out/hash.txt" "^hash 1024 MiB")" "after")"
    c="$(after "$(line_of "$out/hash.txt" "^hash 4096 MiB: in")" "after")"
    echo "$a ms / $b ms / $c ms"
}
hash_clear() {
    hash
    echo "$(after "$(line_of "$out/hash.txt" "cleared")" "in") ms"
}
datagen_rate() {
    local v t0 n rates=""
    for v in brandubh brax jinxx bolix; do
        t0="$(now)"
        ./denham datagen --variant "$v" --games 40 --nodes 5000 --threads 2 --out "$out/datagen-$v.txt" 2>/dev/null
        n="$(grep -vc '^#' "$out/datagen-$v.txt")"
        rates="$rates${rates:+, }$v $(awk -v n="$n" -v s="$(seconds_since "$t0")" 'BEGIN { printf "%.0f", n / s }')"
    done
    echo "$rates"
}
defence_suite() {
    sed 's/movetime 100/nodes 250000/' bench/suites/brandubh-v2-defence.txt > "$out/defence.txt"
    local l
    l="$(./denham suite "$out/defence.txt" | grep -m1 "^solved")"
    sed -nE 's/solved ([0-9]+) \/ ([0-9]+), ([0-9]+) ms/\1 of \2 solved, \3 ms in all/p' <<<"$l"
}
row "engine: \`stop\` to the search's return, 100 deep searches per game (every variant)" "./build/bench_denham stop" \
    "5 ms" stop_all
row "engine: the first search of a fresh \`./denham\` in a Brax ending, \`stop\` 5 ms after \`go infinite\` to \`bestmove\`, p50 / max of 20 engines (pipes included)" \
    "./build/bench_denham first-stop 20" "5 ms" first_stop
row "engine: \`isready\` building Brax's solved endings (once per process), mean of 20" \
    "./build/bench_denham first-stop 20" "" endings_built
row "engine: Brax's endings solved a second way (\`brax_endings.c\`, the tests' reference)" \
    "./build/bench_denham brax-endings" "" endings_solver
row "engine: a ply of a 100,000-ply game (\`position\` extended by one move) instead of the whole command; the record's memory" \
    "./build/bench_denham long-game" "" long_game
row "engine: a fresh table in memory (the background filler): 16 MiB / 1 GiB / 4 GiB" "./build/bench_denham hash" \
    "" hash_fill
row "engine: \`ucinewgame\` clearing a used 4 GiB table" "./build/bench_denham hash" "" hash_clear
row "engine: \`denham datagen\` positions a second, \`--nodes 5000 --threads 2\`, 40 games" \
    "./denham datagen --variant V --games 40 --nodes 5000 --threads 2 --out F" "" datagen_rate
row "engine: \`brandubh-v2-defence.txt\` at 250,000 nodes a line (\`make test\` runs it so; 100 ms a move in the games)" \
    "./denham suite F (the suite's movetime 100 made nodes 250000)" "" defence_suite

# ---- the long ones ----
smp() {
    # The median speed-up over each family's ten positions, and the stop latency.
    local l
    l="$(./build/bench_denham smp 2)"
    echo "$(sed -nE 's/^smp ([a-z]+) depth ([0-9]+), [0-9]+ positions: median speed-up ([0-9.]+x).*/\1 depth \2 \3/p' <<<"$l" |
        paste -sd, | sed 's/,/, /g');" \
        "stop $(sed -nE 's/.*every game: (.*)/\1/p' <<<"$l")"
}
pgo() {
    # The user time of `denham bench`, best of 5, in four games: the plain
    # build against make pgo's, as a ratio from one run.
    local g plain gain=""
    make -s denham >/dev/null && cp denham "$out/denham-plain"
    make -s pgo >/dev/null 2>&1 && cp denham "$out/denham-pgo"
    cp "$out/denham-plain" denham
    for g in brax brandubh bolix jinxx; do
        best() {
            local b=999 t i
            for i in 1 2 3 4 5; do
                t="$( { TIMEFORMAT=%U; time "$1" bench "$g" > /dev/null; } 2>&1)"
                b="$(awk -v a="$b" -v t="$t" 'BEGIN { print (t < a ? t : a) }')"
            done
            echo "$b"
        }
        plain="$(best "$out/denham-plain")"
        gain="$gain${gain:+, }$g $(awk -v a="$plain" -v b="$(best "$out/denham-pgo")" \
            'BEGIN { printf "%.2f to %.2f s (%+.0f%%)", a, b, (b - a) * 100 / a }')"
    done
    echo "$gain"
}
# Measured with --long only; the rows stand in the table either way.
long_only() { if [ "$mode" = --long ]; then "$@"; else echo "(\`--long\` only)"; fi; }
smp_long() { long_only smp; }
pgo_long() { long_only pgo; }
row "engine: Lazy SMP on 2 threads, time to depth (median over 10 book positions per family) and stop latency (idle cores wanted)" "./build/bench_denham smp 2" "" \
    smp_long
row "engine: \`make pgo\`, the user time of \`denham bench\` (best of 5, each game's own depth), plain build to PGO build" \
    "bench/speed/figures.sh --long" "" pgo_long

if [ "$mode" = --rows ]; then
    printf '%s' "$table"
    exit 0
fi
model="$(sed -nE 's/^model name[[:space:]]*: (.*)/\1/p' /proc/cpuinfo | head -1)"
cores="$(nproc)"
memory="$(awk '/^MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)"
echo "Measured by \`bench/speed/figures.sh${mode:+ $mode}\` on ${model:-an unknown CPU} ($cores cores, $memory GiB), load"
echo "average $load_before before and $(cut -d' ' -f1-3 /proc/loadavg) after, at $(git describe --always --dirty) on $(date -u +%Y-%m-%d)."
echo
echo "| figure | measured | command | target |"
echo "|---|---|---|---|"
printf '%s' "$table"
