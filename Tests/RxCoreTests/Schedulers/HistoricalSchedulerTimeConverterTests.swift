import FoundationEssentials
import RxCoreTestSupport
import RxFoundation
import XCTest

final class HistoricalSchedulerTimeConverterTests: RxCoreTestCase {
    func testHistoricalSchedulerTimeConverter_ConversionsAreTheIdentity() {
        let converter = HistoricalSchedulerTimeConverter()
        let date = Date(timeIntervalSince1970: 1_234.5)
        XCTAssertEqual(converter.convertFromVirtualTime(date), date)
        XCTAssertEqual(converter.convertToVirtualTime(date), date)
        XCTAssertEqual(converter.convertFromVirtualTimeInterval(0.25), 0.25)
        XCTAssertEqual(converter.convertToVirtualTimeInterval(3), 3)
    }

    func testHistoricalSchedulerTimeConverter_OffsetAndCompare() {
        let converter = HistoricalSchedulerTimeConverter()
        let date = Date(timeIntervalSince1970: 1)
        XCTAssertEqual(converter.offsetVirtualTime(date, offset: 2), Date(timeIntervalSince1970: 3))
        XCTAssertEqual(converter.compareVirtualTime(date, Date(timeIntervalSince1970: 2)), .lessThan)
        XCTAssertEqual(converter.compareVirtualTime(date, date), .equal)
        XCTAssertEqual(converter.compareVirtualTime(Date(timeIntervalSince1970: 2), date), .greaterThan)
    }

    /// A converter written for RxSwift, in `Date` and `TimeInterval`,
    /// drives a `VirtualTimeScheduler` unchanged.
    func testVirtualTimeConverterType_RxSwiftStyleConverter() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, converter: TenthsConverter())
        nonisolated(unsafe) var ranAt: [Int] = []
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(300)) { _ in
            ranAt.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(ranAt, [3])
        // A `Date` counts from 2001 in a `Double`: a tenth of a microsecond
        // of 1970's dates is lost on the way.
        XCTAssertEqual(Double(scheduler.now.nanoseconds), 300_000_000, accuracy: 1_000)
    }

    func testDate_RxTimeRoundTrip() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        XCTAssertEqual(RxCore.RxTime(date), RxCore.RxTime(nanoseconds: 1_700_000_000_250_000_000))
        XCTAssertEqual(RxCore.RxTime(date).date, date)
        XCTAssertEqual(Date(rxTime: RxCore.RxTime(nanoseconds: -1_500_000_000)), Date(timeIntervalSince1970: -1.5))
        XCTAssertEqual(2.5.rxTimeInterval, .milliseconds(2500))
        XCTAssertEqual(Double(rxTimeInterval: .milliseconds(250)), 0.25)
    }
}

/// Virtual time in tenths of a second, converted as RxSwift's converters are.
private struct TenthsConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) / 10)
    }

    func convertToVirtualTime(_ time: Date) -> Int {
        Int((time.timeIntervalSince1970 * 10).rounded())
    }

    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval) / 10
    }

    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Int((timeInterval * 10).rounded())
    }

    func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time + offset
    }

    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}
