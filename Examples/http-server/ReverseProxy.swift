import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient

/// `/proxy/…` sent on to an upstream server with RxUV's HTTP client: the
/// method, the rest of the path, the fields but the hop-by-hop ones, and
/// the body, each way streamed at the pace of the side that reads it
/// (`values`), so a large upload or download through the proxy holds a
/// few hundred KiB, not the body. The upstream's failures answer `502`
/// (`504` for a timeout).
struct ReverseProxy: Sendable {
    let client: HTTPClient
    /// The upstream's scheme and authority, and the path prefix requests go under.
    let scheme: String
    let authority: String
    let basePath: String

    /// A proxy to `upstream` (`http://127.0.0.1:9000/api`), with a client on `group`.
    init(upstream: String, group: LoopGroup) throws {
        let base = try HTTPRequest(url: upstream)
        scheme = base.scheme ?? "http"
        authority = base.authority ?? ""
        basePath = base.path == "/" ? "" : String((base.path ?? "").prefix { $0 != "?" })
        client = HTTPClient(group: group, configuration: HTTPClientConfiguration(headTimeout: .seconds(30), redirects: .none))
    }

    /// Fields that belong to one connection, not to the message (RFC 9110 §7.6.1).
    static let hopByHop: Set<HTTPField.Name> = [
        .connection, .transferEncoding, .te, .trailer, .upgrade, .proxyAuthorization, .proxyAuthenticate,
        HTTPField.Name("Keep-Alive")!, HTTPField.Name("Proxy-Connection")!,
    ]

    /// The fields of `fields` that go on to the next hop: not the
    /// hop-by-hop ones, nor those `Connection` names, nor the length (the
    /// next hop frames the body itself).
    static func forwarded(_ fields: HTTPFields) -> HTTPFields {
        let named = Set(
            fields[values: .connection].flatMap { $0.split(separator: ",") }
                .compactMap { HTTPField.Name(String($0.filter { $0 != " " && $0 != "\t" })) })
        var kept = HTTPFields()
        for field in fields where !hopByHop.contains(field.name) && !named.contains(field.name) && field.name != .contentLength {
            kept.append(field)
        }
        return kept
    }

    /// The upstream's answer to `request`.
    func answer(_ request: HTTPServerRequest) async throws -> HTTPServerResponse {
        let rest = request.head.path.map { $0.dropFirst("/proxy".count) } ?? ""
        var fields = Self.forwarded(request.head.headerFields)
        if let peer = request.peer {
            fields[HTTPField.Name("X-Forwarded-For")!] = String(peer.prefix { $0 != ":" })
        }
        let upstream = HTTPRequest(
            method: request.head.method, scheme: scheme, authority: authority, path: basePath + (rest.isEmpty ? "/" : rest),
            headerFields: fields)
        do {
            let response = try await client.execute(
                upstream, body: .values(request.body.values, length: request.body.declaredLength))
            return HTTPServerResponse(
                status: response.status, headerFields: Self.forwarded(response.headerFields),
                body: .values(response.body.values, length: response.body.declaredLength))
        } catch let error as HTTPClientError where [.connectTimeout, .headTimeout, .requestTimeout].contains(error.code) {
            return .text("Gateway Timeout: \(error)\n", status: .gatewayTimeout)
        } catch {
            return .text("Bad Gateway: \(error)\n", status: .badGateway)
        }
    }
}
