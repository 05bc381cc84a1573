/// Converts between a virtual-time scheduler's own time units and real time.
///
/// RxSwift's converters speak `Date` (its `RxTime`) and `TimeInterval`
/// seconds; RxCore's speak ``RxTime`` and ``RxTimeInterval`` by default. A
/// converter picks its real-time types through `RealTime` and
/// `RealTimeInterval`: a converter written for RxSwift, with `Date` and
/// `TimeInterval` conversions, compiles as it is where RxFoundation is
/// imported (which makes `Date` an ``RxTimeConvertible``; `TimeInterval` is
/// `Double`, an ``RxTimeIntervalConvertible`` here).
public protocol VirtualTimeConverterType: Sendable {
    /// The scheduler's unit of time.
    associatedtype VirtualTimeUnit: Sendable
    /// The scheduler's unit of time intervals.
    associatedtype VirtualTimeIntervalUnit: Sendable
    /// The real time the conversions speak: ``RxTime`` unless the converter
    /// says otherwise (RxSwift's converters use `Date`).
    associatedtype RealTime: RxTimeConvertible = RxTime
    /// The real interval the conversions speak: ``RxTimeInterval`` unless the
    /// converter says otherwise (RxSwift's converters use `TimeInterval`).
    associatedtype RealTimeInterval: RxTimeIntervalConvertible = RxTimeInterval

    /// The real time of `virtualTime`.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RealTime
    /// The virtual time of `time`.
    func convertToVirtualTime(_ time: RealTime) -> VirtualTimeUnit
    /// The real interval of `virtualTimeInterval`.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> RealTimeInterval
    /// The virtual interval of `timeInterval`.
    func convertToVirtualTimeInterval(_ timeInterval: RealTimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// Orders two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The left time is earlier.
    case lessThan
    /// The times are equal.
    case equal
    /// The left time is later.
    case greaterThan
}
