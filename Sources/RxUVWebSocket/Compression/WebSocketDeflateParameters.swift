/// The parameters of a permessage-deflate extension (RFC 7692 §7.1), as an
/// offer or a response writes them in `Sec-WebSocket-Extensions`:
/// `permessage-deflate; client_max_window_bits; server_no_context_takeover`.
///
/// On a `WebSocket` (`socket.compression`) they are what the handshake
/// agreed: which side forgets its window after each message (no context
/// takeover) and the largest window each side's compressor may use. The
/// names are the RFC's, by the side they bind: "server" the side that
/// accepted the connection, "client" the side that opened it.
public struct WebSocketDeflateParameters: Sendable, Hashable, CustomStringConvertible {
    /// The extension's name in the header.
    public static let name = "permessage-deflate"

    /// The server forgets its window after each message it sends.
    public var serverNoContextTakeover: Bool
    /// The client forgets its window after each message it sends.
    public var clientNoContextTakeover: Bool
    /// The largest window the server compresses with, in bits (8 to 15);
    /// `nil`, not stated (15).
    public var serverMaxWindowBits: Int?
    /// The largest window the client compresses with, in bits (8 to 15);
    /// `nil`, not stated (15). In an offer, 15 is written without a value:
    /// the client says it can honour a window the server chooses.
    public var clientMaxWindowBits: Int?

    /// Parameters with nothing stated: each side keeps its window, of up to
    /// 32 KiB.
    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false, serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// Reads one extension of a `Sec-WebSocket-Extensions` list (one
    /// comma-separated member); `nil` unless it is permessage-deflate with
    /// valid parameters: each known (§7.1), none twice, no value on the
    /// two no-context-takeover ones, window bits a decimal from 8 to 15
    /// without a leading zero (a quoted one too, §9.1). `isOffer` allows
    /// `client_max_window_bits` without a value, which only an offer may
    /// write (read as 15).
    init?(parsing member: String, isOffer: Bool) {
        let parts = member.split(separator: ";", omittingEmptySubsequences: false).map(Self.trimmed)
        guard let name = parts.first, name.lowercased() == Self.name else { return nil }
        self.init()
        var seen: Set<String> = []
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(Self.trimmed)
            let key = pair[0].lowercased()
            guard !key.isEmpty, seen.insert(key).inserted else { return nil }
            let value = pair.count == 2 ? Self.unquoted(pair[1]) : nil
            switch key {
            case "server_no_context_takeover":
                guard pair.count == 1 else { return nil }
                serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard pair.count == 1 else { return nil }
                clientNoContextTakeover = true
            case "server_max_window_bits":
                guard let bits = value.flatMap(Self.windowBits) else { return nil }
                serverMaxWindowBits = bits
            case "client_max_window_bits":
                if pair.count == 1 {
                    guard isOffer else { return nil }
                    clientMaxWindowBits = 15
                } else {
                    guard let bits = value.flatMap(Self.windowBits) else { return nil }
                    clientMaxWindowBits = bits
                }
            default:
                return nil
            }
        }
    }

    /// `permessage-deflate; server_max_window_bits=12; client_max_window_bits`:
    /// the extension as a header writes it.
    public var description: String {
        var text = Self.name
        if serverNoContextTakeover { text += "; server_no_context_takeover" }
        if clientNoContextTakeover { text += "; client_no_context_takeover" }
        if let serverMaxWindowBits { text += "; server_max_window_bits=\(serverMaxWindowBits)" }
        if let clientMaxWindowBits { text += clientMaxWindowBits == 15 ? "; client_max_window_bits" : "; client_max_window_bits=\(clientMaxWindowBits)" }
        return text
    }

    /// A window's bits: `8` to `15`, digits only, no leading zero.
    private static func windowBits(_ text: Substring) -> Int? {
        guard text.count <= 2, text.first != "0", text.allSatisfy({ $0 >= "0" && $0 <= "9" }), let bits = Int(text), (8...15).contains(bits) else {
            return nil
        }
        return bits
    }

    /// `"10"` as `10`; an unquoted value as it is; `nil` for an unclosed quote.
    private static func unquoted(_ text: Substring) -> Substring? {
        guard text.first == "\"" else { return text }
        guard text.count >= 2, text.last == "\"" else { return nil }
        return text.dropFirst().dropLast()
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
