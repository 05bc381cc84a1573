#!/usr/bin/env bash
# The leak gates run after every test only if every XCTest class inherits
# them: RxCoreTests and RxBlockingTests classes subclass RxCoreTestCase
# (Sources/RxCoreTestSupport), the bridge's suites (RxUVTests, RxUVTLSTests,
# RxUVHTTPTests, RxUVServiceLifecycleTests) BridgeTestCase
# (Sources/RxUVTestSupport) or a subclass of it. A class under Tests/ that
# subclasses XCTestCase directly fails this check, and so does a base that
# is no longer where this script expects it.
#
# Swift Testing suites (the property-based fuzz in Tests/RxCoreTests/Fuzz)
# cannot subclass anything: a file that declares `@Test` functions must run
# them through `withLeakGate` (Tests/RxCoreTests/Fuzz/FuzzSupport.swift), the
# same Resources.total gate, or it fails this check.
set -euo pipefail
cd "$(dirname "$0")/.."

for base in Sources/RxCoreTestSupport/LeakGates/RxCoreTestCase.swift:RxCoreTestCase Sources/RxUVTestSupport/LeakGates/BridgeTestCase.swift:BridgeTestCase; do
    file=${base%%:*}
    name=${base##*:}
    if ! grep -qE "^open class $name: XCTestCase\b" "$file" 2>/dev/null; then
        echo "check-test-bases: $file no longer declares $name, the leak-gated base (update this script)" >&2
        exit 1
    fi
done

direct=$(grep -rnE '^\s*(final |open |public |internal |private )*class\s+\w+\s*:\s*XCTestCase\b' Tests --include='*.swift' || true)
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
