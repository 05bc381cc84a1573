import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// The client over HTTP/2 against a server nobody here wrote: hyper-h2
/// (`h2-edge-server.py`, cleartext with prior knowledge), scripted to
/// misbehave as each path says. Each case is a typed error or the
/// retry the RFC allows, nothing leaks, and the next request is answered.
final class HTTP2ClientEdgeServerTests: BridgeTestCase {
    /// What each request to the edge server comes to: its body, or its
    /// error's kind.
    private func outcomes(_ requests: [(HTTPRequest.Method, String)], configuration: HTTPClientConfiguration) throws -> [String] {
        try withPythonServer([besideTest("h2-edge-server.py")], configuration) { client, port in
            var outcomes: [String] = []
            for (method, path) in requests {
                outcomes.append(await Self.outcome(client, local(port, path, method), body: method == .post ? .string("x") : .empty))
            }
            return outcomes
        }
    }

    static func outcome(_ client: HTTPClient, _ request: HTTPRequest, body: HTTPClientRequestBody = .empty) async -> String {
        do {
            let response = try await client.execute(request, body: body)
            return "\(response.majorVersion) \(response.status.code) " + (try await response.text())
        } catch let error as HTTPClientError {
            return "\(error.code)"
        } catch let error as HTTP2StreamError {
            return "reset \(error.code)"
        } catch let error as HTTPParseError {
            return "parse \(error.status.code)"
        } catch {
            return "other \(type(of: error))"
        }
    }

    private static let configuration = HTTPClientConfiguration(headTimeout: .milliseconds(300), httpVersions: [.http2])

    /// GOAWAY that takes none of the streams: the request goes again on a
    /// new connection. A stream refused (REFUSED_STREAM) goes again too,
    /// a POST included (the server did not process it).
    func testGoAwayAndRefusedStream_AreRetried() throws {
        let outcomes = try outcomes([(.get, "/goaway"), (.post, "/refuse"), (.get, "/ok")], configuration: Self.configuration)
        XCTAssertEqual(outcomes, ["2 200 after goaway", "2 200 after refuse x", "2 200 ok"])
    }

    /// Malformed answers: a head past the limits, no `:status`, a body
    /// shorter than its `content-length`, a reset mid-body, a silent
    /// server; each its own error, and the connection (or a new one)
    /// answers next.
    func testMalformedAnswers_AreTypedErrors() throws {
        var configuration = Self.configuration
        configuration.limits = HTTPLimits(maxHeadLength: 16 * 1024, maxBodyLength: .max)
        let outcomes = try outcomes(
            [
                (.get, "/big-head"), (.get, "/ok"), (.get, "/no-status"), (.get, "/short"), (.get, "/reset-mid-body"), (.get, "/silent"),
                (.get, "/ok"),
            ], configuration: configuration)
        XCTAssertEqual(
            outcomes,
            [
                "parse 502", "2 200 ok", "reset PROTOCOL_ERROR (0x1)", "reset PROTOCOL_ERROR (0x1)", "reset INTERNAL_ERROR (0x2)", "headTimeout",
                "2 200 ok",
            ])
    }

    /// Bytes that are no frame: the session fails, the request with it,
    /// and a new connection answers the next.
    func testGarbage_FailsTheConnection_AndTheNextOneServes() throws {
        let outcomes = try outcomes([(.get, "/garbage"), (.get, "/ok")], configuration: Self.configuration)
        XCTAssertEqual(outcomes.count, 2)
        XCTAssertTrue(outcomes[0].hasPrefix("other") || outcomes[0] == "connectionClosed", outcomes[0])
        XCTAssertEqual(outcomes[1], "2 200 ok")
    }

    /// An interim response (103) is skipped; trailers reach the body's
    /// reader at its end.
    func testInterimResponseAndTrailers() throws {
        let outcomes = try withPythonServer([besideTest("h2-edge-server.py")], Self.configuration) { client, port in
            let interim = await Self.outcome(client, local(port, "/interim"))
            let response = try await client.execute(local(port, "/trailers"))
            let body = try await response.text()
            return [interim, "\(body) \(response.body.trailerFields?[HTTPField.Name("x-checksum")!] ?? "-")"]
        }
        XCTAssertEqual(outcomes, ["2 200 final", "with trailers abc"])
    }

    /// A server that takes the connection and never speaks HTTP/2 (no
    /// SETTINGS): within the connect timeout the connection is given up,
    /// and each waiting request fails as a failed connect does, one per
    /// attempt; none waits for ever.
    func testSilentServer_NoSettings_IsAConnectTimeout() throws {
        let configuration = HTTPClientConfiguration(connectTimeout: .milliseconds(200), httpVersions: [.http2])
        let outcomes = try withRawServer(configuration, serve: { connection in connection.rx.data.ignoreElements().asCompletable() }) { client, port in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<2 { group.addTask { await Self.outcome(client, local(port, "/")) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        XCTAssertEqual(outcomes, ["connectTimeout", "connectTimeout"])
    }

    /// A server whose SETTINGS allow no stream at all: each connection
    /// fails as a connect does, failing one waiting request; none waits
    /// for ever.
    func testNoStreamAllowed_FailsInsteadOfWaiting() throws {
        let outcomes = try withPythonServer([besideTest("h2-edge-server.py"), "--max-streams", "0"], Self.configuration) { client, port in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<2 { group.addTask { await Self.outcome(client, local(port, "/ok")) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        XCTAssertEqual(outcomes, ["connectionClosed", "connectionClosed"])
    }
}
