/// A point in time on a scheduler's clock, in nanoseconds from that clock's origin.
///
/// RxSwift uses `Date` here; RxCore stays Foundation-free. Virtual-time
/// schedulers map their ticks onto it; the libuv loop maps its monotonic clock.
public struct RxTime: Hashable, Comparable, Sendable {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// Creates a time `nanoseconds` after the clock's origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The origin of the clock.
    public static let zero = RxTime(nanoseconds: 0)

    /// Orders times.
    public static func < (lhs: RxTime, rhs: RxTime) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The time `interval` after `time`.
    public static func + (time: RxTime, interval: RxTimeInterval) -> RxTime {
        RxTime(
            nanoseconds: time.nanoseconds.addingReportingOverflow(interval.nanoseconds).overflow
                ? Int64.max : time.nanoseconds + interval.nanoseconds)
    }

    /// The interval from `other` to `self` (negative if `other` is later).
    public func timeIntervalSince(_ other: RxTime) -> RxTimeInterval {
        .nanoseconds(Int(nanoseconds &- other.nanoseconds))
    }
}
