#!/usr/bin/env bash
# sprt.sh: the SPRT of a match played across a cluster, as fishtest tests a
# patch: the match (its --games the most it may play) is split into N
# shards (shard.sh); batches of BATCH shards are played, on Slurm or over
# ssh with GNU parallel, and after each batch every shard played so far is
# merged (denham-match --merge --partial, which also computes the LLR: this
# script does no statistics) and the SPRT's state printed: games, W-D-L,
# Elo, the LLR and its bounds. It stops once the SPRT decides, or when all
# N shards are played.
#
#   sprt.sh slurm N BATCH OUT [--time T] [--mem M] --sprt E0 E1 ALPHA BETA -- <denham-match arguments>
#   sprt.sh parallel:HOSTFILE N BATCH OUT --sprt E0 E1 ALPHA BETA -- <denham-match arguments>
#
# On Slurm a batch is submitted as job arrays of at most the site's
# MaxArraySize - 1 tasks (scontrol show config), each task's shard read
# from a list (OUT/batch-B.list), so that N may be any number; --time and
# --mem are each shard's (a shard over them is killed: a failure);
# SBATCH_OPTIONS come after the script's own options, and so win. While a
# batch waits, the progress line says why, from squeue's reasons (and the
# nodes drained or down, from sinfo).
#
# A shard counts once it has succeeded (OUT/shard-K.txt exists, written
# whole by shard.sh). One that failed or was killed counts for nothing and
# is played again in the next batch, its reason printed (the time limit,
# memory, the runner's own error line: an engine that failed its
# handshake, ...); a shard that fails three times stops the run with that
# reason. Where a shard's file is missing though its log does not say it
# failed, the script waits for it up to SHARD_FILE_WAIT seconds (default
# 120: a shared file system can show a file on the login node tens of
# seconds after the job ended). Each attempt keeps its own log:
# OUT/slurm-K.A.log (a link into OUT/logs/) or OUT/parallel-K.A.log, A the
# attempt. Stopped (Ctrl-C, kill), the run cancels its batch; the same
# command again resumes it from the shards in OUT (failures counted in
# OUT/failures). The progress lines go to OUT/sprt.log too, the last merge
# to OUT/result.txt.
#
# Exit status: 0 once decided, 3 when all N shards are played without a
# decision, 1 when a shard keeps failing (or the queue or the merge fail),
# 2 on bad arguments, 130 when stopped.
#
# DENHAM_MATCH names the runner that merges (default: the checkout's);
# SHARD_SCRIPT the script each shard runs (default: shard.sh beside this).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/slurm-lib.sh"
DENHAM_MATCH="${DENHAM_MATCH:-$here/../../denham-match}"
usage="usage: sprt.sh slurm|parallel:HOSTFILE N BATCH OUT [--time T] [--mem M] --sprt E0 E1 ALPHA BETA -- ARGS..."
die() {
    echo "sprt.sh: $*" >&2
    exit 2
}
[ $# -ge 9 ] || die "$usage"
where="$1" n="$2" batch="$3" out="$4"
shift 4
sprt=() sbatch_extra=() shard_time="" shard_mem=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in
    --sprt) [ $# -ge 5 ] || die "$usage"; sprt=("$2" "$3" "$4" "$5"); shift 5 ;;
    --time) shard_time="${2:?$usage}"; sbatch_extra+=(--time="$2"); shift 2 ;;
    --mem) shard_mem="${2:?$usage}"; sbatch_extra+=(--mem="$2"); shift 2 ;;
    *) die "unknown option $1 ($usage)" ;;
    esac
done
[ ${#sprt[@]} -eq 4 ] || die "$usage"
[ "${1:-}" = -- ] && shift
args=("$@")
[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "N is a number of shards, not $n"
[[ "$batch" =~ ^[1-9][0-9]*$ ]] || die "BATCH is a number of shards, not $batch"
file_wait="${SHARD_FILE_WAIT:-120}"
[[ "$file_wait" =~ ^[0-9]+$ ]] || die "SHARD_FILE_WAIT is a number of seconds, not $file_wait"
case "$where" in
slurm) command -v sbatch > /dev/null || die "no sbatch here (is this a Slurm login node?)" ;;
parallel:?*)
    hosts="${where#parallel:}"
    [ -r "$hosts" ] || die "cannot read the host file $hosts"
    command -v parallel > /dev/null || die "GNU parallel is missing (apt-get install parallel)"
    [ -z "$shard_time$shard_mem" ] || die "--time and --mem are Slurm's"
    ;;
*) die "$usage" ;;
esac
quote() { printf '%q ' "$@"; }
shard_script="${SHARD_SCRIPT:-$here/shard.sh}"

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
touch "$out/failures"
say() { printf '%s\n' "$*" | tee -a "$out/sprt.log"; }

# A batch left running by a run that was killed outright is cancelled; its
# shards that finished count, the others are played again.
if [ -s "$out/slurm.job" ] && command -v scancel > /dev/null; then
    old=$(cat "$out/slurm.job")
    if [ -n "$(slurm_queue_state "$old")" ]; then
        say "cancelling jobs $old, left by the run before"
        scancel $old
        while [ -n "$(slurm_queue_state "$old")" ]; do sleep 1; done
    fi
fi
rm -f "$out"/.shard-*.part

jobs="" ppid=""
stop() {
    trap '' INT TERM
    if [ -n "$jobs" ]; then
        scancel $jobs 2> /dev/null || true
        while [ -n "$(slurm_queue_state "$jobs" 2> /dev/null)" ]; do sleep 0.5; done
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

failures_of() { awk -F'\t' -v k="$1" '$1 == k' "$out/failures" | wc -l; }
# The attempts so far (their logs: one a try, never overwritten).
attempts_of() { { compgen -G "$(log_of "$1" '*')" || true; } | wc -l; }
log_of() { # shard, attempt
    if [ "$where" = slurm ]; then echo "$out/slurm-$1.$2.log"; else echo "$out/parallel-$1.$2.log"; fi
}

# One batch on Slurm: the shards "K A" given, to their end, failed or not;
# the progress line says why they wait whenever that changes.
play_slurm() {
    local list="$out/batch-$b.list" state last="" errors=0
    for ka in "$@"; do echo "${ka% *} slurm-${ka% *}.${ka#* }.log"; done > "$list"
    jobs=$(slurm_submit "$list" denham-sprt match "${args[@]}" | paste -sd ' ') || {
        echo "sprt.sh: sbatch failed" >&2
        exit 1
    }
    echo "$jobs" > "$out/slurm.job"
    # squeue lists the tasks until the last has ended; an error (the
    # controller busy) is asked again for five minutes.
    while :; do
        if state=$(slurm_queue_state "$jobs"); then
            errors=0
            [ -n "$state" ] || break
            if [ "$state" != "$last" ]; then
                say "batch $b: $state"
                last="$state"
            fi
        else
            errors=$((errors + 1))
            if [ "$errors" -ge 300 ]; then
                echo "sprt.sh: squeue has failed for five minutes: $state" >&2
                exit 1
            fi
        fi
        sleep 1
    done
    jobs=""
}

# The same with GNU parallel: each shard's file and log come back here.
play_parallel() {
    printf '%s\n' "$@" | parallel --colsep ' ' --sshloginfile "$hosts" \
        --return "$out/shard-{1}.txt" --return "$out/parallel-{1}.{2}.log" \
        "SHARD={1} SHARDS=$n $(quote "$shard_script" match "$out" "${args[@]}") > $(printf %q "$out")/parallel-{1}.{2}.log 2>&1" \
        2>> "$out/parallel.err" &
    ppid=$!
    wait "$ppid" || true
    ppid=""
}

# Shards of the batch whose file is missing though their log does not say
# they failed: waited for, up to file_wait seconds.
await_files() {
    local deadline=$(($(date +%s) + file_wait)) said="" waiting ka
    while :; do
        waiting=()
        for ka in "$@"; do
            [ -f "$out/shard-${ka% *}.txt" ] || shard_log_failed "$(log_of "${ka% *}" "${ka#* }")" || waiting+=("${ka% *}")
        done
        [ ${#waiting[@]} -gt 0 ] && [ "$(date +%s)" -lt "$deadline" ] || return 0
        if [ -z "$said" ]; then
            say "waiting up to $file_wait s for the files of shards ${waiting[*]} (their logs say no failure)"
            said=1
        fi
        sleep 1
    done
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
b=$(grep -c '^batch [0-9]*: shards' "$out/sprt.log" || true)
while :; do
    if compgen -G "$out/shard-*.txt" > /dev/null && merge; then
        cat "$out/result.txt"
        exit 0
    fi
    todo=()
    for ((k = 1; k <= n && ${#todo[@]} < batch; k++)); do
        [ -f "$out/shard-$k.txt" ] || todo+=("$k $(($(attempts_of "$k") + 1))")
    done
    if [ ${#todo[@]} -eq 0 ]; then
        say "all $n shards played: no decision"
        cat "$out/result.txt"
        exit 3
    fi
    b=$((b + 1))
    say "batch $b: shards $(printf '%s\n' "${todo[@]}" | cut -d' ' -f1 | paste -sd ,)"
    if [ "$where" = slurm ]; then play_slurm "${todo[@]}"; else play_parallel "${todo[@]}"; fi
    await_files "${todo[@]}"
    for ka in "${todo[@]}"; do
        k="${ka% *}" a="${ka#* }"
        [ -f "$out/shard-$k.txt" ] && continue
        log=$(log_of "$k" "$a")
        if shard_log_failed "$log" || [ ! -e "$log" ]; then
            why=$(shard_failure "$log")
        else
            why="its log says no failure, but $out/shard-$k.txt did not appear within $file_wait s"
        fi
        printf '%s\t%s\n' "$k" "$why" >> "$out/failures"
        if [ "$(failures_of "$k")" -ge 3 ]; then
            say "shard $k failed 3 times: stopping: $why (its logs: $(log_of "$k" '*'))"
            exit 1
        fi
        say "shard $k failed (attempt $a: $why): played again in the next batch"
    done
done
