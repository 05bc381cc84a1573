#!/usr/bin/env bash
# Instructions per request of kv-server (callgrind) under redis-benchmark,
# -c 50 -d 64 at -P 16, for GET, SET and INCR: repeatable on a shared
# machine, so two builds can be compared exactly. Needs valgrind and
# redis-benchmark (scripts/setup.sh installs redis-tools).
#
#   Benchmarks/Scripts/kvcallgrind.sh [BIN_DIR]
#
# BIN_DIR holds a release kv-server (default: this checkout's
# .build/release; `swift build -c release --product kv-server`). Prints, per
# test: instructions and mallocs per request, counted from the first request
# after a warm-up to the last.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/../.build/release}"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$bin/kv-server" "$work/kv-server"
strip --strip-debug "$work/kv-server"
instructions() { grep -m1 "^summary:\|^totals:" "$1" | awk '{print $2}'; }
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
valgrind --tool=callgrind --callgrind-out-file="$work/kv.out" "$work/kv-server" --port "$port" >"$work/kv.log" 2>&1 &
server=$!
for _ in $(seq 1 200); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
redis-benchmark -p "$port" -t get,set,incr -P 16 -c 50 -d 64 -n 20000 -q >/dev/null 2>&1
requests=200000
for test in get set incr; do
    callgrind_control -z "$server" >/dev/null 2>&1
    redis-benchmark -p "$port" -t "$test" -P 16 -c 50 -d 64 -n "$requests" -q >/dev/null 2>&1
    callgrind_control -d "$server" >/dev/null 2>&1
    sleep 0.5
    dump="$(ls -t "$work"/kv.out.* | head -1)"
    mallocs="$(python3 "$here/Scripts/callgrind_mallocs.py" "$dump")"
    echo "kv-server $test -P 16: $(( $(instructions "$dump") / requests )) instructions per request ($(python3 -c "print(f'{$mallocs / $requests:.2f}')") mallocs)"
    rm -f "$dump"
done
