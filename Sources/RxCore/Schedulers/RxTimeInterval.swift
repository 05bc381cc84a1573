/// A span of time for schedulers and time-based operators.
///
/// Its cases have the names of `DispatchTimeInterval`, so RxSwift call sites
/// such as `.milliseconds(300)` or `.seconds(2)` compile unchanged, without
/// Foundation or Dispatch. Two intervals are equal when they are equally long:
/// `.seconds(1) == .milliseconds(1000)`.
public enum RxTimeInterval: Sendable {
    /// Whole seconds.
    case seconds(Int)
    /// Whole milliseconds.
    case milliseconds(Int)
    /// Whole microseconds.
    case microseconds(Int)
    /// Whole nanoseconds.
    case nanoseconds(Int)
    /// An interval that never elapses.
    case never

    /// The interval in nanoseconds; `.never` and overflowing values saturate at `Int64.max`.
    public var nanoseconds: Int64 {
        func scaled(_ value: Int, _ factor: Int64) -> Int64 {
            let (result, overflow) = Int64(value).multipliedReportingOverflow(by: factor)
            if overflow { return value < 0 ? Int64.min : Int64.max }
            return result
        }
        switch self {
        case .seconds(let value): return scaled(value, 1_000_000_000)
        case .milliseconds(let value): return scaled(value, 1_000_000)
        case .microseconds(let value): return scaled(value, 1_000)
        case .nanoseconds(let value): return Int64(value)
        case .never: return Int64.max
        }
    }

    /// The interval in seconds, as a floating-point number.
    public var seconds: Double {
        if case .never = self { return .infinity }
        return Double(nanoseconds) / 1_000_000_000
    }

    /// The interval as a `Duration`; `.never` becomes the largest representable duration.
    public var duration: Duration {
        .nanoseconds(nanoseconds)
    }

    /// Creates an interval from a `Duration`, to nanosecond precision.
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow {
            self = seconds < 0 ? .nanoseconds(Int(Int64.min)) : .never
        } else {
            self = .nanoseconds(Int(scaled &+ attoseconds / 1_000_000_000))
        }
    }
}

extension RxTimeInterval: Hashable, Comparable {
    /// Intervals are equal when they have the same length.
    public static func == (lhs: RxTimeInterval, rhs: RxTimeInterval) -> Bool {
        lhs.nanoseconds == rhs.nanoseconds
    }

    /// Orders intervals by length.
    public static func < (lhs: RxTimeInterval, rhs: RxTimeInterval) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// Hashes the length.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(nanoseconds)
    }
}

extension RxTimeInterval: CustomStringConvertible {
    /// A description such as `300ms`.
    public var description: String {
        switch self {
        case .seconds(let value): return "\(value)s"
        case .milliseconds(let value): return "\(value)ms"
        case .microseconds(let value): return "\(value)µs"
        case .nanoseconds(let value): return "\(value)ns"
        case .never: return "never"
        }
    }
}
