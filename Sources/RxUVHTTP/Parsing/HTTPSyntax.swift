/// The byte classes of RFC 9110 and 9112 that the decoders check.
enum HTTPSyntax {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B

    /// `tchar` (RFC 9110 §5.6.2): the bytes of a token (a method, a field
    /// name): letters, digits and `!#$%&'*+-.^_`|~`.
    @inline(__always)
    static func isToken(_ byte: UInt8) -> Bool {
        isMember(byte, low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE)
    }

    /// A byte of a field value (RFC 9110 §5.5): VCHAR, obs-text, SP, HTAB.
    static func isFieldValue(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || (byte >= 0x21 && byte != 0x7F)
    }

    /// A byte of a request-target: visible ASCII (RFC 9112 §3.2).
    static func isTarget(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte <= 0x7E
    }

    /// A byte of `uri-host [":" port]` (RFC 9110 §7.2, RFC 3986 §3.2.2):
    /// unreserved, sub-delims, `%` of pct-encoded, `:` and the brackets of
    /// an IP literal: letters, digits and `-._~!$&'()*+,;=%:[]`.
    @inline(__always)
    static func isHost(_ byte: UInt8) -> Bool {
        isMember(byte, low: 0x2FFF_7FF2_0000_0000, high: 0x47FF_FFFE_AFFF_FFFE)
    }

    /// Whether `byte` is in the ASCII set whose bits `low` (bytes 0–63)
    /// and `high` (64–127) hold: two constants and a shift, where a table
    /// would cost a lazy global's check per byte.
    @inline(__always)
    private static func isMember(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        switch byte {
        case 0..<64: low & (1 << UInt64(byte)) != 0
        case 64..<128: high & (1 << UInt64(byte - 64)) != 0
        default: false
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The value of a hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `bytes` without leading and trailing SP and HTAB (OWS).
    static func trimmed(_ bytes: HeadSlice) -> HeadSlice {
        var slice = bytes
        while let first = slice.first, first == space || first == tab { slice = slice.dropFirst() }
        while let last = slice.last, last == space || last == tab { slice = slice.dropLast() }
        return slice
    }
}
