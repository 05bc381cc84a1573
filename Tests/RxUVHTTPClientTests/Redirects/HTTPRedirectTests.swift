import HTTPTypes
import MetricsTestKit
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

@testable import RxUVHTTPClient

/// Redirects: where a `Location` leads, the method and body rules, the
/// bounds, and the chain followed against RxUV's server.
final class HTTPRedirectTests: BridgeTestCase {
    func testResolve_LocationAgainstTheRequest() throws {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "h:8", path: "/a/b/c?q=1")
        let cases: [(String, String)] = [
            ("https://other:9/x?y", "https://other:9/x?y"),
            ("//other/x", "http://other/x"),
            ("/root", "http://h:8/root"),
            ("d", "http://h:8/a/b/d"),
            ("./d", "http://h:8/a/b/d"),
            ("../d", "http://h:8/a/d"),
            ("../../../../d", "http://h:8/d"),
            ("?z=2", "http://h:8/a/b/c?z=2"),
            ("d#frag", "http://h:8/a/b/d"),
            ("  /spaced  ", "http://h:8/spaced"),
        ]
        for (location, expected) in cases {
            let target = try HTTPRedirect.resolve(location, against: request)
            XCTAssertEqual("\(target.scheme)://\(target.authority)\(target.path)", expected, location)
        }
        for bad in ["ftp://h/x", "/a b", "/é"] {
            XCTAssertThrowsError(try HTTPRedirect.resolve(bad, against: request), bad)
        }
    }

    static var router: HTTPRouter {
        var router = HTTPRouter()
        @Sendable func redirect(_ status: HTTPResponse.Status, to location: String) -> HTTPServerResponse {
            HTTPServerResponse(status: status, headerFields: [.location: location], body: .string("moved"))
        }
        router.get("/hops/{n}") { request in
            let n = Int(request.parameters["n"] ?? "") ?? 0
            return .just(n == 0 ? .text("arrived") : redirect(.found, to: "/hops/\(n - 1)"))
        }
        router.get("/loop") { _ in .just(redirect(.movedPermanently, to: "/loop")) }
        for method in [HTTPRequest.Method.post, .put] {
            router.add(method, "/see-other") { _ in .just(redirect(.seeOther, to: "/method")) }
            router.add(method, "/found") { _ in .just(redirect(.found, to: "/method")) }
            router.add(method, "/temporary") { _ in .just(redirect(.temporaryRedirect, to: "/method")) }
            router.add(method, "/method") { request in
                request.body.collect(upTo: 1 << 16).map { body in
                    .text("\(request.head.method) [\(body.string)] auth=\(request.head.headerFields[.authorization] ?? "-")")
                }
            }
        }
        router.get("/method") { request in .just(.text("GET [] auth=\(request.head.headerFields[.authorization] ?? "-")")) }
        return router
    }

    func testChains_MethodAndBodyRules() throws {
        let results = try withClient(handler: Self.router.handler) { client, port in
            var results: [String] = []
            func ask(_ path: String, _ method: HTTPRequest.Method, _ body: HTTPClientRequestBody = .empty) async throws {
                let request = local(port, path, method, fields: [.authorization: "secret"])
                results.append(try await client.execute(request, body: body).text())
            }
            try await ask("/hops/5", .get)
            try await ask("/see-other", .post, .string("data"))
            try await ask("/found", .post, .string("data"))
            try await ask("/found", .put, .string("data"))
            try await ask("/temporary", .post, .string("data"))
            // A stream cannot be sent twice: the 307 itself is the answer.
            try await ask("/temporary", .post, .stream(.just(ByteBuffer(string: "once"))))
            return results
        }
        XCTAssertEqual(
            results,
            [
                "arrived",
                "GET [] auth=secret",
                "GET [] auth=secret",
                "PUT [data] auth=secret",
                "POST [data] auth=secret",
                "moved",
            ])
    }

    func testBounds_TooManyLoopsAndDisabled() throws {
        let outcomes = try withClient(HTTPClientConfiguration(redirects: .follow(max: 3, allowsInsecure: false)), handler: Self.router.handler) { client, port in
            var outcomes: [String] = []
            for path in ["/hops/3", "/hops/4", "/loop"] {
                do {
                    outcomes.append(try await client.execute(local(port, path)).text())
                } catch let error as HTTPClientError {
                    outcomes.append("\(error.code): \(error.detail)")
                }
            }
            return outcomes
        }
        XCTAssertEqual(outcomes[0], "arrived")
        XCTAssertTrue(outcomes[1].hasPrefix("redirect: more than 3 redirects"), outcomes[1])
        XCTAssertTrue(outcomes[2].hasPrefix("redirect: a redirect loop"), outcomes[2])
        let status = try withClient(HTTPClientConfiguration(redirects: .none), handler: Self.router.handler) { client, port in
            let response = try await client.execute(local(port, "/hops/1"))
            return "\(response.status.code) \(response.headerFields[.location] ?? "-") \(try await response.text())"
        }
        XCTAssertEqual(status, "302 /hops/0 moved")
    }

    /// Disposing a request while it waits on the hop a redirect led to
    /// ends that hop too: its connection is closed, not returned to the
    /// pool (the pool's open-connections meter drops by one; the first
    /// exchange's connection stays, idle), nothing is answered, and nothing
    /// leaks (the base's gates).
    func testDisposingDuringAHop_ClosesTheHopsConnection() throws {
        let reached = Flag()
        let metrics = TestMetrics()
        var configuration = HTTPClientConfiguration()
        configuration.metricsFactory = metrics
        configuration.metricsLabel = "redirect-dispose"
        var router = HTTPRouter()
        router.get("/to-slow") { _ in .just(HTTPServerResponse(status: .found, headerFields: [.location: "/slow"], body: .string("moved"))) }
        router.get("/slow") { _ in
            reached.set()
            return .never()
        }
        let open = { @Sendable in
            (try? metrics.expectMeter("rxuv_http_client_connections_open", [("client", "redirect-dispose")]).lastValue) ?? -1
        }
        let outcome = try withClient(configuration, handler: router.handler) { client, port in
            let answered = Flag()
            let subscription = client.rx.send(local(port, "/to-slow")).subscribe { _ in answered.set() }
            for _ in 0..<500 where !reached.isSet {
                try await Task.sleep(for: .milliseconds(5))
            }
            let openBefore = open()
            subscription.dispose()
            for _ in 0..<500 where open() >= openBefore {
                try await Task.sleep(for: .milliseconds(5))
            }
            return (reached.isSet, openBefore, open(), answered.isSet)
        }
        XCTAssertTrue(outcome.0, "the redirect was followed")
        XCTAssertGreaterThanOrEqual(outcome.1, 1)
        XCTAssertEqual(outcome.2, outcome.1 - 1, "the hop's connection closed on dispose, and only it")
        XCTAssertFalse(outcome.3, "a disposed request answers nothing")
    }

    /// Credentials do not follow a redirect to another origin; https never
    /// goes to http unless allowed.
    func testOtherOrigin_DropsCredentials_AndHTTPSDowngradeRefused() throws {
        let request = HTTPRequest(method: .get, scheme: "https", authority: "a", path: "/", headerFields: [.authorization: "x", .cookie: "c"])
        func response(_ location: String) -> HTTPClientResponse {
            HTTPClientResponse(head: HTTPResponse(status: .found, headerFields: [.location: location]), minorVersion: 1, body: HTTPClientResponseBody(source: nil))
        }
        let same = try XCTUnwrap(try HTTPRedirect(following: request, body: .empty, response: response("/b")))
        XCTAssertEqual(same.request.headerFields[.authorization], "x")
        let other = try XCTUnwrap(try HTTPRedirect(following: request, body: .empty, response: response("https://b/")))
        XCTAssertNil(other.request.headerFields[.authorization])
        XCTAssertNil(other.request.headerFields[.cookie])
    }

    /// A redirect is read from the response's status as it is now: a head
    /// set after the response was made (a 200 turned into a 307, a 301 into
    /// a 200) is what decides, and the code kept with it follows it.
    func testRedirect_ReadsTheStatusAsTheHeadWasLastSet() throws {
        let request = HTTPRequest(method: .post, scheme: "http", authority: "a", path: "/")
        var response = HTTPClientResponse(
            head: HTTPResponse(status: .ok, headerFields: [.location: "/b"]), minorVersion: 1, body: HTTPClientResponseBody(source: nil))
        XCTAssertNil(try HTTPRedirect(following: request, body: .empty, response: response))
        response.head.status = .temporaryRedirect
        XCTAssertEqual(response.statusCode, 307)
        let kept = try XCTUnwrap(try HTTPRedirect(following: request, body: .empty, response: response))
        XCTAssertEqual(kept.request.method, .post, "307 keeps the method")
        response.head = HTTPResponse(status: .ok, headerFields: [.location: "/c"])
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertNil(try HTTPRedirect(following: request, body: .empty, response: response))
    }
}
