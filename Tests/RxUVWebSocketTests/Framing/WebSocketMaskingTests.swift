import RxUV
import RxUVTestSupport
import XCTest

@testable import RxUVWebSocket

final class WebSocketMaskingTests: BridgeTestCase {
    /// RFC 6455 §5.7: "Hello" masked with 37 fa 21 3d.
    func testMasking_RFCExample() {
        let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
        XCTAssertEqual(Array(WebSocketMasking.masked(ByteBuffer(string: "Hello"), with: key)), [0x7F, 0x9F, 0x4D, 0x51, 0x58])
        XCTAssertEqual(key.bytes, [0x37, 0xFA, 0x21, 0x3D])
        XCTAssertEqual(key.description, "37fa213d")
        XCTAssertEqual(WebSocketMaskingKey(rawValue: 0x0000_00FF).description, "000000ff")
    }

    /// Every length from 0 to 70 (the eight-byte loop, its tail, both) and
    /// every start within a read, against byte-by-byte XOR; and masking
    /// twice gives the bytes back.
    func testMasking_MatchesByteByByteAtEveryLengthAndOffset() {
        var generator = SeededGenerator(seed: 6455)
        let key = WebSocketMaskingKey(rawValue: UInt32(truncatingIfNeeded: generator.next()))
        let keyBytes = key.bytes
        let read = ByteBuffer((0..<90).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        for offset in 0..<9 {
            for count in 0...70 {
                let expected = (0..<count).map { read[offset + $0] ^ keyBytes[$0 % 4] }
                let masked = WebSocketMasking.masked(read, at: offset, count: count, with: key)
                XCTAssertEqual(Array(masked), expected, "offset \(offset), count \(count)")
                XCTAssertEqual(WebSocketMasking.masked(masked, with: key), read.slice(at: offset, count: count))
            }
        }
    }

    func testMasking_InPlace() {
        let key = WebSocketMaskingKey(1, 2, 3, 4)
        var bytes: [UInt8] = Array(0..<19)
        bytes.withUnsafeMutableBytes { WebSocketMasking.apply(key, inPlace: $0) }
        XCTAssertEqual(bytes, (0..<19).map { UInt8($0) ^ UInt8($0 % 4 + 1) })
    }

    func testMaskingKey_RandomKeysDiffer() {
        let keys = Set((0..<16).map { _ in WebSocketMaskingKey.random() })
        XCTAssertGreaterThan(keys.count, 1, "sixteen random keys were all the same")
    }
}
