import RxCore

/// Converts `TestScheduler` ticks to real time: one tick is `resolution` seconds.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType {
    /// Ticks.
    public typealias VirtualTimeUnit = Int
    /// Ticks.
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        precondition(resolution > 0, "TestScheduler resolution must be positive")
        self.resolution = resolution
    }

    /// The real time of tick `virtualTime`.
    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        RxTime(nanoseconds: Int64((Double(virtualTime) * resolution * 1_000_000_000).rounded()))
    }

    /// The tick of `time`, rounded to the nearest tick.
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int((Double(time.nanoseconds) / 1_000_000_000 / resolution + 0.5).rounded(.down))
    }

    /// The real length of `virtualTimeInterval` ticks.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> RxTimeInterval {
        .nanoseconds(Int((Double(virtualTimeInterval) * resolution * 1_000_000_000).rounded()))
    }

    /// The number of ticks in `timeInterval`, rounded to the nearest tick.
    public func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> Int {
        if case .never = timeInterval { return Int.max / 2 }
        return Int((timeInterval.seconds / resolution + 0.5).rounded(.down))
    }

    /// `time` plus `offset` ticks.
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time + offset
    }

    /// Orders two ticks.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}
