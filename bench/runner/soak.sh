#!/bin/sh
# soak.sh: self-play of the sanitizer build (build/denham-san) through
# denham-match in every variant at short clocks. Fails on any crash,
# illegal move, time loss, or sanitizer report in the engines' logs.
#   SOAK_GAMES games per variant (default 100), SOAK_TC the clock
#   (default 1+0.01), SOAK_VARIANTS the variants (default: all),
#   SOAK_CONCURRENCY games at a time (default 2: one core per engine),
#   SOAK_ENGINE the engine (default build/denham-san; build/denham-tsan for
#   ThreadSanitizer), SOAK_OPTIONS engine options (e.g. option.Threads=2).
set -u
games=${SOAK_GAMES:-100}
tc=${SOAK_TC:-1+0.01}
concurrency=${SOAK_CONCURRENCY:-2}
engine=${SOAK_ENGINE:-build/denham-san}
options=${SOAK_OPTIONS:-}
variants=${SOAK_VARIANTS:-"brax brax-zillions brax-easy brax-hunt brax-3p brax-4p brandubh brandubh-v2 bolix jinxx jinxx-3p jinxx-4p"}
mkdir -p build/soak
failed=0
for v in $variants; do
    log=build/soak/$v.log
    out=build/soak/$v.txt
    rm -f "$log"
    # $options is split into words on purpose: one option=value per word.
    # shellcheck disable=SC2086
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 TSAN_OPTIONS=halt_on_error=1 \
        ./denham-match --variant "$v" --engine name=a cmd="$engine" $options --engine name=b cmd="$engine" $options \
        --each "tc=$tc" --games "$games" --concurrency "$concurrency" --time-margin 200 --log "$log" --quiet > "$out" 2>&1
    rc=$?
    played=$(sed -n 's/^Match .*, \([0-9]*\) games$/\1/p' "$out")
    bad=""
    [ $rc -eq 0 ] || bad="runner exit $rc"
    grep -q "Forfeits by a: time 0, illegal move 0, crash 0" "$out" || bad="$bad forfeits by a"
    grep -q "Forfeits by b: time 0, illegal move 0, crash 0" "$out" || bad="$bad forfeits by b"
    if [ -f "$log" ] && grep -qE "AddressSanitizer|LeakSanitizer|ThreadSanitizer|runtime error" "$log"; then
        bad="$bad sanitizer report in $log"
    fi
    if [ -n "$bad" ]; then
        echo "soak $v: FAILED ($bad), $played games; see $out"
        failed=1
    else
        echo "soak $v: $played games, no crash, illegal move, time loss or sanitizer report"
    fi
done
exit $failed
