#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time converter of `HistoricalScheduler`, as RxSwift declares it: its
/// virtual time is a `Date` and its intervals are `TimeInterval` seconds, so
/// every conversion is the identity.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
    /// Virtual time is a `Date`.
    public typealias VirtualTimeUnit = Date
    /// Virtual intervals are seconds.
    public typealias VirtualTimeIntervalUnit = TimeInterval

    /// Creates the converter.
    public init() {}

    /// Returns `virtualTime` unchanged.
    public func convertFromVirtualTime(_ virtualTime: Date) -> Date {
        virtualTime
    }

    /// Returns `time` unchanged.
    public func convertToVirtualTime(_ time: Date) -> Date {
        time
    }

    /// Returns `virtualTimeInterval` unchanged.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval {
        virtualTimeInterval
    }

    /// Returns `timeInterval` unchanged.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval {
        timeInterval
    }

    /// `time` moved by `offset` seconds.
    public func offsetVirtualTime(_ time: Date, offset: TimeInterval) -> Date {
        time.addingTimeInterval(offset)
    }

    /// Orders two dates.
    public func compareVirtualTime(_ lhs: Date, _ rhs: Date) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}
