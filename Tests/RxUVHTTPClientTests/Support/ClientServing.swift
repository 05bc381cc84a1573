import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

extension BridgeTestCase {
    /// Runs `body` on the test's loop with an HTTP server on 127.0.0.1
    /// answering with `handler` and a client made with `configuration`;
    /// then shuts the client down and drains the server (2 s).
    func withClient<Result: Sendable>(
        _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        http: HTTPServerOptions = HTTPServerOptions(),
        handler: @escaping HTTPHandler,
        _ body: @escaping @Sendable (_ client: HTTPClient, _ port: Int) async throws -> Result
    ) throws -> Result {
        try withServer(configuration, { loop in loop.rx.serveHTTP(host: "127.0.0.1", port: 0, http: http, handler: handler) }, body)
    }

    /// Runs `body` with a client and a TCP server on 127.0.0.1 whose every
    /// connection `serve` handles (a server that misbehaves as a test
    /// needs); then shuts the client down and drains the server.
    func withRawServer<Result: Sendable>(
        _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        serve: @escaping @Sendable (TCPConnection) -> Completable,
        _ body: @escaping @Sendable (_ client: HTTPClient, _ port: Int) async throws -> Result
    ) throws -> Result {
        try withServer(configuration, { loop in loop.rx.serve(host: "127.0.0.1", port: 0) { served in serve(served.connection) } }, body)
    }

    /// Runs `body` with an HTTPS server on 127.0.0.1 that offers HTTP/2
    /// and HTTP/1.1 through ALPN (`versions`) and answers with `handler`,
    /// and a client that trusts the test CA; then shuts the client down
    /// and drains the server (2 s).
    func withHTTPSClient<Result: Sendable>(
        _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(tls: TestCertificates.client),
        versions: HTTPVersions = [.http1, .http2], http: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(),
        handler: @escaping HTTPHandler,
        _ body: @escaping @Sendable (_ client: HTTPClient, _ port: Int) async throws -> Result
    ) throws -> Result {
        let context = try TestCertificates.server(applicationProtocols: ["h2", "http/1.1"])
        return try withServer(
            configuration,
            { loop in loop.rx.serveHTTPS(host: "127.0.0.1", port: 0, tls: context, versions: versions, http: http, http2: http2, handler: handler) },
            body)
    }

    /// Runs `body` with a cleartext HTTP/2 server (prior knowledge, `h2c`)
    /// on 127.0.0.1 answering with `handler`, and a client made with
    /// `configuration`; then shuts the client down and drains the server.
    func withH2CClient<Result: Sendable>(
        _ configuration: HTTPClientConfiguration, http: HTTPServerOptions = HTTPServerOptions(), handler: @escaping HTTPHandler,
        _ body: @escaping @Sendable (_ client: HTTPClient, _ port: Int) async throws -> Result
    ) throws -> Result {
        try withServer(configuration, { loop in loop.rx.serveHTTP2(host: "127.0.0.1", port: 0, http: http, handler: handler) }, body)
    }

    /// Runs `body` with the server `start` makes and a client; then shuts
    /// the client down and drains the server (2 s), whether `body` threw
    /// or not.
    private func withServer<Result: Sendable>(
        _ configuration: HTTPClientConfiguration,
        _ start: @escaping @Sendable (Loop) -> Single<Server>,
        _ body: @escaping @Sendable (_ client: HTTPClient, _ port: Int) async throws -> Result
    ) throws -> Result {
        try loop.run { [loop = loop!] in
            let server = try await start(loop).value
            let client = HTTPClient(loop: loop, configuration: configuration)
            do {
                let result = try await body(client, server.address.port)
                try await client.shutdown().value
                try await server.drain(deadline: .seconds(2)).value
                return result
            } catch {
                try? await client.shutdown().value
                try? await server.drain(deadline: .seconds(2)).value
                throw error
            }
        }
    }
}

/// An `https` request to 127.0.0.1:`port` (the test certificate names the
/// address).
func secure(_ port: Int, _ path: String, _ method: HTTPRequest.Method = .get, fields: HTTPFields = [:]) -> HTTPRequest {
    HTTPRequest(method: method, scheme: "https", authority: "127.0.0.1:\(port)", path: path, headerFields: fields)
}

/// A request to 127.0.0.1:`port`.
func local(_ port: Int, _ path: String, _ method: HTTPRequest.Method = .get, fields: HTTPFields = [:]) -> HTTPRequest {
    HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:\(port)", path: path, headerFields: fields)
}

extension HTTPClientResponse {
    /// The body as text (up to 16 MiB).
    func text() async throws -> String {
        try await body.collect(upTo: 16 << 20).value.string
    }
}
