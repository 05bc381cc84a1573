import RxUV

// Where a head, or a trailer section, ends: found by scanning each byte
// once, however slowly the bytes arrive, with the limits checked on the way.
extension HTTPRequestDecoder {
    /// The length of the head, or of the trailer section (`isHead` false),
    /// up to and with its empty line, once all of it is there; checks the
    /// limits on what is there so far. Each byte is scanned once: the scan
    /// goes on from where the last call stopped.
    mutating func findSectionEnd(_ reader: ByteBuffer.Reader, isHead: Bool) throws -> Int? {
        let available = reader.readableBytes
        let buffer = reader.buffer
        let base = reader.readerIndex
        var index = scanned
        while index < available {
            guard let newline = reader.firstIndex(of: HTTPSyntax.lf, from: index) else {
                index = available
                break
            }
            if isHead, !sawRequestLine {
                guard newline <= limits.maxRequestLineLength else {
                    throw HTTPParseError(status: .uriTooLong, reason: "request line over \(limits.maxRequestLineLength) bytes")
                }
                sawRequestLine = true
            }
            // The line after this one is empty: the head ends there.
            // (Its length is checked too: a head that arrives whole in one
            // read is held to the limit as one that arrives in pieces.)
            if newline + 1 < available, buffer[base + newline + 1] == HTTPSyntax.lf {
                try checkHeadLength(newline + 2)
                sawRequestLine = false
                return newline + 2
            }
            if newline + 2 < available, buffer[base + newline + 1] == HTTPSyntax.cr, buffer[base + newline + 2] == HTTPSyntax.lf {
                try checkHeadLength(newline + 3)
                sawRequestLine = false
                return newline + 3
            }
            if newline + 2 >= available {
                // Not known yet whether the next line is empty: look again
                // from this newline when more bytes come.
                scanned = newline
                try checkHeadLength(available)
                return nil
            }
            index = newline + 1
        }
        if isHead, !sawRequestLine, available > limits.maxRequestLineLength {
            throw HTTPParseError(status: .uriTooLong, reason: "request line over \(limits.maxRequestLineLength) bytes")
        }
        scanned = max(available - 1, 0)
        try checkHeadLength(available)
        return nil
    }

    private func checkHeadLength(_ length: Int) throws {
        if length > limits.maxHeadLength {
            throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "head over \(limits.maxHeadLength) bytes")
        }
    }
}
