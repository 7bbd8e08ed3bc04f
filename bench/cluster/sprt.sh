#!/usr/bin/env bash
# sprt.sh: the SPRT of a match played across a cluster, as fishtest tests a
# patch: the match (its --games the most it may play) is split into N
# shards (shard.sh); batches of BATCH shards are played, on Slurm or over
# ssh with GNU parallel, and after each batch every shard played so far is
# merged (denham-match --merge) and the SPRT's state printed: games, W-D-L,
# Elo, the LLR and its bounds. It stops once the SPRT decides, or when all
# N shards are played.
#
#   sprt.sh slurm N BATCH OUT --sprt E0 E1 ALPHA BETA -- <denham-match arguments>
#   sprt.sh parallel:HOSTFILE N BATCH OUT --sprt E0 E1 ALPHA BETA -- <denham-match arguments>
#
# A shard counts once it has succeeded (OUT/shard-K.txt exists, written
# whole by shard.sh); one that failed or was killed counts for nothing and
# is played again in the next batch (a shard that fails three times stops
# the run). Stopped (Ctrl-C, kill), the run cancels its batch; the same
# command again resumes it from the shards in OUT. The progress lines go to
# OUT/sprt.log too, the last merge to OUT/result.txt; each shard's output
# to OUT/slurm-K.log or OUT/parallel-K.log. Exit status 0 once decided or
# all played, 1 when a shard keeps failing, 2 on bad arguments.
#
# Extra sbatch options go in SBATCH_OPTIONS; DENHAM_MATCH names the runner
# that merges (default: the checkout's).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DENHAM_MATCH="${DENHAM_MATCH:-$here/../../denham-match}"
usage="usage: sprt.sh slurm|parallel:HOSTFILE N BATCH OUT --sprt E0 E1 ALPHA BETA -- ARGS..."
die() {
    echo "sprt.sh: $*" >&2
    exit 2
}
[ $# -ge 9 ] || die "$usage"
where="$1" n="$2" batch="$3" out="$4"
shift 4
[ "$1" = --sprt ] || die "$usage"
sprt=("$2" "$3" "$4" "$5")
shift 5
[ "${1:-}" = -- ] && shift
args=("$@")
[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "N is a number of shards, not $n"
[[ "$batch" =~ ^[1-9][0-9]*$ ]] || die "BATCH is a number of shards, not $batch"
case "$where" in
slurm) command -v sbatch > /dev/null || die "no sbatch here (is this a Slurm login node?)" ;;
parallel:?*)
    hosts="${where#parallel:}"
    [ -r "$hosts" ] || die "cannot read the host file $hosts"
    command -v parallel > /dev/null || die "GNU parallel is missing (apt-get install parallel)"
    ;;
*) die "$usage" ;;
esac
quote() { printf '%q ' "$@"; }

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The run, as resuming must find it: the shards, the SPRT, the match.
run="$(quote "$n" "${sprt[@]}" "${args[@]}")"
if [ -f "$out/sprt.run" ]; then
    [ "$(cat "$out/sprt.run")" = "$run" ] ||
        die "$out holds another run ($(cat "$out/sprt.run")); resume it with its own arguments, or use another OUT"
    resumed=1
else
    compgen -G "$out/shard-*.txt" > /dev/null && die "$out holds shards of another match"
    printf '%s\n' "$run" > "$out/sprt.run"
    resumed=0
fi
say() { printf '%s\n' "$*" | tee -a "$out/sprt.log"; }

# A batch left running by a run that was killed outright is cancelled; its
# shards that finished count, the others are played again.
if [ -f "$out/slurm.job" ] && command -v scancel > /dev/null; then
    old=$(cat "$out/slurm.job")
    if [ -n "$(squeue -h -j "$old" -o %i 2> /dev/null)" ]; then
        say "cancelling job $old, left by the run before"
        scancel "$old"
        while [ -n "$(squeue -h -j "$old" -o %i 2> /dev/null)" ]; do sleep 1; done
    fi
fi
rm -f "$out"/.shard-*.part

job="" ppid=""
stop() {
    trap '' INT TERM
    if [ -n "$job" ]; then
        scancel "$job" 2> /dev/null || true
        while [ -n "$(squeue -h -j "$job" -o %i 2> /dev/null)" ]; do sleep 0.5; done
    fi
    if [ -n "$ppid" ]; then
        # GNU parallel stops its jobs (TERM, then KILL) on a second TERM.
        kill -TERM "$ppid" 2> /dev/null || true
        sleep 0.5
        kill -TERM "$ppid" 2> /dev/null || true
        wait "$ppid" 2> /dev/null || true
    fi
    rm -f "$out"/.shard-*.part
    say "stopped: $(compgen -G "$out/shard-*.txt" | wc -l) of $n shards played; the same command resumes the run"
    exit 130
}
trap stop INT TERM

# One batch: the shards in $1 (comma-separated), to their end, failed or not.
play_slurm() {
    job=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="$1" --cpus-per-task=2 --job-name=denham-sprt \
        --output="$out/slurm-%a.log" \
        --wrap="SHARD=\$SLURM_ARRAY_TASK_ID SHARDS=$n $(quote "$here/shard.sh" match "$out" "${args[@]}")")
    job="${job%%;*}"
    echo "$job" > "$out/slurm.job"
    # squeue lists the array's tasks until the last has ended; an error
    # (the controller busy) is asked again for five minutes, an unknown job
    # is one ended.
    local q errors=0
    while :; do
        if q=$(squeue -h -j "$job" -o %i 2>&1); then
            [ -n "$q" ] || break
            errors=0
        else
            [[ "$q" == *"Invalid job id"* ]] && break
            errors=$((errors + 1))
            if [ "$errors" -ge 300 ]; then
                echo "sprt.sh: squeue has failed for five minutes: $q" >&2
                exit 1
            fi
        fi
        sleep 1
    done
    job=""
}
play_parallel() {
    tr , '\n' <<< "$1" | parallel --sshloginfile "$hosts" \
        "SHARD={} SHARDS=$n $(quote "$here/shard.sh" match "$out" "${args[@]}") > $(printf %q "$out")/parallel-{}.log 2>&1" &
    ppid=$!
    wait "$ppid" || true
    ppid=""
}

# Merges the shards played and prints where the SPRT stands; returns 0
# once it has decided.
merge() {
    local res rc=0
    # 0: decided, 3: not yet; anything else: the shards do not add up.
    res=$("$DENHAM_MATCH" --merge --partial "$out"/shard-*.txt --sprt "${sprt[@]}") || rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
        echo "sprt.sh: the merge failed (exit status $rc)" >&2
        exit 1
    fi
    printf '%s\n' "$res" > "$out/result.txt"
    local played games wdl elo llr
    played=$(compgen -G "$out/shard-*.txt" | wc -l)
    games=$(sed -n 's/^Match .*, \([0-9]*\) games.*$/\1/p' <<< "$res")
    wdl=$(sed -n 's/^W-D-L ([^)]*): \([0-9-]*\),.*/\1/p' <<< "$res")
    elo=$(sed -n 's/^Elo difference: \([^,]*\), 95% interval \(.*\)/\1 \2/p' <<< "$res")
    llr=$(sed -n 's/^SPRT .*: LLR \([^,]*\), bounds \(\[[^]]*\]\), \(.*\)/\1 in \2: \3/p' <<< "$res")
    say "$played of $n shards, $games games, W-D-L $wdl, Elo $elo, LLR $llr"
    [ "$rc" -eq 0 ]
}

note=""
[ "$resumed" = 0 ] || note=", resumed"
say "sprt: $n shards, $batch a batch, SPRT ${sprt[*]}, on $where$note"
declare -A failed=()
b=$(grep -c '^batch ' "$out/sprt.log" || true)
while :; do
    if compgen -G "$out/shard-*.txt" > /dev/null && merge; then
        cat "$out/result.txt"
        exit 0
    fi
    todo=()
    for ((k = 1; k <= n && ${#todo[@]} < batch; k++)); do
        [ -f "$out/shard-$k.txt" ] || todo+=("$k")
    done
    if [ ${#todo[@]} -eq 0 ]; then
        say "all $n shards played: no decision"
        cat "$out/result.txt"
        exit 0
    fi
    list=$(IFS=,; echo "${todo[*]}")
    b=$((b + 1))
    say "batch $b: shards $list"
    if [ "$where" = slurm ]; then play_slurm "$list"; else play_parallel "$list"; fi
    for k in "${todo[@]}"; do
        [ -f "$out/shard-$k.txt" ] && continue
        failed[$k]=$((${failed[$k]:-0} + 1))
        if [ "${failed[$k]}" -ge 3 ]; then
            say "shard $k failed 3 times: stopping (see its log in $out)"
            exit 1
        fi
        say "shard $k failed: played again in the next batch"
    done
done
