import RxUV
import RxUVHTTPClient

/// The receiving half of permessage-deflate (RFC 7692 §6.2): turns a
/// compressed message's frames back into plain ones before
/// `WebSocketMessageAssembler` sees them.
///
/// A message whose first frame has RSV1 is compressed: each of its frames'
/// payloads is inflated as it comes, through one raw deflate stream, and
/// its last frame's with the `00 00 ff ff` the sender removed (§7.2.2).
/// What comes out has no reserved bit. A message without RSV1 passes as it
/// is. Checked, each a `WebSocketProtocolError`:
/// - RSV1 on a control frame or a continuation frame: `protocolError`
///   (1002, §6.1);
/// - compressed data zlib refuses, or data after its end:
///   `invalidFramePayloadData` (1007);
/// - a message inflating past `maxMessageLength`: `messageTooBig` (1009),
///   seen one byte past the bound, so no more than `maxMessageLength + 1`
///   bytes are ever made from one message (the bomb stops at once).
///
/// zlib's state (the window of `2^windowBits` bytes and about 7 KiB) is made
/// on the first compressed message and kept; with `resetsPerMessage` (the
/// peer takes over no context) the window is forgotten after each message.
/// Used by one connection's decoder, on one thread at a time.
final class WebSocketInflater {
    /// The window, in bits, the peer's compressor may use (9 to 15).
    let windowBits: Int
    /// The window is forgotten after each message.
    let resetsPerMessage: Bool
    /// The most bytes one message may inflate to.
    let maxMessageLength: Int

    private var stream: ZlibInflateStream?
    /// A compressed message is being received.
    private(set) var isInsideCompressedMessage = false
    /// The bytes the message inflated to so far, and its compressed bytes.
    private var inflatedLength = 0
    private var compressedLength = 0
    /// The deflate data ended (a final block) inside this message: any
    /// byte after it but the removed tail is an error.
    private var ended = false
    /// zlib's state could not be copied into this inflater.
    private var copyFailed = false

    /// The tail a sender removes from each compressed message (§7.2.1): the
    /// empty stored block a sync flush ends with.
    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// An inflater of a peer's messages compressed with a window of at most
    /// `2^windowBits` bytes, each inflating to at most `maxMessageLength`.
    init(windowBits: Int, resetsPerMessage: Bool, maxMessageLength: Int) {
        // zlib inflates raw data with windows of 9 to 15 bits; a window of
        // 9 reads data made with one of 8.
        self.windowBits = min(max(windowBits, 9), 15)
        self.resetsPerMessage = resetsPerMessage
        self.maxMessageLength = maxMessageLength
    }

    /// The inflater of what the side `role` receives under the agreed
    /// `parameters`: the peer's window, and its window forgotten after each
    /// message when the peer takes over no context.
    convenience init(_ parameters: WebSocketDeflateParameters, role: WebSocketRole, maxMessageLength: Int) {
        let bits = role == .server ? parameters.clientMaxWindowBits : parameters.serverMaxWindowBits
        let resets = role == .server ? parameters.clientNoContextTakeover : parameters.serverNoContextTakeover
        self.init(windowBits: bits ?? 15, resetsPerMessage: resets, maxMessageLength: maxMessageLength)
    }

    /// A second inflater in this one's state, going on independently: what
    /// keeps `WebSocketMessageDecoder` a value (its copies never share
    /// zlib's state). zlib's state is copied too (`inflateCopy`); when it
    /// cannot be, the copy fails its next compressed message with 1011.
    func copy() -> WebSocketInflater {
        let copy = WebSocketInflater(windowBits: windowBits, resetsPerMessage: resetsPerMessage, maxMessageLength: maxMessageLength)
        copy.isInsideCompressedMessage = isInsideCompressedMessage
        copy.inflatedLength = inflatedLength
        copy.compressedLength = compressedLength
        copy.ended = ended
        if stream != nil {
            copy.stream = stream!.copy()
            copy.copyFailed = copy.stream == nil
        }
        return copy
    }

    /// Whether the frame `header` begins or continues a compressed message,
    /// so its payload counts against the bound only once inflated.
    func compresses(_ header: WebSocketFrameHeader) -> Bool {
        switch header.opcode {
        case .text, .binary: return header.reservedBits.contains(.rsv1)
        case .continuation: return isInsideCompressedMessage
        default: return false
        }
    }

    /// `frame` as the assembler must see it: inflated when its message is
    /// compressed, its RSV1 cleared; others as they are.
    func receive(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketFrame {
        switch frame.opcode {
        case .ping, .pong, .close:
            guard frame.reservedBits.isEmpty else { throw .protocolError("RSV1 on a \(frame.opcode) frame (a control frame is never compressed)") }
            return frame
        case .text, .binary:
            isInsideCompressedMessage = frame.reservedBits.contains(.rsv1)
            inflatedLength = 0
            compressedLength = 0
        case .continuation:
            guard frame.reservedBits.isEmpty else { throw .protocolError("RSV1 on a continuation frame (only a message's first frame carries it)") }
        }
        guard isInsideCompressedMessage else { return frame }
        var pieces: [ByteBuffer] = []
        try inflate(frame.payload, into: &pieces)
        compressedLength += frame.payload.count
        if frame.fin {
            // A message of no compressed byte at all is empty: the tail
            // alone is no deflate data, but some senders write it so.
            if compressedLength > 0 { try inflate(ByteBuffer(Self.tail), into: &pieces, isTail: true) }
            endMessage()
        }
        let payload = pieces.count == 1 ? pieces[0] : ByteBuffer(concatenating: pieces)
        return WebSocketFrame(fin: frame.fin, opcode: frame.opcode, payload: payload)
    }

    /// The message is over: the window forgotten if the peer takes over no
    /// context, or if its data ended with a final block.
    private func endMessage() {
        isInsideCompressedMessage = false
        if resetsPerMessage || ended, stream != nil {
            stream!.reset(windowBits: -Int32(windowBits))
        }
        ended = false
    }

    /// Inflates `input`, appending what it makes to `pieces`. After the
    /// deflate data's end only the tail may follow.
    private func inflate(_ input: ByteBuffer, into pieces: inout [ByteBuffer], isTail: Bool = false) throws(WebSocketProtocolError) {
        guard !input.isEmpty else { return }
        guard !ended else {
            if isTail { return }
            throw WebSocketProtocolError(closeCode: .invalidFramePayloadData, reason: "compressed data after the end of its deflate stream")
        }
        if stream == nil {
            stream = copyFailed ? nil : ZlibInflateStream(windowBits: -Int32(windowBits))
            guard stream != nil else {
                throw WebSocketProtocolError(closeCode: .internalError, reason: "zlib could not start inflating (out of memory)")
            }
        }
        var consumed = 0
        while true {
            let remaining = maxMessageLength - inflatedLength
            // One byte past the bound at most: enough to see a bomb.
            let room = min(remaining + 1, max(256, min(4 * (input.count - consumed), 1 << 20)))
            var made: ZlibInflateStream.Step?
            let piece = ByteBuffer(unsafeUninitializedCapacity: room) { output in
                let step = input.withUnsafeBytes { bytes in
                    stream!.inflate(UnsafeRawBufferPointer(rebasing: bytes[consumed...]), into: output)
                }
                made = step
                return step.succeeded ? step.produced : 0
            }
            guard let step = made, step.succeeded else {
                let reason = made.map { stream!.message(for: $0) } ?? "no call made"
                throw WebSocketProtocolError(
                    closeCode: .invalidFramePayloadData, reason: "a compressed message zlib cannot inflate: \(reason)")
            }
            consumed += step.consumed
            if step.produced > 0 {
                guard step.produced <= remaining else {
                    throw WebSocketProtocolError(closeCode: .messageTooBig, reason: "a compressed message inflating past \(maxMessageLength) bytes")
                }
                inflatedLength += step.produced
                pieces.append(piece)
            }
            if step.ended {
                ended = true
                guard consumed == input.count || isTail else {
                    throw WebSocketProtocolError(closeCode: .invalidFramePayloadData, reason: "compressed data after the end of its deflate stream")
                }
                return
            }
            // All input taken and room to spare: nothing is pending.
            if consumed == input.count && step.produced < room { return }
            // No progress with input left: zlib is stuck on it.
            if step.consumed == 0 && step.produced == 0 {
                throw WebSocketProtocolError(closeCode: .invalidFramePayloadData, reason: "compressed data zlib made no progress on")
            }
        }
    }
}
