import HTTPTypes
import RxUV
import RxUVTestSupport
import XCTest

@testable import RxUVHTTP2

/// A body's queue, as nghttp2 pulls DATA frames from it.
final class HTTP2BodyQueueTests: BridgeTestCase {
    /// Reads `queue` into frames of at most `size` bytes until it defers,
    /// ends or fails.
    private func frames(_ queue: inout HTTP2BodyQueue, size: Int) -> [String] {
        var frames: [String] = []
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let chunk = buffer.withUnsafeMutableBytes { queue.read(into: $0) }
            switch chunk {
            case .bytes(let count, let last):
                frames.append(String(decoding: buffer[0..<count], as: UTF8.self) + (last ? "|end" : ""))
                if last { return frames }
            case .lastBeforeTrailers(let count):
                frames.append(String(decoding: buffer[0..<count], as: UTF8.self) + "|end before trailers")
                return frames
            case .deferred:
                frames.append("deferred")
                return frames
            case .failed:
                frames.append("failed")
                return frames
            }
        }
    }

    /// A body completed with trailers ends with them: its last frame does
    /// not end the stream, the trailers' HEADERS do.
    func testCompletedWithTrailers_LastFrameCarriesThem() {
        var queue = HTTP2BodyQueue()
        queue.append(ByteBuffer(string: "abcdef"))
        XCTAssertEqual(frames(&queue, size: 4), ["abcd", "ef", "deferred"])
        queue.complete(trailers: true)
        XCTAssertEqual(frames(&queue, size: 4), ["|end before trailers"])
    }

    func testWholeBytes_CutIntoFrames_LastMarked() {
        var queue = HTTP2BodyQueue(bytes: ByteBuffer(string: "abcdefgh"))
        XCTAssertEqual(frames(&queue, size: 3), ["abc", "def", "gh|end"])
        XCTAssertEqual(queue.queuedBytes, 0)
    }

    func testStreamedPieces_FramesSpanPieces_DefersWhenEmpty_EndsOnCompletion() {
        var queue = HTTP2BodyQueue()
        queue.append(ByteBuffer(string: "ab"))
        queue.append(ByteBuffer(string: "cde"))
        XCTAssertEqual(queue.queuedBytes, 5)
        XCTAssertEqual(frames(&queue, size: 4), ["abcd", "e", "deferred"])
        XCTAssertTrue(queue.isDeferred)
        queue.append(ByteBuffer(string: "f"))
        queue.complete()
        XCTAssertEqual(frames(&queue, size: 4), ["f|end"])
    }

    func testEmptyCompletedBody_EndsAtOnce() {
        var queue = HTTP2BodyQueue()
        queue.complete()
        XCTAssertEqual(frames(&queue, size: 4), ["|end"])
    }
}
