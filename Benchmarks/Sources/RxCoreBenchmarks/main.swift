#if canImport(Glibc)
import Glibc
#endif

// RxCore against OpenCombine on the four core cases, in one run, release
// build. Prints a Markdown table: ns per event (median of the repetitions),
// the RxCore/OpenCombine ratio, and RxCore's heap allocations per event.

let options = Options(arguments: CommandLine.arguments)

struct Row {
    var name: String
    var events: Int
    var rx: Sample
    var combine: Sample
    var target: Double

    var rxPerEvent: Double { rx.nanoseconds / Double(events) }
    var combinePerEvent: Double { combine.nanoseconds / Double(events) }
    var rxAllocationsPerEvent: Double { Double(rx.allocations) / Double(events) }
}

func format(_ value: Double, decimals: Int = 1) -> String {
    var scaled = value
    for _ in 0..<decimals { scaled *= 10 }
    let rounded = scaled.rounded()
    var text = String(Int(rounded))
    if decimals > 0 {
        let negative = rounded < 0
        if negative { text.removeFirst() }
        while text.count <= decimals { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        if negative { text = "-" + text }
    }
    return text
}

let eventCount = options.count(10_000_000)
let fanOutSubscribers = 100
let fanOutEvents = options.count(100_000)
let subscribeCount = options.count(1_000_000)
let repetitions = options.repetitions

// OpenCombine's sample of a case, or none with `--rx-only`.
func combined(_ body: () -> Sample) -> Sample {
    options.rxOnly ? Sample(nanoseconds: .nan, allocations: 0) : body()
}

// Warm up both libraries once so first-use costs stay out of the table.
_ = CoreCases.subjectChainRx(count: 1_000, repetitions: 1)
_ = combined { CoreCases.subjectChainCombine(count: 1_000, repetitions: 1) }

var rows: [Row] = []
if options.runs("a") {
    rows.append(
        Row(
            name: "a) PublishSubject → map → filter → scan",
            events: eventCount,
            rx: CoreCases.subjectChainRx(count: eventCount, repetitions: repetitions),
            combine: combined { CoreCases.subjectChainCombine(count: eventCount, repetitions: repetitions) },
            target: 80
        ))
}
if options.runs("b") {
    rows.append(
        Row(
            name: "b) range → map → filter",
            events: eventCount,
            rx: CoreCases.rangeChainRx(count: eventCount, repetitions: repetitions),
            combine: combined { CoreCases.rangeChainCombine(count: eventCount, repetitions: repetitions) },
            target: 50
        ))
}
if options.runs("c") {
    rows.append(
        Row(
            name: "c) PublishSubject, 100 subscribers (per delivery)",
            events: fanOutSubscribers * fanOutEvents,
            rx: CoreCases.fanOutRx(subscribers: fanOutSubscribers, count: fanOutEvents, repetitions: repetitions),
            combine: combined { CoreCases.fanOutCombine(subscribers: fanOutSubscribers, count: fanOutEvents, repetitions: repetitions) },
            target: 25
        ))
}
if options.runs("d") {
    rows.append(
        Row(
            name: "d) subscribe + dispose of just(1).map { $0 }",
            events: subscribeCount,
            rx: CoreCases.subscribeDisposeRx(count: subscribeCount, repetitions: repetitions),
            combine: combined { CoreCases.subscribeDisposeCombine(count: subscribeCount, repetitions: repetitions) },
            target: 400
        ))
}

print("| case | RxCore ns | OpenCombine ns | RxCore/OpenCombine | target | RxCore allocs/event |")
print("|---|---:|---:|---:|---:|---:|")
for row in rows {
    let met = row.rxPerEvent <= row.target ? "≤ \(Int(row.target)) ✓" : "≤ \(Int(row.target)) ✗"
    let combine = options.rxOnly ? "—" : format(row.combinePerEvent)
    let ratio = options.rxOnly ? "—" : format(row.rxPerEvent / row.combinePerEvent, decimals: 2)
    print("| \(row.name) | \(format(row.rxPerEvent)) | \(combine) | \(ratio) | \(met) | \(format(row.rxAllocationsPerEvent, decimals: 3)) |")
}
print("")
print("events: a, b = \(eventCount); c = \(fanOutSubscribers) × \(fanOutEvents); d = \(subscribeCount); median of \(repetitions) run(s)\(options.quick ? " (quick mode)" : "")")
