import FuzzSupport
import RxUV
import RxUVWebSocket

/// The WebSocket decoders: no crash, every limit kept, every failure a
/// `WebSocketProtocolError` whose code is one to send (1002, 1007, 1009)
/// or the stream's end (1006), the events in their grammar, and the same
/// frames, events and failure however the stream is cut. The choice byte
/// also picks the role (bit 0: server or client) and whether RSV1 is
/// allowed (bit 1: permessage-deflate agreed, its peer's window forgotten
/// after each message when bit 2 is set) and whether messages past 16
/// bytes are passed on as fragments (bit 3), so both masking rules, the
/// extension's bit, the inflater (bombs stopped at the message bound) and
/// streamed messages (their pieces in order, first to last, one kind) are
/// reached. Each frame decoded is written again by the peer's encoder and
/// read back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let role: WebSocketRole = input.choice & 1 == 0 ? .server : .client
    let allowed: WebSocketReservedBits = input.choice & 2 == 0 ? [] : .rsv1
    let maxFrameLength = 64
    let maxMessageLength = 128

    // The frames alone.
    let frameDecoder = WebSocketFrameDecoder(role: role, maxFrameLength: maxFrameLength, allowedReservedBits: allowed)
    let splitFrames = frameDecoder.decodeAll(input.reads)
    let wholeFrames = frameDecoder.decodeAll(input.whole)
    require(splitFrames.frames == wholeFrames.frames, "frames depend on the reads")
    require(splitFrames.failure == wholeFrames.failure, "the frames' failure depends on the reads: \(splitFrames.failure ?? "none") / \(wholeFrames.failure ?? "none")")
    checkFailure(splitFrames.error, allowsEnd: true)
    let peer = WebSocketFrameEncoder(role: role == .server ? .client : .server, makeMaskingKey: { WebSocketMaskingKey(rawValue: 0x0102_0304) })
    for frame in splitFrames.frames {
        require(frame.payload.count <= maxFrameLength, "a frame past the limit")
        require(frame.reservedBits.isSubset(of: allowed), "a reserved bit not allowed")
        if frame.opcode.isControl { require(frame.fin && frame.payload.count <= 125, "a fragmented or long control frame") }
        do {
            let again = frameDecoder.decodeAll([try peer.encode(frame)])
            require(again.frames == [frame] && again.error == nil, "a frame written again reads back otherwise: \(frame)")
        } catch {
            require(false, "a decoded frame the encoder refuses: \(frame) (\(error))")
        }
    }

    // The events.
    let deflate =
        allowed.isEmpty
        ? nil
        : WebSocketDeflateParameters(serverNoContextTakeover: input.choice & 4 != 0, clientNoContextTakeover: input.choice & 4 != 0)
    let threshold = input.choice & 8 == 0 ? nil : 16
    let decoder = WebSocketMessageDecoder(
        role: role, maxFrameLength: maxFrameLength, maxMessageLength: maxMessageLength, streamingThreshold: threshold, deflate: deflate)
    let split = decoder.decodeAll(input.reads)
    let whole = decoder.decodeAll(input.whole)
    require(split.frames == whole.frames, "events depend on the reads")
    require(split.failure == whole.failure, "the failure depends on the reads: \(split.failure ?? "none") / \(whole.failure ?? "none")")
    checkFailure(split.error, allowsEnd: true)
    var bytes = 0
    var streamed: (opcode: WebSocketOpcode, length: Int)?
    for (index, event) in split.frames.enumerated() {
        if case .fragment = event {} else if case .message = event { require(streamed == nil, "a message inside a streamed one") }
        switch event {
        case .message(.text(let text)):
            require(text.utf8.count <= maxMessageLength, "a text past the limit")
            bytes += text.utf8.count
        case .message(.binary(let payload)):
            require(payload.count <= maxMessageLength, "a message past the limit")
            bytes += payload.count
        case .message(.stream):
            require(false, "a stream from the decoder (only the socket makes them)")
        case .fragment(let fragment):
            require(threshold != nil, "a fragment without a threshold")
            require(fragment.isFirst == (streamed == nil), "a fragment out of order")
            let length = (streamed?.length ?? 0) + fragment.bytes.count
            require(fragment.isFirst ? length > 16 : fragment.opcode == streamed?.opcode, "a first fragment within the threshold, or of another kind")
            require(length <= maxMessageLength, "a streamed message past the limit")
            streamed = fragment.isLast ? nil : (fragment.opcode, length)
            bytes += fragment.bytes.count
        case .ping(let payload), .pong(let payload):
            require(payload.count <= 125, "a control payload over 125 bytes")
            bytes += payload.count
        case .close(let close):
            require(index == split.frames.count - 1, "an event after the close")
            require(close.code.isValidReceived || close.code == .noStatusReceived, "a close with the code \(close.code)")
            require(close.reason.utf8.count <= 123, "a close reason over 123 bytes")
        }
    }
    // Inflated messages may be longer than their input; others never.
    require(deflate != nil || bytes <= input.bytes.count, "more payload than input")
    // A clean end only after the peer's close.
    if split.error == nil {
        guard case .close = split.frames.last else {
            require(false, "a clean end without a close")
            return 0
        }
    }
    return 0
}

/// A failure must be a `WebSocketProtocolError` with a code to send (1002,
/// 1007, 1009) or, when `allowsEnd`, the stream's end (1006).
private func checkFailure(_ error: (any Error)?, allowsEnd: Bool) {
    guard let error else { return }
    guard let failure = error as? WebSocketProtocolError else {
        require(false, "an unexpected failure: \(error)")
        return
    }
    let codes: [WebSocketCloseCode] = [.protocolError, .invalidFramePayloadData, .messageTooBig] + (allowsEnd ? [.abnormalClosure] : [])
    require(codes.contains(failure.closeCode), "a failure with the code \(failure.closeCode)")
    require(failure.closeCode == .abnormalClosure || failure.closeCode.isSendable, "a failure with a code that cannot be sent")
    require(!failure.reason.isEmpty, "a failure without a reason")
}
