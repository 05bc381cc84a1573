/// A representation of a point in time that converts to and from ``RxTime``:
/// ``RxTime`` itself, and `Date` where RxFoundation is imported
/// (nanoseconds since 1970, the origin RxSwift's virtual time uses).
public protocol RxTimeConvertible: Sendable {
    /// The time `rxTime` stands for.
    init(rxTime: RxTime)
    /// The time as an ``RxTime``.
    var rxTime: RxTime { get }
}

/// A representation of a span of time that converts to and from
/// ``RxTimeInterval``: ``RxTimeInterval`` itself, and `Double` seconds
/// (Foundation's `TimeInterval`).
public protocol RxTimeIntervalConvertible: Sendable {
    /// The span `rxTimeInterval` stands for.
    init(rxTimeInterval: RxTimeInterval)
    /// The span as an ``RxTimeInterval``.
    var rxTimeInterval: RxTimeInterval { get }
}

extension RxTime: RxTimeConvertible {
    /// `rxTime` itself.
    public init(rxTime: RxTime) {
        self = rxTime
    }

    /// `self`.
    public var rxTime: RxTime { self }
}

extension RxTimeInterval: RxTimeIntervalConvertible {
    /// `rxTimeInterval` itself.
    public init(rxTimeInterval: RxTimeInterval) {
        self = rxTimeInterval
    }

    /// `self`.
    public var rxTimeInterval: RxTimeInterval { self }
}

extension Double: RxTimeIntervalConvertible {
    /// The interval in seconds (`.never` is infinity), as Foundation's
    /// `TimeInterval` counts it.
    public init(rxTimeInterval: RxTimeInterval) {
        self = rxTimeInterval.seconds
    }

    /// The seconds as an interval, to the nanosecond; infinity is `.never`.
    public var rxTimeInterval: RxTimeInterval {
        guard isFinite else { return self < 0 ? .nanoseconds(Int(Int64.min)) : .never }
        let nanoseconds = (self * 1_000_000_000).rounded()
        if nanoseconds >= 9.2e18 { return .never }
        if nanoseconds <= -9.2e18 { return .nanoseconds(Int(Int64.min)) }
        return .nanoseconds(Int(nanoseconds))
    }
}
