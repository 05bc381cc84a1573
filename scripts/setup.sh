#!/usr/bin/env bash
# Installs what RxUV needs to build and test on Debian or Ubuntu: libuv1-dev,
# pkg-config, python3 (the example tests' clients), and the real Redis pieces
# kv-server is tested against: redis-server and redis-cli (Debian's
# redis-server and redis-tools) and the Python redis client from PyPI. Does
# nothing for what is already there.
set -euo pipefail

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

packages=()
pkg-config --exists libuv 2>/dev/null || packages+=(libuv1-dev pkg-config)
command -v python3 >/dev/null 2>&1 || packages+=(python3 python3-pip)
command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)
command -v redis-cli >/dev/null 2>&1 && command -v redis-benchmark >/dev/null 2>&1 || packages+=(redis-tools)

if [ "${#packages[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "setup: ${packages[*]} missing and apt-get is not available; install them by hand" >&2
        exit 1
    fi
    echo "setup: installing ${packages[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}"
fi

# Python packages the example tests use as real clients.
pip_install() {
    python3 -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$@"
}
python3 -c 'import redis' 2>/dev/null || { echo "setup: installing the Python redis client"; pip_install redis; }
