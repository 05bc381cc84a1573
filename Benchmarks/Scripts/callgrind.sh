#!/usr/bin/env bash
# Instruction counts (callgrind) of the benchmark programs: repeatable on a
# shared machine, unlike times, so a change to a hot path can be compared
# with the build before it exactly. Needs valgrind (Debian: apt-get install
# valgrind) and a release build of Benchmarks/ (swift build -c release).
#
#   Benchmarks/Scripts/callgrind.sh [BIN_DIR]
#
# BIN_DIR defaults to Benchmarks/.build/release of this checkout; pass another
# checkout's to measure the build before a change. Prints:
#   core CASE Ir        RxCoreBenchmarks --quick --case CASE, whole process
#   timers MODE Ir      rxuv-timers --mode MODE, 100,000 timers, whole process,
#                       and the malloc calls of the whole process
#   echo Ir_per_rt      rxuv-echo under netload --connections 10: counters
#                       zeroed after 1 s of load, then 4 s measured, divided
#                       by the round trips of those 4 s; malloc calls likewise
# ECHO_ARGS are passed to rxuv-echo (ECHO_ARGS=--async: the echo in
# async/await; --actor: in an actor on the loop).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/.build/release}"
netload="$here/.build/release/netload"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 emits: measure copies
# without debug info (symbols stay, for callgrind_annotate).
for program in RxCoreBenchmarks rxuv-timers rxuv-echo; do
    cp "$bin/$program" "$work/$program"
    strip --strip-debug "$work/$program"
done

instructions() { grep -m1 "^summary:\|^totals:" "$1" | awk '{print $2}'; }

for case in a b c d; do
    valgrind --tool=callgrind --callgrind-out-file="$work/core.out" \
        "$work/RxCoreBenchmarks" --quick --case "$case" --repetitions 1 >/dev/null 2>&1
    echo "core $case $(instructions "$work/core.out")"
done

for mode in rx scheduler; do
    valgrind --tool=callgrind --callgrind-out-file="$work/timers.out" \
        "$work/rxuv-timers" --mode "$mode" --count 100000 --spread-ms 100 >/dev/null 2>&1
    echo "timers $mode $(instructions "$work/timers.out") ($(python3 "$here/Scripts/callgrind_mallocs.py" "$work/timers.out") mallocs)"
done

# shellcheck disable=SC2086 # ECHO_ARGS are words
valgrind --tool=callgrind --callgrind-out-file="$work/echo.out" "$work/rxuv-echo" --port 0 ${ECHO_ARGS:-} \
    >"$work/echo.port" 2>"$work/echo.log" &
server=$!
for _ in $(seq 1 100); do grep -q port "$work/echo.port" && break; sleep 0.1; done
port="$(awk '/port/ {print $2}' "$work/echo.port")"
"$netload" --port "$port" --connections 10 --seconds 1 --warmup 0 >/dev/null
callgrind_control -z "$server" >/dev/null 2>&1
"$netload" --port "$port" --connections 10 --seconds 4 --warmup 0 >"$work/load.txt"
callgrind_control -d "$server" >/dev/null 2>&1
kill -INT "$server"; sleep 1; kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
round_trips="$(grep -o 'round_trips=[0-9]*' "$work/load.txt" | cut -d= -f2)"
dump="$(ls -t "$work"/echo.out.* | head -1)"
mallocs="$(python3 "$here/Scripts/callgrind_mallocs.py" "$dump")"
echo "echo $(( $(instructions "$dump") / round_trips )) per round trip ($round_trips round trips; $(python3 -c "print(f'{$mallocs / $round_trips:.2f}')") mallocs per round trip)"
