import HTTPTypes

/// permessage-deflate (RFC 7692) as this side wants it: set
/// `WebSocketOptions.compression` to offer it (a client) or accept it (a
/// server), through the system's zlib.
///
/// The window and memory this side's compressor uses, and what it asks of
/// the peer's. The defaults suit a server of many sockets: a window of
/// 4 KiB (12 bits) and zlib's memory level 5, about 40 KiB of zlib state
/// for each socket that has sent a compressed message (zlib's own defaults,
/// 15 and 8, take about 260 KiB), and a 4 KiB window asked of the peer,
/// whose messages are then inflated with 4 KiB of window and about 7 KiB of
/// state. zlib's state is made on the first message compressed, or
/// inflated, and kept for the socket's life.
public struct WebSocketCompression: Sendable, Hashable {
    /// The largest window this side compresses with, in bits (9 to 15);
    /// a client offers it as `client_max_window_bits`, a server states it
    /// as `server_max_window_bits` (or less, when the client asks less).
    public var maxWindowBits: Int
    /// The largest window asked of the peer's compressor, in bits (8 to
    /// 15; 15 asks nothing): a smaller one makes inflating its messages
    /// take less memory. A server asks it only of a client that offered
    /// `client_max_window_bits`; a client offers it as
    /// `server_max_window_bits`, with a second offer without it for a
    /// server that cannot honour it.
    public var peerMaxWindowBits: Int
    /// This side forgets its window after each message it sends (stated as
    /// `server_no_context_takeover` or `client_no_context_takeover`): each
    /// message then compresses less well, but the peer keeps no window for
    /// it.
    public var noContextTakeover: Bool
    /// Asks the peer to forget its window after each message.
    public var peerNoContextTakeover: Bool
    /// zlib's compression level: 0 (none) to 9 (smallest); 6 by default.
    public var level: Int
    /// zlib's memory level: 1 to 9 (more memory, a little faster and smaller).
    public var memoryLevel: Int
    /// Messages shorter than this are sent uncompressed (RSV1 is per
    /// message); 0, every message is compressed.
    public var minimumLength: Int

    /// permessage-deflate with these values; the defaults are a server's of
    /// many sockets (above).
    ///
    /// - Precondition: `maxWindowBits` in 9...15, `peerMaxWindowBits` in
    ///   8...15, `level` in 0...9, `memoryLevel` in 1...9, `minimumLength >= 0`.
    public init(
        maxWindowBits: Int = 12, peerMaxWindowBits: Int = 12, noContextTakeover: Bool = false, peerNoContextTakeover: Bool = false, level: Int = 6,
        memoryLevel: Int = 5, minimumLength: Int = 0
    ) {
        precondition((9...15).contains(maxWindowBits), "WebSocketCompression: maxWindowBits must be from 9 to 15")
        precondition((8...15).contains(peerMaxWindowBits), "WebSocketCompression: peerMaxWindowBits must be from 8 to 15")
        precondition((0...9).contains(level), "WebSocketCompression: level must be from 0 to 9")
        precondition((1...9).contains(memoryLevel), "WebSocketCompression: memoryLevel must be from 1 to 9")
        precondition(minimumLength >= 0, "WebSocketCompression: minimumLength must not be negative")
        self.maxWindowBits = maxWindowBits
        self.peerMaxWindowBits = peerMaxWindowBits
        self.noContextTakeover = noContextTakeover
        self.peerNoContextTakeover = peerNoContextTakeover
        self.level = level
        self.memoryLevel = memoryLevel
        self.minimumLength = minimumLength
    }

    // MARK: The server's side of the negotiation

    /// The server's answer to a client's offers (`Sec-WebSocket-Extensions`
    /// members, in the client's order of preference): the first
    /// permessage-deflate offer it can accept, with the parameters it
    /// answers (§7.1): `server_no_context_takeover` when asked or wanted,
    /// `client_no_context_takeover` when wanted, `server_max_window_bits`
    /// no larger than asked nor than `maxWindowBits`, and
    /// `client_max_window_bits` (`peerMaxWindowBits`, no larger than
    /// offered) only to a client that offered it. `nil` when no offer can
    /// be accepted (none, or every one malformed): the socket then runs
    /// uncompressed.
    func accept(_ offers: [String]) -> WebSocketDeflateParameters? {
        for member in offers {
            guard let offer = WebSocketDeflateParameters(parsing: member, isOffer: true) else { continue }
            var answer = WebSocketDeflateParameters()
            answer.serverNoContextTakeover = offer.serverNoContextTakeover || noContextTakeover
            answer.clientNoContextTakeover = offer.clientNoContextTakeover || peerNoContextTakeover
            let serverBits = min(maxWindowBits, offer.serverMaxWindowBits ?? 15)
            if serverBits < 15 || offer.serverMaxWindowBits != nil { answer.serverMaxWindowBits = serverBits }
            if let offered = offer.clientMaxWindowBits, min(peerMaxWindowBits, offered) < 15 {
                answer.clientMaxWindowBits = min(peerMaxWindowBits, offered)
            }
            return answer
        }
        return nil
    }

    // MARK: The client's side of the negotiation

    /// The client's offers, in order: one with every parameter this side
    /// asks, and, when it asks the server's window smaller, a second
    /// without that for a server that cannot honour it (§5).
    var offers: [WebSocketDeflateParameters] {
        let first = WebSocketDeflateParameters(
            serverNoContextTakeover: peerNoContextTakeover, clientNoContextTakeover: noContextTakeover,
            serverMaxWindowBits: peerMaxWindowBits < 15 ? peerMaxWindowBits : nil, clientMaxWindowBits: maxWindowBits)
        guard first.serverMaxWindowBits != nil else { return [first] }
        var second = first
        second.serverMaxWindowBits = nil
        return [first, second]
    }

    /// Checks the server's answer (its `Sec-WebSocket-Extensions` members)
    /// to `offers` (§7.1): none, the socket runs uncompressed; one
    /// permessage-deflate with valid parameters, and a
    /// `client_max_window_bits` no larger than offered. Anything else (an
    /// extension not offered, two, malformed parameters) is a
    /// `WebSocketHandshakeError` whose reason says which.
    func agreement(_ answer: [String], status: HTTPResponse.Status) throws(WebSocketHandshakeError) -> WebSocketDeflateParameters? {
        guard let member = answer.first else { return nil }
        guard answer.count == 1 else {
            throw WebSocketHandshakeError(status: status, reason: "Sec-WebSocket-Extensions names \(answer.count) extensions; one was offered")
        }
        guard let agreed = WebSocketDeflateParameters(parsing: member, isOffer: false) else {
            throw WebSocketHandshakeError(status: status, reason: "Sec-WebSocket-Extensions \(member) is not a permessage-deflate answer to the offer")
        }
        if let bits = agreed.clientMaxWindowBits, bits > maxWindowBits {
            throw WebSocketHandshakeError(status: status, reason: "client_max_window_bits=\(bits) is more than the \(maxWindowBits) offered")
        }
        return agreed
    }
}
