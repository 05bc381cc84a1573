#!/usr/bin/env bash
# Instructions per TLS round trip (callgrind): a TLS echo server of the
# benchmark (rxuv-tls-echo by default; uv-tls-echo, the C floor on libuv and
# OpenSSL) under valgrind, driven by tlsload's 64-byte ping-pong at 100
# connections. Repeatable on a shared machine, unlike times, so that a change
# to the TLS stream can be compared with the build before it, and with the
# floor, exactly. Needs valgrind and a release build of Benchmarks/
# (swift build -c release --product rxuv-tls-echo; uv-tls-echo; tlsload).
#
#   Benchmarks/Scripts/tlscallgrind.sh [BIN_DIR] [PROGRAM]
#
# BIN_DIR defaults to Benchmarks/.build/release of this checkout, PROGRAM to
# rxuv-tls-echo. The certificates are made for the run
# (scripts/tls-test-certificates.py). The counters are zeroed after the
# handshakes and 6 s of load, then 5 s are measured and divided by the round
# trips tlsload completed in them. Prints:
#   "PROGRAM: N instructions per round trip (R round trips; M mallocs per round trip)"
# KEEP_DUMP=FILE keeps the callgrind dump there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/.build/release}"
program="${2:-rxuv-tls-echo}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 "$here/../scripts/tls-test-certificates.py" "$work/certs" >/dev/null
# valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 emits: measure a
# copy without debug info (symbols stay, for callgrind_annotate).
cp "$bin/$program" "$work/server"
strip --strip-debug "$work/server"
valgrind --tool=callgrind --callgrind-out-file="$work/server.out" "$work/server" \
    --cert "$work/certs/server.pem" --key "$work/certs/server.key" --port 0 >"$work/port" 2>"$work/log" &
server=$!
for _ in $(seq 1 100); do grep -q port "$work/port" && break; sleep 0.1; done
port="$(grep -o '[0-9]\+' "$work/port" | tail -1)"
# tlsload's warm-up (the handshakes, then load) is not counted by tlsload;
# the counters are zeroed before its measured seconds start.
"$bin/tlsload" --port "$port" --connections 100 --seconds 5 --warmup 6 --ca "$work/certs/ca.pem" >"$work/load.txt" &
load=$!
sleep 6.5
callgrind_control -z "$server" >/dev/null 2>&1
wait "$load"
callgrind_control -d "$server" >/dev/null 2>&1
kill -INT "$server"; sleep 1; kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
round_trips="$(grep -o 'round_trips=[0-9]*' "$work/load.txt" | cut -d= -f2)"
dump="$(ls -t "$work"/server.out.* | head -1)"
[ -n "${KEEP_DUMP:-}" ] && cp "$dump" "$KEEP_DUMP"
instructions="$(grep -m1 "^summary:\|^totals:" "$dump" | awk '{print $2}')"
mallocs="$(python3 "$here/Scripts/callgrind_mallocs.py" "$dump")"
echo "$program: $(( instructions / round_trips )) instructions per round trip ($round_trips round trips; $(python3 -c "print(f'{$mallocs / $round_trips:.2f}')") mallocs per round trip)"
