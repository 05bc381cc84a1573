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

    /// The path of a pattern of literal segments only (`/a/b`), which the
    /// router finds by a dictionary lookup; `nil` for any other.
    var literalPath: String? {
        var path = ""
        for segment in segments {
            guard case .literal(let literal) = segment else { return nil }
            path += "/" + literal
        }
        return path.isEmpty ? "/" : path
    }

    /// `nil` when `path` does not match; `.some(nil)` when it matches but a
    /// parameter's percent escape is malformed; the parameters otherwise.
    /// Walks the path once, allocating only the parameters.
    func match(_ path: Substring) -> [String: String]?? {
        var parameters: [String: String] = [:]
        var malformed = false
        var rest = path
        for segment in segments {
            if case .rest = segment {
                let remainder = Self.droppingSlashes(rest)
                guard let decoded = Self.percentDecoded(remainder) else { return .some(nil) }
                parameters["*"] = decoded
                return .some(parameters)
            }
            guard let (part, after) = Self.nextSegment(of: rest) else { return nil }
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name):
                if let decoded = Self.percentDecoded(part) {
                    parameters[name] = decoded
                } else {
                    malformed = true
                }
            case .rest:
                break
            }
            rest = after
        }
        guard Self.nextSegment(of: rest) == nil else { return nil }
        return malformed ? .some(nil) : .some(parameters)
    }

    /// The first segment of `path` (leading slashes skipped) and what
    /// follows it; `nil` when no segment is left.
    private static func nextSegment(of path: Substring) -> (Substring, Substring)? {
        let trimmed = droppingSlashes(path)
        guard !trimmed.isEmpty else { return nil }
        let end = trimmed.utf8.firstIndex(of: UInt8(ascii: "/")) ?? trimmed.endIndex
        return (trimmed[..<end], trimmed[end...])
    }

    private static func droppingSlashes(_ path: Substring) -> Substring {
        let start = path.utf8.firstIndex { $0 != UInt8(ascii: "/") } ?? path.endIndex
        return path[start...]
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
