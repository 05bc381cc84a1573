#!/usr/bin/env bash
# The leak gates run after every test only if every XCTest class inherits
# them: RxCoreTests and RxBlockingTests classes subclass RxCoreTestCase
# (RxBlockingTests/Support/RxCoreTestCase.swift is a link to RxCoreTests'),
# RxUVTests and RxUVServiceLifecycleTests classes BridgeTestCase (both in
# their suite's Support/; the second a link to the first's). A class
# that subclasses XCTestCase directly anywhere else fails this check.
#
# Swift Testing suites (the property-based fuzz in Tests/RxCoreTests/Fuzz)
# cannot subclass anything: a file that declares `@Test` functions must run
# them through `withLeakGate` (Tests/RxCoreTests/Fuzz/FuzzSupport.swift), the
# same Resources.total gate, or it fails this check.
set -euo pipefail
cd "$(dirname "$0")/.."

direct=$(grep -rnE '^\s*(final |open |public |internal |private )*class\s+\w+\s*:\s*XCTestCase\b' Tests --include='*.swift' \
    | grep -vE '^Tests/(RxCoreTests|RxBlockingTests)/Support/RxCoreTestCase\.swift:|^Tests/(RxUVTests|RxUVServiceLifecycleTests)/Support/BridgeTestCase\.swift:' || true)
if [ -n "$direct" ]; then
    echo "check-test-bases: these classes skip the leak gates (subclass RxCoreTestCase or BridgeTestCase instead of XCTestCase):" >&2
    echo "$direct" >&2
    exit 1
fi

ungated=""
while IFS= read -r file; do
    case "$file" in
        Tests/RxCoreTests/*) grep -q 'withLeakGate(' "$file" || ungated+="$file"$'\n' ;;
        *) ungated+="$file (no Swift Testing leak gate outside Tests/RxCoreTests)"$'\n' ;;
    esac
done < <(grep -rlE '^\s*@Test\b' Tests --include='*.swift' || true)
if [ -n "$ungated" ]; then
    echo "check-test-bases: these Swift Testing files skip the leak gate (run each case inside withLeakGate):" >&2
    printf '%s' "$ungated" >&2
    exit 1
fi
