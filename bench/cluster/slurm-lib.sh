# shellcheck shell=bash
# slurm-lib.sh: what slurm.sh and sprt.sh share (sourced, not run): shards
# submitted as job arrays no longer than the site allows, each shard's log
# under its own name, the queue's reasons, and why a shard failed.
#
# The caller sets: out (the output directory, absolute), n (the shards in
# all), shard_script (the script each task runs: SHARD_SCRIPT, default
# shard.sh), sbatch_extra (an array: --time and --mem as given), and
# SBATCH_OPTIONS (the user's, passed last so that they win).

# The most tasks one job array may have here: Slurm numbers them 1 to
# MaxArraySize - 1 (scontrol show config; 1001 by default, so 1000).
slurm_array_max() {
    local v
    v=$(scontrol show config 2> /dev/null | sed -n 's/^MaxArraySize *= *\([0-9][0-9]*\).*/\1/p')
    v=${v:-1001}
    if [ "$v" -le 1 ]; then
        echo "the cluster allows no job arrays (MaxArraySize = $v)" >&2
        return 1
    fi
    echo $((v - 1))
}

slurm_quote() { printf '%q ' "$@"; }

# slurm_submit LIST NAME KIND ARGS...: the shards of LIST (a file, one
# "SHARD LOGNAME" a line) as job arrays of at most slurm_array_max tasks,
# task i of an array running line OFFSET+i. Each task's output goes to
# $out/logs/<array job>_<task>.log, linked as $out/LOGNAME. Prints the
# arrays' job ids, one a line.
slurm_submit() {
    local list="$1" name="$2" kind="$3" max total offset len job i line
    shift 3
    max=$(slurm_array_max) || return 1
    total=$(wc -l < "$list")
    mkdir -p "$out/logs"
    for ((offset = 0; offset < total; offset += max)); do
        len=$((total - offset < max ? total - offset : max))
        # The task's shard is its line of the list (the array's index is
        # not the shard: a site's MaxArraySize bounds the index too).
        job=$(sbatch --parsable --array="1-$len" --cpus-per-task=2 --job-name="$name" \
            --output="$out/logs/%A_%a.log" "${sbatch_extra[@]}" \
            --wrap="set -- \$(sed -n \"\$(($offset + SLURM_ARRAY_TASK_ID))p\" $(printf %q "$list")); SHARD=\$1 SHARDS=$n $(slurm_quote "$shard_script" "$kind" "$out" "$@")" \
            ${SBATCH_OPTIONS:-}) || return 1
        job="${job%%;*}"
        i=0
        while read -r line; do
            i=$((i + 1))
            ln -sfn "logs/${job}_$i.log" "$out/${line#* }"
        done < <(sed -n "$((offset + 1)),$((offset + len))p" "$list")
        echo "$job"
    done
}

# The state of the jobs given (ids, space-separated) in one line: "3
# pending (Resources), 1 running", empty once none is queued; the nodes
# down or drained and why, when a task waits for them. Returns 1 when
# squeue cannot be asked.
slurm_queue_state() {
    local ids="$1" q
    q=$(squeue -h -r -u "$(id -un)" -o '%F|%T|%r' 2>&1) || {
        echo "$q"
        return 1
    }
    local state
    state=$(awk -F'|' -v ids=" $ids " 'index(ids, " " $1 " ") {
            n[$2]++; if ($2 == "PENDING" && $3 != "None") r[$3]++
        } END {
            s = ""
            for (k in n) {
                t = n[k] " " tolower(k)
                if (k == "PENDING") { w = ""; for (x in r) w = w (w ? "; " : "") x; if (w) t = t " (" w ")" }
                s = s (s ? ", " : "") t
            }
            print s
        }' <<< "$q")
    if [ -n "$state" ] && [[ "$state" == *pending* ]]; then
        local nodes
        nodes=$(sinfo -h -t drain,drained,draining,down,fail,no_respond -o '%n %T (%E)' 2> /dev/null | sort -u |
            paste -sd ';' -)
        [ -z "$nodes" ] || state="$state; node $nodes"
    fi
    echo "$state"
}

# Why a shard failed, from its log: Slurm's own word (time limit, memory,
# cancelled), else the runner's or shard.sh's last error line.
shard_failure() {
    local log="$1" line
    if [ ! -e "$log" ]; then
        echo "no shard file and no log (the job never ran, or its log is not visible here)"
    elif grep -q 'DUE TO TIME LIMIT' "$log"; then
        echo "killed at its time limit (--time ${shard_time:-of the partition})"
    elif grep -qiE 'oom[-_ ]kill|exceeded (job )?memory limit|out of memory' "$log"; then
        echo "killed out of memory (--mem ${shard_mem:-of the partition})"
    elif line=$(grep -E 'CANCELLED|slurmstepd: error' "$log" | tail -1) && [ -n "$line" ]; then
        echo "$line"
    elif line=$(grep -E '^denham(-match)?: ' "$log" | tail -1) && [ -n "$line" ]; then
        echo "$line"
    elif line=$(grep -E '^shard.sh: ' "$log" | tail -1) && [ -n "$line" ]; then
        echo "$line"
    else
        echo "no shard file (see $log)"
    fi
}

# Has the shard's log said it failed (so that its file will not come)?
shard_log_failed() {
    [ -e "$1" ] && grep -qE 'shard.sh: .* failed|CANCELLED|slurmstepd: error|oom[-_ ]kill' "$1"
}
