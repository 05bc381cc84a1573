import RxUV

/// A frame's header (RFC 6455 §5.2), read and checked: what
/// `WebSocketFrameDecoder` knows of a frame before its payload is there.
struct WebSocketFrameHeader: Sendable, Hashable {
    /// The FIN bit.
    var fin: Bool
    /// RSV1–RSV3, only those allowed.
    var reservedBits: WebSocketReservedBits
    /// A defined opcode.
    var opcode: WebSocketOpcode
    /// The masking key, when the frame is masked.
    var maskingKey: WebSocketMaskingKey?
    /// The payload's length, within the decoder's limit.
    var payloadLength: Int
    /// The header's length: 2, plus 2 or 8 for an extended length, plus 4
    /// for a masking key.
    var length: Int

    /// The header at the front of `reader` (not moving it), checked for the
    /// `role` that receives it; `nil` while its bytes are not all there.
    ///
    /// Each field is checked as soon as its byte is there, in the order of
    /// the wire: the opcode (a reserved one), the reserved bits (one not in
    /// `allowedReservedBits`), a control frame without FIN or with a length
    /// over 125, the mask bit (which must be set for a server, clear for a
    /// client), then the extended length (not the shortest form; the top bit
    /// of a 64-bit length set), each a `protocolError`; then a length over
    /// `maxFrameLength`, a `messageTooBig`. So a bad header is refused with
    /// no more bytes than show it bad, and no payload waits on it.
    static func parse(
        _ reader: ByteBuffer.Reader, role: WebSocketRole, allowedReservedBits: WebSocketReservedBits, maxFrameLength: Int
    ) throws(WebSocketProtocolError) -> WebSocketFrameHeader? {
        guard let first = reader.peekInteger(as: UInt8.self) else { return nil }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .protocolError("reserved opcode 0x\(String(first & 0x0F, radix: 16, uppercase: true))")
        }
        let reservedBits = WebSocketReservedBits(rawValue: first)
        guard reservedBits.isSubset(of: allowedReservedBits) else {
            let unexpected = reservedBits.subtracting(allowedReservedBits)
            throw .protocolError("reserved bits 0x\(String(unexpected.rawValue, radix: 16)) set, which no extension negotiated")
        }
        let fin = first & 0x80 != 0
        if opcode.isControl, !fin {
            throw .protocolError("a fragmented control frame (\(opcode) without FIN)")
        }
        guard let second = reader.peekInteger(at: 1, as: UInt8.self) else { return nil }
        let shortLength = Int(second & 0x7F)
        if opcode.isControl, shortLength > 125 {
            throw .protocolError("a \(opcode) frame longer than 125 bytes")
        }
        let masked = second & 0x80 != 0
        if masked != role.receivesMaskedFrames {
            throw .protocolError(masked ? "a masked frame from the server" : "an unmasked frame from the client")
        }
        var length = 2
        let payloadLength: UInt64
        switch shortLength {
        case 126:
            guard let extended = reader.peekInteger(at: 2, as: UInt16.self) else { return nil }
            guard extended > 125 else {
                throw .protocolError("a 16-bit length of \(extended), which 7 bits carry (the shortest form must be used)")
            }
            payloadLength = UInt64(extended)
            length += 2
        case 127:
            guard let extended = reader.peekInteger(at: 2, as: UInt64.self) else { return nil }
            guard extended >> 63 == 0 else {
                throw .protocolError("a 64-bit length with its most significant bit set")
            }
            guard extended > UInt64(UInt16.max) else {
                throw .protocolError("a 64-bit length of \(extended), which 16 bits carry (the shortest form must be used)")
            }
            payloadLength = extended
            length += 8
        default:
            payloadLength = UInt64(shortLength)
        }
        guard payloadLength <= UInt64(maxFrameLength) else {
            throw WebSocketProtocolError(
                closeCode: .messageTooBig, reason: "a frame of \(payloadLength) bytes, over the limit of \(maxFrameLength)")
        }
        var maskingKey: WebSocketMaskingKey?
        if masked {
            guard let key = reader.peekInteger(at: length, as: UInt32.self) else { return nil }
            maskingKey = WebSocketMaskingKey(rawValue: key)
            length += 4
        }
        return WebSocketFrameHeader(
            fin: fin, reservedBits: reservedBits, opcode: opcode, maskingKey: maskingKey, payloadLength: Int(payloadLength), length: length)
    }

    /// The length of the header of a frame of `payloadLength` bytes, masked
    /// or not: the shortest length form.
    static func length(payloadLength: Int, masked: Bool) -> Int {
        2 + extendedLength(payloadLength) + (masked ? 4 : 0)
    }

    /// The bytes of the extended length a payload of `payloadLength` bytes
    /// needs in its shortest form: 0, 2 or 8.
    private static func extendedLength(_ payloadLength: Int) -> Int {
        payloadLength <= 125 ? 0 : payloadLength <= Int(UInt16.max) ? 2 : 8
    }

    /// Writes the header of a frame of `payloadLength` bytes, masked with
    /// `maskingKey` when there is one, at the start of `memory` (which has
    /// room for `length(payloadLength:masked:)` bytes) and returns its
    /// length.
    static func write(
        fin: Bool, reservedBits: WebSocketReservedBits, opcode: WebSocketOpcode, payloadLength: Int, maskingKey: WebSocketMaskingKey?,
        into memory: UnsafeMutableRawBufferPointer
    ) -> Int {
        let extended = extendedLength(payloadLength)
        let length = Self.length(payloadLength: payloadLength, masked: maskingKey != nil)
        precondition(memory.count >= length, "WebSocketFrameHeader: no room for the header")
        memory[0] = (fin ? 0x80 : 0) | reservedBits.rawValue | opcode.rawValue
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch extended {
        case 0:
            memory[1] = maskBit | UInt8(payloadLength)
        case 2:
            memory[1] = maskBit | 126
            memory.storeBytes(of: UInt16(payloadLength).bigEndian, toByteOffset: 2, as: UInt16.self)
        default:
            memory[1] = maskBit | 127
            memory.storeBytes(of: UInt64(payloadLength).bigEndian, toByteOffset: 2, as: UInt64.self)
        }
        if let maskingKey {
            memory.storeBytes(of: maskingKey.rawValue.bigEndian, toByteOffset: 2 + extended, as: UInt32.self)
        }
        return length
    }

    /// The header's bytes for a frame of `payloadLength` bytes, masked with
    /// `maskingKey` when there is one: the shortest length form.
    static func bytes(
        fin: Bool, reservedBits: WebSocketReservedBits, opcode: WebSocketOpcode, payloadLength: Int, maskingKey: WebSocketMaskingKey?
    ) -> ByteBuffer {
        ByteBuffer(unsafeUninitializedCapacity: length(payloadLength: payloadLength, masked: maskingKey != nil)) { memory in
            write(fin: fin, reservedBits: reservedBits, opcode: opcode, payloadLength: payloadLength, maskingKey: maskingKey, into: memory)
        }
    }
}
