import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class LineDecoderTests: BridgeTestCase {
    func testLines_LFAndCRLFWithoutTheDelimiter() {
        let outcome = framing([ByteBuffer(string: "one\ntwo\r\n\nfour\r\n")]) { $0.lines(maxLength: 10) }
        XCTAssertEqual(outcome.strings, ["one", "two", "", "four"])
        XCTAssertTrue(outcome.completed)
        XCTAssertNil(outcome.error)
    }

    func testLines_EveryCutGivesTheSameLines() {
        let text = Array("alpha\r\nbeta\n\r\ngamma\rdelta\n".utf8)
        for chunks in everyCut(of: text) {
            let outcome = framing(chunks) { $0.lines(maxLength: 16) }
            XCTAssertEqual(outcome.strings, ["alpha", "beta", "", "gamma\rdelta"], "cut \(chunks.map(\.count))")
            XCTAssertTrue(outcome.completed)
        }
    }

    func testLines_CRLFSplitAcrossReadsIsOneDelimiter() {
        let outcome = framing([ByteBuffer(string: "ab\r"), ByteBuffer(string: "\ncd\n")]) { $0.lines(maxLength: 2) }
        XCTAssertEqual(outcome.strings, ["ab", "cd"])
        XCTAssertNil(outcome.error, "a CR held back for its LF does not count against maxLength")
    }

    func testLines_LastLineWithoutNewlineAndATrailingCR() {
        XCTAssertEqual(framing([ByteBuffer(string: "a\nlast")]) { $0.lines(maxLength: 8) }.strings, ["a", "last"])
        XCTAssertEqual(framing([ByteBuffer(string: "a\nlast\r")]) { $0.lines(maxLength: 8) }.strings, ["a", "last"])
        XCTAssertEqual(framing([ByteBuffer(string: "a\n")]) { $0.lines(maxLength: 8) }.strings, ["a"])
        XCTAssertEqual(framing([]) { $0.lines(maxLength: 8) }.strings, [])
    }

    func testLines_MaxLengthIsAcceptedAndOneMoreFails() {
        let exact = framing([ByteBuffer(string: "12345\n")]) { $0.lines(maxLength: 5) }
        XCTAssertEqual(exact.strings, ["12345"])
        for chunks in everyCut(of: Array("ok\n123456\nnever\n".utf8)) {
            let outcome = framing(chunks) { $0.lines(maxLength: 5) }
            XCTAssertEqual(outcome.strings, ["ok"])
            XCTAssertEqual(outcome.error as? FramingError, .lineTooLong(maxLength: 5))
            XCTAssertFalse(outcome.completed)
        }
    }

    func testLines_FailsBeforeBufferingPastTheLimit() {
        // Six bytes and no LF: the line is already too long, whatever follows.
        let outcome = framing([ByteBuffer(string: "123"), ByteBuffer(string: "456")]) { $0.concat(Observable.never()).lines(maxLength: 5) }
        XCTAssertEqual(outcome.error as? FramingError, .lineTooLong(maxLength: 5))
        // Five bytes and a CR: still possibly a five-byte line, so it waits.
        let waiting = framing([ByteBuffer(string: "12345\r")]) { $0.concat(Observable.never()).lines(maxLength: 5) }
        XCTAssertNil(waiting.error)
        XCTAssertFalse(waiting.completed)
    }

    func testLines_ALineInsideOneReadIsASliceOfIt() {
        let read = ByteBuffer(string: "first\nsecond\nthi")
        let outcome = framing([read, ByteBuffer(string: "rd\n")]) { $0.lines(maxLength: 10) }
        XCTAssertEqual(outcome.strings, ["first", "second", "third"])
        XCTAssertTrue(outcome.frames[0].sharesStorage(with: read))
        XCTAssertTrue(outcome.frames[1].sharesStorage(with: read))
        XCTAssertFalse(outcome.frames[2].sharesStorage(with: read), "a line across reads is the one copy")
    }

    func testLines_SourceErrorPassesThroughAndDisposeStops() {
        let failing = framing([ByteBuffer(string: "a\nb")]) { $0.concat(Observable.error(TestFailure.boom)).lines(maxLength: 4) }
        XCTAssertEqual(failing.strings, ["a"])
        XCTAssertEqual(failing.error as? TestFailure, .boom)

        let taken = framing([ByteBuffer(string: "a\nb\nc\n")]) { $0.lines(maxLength: 4).take(2) }
        XCTAssertEqual(taken.strings, ["a", "b"])
        XCTAssertTrue(taken.completed)
    }

    func testLineEvents_AnOverlongLineIsReportedSkippedAndTheStreamGoesOn() {
        let text = Array("ok\n\(String(repeating: "x", count: 20))\r\nnext\r\nlast".utf8)
        for chunks in everyCut(of: text) {
            var events: [LineEvent] = []
            var completed = false
            _ = Observable.from(chunks).lineEvents(maxLength: 5).subscribe(onNext: { events.append($0) }, onCompleted: { completed = true })
            XCTAssertEqual(events, [.line(ByteBuffer(string: "ok")), .tooLong(maxLength: 5), .line(ByteBuffer(string: "next")), .line(ByteBuffer(string: "last"))], "cut \(chunks.map(\.count))")
            XCTAssertTrue(completed)
        }
    }

    func testLineEvents_AnOverlongLastLineIsReportedAndItsBytesDropped() {
        var events: [LineEvent] = []
        var failure: Error?
        _ = Observable.from([ByteBuffer(string: "a\n123456789")]).lineEvents(maxLength: 3).subscribe(onNext: { events.append($0) }, onError: { failure = $0 })
        XCTAssertEqual(events, [.line(ByteBuffer(string: "a")), .tooLong(maxLength: 3)])
        XCTAssertNil(failure)
        events = []
        _ = Observable.from([ByteBuffer(string: "a\n123")]).lineEvents(maxLength: 3).subscribe(onNext: { events.append($0) })
        XCTAssertEqual(events, [.line(ByteBuffer(string: "a")), .line(ByteBuffer(string: "123"))])
    }
}
