#!/usr/bin/env bash
# Installs what RxUV needs to build and test on Debian or Ubuntu: libuv1-dev,
# pkg-config, and python3 (the example tests' clients). Does nothing when they
# are already there.
set -euo pipefail

if pkg-config --exists libuv 2>/dev/null && command -v python3 >/dev/null 2>&1; then
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
