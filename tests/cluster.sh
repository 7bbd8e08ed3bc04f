#!/usr/bin/env bash
# cluster.sh: `make test-cluster`: bench/cluster/ on a real one-node Slurm
# cluster (bench/cluster/one-node.sh: munged, slurmctld and slurmd of its
# own, as root; 16 CPUs said, so that short shards run side by side, and a
# MaxArraySize of 5, so that a job array holds 4 tasks at most) and with GNU
# parallel on this machine (host file ":"), the scripts run as users run
# them, on the real engines:
#   - sprt.sh with the node drained: the progress line says why the batch
#     waits (squeue's reason, sinfo's), and the run goes on once resumed;
#   - sprt.sh with --time 1 and a shard that hangs on its first attempt: it
#     is killed at its time limit, counted as failed with that reason, and
#     played again (in the background while the rest runs: Slurm enforces
#     limits in minutes);
#   - slurm.sh and parallel.sh, a match in 3 shards then the merge: the
#     shards' games are one run's, game for game, and the merge prints
#     what that run printed, forfeits and seats too; a datagen run in 6
#     shards (two arrays, the user's SBATCH_OPTIONS winning): its positions;
#   - sprt.sh on Slurm, depth 4 against depth 1: a shard that fails once is
#     played again, counted once, each attempt's log kept; the run stopped
#     in a batch and resumed goes on to H1, and the shards merged are the
#     one run's games; then sprt.sh with GNU parallel, and a shard whose
#     engine fails its handshake (three times: the run stops, saying why);
#   - a shard file that appears 8 s after its job ended (as on a shared
#     file system): waited for, counted, not played again;
#   - 1,500 shards, 24 a batch: arrays of 4 tasks whose shards are read from
#     a list (shard numbers past the arrays' index bound), decided in one
#     batch.
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
for b in sbatch squeue sinfo scancel scontrol munged slurmctld slurmd parallel; do
    command -v "$b" > /dev/null || fail "$b is missing (make deps installs slurm-wlm, munge and parallel)"
done
[ -x denham ] && [ -x denham-match ] || fail "build ./denham and ./denham-match first (make)"

# A run killed outright left its daemons: stopped by the ids it kept.
[ ! -d "$t/slurm" ] || bench/cluster/one-node.sh stop "$t/slurm"
rm -rf "$t"
mkdir -p "$t"
sprt_pid="" timed_pid="" mover_pid=""
cleanup() {
    for p in $sprt_pid $timed_pid $mover_pid; do
        if kill -TERM "$p" 2> /dev/null; then wait "$p" || true; fi
    done
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

# The games lines of games files (their # lines left out), sorted.
games_of() { grep -hv '^#' "$@" | sort -n; }

# Checks that the shards in $1 are the one run's games and that the merge
# printed what the one run printed.
same_as_one_run() {
    local dir="$1" what="$2"
    [ "$(ls "$dir"/shard-*.txt | wc -l)" -eq 3 ] || fail "$what: not 3 shards in $dir: $(ls -a "$dir")"
    [ "$(games_of "$dir"/shard-*.txt | md5sum)" = "$(games_of "$t/one.txt" | md5sum)" ] ||
        fail "$what: the shards' games differ from one run's"
    [ -s "$dir/result.txt" ] || fail "$what: no merged result in $dir/result.txt"
    grep -qx "Match deep vs shallow, brandubh, 14 games" "$dir/result.txt" || fail "$what: $(cat "$dir/result.txt")"
    local key a b
    for key in "W-D-L (deep): " "Elo difference: " "LOS: " "Pentanomial" "SPRT elo0" "Forfeits by deep: " \
        "Forfeits by shallow: " "Seat p1: " "Seat p2: "; do
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
    local dir="$1" what="$2" n="$3"
    [ "$(ls "$dir"/shard-*.txt | wc -l)" -eq "$n" ] || fail "$what: not $n shards in $dir: $(ls -a "$dir")"
    [ "$(grep -hv '^#' "$dir"/shard-*.txt | sort | md5sum)" = "$(grep -v '^#' "$t/data-one.txt" | sort | md5sum)" ] ||
        fail "$what: the shards' positions differ from one run's"
}

# 0/5 cannot decide in 7 pairs: the one run plays its 14 games, as the shards do.
match=(--variant brandubh --engine name=deep cmd="$root/denham" depth=3 --engine name=shallow cmd="$root/denham"
    depth=2 --games 14)
sprt=(--sprt 0 5 0.05 0.05)
data=(--variant brandubh --games 6 --depth 2 --seed 5)
./denham-match "${match[@]}" "${sprt[@]}" --games-file "$t/one.txt" --quiet > "$t/one.out" || [ $? -eq 3 ] ||
    fail "the one run failed"
./denham datagen "${data[@]}" --out "$t/data-one.txt" 2> /dev/null
[ "$(grep -cv '^#' "$t/data-one.txt")" -gt 0 ] || fail "datagen wrote no position"
# Trivially cheap shards of one pair: depth 2 against a random mover, which
# it beats every game; at 0/400 five pairs won twice accept H1.
cheap=(--variant brandubh --engine name=d2 cmd="$root/denham" depth=2 --engine name=rnd cmd="$root/denham"
    option.Strength=random depth=1)
quick=(--sprt 0 400 0.05 0.05)
echo : > "$t/hosts"

echo "test-cluster: starting a one-node Slurm cluster in $t/slurm"
conf=$(CPUS=16 MAX_ARRAY_SIZE=5 bench/cluster/one-node.sh start "$t/slurm") ||
    fail "the one-node Slurm cluster did not start (see above)"
export "${conf?}"
[ "$SLURM_CONF" = "$t/slurm/slurm.conf" ] || fail "one-node.sh printed '$conf'"
pids=$(cat "$t"/slurm/{munged,slurmctld,slurmd}.pid)
sinfo
host=$(hostname -s)

# A drained node: the batch waits and says why; resumed, the run goes on.
echo "test-cluster: sprt.sh with the node drained"
scontrol update NodeName="$host" State=DRAIN Reason="denham test: drained"
bench/cluster/sprt.sh slurm 10 6 "$t/drained" "${quick[@]}" -- "${cheap[@]}" --games 20 > "$t/drained.out" 2>&1 &
sprt_pid=$!
deadline=$(($(date +%s) + 60))
until grep -q "; node $host drained (denham test: drained)$" "$t/drained.out" 2> /dev/null; do
    kill -0 "$sprt_pid" 2> /dev/null || fail "sprt.sh ended with the node drained: $(cat "$t/drained.out")"
    [ "$(date +%s)" -lt "$deadline" ] || fail "no progress line names the drained node: $(cat "$t/drained.out")"
    sleep 0.2
done
scontrol update NodeName="$host" State=RESUME
rc=0
wait "$sprt_pid" || rc=$?
sprt_pid=""
[ "$rc" -eq 0 ] || fail "sprt.sh after the node was resumed: exit $rc: $(cat "$t/drained.out")"
grep "^batch 1: " "$t/drained.out"
grep -q "^batch 1: 6 pending (ReqNodeNotAvail, UnavailableNodes:$host.*); node $host drained (denham test: drained)$" \
    "$t/drained.out" || fail "the pending line: $(cat "$t/drained.out")"
grep -q "H1 accepted$" "$t/drained.out" || fail "no decision once the node was resumed: $(cat "$t/drained.out")"

# A shard over its time limit: shard 2's first attempt hangs, and Slurm
# kills it at --time 1 (a minute, and up to 30 s more: slurmctld looks at
# limits every 30 s); in the background while the rest is tested.
cat > "$t/hang-match" << EOF
#!/usr/bin/env bash
case " \$* " in
*" --shard 2/6 "*)
    if [ ! -e "$t/hang-once" ]; then
        touch "$t/hang-once"
        exec sleep 600
    fi ;;
esac
exec "$root/denham-match" "\$@"
EOF
chmod +x "$t/hang-match"
echo "test-cluster: sprt.sh with --time 1 and a shard that hangs (in the background)"
DENHAM_MATCH="$t/hang-match" bench/cluster/sprt.sh slurm 6 3 "$t/timed" --time 1 "${quick[@]}" -- "${cheap[@]}" \
    --games 12 > "$t/timed.out" 2>&1 &
timed_pid=$!

# slurm.sh: a match, then a datagen run in two arrays.
echo "test-cluster: slurm.sh match"
sub=$(bench/cluster/slurm.sh match 3 "$t/slurm-match" "${sprt[@]}" -- "${match[@]}")
echo "$sub"
shards=$(sed -n 's/^shards: job \([0-9]*\)$/\1/p' <<< "$sub")
merge=$(sed -n 's/^merge: job \([0-9]*\) .*/\1/p' <<< "$sub")
[ -n "$shards" ] && [ -n "$merge" ] || fail "slurm.sh printed no job ids: $sub"
squeue
wait_job "$merge"
[ -e "$t/slurm-match/slurm-3.log" ] && [ -f "$t/slurm-match/merge.log" ] ||
    fail "slurm.sh match: slurmd wrote no logs: $(ls "$t/slurm-match")"
grep -q "^shard.sh: shard 3 of 3 done" "$t/slurm-match/slurm-3.log" || fail "shard 3's log: $(cat "$t/slurm-match/slurm-3.log")"
same_as_one_run "$t/slurm-match" "slurm.sh match"
cat "$t/slurm-match/result.txt"

echo "test-cluster: slurm.sh datagen, 6 shards in two arrays, one CPU each (SBATCH_OPTIONS)"
sub=$(SBATCH_OPTIONS=--cpus-per-task=1 bench/cluster/slurm.sh datagen 6 "$t/slurm-data" -- "${data[@]}")
echo "$sub"
read -r a1 a2 rest <<< "$(sed -n 's/^shards: job \(.*\)$/\1/p' <<< "$sub")"
[ -n "$a1" ] && [ -n "${a2:-}" ] && [ -z "${rest:-}" ] || fail "slurm.sh: not two arrays for 6 shards at MaxArraySize 5: $sub"
[ "$(scontrol show job "${a1}_1" | grep -o 'NumCPUs=[0-9]*' | head -1)" = NumCPUs=1 ] ||
    fail "SBATCH_OPTIONS=--cpus-per-task=1 did not win: $(scontrol show job "${a1}_1" | grep NumCPUs)"
wait_job "$a1"
wait_job "$a2"
same_data "$t/slurm-data" "slurm.sh datagen" 6

# parallel.sh on this machine.
echo "test-cluster: parallel.sh match"
bench/cluster/parallel.sh match 3 "$t/par-match" "$t/hosts" "${sprt[@]}" -- "${match[@]}" < /dev/null > "$t/par-match.out" ||
    [ $? -eq 3 ] || fail "parallel.sh match: exit $?: $(tail "$t/par-match.out")"
same_as_one_run "$t/par-match" "parallel.sh match"
grep -q "^shard.sh: shard 2 of 3 done" "$t/par-match/parallel-2.log" || fail "parallel.sh: shard 2's log"
echo "test-cluster: parallel.sh datagen"
bench/cluster/parallel.sh datagen 3 "$t/par-data" "$t/hosts" -- "${data[@]}" < /dev/null > /dev/null 2>&1 ||
    fail "parallel.sh datagen failed"
same_data "$t/par-data" "parallel.sh datagen" 3

# sprt.sh on Slurm: depth 4 against depth 1, at most 60 games in 30 shards
# of one pair, two a batch. Shard 5 fails once (the runner plays it, then
# exits 1, as a shard killed at its end); the run is stopped in its second
# batch and resumed.
d41=(--variant brandubh --engine name=d4 cmd="$root/denham" depth=4 --engine name=d1 cmd="$root/denham" depth=1
    --games 60)
s200=(--sprt 0 200 0.05 0.05)
./denham-match "${d41[@]}" --games-file "$t/d41-one.txt" --quiet > /dev/null
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
run=(bench/cluster/sprt.sh slurm 30 2 "$t/sprt" "${s200[@]}" -- "${d41[@]}")
DENHAM_MATCH="$t/flaky-match" "${run[@]}" > "$t/sprt-1.out" 2>&1 &
sprt_pid=$!
deadline=$(($(date +%s) + 120))
until grep -q "^batch 2: shards" "$t/sprt/sprt.log" 2> /dev/null; do
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
[ -z "$(squeue -h -o %i -n denham-sprt -j "$(cat "$t/sprt/slurm.job" | tr ' ' ,)" 2> /dev/null)" ] ||
    fail "sprt.sh stopped and left jobs: $(squeue)"
[ -z "$(compgen -G "$t/sprt/.shard-*")" ] || fail "sprt.sh stopped and left parts of shards: $(ls -a "$t/sprt")"
echo "test-cluster: sprt.sh resumed"
DENHAM_MATCH="$t/flaky-match" "${run[@]}" > "$t/sprt-2.out" 2>&1 || fail "sprt.sh resumed: exit $?: $(cat "$t/sprt-2.out")"
cat "$t/sprt-2.out"
grep -q "^sprt: .*, resumed$" "$t/sprt-2.out" || fail "sprt.sh did not say it resumed"
grep -q "^shard 5 failed (attempt 1: shard.sh: shard 5 of 30 failed: exit status 1 on $host): played again in the next batch$" \
    "$t/sprt-2.out" || fail "sprt.sh did not play the failed shard 5 again, saying why"
[ -f "$t/sprt/shard-5.txt" ] || fail "shard 5 was not played again"
# Each attempt's log kept: the failed one's and the one that succeeded.
grep -q "failed: exit status 1" "$t/sprt/slurm-5.1.log" && grep -q "done" "$t/sprt/slurm-5.2.log" ||
    fail "shard 5's logs: $(ls -l "$t"/sprt/slurm-5.*)"
grep -q "^SPRT elo0 0.0 elo1 200.0 alpha 0.050 beta 0.050: LLR .*, H1 accepted$" "$t/sprt-2.out" ||
    fail "the SPRT did not accept H1"
# Every progress line: shards, games, W-D-L, Elo, LLR and its bounds.
[ "$(grep -Ec '^[0-9]+ of 30 shards, [0-9]+ games, W-D-L [0-9-]+, Elo .*, LLR -?[0-9.]+ in \[-2.944, 2.944\]: ' \
    "$t/sprt/sprt.log")" -ge 3 ] || fail "fewer than 3 progress lines: $(cat "$t/sprt/sprt.log")"
# Counted once: the merge's games are the shards' lines, two a shard, and
# the one run's games of the same indices.
n_shards=$(ls "$t"/sprt/shard-*.txt | wc -l)
games=$(sed -n 's/^Match .*, \([0-9]*\) games.*$/\1/p' "$t/sprt/result.txt")
[ "$games" -eq $((2 * n_shards)) ] && [ "$(games_of "$t"/sprt/shard-*.txt | wc -l)" -eq "$games" ] ||
    fail "the merge holds $games games, the $n_shards shards $(games_of "$t"/sprt/shard-*.txt | wc -l)"
games_of "$t"/sprt/shard-*.txt | cut -f1 > "$t/sprt-indices"
one=$(awk -F'\t' 'NR == FNR { want[$1]; next } $1 in want' "$t/sprt-indices" "$t/d41-one.txt" | sort -n | md5sum)
[ "$(games_of "$t"/sprt/shard-*.txt | md5sum)" = "$one" ] || fail "the shards' games differ from the one run's"

echo "test-cluster: sprt.sh with GNU parallel"
bench/cluster/sprt.sh "parallel:$t/hosts" 30 2 "$t/sprt-par" "${s200[@]}" -- "${d41[@]}" < /dev/null > "$t/sprt-par.out" 2>&1 ||
    fail "sprt.sh with parallel: exit $?: $(cat "$t/sprt-par.out")"
grep -q "H1 accepted$" "$t/sprt-par.out" || fail "sprt.sh with parallel: no decision: $(cat "$t/sprt-par.out")"
grep "shards, " "$t/sprt-par.out"

# A shard whose engine cannot start (a wrapper failing on one node): failed
# three times, the run stops with the runner's own reason (the other three
# pairs cannot decide without it).
cat > "$t/broken-match" << EOF
#!/usr/bin/env bash
case " \$* " in
*" --shard 3/4 "*) exec "$root/denham-match" "\${@/#cmd=*denham/cmd=$t/no-such-engine}" ;;
esac
exec "$root/denham-match" "\$@"
EOF
chmod +x "$t/broken-match"
echo "test-cluster: sprt.sh with GNU parallel, a shard whose engine fails its handshake"
rc=0
DENHAM_MATCH="$t/broken-match" bench/cluster/sprt.sh "parallel:$t/hosts" 4 4 "$t/broken" "${quick[@]}" -- "${cheap[@]}" \
    --games 8 < /dev/null > "$t/broken.out" 2>&1 || rc=$?
cat "$t/broken.out" | grep -v "^[A-Z]" | head -12
[ "$rc" -eq 1 ] || fail "sprt.sh with a broken shard: exit $rc, not 1: $(cat "$t/broken.out")"
grep -q "^shard 3 failed 3 times: stopping: denham-match: stopped: engine 'd2' (cmd=$t/no-such-engine) failed its handshake: it ended before 'ugiok' (exit status 127: command not found)" \
    "$t/broken.out" || fail "the reason it stopped: $(cat "$t/broken.out")"
[ ! -e "$t/broken/shard-3.txt" ] && [ -e "$t/broken/parallel-3.3.log" ] || fail "shard 3's files: $(ls "$t/broken")"

# A shard file that a shared file system shows 8 s after its job ended:
# shard 2's file is written aside by the shard script here, and moved into
# OUT 8 s after it appears there.
cat > "$t/late-shard" << EOF
#!/usr/bin/env bash
if [ "\$SHARD" = 2 ]; then
    mkdir -p "\$2/.late"
    set -- "\$1" "\$2/.late" "\${@:3}"
fi
exec "$root/bench/cluster/shard.sh" "\$@"
EOF
chmod +x "$t/late-shard"
(
    for _ in $(seq 1200); do
        if [ -f "$t/late/.late/shard-2.txt" ]; then
            sleep 8
            mv "$t/late/.late/shard-2.txt" "$t/late/shard-2.txt"
            exit 0
        fi
        sleep 0.1
    done
) &
mover_pid=$!
echo "test-cluster: sprt.sh with a shard file that comes 8 s late"
SHARD_SCRIPT="$t/late-shard" SHARD_FILE_WAIT=60 bench/cluster/sprt.sh slurm 6 6 "$t/late" "${quick[@]}" -- "${cheap[@]}" \
    --games 12 > "$t/late.out" 2>&1 || fail "sprt.sh with a late file: exit $?: $(cat "$t/late.out")"
wait "$mover_pid" || true
mover_pid=""
grep -v "^[A-Z]" "$t/late.out" | head -8
grep -q "^waiting up to 60 s for the files of shards 2 (their logs say no failure)$" "$t/late.out" ||
    fail "sprt.sh did not wait for shard 2's file: $(cat "$t/late.out")"
! grep -q "failed" "$t/late.out" || fail "the late shard counted as failed: $(cat "$t/late.out")"
grep -q "^6 of 6 shards, 12 games, .*: H1 accepted$" "$t/late.out" || fail "the late shard not counted: $(cat "$t/late.out")"

# 1,500 shards, 24 a batch: six arrays of 4 tasks (MaxArraySize 5), each
# task's shard from the batch's list; five pairs decide, so one batch.
echo "test-cluster: sprt.sh with 1,500 shards"
SBATCH_OPTIONS=--cpus-per-task=1 bench/cluster/sprt.sh slurm 1500 24 "$t/many" "${quick[@]}" -- "${cheap[@]}" \
    --games 3000 > "$t/many.out" 2>&1 || fail "sprt.sh with 1,500 shards: exit $?: $(cat "$t/many.out")"
grep -v "^[A-Z]" "$t/many.out" | head -6
[ "$(wc -w < "$t/many/slurm.job")" -eq 6 ] || fail "not six arrays for 24 shards: $(cat "$t/many/slurm.job")"
for j in $(cat "$t/many/slurm.job"); do
    tasks=$(scontrol show job "$j" | grep -c '^JobId=')
    [ "$tasks" -le 4 ] || fail "array $j has $tasks tasks, more than MaxArraySize - 1"
done
[ "$(ls "$t"/many/shard-*.txt | wc -l)" -eq 24 ] && [ -f "$t/many/shard-24.txt" ] ||
    fail "not shards 1-24: $(ls "$t/many" | head -40)"
grep -q "^#shard$(printf '\t')24/1500$" "$t/many/shard-24.txt" || fail "shard 24 played as another shard"
grep -q "^24 of 1500 shards, 48 games, W-D-L 48-0-0, .*: H1 accepted$" "$t/many.out" || fail "$(cat "$t/many.out")"

# The shard over its time limit, killed and played again.
echo "test-cluster: waiting for the run with a shard over its time limit"
rc=0
wait "$timed_pid" || rc=$?
timed_pid=""
grep -v "^[A-Z]" "$t/timed.out" | head -10
[ "$rc" -eq 0 ] || fail "sprt.sh with --time 1: exit $rc: $(cat "$t/timed.out")"
grep -q "^shard 2 failed (attempt 1: killed at its time limit (--time 1)): played again in the next batch$" "$t/timed.out" ||
    fail "the shard over its time limit: $(cat "$t/timed.out")"
grep -q "DUE TO TIME LIMIT" "$t/timed/slurm-2.1.log" || fail "shard 2's first log: $(cat "$t/timed/slurm-2.1.log")"
grep -q ": H1 accepted$" "$t/timed.out" || fail "no decision after the replay: $(cat "$t/timed.out")"

# The daemons stopped by their ids, their files gone, nothing left behind.
children=$(pgrep -P "$(cat "$t/slurm/slurmctld.pid")" || true)
bench/cluster/one-node.sh stop "$t/slurm"
for pid in $pids $children; do
    [ ! -e "/proc/$pid" ] || fail "process $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline")) still runs after the stop"
done
[ ! -e "$t/slurm" ] || fail "one-node.sh stop left $t/slurm"
echo "test-cluster: passed in $(($(date +%s) - started)) s"
