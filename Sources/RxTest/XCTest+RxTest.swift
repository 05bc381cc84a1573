import RxCore
import XCTest

/// Asserts that two event lists are equal, listing both on failure.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Event<Element>], _ rhs: [Event<Element>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two recorded timelines are equal, listing both on failure.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two event lists of optionals are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Event<Element?>], _ rhs: [Event<Element?>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two recorded timelines of optionals are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Recorded<Event<Element?>>], _ rhs: [Recorded<Event<Element?>>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two lists of Single events are equal, as RxTest's overload
/// does: `XCTAssertEqual(events, [.success(1)])`.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs.count == rhs.count, zip(lhs, rhs).allSatisfy({ singleEventsEqual($0, $1) }) { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two lists of Maybe events are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two lists of Completable events are equal.
public func XCTAssertEqual(_ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that `stream` consists of exactly `elements` as `.next` events,
/// ignoring times and terminal events.
public func XCTAssertRecordedElements<Element: Equatable>(_ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line) {
    let recorded = stream.compactMap { $0.value.element }
    if recorded == elements { return }
    XCTFail(describeDifference(recorded, elements), file: file, line: line)
}

func describeDifference<T>(_ lhs: [T], _ rhs: [T]) -> String {
    func lines(_ values: [T]) -> String {
        values.map { "    \(String(reflecting: $0))" }.joined(separator: "\n")
    }
    return "Timelines differ.\n  actual:\n\(lines(lhs))\n  expected:\n\(lines(rhs))"
}
