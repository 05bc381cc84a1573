#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SchedulerType {
    /// The scheduler's current time as a `Date`, RxSwift's `now`, chosen
    /// where the code asks for a `Date` (`let date: Date = scheduler.now`,
    /// `scheduler.now < deadline`, `scheduler.now.timeIntervalSince1970`):
    /// a virtual-time scheduler's clock (counted from 1970, as RxSwift's
    /// converters count), and for every other scheduler the wall clock
    /// (`Date()`), as RxSwift's dispatch schedulers answer. Where no type is
    /// asked for, `now` stays the scheduler's `RxCore.RxTime`.
    public var now: Date {
        if let virtual = self as? any VirtualTimeSchedulerType {
            return Date(rxTime: virtual.clockTime)
        }
        return Date()
    }
}
