#!/usr/bin/env bash
# The leak gates run after every test only if every XCTest class inherits
# them: RxCoreTests classes subclass RxCoreTestCase, RxUVTests classes
# BridgeTestCase (both in their suite's Support/). A class that subclasses
# XCTestCase directly anywhere else fails this check.
set -euo pipefail
cd "$(dirname "$0")/.."

direct=$(grep -rnE '^\s*(final |open |public |internal |private )*class\s+\w+\s*:\s*XCTestCase\b' Tests --include='*.swift' \
    | grep -vE '^Tests/RxCoreTests/Support/RxCoreTestCase\.swift:|^Tests/RxUVTests/Support/BridgeTestCase\.swift:' || true)
if [ -n "$direct" ]; then
    echo "check-test-bases: these classes skip the leak gates (subclass RxCoreTestCase or BridgeTestCase instead of XCTestCase):" >&2
    echo "$direct" >&2
    exit 1
fi
