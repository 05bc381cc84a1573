import RxUVTestSupport
import XCTest

@testable import RxUVHTTP

/// The byte classes against their definitions in RFC 9110, for every byte.
final class HTTPSyntaxTests: BridgeTestCase {
    private static let letters = Set((UInt8(ascii: "a")...UInt8(ascii: "z")).map { $0 } + (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { $0 })
    private static let digits = Set((UInt8(ascii: "0")...UInt8(ascii: "9")).map { $0 })

    private func check(_ name: String, _ isMember: (UInt8) -> Bool, letters: Bool, digits: Bool, extra: String) {
        var expected = Set(extra.utf8)
        if letters { expected.formUnion(Self.letters) }
        if digits { expected.formUnion(Self.digits) }
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(isMember(byte), expected.contains(byte), "\(name): byte \(byte)")
        }
    }

    /// `tchar` (RFC 9110 §5.6.2).
    func testToken_EveryByte() {
        check("tchar", HTTPSyntax.isToken, letters: true, digits: true, extra: "!#$%&'*+-.^_`|~")
    }

    /// `uri-host [":" port]` bytes (RFC 3986 §3.2.2: unreserved, sub-delims,
    /// `%`, `:` and the brackets of an IP literal).
    func testHost_EveryByte() {
        check("host", HTTPSyntax.isHost, letters: true, digits: true, extra: "-._~!$&'()*+,;=%:[]")
    }
}
