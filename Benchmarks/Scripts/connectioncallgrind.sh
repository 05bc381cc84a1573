#!/usr/bin/env bash
# Instructions per served connection (callgrind): rxuv-echo (by default as a
# one-loop `Server`, `--server off`) under valgrind, and a client that opens
# a connection, echoes 64 bytes and closes it, one connection at a time.
# Repeatable on a shared machine, unlike times, so that a change to what a
# connection costs to take, serve and close can be compared with the build
# before it exactly. Needs valgrind and a release build of Benchmarks/
# (swift build -c release --product rxuv-echo; uv-echo for the C floor).
#
#   Benchmarks/Scripts/connectioncallgrind.sh [BIN_DIR] [PROGRAM] [-- SERVER_ARGS...]
#
# BIN_DIR defaults to Benchmarks/.build/release of this checkout, PROGRAM to
# rxuv-echo (uv-echo: the C floor; SERVER_ARGS then default to none). After
# 300 connections of warm-up the counters are zeroed, then 2,000 connections
# are measured. Prints: "PROGRAM: N instructions per connection (M mallocs)";
# KEEP_DUMP=FILE keeps the callgrind dump there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/.build/release}"
program="${2:-rxuv-echo}"
shift $(( $# < 2 ? $# : 2 ))
[ "${1:-}" = "--" ] && shift
if [ $# -eq 0 ] && [ "$program" = "rxuv-echo" ]; then set -- --server off; fi
connections=2000
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 emits: measure a
# copy without debug info (symbols stay, for callgrind_annotate).
cp "$bin/$program" "$work/server"
strip --strip-debug "$work/server"
valgrind --tool=callgrind --callgrind-out-file="$work/server.out" "$work/server" --port 0 "$@" >"$work/port" 2>"$work/log" &
server=$!
for _ in $(seq 1 100); do grep -q port "$work/port" && break; sleep 0.1; done
port="$(awk '/port/ {print $2}' "$work/port")"
churn() {
    python3 - "$port" "$1" <<'PY'
import socket, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
for _ in range(count):
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(b"x" * 64)
        received = 0
        while received < 64:
            chunk = client.recv(64 - received)
            if not chunk:
                raise SystemExit("the server closed before echoing")
            received += len(chunk)
PY
}
churn 300
sleep 0.5
callgrind_control -z "$server" >/dev/null 2>&1
churn "$connections"
sleep 0.5
callgrind_control -d "$server" >/dev/null 2>&1
kill -INT "$server"; sleep 1; kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
dump="$(ls -t "$work"/server.out.* | head -1)"
[ -n "${KEEP_DUMP:-}" ] && cp "$dump" "$KEEP_DUMP"
instructions="$(grep -m1 "^summary:\|^totals:" "$dump" | awk '{print $2}')"
mallocs="$(python3 "$here/Scripts/callgrind_mallocs.py" "$dump")"
echo "$program: $(( instructions / connections )) instructions per connection ($(python3 -c "print(f'{$mallocs / $connections:.1f}')") mallocs)"
