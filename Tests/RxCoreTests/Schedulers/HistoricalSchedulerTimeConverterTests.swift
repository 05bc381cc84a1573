import RxCore
import XCTest

final class HistoricalSchedulerTimeConverterTests: RxCoreTestCase {
    func testHistoricalSchedulerTimeConverter_ConversionsAreTheIdentity() {
        let converter = HistoricalSchedulerTimeConverter()
        let time = RxTime(nanoseconds: 1_234_567_890)
        XCTAssertEqual(converter.convertFromVirtualTime(time), time)
        XCTAssertEqual(converter.convertToVirtualTime(time), time)
        XCTAssertEqual(converter.convertFromVirtualTimeInterval(.milliseconds(250)), .milliseconds(250))
        XCTAssertEqual(converter.convertToVirtualTimeInterval(.seconds(3)), .seconds(3))
    }

    func testHistoricalSchedulerTimeConverter_OffsetAndCompare() {
        let converter = HistoricalSchedulerTimeConverter()
        let time = RxTime(nanoseconds: 1_000)
        XCTAssertEqual(converter.offsetVirtualTime(time, offset: .microseconds(2)), RxTime(nanoseconds: 3_000))
        XCTAssertEqual(converter.offsetVirtualTime(time, offset: .never), RxTime(nanoseconds: Int64.max))
        XCTAssertEqual(converter.compareVirtualTime(time, RxTime(nanoseconds: 2_000)), .lessThan)
        XCTAssertEqual(converter.compareVirtualTime(time, time), .equal)
        XCTAssertEqual(converter.compareVirtualTime(RxTime(nanoseconds: 2_000), time), .greaterThan)
    }
}
