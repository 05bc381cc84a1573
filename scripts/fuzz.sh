#!/usr/bin/env bash
# Coverage-guided fuzzing of RxUV's decoders (Fuzz/, libFuzzer with
# AddressSanitizer, release build): runs each target for SECONDS (default
# 60) from the committed seeds in Fuzz/Corpus/TARGET plus what earlier runs
# found (Fuzz/.build/corpus/TARGET), and fails on the first crash, leak of a
# limit or broken property; libFuzzer leaves the input that did it in
# Fuzz/.build/artifacts/ and its log in Fuzz/.build/TARGET.log. Prints each
# target's runs and peak memory.
#
#   scripts/fuzz.sh            # a minute per target (make fuzz)
#   scripts/fuzz.sh 10         # ten seconds per target (make fuzz-quick, CI)
#   scripts/fuzz.sh 600 fuzz-http   # one target, ten minutes
set -euo pipefail

seconds="${1:-60}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=(fuzz-lines fuzz-length-prefixed fuzz-resp fuzz-statsd fuzz-http fuzz-http-repeats fuzz-http-response fuzz-http-response-repeats fuzz-websocket)
fi

cd "$(dirname "$0")/../Fuzz"
# libFuzzer and ASan, and the coverage libFuzzer steers by (edges, with the
# comparisons' operands), in every module: the library's code is what is fuzzed.
flags=(-c release --sanitize=fuzzer --sanitize=address
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table)
swift build "${flags[@]}"
bin="$(swift build "${flags[@]}" --show-bin-path)"
mkdir -p .build/artifacts
for target in "${targets[@]}"; do
    mkdir -p ".build/corpus/$target"
    echo "fuzz: $target for ${seconds}s"
    # The Swift runtime's backtracer would wait on ASan's report: off.
    set +e
    SWIFT_BACKTRACE="enable=no" ASAN_OPTIONS="detect_leaks=0" "$bin/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
        -artifact_prefix=".build/artifacts/$target-" -print_final_stats=1 \
        ".build/corpus/$target" "Corpus/$target" > ".build/$target.log" 2>&1
    status=$?
    set -e
    grep -E "^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb|SUMMARY|.*fuzz property|.*Fatal error|.*Test unit written)" ".build/$target.log" || true
    if [ "$status" -ne 0 ]; then
        echo "fuzz: $target failed (exit $status); the input is in Fuzz/.build/artifacts/, the log in Fuzz/.build/$target.log" >&2
        exit 1
    fi
done
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, no failure"
