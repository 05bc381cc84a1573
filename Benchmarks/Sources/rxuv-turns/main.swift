import RxCore
import RxUV

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-turns: the cost of a loop's turn, for the thresholds file.
//
//   rxuv-turns [--count N] [--watchdog on|off]
//
// Turns a loop N times (default 100,000) without waiting (`runNoWait`):
// each turn is one `uv_run` iteration, with the loop's own handles (its
// wake-up handle and the prepare handle that counts turns) and a timer an
// hour away that keeps it alive, and nothing else to do. With `--watchdog on` a LoopWatchdog samples the loop meanwhile
// (stalls past 500 ms, metrics every second through whatever swift-metrics
// backend is bootstrapped: none here). Prints `turns=N`.

var count = 100_000
var watched = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count":
        count = arguments.next().flatMap(Int.init) ?? 0
    case "--watchdog":
        let value = arguments.next()
        guard value == "on" || value == "off" else {
            count = 0
            break
        }
        watched = value == "on"
    default:
        count = 0
    }
}
guard count > 0 else {
    fputs("usage: rxuv-turns [--count N] [--watchdog on|off]\n", stderr)
    exit(2)
}

let loop = try Loop()
let watchdog = watched ? try LoopWatchdog(watching: [loop]) : nil
let alive = loop.rx.timer(after: .seconds(3600)).subscribe()
for _ in 0..<count {
    loop.runNoWait()
}
alive.dispose()
loop.runNoWait()
watchdog?.stop()
try loop.close()
print("turns=\(count)")
