/// The byte classes of RFC 9110 and 9112 that the decoders check.
enum HTTPSyntax {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B

    /// `tchar` (RFC 9110 §5.6.2): the bytes of a token (a method, a field name).
    private static let tokenBytes: [Bool] = table(extra: "!#$%&'*+-.^_`|~")

    static func isToken(_ byte: UInt8) -> Bool {
        tokenBytes[Int(byte)]
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
    /// an IP literal.
    static func isHost(_ byte: UInt8) -> Bool {
        hostBytes[Int(byte)]
    }

    private static let hostBytes: [Bool] = table(extra: "-._~!$&'()*+,;=%:[]")

    /// Letters, digits and `extra`.
    private static func table(extra: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for byte in extra.utf8 { table[Int(byte)] = true }
        return table
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
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == space || first == tab { slice = slice.dropFirst() }
        while let last = slice.last, last == space || last == tab { slice = slice.dropLast() }
        return slice
    }

    /// The comma-separated members of a list field (RFC 9110 §5.6.1),
    /// lower-cased, empty members dropped.
    static func listMembers(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingOWS().lowercased() }.filter { !$0.isEmpty }
    }
}

extension Substring {
    /// Without leading and trailing SP and HTAB.
    func trimmingOWS() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
