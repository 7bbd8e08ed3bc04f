#!/usr/bin/env bash
# slurm.sh: a match (or a datagen run) on a Slurm cluster: job arrays of
# the N shards (shard.sh; as many arrays as the site's MaxArraySize needs),
# then, for a match, a job that merges them once all succeeded (merge.sh;
# cancelled if a shard failed). The checkout must be on a file system every
# node sees, built for the nodes (make portable where their CPUs differ).
#
#   slurm.sh match N OUT [--time T] [--mem M] [--sprt E0 E1 A B] -- <denham-match arguments>
#   slurm.sh datagen N OUT [--time T] [--mem M] -- <denham datagen arguments, without --out>
#
# --time and --mem are each shard's (sbatch's formats: --time=2:00:00,
# --mem=2G); a shard over them is killed, and counts as failed. Extra
# sbatch options (partition, account) go in SBATCH_OPTIONS, which come
# after the script's own and so win (SBATCH_OPTIONS=--cpus-per-task=1).
# Shard K's output: OUT/slurm-K.log (a link into OUT/logs/). SHARD_SCRIPT
# names the script each task runs (default: shard.sh beside this one; a
# site's wrapper that loads modules or copies to scratch may stand in).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/slurm-lib.sh"
usage="usage: slurm.sh match|datagen N OUT [--time T] [--mem M] [--sprt E0 E1 A B] -- ARGS..."
kind="${1:?$usage}"
n="${2:?$usage}"
out="${3:?$usage}"
shift 3
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "slurm.sh: N is a number of shards, not $n" >&2; exit 2; }
sprt=() sbatch_extra=() shard_time="" shard_mem=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in
    --sprt) [ $# -ge 5 ] || { echo "$usage" >&2; exit 2; }; sprt=("$1" "$2" "$3" "$4" "$5"); shift 5 ;;
    --time) shard_time="${2:?$usage}"; sbatch_extra+=(--time="$2"); shift 2 ;;
    --mem) shard_mem="${2:?$usage}"; sbatch_extra+=(--mem="$2"); shift 2 ;;
    *) echo "slurm.sh: unknown option $1 ($usage)" >&2; exit 2 ;;
    esac
done
[ "${1:-}" = -- ] && shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"
shard_script="${SHARD_SCRIPT:-$here/shard.sh}"
list="$out/shards.list"
for ((k = 1; k <= n; k++)); do echo "$k slurm-$k.log"; done > "$list"
# Two cores per shard (one per engine at a time control) unless
# SBATCH_OPTIONS says otherwise.
jobs=$(slurm_submit "$list" "denham-$kind" "$kind" "$@") || { echo "slurm.sh: sbatch failed" >&2; exit 1; }
echo "shards: job $(paste -sd ' ' <<< "$jobs")"
if [ "$kind" = match ]; then
    merge=$(sbatch --parsable --dependency="afterok:$(paste -sd : <<< "$jobs")" --kill-on-invalid-dep=yes \
        --job-name=denham-merge --output="$out/merge.log" \
        --wrap="$(slurm_quote "$here/merge.sh" "$out" "${sprt[@]}")" ${SBATCH_OPTIONS:-})
    echo "merge: job $merge (result in $out/result.txt)"
else
    echo "data: $out/shard-*.txt (denham tune reads them all)"
fi
