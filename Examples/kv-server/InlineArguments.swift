import RxUV

/// Splits an inline command line into arguments the way Redis does
/// (`sdssplitargs`): words separated by blanks; "double quotes" with the
/// escapes `\n \r \t \b \a \\ \"` and `\xHH`; 'single quotes' with `\'`.
/// A closing quote must be followed by a blank or the end of the line. The
/// line ends at its first NUL byte, as it does for Redis's C string.
enum InlineArguments {
    /// The arguments, or `nil` for unbalanced quotes.
    static func split(_ line: ByteBuffer) -> [ByteBuffer]? {
        let end = line.firstIndex(of: 0) ?? line.count
        var words: [ByteBuffer] = []
        var index = 0
        func byte(_ at: Int) -> UInt8 { at < end ? line[at] : 0 }
        /// A closing quote must be followed by a blank or the end of the line.
        func closesWord(at next: Int) -> Bool { next >= end || isSpace(line[next]) }
        while true {
            while index < end, isSpace(line[index]) { index += 1 }
            guard index < end else { return words }
            // The common word, with no quote in it, is a slice of the line
            // (no copy); a quote sends the word, from its start, to the
            // byte-by-byte reading below.
            let start = index
            while index < end, !endsPlainWord(line[index]) { index += 1 }
            if index >= end || !isQuote(line[index]) {
                words.append(line.slice(at: start, count: index - start))
                if index < end { index += 1 }
                continue
            }
            index = start
            var word: [UInt8] = []
            var inDouble = false
            var inSingle = false
            var done = false
            while !done {
                let current = byte(index)
                if inDouble {
                    if current == UInt8(ascii: "\\"), byte(index + 1) == UInt8(ascii: "x"),
                        let high = hexValue(byte(index + 2)), let low = hexValue(byte(index + 3))
                    {
                        word.append(high << 4 | low)
                        index += 3
                    } else if current == UInt8(ascii: "\\"), index + 1 < end {
                        index += 1
                        word.append(unescaped(line[index]))
                    } else if current == UInt8(ascii: "\"") {
                        guard closesWord(at: index + 1) else { return nil }
                        done = true
                    } else if index >= end {
                        return nil
                    } else {
                        word.append(current)
                    }
                } else if inSingle {
                    if current == UInt8(ascii: "\\"), byte(index + 1) == UInt8(ascii: "'") {
                        index += 1
                        word.append(UInt8(ascii: "'"))
                    } else if current == UInt8(ascii: "'") {
                        guard closesWord(at: index + 1) else { return nil }
                        done = true
                    } else if index >= end {
                        return nil
                    } else {
                        word.append(current)
                    }
                } else if index >= end {
                    done = true
                } else {
                    switch current {
                    case UInt8(ascii: " "), 10, 13, 9: done = true
                    case UInt8(ascii: "\""): inDouble = true
                    case UInt8(ascii: "'"): inSingle = true
                    default: word.append(current)
                    }
                }
                if index < end { index += 1 }
            }
            words.append(ByteBuffer(word))
        }
    }

    /// Whether `byte` ends a word outside quotes (space, LF, CR, tab; not
    /// VT or FF, as in Redis) or opens a quote.
    private static func endsPlainWord(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), 10, 13, 9, UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }

    private static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// C's `isspace`: space, tab, LF, VT, FF, CR.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || (9...13).contains(byte)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func unescaped(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "n"): 10
        case UInt8(ascii: "r"): 13
        case UInt8(ascii: "t"): 9
        case UInt8(ascii: "b"): 8
        case UInt8(ascii: "a"): 7
        default: byte
        }
    }
}
