import HTTPTypes

// What a head's fields mean for the request: Host, the body's framing
// (RFC 9112 §6, `HTTPFramingFields`), keep-alive, Expect, Upgrade.
extension HTTPRequestDecoder {
    /// The request's meaning: Host checked (unless `hostChecked`), the
    /// body's framing, keep-alive, Expect, Upgrade.
    func interpret(
        minor: Int, framing: HTTPFramingFields, hostChecked: Bool
    ) throws -> (body: HTTPRequestHead.BodyFraming, keepAlive: Bool, expectsContinue: Bool, asksToUpgrade: Bool) {
        // Host becomes the request's authority (swift-http-types keeps it
        // out of the header fields, as HTTP/2's :authority).
        if minor >= 1, framing.hostCount != 1 {
            throw HTTPParseError.badRequest(framing.hostCount == 0 ? "no Host" : "more than one Host")
        }
        if framing.hostCount > 1 { throw HTTPParseError.badRequest("more than one Host") }
        if !hostChecked, let host = framing.host, !host.allSatisfy(HTTPSyntax.isHost) {
            throw HTTPParseError.badRequest("malformed Host")
        }
        let body: HTTPRequestHead.BodyFraming =
            switch try framing.declaredFraming(minor: minor, limits: limits, mergingIdentical: false) {
            case .chunked: .chunked
            case .length(let length) where length > 0: .length(length)
            default: .none
            }
        let keepAlive = framing.keepAlive(minor: minor)
        let expects = minor >= 1 && body != .none && framing.expectsContinue
        return (body, keepAlive, expects, framing.asksToUpgrade(minor: minor))
    }
}
