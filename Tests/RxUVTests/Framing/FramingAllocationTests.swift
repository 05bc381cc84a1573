// The buffer counter exists in builds with TRACE_RESOURCES, which every
// test build defines (Package.swift); the test is compiled where it can run.
#if TRACE_RESOURCES
import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

/// What framing costs in buffers: a line inside one read is a slice of it,
/// and only a line cut by a read boundary is copied (once, into the buffer
/// that carries it over). Counted with `ByteBuffer.storageAllocations`.
final class FramingAllocationTests: BridgeTestCase {
    /// Chat traffic (lines of 1 to 300 bytes, LF or CRLF) cut into reads of
    /// 1 to 4,096 bytes: `lineEvents` and `lines` make at most one buffer
    /// per read, and give back every line.
    func testLineFraming_AtMostOneBufferPerRead() {
        var generator = SeededGenerator(seed: 42)
        var expected: [String] = []
        var traffic: [UInt8] = []
        while traffic.count < 256 * 1024 {
            let length = Int(generator.next() % 300) + 1
            let line = "user\(expected.count % 97): " + String(repeating: "x", count: length)
            expected.append(line)
            traffic += Array(line.utf8) + (generator.next() % 2 == 0 ? [10] : [13, 10])
        }
        var reads: [ByteBuffer] = []
        var offset = 0
        while offset < traffic.count {
            let size = min(Int(generator.next() % 4096) + 1, traffic.count - offset)
            reads.append(ByteBuffer(traffic[offset..<offset + size]))
            offset += size
        }

        let before = ByteBuffer.storageAllocations.load(ordering: .relaxed)
        let events = framing(reads) {
            $0.lineEvents(maxLength: 1024).map { event -> ByteBuffer in
                guard case .line(let line) = event else { return ByteBuffer(string: "not a line") }
                return line
            }
        }
        let lineEventsAllocations = ByteBuffer.storageAllocations.load(ordering: .relaxed) - before

        let beforeLines = ByteBuffer.storageAllocations.load(ordering: .relaxed)
        let lines = framing(reads) { $0.lines(maxLength: 1024) }
        let linesAllocations = ByteBuffer.storageAllocations.load(ordering: .relaxed) - beforeLines

        XCTAssertEqual(events.strings, expected)
        XCTAssertEqual(lines.strings, expected)
        XCTAssertLessThanOrEqual(lineEventsAllocations, reads.count, "lineEvents: \(lineEventsAllocations) buffers for \(reads.count) reads")
        XCTAssertLessThanOrEqual(linesAllocations, reads.count, "lines: \(linesAllocations) buffers for \(reads.count) reads")
        // Most lines lie inside one read and cost nothing.
        XCTAssertLessThan(linesAllocations, expected.count / 4)
    }
}

#endif
