#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Date` is a point in time for RxCore's virtual-time conversions: the
/// nanoseconds since 1970 that RxSwift's virtual time counts from.
extension Date: RxTimeConvertible {
    /// The date `rxTime` nanoseconds after 1970-01-01 00:00:00 UTC.
    public init(rxTime: RxCore.RxTime) {
        let (seconds, nanoseconds) = rxTime.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        self.init(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// The nanoseconds since 1970-01-01 00:00:00 UTC, saturating far from it.
    public var rxTime: RxCore.RxTime {
        let interval = timeIntervalSince1970
        let seconds = interval.rounded(.down)
        guard seconds.magnitude < 9.2e9 else {
            return RxCore.RxTime(nanoseconds: interval < 0 ? Int64.min : Int64.max)
        }
        let fraction = ((interval - seconds) * 1_000_000_000).rounded()
        return RxCore.RxTime(nanoseconds: Int64(seconds) * 1_000_000_000 + Int64(fraction))
    }
}

extension RxCore.RxTime {
    /// The time of `date`, in nanoseconds since 1970.
    public init(_ date: Date) {
        self = date.rxTime
    }

    /// The time as a `Date` (its origin taken as 1970, as RxSwift's
    /// virtual time does).
    public var date: Date {
        Date(rxTime: self)
    }
}
