#!/usr/bin/env bash
# The module rules of DESIGN.md that the compiler does not enforce:
# - only the bridge (Sources/RxUV) imports CLibUV;
# - only the TLS product (Sources/RxUVTLS) imports COpenSSL;
# - only the HTTP client (Sources/RxUVHTTPClient) and the WebSocket layer
#   (Sources/RxUVWebSocket, for permessage-deflate) import CZlib;
# - only the HTTP/2 product (Sources/RxUVHTTP2) imports CNGHTTP2;
# - RxCore does not import Foundation;
# - RxUVWebSocket imports only RxCore, RxUV, RxUVHTTP, RxUVHTTPClient,
#   RxUVTLS, CZlib, HTTPTypes and the standard library's modules (no
#   Foundation), so the WebSocket layer depends only downwards;
# - RxCore and its tests' support (Sources/RxCoreTestSupport) import nothing
#   of the bridge, nor do RxCoreTests and RxBlockingTests, so RxCore builds
#   and tests without libuv.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
outside=$(grep -rlE '^\s*(@_implementationOnly |internal |public |private )?import CLibUV' Sources Examples Tests 2>/dev/null | grep -v '^Sources/RxUV/' || true)
if [ -n "$outside" ]; then
    echo "check-imports: CLibUV is imported outside Sources/RxUV:" >&2
    echo "$outside" >&2
    status=1
fi
outside=$(grep -rlE '^\s*(@_implementationOnly |internal |public |private )?import COpenSSL' Sources Examples Tests 2>/dev/null | grep -v '^Sources/RxUVTLS/' || true)
if [ -n "$outside" ]; then
    echo "check-imports: COpenSSL is imported outside Sources/RxUVTLS:" >&2
    echo "$outside" >&2
    status=1
fi
outside=$(grep -rlE '^\s*(@_implementationOnly |internal |public |private )?import CZlib' Sources Examples Tests 2>/dev/null | grep -vE '^Sources/(RxUVHTTPClient|RxUVWebSocket)/' || true)
if [ -n "$outside" ]; then
    echo "check-imports: CZlib is imported outside Sources/RxUVHTTPClient and Sources/RxUVWebSocket:" >&2
    echo "$outside" >&2
    status=1
fi
outside=$(grep -rlE '^\s*(@_implementationOnly |internal |public |private )?import CNGHTTP2' Sources Examples Tests 2>/dev/null | grep -v '^Sources/RxUVHTTP2/' || true)
if [ -n "$outside" ]; then
    echo "check-imports: CNGHTTP2 is imported outside Sources/RxUVHTTP2:" >&2
    echo "$outside" >&2
    status=1
fi
foundation=$(grep -rlE '^\s*(@_implementationOnly |internal |public |private )?import (Foundation|FoundationEssentials)' Sources/RxCore 2>/dev/null || true)
if [ -n "$foundation" ]; then
    echo "check-imports: RxCore imports Foundation:" >&2
    echo "$foundation" >&2
    status=1
fi
websocket=$(grep -rnE '^\s*(@_implementationOnly |@_spi\([A-Za-z]+\) |internal |public |private |package )*import ' Sources/RxUVWebSocket 2>/dev/null \
    | grep -vE 'import (RxCore|RxUV|RxUVHTTP|RxUVHTTPClient|RxUVTLS|CZlib|HTTPTypes|Synchronization|Glibc|Darwin)$' || true)
if [ -n "$websocket" ]; then
    echo "check-imports: RxUVWebSocket imports a module outside its rule (RxCore, RxUV, RxUVHTTP, RxUVHTTPClient, RxUVTLS, CZlib, HTTPTypes):" >&2
    echo "$websocket" >&2
    status=1
fi
bridge=$(grep -rlE '^\s*(@_implementationOnly |@testable |internal |public |private )?import (RxUV|CLibUV)' Sources/RxCore Sources/RxCoreTestSupport Tests/RxCoreTests Tests/RxBlockingTests 2>/dev/null || true)
if [ -n "$bridge" ]; then
    echo "check-imports: RxCore, its test support or its tests import the bridge (RxCore must build and test without libuv):" >&2
    echo "$bridge" >&2
    status=1
fi
exit $status
