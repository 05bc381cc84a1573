/// Writes a head into memory sized for it (its maker counts first); a
/// write past the end stops the program rather than corrupt memory.
struct HTTPHeadWriter {
    private let memory: UnsafeMutableRawBufferPointer
    private(set) var count = 0

    init(_ memory: UnsafeMutableRawBufferPointer) {
        self.memory = memory
    }

    /// The number of decimal digits of `value` (and its sign).
    static func decimalCount(_ value: Int) -> Int {
        var digits = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }

    @inline(__always)
    mutating func write(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= memory.count - count, "HTTPHeadWriter: a head past its size")
        if let source = bytes.baseAddress {
            (memory.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    @inline(__always)
    mutating func write(literal text: StaticString) {
        write(bytes: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    mutating func write(decimal value: Int) {
        let digits = Self.decimalCount(value)
        precondition(digits <= memory.count - count, "HTTPHeadWriter: a head past its size")
        var rest = value.magnitude
        var index = count + digits - 1
        repeat {
            memory[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        } while rest > 0
        if value < 0 { memory[count] = UInt8(ascii: "-") }
        count += digits
    }

    /// The field that frames a head's body, as requests and responses
    /// write it: `Content-Length`, `Transfer-Encoding: chunked`, or none.
    enum FramingField {
        case none
        case length(Int)
        case chunked

        @inline(__always)
        init(_ body: HTTPResponsePart.BodyFraming) {
            switch body {
            case .none: self = .none
            case .length(let length): self = .length(length)
            case .chunked: self = .chunked
            }
        }

        @inline(__always)
        init(_ body: HTTPRequestHead.BodyFraming) {
            switch body {
            case .none: self = .none
            case .length(let length): self = .length(length)
            case .chunked: self = .chunked
            }
        }

        /// Its line's bytes, with the CRLF.
        @inline(__always)
        var size: Int {
            switch self {
            case .none: 0
            case .length(let length): 16 + HTTPHeadWriter.decimalCount(length) + 2
            case .chunked: 28
            }
        }
    }

    /// Writes `field`'s line (nothing for `.none`).
    @inline(__always)
    mutating func write(_ field: FramingField) {
        switch field {
        case .none:
            break
        case .length(let length):
            write(literal: "Content-Length: ")
            write(decimal: length)
            write(literal: "\r\n")
        case .chunked:
            write(literal: "Transfer-Encoding: chunked\r\n")
        }
    }
}
