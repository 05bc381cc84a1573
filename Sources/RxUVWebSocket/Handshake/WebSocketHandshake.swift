import HTTPTypes

/// The values of WebSocket's opening handshake (RFC 6455 §4): the key a
/// client sends and the accept value that proves a server read it.
public enum WebSocketHandshake {
    /// The GUID the accept value is made with (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for `key`: the base64 of the SHA-1 of the key
    /// and the GUID (§4.2.2).
    public static func accept(forKey key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + guid).utf8)))
    }

    /// A new `Sec-WebSocket-Key`: 16 bytes of `generator`, in base64
    /// (§4.1).
    public static func makeKey(using generator: inout some RandomNumberGenerator) -> String {
        Base64.encode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// A new `Sec-WebSocket-Key` from the system's random source.
    public static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return makeKey(using: &generator)
    }

    /// Whether `key` is a valid `Sec-WebSocket-Key`: base64 of 16 bytes.
    static func isValidKey(_ key: String) -> Bool {
        key.utf8.count == 24 && Base64.decode(key)?.count == 16
    }

    /// The members of the comma-separated fields `name` of `fields`, OWS
    /// trimmed, empty ones dropped (RFC 9110 §5.6.1).
    static func listMembers(_ name: HTTPField.Name, in fields: HTTPFields) -> [String] {
        fields[values: name].flatMap { value in
            value.split(separator: ",").compactMap { member -> String? in
                var trimmed = member
                while let first = trimmed.first, first == " " || first == "\t" { trimmed = trimmed.dropFirst() }
                while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
                return trimmed.isEmpty ? nil : String(trimmed)
            }
        }
    }

    /// Whether the list fields `name` have `token`, its ASCII case folded.
    static func lists(_ token: String, in name: HTTPField.Name, of fields: HTTPFields) -> Bool {
        listMembers(name, in: fields).contains { $0.lowercased() == token }
    }
}
