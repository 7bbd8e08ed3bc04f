#!/usr/bin/env bash
# merge.sh: the shards of a match in OUT as one match (denham-match
# --merge), printed and kept in OUT/result.txt.
#
#   merge.sh OUT [--sprt ELO0 ELO1 ALPHA BETA]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DENHAM_MATCH="${DENHAM_MATCH:-$here/denham-match}"
out="${1:?usage: merge.sh OUT [--sprt ELO0 ELO1 ALPHA BETA]}"
shift
"$DENHAM_MATCH" --merge "$out"/shard-*.txt "$@" | tee "$out/result.txt"
