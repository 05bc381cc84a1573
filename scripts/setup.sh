#!/usr/bin/env bash
# Installs what RxUV needs to build and test on Debian or Ubuntu: libuv1-dev,
# pkg-config, python3 (the example tests' clients) and python's statsd client
# (statsd-agg's tests). Does nothing when they are already there.
set -euo pipefail

# The statsd client from PyPI. Debian's python refuses a plain pip install
# (PEP 668, externally managed): then it goes in with --break-system-packages.
install_statsd() {
    python3 -c 'import statsd' 2>/dev/null && return
    echo "setup: installing the python statsd client (pip)"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        if [ "$(id -u)" -ne 0 ]; then sudo apt-get install -y -qq python3-pip; else apt-get install -y -qq python3-pip; fi
    fi
    python3 -m pip install --quiet statsd 2>/dev/null ||
        python3 -m pip install --quiet --break-system-packages statsd 2>/dev/null ||
        python3 -m pip install --quiet --user --break-system-packages statsd
}

if pkg-config --exists libuv 2>/dev/null && command -v python3 >/dev/null 2>&1; then
    install_statsd
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: libuv or python3 is missing and apt-get is not available; install libuv (with pkg-config) and python3 by hand" >&2
    exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

echo "setup: installing libuv1-dev, pkg-config and python3"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libuv1-dev pkg-config python3
install_statsd
