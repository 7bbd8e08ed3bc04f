#!/bin/sh
# An engine for the match runner's tests of options: it plays Brax only
# (its UCI_Variant offers no other), declares an option of its own (a
# string) and refuses some values of it with its own message
# (as an engine checks what a type cannot say), and plays no game (the
# tests stop at its handshake).
exec 3>&1
while read -r line; do
    case "$line" in
        ugi|uci)
            echo "id name picky"
            echo "option name Book File type string default <empty>"
            echo "option name UCI_Variant type combo default brax var brax"
            echo "ugiok" ;;
        "setoption name Book File value "*)
            file=${line#setoption name Book File value }
            [ -r "$file" ] || echo "info string error: cannot read the book '$file'" ;;
        isready) echo "readyok" ;;
        quit) exit 0 ;;
    esac
done
