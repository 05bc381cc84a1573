import RxUV

/// One sample of the statsd line protocol: `name:value|type[|@rate]`.
///
/// A line may carry several samples for one name (`gorets:1|c:2|c`), and a
/// datagram several lines, separated by newlines.
struct StatsdSample: Equatable {
    enum Kind: Equatable {
        /// `c`: add `value / rate` to the counter.
        case counter
        /// `g`: set the gauge to `value`, or, for a signed `value`
        /// (`+3`, `-3`), change it by that much.
        case gauge(isDelta: Bool)
        /// `ms` or `h`: one timing (a histogram is a timer in statsd).
        case timer
        /// `s`: one member of the set, counted once per flush however often
        /// it comes.
        case set(String)
    }

    var name: String
    var kind: Kind
    /// The number; 0 for a set.
    var value: Double
    /// The sample rate, (0, 1] in practice; 1 when the line has none.
    var rate: Double
}

/// Parses statsd datagrams, byte by byte, as etsy statsd does: a bad sample
/// is counted and skipped, never fatal.
enum StatsdParser {
    /// Calls `sample` for each good sample of `datagram`, `badLine` for each
    /// bad one; returns the number of lines (non-empty, statsd's
    /// `metrics_received`).
    static func parse(_ datagram: ByteBuffer, sample: (StatsdSample) -> Void, badLine: () -> Void) -> Int {
        datagram.withUnsafeBytes { bytes in
            var lines = 0
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                var lineEnd = end
                if lineEnd > start, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                if lineEnd > start {
                    lines += 1
                    parseLine(UnsafeRawBufferPointer(rebasing: bytes[start..<lineEnd]), sample: sample, badLine: badLine)
                }
                start = end + 1
            }
            return lines
        }
    }

    /// `name:sample[:sample...]`; a line without a colon is a bad line.
    private static func parseLine(_ line: UnsafeRawBufferPointer, sample: (StatsdSample) -> Void, badLine: () -> Void) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            badLine()
            return
        }
        let name = sanitizedName(UnsafeRawBufferPointer(rebasing: line[..<colon]))
        guard !name.isEmpty else {
            badLine()
            return
        }
        var start = colon + 1
        while true {
            var end = start
            while end < line.count, line[end] != UInt8(ascii: ":") { end += 1 }
            if let parsed = parseSample(UnsafeRawBufferPointer(rebasing: line[start..<end]), name: name) {
                sample(parsed)
            } else {
                badLine()
            }
            guard end < line.count else { return }
            start = end + 1
        }
    }

    /// `value|type[|@rate]`, checked as statsd's `is_valid_packet` does,
    /// and a little stricter: an unknown type, a rate that is not above 0,
    /// or a value that is not a finite number is a bad line.
    private static func parseSample(_ text: UnsafeRawBufferPointer, name: String) -> StatsdSample? {
        // Up to three fields, found without an array (no allocation per sample).
        guard let firstBar = text.firstIndex(of: UInt8(ascii: "|")) else { return nil }
        let rest = text[(firstBar + 1)...]
        let secondBar = rest.firstIndex(of: UInt8(ascii: "|"))
        let type = UnsafeRawBufferPointer(rebasing: rest[..<(secondBar ?? text.count)])
        var rate = 1.0
        if let secondBar {
            let field = UnsafeRawBufferPointer(rebasing: text[(secondBar + 1)...])
            guard field.count > 1, field[0] == UInt8(ascii: "@"), let parsed = number(UnsafeRawBufferPointer(rebasing: field[1...])), parsed > 0 else {
                return nil
            }
            rate = parsed
        }
        let value = UnsafeRawBufferPointer(rebasing: text[..<firstBar])
        if equals(type, "s") {
            let member = value.isEmpty ? "0" : String(decoding: value, as: UTF8.self)
            return StatsdSample(name: name, kind: .set(member), value: 0, rate: rate)
        }
        guard let number = number(value) else { return nil }
        if equals(type, "c") {
            return StatsdSample(name: name, kind: .counter, value: number, rate: rate)
        }
        if equals(type, "ms") || equals(type, "h") {
            return StatsdSample(name: name, kind: .timer, value: number, rate: rate)
        }
        if equals(type, "g") {
            let signed = value[0] == UInt8(ascii: "+") || value[0] == UInt8(ascii: "-")
            return StatsdSample(name: name, kind: .gauge(isDelta: signed), value: number, rate: rate)
        }
        return nil
    }

    /// A finite decimal number (`12`, `-3.5`, `+2`, `1e3`); `nil` otherwise.
    private static func number(_ text: UnsafeRawBufferPointer) -> Double? {
        guard !text.isEmpty, text.count <= 64 else { return nil }
        // Only digits, signs, a point and an exponent: Double(_:) would also
        // take "nan", "inf" and hexadecimal.
        for byte in text {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                continue
            default:
                return nil
            }
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && (0..<bytes.count).allSatisfy { bytes[$0] == literal.utf8Start[$0] }
    }

    /// statsd's key sanitizing: runs of whitespace become `_`, `/` becomes
    /// `-`, and anything but letters, digits, `_`, `-` and `.` is dropped.
    static func sanitizedName(_ bytes: UnsafeRawBufferPointer) -> String {
        func allowed(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default:
                false
            }
        }
        if bytes.allSatisfy(allowed) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var cleaned: [UInt8] = []
        var inSpace = false
        for byte in bytes {
            let isSpace = byte == UInt8(ascii: " ") || (9...13).contains(byte)
            if isSpace {
                if !inSpace { cleaned.append(UInt8(ascii: "_")) }
            } else if byte == UInt8(ascii: "/") {
                cleaned.append(UInt8(ascii: "-"))
            } else if allowed(byte) {
                cleaned.append(byte)
            }
            inSpace = isSpace
        }
        return String(decoding: cleaned, as: UTF8.self)
    }
}
