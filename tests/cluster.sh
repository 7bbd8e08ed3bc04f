#!/usr/bin/env bash
# cluster.sh: `make test-cluster`: bench/cluster/ on a real one-node Slurm
# cluster (bench/cluster/one-node.sh: munged, slurmctld and slurmd of its
# own, as root) and with GNU parallel on this machine (host file ":"), the
# scripts run as users run them, on the real engines:
#   - slurm.sh and parallel.sh, a match in 3 shards then the merge: the
#     shards' games are one run's, game for game, and the merge prints
#     what that run printed; a datagen run in 3 shards: its positions;
#   - sprt.sh on Slurm, depth 6 against depth 2: a shard that fails once is
#     played again and counted once, the run stopped in a batch and resumed
#     goes on to H1, and the shards merged are the one run's games; then
#     sprt.sh with GNU parallel.
# Where the cluster cannot start (not root, packages missing: make deps)
# the test says so and fails. The daemons it started are stopped by their
# process ids, and their files removed, whatever happens.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
t="$root/build/cluster-test"
started=$(date +%s)
fail() {
    echo "test-cluster: FAILED: $*" >&2
    for f in "$t"/slurm/slurmctld.log "$t"/slurm/slurmd.log; do
        [ -f "$f" ] && { echo "--- $f" >&2; tail -15 "$f" >&2; }
    done
    exit 1
}
[ "$(id -u)" -eq 0 ] ||
    fail "needs root: slurmd runs each job as its user (sudo make test-cluster); nothing was tested"
export PATH="$PATH:/usr/sbin"
for b in sbatch squeue sinfo scancel munged slurmctld slurmd parallel; do
    command -v "$b" > /dev/null || fail "$b is missing (make deps installs slurm-wlm, munge and parallel)"
done
[ -x denham ] && [ -x denham-match ] || fail "build ./denham and ./denham-match first (make)"

# A run killed outright left its daemons: stopped by the ids it kept.
[ ! -d "$t/slurm" ] || bench/cluster/one-node.sh stop "$t/slurm"
rm -rf "$t"
mkdir -p "$t"
sprt_pid=""
cleanup() {
    if [ -n "$sprt_pid" ] && kill -TERM "$sprt_pid" 2> /dev/null; then wait "$sprt_pid" || true; fi
    bench/cluster/one-node.sh stop "$t/slurm" > /dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Waits until Slurm job $1 (all its array tasks) has left the queue.
wait_job() {
    local deadline=$(($(date +%s) + ${2:-180})) q
    while :; do
        q=$(squeue -h -j "$1" -o "%i %T %r" 2>&1) || { [[ "$q" == *"Invalid job id"* ]] && return 0; }
        [ -z "$q" ] && return 0
        [[ "$q" != *DependencyNeverSatisfied* ]] ||
            fail "job $1 waits for shards that failed: $(tail -n 3 "$t"/*/slurm-*.log 2> /dev/null)"
        [ "$(date +%s)" -lt "$deadline" ] || fail "job $1 still queued after ${2:-180} s: $q"
        sleep 0.5
    done
}

# Checks that the shards in $1 are the one run's games and that the merge
# printed what the one run printed.
same_as_one_run() {
    local dir="$1" what="$2"
    [ "$(ls "$dir"/shard-*.txt | wc -l)" -eq 3 ] || fail "$what: not 3 shards in $dir: $(ls -a "$dir")"
    [ "$(cat "$dir"/shard-*.txt | sort -n | md5sum)" = "$(sort -n "$t/one.txt" | md5sum)" ] ||
        fail "$what: the shards' games differ from one run's"
    [ -s "$dir/result.txt" ] || fail "$what: no merged result in $dir/result.txt"
    grep -qx "Match deep vs shallow, brandubh, 14 games" "$dir/result.txt" || fail "$what: $(cat "$dir/result.txt")"
    local key a b
    for key in "W-D-L (deep): " "Elo difference: " "LOS: " "Pentanomial" "SPRT elo0"; do
        a=$(grep -F "$key" "$t/one.out") || fail "$what: no '$key' in the one run: $(cat "$t/one.out")"
        b=$(grep -F "$key" "$dir/result.txt") || fail "$what: no '$key' in the merge: $(cat "$dir/result.txt")"
        [ "$a" = "$b" ] || fail "$what: one run: '$a', merged: '$b'"
    done
    # The endings are counted alike; their order is the order met.
    endings() { sed -n 's/^Endings: //p' "$1" | sed 's/, /\n/g' | sort; }
    [ "$(endings "$t/one.out")" = "$(endings "$dir/result.txt")" ] ||
        fail "$what: other endings than one run's: $(grep Endings "$t/one.out" "$dir/result.txt")"
}

# The same positions as one datagen run.
same_data() {
    local dir="$1" what="$2"
    [ "$(ls "$dir"/shard-*.txt | wc -l)" -eq 3 ] || fail "$what: not 3 shards in $dir: $(ls -a "$dir")"
    [ "$(grep -hv '^#' "$dir"/shard-*.txt | sort | md5sum)" = "$(grep -v '^#' "$t/data-one.txt" | sort | md5sum)" ] ||
        fail "$what: the shards' positions differ from one run's"
}

match=(--variant brandubh --engine name=deep cmd="$root/denham" depth=3 --engine name=shallow cmd="$root/denham"
    depth=2 --games 14)
sprt=(--sprt 0 50 0.05 0.05)
data=(--variant brandubh --games 6 --depth 2 --seed 5)
./denham-match "${match[@]}" "${sprt[@]}" --games-file "$t/one.txt" --quiet > "$t/one.out"
./denham datagen "${data[@]}" --out "$t/data-one.txt" 2> /dev/null
[ "$(grep -cv '^#' "$t/data-one.txt")" -gt 0 ] || fail "datagen wrote no position"

echo "test-cluster: starting a one-node Slurm cluster in $t/slurm"
conf=$(bench/cluster/one-node.sh start "$t/slurm") || fail "the one-node Slurm cluster did not start (see above)"
export "${conf?}"
[ "$SLURM_CONF" = "$t/slurm/slurm.conf" ] || fail "one-node.sh printed '$conf'"
pids=$(cat "$t"/slurm/{munged,slurmctld,slurmd}.pid)
sinfo

# slurm.sh: a match, then a datagen run.
echo "test-cluster: slurm.sh match"
sub=$(bench/cluster/slurm.sh match 3 "$t/slurm-match" "${sprt[@]}" -- "${match[@]}")
echo "$sub"
shards=$(sed -n 's/^shards: job \([0-9]*\)$/\1/p' <<< "$sub")
merge=$(sed -n 's/^merge: job \([0-9]*\) .*/\1/p' <<< "$sub")
[ -n "$shards" ] && [ -n "$merge" ] || fail "slurm.sh printed no job ids: $sub"
squeue
wait_job "$merge"
[ -f "$t/slurm-match/slurm-3.log" ] && [ -f "$t/slurm-match/merge.log" ] ||
    fail "slurm.sh match: slurmd wrote no logs: $(ls "$t/slurm-match")"
same_as_one_run "$t/slurm-match" "slurm.sh match"
cat "$t/slurm-match/result.txt"

echo "test-cluster: slurm.sh datagen"
sub=$(bench/cluster/slurm.sh datagen 3 "$t/slurm-data" -- "${data[@]}")
echo "$sub"
shards=$(sed -n 's/^shards: job \([0-9]*\)$/\1/p' <<< "$sub")
[ -n "$shards" ] || fail "slurm.sh printed no job id: $sub"
wait_job "$shards"
same_data "$t/slurm-data" "slurm.sh datagen"

# parallel.sh on this machine.
echo : > "$t/hosts"
echo "test-cluster: parallel.sh match"
bench/cluster/parallel.sh match 3 "$t/par-match" "$t/hosts" "${sprt[@]}" -- "${match[@]}" < /dev/null > "$t/par-match.out" ||
    fail "parallel.sh match: exit $?: $(tail "$t/par-match.out")"
same_as_one_run "$t/par-match" "parallel.sh match"
echo "test-cluster: parallel.sh datagen"
bench/cluster/parallel.sh datagen 3 "$t/par-data" "$t/hosts" -- "${data[@]}" < /dev/null > /dev/null 2>&1 ||
    fail "parallel.sh datagen failed"
same_data "$t/par-data" "parallel.sh datagen"

# sprt.sh on Slurm: depth 6 against depth 2, at most 60 games in 30 shards
# of one pair, two a batch. Shard 5 fails once (the runner plays it, then
# exits 1, as a shard killed at its end); the run is stopped in its second
# batch and resumed.
d62=(--variant brandubh --engine name=d6 cmd="$root/denham" depth=6 --engine name=d2 cmd="$root/denham" depth=2
    --games 60)
./denham-match "${d62[@]}" --games-file "$t/d62-one.txt" --quiet > /dev/null
cat > "$t/flaky-match" << EOF
#!/usr/bin/env bash
case " \$* " in
*" --shard 5/30 "*)
    if [ ! -e "$t/flaky-failed" ]; then
        touch "$t/flaky-failed"
        "$root/denham-match" "\$@" > /dev/null
        exit 1
    fi ;;
esac
exec "$root/denham-match" "\$@"
EOF
chmod +x "$t/flaky-match"
echo "test-cluster: sprt.sh on Slurm, stopped in its second batch"
run=(bench/cluster/sprt.sh slurm 30 2 "$t/sprt" "${sprt[@]}" -- "${d62[@]}")
DENHAM_MATCH="$t/flaky-match" "${run[@]}" > "$t/sprt-1.out" 2>&1 &
sprt_pid=$!
deadline=$(($(date +%s) + 120))
until grep -q "^batch 2:" "$t/sprt/sprt.log" 2> /dev/null; do
    kill -0 "$sprt_pid" 2> /dev/null || fail "sprt.sh ended before its second batch: $(cat "$t/sprt-1.out")"
    [ "$(date +%s)" -lt "$deadline" ] || fail "sprt.sh: no second batch after 120 s: $(cat "$t/sprt-1.out")"
    sleep 0.2
done
kill -TERM "$sprt_pid"
rc=0
wait "$sprt_pid" || rc=$?
cat "$t/sprt-1.out"
sprt_pid=""
[ "$rc" -eq 130 ] || fail "sprt.sh stopped: exit $rc, not 130"
grep -q "^stopped: " "$t/sprt-1.out" || fail "sprt.sh did not say it stopped"
[ -z "$(squeue -h -o %i)" ] || fail "sprt.sh stopped and left jobs: $(squeue)"
[ -z "$(compgen -G "$t/sprt/.shard-*")" ] || fail "sprt.sh stopped and left parts of shards: $(ls -a "$t/sprt")"
echo "test-cluster: sprt.sh resumed"
DENHAM_MATCH="$t/flaky-match" "${run[@]}" > "$t/sprt-2.out" 2>&1 || fail "sprt.sh resumed: exit $?: $(cat "$t/sprt-2.out")"
cat "$t/sprt-2.out"
grep -q "^sprt: .*, resumed$" "$t/sprt-2.out" || fail "sprt.sh did not say it resumed"
grep -q "^shard 5 failed: played again in the next batch$" "$t/sprt-2.out" ||
    fail "sprt.sh did not play the failed shard 5 again"
[ -f "$t/sprt/shard-5.txt" ] || fail "shard 5 was not played again"
grep -q "^SPRT elo0 0.0 elo1 50.0 alpha 0.050 beta 0.050: LLR .*, H1 accepted$" "$t/sprt-2.out" ||
    fail "the SPRT did not accept H1"
# Every progress line: shards, games, W-D-L, Elo, LLR and its bounds.
[ "$(grep -Ec '^[0-9]+ of 30 shards, [0-9]+ games, W-D-L [0-9-]+, Elo .*, LLR -?[0-9.]+ in \[-2.944, 2.944\]: ' \
    "$t/sprt/sprt.log")" -ge 3 ] || fail "fewer than 3 progress lines: $(cat "$t/sprt/sprt.log")"
# Counted once: the merge's games are the shards' lines, two a shard, and
# the one run's games of the same indices.
n_shards=$(ls "$t"/sprt/shard-*.txt | wc -l)
games=$(sed -n 's/^Match .*, \([0-9]*\) games$/\1/p' "$t/sprt/result.txt")
[ "$games" -eq $((2 * n_shards)) ] && [ "$(cat "$t"/sprt/shard-*.txt | wc -l)" -eq "$games" ] ||
    fail "the merge holds $games games, the $n_shards shards $(cat "$t"/sprt/shard-*.txt | wc -l)"
cut -f1 "$t"/sprt/shard-*.txt | sort -n > "$t/sprt-indices"
one=$(awk -F'\t' 'NR == FNR { want[$1]; next } $1 in want' "$t/sprt-indices" "$t/d62-one.txt" | sort -n | md5sum)
[ "$(cat "$t"/sprt/shard-*.txt | sort -n | md5sum)" = "$one" ] ||
    fail "the shards' games differ from the one run's"

echo "test-cluster: sprt.sh with GNU parallel"
bench/cluster/sprt.sh "parallel:$t/hosts" 30 2 "$t/sprt-par" "${sprt[@]}" -- "${d62[@]}" < /dev/null > "$t/sprt-par.out" 2>&1 ||
    fail "sprt.sh with parallel: exit $?: $(cat "$t/sprt-par.out")"
grep -q "H1 accepted$" "$t/sprt-par.out" || fail "sprt.sh with parallel: no decision: $(cat "$t/sprt-par.out")"
grep "shards, " "$t/sprt-par.out"

# The daemons stopped by their ids, their files gone, nothing left behind.
children=$(pgrep -P "$(cat "$t/slurm/slurmctld.pid")" || true)
bench/cluster/one-node.sh stop "$t/slurm"
for pid in $pids $children; do
    [ ! -e "/proc/$pid" ] || fail "process $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline")) still runs after the stop"
done
[ ! -e "$t/slurm" ] || fail "one-node.sh stop left $t/slurm"
echo "test-cluster: passed in $(($(date +%s) - started)) s"
