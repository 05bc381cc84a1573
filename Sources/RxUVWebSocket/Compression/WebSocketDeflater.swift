import RxUV

/// The sending half of permessage-deflate (RFC 7692 §7.2.1): compresses a
/// message's payload for a frame with RSV1.
///
/// Each message is compressed through one raw deflate stream and flushed
/// to a byte boundary; the `00 00 ff ff` the flush ends with is removed, as
/// the RFC asks. With `resetsPerMessage` (this side takes over no context:
/// agreed, or chosen) the window is forgotten after each message, so each
/// can be inflated alone. A message shorter than `minimumLength`, and every
/// message when the agreed window is 8 bits (zlib makes no raw deflate data
/// with so small a window), goes uncompressed: RSV1 is per message, so the
/// peer reads either. zlib's state is made on the first message compressed
/// and kept. Used on the socket's loop thread.
final class WebSocketDeflater {
    /// The window, in bits; 8 sends nothing compressed.
    let windowBits: Int
    /// The window is forgotten after each message.
    let resetsPerMessage: Bool
    /// zlib's compression level (0 to 9) and memory level (1 to 9).
    let level: Int
    let memoryLevel: Int
    /// Messages shorter than this go uncompressed.
    let minimumLength: Int

    private var stream: ZlibDeflateStream?
    /// zlib could not make its state once: every message goes uncompressed.
    private var failed = false

    init(windowBits: Int, resetsPerMessage: Bool, level: Int, memoryLevel: Int, minimumLength: Int) {
        self.windowBits = windowBits
        self.resetsPerMessage = resetsPerMessage
        self.level = level
        self.memoryLevel = memoryLevel
        self.minimumLength = minimumLength
    }

    /// The deflater of the side `role` under the agreed `parameters`, with
    /// `compression`'s level, memory and minimum length: the window the
    /// agreement gives this side (a client's no larger than it offered),
    /// and no context takeover when agreed or chosen.
    convenience init(_ parameters: WebSocketDeflateParameters, role: WebSocketRole, compression: WebSocketCompression) {
        let bits = role == .server ? parameters.serverMaxWindowBits ?? 15 : min(compression.maxWindowBits, parameters.clientMaxWindowBits ?? 15)
        let resets = role == .server ? parameters.serverNoContextTakeover : parameters.clientNoContextTakeover
        self.init(
            windowBits: bits, resetsPerMessage: resets || compression.noContextTakeover, level: compression.level,
            memoryLevel: compression.memoryLevel, minimumLength: compression.minimumLength)
    }

    /// `payload` compressed, or `nil` when the message goes uncompressed.
    /// An empty message is the one byte `00` (RFC 7692 §7.2.3.6: an empty
    /// stored block, its lengths the tail the receiver adds), whatever the
    /// window holds: zlib flushes nothing for no new input.
    func compress(_ payload: UnsafeRawBufferPointer) -> ByteBuffer? {
        guard windowBits >= 9, payload.count >= minimumLength, !failed else { return nil }
        guard !payload.isEmpty else { return ByteBuffer([0x00]) }
        if stream == nil {
            stream = ZlibDeflateStream(level: Int32(level), windowBits: Int32(windowBits), memoryLevel: Int32(memoryLevel))
            guard stream != nil else {
                failed = true
                return nil
            }
        }
        var pieces: [ByteBuffer] = []
        var consumed = 0
        while true {
            let room = stream!.bound(payload.count - consumed)
            var made: ZlibDeflateStream.Step?
            let piece = ByteBuffer(unsafeUninitializedCapacity: room) { output in
                let step = stream!.deflate(UnsafeRawBufferPointer(rebasing: payload[consumed...]), into: output)
                made = step
                return step.produced
            }
            // Z_BUF_ERROR is no progress (only with nothing left to do);
            // Z_STREAM_ERROR cannot happen on a stream made and used here.
            guard let step = made, step.status == 0 || step.produced > 0 || step.consumed > 0 else { break }
            consumed += step.consumed
            if step.produced > 0 { pieces.append(piece) }
            // The flush is done when zlib had room left over.
            if consumed == payload.count && step.outputLeft > 0 { break }
        }
        if resetsPerMessage { stream!.reset() }
        var compressed = pieces.count == 1 ? pieces[0] : ByteBuffer(concatenating: pieces)
        // The sync flush's empty block, which the receiver adds back.
        if compressed.count >= 4, compressed.slice(at: compressed.count - 4, count: 4) == ByteBuffer([0x00, 0x00, 0xFF, 0xFF]) {
            compressed = compressed.slice(at: 0, count: compressed.count - 4)
        }
        return compressed
    }
}
