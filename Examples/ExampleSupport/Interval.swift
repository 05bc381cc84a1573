import ArgumentParser
import RxCore

/// A length of time given on the command line: `60s`, `500ms`, `1.5s`,
/// `2m`, `250us`; a bare number is seconds.
///
/// It converts to the `RxTimeInterval` that RxCore's time operators take,
/// and to the `Duration` that RxUV's options store.
public struct Interval: ExpressibleByArgument, CustomStringConvertible, Sendable {
    /// The interval in nanoseconds.
    public let nanoseconds: Int64

    /// Parses `60s`, `500ms`, `1.5s`, `2m`, `250us`, `0`; `nil` for anything else
    /// (negative, or an unknown unit).
    public init?(argument: String) {
        let text = argument.trimmingSpaces.lowercased()
        let units: [(suffix: String, nanoseconds: Double)] = [
            ("ms", 1e6), ("us", 1e3), ("µs", 1e3), ("ns", 1), ("s", 1e9), ("m", 60e9), ("h", 3600e9),
        ]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1e9)
        guard let value = Double(text.dropLast(unit.suffix.count)), value >= 0, value.isFinite else {
            return nil
        }
        let scaled = value * unit.nanoseconds
        guard scaled < Double(Int64.max) else { return nil }
        nanoseconds = Int64(scaled.rounded())
    }

    /// An interval of `milliseconds`.
    public init(milliseconds: Int64) {
        nanoseconds = milliseconds * 1_000_000
    }

    /// The interval for RxCore's schedulers and time operators.
    public var rxInterval: RxTimeInterval {
        .nanoseconds(Int(nanoseconds))
    }

    /// The interval for RxUV's options (`ServerOptions.idleTimeout`...).
    public var duration: Duration {
        .nanoseconds(nanoseconds)
    }

    /// `true` for a zero interval.
    public var isZero: Bool {
        nanoseconds == 0
    }

    /// The shortest exact spelling: `60s`, `500ms`, `250us`.
    public var description: String {
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        if nanoseconds % 1_000 == 0 { return "\(nanoseconds / 1_000)us" }
        return "\(nanoseconds)ns"
    }

}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
