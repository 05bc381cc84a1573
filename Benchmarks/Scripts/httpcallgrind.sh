#!/usr/bin/env bash
# Instructions per HTTP request (callgrind) of RxUVHTTP's server: rxuv-http
# (one loop on the main thread, the routes of the HTTP benchmark) under
# valgrind, driven by wrk. Repeatable on a shared machine, unlike times, so
# that a change to the request path can be compared with the build before
# it exactly. Needs valgrind and wrk (Debian: apt-get install valgrind wrk)
# and a release build of Benchmarks/ (swift build -c release --product rxuv-http).
#
#   Benchmarks/Scripts/httpcallgrind.sh [BIN_DIR] [PATH] [CONNECTIONS] [-- SERVER_ARGS...]
#
# BIN_DIR defaults to Benchmarks/.build/release of this checkout, PATH to
# /plaintext, CONNECTIONS to 100. Counters are zeroed after 1 s of load,
# then 4 s are measured and divided by the requests wrk completed in them.
# Prints: "PATH c=C: N instructions per request (R requests; M mallocs per request)".
# WRK_SCRIPT=FILE drives wrk with that Lua script (wrk -s), for requests
# that change (Benchmarks/Scripts/wrk-paths.lua: a new path every request).
# KEEP_DUMP=FILE keeps the callgrind dump there.
# NGINX=1 counts nginx's instead (Debian's, as one process: master_process
# off), with httpbench.py's configuration, so that the two servers the HTTP
# benchmark compares are counted alike: the same load, the same count (the
# server's user-space instructions; the kernel's are not counted). BIN_DIR
# and SERVER_ARGS are then ignored.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/.build/release}"
path="${2:-/plaintext}"
connections="${3:-100}"
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -n "${NGINX:-}" ]; then
    port="$(python3 - "$here/Scripts" "$work" <<'EOF'
import os, sys
sys.path.insert(0, sys.argv[1])
from httpbench import make_root, nginx_config
from kvbench import free_port
work, port = sys.argv[2], free_port()
config = nginx_config(work, port, make_root(work)).replace("worker_processes 1;", "worker_processes 1;\nmaster_process off;", 1)
with open(os.path.join(work, "nginx.conf"), "w") as file:
    file.write(config)
print(port)
EOF
)"
    valgrind --tool=callgrind --callgrind-out-file="$work/http.out" /usr/sbin/nginx -c "$work/nginx.conf" \
        >/dev/null 2>"$work/log" &
    server=$!
    for _ in $(seq 1 100); do
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
        sleep 0.1
    done
else
    # valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 emits: measure a
    # copy without debug info (symbols stay, for callgrind_annotate).
    cp "$bin/rxuv-http" "$work/rxuv-http"
    strip --strip-debug "$work/rxuv-http"
    valgrind --tool=callgrind --callgrind-out-file="$work/http.out" "$work/rxuv-http" --port 0 "$@" \
        >"$work/port" 2>"$work/log" &
    server=$!
    for _ in $(seq 1 100); do grep -q port "$work/port" && break; sleep 0.1; done
    port="$(awk '/port/ {print $2}' "$work/port")"
fi
script=()
[ -n "${WRK_SCRIPT:-}" ] && script=(-s "$WRK_SCRIPT")
wrk -t1 -c"$connections" -d1 "${script[@]}" "http://127.0.0.1:$port$path" >/dev/null
callgrind_control -z "$server" >/dev/null 2>&1
wrk -t1 -c"$connections" -d4 "${script[@]}" "http://127.0.0.1:$port$path" >"$work/load.txt"
callgrind_control -d "$server" >/dev/null 2>&1
kill "$server"; sleep 1; kill -9 "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
requests="$(awk '/requests in/ {print $1}' "$work/load.txt")"
dump="$(ls -t "$work"/http.out.* | head -1)"
instructions="$(grep -m1 "^summary:\|^totals:" "$dump" | awk '{print $2}')"
mallocs="$(python3 "$here/Scripts/callgrind_mallocs.py" "$dump")"
[ -n "${KEEP_DUMP:-}" ] && cp "$dump" "$KEEP_DUMP"
echo "$path c=$connections: $(( instructions / requests )) instructions per request ($requests requests; $(python3 -c "print(f'{$mallocs / $requests:.2f}')") mallocs per request)"
