/// A route's path pattern, cut into segments once: literals, `{name}`
/// parameters and a final `*`.
struct HTTPRoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(Substring)
        case parameter(String)
        case rest
    }

    let segments: [Segment]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            if segment == "*" { return .rest }
            if segment.first == "{", segment.last == "}", segment.count > 2 {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(segment)
        }
    }

    /// `nil` when `path` does not match; `.some(nil)` when it matches but a
    /// parameter's percent escape is malformed; the parameters otherwise.
    func match(_ path: Substring) -> [String: String]?? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        var parameters: [String: String] = [:]
        var malformed = false
        var index = 0
        for segment in segments {
            switch segment {
            case .rest:
                let rest = parts[index...].joined(separator: "/")
                guard let decoded = Self.percentDecoded(Substring(rest)) else { return .some(nil) }
                parameters["*"] = decoded
                return .some(parameters)
            case .literal(let literal):
                guard index < parts.count, parts[index] == literal else { return nil }
            case .parameter(let name):
                guard index < parts.count else { return nil }
                if let decoded = Self.percentDecoded(parts[index]) {
                    parameters[name] = decoded
                } else {
                    malformed = true
                }
            }
            index += 1
        }
        guard index == parts.count else { return nil }
        return malformed ? .some(nil) : .some(parameters)
    }

    /// `text` with its `%XX` escapes decoded as UTF-8; `nil` for a broken
    /// escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
