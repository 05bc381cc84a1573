import RxUV

/// Cuts a byte stream into text lines, refusing lines longer than a limit
/// instead of buffering them.
///
/// A line ends at `\n` (a `\r` before it is dropped). Invalid UTF-8 becomes
/// U+FFFD and control characters are removed, so binary garbage turns into
/// harmless text. A line that grows past `maxLength` bytes yields one
/// `.tooLong` at once; its remaining bytes are skipped up to the next `\n`.
/// An unfinished line at the end of the stream is never yielded.
struct LineFramer {
    /// What one push produced, in order.
    enum Frame: Equatable {
        /// A complete line, without its line ending.
        case line(String)
        /// A line longer than `maxLength` bytes was dropped.
        case tooLong
    }

    /// The longest line accepted, in bytes, without the line ending.
    let maxLength: Int
    /// The frames completed by the last `push`.
    private(set) var frames: [Frame] = []
    private var partial: [UInt8] = []
    private var skippingLongLine = false

    init(maxLength: Int) {
        self.maxLength = maxLength
    }

    /// Adds `bytes`; `frames` then holds the lines they completed.
    mutating func push(_ bytes: ByteBuffer) {
        frames.removeAll(keepingCapacity: true)
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !skippingLongLine {
                    frames.append(.line(LineFramer.text(of: partial)))
                }
                skippingLongLine = false
                partial.removeAll(keepingCapacity: true)
            } else if !skippingLongLine {
                // One `\r` past the limit may still be the line ending's.
                if partial.count >= maxLength + (byte == UInt8(ascii: "\r") ? 1 : 0) {
                    skippingLongLine = true
                    partial.removeAll(keepingCapacity: false)
                    frames.append(.tooLong)
                } else {
                    partial.append(byte)
                }
            }
        }
    }

    private static func text(of bytes: [UInt8]) -> String {
        let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...]
        var scalars = String.UnicodeScalarView()
        for scalar in String(decoding: line, as: UTF8.self).unicodeScalars
        where scalar == "\t" || !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
