/// The time converter of `HistoricalScheduler`: its virtual time is real
/// time (`RxTime`) and its intervals are `RxTimeInterval`s, so every
/// conversion is the identity.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
    /// Virtual time is an `RxTime`.
    public typealias VirtualTimeUnit = RxTime
    /// Virtual intervals are `RxTimeInterval`s.
    public typealias VirtualTimeIntervalUnit = RxTimeInterval

    /// Creates the converter.
    public init() {}

    /// Returns `virtualTime` unchanged.
    public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime {
        virtualTime
    }

    /// Returns `time` unchanged.
    public func convertToVirtualTime(_ time: RxTime) -> RxTime {
        time
    }

    /// Returns `virtualTimeInterval` unchanged.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: RxTimeInterval) -> RxTimeInterval {
        virtualTimeInterval
    }

    /// Returns `timeInterval` unchanged.
    public func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> RxTimeInterval {
        timeInterval
    }

    /// `time` moved by `offset` (saturating for `.never`).
    public func offsetVirtualTime(_ time: RxTime, offset: RxTimeInterval) -> RxTime {
        time + offset
    }

    /// Orders two times.
    public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}
