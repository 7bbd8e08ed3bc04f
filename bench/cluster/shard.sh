#!/usr/bin/env bash
# shard.sh: runs one shard of a match or of a datagen run, on whatever
# machine it lands on. Which shard: SLURM_ARRAY_TASK_ID of
# SLURM_ARRAY_TASK_COUNT under a Slurm job array (--array=1-N), else SHARD
# of SHARDS (set by parallel.sh, or by hand). Writes OUT/shard-K.txt:
# denham-match's games file, or datagen's positions.
#
#   shard.sh match OUT <denham-match arguments>
#   shard.sh datagen OUT <denham datagen arguments, without --out>
#
# DENHAM and DENHAM_MATCH name the binaries (default: the checkout's).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DENHAM="${DENHAM:-$here/denham}"
DENHAM_MATCH="${DENHAM_MATCH:-$here/denham-match}"
kind="${1:?usage: shard.sh match|datagen OUT ARGS...}"
out="${2:?usage: shard.sh match|datagen OUT ARGS...}"
shift 2
k="${SLURM_ARRAY_TASK_ID:-${SHARD:?set SHARD (or run under a Slurm job array)}}"
n="${SLURM_ARRAY_TASK_COUNT:-${SHARDS:?set SHARDS (or run under a Slurm job array)}}"
mkdir -p "$out"
case "$kind" in
match) exec "$DENHAM_MATCH" "$@" --shard "$k/$n" --games-file "$out/shard-$k.txt" --quiet ;;
datagen) exec "$DENHAM" datagen "$@" --shard "$k/$n" --out "$out/shard-$k.txt" ;;
*) echo "shard.sh: the kind is match or datagen, not $kind" >&2; exit 2 ;;
esac
