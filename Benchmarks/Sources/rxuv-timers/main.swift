import RxCore
import RxUV

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-timers: the timer benchmark on RxUV, the counterpart of uv-timers.
//
//   rxuv-timers [--mode rx|scheduler] [--count N] [--spread-ms MS]
//
// Subscribes N one-shot timers (default 1,000,000) whose due times are
// spread evenly over MS milliseconds (default 1000): `loop.rx.timer(after:)`
// (mode rx: one entry of the loop's timer queue per subscription) or
// `Observable<Int>.timer(_: scheduler: loop)` (mode scheduler, RxCore's timer
// on the Loop scheduler).
// Runs the loop until every timer has fired, then disposes every
// subscription and checks that no handle is left open. Prints one line of
// key=value pairs, as uv-timers does: the seconds of each phase (arm; fire,
// from the end of arming to the last expiry; dispose), their total, how
// many fired, and the peak RSS (getrusage) in KiB.

var mode = "rx"
var count = 1_000_000
var spread = 1_000
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--mode":
        mode = arguments.next() ?? ""
    case "--count":
        count = arguments.next().flatMap(Int.init) ?? 0
    case "--spread-ms":
        spread = arguments.next().flatMap(Int.init) ?? -1
    default:
        mode = ""
    }
}
guard mode == "rx" || mode == "scheduler", count > 0, spread >= 0 else {
    fputs("usage: rxuv-timers [--mode rx|scheduler] [--count N] [--spread-ms MS]\n", stderr)
    exit(2)
}

func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    let value = Double(whole) + Double(attoseconds) / 1e18
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

let loop = try Loop()
let clock = ContinuousClock()
var fired = 0
var subscriptions: [Disposable] = []
subscriptions.reserveCapacity(count)

let start = clock.now
for index in 0..<count {
    let due = RxTimeInterval.milliseconds(index * spread / count)
    let timer =
        mode == "rx"
        ? loop.rx.timer(after: due)
        : Observable<Int>.timer(due, scheduler: loop)
    subscriptions.append(timer.subscribe(onNext: { _ in fired += 1 }))
}
let armed = clock.now

loop.run()
let done = clock.now

for subscription in subscriptions {
    subscription.dispose()
}
subscriptions = []
loop.run()
let disposed = clock.now

var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
print(
    "impl=\(mode) count=\(count) arm_s=\(seconds(armed - start)) fire_s=\(seconds(done - armed)) close_s=\(seconds(disposed - done)) total_s=\(seconds(disposed - start)) fired=\(fired) peak_rss_kib=\(usage.ru_maxrss)"
)
do {
    try loop.close()
} catch {
    fputs("rxuv-timers: \(error)\n", stderr)
    exit(1)
}
exit(fired == count ? 0 : 1)
