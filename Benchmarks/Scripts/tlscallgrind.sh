#!/usr/bin/env bash
# Instructions per TLS round trip (callgrind): a TLS echo server of the
# benchmark (rxuv-tls-echo by default; uv-tls-echo, the C floor on libuv and
# OpenSSL) under valgrind, driven by tlsload's 64-byte ping-pong at 100
# connections. Repeatable on a shared machine, unlike times, so that a change
# to the TLS stream can be compared with the build before it, and with the
# floor, exactly. Needs valgrind and a release build of Benchmarks/
# (swift build -c release --product rxuv-tls-echo; uv-tls-echo; tlsload).
#
#   [TLS_CASE=handshakes|throughput] Benchmarks/Scripts/tlscallgrind.sh [BIN_DIR] [PROGRAM]
#
# BIN_DIR defaults to Benchmarks/.build/release of this checkout, PROGRAM to
# rxuv-tls-echo. The certificates are made for the run
# (scripts/tls-test-certificates.py). The counters are zeroed after the
# handshakes and 6 s of load, then 5 s are measured and divided by the round
# trips tlsload completed in them, and by the messages the server encrypted
# (its SSL_write calls): a round trip carries more than one message when
# the server falls behind, so the figure per message is the steadier one
# from run to run. Prints:
#   "PROGRAM: N instructions per message, R per round trip (W messages, T round trips; M mallocs per message)"
# KEEP_DUMP=FILE keeps the callgrind dump there. TLS_CASE=handshakes counts
# instead a new connection and full handshake at a time, 10 at once (key
# exchange TLS_GROUP, default P-256), per handshake; TLS_CASE=throughput
# counts one connection's echo of tlsload's chunks, per MiB (callgrind
# counts a `rep movsb` copy by the byte, so this figure weighs copies).
# Those two count over 4 s after 3 s of warm-up, the window's edges
# included (a handshake or chunk in flight at either end).
set -euo pipefail
tls_case="${TLS_CASE:-pingpong}"
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
case "$tls_case" in
    pingpong) load_args=(--connections 100 --seconds 5 --warmup 6); settle=6.5 ;;
    handshakes) load_args=(--handshakes --connections 10 --groups "${TLS_GROUP:-P-256}" --seconds 4 --warmup 3); settle=3.3 ;;
    throughput) load_args=(--throughput --connections 1 --seconds 4 --warmup 3); settle=3.3 ;;
    *) echo "tlscallgrind: TLS_CASE is pingpong, handshakes or throughput" >&2; exit 2 ;;
esac
"$bin/tlsload" --port "$port" "${load_args[@]}" --ca "$work/certs/ca.pem" >"$work/load.txt" &
load=$!
sleep "$settle"
callgrind_control -z "$server" >/dev/null 2>&1
wait "$load"
callgrind_control -d "$server" >/dev/null 2>&1
kill -INT "$server"; sleep 1; kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
dump="$(ls -t "$work"/server.out.* | head -1)"
[ -n "${KEEP_DUMP:-}" ] && cp "$dump" "$KEEP_DUMP"
instructions="$(grep -m1 "^summary:\|^totals:" "$dump" | awk '{print $2}')"
case "$tls_case" in
    handshakes)
        handshakes="$(grep -o 'handshakes=[0-9]*' "$work/load.txt" | cut -d= -f2)"
        echo "$program: $(( instructions / handshakes )) instructions per handshake ($handshakes handshakes, ${TLS_GROUP:-P-256})"
        exit 0 ;;
    throughput)
        bytes="$(grep -o 'bytes=[0-9]*' "$work/load.txt" | cut -d= -f2)"
        echo "$program: $(( instructions * 1048576 / bytes )) instructions per MiB echoed ($(( bytes / 1048576 )) MiB)"
        exit 0 ;;
esac
round_trips="$(grep -o 'round_trips=[0-9]*' "$work/load.txt" | cut -d= -f2)"
mallocs="$(python3 "$here/Scripts/callgrind_mallocs.py" "$dump")"
# The calls of SSL_write and SSL_write_ex, from the dump's call records.
messages="$(python3 - "$dump" <<'PY'
import re, sys
names, callee, count = {}, None, 0
for line in open(sys.argv[1], errors="replace"):
    match = re.match(r"^cfn=\((\d+)\)(?: (.*))?$", line)
    if match:
        if match.group(2):
            names[match.group(1)] = match.group(2).strip()
        callee = names.get(match.group(1))
    elif line.startswith("calls=") and callee in ("SSL_write", "SSL_write_ex"):
        count += int(line[6:].split()[0])
print(count)
PY
)"
echo "$program: $(( instructions / messages )) instructions per message, $(( instructions / round_trips )) per round trip ($messages messages, $round_trips round trips; $(python3 -c "print(f'{$mallocs / $messages:.2f}')") mallocs per message)"
