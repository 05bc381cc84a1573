#!/usr/bin/env bash
# Instructions per request of kv-server (callgrind) under redis-benchmark
# (-c 50 -d 64): repeatable on a shared machine, so two builds, or kv-server
# and redis-server, can be compared exactly. Needs valgrind, a C compiler
# and redis-benchmark (scripts/setup.sh installs redis-tools).
#
#   Benchmarks/Scripts/kvcallgrind.sh [--redis] [--tls] [BIN_DIR]
#
# BIN_DIR holds a release kv-server (default: this checkout's
# .build/release; `swift build -c release --product kv-server`). --redis
# counts Debian's redis-server instead. Prints, per case, instructions and
# mallocs per request, counted from the first request after a warm-up to the
# last: GET, SET and INCR at -P 16, and GET at -P 1. With --tls, the server
# also serves TLS (certificates made by scripts/tls-test-certificates.py),
# and the cases are a handshake (`-k 0`: a new connection per PING), then
# GET at -P 1 and -P 16 over TLS and over plain TCP.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
server_kind=kv
tls=no
while [ $# -gt 0 ]; do
    case "$1" in
        --redis) server_kind=redis; shift ;;
        --tls) tls=yes; shift ;;
        *) break ;;
    esac
done
bin="${1:-$here/../.build/release}"
work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
instructions() { grep -m1 "^summary:\|^totals:" "$1" | awk '{print $2}'; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port="$(free_port)"
tls_port="$(free_port)"

if [ "$server_kind" = redis ]; then
    argv=(redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --databases 1 --logfile "")
    preload=""
else
    # valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 emits: measure a
    # copy without debug info (symbols stay, for callgrind_annotate).
    cp "$bin/kv-server" "$work/kv-server"
    strip --strip-debug "$work/kv-server"
    argv=("$work/kv-server" --port "$port" --threads 1)
    # kv-server's async main parks the main thread in libdispatch's
    # sigsuspend, whose mask is read-only data; valgrind 3.19 writes into
    # that mask and dies. The preloaded sigsuspend passes it a copy.
    cat >"$work/sigsuspend-copy.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
C
    cc -shared -fPIC -O2 -o "$work/sigsuspend-copy.so" "$work/sigsuspend-copy.c"
    preload="$work/sigsuspend-copy.so"
fi
secure=()
if [ "$tls" = yes ]; then
    python3 "$here/../scripts/tls-test-certificates.py" "$work/tls" >/dev/null
    argv+=(--tls-port "$tls_port" --tls-cert-file "$work/tls/server.pem" --tls-key-file "$work/tls/server.key"
           --tls-auth-clients no)
    secure=(--tls --cacert "$work/tls/ca.pem" --sni localhost)
fi
LD_PRELOAD="$preload" valgrind --tool=callgrind --callgrind-out-file="$work/kv.out" "${argv[@]}" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
alive() {
    if ! kill -0 "$server" 2>/dev/null; then
        echo "kvcallgrind: the server under valgrind stopped; its log:" >&2
        tail -20 "$work/server.log" >&2
        exit 1
    fi
}
alive
# One case: LABEL REQUESTS redis-benchmark arguments. Counters are zeroed
# and dumped through vgdb (callgrind_control cannot find redis-server, which
# renames its process).
measure() {
    local label="$1" requests="$2"
    shift 2
    alive
    vgdb --pid="$server" zero >/dev/null 2>&1
    timeout 600 redis-benchmark -n "$requests" -q "$@" >/dev/null 2>&1 || { alive; echo "kvcallgrind: redis-benchmark failed ($label)" >&2; exit 1; }
    vgdb --pid="$server" dump >/dev/null 2>&1
    sleep 0.5
    local dump
    dump="$(ls -t "$work"/kv.out.* | head -1)"
    local mallocs
    mallocs="$(python3 "$here/Scripts/callgrind_mallocs.py" "$dump")"
    echo "$server_kind $label: $(( $(instructions "$dump") / requests )) instructions per request ($(python3 -c "print(f'{$mallocs / $requests:.2f}')") mallocs)"
    rm -f "$dump"
}
if [ "$tls" = yes ]; then
    redis-benchmark -p "$tls_port" "${secure[@]}" -t ping -c 10 -n 200 -k 0 -q >/dev/null 2>&1
    redis-benchmark -p "$tls_port" "${secure[@]}" -t get -c 50 -n 20000 -q >/dev/null 2>&1
    redis-benchmark -p "$port" -t get -c 50 -n 20000 -q >/dev/null 2>&1
    measure "handshake (-k 0 PING)" 1000 -p "$tls_port" "${secure[@]}" -t ping -c 10 -k 0
    measure "tls get -P 1" 100000 -p "$tls_port" "${secure[@]}" -t get -c 50 -d 64 -r 100000
    measure "tcp get -P 1" 100000 -p "$port" -t get -c 50 -d 64 -r 100000
    measure "tls get -P 16" 300000 -p "$tls_port" "${secure[@]}" -t get -c 50 -d 64 -r 100000 -P 16
    measure "tcp get -P 16" 300000 -p "$port" -t get -c 50 -d 64 -r 100000 -P 16
else
    redis-benchmark -p "$port" -t get,set,incr -P 16 -c 50 -d 64 -n 20000 -q >/dev/null 2>&1
    for test in get set incr; do
        measure "$test -P 16" 200000 -p "$port" -t "$test" -P 16 -c 50 -d 64
    done
    measure "get -P 1" 100000 -p "$port" -t get -c 50 -d 64
fi
