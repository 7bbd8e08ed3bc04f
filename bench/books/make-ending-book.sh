#!/usr/bin/env bash
# make-ending-book.sh: a Brax book of endings where one side leads by two
# men, taken from played games (denham-match --games-file records): per
# game, the position two plies after the board first holds 6 to 10 men
# with one side two ahead (the recapture, if any, played), when the
# material is still the same then. Distinct positions, in the order found,
# as `fen ...` lines on stdout. Brax (`brax`) games only.
#
#   make-ending-book.sh GAMES_FILE...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DENHAM="${DENHAM:-$here/denham}"
[ $# -gt 0 ] || { echo "usage: make-ending-book.sh GAMES_FILE..." >&2; exit 2; }
for games in "$@"; do
    while IFS=$'\t' read -r _ variant _ _ _ _ _ command; do
        [ "$variant" = brax ] || continue
        start="${command%% moves *}"
        read -r -a moves <<< "${command#* moves }"
        [ "$start" != "$command" ] || moves=()
        # one engine per game: every position of the game, and its FEN
        {
            echo "setoption name UCI_Variant value brax"
            for ((k = 0; k <= ${#moves[@]}; k++)); do
                echo "position $start${k:+ moves ${moves[*]:0:k}}"
                echo d
            done
        } | "$DENHAM" 2>/dev/null | sed -n 's/^Fen: //p' |
            awk '{ b = $1; red = gsub(/r/, "r", b); blue = gsub(/b/, "b", b); lead = red - blue
                   if (lead < 0) lead = -lead
                   m = red "v" blue
                   if (!first && lead == 2 && red + blue >= 6 && red + blue <= 10) { first = m; at = NR }
                   if (at && NR == at + 2 && m == first) print "fen " $0 }'
    done < "$games"
done | awk '!seen[$0]++'
