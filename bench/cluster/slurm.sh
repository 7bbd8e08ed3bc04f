#!/usr/bin/env bash
# slurm.sh: a match (or a datagen run) on a Slurm cluster: a job array of
# N shards (shard.sh), then, for a match, a job that merges them once all
# succeeded (merge.sh; cancelled if a shard failed). The checkout must be
# on a file system every node sees, built for the nodes (make portable
# where their CPUs differ).
#
#   slurm.sh match N OUT [--sprt E0 E1 A B] -- <denham-match arguments>
#   slurm.sh datagen N OUT -- <denham datagen arguments, without --out>
#
# Extra sbatch options (partition, time, account) go in SBATCH_OPTIONS.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kind="${1:?usage: slurm.sh match|datagen N OUT [--sprt ...] -- ARGS...}"
n="${2:?shards}"
out="${3:?output directory}"
shift 3
sprt=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sprt+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The jobs run the scripts where they lie (--wrap), not a copy in slurmd's
# spool directory, so that they find the checkout's binaries beside them.
quote() { printf '%q ' "$@"; }
# Two cores per shard: a match at a time control uses one core per engine.
job=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="1-$n" --cpus-per-task=2 --job-name="denham-$kind" \
    --output="$out/slurm-%a.log" --wrap="$(quote "$here/shard.sh" "$kind" "$out" "$@")")
echo "shards: job $job"
if [ "$kind" = match ]; then
    merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency="afterok:$job" --kill-on-invalid-dep=yes \
        --job-name=denham-merge --output="$out/merge.log" --wrap="$(quote "$here/merge.sh" "$out" "${sprt[@]}")")
    echo "merge: job $merge (result in $out/result.txt)"
else
    echo "data: $out/shard-*.txt (denham tune reads them all)"
fi
