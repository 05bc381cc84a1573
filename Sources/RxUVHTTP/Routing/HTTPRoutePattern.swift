/// A route's path pattern, cut into segments once: literals, `{name}`
/// parameters and a final `*`.
struct HTTPRoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        /// A literal segment's UTF-8 bytes.
        case literal([UInt8])
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
            return .literal(Array(segment.utf8))
        }
    }

    /// The pattern, written again from its segments (`/users/{id}`): a
    /// traced request's `http.route`. Made when asked, so that a route
    /// holds nothing more for it.
    var text: String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let bytes): String(decoding: bytes, as: UTF8.self)
                case .parameter(let name): "{\(name)}"
                case .rest: "*"
                }
            }.joined(separator: "/")
    }

    /// The path of a pattern of literal segments only (`/a/b`), which the
    /// router finds without matching; `nil` for any other.
    var literalPath: String? {
        var path = ""
        for segment in segments {
            guard case .literal(let literal) = segment else { return nil }
            path += "/" + String(decoding: literal, as: UTF8.self)
        }
        return path.isEmpty ? "/" : path
    }

    /// `nil` when `path` (a path's UTF-8 bytes) does not match;
    /// `.some(nil)` when it matches but a parameter's percent escape is
    /// malformed; the parameters otherwise. Walks the bytes once,
    /// allocating only the parameters: a match over `Substring`s compared
    /// and searched characters, grapheme by grapheme (a sixth of the
    /// server's time on a route of static files).
    func match(_ path: UnsafeBufferPointer<UInt8>) -> [String: String]?? {
        let slash = UInt8(ascii: "/")
        var parameters: [String: String] = [:]
        var malformed = false
        var at = 0
        for segment in segments {
            while at < path.count, path[at] == slash { at += 1 }
            if case .rest = segment {
                guard let decoded = Self.percentDecoded(UnsafeBufferPointer(rebasing: path[at...])) else { return .some(nil) }
                parameters["*"] = decoded
                return .some(parameters)
            }
            guard at < path.count else { return nil }
            var end = at
            while end < path.count, path[end] != slash { end += 1 }
            let part = UnsafeBufferPointer(rebasing: path[at..<end])
            switch segment {
            case .literal(let literal):
                guard part.elementsEqual(literal) else { return nil }
            case .parameter(let name):
                if let decoded = Self.percentDecoded(part) {
                    parameters[name] = decoded
                } else {
                    malformed = true
                }
            case .rest:
                break
            }
            at = end
        }
        while at < path.count, path[at] == slash { at += 1 }
        guard at == path.count else { return nil }
        return malformed ? .some(nil) : .some(parameters)
    }

    /// `text` (UTF-8 bytes, cut at a `/` of a valid string) with its `%XX`
    /// escapes decoded as UTF-8; `nil` for a broken escape or bytes that
    /// are not UTF-8.
    static func percentDecoded(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        guard text.contains(UInt8(ascii: "%")) else { return String(decoding: text, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var iterator = text.makeIterator()
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
