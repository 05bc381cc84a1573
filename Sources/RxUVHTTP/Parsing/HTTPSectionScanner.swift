import RxUV

/// Where a head, or a trailer section, ends: found by scanning each byte
/// once, however slowly the bytes arrive, with the limits checked on the
/// way. One per decoder, request or response: it keeps how far the
/// section in hand was scanned.
struct HTTPSectionScanner {
    /// What a head's first line is, for the error when it is too long.
    enum FirstLine {
        /// A request line: `414 URI Too Long`.
        case request
        /// A response's status line.
        case status
    }

    /// The kind of head scanned.
    let firstLine: FirstLine
    /// Bytes of the section already scanned for its end.
    private(set) var scanned = 0
    /// The head's first line ended within `maxRequestLineLength`.
    private var sawFirstLine = false
    /// Where the line being scanned starts, for `maxFieldLineLength`.
    private var lineStart = 0

    init(_ firstLine: FirstLine) {
        self.firstLine = firstLine
    }

    /// Whether no byte of the section in hand was scanned yet.
    var atStart: Bool { scanned == 0 }

    /// The section in hand was read: the next one starts unscanned.
    mutating func reset() {
        scanned = 0
        sawFirstLine = false
        lineStart = 0
    }

    /// The length of the head, or of the trailer section (`isHead` false),
    /// up to and with its empty line, once all of it is there; checks the
    /// limits on what is there so far. Each byte is scanned once: the scan
    /// goes on from where the last call stopped.
    mutating func sectionEnd(_ reader: ByteBuffer.Reader, isHead: Bool, limits: HTTPLimits) throws -> Int? {
        let available = reader.readableBytes
        let buffer = reader.buffer
        let base = reader.readerIndex
        var index = scanned
        while index < available {
            guard let newline = reader.firstIndex(of: HTTPSyntax.lf, from: index) else {
                index = available
                break
            }
            // A newline seen for the first time ends a line: the first
            // line's limit, or a field line's.
            if newline >= lineStart {
                if isHead, !sawFirstLine {
                    guard newline <= limits.maxRequestLineLength else { throw firstLineTooLong(limits) }
                    sawFirstLine = true
                } else {
                    let end = newline > lineStart && buffer[base + newline - 1] == HTTPSyntax.cr ? newline - 1 : newline
                    try checkFieldLine(end - lineStart, limits)
                }
                lineStart = newline + 1
            }
            // The line after this one is empty: the head ends there.
            // (Its length is checked too: a head that arrives whole in one
            // read is held to the limit as one that arrives in pieces.)
            if newline + 1 < available, buffer[base + newline + 1] == HTTPSyntax.lf {
                try checkHeadLength(newline + 2, limits)
                sawFirstLine = false
                lineStart = 0
                return newline + 2
            }
            if newline + 2 < available, buffer[base + newline + 1] == HTTPSyntax.cr, buffer[base + newline + 2] == HTTPSyntax.lf {
                try checkHeadLength(newline + 3, limits)
                sawFirstLine = false
                lineStart = 0
                return newline + 3
            }
            if newline + 2 >= available {
                // Not known yet whether the next line is empty: look again
                // from this newline when more bytes come.
                scanned = newline
                try checkHeadLength(available, limits)
                return nil
            }
            index = newline + 1
        }
        if isHead, !sawFirstLine, available > limits.maxRequestLineLength {
            throw firstLineTooLong(limits)
        }
        // A field line not ended yet, already past its limit (a CR may
        // still come to end it).
        if !isHead || sawFirstLine {
            try checkFieldLine(available - lineStart - 1, limits)
        }
        scanned = max(available - 1, 0)
        try checkHeadLength(available, limits)
        return nil
    }

    private func firstLineTooLong(_ limits: HTTPLimits) -> HTTPParseError {
        switch firstLine {
        case .request: HTTPParseError(status: .uriTooLong, reason: "request line over \(limits.maxRequestLineLength) bytes")
        case .status: HTTPParseError(status: .uriTooLong, reason: "status line over \(limits.maxRequestLineLength) bytes")
        }
    }

    /// The line from `lineStart`, `length` bytes long so far, is checked.
    /// A line over the limit shows it once `maxFieldLineLength + 2` of its
    /// bytes are there; if the head is over its own limit by then, that is
    /// the error, as it would be when the bytes come one by one: the
    /// verdict is the same however they arrive.
    private func checkFieldLine(_ length: Int, _ limits: HTTPLimits) throws {
        guard length > limits.maxFieldLineLength else { return }
        try checkHeadLength(lineStart + limits.maxFieldLineLength + 2, limits)
        throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "field line over \(limits.maxFieldLineLength) bytes")
    }

    private func checkHeadLength(_ length: Int, _ limits: HTTPLimits) throws {
        if length > limits.maxHeadLength {
            throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "head over \(limits.maxHeadLength) bytes")
        }
    }
}
