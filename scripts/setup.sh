#!/usr/bin/env bash
# Installs what RxUV needs to build and test on Debian or Ubuntu: libuv1-dev,
# libssl-dev and the openssl command line (RxUVTLS and its tests), zlib1g-dev
# (RxUVHTTPClient's gzip and deflate bodies), libnghttp2-dev (RxUVHTTP2) with
# nghttp2-client (h2load and nghttp, its peers) and Python's h2, pkg-config, python3 (the example tests' clients), the real Redis pieces
# kv-server is tested against (Debian's redis-server and redis-tools, the
# Python redis client from PyPI) and the Python statsd client statsd-agg is
# tested with, curl (RxUVHTTP's tests and the http-server example's), and wrk
# and Debian's nginx (nginx-light), the load generator and the reference
# server of the HTTP benchmarks (Benchmarks/Scripts/httpbench.py).
# Does nothing for what is already there.
set -euo pipefail

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

packages=()
pkg-config --exists libuv 2>/dev/null || packages+=(libuv1-dev pkg-config)
# RxUVTLS links the system's OpenSSL 3; its tests drive the openssl command line.
pkg-config --exists openssl 2>/dev/null || packages+=(libssl-dev pkg-config)
command -v openssl >/dev/null 2>&1 || packages+=(openssl)
# RxUVHTTPClient inflates gzip and deflate response bodies with the system's zlib.
pkg-config --exists zlib 2>/dev/null || packages+=(zlib1g-dev pkg-config)
# RxUVHTTP2 links the system's nghttp2; h2load and nghttp are its tests' peers.
pkg-config --exists libnghttp2 2>/dev/null || packages+=(libnghttp2-dev pkg-config)
command -v h2load >/dev/null 2>&1 || packages+=(nghttp2-client)
command -v python3 >/dev/null 2>&1 || packages+=(python3 python3-pip)
command -v curl >/dev/null 2>&1 || packages+=(curl)
command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)
command -v redis-cli >/dev/null 2>&1 && command -v redis-benchmark >/dev/null 2>&1 || packages+=(redis-tools)
command -v wrk >/dev/null 2>&1 || packages+=(wrk)
# valgrind: the thresholds check counts instructions with callgrind (make benchmarks-thresholds).
command -v valgrind >/dev/null 2>&1 && command -v vgdb >/dev/null 2>&1 || packages+=(valgrind)
# nginx is in /usr/sbin, outside a plain user's PATH on Debian.
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || packages+=(nginx-light)
# ws-chat's process tests open its self-test page in headless Chromium.
command -v chromium >/dev/null 2>&1 || packages+=(chromium)

if [ "${#packages[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "setup: ${packages[*]} missing and apt-get is not available; install them by hand" >&2
        exit 1
    fi
    echo "setup: installing ${packages[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}"
fi

# Python packages the example tests use as real clients. Debian's own python
# refuses a plain pip install (PEP 668, externally managed): then they go in
# with --break-system-packages, or for the user.
pip_install() {
    if ! python3 -m pip --version >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-pip
    fi
    python3 -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$@" 2>/dev/null \
        || python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages "$@"
}
python3 -c 'import redis' 2>/dev/null || { echo "setup: installing the Python redis client"; pip_install redis; }
python3 -c 'import statsd' 2>/dev/null || { echo "setup: installing the Python statsd client"; pip_install statsd; }
python3 -c 'import h11' 2>/dev/null || { echo "setup: installing h11 (the HTTP/1.1 parser RxUVHTTP is checked against)"; pip_install h11; }
python3 -c 'import wsproto' 2>/dev/null || { echo "setup: installing wsproto (the WebSocket framing RxUVWebSocket is checked against)"; pip_install wsproto; }
python3 -c 'import websockets' 2>/dev/null || { echo "setup: installing websockets (a WebSocket peer for RxUVWebSocket's tests)"; pip_install websockets; }
python3 -c 'import h2' 2>/dev/null || { echo "setup: installing h2 (hyper-h2, a scripted HTTP/2 peer for RxUVHTTP2's tests)"; pip_install h2; }
python3 -c 'import prometheus_client' 2>/dev/null || { echo "setup: installing prometheus_client (its parser reads http-server's /metrics)"; pip_install prometheus_client; }
python3 -c 'import matplotlib' 2>/dev/null || { echo "setup: installing matplotlib (the soak's plot, scripts/soak.py)"; pip_install matplotlib; }
