/// Converts between a virtual-time scheduler's own time units and real time.
public protocol VirtualTimeConverterType: Sendable {
    /// The scheduler's unit of time.
    associatedtype VirtualTimeUnit: Sendable
    /// The scheduler's unit of time intervals.
    associatedtype VirtualTimeIntervalUnit: Sendable

    /// The real time of `virtualTime`.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// The virtual time of `time`.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// The real interval of `virtualTimeInterval`.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> RxTimeInterval
    /// The virtual interval of `timeInterval`.
    func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> VirtualTimeIntervalUnit
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
