import RxUV
import RxUVTestSupport
import RxUVWebSocket
import XCTest

final class WebSocketUTF8ValidatorTests: BridgeTestCase {
    /// Valid texts: every length of sequence at the edges of its range.
    private let valid: [(String, [UInt8])] = [
        ("empty", []), ("ascii", Array("hello, world: 0123456789".utf8)), ("U+0080", [0xC2, 0x80]), ("U+07FF", [0xDF, 0xBF]),
        ("U+0800", [0xE0, 0xA0, 0x80]), ("U+D7FF", [0xED, 0x9F, 0xBF]), ("U+E000", [0xEE, 0x80, 0x80]), ("U+FFFF", [0xEF, 0xBF, 0xBF]),
        ("U+10000", [0xF0, 0x90, 0x80, 0x80]), ("U+10FFFF", [0xF4, 0x8F, 0xBF, 0xBF]), ("U+FEFF", [0xEF, 0xBB, 0xBF]),
        ("mixed", Array("κόσμε €1 𐍈 ascii runs of more than eight bytes, and é".utf8)),
    ]

    /// Invalid texts and the offset of the first byte no valid text has.
    private let invalid: [(String, [UInt8], Int)] = [
        ("lone continuation", [0x80], 0), ("C0 overlong", [0xC0, 0x80], 0), ("C1 overlong", [0xC1, 0xBF], 0),
        ("E0 overlong", [0xE0, 0x80, 0x80], 1), ("E0 9F overlong", [0xE0, 0x9F, 0xBF], 1), ("surrogate D800", [0xED, 0xA0, 0x80], 1),
        ("surrogate DFFF", [0xED, 0xBF, 0xBF], 1), ("F0 overlong", [0xF0, 0x8F, 0xBF, 0xBF], 1), ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80], 1),
        ("F5", [0xF5, 0x80, 0x80, 0x80], 0), ("FE", [0xFE], 0), ("FF", [0xFF], 0), ("lead then ASCII", [0x61, 0xC3, 0x62], 2),
        ("three-byte cut by ASCII", [0xE2, 0x82, 0x41], 2), ("after nine ASCII", Array("123456789".utf8) + [0x80], 9),
        ("two leads", [0xC3, 0xC3, 0xA9], 1), ("five-byte form", [0xF8, 0x88, 0x80, 0x80, 0x80], 0),
        ("after a valid character", Array("é".utf8) + [0xA9], 2),
    ]

    func testValidate_ValidTexts() throws {
        for (name, bytes) in valid {
            var validator = WebSocketUTF8Validator()
            XCTAssertNoThrow(try validator.validate(ByteBuffer(bytes)), name)
            XCTAssertNoThrow(try validator.finish(), name)
            XCTAssertTrue(validator.isAtBoundary, name)
            XCTAssertEqual(validator.count, bytes.count, name)
        }
    }

    /// Each invalid text fails at its first bad byte, whole or fed one byte
    /// at a time (the byte that fails, not the end), and stays failed.
    func testValidate_FailsAtTheFirstInvalidByte() {
        for (name, bytes, offset) in invalid {
            var whole = WebSocketUTF8Validator()
            XCTAssertThrowsError(try whole.validate(ByteBuffer(bytes)), name) { error in
                XCTAssertEqual(error as? WebSocketUTF8Validator.Failure, WebSocketUTF8Validator.Failure(offset: offset, isIncomplete: false), name)
            }
            XCTAssertThrowsError(try whole.validate(ByteBuffer("a".utf8)), "\(name): failed stays failed")
            XCTAssertThrowsError(try whole.finish(), name)
            var byByte = WebSocketUTF8Validator()
            for (index, byte) in bytes.enumerated() {
                do {
                    try byByte.validate(ByteBuffer([byte]))
                    XCTAssertLessThan(index, offset, "\(name): byte \(index) passed")
                } catch {
                    XCTAssertEqual(index, offset, "\(name): failed at byte \(index)")
                    XCTAssertEqual("\(error)", "invalid UTF-8 at byte \(offset)")
                    break
                }
            }
        }
    }

    /// A text that ends inside a character fails at `finish()` only.
    func testFinish_RefusesAnIncompleteSequence() {
        for bytes in [[0xC3], [0xE2, 0x82], [0xF0, 0x90, 0x8D], [0x61, 0xF4, 0x8F, 0xBF]] as [[UInt8]] {
            var validator = WebSocketUTF8Validator()
            XCTAssertNoThrow(try validator.validate(ByteBuffer(bytes)))
            XCTAssertFalse(validator.isAtBoundary)
            XCTAssertThrowsError(try validator.finish()) { error in
                XCTAssertEqual(error as? WebSocketUTF8Validator.Failure, WebSocketUTF8Validator.Failure(offset: bytes.count, isIncomplete: true))
                XCTAssertEqual("\(error)", "UTF-8 cut short at byte \(bytes.count)")
            }
        }
    }

    /// Every multi-byte character split at every byte boundary, with ASCII
    /// around it, in two pieces and in three: valid, and inside the
    /// character not at a boundary.
    func testValidate_SplitAtEveryByteBoundary() {
        for (name, character) in valid where character.count > 1 && character.count <= 4 {
            let text = Array("ab".utf8) + character + Array("cd".utf8)
            for first in 1..<text.count {
                for second in first..<text.count {
                    var validator = WebSocketUTF8Validator()
                    XCTAssertNoThrow(try validator.validate(ByteBuffer(text[..<first])), "\(name) at \(first)")
                    XCTAssertEqual(validator.isAtBoundary, first <= 2 || first >= 2 + character.count, "\(name) at \(first)")
                    XCTAssertNoThrow(try validator.validate(ByteBuffer(text[first..<second])), "\(name) at \(first), \(second)")
                    XCTAssertNoThrow(try validator.validate(ByteBuffer(text[second...])), "\(name) at \(first), \(second)")
                    XCTAssertNoThrow(try validator.finish(), "\(name) at \(first), \(second)")
                }
            }
        }
    }

    /// Random bytes (mostly high ones), in random pieces: valid exactly when
    /// the standard library's UTF-8 decoding finds them valid.
    func testValidate_AgreesWithTheStandardLibraryOnRandomBytes() {
        var generator = SeededGenerator(seed: 3629)
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
        var validCount = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int(generator.next() % 9)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            var validator = WebSocketUTF8Validator()
            let cut = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count + 1))
            let ours =
                (try? validator.validate(ByteBuffer(bytes[..<cut]))) != nil && (try? validator.validate(ByteBuffer(bytes[cut...]))) != nil
                && (try? validator.finish()) != nil
            XCTAssertEqual(ours, expected, "\(bytes.map { String($0, radix: 16) })")
            if expected { validCount += 1 }
        }
        XCTAssertGreaterThan(validCount, 1000, "too few valid samples to mean anything")
    }
}
