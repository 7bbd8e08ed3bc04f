#!/usr/bin/env bash
# shard.sh: runs one shard of a match or of a datagen run, on whatever
# machine it lands on. Which shard: SHARD of SHARDS when set (parallel.sh,
# sprt.sh, slurm.sh, or by hand), else SLURM_ARRAY_TASK_ID of
# SLURM_ARRAY_TASK_COUNT under a Slurm job array (--array=1-N). Writes
# OUT/shard-K.txt: denham-match's games file, or datagen's positions; the
# file appears only once the shard has succeeded (it is written under
# another name, then renamed), so that a shard killed or failed half-way
# leaves no part of itself to be merged. Its last line on standard error
# says so: "shard.sh: shard K of N done", or "... failed: <why>" (sprt.sh
# reads it, with the runner's own error line above it).
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
k="${SHARD:-${SLURM_ARRAY_TASK_ID:?set SHARD (or run under a Slurm job array)}}"
n="${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?set SHARDS (or run under a Slurm job array)}}"
mkdir -p "$out"
part="$out/.shard-$k.$(hostname -s).$$.part"
trap 'rm -f "$part"' EXIT
rc=0
case "$kind" in
match) "$DENHAM_MATCH" "$@" --shard "$k/$n" --games-file "$part" --quiet || rc=$? ;;
datagen) "$DENHAM" datagen "$@" --shard "$k/$n" --out "$part" || rc=$? ;;
*) echo "shard.sh: the kind is match or datagen, not $kind" >&2; exit 2 ;;
esac
if [ "$rc" -ne 0 ]; then
    echo "shard.sh: shard $k of $n failed: exit status $rc on $(hostname -s)" >&2
    exit "$rc"
fi
mv "$part" "$out/shard-$k.txt"
echo "shard.sh: shard $k of $n done on $(hostname -s)" >&2
