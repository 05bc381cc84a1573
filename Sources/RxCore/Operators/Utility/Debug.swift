import Synchronization

extension ObservableType {
    /// Prints every subscription, event and disposal to standard output, and
    /// passes every event through unchanged.
    ///
    /// Each line reads `<time>: <identifier> -> <what>`, where `<what>` is
    /// `subscribed`, `Event next(1)` / `Event error(...)` / `Event completed`,
    /// or `isDisposed` (printed once, when the subscription ends by a terminal
    /// event or by dispose). `<time>` is the time since the first `debug`
    /// line of the process, from the monotonic `ContinuousClock`, in seconds
    /// with millisecond precision (`12.345`); there is no wall-clock date,
    /// since RxCore does not use Foundation.
    ///
    /// - Parameters:
    ///   - identifier: the name on each line; by default `File.swift:line (function)`
    ///     of the call site.
    ///   - trimOutput: shorten event descriptions longer than 40 characters to
    ///     their first and last 20 characters joined by `...`.
    ///   - file: the call site's file, filled in by the compiler.
    ///   - line: the call site's line, filled in by the compiler.
    ///   - function: the call site's function, filled in by the compiler.
    ///
    ///     source:          --1--|
    ///     debug("x"):      --1--|   prints: x -> subscribed, x -> Event next(1),
    ///                                      x -> Event completed, x -> isDisposed
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> Observable<Element> {
        Debug(source: asObservable(), identifier: identifier, trimOutput: trimOutput, file: file, line: line, function: function)
    }
}

/// The instant of the first `debug` line: every timestamp counts from it.
private let debugClockOrigin = ContinuousClock.now

/// `seconds.milliseconds` since `debugClockOrigin`.
private func debugTimestamp() -> String {
    let origin = debugClockOrigin // initialised on first use: read it before `now`
    let elapsed = ContinuousClock.now - origin
    let (seconds, attoseconds) = elapsed.components
    let milliseconds = attoseconds / 1_000_000_000_000_000
    let fraction = String(milliseconds)
    return "\(seconds)." + String(repeating: "0", count: max(0, 3 - fraction.count)) + fraction
}

private func debugLog(_ identifier: String, _ content: String) {
    print("\(debugTimestamp()): \(identifier) -> \(content)")
}

private final class DebugSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private static var maxEventTextLength: Int { 40 }

    private let identifier: String
    private let trimOutput: Bool
    private let loggedDispose = Atomic<Bool>(false)

    init(identifier: String, trimOutput: Bool, observer: Observer, cancel: SinkDisposer) {
        self.identifier = identifier
        self.trimOutput = trimOutput
        debugLog(identifier, "subscribed")
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        let text = "\(event)"
        let limit = Self.maxEventTextLength
        let shown =
            trimOutput && text.count > limit
            ? String(text.prefix(limit / 2)) + "..." + String(text.suffix(limit / 2))
            : text
        debugLog(identifier, "Event \(shown)")
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }

    override func dispose() {
        if !loggedDispose.exchange(true, ordering: .acquiringAndReleasing) {
            debugLog(identifier, "isDisposed")
        }
        super.dispose()
    }
}

private final class Debug<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let identifier: String
    private let trimOutput: Bool

    init(source: Observable<Element>, identifier: String?, trimOutput: Bool, file: String, line: UInt, function: String) {
        self.source = source
        self.trimOutput = trimOutput
        if let identifier {
            self.identifier = identifier
        } else {
            let fileName = file.lastIndex(of: "/").map { String(file[file.index(after: $0)...]) } ?? file
            self.identifier = "\(fileName):\(line) (\(function))"
        }
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = DebugSink(identifier: identifier, trimOutput: trimOutput, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
